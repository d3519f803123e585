#!/usr/bin/env bash
# tests/bench.sh — `make bench`: prints figures, asserts nothing about time.
#   1. the CPU reference sweep at N=512 (target: at most 0.5 s on 2 cores),
#      and the judge's own work on a large GPU-checked case (its input's sum
#      and its sample's check);
#   2. labs 1 and 2's solutions emulated on the CPU at N=64 (both thread orders);
#   3. on a GPU: every lab's solution at its timed size, side by side with
#      the bandwidth measured in the same run; make check's time on every
#      lab (cold, warm, unchanged) and a fresh clone's first check; lab 4's
#      solution timed with CUDA contexts made beside it; lab 1's block shapes;
#   4. lab 5's solver on 512x512x64 for 500 iterations, next to the CPU reference.
# With PLANES=1, 5. lab 6's kernels on grids whose planes grow past the L2
# (tests/bench/plane_size_sweep.sh); with CLASS=N, 6. make grade of N lab-4
# submissions (tests/bench/class_speed.sh).
# Lab 9's line is the time-blocking speed-up: its share of the copy limit
# counts an iteration's 12 bytes a point, so 200% is twice the single-sweep limit.
set -u
cd "$(dirname "$0")/.." || exit 2
make -s judge build/bench_reference build/bench_judge_sample || exit 2
echo "== CPU reference sweep"
build/bench_reference 512
echo "== the judge's CPU work on a large case the GPU checked (lab 6's 4096x4096x32): its input's sum, its sample"
build/bench_judge_sample
echo "== CPU emulation of labs 1 and 2's solutions, N=64 (two thread orders, sanitizers on; lab 2's threads wait at barriers: fibers)"
if [ -f grader/emu/emu.mk ]; then
    for lab in 1 2; do
        build/judge --kit "$PWD" --lab "$lab" --backend emu --case 64 --solution --json |
            python3 -c 'import json,sys; r=json.load(sys.stdin); c=r["cases"][0]; print("lab %d solution N=64 emulated: %s in %.2f s (seed %s)" % (r["lab"], c["status"], c["wall_s"], r["seed"]))'
    done
else
    echo "  (the emulation backend is not in this tree)"
fi
echo "== GPU: every lab's solution at its timed size"
if build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1; then
    printf '  %-22s %-14s %10s %12s %9s %8s %14s %8s  %s\n' lab case ms GPoints/s GB/s "% limit" "limit GB/s" "OP/B" "copy limit: float4 kernel / cudaMemcpy, set by"
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        sol=$(build/judge --kit "$PWD" --lab "$lab" --conf-get solution)
        for timed in $(build/judge --kit "$PWD" --lab "$lab" --conf-get timed); do
            build/judge --kit "$PWD" --lab "$lab" --backend gpu --case "$timed" --kernel "$sol" --json 2>/dev/null |
                python3 -c 'import json,sys
r = json.load(sys.stdin); c = r["cases"][0]; t = c.get("timing") or {}
opb = (r.get("opb") or {}).get("book_model")
print("  %-22s %-14s %10.3f %12.1f %9.0f %7.0f%% %14.0f %8s  %.0f / %.0f GB/s, %s  (%s)" % (r["lab_name"], c["name"], t.get("median_ms", float("nan")),
      t.get("gpoints_per_s", float("nan")), t.get("gb_per_s", float("nan")), 100 * (t.get("bandwidth_fraction") or float("nan")),
      t.get("bandwidth_gb_per_s", float("nan")), "%.2f" % opb if opb else "-", t.get("bandwidth_kernel_gb_per_s", float("nan")),
      t.get("bandwidth_memcpy_gb_per_s", float("nan")), t.get("bandwidth_by") or "?", r["device"]))'
        done
    done
    echo "  (lab 9 counts 12 bytes a point per iteration, as lab 5: its share of the copy limit is its speed-up per"
    echo "   iteration over the fastest any one-iteration-a-launch solver can go; the target is 2x, 200%)"
    echo "== GPU: make check on each lab's solution (a copy: a student's file), cold (its build and the kept yardstick removed), warm (edited), unchanged"
    echo "   (targets: warm <= 4 s for labs 1-4, 7, 8 and <= 6 s for the others; unchanged <= 2 s)"
    tests/bench/check_speed.sh
    echo "== GPU: a fresh clone's first make check LAB=1, the kit built from nothing (target: <= 20 s)"
    fresh=$(mktemp -d)
    if git clone -q "$PWD" "$fresh/kit" 2>/dev/null; then
        t0=$(date +%s%N)
        (cd "$fresh/kit" && make -s check LAB=1 KERNEL=reference/solutions/01-naive-sweep.cu >"$fresh/log" 2>&1)
        echo "  $(awk -v d=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.1f s", d / 1e9 }'): $(grep -m1 '^verdict:' "$fresh/log"); $(grep -m1 '^time:' "$fresh/log")"
    else
        echo "  (not a git checkout: skipped)"
    fi
    rm -rf "$fresh"
    echo "== GPU: contexts made, memory and modules freed beside a timed case: does the solution's time move? (tests/bench/context_noise.sh)"
    tests/bench/context_noise.sh
    echo "== GPU: lab 1's solution with other block shapes (x y z), N=512"
    mkdir -p build/bench
    for shape in "8 8 8" "16 8 4" "32 4 4" "32 8 2" "64 4 2" "128 2 2" "256 2 1"; do
        read -r bx by bz <<<"$shape"
        v=build/bench/naive-${bx}x${by}x${bz}.cu
        sed -e "s/^#define BLOCK_X .*/#define BLOCK_X $bx/" -e "s/^#define BLOCK_Y .*/#define BLOCK_Y $by/" \
            -e "s/^#define BLOCK_Z .*/#define BLOCK_Z $bz/" reference/solutions/01-naive-sweep.cu >"$v"
        build/judge --kit "$PWD" --lab 1 --backend gpu --case 512 --kernel "$v" --json 2>/dev/null |
            python3 -c 'import json,sys
r = json.load(sys.stdin); c = r["cases"][0]; t = c.get("timing") or {}
print("  block %-12s %s %8.3f ms %7.1f GPoints/s %6.0f GB/s = %3.0f%% of measured" % (sys.argv[1], c["status"], t.get("median_ms", float("nan")),
      t.get("gpoints_per_s", float("nan")), t.get("gb_per_s", float("nan")), 100 * (t.get("bandwidth_fraction") or float("nan"))))' "${bx}x${by}x${bz}"
    done
else
    echo "  SKIPPED: no usable GPU here"
fi
if [ "${PLANES:-0}" = 1 ]; then  # a few minutes more: every lab 6 kernel on five grids
    echo "== GPU: speed against plane size (lab 6's kernels; planes from 1 MiB past the L2 to 128 MiB)"
    tests/bench/plane_size_sweep.sh
else
    echo "== GPU: speed against plane size: PLANES=1 make bench (tests/bench/plane_size_sweep.sh, a few minutes)"
fi
if [ -n "${CLASS:-}" ]; then  # CLASS=N: a class of N lab-4 submissions graded (300: several minutes)
    echo "== GPU: make grade of a class of $CLASS lab-4 submissions (tests/bench/class_speed.sh)"
    tests/bench/class_speed.sh "$CLASS"
else
    echo "== GPU: a class's grading time: CLASS=300 make bench (tests/bench/class_speed.sh, several minutes)"
fi
echo "== lab 5: Jacobi, 512x512x64, 500 iterations (GPU if present; CPU reference)"
tests/bench_jacobi.sh
