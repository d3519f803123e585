// VARIANT: register tiling with a DOUBLE-BUFFERED shared plane: two 32x32
// planes (8 KB) used alternately, so each step needs ONE barrier instead of
// two (a common optimisation once the Fig 8.12 kernel works). Step s reads
// plane iStart+s from buffer s&1 and writes plane iStart+s+1 into buffer
// (s+1)&1, then waits. Correct: the buffer written at step s was last read
// at step s-1, before the barrier that ended step s-1; the buffer read at
// step s was written at step s-1 (or before the loop), before that same
// barrier; the step count is the block's. The z neighbours stay in
// registers. It uses the lab's technique: z neighbours in registers, the
// x-y neighbours from shared memory, a T x T block marching in z; it keeps
// two planes (fewer than lab 3's three), one of them the next plane's.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float plane_s[2][IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    int iEnd = min(iStart + OUT_TILE_DIM, n - 1);
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;

    float inPrev = (loads && iStart >= 1 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float inCurr = (loads && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    plane_s[0][y][x] = inCurr;
    __syncthreads();
    for (int i = iStart, b = 0; i < iEnd; i++, b ^= 1) {
        float inNext = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr
                                       + c1 * plane_s[b][y][x - 1] + c2 * plane_s[b][y][x + 1]
                                       + c3 * plane_s[b][y - 1][x] + c4 * plane_s[b][y + 1][x]
                                       + c5 * inPrev + c6 * inNext;
        plane_s[b ^ 1][y][x] = inNext;
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM)>>>(d_in, d_out, N);
}
