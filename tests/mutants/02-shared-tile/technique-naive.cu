// MUTANT: a correct naive kernel (one thread per point as in lab 1, 8x8x8 blocks, no shared memory) submitted to lab 2.
// expect-hint: technique
//
// Lab 2 mutant: every case passes; only the technique line fails, because
// the kernel keeps no input tile in shared memory. The tile macros are kept
// from the skeleton, as a student would leave them.
#include "lab.h"

#define IN_TILE_DIM 8                     // kept from the skeleton, unused
#define OUT_TILE_DIM (IN_TILE_DIM - 2)
#define BLOCK_DIM 8

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)]
                                   + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)]
                                   + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)]
                                   + c6 * in[LAB_INDEX(i + 1, j, k, N)];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int blocks = (N + BLOCK_DIM - 1) / BLOCK_DIM;
    dim3 block(BLOCK_DIM, BLOCK_DIM, BLOCK_DIM);
    dim3 grid(blocks, blocks, blocks);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
