#!/usr/bin/env bash
# tests/bench/plane_size_sweep.sh — speed against plane size, on a GPU: where
# the caches stop catching a sweep's reuse and keeping it on chip starts to
# pay.
#
# Lab 6's kernels (its solution, which marches along z keeping planes in
# registers, and the variants of tests/variants/06-past-the-book/: one thread
# a point, a plain z-march, a shared 32x8 plane, a grid-stride loop) are
# graded on grids of about 134-268 million points whose planes grow from
# 1 MiB past the GPU's L2 (50 MB on an H100) to 128 MiB. Every time is the
# judge's own (a fresh grid a repetition, each checked, the copy limit
# measured in the same run). Prints a table, a row a grid, a column a kernel,
# each cell its share of the copy limit; with gnuplot it also draws a line a
# kernel (grader/pictures/plane_sweep.gp).
#
# usage: tests/bench/plane_size_sweep.sh [NXxNYxNZ ...]
#   OUT_DIR=dir   where the reports, table and picture go (build/plane-sweep)
# Needs an NVIDIA GPU: without one it says so and exits 77, as the judge does.
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${OUT_DIR:-build/plane-sweep}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(512x512x512 1024x1024x128 2048x2048x32 4096x4096x16 8192x4096x8)
kernels=(reference/solutions/06-past-the-book.cu tests/variants/06-past-the-book/*.cu)
command -v python3 >/dev/null 2>&1 || { echo "plane_size_sweep: needs python3 to read the judge's JSON reports" >&2; exit 2; }
make -s judge || exit 2
for s in "${sizes[@]}"; do
    [[ $s =~ ^[0-9]+x[0-9]+x[0-9]+$ ]] || { echo "plane_size_sweep: $s is no grid: NXxNYxNZ" >&2; exit 2; }
done

# A lab of the kit's own for the run, lab 6 timing exactly these grids: its
# folder copied beside the others (a name no lab has, removed at the end), its
# lab.conf written from lab 6's keys as the judge reads them (no script parses
# lab.conf itself) with these grids as its cases and no rubric (the sweep reads
# times, not points). It shares the kit's built executor.
sweep_lab=60-plane-size-sweep-$$
lab_dir=labs/$sweep_lab
[ -e "$lab_dir" ] && { echo "plane_size_sweep: $lab_dir exists already" >&2; exit 2; }
trap 'rm -rf "$lab_dir"' EXIT
trap 'exit 130' INT TERM
cp -r labs/06-past-the-book "$lab_dir" || exit 2
mkdir -p "$out" || exit 2
conf=$lab_dir/lab.conf
. tests/lib.sh  # conf_lines
conf_lines build/judge . 6 title chapter runner interface kernel solution technique opb_model timeout time_reps rtol atol >"$conf" || exit 2
for s in "${sizes[@]}"; do
    echo "case = $s timed noemu" >>"$conf"
done

# One judge run: prints "share-of-copy-limit GB/s" or why not; returns the judge's exit status.
time_grid() {
    local kernel=$1 size=$2 json=$3 status
    build/judge --kit . --lab "$sweep_lab" --kernel "$kernel" --backend gpu --case "$size" --json >"$json" 2>"${json%.json}.log"
    status=$?
    python3 - "$json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    print("no report"); sys.exit(0)
for c in r.get("cases", []):
    t = c.get("timing")
    if t and t.get("bandwidth_gb_per_s"):
        print("%.1f %.1f" % (100 * t["gb_per_s"] / t["bandwidth_gb_per_s"], t["gb_per_s"]))
        sys.exit(0)
print("not timed: " + (r.get("error") or next((c.get("reason", "") for c in r.get("cases", []) if c.get("status") == "fail"), "see the log")))
PY
    return $status
}

data=$out/plane_sweep.dat
names=()
for k in "${kernels[@]}"; do names+=("$(basename "$k" .cu)"); done
printf '%-16s %10s' "grid" "plane MiB"
printf ' %22s' "${names[@]}"
printf '\n'
{ printf '# plane-MiB'; printf ' %s' "${names[@]}"; printf '\n# a row a grid: its plane in MiB, then each kernel'"'"'s share of the copy limit in percent (NaN: not timed)\n'; } >"$data"
rows=0
for s in "${sizes[@]}"; do
    IFS=x read -r nx ny nz <<<"$s"
    mib=$(awk -v x="$nx" -v y="$ny" 'BEGIN { printf "%.0f", x * y * 4 / 1048576 }')
    line=$(printf '%-16s %10s' "$s" "$mib")
    row="$mib"
    for i in "${!kernels[@]}"; do
        got=$(time_grid "${kernels[$i]}" "$s" "$out/${names[$i]}-$s.json")
        status=$?
        if [ $status -eq 77 ]; then
            echo "plane_size_sweep: needs an NVIDIA GPU, and the judge found none ($(grep -m1 -i 'gpu' "$out/${names[$i]}-$s.log" | cut -c1-160)); CPU emulation cannot time" >&2
            exit 77
        fi
        read -r share gbs rest <<<"$got"
        if [[ $share =~ ^[0-9.]+$ ]]; then
            line="$line $(printf ' %21s%%' "$share")"
            row="$row $share"
        else
            line="$line $(printf ' %22s' "not timed")"
            row="$row NaN"
            echo "  ${names[$i]} on $s: $got (exit $status; $out/${names[$i]}-$s.log)" >&2
        fi
    done
    echo "$line"
    echo "$row" >>"$data"
    rows=$((rows + 1))
done
echo "(each cell: the kernel's GB/s, 8 bytes a point, as a share of the copy limit measured in the same run)"
gnuplot=${STENCIL_GNUPLOT:-gnuplot}   # as the judge's pictures (grader/judge/pictures.c)
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "picture: gnuplot is not installed; the table is in $data"
elif "$gnuplot" -c grader/pictures/plane_sweep.gp "$data" "$out/plane_sweep" "lab 6's kernels: speed against plane size" 2>"$out/gnuplot.log"; then
    echo "picture: $out/plane_sweep.png (and .svg)"
else
    echo "picture: gnuplot failed: $(head -c 300 "$out/gnuplot.log")"
fi
