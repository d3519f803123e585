#!/usr/bin/env bash
# tests/shim.sh — grader/shim/ without a GPU: builds a student's program as
# grader/build.mk does (shim.cpp and student_main.cpp, here with
# tests/shim/student_calls.cpp for the kernel file: host code only, every call
# the shim offers) and runs it under tests/shim/fake_executor.c, which plays
# the executor's side of the wire with a call drawn from the seed and checks
# each message. Needs the CUDA toolkit's headers (cuda_runtime_api.h; no GPU,
# no nvcc run): without them it says SKIPPED. SHIM_COVERAGE=--coverage
# instruments the shim (tests/coverage.sh); BUILD= the build folder.
# usage: tests/shim.sh [--match PATTERN]     Prints a line per check and "shim: N passed, M failed[, K skipped]".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
out=${BUILD:-build}/tests/shim
mkdir -p "$out"
nvcc=$(command -v "${NVCC:-nvcc}" 2>/dev/null)
cuda_include=${CUDA_HOME:-$(dirname "$(dirname "$(realpath "${nvcc:-/nonexistent/bin/nvcc}")")")}/include
if [ ! -f "$cuda_include/cuda_runtime_api.h" ]; then
    skip "the shim against a fake executor" "no CUDA toolkit headers here ($cuda_include/cuda_runtime_api.h): install the CUDA toolkit or set CUDA_HOME"
    finish shim
fi
draw_seed "shim tests (the call's size and grids)"
coverage=${SHIM_COVERAGE:-}
if ! ${CXX:-g++} -std=c++17 -O0 -g -Wall -Wextra $coverage ${coverage:+-DSTENCIL_COVERAGE} -I"$cuda_include" \
        -Igrader/protocol -Ikernels -Itests/shim grader/shim/shim.cpp grader/shim/student_main.cpp \
        tests/shim/student_calls.cpp -o "$out/program" -pthread 2>"$out/build.log" ||
   ! ${CC:-cc} -std=c11 -O1 -g -Wall -Wextra -Igrader/protocol -Itests/shim tests/shim/fake_executor.c \
        -o "$out/fake_executor" 2>>"$out/build.log"; then
    fail "the shim and its fake executor build" "$(head -20 "$out/build.log")"
    finish shim
fi
"$out/fake_executor" "$out/program" "$seed" >"$out/run.log" 2>&1
status=$?
while IFS= read -r line; do
    case "$line" in
    "ok - "*) pass "${line#ok - }" ;;
    "not ok - "*) name=${line#not ok - }; fail "${name%%$'\t'*}" "${name#*$'\t'}" ;;
    "# "*) echo "  $line" ;;
    *) echo "        $line" ;;
    esac
done <"$out/run.log"
[ "$status" -eq 0 ] || grep -q '^not ok' "$out/run.log" || fail "the fake executor exited with status $status" "$(tail -5 "$out/run.log")"
finish shim
