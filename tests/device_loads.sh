#!/usr/bin/env bash
# tests/device_loads.sh — the technique floors on a GPU: every lab 0 (the
# convolution), 2-4 and 8 (lab 4 for the star of radius 2) solution, variant,
# load mutant and the forged-count hostile file, graded on the technique's
# case alone (the largest case CPU emulation runs too: N=129, N=100 for lab 8,
# 257x131 for lab 0), in parallel; prints one line a kernel:
# verdict, technique status and the load counts the judge measured. Also
# checks that ncu's per-thread load counts exist on this GPU. AT=timed grades
# each on the lab's timed case alone instead, where a whole run counts them.
# The loads are counted as the judge counts them by default (the executor
# itself, grader/executor/loads.cu), or as STENCIL_LOADS says.
# COMPARE=1 grades each twice, its loads counted by Nsight Compute
# (STENCIL_LOADS=ncu) and then by the executor itself (cupti), and
# prints both counts, each run's seconds and "same" or "DIFFERS" a kernel.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
mkdir -p "$out"
jobs=${JOBS:-6}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version | tail -1
make -s judge >"$out/make.log" 2>&1 || { tail -5 "$out/make.log"; exit 1; }
list=$out/loads.list
: >"$list"
for lab in ${LABS:-0 2 3 4 8}; do
    d=$(ls -d labs/0$lab-* | head -1); name=$(basename "$d")
    sol=$(build/judge --kit "$PWD" --lab "$name" --conf-get solution)
    # The largest case every backend runs, by its points (a cube's N, or an image's WxH).
    # AT=timed: the timed case instead (where the judge counts the loads of a whole run).
    if [ "${AT:-}" = timed ]; then
        size=$(build/judge --kit "$PWD" --lab "$name" --conf-get timed | tr ' ' '\n' |
            awk -F x '{ p = $1 * ($2 ? $2 : $1) * ($3 ? $3 : ($2 ? 1 : $1)); print p, $0 }' | sort -n | tail -1 | cut -d' ' -f2)
    else
        size=$(build/judge --kit "$PWD" --lab "$name" --conf-get largest)
    fi
    for f in "$sol" tests/variants/"$name"/*.cu tests/mutants/"$name"/*from-global*.cu tests/mutants/"$name"/naive-no-tile.cu \
        tests/hostile/"$name"/forged-load-counts.cu; do
        [ -e "$f" ] && echo "$lab $size $f" >>"$list"
    done
done
# counts LOG: the technique line's status and the counts it judged, from a judge's output.
counts() {
    grep '^technique' "$1" | grep -oE '^technique: [A-Za-z ]+|[0-9.]+ floats read from shared and [0-9.]+ from global memory per output (point|pixel)[^(]*\(at least [0-9.]+ from shared(, at most [0-9.]+ from global)?|not checked: [^(]*' | tr '\n' ' '
}
# grade LOG LOADS LAB SIZE FILE: one judge run (STENCIL_LOADS=LOADS) into LOG; prints its seconds.
grade() {
    local start=$EPOCHREALTIME
    STENCIL_LOADS=$2 build/judge --kit "$PWD" --lab "$3" --kernel "$5" --case "$4" --gpu-lock-dir /tmp/loads-locks --gpu-slots 1 >"$1" 2>&1
    awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }'
}
one() {
    local lab=$1 size=$2 f=$3 log secs
    log=/tmp/loads-logs/$(basename "$(dirname "$f")")-$(basename "$f" .cu).txt
    secs=$(grade "$log" "$([ "${COMPARE:-0}" = 1 ] && echo ncu || echo "${STENCIL_LOADS:-}")" "$lab" "$size" "$f")
    if [ "${COMPARE:-0}" = 1 ]; then
        local in_process=${log%.txt}.cupti.txt cupti_secs
        cupti_secs=$(grade "$in_process" cupti "$lab" "$size" "$f")
        printf '%s | %-44s | ncu (%s s): %s| executor (%s s): %s| %s\n' "$lab" "$(basename "$f" .cu)" "$secs" "$(counts "$log")" \
            "$cupti_secs" "$(counts "$in_process")" "$([ "$(counts "$log")" = "$(counts "$in_process")" ] && echo same || echo DIFFERS)"
        return
    fi
    printf '%s | %-44s | %s | %s\n' "$lab" "$(basename "$f" .cu)" \
        "$(grep -o '^verdict: [A-Z]*' "$log" | cut -c10-)" "$(counts "$log")"
}
export -f one counts grade; export out
mkdir -p /tmp/loads-locks /tmp/loads-logs
start=$(date +%s)
# Each line as it comes (a run cut short keeps what it had), then sorted.
xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1" "$2"' <"$list" | tee "$out/loads.lines" >&2
sort "$out/loads.lines"
echo "graded $(wc -l <"$list") kernels in $(( $(date +%s) - start )) s"
