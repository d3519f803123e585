// tests/emu/test_file_shared.cu — a __shared__ variable declared at file
// scope (outside any kernel, legal CUDA, read by name in a __device__ helper)
// under CPU emulation: per-block storage the kernel can use, and counted in
// the kernel's static shared memory as a GPU counts it (the technique rules
// read that size). A file of its own: every kernel of a file counts the
// file's shared variables here.
#include "emu_test.h"

#define FILE_BLOCK 128

__shared__ float file_plane[FILE_BLOCK];

// The neighbour to the right within the block, through the file's plane.
__device__ float right_neighbour(unsigned int t)
{
    return file_plane[(t + 1) % FILE_BLOCK];
}

// out[i] = in[i] + in[the next slot of its block], through the file-scope array.
__global__ void shift_through_file_plane(const float *in, float *out)
{
    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    file_plane[t] = in[i];
    __syncthreads();
    out[i] = in[i] + right_neighbour(t);
}

static void test_file_scope_shared(void **state)
{
    (void)state;
    const int blocks = 5, n = blocks * FILE_BLOCK;
    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    float *d_in, *d_out;
    for (int i = 0; i < n; i++)
        h_in[i] = test_random_float(-1.0f, 1.0f);
    check_cuda(cudaMalloc((void **)&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc((void **)&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    shift_through_file_plane<<<blocks, FILE_BLOCK>>>(d_in, d_out);
    check_cuda(cudaDeviceSynchronize(), "the launch");
    check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int i = 0; i < n; i++) {
        int b = i / FILE_BLOCK, t = i % FILE_BLOCK;
        float want = h_in[i] + h_in[b * FILE_BLOCK + (t + 1) % FILE_BLOCK];
        if (h_out[i] != want)
            fail_msg("out[%d] = %g, expected %g", i, h_out[i], want);
    }
    cudaFuncAttributes attr;
    check_cuda(cudaFuncGetAttributes(&attr, shift_through_file_plane), "cudaFuncGetAttributes");
    assert_int_equal(attr.sharedSizeBytes, FILE_BLOCK * sizeof(float));
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_file_scope_shared, test_reset_device),
    };
    test_seed("file_shared");
    return cmocka_run_group_tests_name("file_shared", tests, NULL, NULL);
}
