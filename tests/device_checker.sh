#!/usr/bin/env bash
# tests/device_checker.sh — on a GPU: builds tests/gpu/test_trusted_check.cu
# with the executor's checker (grader/executor/trusted.cu) and the CPU
# reference, and runs it (the GPU check held to the ground truth on random
# cases; the timed calls' gate held to what timing needs of it). Prints
# "checker: N passed, M failed"; SKIPPED without a GPU.
# COVERAGE_OBJS=DIR: DIR holds the executor's objects built with gcov's counts
# (EXEC_COVERAGE=1, tests/device_coverage.sh); the checker links DIR/trusted.o
# in place of trusted.cu, so its runs add to the executor's counts.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
command -v nvcc >/dev/null || { echo "checker: SKIPPED, nvcc is not on PATH"; exit 77; }
out=build/tests/gpu
mkdir -p "$out"
trusted=(grader/executor/trusted.cu)
[ -n "${COVERAGE_OBJS:-}" ] && trusted=("$COVERAGE_OBJS/trusted.o" -lgcov)
rm -f "$out/test_trusted_check"  # a binary left by an earlier build must not stand in for this one
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
nvcc -O2 -std=c++17 -arch=sm_${arch:-90} -Igrader/executor -Igrader/protocol -Igrader/sandbox -Ikernels -Ireference \
    tests/gpu/test_trusted_check.cu "${trusted[@]}" reference/stencil_ref.c reference/jacobi_ref.c -o "$out/test_trusted_check" 2>&1 | grep -v "^$" | head -20
[ -x "$out/test_trusted_check" ] || { fail "tests/gpu/test_trusted_check.cu builds"; finish checker; }
"$out/test_trusted_check"
