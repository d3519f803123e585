#!/usr/bin/env bash
# tests/device_grade.sh — one call on a GPU machine for the class-grading
# work: the judge's CLI checks, lab 1 and lab 5 solutions with their score
# lines, make grade with JOBS=4 on a GPU (turns never overlap), and the full
# lab suites. Writes logs under $OUT when set. Prints a short table last.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s judge 2>&1 | tail -3
tests/cli.sh >"$out/cli.log" 2>&1; echo "cli: $(tail -1 "$out/cli.log")"
for lab in ${LABS:-1 5}; do
    sol=$(ls reference/solutions/$(printf '%02d' "$lab")-*.cu)
    build/judge --kit . --lab "$lab" --kernel "$sol" --backend gpu --seed 42 >"$out/sol$lab.txt" 2>&1
    echo "lab $lab solution (exit $?):"; grep -E "timed|median|score|speed|verdict" "$out/sol$lab.txt" | sed 's/^/    /'
done
for lab in ${GRADE_LABS:-1}; do tests/grade_gpu.sh "$lab" 2>&1 | tee "$out/grade_gpu$lab.log" | tail -8; done
[ -n "${SUITES:-}" ] && for s in $SUITES; do tests/labs.sh gpu $s >"$out/labs$s.log" 2>&1; echo "labs.sh gpu $s: $(tail -1 "$out/labs$s.log")"; done
exit 0
