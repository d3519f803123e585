#!/usr/bin/env bash
# tests/bench/heat_tile_sweep.sh — lab 10's tile-size tuning sweep, on a GPU.
#
# For each output tile shape TXxTY it writes a copy of a heat kernel file (the
# lab's solution by default) with TILE_X and TILE_Y set in front, grades it
# with the judge on the timed case (so every time is the kit's own: the
# executor's events, a fresh grid a repetition, every repetition checked),
# and prints a table: the shape, the block, ms a step, GB/s counting 8 bytes a
# point a step, and the share of the copy limit measured in the same run.
# With gnuplot it also draws the table as bars (grader/pictures/tile_sweep.gp).
# The figures in handouts/10-heat-2d.md section 7 come from running this.
#
# usage: tests/bench/heat_tile_sweep.sh [TXxTY ...]
#   KERNEL=file.cu     the kernel file to sweep (it must define TILE_X and TILE_Y under #ifndef, as the skeleton does)
#   CASE=8192x8192     the timed case of labs/10-heat-2d/lab.conf to time
#   OUT_DIR=dir        where the copies, reports, table and pictures go (build/heat-sweep)
#   ARCH=sm_90         passed to the judge (default: the GPU's own)
# Needs an NVIDIA GPU: without one it says so and exits 77, as the judge does.
set -u
cd "$(dirname "$0")/../.." || exit 2
kernel=${KERNEL:-reference/solutions/10-heat-2d.cu}
case_name=${CASE:-8192x8192}
out=${OUT_DIR:-build/heat-sweep}
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(32x4 32x8 32x16 64x2 64x4 64x8 64x16 128x1 128x2 128x4 128x8 256x1 256x2 256x4)
[ -f "$kernel" ] || { echo "heat_tile_sweep: no kernel file $kernel" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "heat_tile_sweep: needs python3 to read the judge's JSON reports" >&2; exit 2; }
make -s judge || exit 2
mkdir -p "$out"

# One judge run of TX x TY; prints "ms-a-solve GB/s copy-limit steps" (the steps a solve as the
# judge's note on the case gives them: no script reads lab.conf) or why not; returns the judge's exit status.
time_shape() {
    local tx=$1 ty=$2 copy="$out/t${1}x${2}.cu" json="$out/t${1}x${2}.json" status
    { printf '#define TILE_X %s\n#define TILE_Y %s\n' "$tx" "$ty"; cat "$kernel"; } >"$copy"
    build/judge --kit . --lab 10 --kernel "$copy" --backend gpu --case "$case_name" --json \
        ${ARCH:+--arch "$ARCH"} >"$json" 2>"$out/t${tx}x${ty}.log"
    status=$?
    python3 - "$json" "$case_name" <<'PY'
import json, re, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    print("no report"); sys.exit(0)
for c in r.get("cases", []):
    t = c.get("timing")
    steps = re.search(r"\(([0-9]+) steps a solve", c.get("note", ""))
    if c.get("name") == sys.argv[2] and t and steps:
        print("%.6f %.1f %.1f %s" % (t["median_ms"], t["gb_per_s"], t["bandwidth_gb_per_s"], steps.group(1)))
        sys.exit(0)
    if c.get("name") == sys.argv[2] and t:
        print("not timed: the case's note gives no steps a solve: " + c.get("note", "")); sys.exit(0)
print("not timed: " + (r.get("error") or next((c.get("reason", "") for c in r.get("cases", []) if c.get("status") == "fail"), "see the log")))
PY
    return $status
}

data="$out/sweep.dat"
: >"$data"
printf '%-9s %-9s %12s %10s %12s %s\n' tile block "ms a step" "GB/s" "copy limit" "share"
i=0
for shape in "${shapes[@]}"; do
    tx=${shape%x*} ty=${shape#*x}
    if ! [[ $tx =~ ^[0-9]+$ && $ty =~ ^[0-9]+$ ]] || [ $((tx % 4)) -ne 0 ] || [ $((tx / 4 * ty)) -gt 1024 ]; then
        echo "heat_tile_sweep: $shape is no tile shape: TXxTY with TX a multiple of 4 and TX/4 * TY <= 1024 threads" >&2
        exit 2
    fi
    line=$(time_shape "$tx" "$ty")
    status=$?
    if [ $status -eq 77 ]; then
        echo "heat_tile_sweep: needs an NVIDIA GPU, and the judge found none ($(grep -m1 -i 'gpu' "$out/t${tx}x${ty}.log" | cut -c1-160)); the sweep times kernels, which CPU emulation cannot do" >&2
        exit 77
    fi
    read -r ms gbs roof steps rest <<<"$line"
    if ! [[ $ms =~ ^[0-9.]+$ ]]; then
        printf '%-9s %-9s %s (exit %d; %s)\n' "$shape" "$((tx / 4))x$ty" "$line" "$status" "$out/t${tx}x${ty}.log"
        continue
    fi
    per_step=$(awk -v m="$ms" -v s="$steps" 'BEGIN { printf "%.4f", m / s }')
    share=$(awk -v g="$gbs" -v c="$roof" 'BEGIN { printf "%.0f%%", (c > 0 ? 100 * g / c : 0) }')  # parenthesised: a bare > is a redirection in awk
    printf '%-9s %-9s %12s %10s %12s %s\n' "$shape" "$((tx / 4))x$ty" "$per_step" "$gbs" "$roof" "$share"
    printf '%d "%s" %s %s %s\n' "$i" "$shape" "$per_step" "$gbs" "$roof" >>"$data"
    i=$((i + 1))
done
[ "$i" -gt 0 ] || { echo "heat_tile_sweep: no shape was timed" >&2; exit 1; }
gnuplot=${STENCIL_GNUPLOT:-gnuplot}   # as the judge's pictures (grader/judge/pictures.c)
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "picture: gnuplot is not installed; the table is in $data"
elif "$gnuplot" -c grader/pictures/tile_sweep.gp "$data" "$out/sweep" "lab 10: $case_name, $steps steps, by tile shape" 2>"$out/gnuplot.log"; then
    echo "picture: $out/sweep.png (and .svg)"
else
    echo "picture: gnuplot failed: $(head -c 300 "$out/gnuplot.log")"
fi
