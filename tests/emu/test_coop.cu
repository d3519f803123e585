// tests/emu/test_coop.cu — cooperative groups under CPU emulation: the thread
// block's sync() is a __syncthreads() named at the caller's line, a warp tile
// shuffles and votes as the lanes of its warp do, in every thread order, and
// the grid's sync() stops the kernel with its reason.
#include "emu_test.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Reverses a block's values through shared memory, block.sync() between.
__global__ void reverse_with_block_sync(const float *in, float *out)
{
    __shared__ float s[256];
    cg::thread_block block = cg::this_thread_block();
    unsigned int t = (unsigned int)block.thread_rank(), n = (unsigned int)block.size();
    s[t] = in[blockIdx.x * n + t];
    block.sync();
    out[blockIdx.x * n + t] = s[n - 1 - t];
}

// Per-tile sums: tiles of 32 by shfl_down (rank 0 stores), tiles of 8 by shfl_xor (every rank stores).
__global__ void tile_sums(const float *in, float *warp_sums, float *eight_sums, unsigned int *ranks)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    unsigned int t = (unsigned int)block.thread_rank();
    float v = in[t], w = in[t];
    for (unsigned int offset = 16; offset > 0; offset /= 2)
        v += warp.shfl_down(v, offset);
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = v;
    for (int lane_mask = 4; lane_mask > 0; lane_mask /= 2)
        w += eight.shfl_xor(w, lane_mask);
    eight_sums[t] = w;
    ranks[t] = (unsigned int)(eight.meta_group_rank() * 100 + eight.thread_rank()) + (eight.ballot(in[t] > 0.0f) << 16);
}

// Half the block waits at one block.sync(), half at another.
__global__ void block_sync_two_sites(float *out)
{
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x < 16) {
        out[threadIdx.x] = 1.0f;
        block.sync();  // mark: coop-site-a
    } else {
        block.sync();  // mark: coop-site-b
    }
}

// Waits for the whole grid: not offered.
__global__ void grid_sync(float *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = (float)grid.size();
    grid.sync();  // mark: coop-grid-sync
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// block.sync() holds the block as __syncthreads() does, in every order.
static void test_block_sync_all_orders(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int threads = 32 * test_random_int(1, 8), blocks = test_random_int(1, 3);
    float h_in[768], h_out[768], *d_in, *d_out;
    test_fill_floats(h_in, threads * blocks);
    check_cuda(cudaMalloc(&d_in, sizeof(h_in)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, sizeof(h_out)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice), "upload");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 5 + o);
        reverse_with_block_sync<<<blocks, threads>>>(d_in, d_out);
        check_cuda(cudaMemcpy(h_out, d_out, sizeof(float) * threads * blocks, cudaMemcpyDeviceToHost), "download");
        for (int b = 0; b < blocks; b++)
            for (int t = 0; t < threads; t++)
                if (h_out[b * threads + t] != h_in[b * threads + threads - 1 - t])
                    fail_msg("%s: block %d thread %d", orders[o], b, t);
    }
    emu_set_order("forward", 1);
    cudaFree(d_in);
    cudaFree(d_out);
}

// Tiles of 32 and of 8: sums, ranks and ballots as a GPU's lanes give them.
static void test_tiles(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int threads = 32 * test_random_int(1, 4);
    float h_in[128], h_warp[4], h_eight[128], *d_in, *d_warp, *d_eight;
    unsigned int h_ranks[128], *d_ranks;
    test_fill_floats(h_in, threads);
    check_cuda(cudaMalloc(&d_in, sizeof(h_in)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_warp, sizeof(h_warp)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_eight, sizeof(h_eight)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_ranks, sizeof(h_ranks)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice), "upload");
    for (int o = 0; o < 3; o++) {
        emu_set_order(orders[o], 9 + o);
        tile_sums<<<1, threads>>>(d_in, d_warp, d_eight, d_ranks);
        check_cuda(cudaMemcpy(h_warp, d_warp, sizeof(float) * (threads / 32), cudaMemcpyDeviceToHost), "download");
        check_cuda(cudaMemcpy(h_eight, d_eight, sizeof(float) * threads, cudaMemcpyDeviceToHost), "download");
        check_cuda(cudaMemcpy(h_ranks, d_ranks, sizeof(unsigned int) * threads, cudaMemcpyDeviceToHost), "download");
        for (int w = 0; w < threads / 32; w++) {
            float v[32];
            memcpy(v, &h_in[32 * w], sizeof(v));
            for (int offset = 16; offset > 0; offset /= 2)  // lanes in lock-step
                for (int lane = 0; lane + offset < 32; lane++)
                    v[lane] += v[lane + offset];
            if (h_warp[w] != v[0])
                fail_msg("%s: warp %d sum %g, expected %g", orders[o], w, h_warp[w], v[0]);
        }
        for (int t = 0; t < threads; t++) {
            float w[8];
            int base = t / 8 * 8;
            unsigned int ballot = 0;
            for (int r = 0; r < 8; r++) {
                w[r] = h_in[base + r];
                ballot |= (unsigned int)(h_in[base + r] > 0.0f) << r;
            }
            for (int lane_mask = 4; lane_mask > 0; lane_mask /= 2) {  // the butterfly in lock-step
                float next[8];
                for (int r = 0; r < 8; r++)
                    next[r] = w[r] + w[r ^ lane_mask];
                memcpy(w, next, sizeof(w));
            }
            if (h_eight[t] != w[t % 8])
                fail_msg("%s: thread %d eight-sum %g, expected %g", orders[o], t, h_eight[t], w[t % 8]);
            if (h_ranks[t] != (unsigned int)(t / 8 * 100 + t % 8) + (ballot << 16))
                fail_msg("%s: thread %d ranks/ballot %#x", orders[o], t, h_ranks[t]);
        }
    }
    emu_set_order("forward", 1);
    cudaFree(d_in);
    cudaFree(d_warp);
    cudaFree(d_eight);
    cudaFree(d_ranks);
}

// block.sync() at two sites: the divergence, named at the caller's lines.
static void test_block_sync_two_sites_is_an_error(void **state)
{
    (void)state;
    float *d_out;
    check_cuda(cudaMalloc(&d_out, 32 * sizeof(float)), "cudaMalloc");
    block_sync_two_sites<<<1, 32>>>(d_out);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "__syncthreads() divergence in block_sync_two_sites", source_site("mark: coop-site-a"),
                   source_site("mark: coop-site-b"), NULL);
    cudaFree(d_out);
}

// grid.sync(): an execution error with its reason and line.
static void test_grid_sync_is_refused(void **state)
{
    (void)state;
    float *d_out;
    check_cuda(cudaMalloc(&d_out, 64 * sizeof(float)), "cudaMalloc");
    grid_sync<<<2, 32>>>(d_out);
    const char *msg = expect_execution_error(cudaErrorLaunchFailure);
    check_contains(msg, "grid.sync()", "cooperative launch", source_site("mark: coop-grid-sync"), NULL);
    cudaFree(d_out);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_block_sync_all_orders, test_reset_device),
        cmocka_unit_test_setup(test_tiles, test_reset_device),
        cmocka_unit_test_setup(test_block_sync_two_sites_is_an_error, test_reset_device),
        cmocka_unit_test_setup(test_grid_sync_is_refused, test_reset_device),
    };
    test_seed("coop");
    return cmocka_run_group_tests_name("coop", tests, NULL, NULL);
}
