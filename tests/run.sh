#!/usr/bin/env bash
# tests/run.sh — `make test`, the kit's own tests, in three parts:
#   1. host unit tests (cmocka), the test library's self-test
#      (tests/lib_selftest.sh), the judge's command-line checks, the
#      report keys between runner and judge (tests/report_keys.sh), the
#      length of grader/'s functions (tests/function_length.sh), the class
#      grader with a fake judge (tests/grade_fake_judge.sh) and the
#      shim against a fake executor (tests/shim.sh, where the CUDA toolkit's
#      headers are) — always;
#   2. every lab through the CPU emulation backend (solutions pass, skeletons
#      and mutants fail with their hints) and those runs' verdicts held to the
#      GPU's record (tests/compare.sh emu), the judge's GPU backend on a fake
#      GPU (tests/fake_gpu.sh, tests/fakes/), then the autograder platforms
#      through it (tests/platform.sh) and the report's pictures and HTML page
#      (tests/pictures.sh) — always;
#   3. the same on the GPU, plus the GPU-vs-emulation comparison of both
#      parts' runs (tests/compare.sh gpu), the kit's GPU checker held to the
#      CPU reference (tests/device_checker.sh) and the executor's load count
#      to the kernels' own loads (tests/device_cupti.sh) — when a
#      usable GPU is present (judges side by side over every GPU, GPUS=n for
#      fewer, with the part's seconds printed); otherwise reported as SKIPPED
#      with the reason.
#   The handouts (tests/handouts.sh: English and Chinese in step, the make
#   commands they quote, hint anchors, `make handouts`) run with `all`, or
#   alone as `tests/run.sh handouts`.
# The suites of parts 1 and 2 run side by side, two at a time where there are
# two CPUs or more (the labs first, two judges at a time); each suite's output
# is printed whole when it ends, with the seconds it took.
# usage: tests/run.sh [unit|sandbox|handouts|emu|platform|pictures|gpu|all] [--match PATTERN]
# --match PATTERN (or MATCH=PATTERN) runs only the checks whose names match it,
# in every shell suite (tests/lib.sh); the cmocka unit tests all run.
# TEST_BUILD=DIR (a folder under the kit's root) tests the judge, the class
# grader and the unit tests already built in DIR instead of building build/'s
# (tests/coverage.sh all: its gcov build); TEST_COVERAGE=FLAGS instruments what
# the emulation's tests and the shim build for themselves; TEST_LOGS=DIR appends
# each suite's log to DIR/STEP.log (STEP: tests/coverage.sh's step it counts for).
# Ends with one line "N passed, M failed, K skipped"; exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"  # --match PATTERN, passed on to every suite as MATCH; totals_of
set -- "${suite_args[@]}"
export MATCH=$match_pattern
part=${1:-all}
passed=0
failed=0
skipped=0
build=${TEST_BUILD:-build}  # the judge, class grader and unit tests under test
judge=$build/judge
cpus=$(nproc 2>/dev/null || echo 1)
side_by_side=$((cpus >= 2 ? 2 : 1))  # suites at a time, and the labs' judges at a time

# wants PART...: succeeds when this run includes one of the parts named.
wants() {
    local p
    for p in all "$@"; do [ "$part" = "$p" ] && return 0; done
    return 1
}

# tally LOG SECONDS: adds a suite's closing line ("N passed, M failed[, K skipped]") to the
# totals, and says how long the suite took.
tally() {
    local p f k
    read -r p f k <<<"$(totals_of "$1")"
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + k))
    echo "  (that part: $2 s)"
}

# Without cmocka the host unit tests are SKIPPED, said plainly (tests/lib.sh's have_cmocka).
cmocka=1
have_cmocka || cmocka=0

suites=$(mktemp -d)   # each suite's log, step and seconds, by the order it started
emu_results=$(mktemp)  # the emulation part's results lines (tests/labs.sh RESULTS=), read by the parity test
trap 'rm -rf "$suites" "$emu_results"' EXIT
started=0

# print_ended: prints the log of every suite that has ended since the last call, whole, and counts it.
print_ended() {
    local i
    for ((i = 1; i <= started; i++)); do
        [ -e "$suites/$i.seconds" ] && [ ! -e "$suites/$i.printed" ] || continue
        cat "$suites/$i.log"
        tally "$suites/$i.log" "$(cat "$suites/$i.seconds")"
        [ -z "${TEST_LOGS:-}" ] || cat "$suites/$i.log" >>"$TEST_LOGS/$(cat "$suites/$i.step").log"
        touch "$suites/$i.printed"
    done
}

# suite STEP COMMAND...: starts COMMAND (a suite) once fewer than side_by_side suites run,
# its output kept in a log of its own; STEP names tests/coverage.sh's step it counts for.
suite() {
    local step=$1
    shift
    while [ "$(jobs -rp | wc -l)" -ge "$side_by_side" ]; do
        wait -n
        print_ended
    done
    started=$((started + 1))
    echo "$step" >"$suites/$started.step"
    (
        start=$SECONDS
        "$@" >"$suites/$started.log" 2>&1
        echo $((SECONDS - start)) >"$suites/$started.seconds"
    ) &
}

# all_ended: waits for every suite started, printing each as it ends.
all_ended() {
    while [ -n "$(jobs -rp)" ]; do
        wait -n
        print_ended
    done
    print_ended
}

# titled HEADING COMMAND...: prints HEADING, then runs COMMAND.
titled() {
    echo "$1"
    shift
    "$@"
}

# unit_tests: runs every host unit test program of the build under test, a line each (a failure's
# messages under it), then the closing line.
unit_tests() {
    local t out status n unit_passed=0 unit_failed=0
    echo "== host unit tests"
    if [ "$cmocka" -eq 0 ]; then
        echo "  SKIPPED: $CMOCKA_MISSING; the unit tests ran not at all."
        echo "host unit tests: 0 passed, 0 failed, 1 skipped"
        return
    fi
    for t in "$build"/tests/test_*; do
        case "$t" in *.gcno | *.gcda) continue ;; esac
        out=$("$t" 2>&1)
        status=$?
        n=$(grep -oE 'Running [0-9]+ test' <<<"$out" | grep -oE '[0-9]+')
        n=${n:-0}
        if [ "$status" -eq 0 ]; then
            unit_passed=$((unit_passed + n))
            printf '  %-22s %s tests ok   %s\n' "$(basename "$t")" "$n" "$(head -1 <<<"$out")"
        else
            unit_failed=$((unit_failed + (status > 0 ? status : 1)))
            unit_passed=$((unit_passed + n - status))
            echo "$out" | grep -vE '^\[ +(RUN|OK) +\]'
        fi
    done
    echo "host unit tests: $unit_passed passed, $unit_failed failed"
}

# labs_on_emulation: every lab through CPU emulation, side_by_side judges at a time, its results
# lines kept for the parity test.
labs_on_emulation() {
    JOBS=$side_by_side JUDGE="$PWD/$judge" RESULTS="$emu_results" tests/labs.sh emu
}

# The build first: what the suites share is built once, before they start side by side
# (the judge, the class grader, the unit tests, the emulation's translator and runtime;
# make judge and make unit-tests compile side by side on their own).
build_targets=(judge)
[ -z "${TEST_BUILD:-}" ] && [ "$cmocka" -eq 1 ] && wants unit && build_targets+=(unit-tests)
make -s "${build_targets[@]}" || exit 1
has_emu=0
[ -f grader/emu/emu.mk ] && has_emu=1
if [ "$has_emu" -eq 1 ] && wants emu platform pictures; then
    make -s -j"$cpus" -f grader/emu/emu.mk emu-tools || exit 1
fi

# The suites, the longest first: they end about together.
if wants emu && [ "$has_emu" -eq 1 ]; then
    suite labs titled "== labs through CPU emulation" labs_on_emulation
    suite class titled "== grading a class (make grade, through emulation)" env BUILD="$build" tests/grade.sh
fi
wants unit && suite cli tests/cli.sh "$judge"
wants platform && [ "$has_emu" -eq 1 ] && suite platform tests/platform.sh "$judge"
if wants emu && [ "$has_emu" -eq 1 ]; then
    suite slurm titled "== grading a class on a one-node Slurm cluster (make grade SLURM=1)" env BUILD="$build" tests/slurm.sh
    suite fakegpu tests/fake_gpu.sh "$judge"  # the judge's GPU backend on a fake GPU (tests/fakes/)
    [ -x tests/emu/run.sh ] && suite emu titled "== emulation backend unit tests" \
        env EMU_BUILD="$build/emu" EMU_COVERAGE="${TEST_COVERAGE:-}" tests/emu/run.sh
fi
wants handouts && suite handouts tests/handouts.sh
wants pictures && [ "$has_emu" -eq 1 ] && suite pictures titled "== the report's pictures and HTML page (gnuplot, a headless browser)" tests/pictures.sh
if wants unit; then
    suite class env BUILD="$build" tests/grade_fake_judge.sh
    suite unit unit_tests
    suite libselftest tests/lib_selftest.sh
    suite cli tests/report_keys.sh
    suite functionlength tests/function_length.sh
    suite parity tests/parity/test_compare.sh
    suite shim env BUILD="$build" SHIM_COVERAGE="${TEST_COVERAGE:-}" tests/shim.sh  # the shim against a fake executor (where the CUDA toolkit's headers are)
fi
wants unit sandbox && suite sandbox titled "== the sandbox under attack" tests/sandbox.sh
all_ended

if wants emu; then
    if [ "$has_emu" -eq 1 ]; then
        echo "== the same verdicts as the GPU's record (the parity test's emulation half)"
        start=$SECONDS
        tests/compare.sh emu "$emu_results" >"$suites/compare.log" 2>&1
        cat "$suites/compare.log"
        tally "$suites/compare.log" $((SECONDS - start))
    else
        skipped=$((skipped + 1))
        echo "  SKIPPED: this tree has no emulation backend (grader/emu/emu.mk)"
    fi
fi

if [ "$part" = all ] || [ "$part" = gpu ]; then
    echo "== GPU integration tests"
    log=$(mktemp)
    make -s judge
    reason=$(build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 2>&1 >/dev/null | head -1)
    if build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1; then
        # Every file of every lab, judges side by side over the machine's GPUs (GPUS=n to use fewer).
        gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
        gpu_start=$SECONDS
        gpu_results=$(mktemp)
        GPUS=$((gpus > 0 ? gpus : 1)) RESULTS="$gpu_results" tests/labs.sh gpu | tee "$log"
        echo "  (the labs on the GPU: $((SECONDS - gpu_start)) s over $((gpus > 0 ? gpus : 1)) GPU(s))"
        tally "$log" $((SECONDS - gpu_start))
        # the parity test: this part's runs against the emulation part's (run now when it was not)
        start=$SECONDS
        if [ -s "$emu_results" ]; then
            tests/compare.sh gpu "$gpu_results" "$emu_results" | tee "$log"
        else
            tests/compare.sh gpu "$gpu_results" | tee "$log"
        fi
        tally "$log" $((SECONDS - start))
        rm -f "$gpu_results"
        start=$SECONDS
        tests/device_checker.sh | tee "$log"  # the kit's GPU checker held to the CPU reference
        tally "$log" $((SECONDS - start))
        start=$SECONDS
        tests/device_cupti.sh | tee "$log"  # the executor's load count (CUPTI) held to the kernels' own loads
        tally "$log" $((SECONDS - start))
    else
        skipped=$((skipped + 1))
        echo "  SKIPPED: no usable GPU here (${reason#stencil-labs: }); the GPU integration tests ran not at all."
    fi
    rm -f "$log"
fi

echo "tests: $passed passed, $failed failed, $skipped skipped (in $SECONDS s)"
[ "$failed" -eq 0 ]
