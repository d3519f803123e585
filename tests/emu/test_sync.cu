// tests/emu/test_sync.cu — barriers and warp operations under CPU emulation:
// barriers not reached by every thread (named, with both threads' lines),
// warp shuffle reductions and scans in every thread order, votes, the warp
// reductions and the active mask of a partial warp, and the
// warp-synchronous code a GPU may tolerate but the backend flags or exposes,
// and __syncwarp() in place of a __syncthreads().
#include "emu_test.h"

#define FULL_MASK 0xffffffffu

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Each thread writes its index into log at the next free place (count)
// before each of three barriers and after the last: the order the threads
// ran in, phase by phase (phase p's entries at [p * blockDim.x, ...)); the
// last phase ends in the threads' returns.
__global__ void barrier_phases_log(int *log, int *count)
{
    for (int phase = 0; phase < 3; phase++) {
        log[atomicAdd(count, 1)] = (int)threadIdx.x;
        __syncthreads();  // mark: phase-barrier
    }
    log[atomicAdd(count, 1)] = (int)threadIdx.x;
}

// Each thread logs its index after a barrier; thread k then waits in a
// __syncwarp() of its own lane alone (complete as it arrives) and logs
// 1000 + k; then a barrier again. The warp operation ends the threads'
// handing on: the scheduler must complete it for k at once (its warp runs
// on), before the threads after k in the pass run.
__global__ void barrier_then_own_lane_syncwarp(int *log, int *count, int k)
{
    __syncthreads();  // mark: before-own-lane
    log[atomicAdd(count, 1)] = (int)threadIdx.x;
    if ((int)threadIdx.x == k) {
        __syncwarp(1u << (k % 32));
        log[atomicAdd(count, 1)] = 1000 + k;
    }
    __syncthreads();  // mark: after-own-lane
}

// Half the block waits at one barrier, half at another.
__global__ void barrier_two_sites(float *out)
{
    if (threadIdx.x < 16) {
        out[threadIdx.x] = 1.0f;
        __syncthreads();  // mark: barrier-site-a
    } else {
        __syncthreads();  // mark: barrier-site-b
    }
}

// Threads past n return before the barrier the others wait at.
__global__ void barrier_after_early_return(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t >= n)
        return;  // mark: early-return
    s[t] = in[t];
    __syncthreads();  // mark: barrier-after-return
    out[t] = s[n - 1 - t];
}

// Per-warp sums by __shfl_down_sync; lane 0 stores its warp's.
__global__ void warp_sum_down(const float *in, float *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    if (threadIdx.x % 32 == 0)
        out[i / 32] = v;
}

// Per-warp sums by a __shfl_xor_sync butterfly: every lane stores the sum.
__global__ void warp_sum_xor(const float *in, float *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int mask = 16; mask > 0; mask /= 2)
        v += __shfl_xor_sync(FULL_MASK, v, mask);
    out[i] = v;
}

// Inclusive per-warp prefix sums by __shfl_up_sync, plus a broadcast of
// lane 3 of each 8-lane segment by __shfl_sync.
__global__ void warp_scan_and_broadcast(const int *in, int *scan, int *broadcast)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int v = in[i];
    for (int offset = 1; offset < 32; offset *= 2) {
        int up = __shfl_up_sync(FULL_MASK, v, offset);
        if (lane >= (unsigned int)offset)
            v += up;
    }
    scan[i] = v;
    broadcast[i] = __shfl_sync(FULL_MASK, in[i], 3, 8);
}

// The two halves of a warp shuffle at different call sites.
__global__ void shuffle_two_sites(float *out)
{
    float v = (float)threadIdx.x;
    if (threadIdx.x < 16)
        v = __shfl_down_sync(FULL_MASK, v, 1);  // mark: shuffle-site-a
    else
        v = __shfl_down_sync(FULL_MASK, v, 1);  // mark: shuffle-site-b
    out[threadIdx.x] = v;
}

// A full-mask shuffle in a block of 48 threads: the second warp has 16 lanes.
__global__ void shuffle_missing_lanes(float *out)
{
    float v = (float)threadIdx.x;
    v += __shfl_down_sync(FULL_MASK, v, 16);
    out[threadIdx.x] = v;
}

// Lane 5 returns; the others read its value.
__global__ void shuffle_reads_returned_lane(float *out)
{
    if (threadIdx.x == 5)
        return;
    out[threadIdx.x] = __shfl_sync(FULL_MASK, (float)threadIdx.x, 5);
}

// The classic warp-synchronous reduction: the last warp's steps rely on lanes
// running in lock-step, with no __syncwarp() between them.
__global__ void reduce_warp_synchronous(const float *in, float *out)
{
    __shared__ float s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile float *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    __syncthreads();
    if (t == 0)
        *out = s[0];
}

// The same reduction made correct: read, __syncwarp(), write, __syncwarp().
__global__ void reduce_with_syncwarp(const float *in, float *out)
{
    __shared__ float s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        float v = s[t] + s[t + 32];
        for (int offset = 16; offset > 0; offset /= 2) {
            __syncwarp();
            s[t] = v;
            __syncwarp();
            v += s[t + offset];
        }
        if (t == 0)
            *out = v;
    }
}

// Reverses a block's values through shared memory, each thread reading
// another warp's cell after a barrier: __syncthreads() when block_wide, else
// __syncwarp(), which waits for the thread's own warp only (wrong on a GPU).
__global__ void reverse_through_shared(const float *in, float *out, int block_wide)
{
    __shared__ float s[256];
    unsigned int t = threadIdx.x, n = blockDim.x;
    s[t] = in[t];
    if (block_wide)
        __syncthreads();
    else
        __syncwarp();
    out[t] = s[n - 1 - t];
}

// The same with the last lane of each warp returning first: the others'
// __syncwarp() completes without it (exits take part), and they read on.
__global__ void reverse_through_shared_lane_gone(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned int t = threadIdx.x, n = blockDim.x;
    s[t] = in[t];
    if (t % 32 == 31)
        return;
    __syncwarp();  // the full mask: lane 31 has exited, and exited lanes do not hold it
    out[t] = s[n - 1 - t];
}

// Warp 0 polls, with a __syncwarp() in its loop, a flag warp 1 sets: legal
// since Volta (warps progress independently); it must end in every order.
__global__ void warp_polls_flag(volatile int *flag, int *spins)
{
    unsigned int t = threadIdx.x;
    if (t < 32) {
        int n = 0;
        while (!*flag) {
            __syncwarp();
            n++;
        }
        if (t == 0)
            *spins = n;
    } else if (t == 32) {
        *flag = 1;
    }
}

// Block-wide and warp-wide votes on pred.
__global__ void votes(const int *pred, int *block_votes, unsigned int *warp_votes)
{
    unsigned int t = threadIdx.x;
    int p = pred[t];
    int count = __syncthreads_count(p);
    int all = __syncthreads_and(p);
    int any = __syncthreads_or(p);
    unsigned int ballot = __ballot_sync(FULL_MASK, p);
    int warp_all = __all_sync(FULL_MASK, p), warp_any = __any_sync(FULL_MASK, p);
    if (t == 0) {
        block_votes[0] = count;
        block_votes[1] = all;
        block_votes[2] = any;
    }
    if (t % 32 == 0) {
        warp_votes[3 * (t / 32)] = ballot;
        warp_votes[3 * (t / 32) + 1] = (unsigned int)warp_all;
        warp_votes[3 * (t / 32) + 2] = (unsigned int)warp_any;
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

// Reduces 32 values as lanes in lock-step would with shfl_down (lane 0's result).
static float lockstep_sum_down(const float *v32)
{
    float v[32];
    memcpy(v, v32, sizeof(v));
    for (int offset = 16; offset > 0; offset /= 2)
        for (int lane = 0; lane + offset < 32; lane++)
            v[lane] += v[lane + offset];
    return v[0];
}

// Reduces 32 values as a butterfly does (every lane ends with this).
static float lockstep_sum_xor(const float *v32, int lane_out)
{
    float v[32], w[32];
    memcpy(v, v32, sizeof(v));
    for (int mask = 16; mask > 0; mask /= 2) {
        for (int lane = 0; lane < 32; lane++)
            w[lane] = v[lane] + v[lane ^ mask];
        memcpy(v, w, sizeof(v));
    }
    return v[lane_out];
}

// Each thread writes its warp's five reductions of in (unsigned sum, min,
// max; signed min, max) and __activemask() at out[6 * t ...].
__global__ void warp_reductions(const int *in, unsigned int *out)
{
    int t = threadIdx.x;
    unsigned int mask = __activemask(), u = (unsigned int)in[t];
    out[6 * t + 0] = __reduce_add_sync(mask, u);
    out[6 * t + 1] = __reduce_min_sync(mask, u);
    out[6 * t + 2] = __reduce_max_sync(mask, u);
    out[6 * t + 3] = (unsigned int)__reduce_min_sync(mask, in[t]);
    out[6 * t + 4] = (unsigned int)__reduce_max_sync(mask, in[t]);
    out[6 * t + 5] = mask;
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// A barrier reached from two places: the error names a thread at each, with lines.
static void test_barrier_at_two_sites_is_an_error(void **state)
{
    (void)state;
    float *d_out;
    check_cuda(cudaMalloc(&d_out, 32 * sizeof(float)), "cudaMalloc");
    barrier_two_sites<<<2, 32>>>(d_out);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "__syncthreads() divergence in barrier_two_sites", "thread (0,0,0) of block (0,0,0)",
                   source_site("mark: barrier-site-a"), "thread (16,0,0)", source_site("mark: barrier-site-b"),
                   NULL);
    cudaFree(d_out);
}

// Threads that returned before a barrier others wait at: an error naming the
// waiting thread and the returned one, with the line of its return.
static void test_early_return_before_barrier_is_an_error(void **state)
{
    (void)state;
    int n = test_random_int(1, 200);
    float *d_in, *d_out;
    check_cuda(cudaMalloc(&d_in, 256 * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, 256 * sizeof(float)), "cudaMalloc");
    barrier_after_early_return<<<1, 256>>>(d_in, d_out, n);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    char returned[64];
    snprintf(returned, sizeof(returned), "thread (%d,0,0) returned at", n);
    check_contains(msg, "__syncthreads() divergence in barrier_after_early_return",
                   "thread (0,0,0) of block (0,0,0) waits at", source_site("mark: barrier-after-return"), returned,
                   source_site("mark: early-return"), NULL);
    cudaFree(d_in);
    cudaFree(d_out);
}

// Shuffle reductions and scans give the lock-step results in every order.
static void test_warp_shuffles_all_orders(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int blocks = test_random_int(1, 4), threads = 32 * test_random_int(1, 8), n = blocks * threads;
    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    int *h_int = (int *)malloc(n * sizeof(int)), *h_scan = (int *)malloc(n * sizeof(int));
    int *h_bcast = (int *)malloc(n * sizeof(int));
    float *d_in, *d_out;
    int *d_int, *d_scan, *d_bcast;
    test_fill_floats(h_in, n);
    for (int i = 0; i < n; i++)
        h_int[i] = test_random_int(-1000, 1000);
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_int, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_scan, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_bcast, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    check_cuda(cudaMemcpy(d_int, h_int, n * sizeof(int), cudaMemcpyHostToDevice), "upload");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 7 + o);
        warp_sum_down<<<blocks, threads>>>(d_in, d_out);
        check_cuda(cudaMemcpy(h_out, d_out, n / 32 * sizeof(float), cudaMemcpyDeviceToHost), "download");
        for (int w = 0; w < n / 32; w++)
            if (h_out[w] != lockstep_sum_down(&h_in[32 * w]))
                fail_msg("%s: warp %d sum %g, expected %g", orders[o], w, h_out[w], lockstep_sum_down(&h_in[32 * w]));
        warp_sum_xor<<<blocks, threads>>>(d_in, d_out);
        check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
        for (int i = 0; i < n; i++)
            if (h_out[i] != lockstep_sum_xor(&h_in[i - i % 32], i % 32))
                fail_msg("%s: butterfly lane %d: %g", orders[o], i, h_out[i]);
        warp_scan_and_broadcast<<<blocks, threads>>>(d_int, d_scan, d_bcast);
        check_cuda(cudaMemcpy(h_scan, d_scan, n * sizeof(int), cudaMemcpyDeviceToHost), "download");
        check_cuda(cudaMemcpy(h_bcast, d_bcast, n * sizeof(int), cudaMemcpyDeviceToHost), "download");
        for (int i = 0, sum = 0; i < n; i++) {
            sum = i % 32 ? sum + h_int[i] : h_int[i];
            if (h_scan[i] != sum || h_bcast[i] != h_int[i - i % 8 + 3])
                fail_msg("%s: thread %d: scan %d (expected %d), broadcast %d (expected %d)", orders[o], i,
                         h_scan[i], sum, h_bcast[i], h_int[i - i % 8 + 3]);
        }
    }
    emu_set_order("forward", 1);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_int);
    cudaFree(d_scan);
    cudaFree(d_bcast);
    free(h_in);
    free(h_out);
    free(h_int);
    free(h_scan);
    free(h_bcast);
}

// Between barriers every thread runs once in a phase, in the order's
// order: forward 0..n-1, reverse n-1..0 in every phase; shuffle a
// permutation a phase (the block of one thread per warp and of many warps
// alike), so that a thread after a barrier runs after every thread before it
// in the pass and no thread runs twice or not at all (the scheduler's
// passes, the threads handing on to the next in the order).
static void test_barrier_phases_run_in_order(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int threads = test_random_int(2, 300), phases = 4, n = threads * phases;
    int *h_log = (int *)malloc(n * sizeof(int)), *d_log, *d_count, zero = 0;
    check_cuda(cudaMalloc(&d_log, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_count, sizeof(int)), "cudaMalloc");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 11 + o);
        int count = 0;
        check_cuda(cudaMemcpy(d_count, &zero, sizeof(int), cudaMemcpyHostToDevice), "upload");
        check_cuda(cudaMemset(d_log, 0xff, n * sizeof(int)), "memset");  // (-1: no entry left from the order before)
        barrier_phases_log<<<1, threads>>>(d_log, d_count);
        check_cuda(cudaGetLastError(), "launch");
        check_cuda(cudaMemcpy(h_log, d_log, n * sizeof(int), cudaMemcpyDeviceToHost), "download");
        check_cuda(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost), "download");
        if (count != n)
            fail_msg("%s, %d threads: %d entries logged, expected %d", orders[o], threads, count, n);
        int differs = 0;
        for (int p = 0; p < phases; p++) {
            const int *phase = h_log + p * threads;
            int seen[300] = {0};
            for (int i = 0; i < threads; i++) {
                if (phase[i] < 0 || phase[i] >= threads || seen[phase[i]]++)
                    fail_msg("%s, %d threads: phase %d's entry %d is thread %d (run twice, or none such)", orders[o], threads, p, i, phase[i]);
                int want = o == 0 ? i : threads - 1 - i;
                if (o < 2 && phase[i] != want)
                    fail_msg("%s, %d threads: phase %d's entry %d is thread %d, expected %d", orders[o], threads, p, i, phase[i], want);
                differs |= p > 0 && phase[i] != h_log[i];
            }
        }
        if (o == 2 && threads > 8 && !differs)
            fail_msg("shuffle, %d threads: every phase ran in one order", threads);
    }
    emu_set_order("forward", 1);
    cudaFree(d_log);
    cudaFree(d_count);
    free(h_log);
}

// A thread of the pass that waits in a warp operation complete as it
// arrives (its own lane's __syncwarp) runs on at once, before the threads
// after it in the order: its 1000 + k right after its own index (forward and
// reverse), though the threads before it handed on to one another.
static void test_warp_op_mid_pass_runs_on(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse"};
    int threads = test_random_int(3, 256), k = test_random_int(1, threads - 2), n = threads + 1;
    int *h_log = (int *)malloc(n * sizeof(int)), *d_log, *d_count, zero = 0;
    check_cuda(cudaMalloc(&d_log, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_count, sizeof(int)), "cudaMalloc");
    for (int o = 0; o < 2; o++) {
        emu_set_order(orders[o], 5);
        check_cuda(cudaMemcpy(d_count, &zero, sizeof(int), cudaMemcpyHostToDevice), "upload");
        check_cuda(cudaMemset(d_log, 0xff, n * sizeof(int)), "memset");
        barrier_then_own_lane_syncwarp<<<1, threads>>>(d_log, d_count, k);
        check_cuda(cudaGetLastError(), "launch");
        check_cuda(cudaMemcpy(h_log, d_log, n * sizeof(int), cudaMemcpyDeviceToHost), "download");
        int at = -1;
        for (int i = 0; i < n; i++)
            if (h_log[i] == k)
                at = i;
        if (at < 0 || at + 1 >= n || h_log[at + 1] != 1000 + k)
            fail_msg("%s, %d threads, k = %d: thread k's entry at %d, followed by %d (expected %d)", orders[o], threads, k, at,
                     at >= 0 && at + 1 < n ? h_log[at + 1] : -1, 1000 + k);
    }
    emu_set_order("forward", 1);
    cudaFree(d_log);
    cudaFree(d_count);
    free(h_log);
}

// A warp whose lanes shuffle at different call sites: flagged, both sites named.
static void test_warp_divergent_shuffle_is_flagged(void **state)
{
    (void)state;
    float *d_out;
    check_cuda(cudaMalloc(&d_out, 32 * sizeof(float)), "cudaMalloc");
    shuffle_two_sites<<<1, 32>>>(d_out);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "warp divergence in shuffle_two_sites", "thread (0,0,0) of block (0,0,0) waits at __shfl_down_sync()",
                   source_site("mark: shuffle-site-a"), "thread (16,0,0) of the same warp waits at __shfl_down_sync()",
                   source_site("mark: shuffle-site-b"), NULL);
    cudaFree(d_out);
}

// Shuffles reading lanes that do not exist or have returned are flagged.
static void test_shuffle_from_absent_lane_is_flagged(void **state)
{
    (void)state;
    float *d_out;
    check_cuda(cudaMalloc(&d_out, 64 * sizeof(float)), "cudaMalloc");
    shuffle_missing_lanes<<<1, 48>>>(d_out);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "__shfl_down_sync()", "thread (32,0,0)", "reads lane 16 of its warp, which does not exist",
                   NULL);
    check_cuda(cudaDeviceReset(), "cudaDeviceReset");
    check_cuda(cudaMalloc(&d_out, 64 * sizeof(float)), "cudaMalloc");
    shuffle_reads_returned_lane<<<1, 32>>>(d_out);
    msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "__shfl_sync()", "reads lane 5 of its warp, which has returned from the kernel", NULL);
}

// Warp-synchronous code without __syncwarp(): the backend runs one thread at
// a time, so the result depends on the order (the judge compares two), and
// is not the lock-step sum; with __syncwarp() every order agrees with it.
static void test_warp_synchronous_reduction_is_exposed(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    float h_in[64], results[3], fixed[3], *d_in, *d_out;
    test_fill_floats(h_in, 64);
    float v[32];
    for (int t = 0; t < 32; t++)
        v[t] = h_in[t] + h_in[t + 32];
    float lockstep = lockstep_sum_down(v);
    check_cuda(cudaMalloc(&d_in, sizeof(h_in)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice), "upload");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 3);
        reduce_warp_synchronous<<<1, 64>>>(d_in, d_out);
        check_cuda(cudaMemcpy(&results[o], d_out, sizeof(float), cudaMemcpyDeviceToHost), "download");
        reduce_with_syncwarp<<<1, 64>>>(d_in, d_out);
        check_cuda(cudaMemcpy(&fixed[o], d_out, sizeof(float), cudaMemcpyDeviceToHost), "download");
    }
    emu_set_order("forward", 1);
    print_message("# warp-synchronous sum: lock-step %.9g, forward %.9g, reverse %.9g, shuffle %.9g\n", lockstep,
                  results[0], results[1], results[2]);
    assert_true(results[0] != results[1]);
    assert_true(results[0] != lockstep);
    for (int o = 0; o < 3; o++)
        assert_true(fixed[o] == lockstep);
    cudaFree(d_in);
    cudaFree(d_out);
}

// __syncwarp() where the block needs __syncthreads(): a warp runs on from
// its __syncwarp() before the other warps stored their cells, so the
// reversal comes out wrong in the forward and the reverse order alike (as
// it may on a GPU); with __syncthreads() every order gets it right.
static void test_syncwarp_is_no_block_barrier(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int threads = 32 * test_random_int(2, 8);
    float h_in[256], h_out[256], *d_in, *d_out;
    test_fill_floats(h_in, threads);
    check_cuda(cudaMalloc(&d_in, sizeof(h_in)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, sizeof(h_out)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice), "upload");
    print_message("# __syncwarp() for __syncthreads(): %d threads\n", threads);
    for (int o = 0; o < 3; o++) {
        for (int block_wide = 0; block_wide < 2; block_wide++) {
            emu_set_order(orders[o], 11 + o);
            reverse_through_shared<<<1, threads>>>(d_in, d_out, block_wide);
            check_cuda(cudaMemcpy(h_out, d_out, sizeof(float) * threads, cudaMemcpyDeviceToHost), "download");
            int wrong = 0;
            for (int t = 0; t < threads; t++)
                wrong += h_out[t] != h_in[threads - 1 - t];
            if (block_wide)
                assert_int_equal(wrong, 0);
            else if (o < 2)  // forward: warp 0 reads the last warp's cells before they are stored; reverse: the other way
                assert_true(wrong > 0);
        }
    }
    for (int o = 0; o < 2; o++) {  // a lane that returned does not hold its warp back
        emu_set_order(orders[o], 21 + o);
        reverse_through_shared_lane_gone<<<1, threads>>>(d_in, d_out);
        check_cuda(cudaMemcpy(h_out, d_out, sizeof(float) * threads, cudaMemcpyDeviceToHost), "download");
        int wrong = 0;
        for (int t = 0; t < threads; t++)
            wrong += t % 32 != 31 && h_out[t] != h_in[threads - 1 - t];
        assert_true(wrong > 0);
    }
    emu_set_order("forward", 1);
    cudaFree(d_in);
    cudaFree(d_out);
}

// A warp spinning on a flag another warp of its block sets, __syncwarp() in
// its loop: the other warp gets to run, in every order.
static void test_warp_spin_lets_others_run(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int *d_flag, *d_spins, spins;
    check_cuda(cudaMalloc(&d_flag, sizeof(int)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_spins, sizeof(int)), "cudaMalloc");
    for (int o = 0; o < 3; o++) {
        check_cuda(cudaMemset(d_flag, 0, sizeof(int)), "cudaMemset");
        emu_set_order(orders[o], 31 + o);
        warp_polls_flag<<<1, 64>>>(d_flag, d_spins);
        check_cuda(cudaDeviceSynchronize(), orders[o]);
        check_cuda(cudaMemcpy(&spins, d_spins, sizeof(int), cudaMemcpyDeviceToHost), "download");
        print_message("# %s: warp 0 spun %d times\n", orders[o], spins);
        assert_true(spins >= 0 && spins <= 64);
    }
    emu_set_order("forward", 1);
    cudaFree(d_flag);
    cudaFree(d_spins);
}

// __syncthreads_count/and/or and the warp votes agree with the predicates.
static void test_votes(void **state)
{
    (void)state;
    int threads = 32 * test_random_int(1, 8), h_pred[256], h_block[3], *d_pred, *d_block;
    unsigned int h_warp[24], *d_warp;
    int density = test_random_int(0, 2);  // mostly false, mixed, mostly true
    for (int t = 0; t < threads; t++)
        h_pred[t] = test_random_int(0, 3) < density + (density == 2);
    check_cuda(cudaMalloc(&d_pred, sizeof(h_pred)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_block, sizeof(h_block)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_warp, sizeof(h_warp)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_pred, h_pred, sizeof(h_pred), cudaMemcpyHostToDevice), "upload");
    votes<<<1, threads>>>(d_pred, d_block, d_warp);
    check_cuda(cudaMemcpy(h_block, d_block, sizeof(h_block), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpy(h_warp, d_warp, sizeof(h_warp), cudaMemcpyDeviceToHost), "download");
    int count = 0;
    for (int t = 0; t < threads; t++)
        count += h_pred[t];
    assert_int_equal(h_block[0], count);
    assert_int_equal(h_block[1], count == threads);
    assert_int_equal(h_block[2], count > 0);
    for (int w = 0; w < threads / 32; w++) {
        unsigned int ballot = 0;
        for (int l = 0; l < 32; l++)
            ballot |= (unsigned int)(h_pred[32 * w + l] != 0) << l;
        assert_int_equal(h_warp[3 * w], ballot);
        assert_int_equal(h_warp[3 * w + 1], ballot == FULL_MASK);
        assert_int_equal(h_warp[3 * w + 2], ballot != 0);
    }
    cudaFree(d_pred);
    cudaFree(d_block);
    cudaFree(d_warp);
}

// The warp reductions agree with the host's over random values of both signs,
// in every thread order; the active mask of the last, partial warp holds its
// threads only.
static void test_warp_reductions(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int threads = test_random_int(33, 256), h_in[256], *d_in;
    unsigned int h_out[6 * 256], *d_out;
    for (int t = 0; t < threads; t++)
        h_in[t] = test_random_int(-1000000, 1000000);
    check_cuda(cudaMalloc(&d_in, sizeof(h_in)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, sizeof(h_out)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice), "upload");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 5);
        warp_reductions<<<1, threads>>>(d_in, d_out);
        check_cuda(cudaMemcpy(h_out, d_out, 6 * threads * sizeof(unsigned int), cudaMemcpyDeviceToHost), "download");
        for (int w = 0; w * 32 < threads; w++) {
            int lanes = threads - 32 * w < 32 ? threads - 32 * w : 32;
            unsigned int sum = 0, umin = UINT_MAX, umax = 0;
            int smin = INT_MAX, smax = INT_MIN;
            for (int l = 0; l < lanes; l++) {
                unsigned int u = (unsigned int)h_in[32 * w + l];
                sum += u, umin = u < umin ? u : umin, umax = u > umax ? u : umax;
                smin = h_in[32 * w + l] < smin ? h_in[32 * w + l] : smin;
                smax = h_in[32 * w + l] > smax ? h_in[32 * w + l] : smax;
            }
            const unsigned int want[6] = {sum, umin, umax, (unsigned int)smin, (unsigned int)smax,
                                          lanes == 32 ? FULL_MASK : (1u << lanes) - 1};
            for (int l = 0; l < lanes; l++)
                assert_memory_equal(&h_out[6 * (32 * w + l)], want, sizeof(want));
        }
    }
    emu_set_order("forward", 1);
    cudaFree(d_in);
    cudaFree(d_out);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_barrier_at_two_sites_is_an_error, test_reset_device),
        cmocka_unit_test_setup(test_early_return_before_barrier_is_an_error, test_reset_device),
        cmocka_unit_test_setup(test_warp_shuffles_all_orders, test_reset_device),
        cmocka_unit_test_setup(test_barrier_phases_run_in_order, test_reset_device),
        cmocka_unit_test_setup(test_warp_op_mid_pass_runs_on, test_reset_device),
        cmocka_unit_test_setup(test_warp_divergent_shuffle_is_flagged, test_reset_device),
        cmocka_unit_test_setup(test_shuffle_from_absent_lane_is_flagged, test_reset_device),
        cmocka_unit_test_setup(test_warp_synchronous_reduction_is_exposed, test_reset_device),
        cmocka_unit_test_setup(test_syncwarp_is_no_block_barrier, test_reset_device),
        cmocka_unit_test_setup(test_warp_spin_lets_others_run, test_reset_device),
        cmocka_unit_test_setup(test_votes, test_reset_device),
        cmocka_unit_test_setup(test_warp_reductions, test_reset_device),
    };
    test_seed("sync");
    return cmocka_run_group_tests_name("sync", tests, NULL, NULL);
}
