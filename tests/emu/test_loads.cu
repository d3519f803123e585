// tests/emu/test_loads.cu — the emulator's load counts (grader/emu/runtime/loads.cpp),
// which the technique's load floors read under emulation as they read Nsight
// Compute's on a GPU: every load a thread executes, by its size, counted as
// global (cudaMalloc's memory) or shared (__shared__ variables, dynamic shared
// memory); host code and the kit's own loads count nothing; a read of a kit
// grid's guard cell is recorded (emu_guard_read). Built with
// LOAD_COUNTS=1 (tests/emu/run.sh), as the judge builds the labs with load floors.
#include "emu_test.h"
#include "launch_log.h"

// Each thread loads one float from global memory into the tile, then reads
// `reads` of the tile's floats (its own and the next ones, wrapping).
__global__ void tile_then_reads(const float *in, float *out, int reads)
{
    __shared__ float tile[128];
    unsigned int t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    float sum = 0.0f;
    for (int r = 0; r < reads; r++)
        sum += tile[(t + (unsigned int)r) % blockDim.x];
    out[blockIdx.x * blockDim.x + t] = sum;
}

// Each thread loads one float4 from global memory (16 bytes) and writes it.
__global__ void vector_copy(const float4 *in, float4 *out)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = v;
}

// Thread t copies in[t], but thread pick reads in[at] instead.
__global__ void copy_one_elsewhere(const float *in, float *out, int pick, int at)
{
    int t = (int)threadIdx.x;
    out[t] = in[t == pick ? at : t];  // the read of a guard cell
}

// A kernel's read of a guard cell around a kit grid (before or past it, at a
// random cell) is recorded, not fatal: the first one, naming the thread, the
// cell and the line; reads inside the grid record nothing; a device reset
// forgets it.
static void test_guard_read_recorded(void **state)
{
    (void)state;
    int n = 32 * test_random_int(1, 4), guard = test_random_int(1, 16), pick = test_random_int(0, n - 1);
    int past = test_random_int(1, guard), at = test_random_int(0, 1) ? n - 1 + past : -past;
    float *d_base, *d_out;
    check_cuda(cudaMalloc(&d_base, (size_t)(n + 2 * guard) * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, (size_t)n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemset(d_base, 0, (size_t)(n + 2 * guard) * sizeof(float)), "cudaMemset");
    emu_kit_grid(d_base + guard, (size_t)n * sizeof(float), "d_in");
    copy_one_elsewhere<<<1, n>>>(d_base + guard, d_out, pick, pick);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    assert_string_equal(emu_guard_read(), "");
    copy_one_elsewhere<<<1, n>>>(d_base + guard, d_out, pick, at);
    check_cuda(cudaDeviceSynchronize(), "the read goes on");
    char cell[32], thread[32], first[700];
    snprintf(cell, sizeof(cell), "d_in[%d]", at);
    snprintf(thread, sizeof(thread), "thread (%d,0,0)", pick);
    check_contains(emu_guard_read(), "copy_one_elsewhere", thread, cell, at < 0 ? "before the first" : "past the last",
                   source_site("the read of a guard cell"), NULL);
    snprintf(first, sizeof(first), "%s", emu_guard_read());
    copy_one_elsewhere<<<1, n>>>(d_base + guard, d_out, (pick + 1) % n, at < 0 ? n : -1);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    assert_string_equal(emu_guard_read(), first);  // the first read is the one named
    check_cuda(cudaDeviceReset(), "cudaDeviceReset");
    assert_string_equal(emu_guard_read(), "");
}

// Random sizes: the counts are exactly the loads the threads made.
static void test_counts_are_the_threads_loads(void **state)
{
    (void)state;
    int blocks = test_random_int(1, 6), threads = 32 * test_random_int(1, 4), reads = test_random_int(1, 9);
    size_t n = (size_t)blocks * threads;
    float *d_in, *d_out;
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemset(d_in, 0, n * sizeof(float)), "cudaMemset");
    double global_bytes = -1, shared_bytes = -1;
    assert_int_equal(launch_log_begin(NULL, 0), 0);
    tile_then_reads<<<blocks, threads>>>(d_in, d_out, reads);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    float host[8];
    check_cuda(cudaMemcpy(host, d_out, sizeof(host), cudaMemcpyDeviceToHost), "download");  // the kit's copy: not a kernel's load
    assert_int_equal(launch_log_end(), 1);
    assert_int_equal(launch_log_loads(&global_bytes, &shared_bytes), 1);
    assert_true(global_bytes == (double)n * sizeof(float));
    assert_true(shared_bytes == (double)n * reads * sizeof(float));
    // A vector load is 16 bytes, as on a GPU; a new bracket starts from zero.
    assert_int_equal(launch_log_begin(NULL, 0), 0);
    vector_copy<<<blocks, threads / 4>>>((const float4 *)d_in, (float4 *)d_out);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    assert_int_equal(launch_log_end(), 1);
    assert_int_equal(launch_log_loads(&global_bytes, &shared_bytes), 1);
    assert_true(global_bytes == (double)n * sizeof(float));
    assert_true(shared_bytes == 0);
    cudaFree(d_in);
    cudaFree(d_out);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_counts_are_the_threads_loads, test_reset_device),
        cmocka_unit_test_setup(test_guard_read_recorded, test_reset_device),
    };
    test_seed("loads");
    return cmocka_run_group_tests_name("loads", tests, NULL, NULL);
}
