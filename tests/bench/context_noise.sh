#!/usr/bin/env bash
# tests/bench/context_noise.sh — does a CUDA process's set-up or tear-down
# beside a timed case move its time? The judge's device probe makes its
# context in a shared GPU turn; the load count's and racecheck's executors
# make theirs with no turn; a case's frees and module unload stand inside its
# turn (exec_gpu_idle). This measures what each costs a timed case, a whole
# solve of hundreds of launches as well as one launch: for each lab of
# LABS (default "4 10": one launch a call, and a whole solve of hundreds), the
# lab's solution timed on the last timed case lab.conf lists, RUNS times
# (default 7) each: alone; while
# NOISE processes (default 8) make and drop a CUDA context in a loop
# ("contexts"); while NOISE processes in one context each allocate and free
# 256 MB and load and unload a module in a loop ("frees"); and, to show the
# bench can see noise at all, while they set 256 MB over and over ("traffic":
# memory traffic beside the timed kernel, which a turn keeps out). Prints each
# median of the solution's GB/s and its ratio to alone's, measured in one run.
# Asserts nothing; exits 77 without a GPU or nvcc.
set -u
cd "$(dirname "$0")/../.." || exit 2
runs=${RUNS:-7}
noise=${NOISE:-8}
command -v nvcc >/dev/null || { echo "context_noise: no nvcc here (skipped)"; exit 77; }
make -s judge || exit 2
build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1 ||
    { echo "context_noise: no usable GPU here (skipped)"; exit 77; }
tmp=$(mktemp -d)
pids=()
stop_noise() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    pids=()
}
trap 'stop_noise; rm -rf "$tmp"' EXIT
cat >"$tmp/noise.cu" <<'CU'
#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>
// noise contexts: one context made and dropped; noise frees: in one context, forever, 256 MB
// allocated and freed, and a module loaded and unloaded; noise traffic: 256 MB set, forever.
int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "contexts"))
        return cudaFree(0) != cudaSuccess;
    static const char ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry noise_kernel() { ret; }\n";
    int traffic = argc > 1 && !strcmp(argv[1], "traffic");
    void *kept = NULL;
    if (traffic && cudaMalloc(&kept, 256u << 20) != cudaSuccess)
        return 1;
    for (;;) {
        void *p = NULL;
        CUmodule m;
        if (traffic) {
            cudaMemset(kept, 1, 256u << 20);
            cudaDeviceSynchronize();
            continue;
        }
        if (cudaMalloc(&p, 256u << 20) == cudaSuccess)
            cudaFree(p);
        if (cuModuleLoadData(&m, ptx) == CUDA_SUCCESS)
            cuModuleUnload(m);
    }
}
CU
nvcc -o "$tmp/noise" "$tmp/noise.cu" -lcuda || exit 2
# median GB/s of RUNS timed runs of the solution on the case (a fresh judge each: its own executor).
median_gbs() {
    local k
    for ((k = 0; k < runs; k++)); do
        build/judge --kit "$PWD" --lab "$lab" --backend gpu --kernel "$sol" --case "$case" --json 2>/dev/null |
            python3 -c 'import json, sys; r = json.load(sys.stdin); print(max((c.get("timing") or {}).get("gb_per_s", 0) for c in r["cases"]))'
    done | sort -g | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'
}
for lab in ${LABS:-4 10}; do
    sol=$(build/judge --kit "$PWD" --lab "$lab" --conf-get solution)
    case=$(build/judge --kit "$PWD" --lab "$lab" --conf-get timed | awk "{ print \$NF }")  # the last timed case lab.conf lists
    [ -n "$case" ] || { echo "context_noise: lab $lab has no timed case"; continue; }
    alone=$(median_gbs)
    echo "lab $lab's solution on $case, medians of $runs runs: alone $alone GB/s"
    for work in contexts frees traffic; do
        for ((k = 0; k < noise; k++)); do
            if [ "$work" = contexts ]; then (while :; do "$tmp/noise" contexts; done) & else "$tmp/noise" "$work" & fi
            pids+=($!)
        done
        sleep 1
        beside=$(median_gbs)
        stop_noise
        echo "  with $noise processes beside it ($work): $beside GB/s (ratio $(awk -v a="$alone" -v b="$beside" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }'))"
    done
done
