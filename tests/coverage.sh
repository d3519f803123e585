#!/usr/bin/env bash
# tests/coverage.sh — `make coverage`: builds the judge and the unit tests
# with gcov instrumentation, runs the unit tests, the command-line checks and
# the lab pipeline through CPU emulation (labs 1, 2 and 5), and writes an lcov HTML
# report of grader/ and reference/ (host C code) to build/coverage/.
# Prints a line a room (its lines and the share that ran, or "not measured")
# and the total; fails if lcov is missing (tests install it).
set -u
cd "$(dirname "$0")/.." || exit 2
command -v lcov >/dev/null && command -v genhtml >/dev/null ||
    { echo "coverage: lcov is not installed (apt-get install lcov; .ci/run installs it)"; exit 2; }
cov=build/cov
rm -rf "$cov" build/coverage
make -s BUILD="$cov" CFLAGS="-O0 -g --coverage -DSTENCIL_COVERAGE" unit-tests "$cov/judge" || exit 1
for t in "$cov"/tests/test_*; do
    case "$t" in *.gcno | *.gcda) continue ;; esac
    "$t" >/dev/null 2>&1 || echo "coverage: $t failed"
done
tests/cli.sh "$cov/judge" >/dev/null
if [ -f grader/emu/emu.mk ]; then
    JUDGE="$cov/judge" tests/labs.sh emu 1 2 5 >/dev/null
fi
lcov --quiet --capture --directory "$cov" --output-file "$cov/all.info" --rc lcov_branch_coverage=0 2>/dev/null
lcov --quiet --extract "$cov/all.info" "$PWD/grader/*.c" "$PWD/grader/*/*.c" "$PWD/reference/*.c" --output-file "$cov/kit.info" 2>/dev/null
genhtml --quiet "$cov/kit.info" --output-directory build/coverage >/dev/null 2>&1
# A line a room: the share of its measured lines that ran. Rooms whose code the
# instrumented judge and unit tests do not hold (the class grader, the shim, the
# emulation runtime, the executor) are listed as not measured.
printf '  %-18s %8s %8s\n' room lines covered
for room in grader/judge grader/sandbox reference grader/class grader/shim grader/emu grader/executor; do
    if lcov --quiet --extract "$cov/kit.info" "$PWD/$room/*" --output-file "$cov/room.info" 2>/dev/null &&
        summary=$(lcov --summary "$cov/room.info" 2>&1 | grep -E "^ *lines") && [ -n "$summary" ]; then
        printf '  %-18s %8s %8s\n' "$room" "$(grep -oE 'of [0-9]+' <<<"$summary" | grep -oE '[0-9]+')" "$(grep -oE '[0-9.]+%' <<<"$summary")"
    else
        printf '  %-18s %8s %8s\n' "$room" - "not measured"
    fi
done
lcov --summary "$cov/kit.info" 2>&1 | grep -E "lines"
echo "coverage report: build/coverage/index.html"
