// VARIANT: a 2D thread organisation, one thread per (j, k) column: 32x8
// blocks tile the x-y plane, and each thread loops over all N-2 interior
// planes i = 1 .. N-2 of its column. This is a common first answer (and the
// shape the later labs build on). Correct: every interior (j, k) column has
// exactly one thread and that thread visits every interior plane, so every
// interior cell is written once, from in[] only. It is the lab's technique:
// one launch, the Fig 8.6 per-point computation spread over N^2 threads
// that each do one point per plane, with no shared memory.
// Expected: every case passes and the technique line too (under emulation
// the largest case is N=256: 65536 threads).
#include "lab.h"

#define BLOCK_X 32   // threads along x (k): a warp reads one row segment
#define BLOCK_Y 8    // threads along y (j)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (k < 1 || k + 1 >= N || j < 1 || j + 1 >= N)
        return;
    for (unsigned int i = 1; i + 1 < N; i++) {
        size_t p = LAB_INDEX(i, j, k, N);
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - N] + c4 * in[p + N]
               + c5 * in[p - (size_t)N * N] + c6 * in[p + (size_t)N * N];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, 1);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
