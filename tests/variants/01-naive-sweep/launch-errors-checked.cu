// VARIANT: the solution with the error checks a careful student adds to
// every launch: cudaPeekAtLastError() before it (an error left by an earlier
// call), cudaGetLastError() after it (a bad grid or block shows there), each
// printed to stderr when it is not cudaSuccess. Correct: on a right launch
// both answer cudaSuccess and nothing is printed; the checks cost a call to
// the runtime each, no GPU time.
// Expected: every case passes and the technique line too.
#include "lab.h"

#include <stdio.h>

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)]
                                   + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)]
                                   + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)]
                                   + c6 * in[LAB_INDEX(i + 1, j, k, N)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    cudaError_t before = cudaPeekAtLastError();  // an error left by an earlier call would be blamed on this launch
    if (before != cudaSuccess)
        fprintf(stderr, "launch_stencil: an earlier error: %s\n", cudaGetErrorString(before));
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
    cudaError_t launched = cudaGetLastError();  // a bad configuration shows here, not in the kernel
    if (launched != cudaSuccess)
        fprintf(stderr, "launch_stencil: the launch failed: %s\n", cudaGetErrorName(launched));
}
