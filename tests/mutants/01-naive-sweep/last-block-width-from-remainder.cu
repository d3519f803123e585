// MUTANT: 24-wide blocks over the interior (thread 0 owns point 1), the grid ceil((N-2)/24) along x, and the last block along x told its width as (N-2) % 24 "the points left over". When the interior is a whole number of blocks (N-2 a multiple of 24: 26, 50, 74, ...) that is 0 and the last 24 columns are never written; no size of lab.conf has such an interior (its N-2 are 2, 3, 5, 8, 14, 31, 32, 62, 98, 127, 254, 510), so only the case sized from the kernel's own 24-wide blocks (N=50) finds it
// expect-hint: unwritten-cells
#include "lab.h"

#define BLOCK_X 24
#define BLOCK_Y 4
#define BLOCK_Z 4

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z + 1;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
    unsigned int width = blockIdx.x == gridDim.x - 1 ? (N - 2) % BLOCK_X : BLOCK_X;  // the bug: 0 when the interior is whole blocks
    if (threadIdx.x >= width || i >= N - 1 || j >= N - 1 || k >= N - 1)
        return;
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
    if (N < 3)
        return;  // no interior
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N - 2 + BLOCK_X - 1) / BLOCK_X, (N - 2 + BLOCK_Y - 1) / BLOCK_Y, (N - 2 + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
