// VARIANT: each block marches the WHOLE z range: grid.z = 1, and a 32x32
// block walks planes 1 .. N-2 of its 30x30 patch (the limit of the handout's
// "deeper columns" exercise: each input plane loaded once per patch, no z
// halo reloaded between blocks). Correct: the Fig 8.10 algorithm with
// iStart = 1 and the loop bound N-2, the same for every thread of the
// block; three planes rotate by copying after the second barrier. It uses
// the lab's technique: a T x T block marching in z (as far as it can) with
// three T^2 planes (12 KB) in shared memory; it launches N^2/OUT_TILE_DIM^2
// blocks, far fewer threads than points.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = loads && x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM &&
                    j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;

    if (n < 3)
        return;  // no interior, and no barrier reached by anyone: safe
    inPrev_s[y][x] = loads ? in[LAB_INDEX(0, j, k, N)] : 0.0f;
    inCurr_s[y][x] = loads ? in[LAB_INDEX(1, j, k, N)] : 0.0f;
    for (int i = 1; i <= n - 2; i++) {
        inNext_s[y][x] = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
        __syncthreads();
        inPrev_s[y][x] = inCurr_s[y][x];
        inCurr_s[y][x] = inNext_s[y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, 1), dim3(IN_TILE_DIM, IN_TILE_DIM, 1)>>>(d_in, d_out, N);
}
