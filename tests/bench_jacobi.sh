#!/usr/bin/env bash
# tests/bench_jacobi.sh — lab 5's benchmark: the Jacobi solution on the SRC
# write-up's grid, 512x512x64, 500 iterations (periodic boundary, residual
# every 50), next to the CPU reference doing the same work.
#
#   GPU  (when one is usable): the judge's timed case of labs/05-jacobi/lab.conf
#        on reference/solutions/05-jacobi.cu: time per iteration, GPoints/s,
#        and the effective bandwidth (12 bytes per point and iteration: read u
#        and f, write v) as a share of the copy bandwidth measured in the same run.
#   CPU  reference/jacobi_ref.c (double precision), on one core and on all
#        cores: it times a few iterations and scales to 500 — it says so.
#
# usage: tests/bench_jacobi.sh [CPU_ITERS]     (default 10)
set -u
cd "$(dirname "$0")/.." || exit 2
cpu_iters=${1:-10}
nx=512 ny=512 nz=64 iters=500
make -s judge || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== lab 5 benchmark: Jacobi, ${nx}x${ny}x${nz}, $iters iterations"

# --- GPU -------------------------------------------------------------------
if build/judge --kit "$PWD" --lab 5 --backend gpu --case ${nx}x${ny}x${nz} \
        --kernel reference/solutions/05-jacobi.cu --json >"$tmp/gpu.json" 2>"$tmp/gpu.err"; then
    python3 - "$tmp/gpu.json" <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
c = [c for c in r["cases"] if c.get("timing")][0]
t = c["timing"]
m = re.search(r"([0-9.]+) ms per iteration \(([0-9]+) iterations", c["note"])
per_iter, n = (float(m.group(1)), int(m.group(2))) if m else (float("nan"), 0)
print("GPU  %s: %.4f ms per iteration (%.1f ms a solve of %d, median of %d)" % (r["device"], per_iter, t["median_ms"], n, t["reps"]))
print("     %.2f GPoints/s, %.0f GB/s effective = %.0f%% of the %.0f GB/s copy bandwidth measured" % (
    t["gpoints_per_s"], t["gb_per_s"], 100 * t["bandwidth_fraction"], t["bandwidth_gb_per_s"]))
EOF
else
    echo "GPU  skipped: $(head -1 "$tmp/gpu.err" | sed 's/^stencil-labs: //')"
fi

# --- CPU reference -----------------------------------------------------------
cat >"$tmp/cpu.c" <<'EOF'
// Times the CPU reference: argv = nx ny nz iters; prints ms per iteration (set-up excluded).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "jacobi_ref.h"

int main(int argc, char **argv)
{
    jacobi_grid g = {strtoul(argv[1], 0, 10), strtoul(argv[2], 0, 10), strtoul(argv[3], 0, 10), 0, JACOBI_BC_PERIODIC};
    size_t cells = jacobi_cells(&g);
    float *u0 = malloc(cells * sizeof(float)), *f = malloc(cells * sizeof(float));
    double *u = malloc(cells * sizeof(double));
    struct timespec a, b;
    g.h = 1.0 / (double)(g.nx - 1);
    if (!u0 || !f || !u)
        return 1;
    for (size_t p = 0; p < cells; p++) {
        u0[p] = (float)((p * 2654435761u % 2001) / 1000.0 - 1.0);
        f[p] = (float)((p * 40503u % 2001) / 1000.0 - 1.0);
    }
    double ms[3];
    for (int pass = 0; pass < 3; pass++) {  // a warm-up, then 0 iterations (the set-up alone, subtracted), then the run
        jacobi_run run = {pass == 2 ? atoi(argv[4]) : 0, 0, 0.0, JACOBI_EXACT};
        jacobi_outcome out = {0};
        clock_gettime(CLOCK_MONOTONIC, &a);
        jacobi_ref_solve(&g, u0, f, &run, u, &out);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms[pass] = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) * 1e-6;
    }
    printf("%.3f\n", (ms[2] - ms[1]) / atoi(argv[4]));
    return 0;
}
EOF
if ! ${CC:-cc} -O2 -fopenmp -std=c11 -D_GNU_SOURCE -Ireference -Igrader/protocol "$tmp/cpu.c" reference/jacobi_ref.c -o "$tmp/cpu" -lm; then
    echo "CPU  skipped: the reference did not compile"
    exit 1
fi
cores=$(nproc 2>/dev/null || echo 1)
for threads in 1 "$cores"; do
    ms=$(OMP_NUM_THREADS=$threads "$tmp/cpu" $nx $ny $nz "$cpu_iters") || { echo "CPU  failed"; exit 1; }
    python3 -c "import sys; ms=float(sys.argv[1]); print('CPU  reference, double, %s thread(s): %.1f ms per iteration; %d iterations would take %.1f s (timed %s iterations, scaled)' % (sys.argv[2], ms, $iters, ms * $iters / 1e3, sys.argv[3]))" "$ms" "$threads" "$cpu_iters"
    [ "$cores" -gt 1 ] || break
done
