// MUTANT: the grid is sized for the N-2 interior points per axis, ceil((N-2)/B), but the mapping is NOT shifted (thread 0 owns point 0), so the last interior plane/row/column (index N-2) has no thread whenever (N-2) is a multiple of the block side (4 in y and z, 32 in x): N = 6, 10, 14, 18, 34, 66, 130, 258, 514 ...
// expect-hint: off-by-one
#include "lab.h"

#define BLOCK_X 32
#define BLOCK_Y 4
#define BLOCK_Z 4

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
    if (N < 3) return;                 // no interior points
    unsigned int M = N - 2;            // "only the interior needs threads"
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((M + BLOCK_X - 1) / BLOCK_X, (M + BLOCK_Y - 1) / BLOCK_Y, (M + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
