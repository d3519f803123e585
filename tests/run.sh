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
#      parts' runs (tests/compare.sh gpu) — when a
#      usable GPU is present (judges side by side over every GPU, GPUS=n for
#      fewer, with the part's seconds printed); otherwise reported as SKIPPED
#      with the reason.
#   The handouts (tests/handouts.sh: English and Chinese in step, the make
#   commands they quote, hint anchors, `make handouts`) run with `all`, or
#   alone as `tests/run.sh handouts`.
# usage: tests/run.sh [unit|sandbox|handouts|emu|platform|pictures|gpu|all] [--match PATTERN]
# --match PATTERN (or MATCH=PATTERN) runs only the checks whose names match it,
# in every shell suite (tests/lib.sh); the cmocka unit tests all run.
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

# tally LOG: adds a part's closing line ("N passed, M failed[, K skipped]") to the totals,
# and says how long the part took (since the previous tally).
tally() {
    local p f k
    read -r p f k <<<"$(totals_of "$1")"
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + k))
    echo "  (that part: $((SECONDS - part_start)) s)"
    part_start=$SECONDS
}
part_start=$SECONDS

# cmocka is a test-only tool (.ci/run installs it): without it the host unit
# tests are SKIPPED, said plainly, and the other parts still run (a GPU
# machine often has no cmocka and no way to install it).
have_cmocka=1
if ! echo '#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1; then
    have_cmocka=0
fi

log=$(mktemp)
emu_results=$(mktemp)  # the emulation part's results lines (tests/labs.sh RESULTS=), read by the parity test
trap 'rm -f "$log" "$emu_results"' EXIT

if { [ "$part" = all ] || [ "$part" = unit ]; } && [ "$have_cmocka" -eq 0 ]; then
    echo "== host unit tests"
    skipped=$((skipped + 1))
    echo "  SKIPPED: cmocka is not installed (apt-get install libcmocka-dev, as .ci/run does); the unit tests ran not at all."
    tests/lib_selftest.sh | tee "$log"
    tally "$log"
    tests/cli.sh | tee "$log"
    tally "$log"
    tests/report_keys.sh | tee "$log"
    tally "$log"
    tests/function_length.sh | tee "$log"
    tally "$log"
    tests/grade_fake_judge.sh | tee "$log"
    tally "$log"
    tests/shim.sh | tee "$log"
    tally "$log"
elif [ "$part" = all ] || [ "$part" = unit ]; then
    echo "== host unit tests"
    make -s unit-tests judge || exit 1
    for t in build/tests/test_*; do
        case "$t" in *.gcno | *.gcda) continue ;; esac
        out=$("$t" 2>&1)
        status=$?
        n=$(grep -oE 'Running [0-9]+ test' <<<"$out" | grep -oE '[0-9]+')
        n=${n:-0}
        if [ "$status" -eq 0 ]; then
            passed=$((passed + n))
            printf '  %-22s %s tests ok   %s\n' "$(basename "$t")" "$n" "$(head -1 <<<"$out")"
        else
            failed=$((failed + (status > 0 ? status : 1)))
            passed=$((passed + n - status))
            echo "$out" | grep -vE '^\[ +(RUN|OK) +\]'
        fi
    done
    tests/lib_selftest.sh | tee "$log"
    tally "$log"
    tests/cli.sh | tee "$log"
    tally "$log"
    tests/report_keys.sh | tee "$log"
    tally "$log"
    tests/function_length.sh | tee "$log"
    tally "$log"
    tests/grade_fake_judge.sh | tee "$log"
    tally "$log"
    tests/parity/test_compare.sh | tee "$log"
    tally "$log"
    tests/shim.sh | tee "$log"  # the shim against a fake executor (where the CUDA toolkit's headers are)
    tally "$log"
fi

if [ "$part" = all ] || [ "$part" = unit ] || [ "$part" = sandbox ]; then
    echo "== the sandbox under attack"
    tests/sandbox.sh | tee "$log"
    tally "$log"
fi

if [ "$part" = all ] || [ "$part" = handouts ]; then
    tests/handouts.sh | tee "$log"
    tally "$log"
fi

if [ "$part" = all ] || [ "$part" = emu ]; then
    echo "== labs through CPU emulation"
    if [ -f grader/emu/emu.mk ]; then
        # Two halves of the labs side by side when there are two CPUs or more (each judge is one
        # thread): the judge and the emulation library are built first, so the halves build only
        # their own kernels' runners; each half's log is printed whole, then counted.
        make -s judge && build/judge --kit "$PWD" --lab 1 --backend emu --case 1 \
            --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1
        all_labs=()
        for d in labs/[0-9][0-9]-*/; do all_labs+=("$(basename "$d")"); done
        if [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && [ ${#all_labs[@]} -ge 2 ]; then
            half_a=() half_b=()
            for i in "${!all_labs[@]}"; do
                if [ $((i % 2)) -eq 0 ]; then half_a+=("${all_labs[$i]}"); else half_b+=("${all_labs[$i]}"); fi
            done
            JUDGE="$PWD/build/judge" RESULTS="$emu_results" tests/labs.sh emu "${half_a[@]}" >"$log.a" 2>&1 &
            JUDGE="$PWD/build/judge" RESULTS="$emu_results" tests/labs.sh emu "${half_b[@]}" >"$log.b" 2>&1 &
            wait
            for half in a b; do
                cat "$log.$half"
                tally "$log.$half"
            done
            rm -f "$log.a" "$log.b"
        else
            RESULTS="$emu_results" tests/labs.sh emu | tee "$log"
            tally "$log"
        fi
        echo "== the same verdicts as the GPU's record (the parity test's emulation half)"
        tests/compare.sh emu "$emu_results" | tee "$log"
        tally "$log"
        echo "== grading a class (make grade, through emulation)"
        tests/grade.sh | tee "$log"
        tally "$log"
        echo "== grading a class on a one-node Slurm cluster (make grade SLURM=1)"
        tests/slurm.sh | tee "$log"
        tally "$log"
        if [ -x tests/emu/run.sh ]; then
            echo "== emulation backend unit tests"
            tests/emu/run.sh | tee "$log"
            tally "$log"
        fi
        tests/fake_gpu.sh | tee "$log"  # the judge's GPU backend on a fake GPU (tests/fakes/)
        tally "$log"
    else
        skipped=$((skipped + 1))
        echo "  SKIPPED: this tree has no emulation backend (grader/emu/emu.mk)"
    fi
fi

if { [ "$part" = all ] || [ "$part" = platform ]; } && [ -f grader/emu/emu.mk ]; then
    tests/platform.sh | tee "$log"
    tally "$log"
fi

if { [ "$part" = all ] || [ "$part" = pictures ]; } && [ -f grader/emu/emu.mk ]; then
    echo "== the report's pictures and HTML page (gnuplot, a headless browser)"
    tests/pictures.sh | tee "$log"
    tally "$log"
fi

if [ "$part" = all ] || [ "$part" = gpu ]; then
    echo "== GPU integration tests"
    make -s judge
    reason=$(build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 2>&1 >/dev/null | head -1)
    if build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1; then
        # Every file of every lab, judges side by side over the machine's GPUs (GPUS=n to use fewer).
        gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
        gpu_start=$SECONDS
        gpu_results=$(mktemp)
        GPUS=$((gpus > 0 ? gpus : 1)) RESULTS="$gpu_results" tests/labs.sh gpu | tee "$log"
        echo "  (the labs on the GPU: $((SECONDS - gpu_start)) s over $((gpus > 0 ? gpus : 1)) GPU(s))"
        tally "$log"
        # the parity test: this part's runs against the emulation part's (run now when it was not)
        if [ -s "$emu_results" ]; then
            tests/compare.sh gpu "$gpu_results" "$emu_results" | tee "$log"
        else
            tests/compare.sh gpu "$gpu_results" | tee "$log"
        fi
        tally "$log"
        rm -f "$gpu_results"
        tests/device_checker.sh | tee "$log"  # the kit's GPU checker held to the CPU reference
        tally "$log"
    else
        skipped=$((skipped + 1))
        echo "  SKIPPED: no usable GPU here (${reason#stencil-labs: }); the GPU integration tests ran not at all."
    fi
fi

echo "tests: $passed passed, $failed failed, $skipped skipped (in $SECONDS s)"
[ "$failed" -eq 0 ]
