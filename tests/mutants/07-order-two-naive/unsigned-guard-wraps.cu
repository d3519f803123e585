// MUTANT: the lower guard of lab 1 on i (i >= 1), with the solution's unsigned indices: at i = 1 the read of plane i - 2 wraps to four billion planes away
// expect-hint: kernel-fault
// (lab 7 solution with this one mistake: the handout's unsigned trap. The read
// leaves every allocation: under emulation a fault naming the line)
#include "star13.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)
#define R 2         // the star's radius: interior points lie R cells from every face

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i + R < N && j >= R && j + R < N && k >= R && k + R < N) {
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)] + c6 * in[LAB_INDEX(i + 1, j, k, N)]
                                   + c7 * in[LAB_INDEX(i, j, k - 2, N)] + c8 * in[LAB_INDEX(i, j, k + 2, N)]
                                   + c9 * in[LAB_INDEX(i, j - 2, k, N)] + c10 * in[LAB_INDEX(i, j + 2, k, N)]
                                   + c11 * in[LAB_INDEX(i - 2, j, k, N)] + c12 * in[LAB_INDEX(i + 2, j, k, N)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
