// VARIANT: thread coarsening along x: 32x4x2 blocks in which each thread
// computes four points of its row, 32 columns apart (k, k+32, k+64, k+96:
// a warp still reads 32 consecutive floats for each), so a block covers a
// 128x4x2 box; the four sums in an unrolled loop, unsigned indices, the
// interior test per point. Correct: the boxes tile the grid (x rounded up
// to 128), each point of a box belongs to exactly one thread and one q; a
// point is written only if it lies two or more cells from every face. It is
// the naive lab's technique: one launch, N^3 / 4 threads, each a handful of
// points computed from global memory.
// Expected: every case passes and the technique line too.
#include "star13.h"

#define BX 32
#define BY 4
#define BZ 2
#define PER_THREAD 4                    // points a thread computes along x
#define R 2

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const unsigned int i = blockIdx.z * BZ + threadIdx.z;
    const unsigned int j = blockIdx.y * BY + threadIdx.y;
    if (i < R || i + R >= N || j < R || j + R >= N)
        return;
#pragma unroll
    for (unsigned int q = 0; q < PER_THREAD; q++) {
        const unsigned int k = blockIdx.x * (BX * PER_THREAD) + q * BX + threadIdx.x;
        if (k < R || k + R >= N)
            continue;
        const size_t p = LAB_INDEX(i, j, k, N), row = N, plane = (size_t)N * N;
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1] + c7 * in[p - 2] + c8 * in[p + 2]
               + c3 * in[p - row] + c4 * in[p + row] + c9 * in[p - 2 * row] + c10 * in[p + 2 * row]
               + c5 * in[p - plane] + c6 * in[p + plane] + c11 * in[p - 2 * plane] + c12 * in[p + 2 * plane];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BX, BY, BZ);
    dim3 grid((N + BX * PER_THREAD - 1) / (BX * PER_THREAD), (N + BY - 1) / BY, (N + BZ - 1) / BZ);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
