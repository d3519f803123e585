// MUTANT: the launch is stencil_kernel<<<block, grid>>>: grid and block exchanged. Each axis still has (blocks x threads) = the same product, so small grids are covered and pass; from N=100 the "block" (4, 25, 25) = 2500 threads exceeds 1024 and the launch fails with "invalid configuration argument"
// expect-hint: launch-args-swapped
// expect-hint: launch-config
// parity: hints launch-args-swapped launch-config — emulation records the launch and names the exchange (launch-args-swapped); on a GPU the launch fails before its record is reported, so the failed launch is all the judge sees (launch-config)
// (on a GPU the executor stops at the failed launch before reporting its record, so the plain launch-config hint is what it can give there)
// The launch record shows grid = (32, 4, 4) for every N (the intended block)
// and a block that grows with N (the intended grid).
#include "lab.h"

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
    stencil_kernel<<<block, grid>>>  /* MUTANT: block, grid */(d_in, d_out, N);
}
