// tests/emu/test_loads.cu — the emulator's load counts (grader/emu/runtime/loads.cpp),
// which the technique's load floors read under emulation as they read Nsight
// Compute's on a GPU: every load a thread executes, by its size, counted as
// global (cudaMalloc's memory) or shared (__shared__ variables, dynamic shared
// memory); host code and the kit's own loads count nothing. Built with
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
    };
    test_seed("loads");
    return cmocka_run_group_tests_name("loads", tests, NULL, NULL);
}
