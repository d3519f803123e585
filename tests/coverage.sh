#!/usr/bin/env bash
# tests/coverage.sh — `make coverage`: the line coverage of every room of the
# kit whose code runs without a GPU. Builds the judge, the class grader, the
# unit tests and the emulation backend (translator, runtime and its own test
# programs) with gcov instrumentation under build/cov/, runs a chosen subset of
# the suites on them (below: a few minutes, not the whole `make test`), and
# writes an lcov HTML report to build/coverage/.
# Prints a line a room (its lines, the share that ran, its floor), or why a
# room is not measured, then the total. Exits 1 when a measured room ran less
# than its floor (or a suite failed), 2 when it cannot run (lcov missing, the
# build failed). STEPS="unit cli labs platform fakegpu emu class slurm shim" runs only some of the suites
# (the floors are then not enforced). Where nvidia-smi lists a GPU the steps
# add `executor`: tests/device_coverage.sh (about five minutes), whose room
# line fills the row of the executor's CUDA sources; without one (CI) that row
# says how to measure it (the executor's plain C part, exec_args.c, is measured
# everywhere, by the unit tests).
# usage: tests/coverage.sh [all]
# `all` (make test COVERAGE=1, .ci/run) runs every suite of make test instead of the
# subset: tests/run.sh on the gcov build, its whole output and closing line, and
# the rooms' lines counted from that one run (each suite's log kept as
# build/cov/STEP.log, STEP the name of the step below it counts for).
set -u
cd "$(dirname "$0")/.." || exit 2
command -v lcov >/dev/null && command -v genhtml >/dev/null ||
    { echo "coverage: lcov is not installed (apt-get install lcov; .ci/run installs it)"; exit 2; }

# The rooms, the one definition of what is measured: the folder, its floor
# (the least share of its lines the run must cover, in percent; `-` for a
# room not measured), the steps below whose runs count for it, and what they
# are (or why nothing here can run the room). A room whose steps were all
# skipped here (a tool missing: the suite said SKIP) is listed with the
# reason and not held to its floor. The goal is 90 for every room; a floor
# is the share reached so far less a point or two (random inputs take
# slightly different paths), so that coverage can only grow. The sandbox's
# floor counts on root (CAP_SETPCAP) and a kernel with Landlock: without
# them the steps that use them do not run and its share is lower.
rooms_table="\
grader/judge     91  unit,cli,labs,platform,fakegpu  the unit tests, tests/cli.sh, tests/report_keys.sh, labs 1, 2 and 5 under emulation (solution, skeleton, hostile files), tests/platform.sh, tests/fake_gpu.sh (the GPU backend on tests/fakes/)
grader/sandbox   95  unit           tests/unit/test_sandbox.c (its confined children write their counts before they end; each call sandbox_enter makes failed in turn)
reference        95  unit,labs      the unit tests and the labs' CPU references
grader/class     95  class,slurm    tests/grade.sh (make grade through emulation), tests/grade_fake_judge.sh (build/grade with a fake judge and a fake sbatch), tests/slurm.sh (the job array, where Slurm is installed; its tasks run the plain build/grade)
grader/emu       92  emu            tests/emu/run.sh (the runtime and the translator, built with EMU_COVERAGE; the translator's refusals)
grader/protocol  95  unit,cli,labs,fakegpu  the inline helpers of its headers (case files, bit patterns, printable text, whole pipe reads, the GPU's lock files), run by the judge and the unit tests (tests/unit/test_protocol.c)
grader/shim      95  shim           tests/shim.sh (the shim against a fake executor; needs the CUDA toolkit's headers, not a GPU)
grader/executor  95  unit           its part that runs without a GPU, the command line and the judge's requests (exec_args.c, plain C), by tests/unit/test_exec_args.c
grader/executor/*.cu  -   executor   the rest, GPU only (every path starts with the driver and a device): tests/device_coverage.sh on a GPU machine measures it, gcov alone, a line a file"

cov=build/cov
whole=0
[ "${1:-}" = all ] && whole=1
gpu_step=""
[ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 1 ] && gpu_step=" executor"  # the executor's room needs a GPU
steps=${STEPS:-unit cli labs platform fakegpu emu class slurm shim$gpu_step}
suite_failed=0
start=$SECONDS
rm -rf "$cov" build/coverage
cov_instrument="--coverage -DSTENCIL_COVERAGE"  # what the gcov build adds, and what the suites' own builds add there
# -O1, not -O0: the labs through emulation spend a third of their time in the judge's own
# checks, and -O1 makes them a third faster (lab 4's 30 files: 76 s at -O0, 50 s at -O1, 46 s
# without gcov); the whole of make test COVERAGE=1 on a clean clone, one machine of two cores:
# 1553 s at -O0, 1249 s at -O1, every room above its floor in both (a line -O1 folds away is
# neither counted nor missed: 13,201 lines against 13,235).
cov_flags="-O1 -g $cov_instrument"

# step NAME COMMAND...: runs one suite of the subset (when STEPS names it) quietly into $cov/NAME.log, says how long it took, and notes a failure.
step() {
    local name=$1 t=$SECONDS
    shift
    case " $steps " in *" $name "*) ;; *) return 0 ;; esac
    if "$@" >>"$cov/$name.log" 2>&1; then
        echo "  $name: ok ($((SECONDS - t)) s)"
    else
        echo "  $name: FAILED ($((SECONDS - t)) s): its log is $cov/$name.log"
        suite_failed=1
    fi
}

# unit_tests: every host unit test program of the coverage build; fails if one fails.
unit_tests() {
    local t status=0
    for t in "$cov"/tests/test_*; do
        case "$t" in *.gcno | *.gcda) continue ;; esac
        "$t" || { echo "coverage: $t failed"; status=1; }
    done
    return $status
}

# lab_subset: the labs' files that take the judge's paths (a sweep, its hostile files' faults,
# the load counts of lab 2, a whole solve), two halves side by side; fails if one does.
lab_subset() {
    local status=0
    JUDGE="$cov/judge" KINDS="solution skeleton hostile" tests/labs.sh emu 1 >"$cov/labs-a.log" 2>&1 &
    local first=$!
    JUDGE="$cov/judge" KINDS="solution skeleton hostile" tests/labs.sh emu 2 5 >"$cov/labs-b.log" 2>&1 || status=1
    wait "$first" || status=1
    cat "$cov/labs-a.log" "$cov/labs-b.log"
    return $status
}

echo "== coverage: building the kit with gcov instrumentation"
make -s judge || exit 2  # the plain judge: make grade's judges and the emulation's builds use it
make -s BUILD="$cov" CFLAGS="$cov_flags" judge unit-tests || exit 2  # each a make -j of its own
if [ "$whole" -eq 1 ]; then
    TEST_BUILD="$cov" TEST_COVERAGE="$cov_instrument" TEST_LOGS="$cov" tests/run.sh || suite_failed=1
    steps=""  # every step's suites ran in tests/run.sh
fi
step unit unit_tests
step cli tests/cli.sh "$cov/judge"
step cli tests/report_keys.sh
step labs lab_subset
step platform tests/platform.sh "$cov/judge"
step fakegpu tests/fake_gpu.sh "$cov/judge"
step emu env EMU_BUILD="$cov/emu" EMU_COVERAGE="$cov_instrument" tests/emu/run.sh
step class env BUILD="$cov" tests/grade.sh
step class env BUILD="$cov" tests/grade_fake_judge.sh
step slurm env BUILD="$cov" tests/slurm.sh
step shim env BUILD="$cov" SHIM_COVERAGE="$cov_instrument" tests/shim.sh
step executor tests/device_coverage.sh

lcov --quiet --capture --directory "$cov" --output-file "$cov/all.info" --rc lcov_branch_coverage=0 2>/dev/null
lcov --quiet --extract "$cov/all.info" "$PWD/grader/*" "$PWD/reference/*" --output-file "$cov/kit.info" 2>/dev/null
genhtml --quiet "$cov/kit.info" --output-directory build/coverage >/dev/null 2>&1

# room_summary ROOM: "LINES PERCENT" of the room's measured lines, or nothing when none ran.
room_summary() {
    local summary
    lcov --quiet --extract "$cov/kit.info" "$PWD/$1/*" --output-file "$cov/room.info" 2>/dev/null || return
    summary=$(lcov --summary "$cov/room.info" 2>&1 | grep -E "^ *lines") || return
    echo "$(grep -oE 'of [0-9]+' <<<"$summary" | grep -oE '[0-9]+') $(grep -oE '[0-9.]+%' <<<"$summary" | tr -d %)"
}

# skip_reason STEPS: the first SKIP line of the logs of STEPS (comma-separated) when none of them ran a check, else nothing.
skip_reason() {
    local name reason=""
    for name in ${1//,/ }; do
        [ -f "$cov/$name.log" ] || continue
        grep -q '^  ok ' "$cov/$name.log" && return
        [ -n "$reason" ] || reason=$(grep -m 1 '^  SKIP ' "$cov/$name.log" | sed 's/^  SKIP  //')
    done
    echo "$reason"
}

under=0
printf '  %-20s %8s %8s %6s\n' room lines covered floor
while read -r room floor room_steps how; do
    if [ "$floor" = - ]; then  # measured by a script of its own, when its step ran: its room line
        read -r lines percent <<<"$(awk '/ \(room\) / { print $3, $5 }' "$cov/$room_steps.log" 2>/dev/null | tail -1)"
        if [ -n "${lines:-}" ]; then
            printf '  %-20s %8s %7s%% %6s  %s\n' "$room" "$lines" "${percent%\%}" - "a line a file in $cov/$room_steps.log"
        else
            printf '  %-20s %8s %8s %6s  %s\n' "$room" - - - "$how"
        fi
        continue
    fi
    read -r lines percent <<<"$(room_summary "$room")"
    skipped=$(skip_reason "$room_steps")
    if [ -z "${lines:-}" ] && [ -n "$skipped" ]; then
        printf '  %-20s %8s %8s %6s  not measured here: %s\n' "$room" - - "$floor%" "$skipped"
    elif [ -z "${lines:-}" ]; then
        printf '  %-20s %8s %8s %6s  FAIL: nothing of it ran (%s)\n' "$room" - - "$floor%" "$how"
        under=1
    elif awk -v p="$percent" -v f="$floor" 'BEGIN { exit !(p < f) }'; then
        printf '  %-20s %8s %7s%% %5s%%  FAIL: under its floor\n' "$room" "$lines" "$percent" "$floor"
        under=1
    else
        printf '  %-20s %8s %7s%% %5s%%\n' "$room" "$lines" "$percent" "$floor"
    fi
done <<<"$rooms_table"
lcov --summary "$cov/kit.info" 2>&1 | grep -E "lines"
echo "coverage report: build/coverage/index.html ($((SECONDS - start)) s)"
if [ "$whole" -eq 0 ] && [ -n "${STEPS:-}" ]; then
    echo "coverage: STEPS=\"$STEPS\" ran only some suites: the floors are not enforced"
    exit "$suite_failed"
fi
if [ "$under" -ne 0 ]; then
    echo "coverage: a room ran under its floor: add tests for its lines that did not run (build/coverage/index.html shows them), never lower the floor"
    exit 1
fi
exit "$suite_failed"
