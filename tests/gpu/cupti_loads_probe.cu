// tests/gpu/cupti_loads_probe.cu — the executor's own load count
// (grader/executor/loads.cu: CUPTI's range profiler around a call, the
// judge's metrics) on two kernels whose loads are known: one reading global
// memory twice a thread, one reading a shared tile three times a thread.
// Prints, for each, the bytes counted, the bytes the kernel's code loads and
// the seconds the count took; with --plain only launches the two kernels
// (what tests/device_cupti.sh runs under Nsight Compute, for its counts and
// time beside these); with --load S launches them again and again for S
// seconds (another process's kernels beside a count); with --hold S holds a
// count's profiling session open for S seconds, and with --prepared-beside S
// makes its host side at once (beside a --hold, as a counting executor
// started beside another's count) and counts S seconds later, the session ended. Exits 77 without a GPU, 1 when a count differs from
// the kernels' own, 2 when the count cannot be taken (its reason printed).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "executor.h"
#include "protocol.h"

#define PROBE_BLOCK 256  // threads a block of both kernels

// out[i] = in[i] + in[i + 1]: two 4-byte global loads a thread (i < n - 1).
__global__ void probe_global_reads(const float *in, float *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n)
        out[i] = in[i] + in[i + 1];
}

// One global load a thread into a tile, then three 4-byte shared loads a thread.
__global__ void probe_shared_reads(const float *in, float *out, unsigned n)
{
    __shared__ float tile[PROBE_BLOCK];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t] + tile[(t + 1) % PROBE_BLOCK] + tile[(t + 2) % PROBE_BLOCK];
}

static double probe_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Counts launch's loads with the executor's count; exits 2 naming why when
// it cannot. phase: the seconds of its parts (the host side prepared, the
// range profiler armed on the context, started, the launches, its end: stop,
// decode, evaluate).
template <typename Launch> static void probe_count(Launch launch, long launches, double bytes[3], double *seconds, double phase[5])
{
    char why[400] = "";
    double start = probe_now(), t[6] = {start};
    int failed = exec_loads_prepare(why, sizeof(why));
    t[1] = probe_now();
    failed = failed || (exec_loads_arm(why, sizeof(why)) != 0 && exec_loads_missing_kind() != LOADS_MISSING_BUSY);  // (busy: begin waits)
    t[2] = probe_now();
    if (failed || exec_loads_begin(why, sizeof(why)) != 0) {
        printf("cupti probe: the count could not start (%s): %s\n", loads_missing_kind_names[exec_loads_missing_kind()], why);
        exit(2);
    }
    t[3] = probe_now();
    launch();
    cudaDeviceSynchronize();
    t[4] = probe_now();
    if (exec_loads_end(bytes, launches, why, sizeof(why)) != 0) {
        printf("cupti probe: the count could not end (%s): %s\n", loads_missing_kind_names[exec_loads_missing_kind()], why);
        exit(2);
    }
    t[5] = probe_now();
    for (int k = 0; k < 5; k++)
        phase[k] = t[k + 1] - t[k];
    *seconds = t[5] - start;
}

int main(int argc, char **argv)
{
    int plain = argc > 1 && !strcmp(argv[1], "--plain");
    unsigned n = 1u << 22;  // a multiple of PROBE_BLOCK
    float *in = NULL, *out = NULL;
    if (cudaMalloc((void **)&in, n * sizeof(float)) != cudaSuccess || cudaMalloc((void **)&out, n * sizeof(float)) != cudaSuccess) {
        printf("cupti probe: SKIPPED, no usable GPU\n");
        return 77;
    }
    cudaMemset(in, 0, n * sizeof(float));
    dim3 grid(n / PROBE_BLOCK), block(PROBE_BLOCK);
    auto global_reads = [&] { probe_global_reads<<<grid, block>>>(in, out, n); };
    auto shared_reads = [&] { probe_shared_reads<<<grid, block>>>(in, out, n); };
    auto both_twice = [&] { global_reads(), shared_reads(), global_reads(), shared_reads(); };
    if (plain) {  // under Nsight Compute: the same launches, counted by it
        global_reads(), shared_reads();
        return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
    }
    if (argc > 2 && !strcmp(argv[1], "--load")) {  // another process's kernels on the GPU for S seconds
        for (double until = probe_now() + atof(argv[2]); probe_now() < until;)
            both_twice(), cudaDeviceSynchronize();
        return 0;
    }
    char why[400] = "";
    if (argc > 2 && !strcmp(argv[1], "--hold")) {  // a profiling session held open on the GPU for S seconds
        if (exec_loads_prepare(why, sizeof(why)) || exec_loads_arm(why, sizeof(why)) || exec_loads_begin(why, sizeof(why))) {
            printf("cupti probe: no session to hold: %s\n", why);
            return 2;
        }
        for (double until = probe_now() + atof(argv[2]); probe_now() < until;)
            global_reads(), cudaDeviceSynchronize();
        return 0;  // (ended with the process)
    }
    if (argc > 2 && !strcmp(argv[1], "--prepared-beside")) {  // the host side made now, beside a --hold; the counts S seconds later
        if (exec_loads_prepare(why, sizeof(why))) {
            printf("cupti probe: the host side could not be made beside another profiling process: %s\n", why);
            return 2;
        }
        printf("  prepared beside another profiling process\n");
        for (double until = probe_now() + atof(argv[2]); probe_now() < until;)
            ;
    }
    double g[3], s[3], w[3], tg, ts, tw, pg[5], ps[5], pw[5];
    probe_count(global_reads, 1, g, &tg, pg);
    probe_count(shared_reads, 1, s, &ts, ps);
    probe_count(both_twice, 4, w, &tw, pw);  // four launches in one count: their sum
    // A call that also sets memory (cudaMemset, a copy): no range of its own, or the launches would not match.
    double m[3], tm, pm[5];
    probe_count([&] { cudaMemset(out, 0, n * sizeof(float)); cudaMemcpy(out, in, sizeof(float), cudaMemcpyDeviceToDevice); global_reads(); }, 1,
                m, &tm, pm);
    const double *phases[3] = {pg, ps, pw};
    for (int c = 0; c < 3; c++)
        printf("  count %d: prepare %.3f s, arm %.3f s, start %.3f s, launches %.3f s, end %.3f s\n", c + 1, phases[c][0], phases[c][1],
               phases[c][2], phases[c][3], phases[c][4]);
    double want_g = 8.0 * (n - 1), want_s_global = 4.0 * n, want_s_shared = 12.0 * n;
    printf("  global reads: global %.0f B + async %.0f (its code loads %.0f), shared %.0f B (0); %.3f s\n", g[0], g[1], want_g, g[2], tg);
    printf("  shared reads: global %.0f B + async %.0f (its code loads %.0f), shared %.0f B (%.0f); %.3f s\n", s[0], s[1], want_s_global, s[2],
           want_s_shared, ts);
    printf("  both twice:   global %.0f B (%.0f), shared %.0f B (%.0f); %.3f s\n", w[0] + w[1], 2 * (want_g + want_s_global), w[2],
           2 * want_s_shared, tw);
    printf("  memset, copy and global reads: global %.0f B (%.0f), shared %.0f B (0); %.3f s\n", m[0] + m[1], want_g, m[2], tm);
    int right = m[0] + m[1] == want_g && m[2] == 0 && g[0] + g[1] == want_g && g[2] == 0 && s[0] + s[1] == want_s_global && s[2] == want_s_shared &&
                w[0] + w[1] == 2 * (want_g + want_s_global) && w[2] == 2 * want_s_shared;
    // More launches than the profiler holds ranges: no count, and why (never the first launches' alone).
    double more[3];
    int refused = exec_loads_begin(why, sizeof(why)) == 0;
    for (int k = 0; refused && k <= LOADS_MAX_RANGES; k++)
        global_reads();
    refused = refused && exec_loads_end(more, LOADS_MAX_RANGES + 1, why, sizeof(why)) != 0 && exec_loads_missing_kind() == LOADS_MISSING_LAUNCHES;
    printf("  %d launches, one more than the profiler holds: %s (%s, its kind %s)\n", LOADS_MAX_RANGES + 1, refused ? "no count" : "COUNTED",
           why[0] ? why : "no reason given", loads_missing_kind_names[exec_loads_missing_kind()]);
    right = right && refused;
    printf("cupti probe: %s\n", right ? "the executor's counts are the kernels' own" : "a count differs from the kernels' own");
    return right ? 0 : 1;
}
