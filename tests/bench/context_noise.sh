#!/usr/bin/env bash
# tests/bench/context_noise.sh — does making CUDA contexts beside a timed case
# move its time? Every executor (the judge's device probe, the load count's,
# racecheck's) makes its context with no GPU turn, so a class's judges make
# theirs while another judge's case is timed. This measures whether that
# matters: lab LAB's (default 4) solution timed on the last
# timed case lab.conf lists, RUNS times (default 7) alone, then RUNS times
# while NOISE processes (default 8) make and drop a CUDA context in a loop;
# prints each side's median GB/s and their ratio, measured in one run.
# Asserts nothing; exits 77 without a GPU or nvcc.
set -u
cd "$(dirname "$0")/../.." || exit 2
lab=${LAB:-4}
runs=${RUNS:-7}
noise=${NOISE:-8}
command -v nvcc >/dev/null || { echo "context_noise: no nvcc here (skipped)"; exit 77; }
make -s judge || exit 2
build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1 ||
    { echo "context_noise: no usable GPU here (skipped)"; exit 77; }
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
printf '#include <cuda_runtime.h>\nint main(void) { return cudaFree(0) != cudaSuccess; }\n' >"$tmp/context.cu"
nvcc -o "$tmp/context" "$tmp/context.cu" || exit 2
sol=$(build/judge --kit "$PWD" --lab "$lab" --conf-get solution)
case=$(build/judge --kit "$PWD" --lab "$lab" --conf-get timed | awk "{ print \$NF }")  # the last timed case lab.conf lists
[ -n "$case" ] || { echo "context_noise: lab $lab has no timed case"; exit 2; }
# median GB/s of RUNS timed runs of the solution on the case (a fresh judge each: its own executor).
median_gbs() {
    local k
    for ((k = 0; k < runs; k++)); do
        build/judge --kit "$PWD" --lab "$lab" --backend gpu --kernel "$sol" --case "$case" --json 2>/dev/null |
            python3 -c 'import json, sys; r = json.load(sys.stdin); print(max((c.get("timing") or {}).get("bandwidth_gb_per_s", 0) for c in r["cases"]))'
    done | sort -g | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'
}
alone=$(median_gbs)
for ((k = 0; k < noise; k++)); do
    (while :; do "$tmp/context"; done) &
    pids+=($!)
done
sleep 1
beside=$(median_gbs)
echo "lab $lab's solution on $case: alone $alone GB/s; with $noise processes making contexts beside it $beside GB/s" \
    "(ratio $(awk -v a="$alone" -v b="$beside" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }'), medians of $runs runs each)"
