// MUTANT: no __syncthreads() between computing a plane and storing the next plane into inCurr_s.
// expect-hint: thread-order
// expect-hint: wrong-values
// expect-hint: missing-barrier
// parity: hints thread-order wrong-values missing-barrier — a GPU names the race through racecheck (missing-barrier) or shows its wrong values; emulation's two thread orders disagree (thread-order)
//
// Lab 4 mutant: the instructor solution with the mistake above (marked MUTANT).
// A thread that has nothing to compute rotates at once and overwrites its
// inCurr_s cell with the next plane while its neighbours still read it.
// Under CPU emulation two thread orders give different results
// (thread-order); on a GPU the idle lanes of the computing warp take the
// rotation path first, and the wrong values show from N=3 on (wrong-values),
// and compute-sanitizer's racecheck, run on that first wrong case, names the
// race (missing-barrier).
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 1;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - 1;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;

    float inPrev = 0.0f, inCurr = 0.0f, inNext = 0.0f;  // this column's z neighbours
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];

    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= 1 && j < n - 1 && k >= 1 && k < n - 1 &&
                    y >= 1 && y < IN_TILE_DIM - 1 && x >= 1 && x < IN_TILE_DIM - 1;

    // Cells outside the grid (ghost cells) stay 0: never used, but defined.
    if (loads && iStart - 1 >= 0 && iStart - 1 < n)
        inPrev = in[LAB_INDEX(iStart - 1, j, k, N)];
    if (loads && iStart < n)
        inCurr = in[LAB_INDEX(iStart, j, k, N)];
    inCurr_s[y][x] = inCurr;

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - 1; i++) {
        inNext = loads && i + 1 < n ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();  // inCurr_s holds the whole current plane

        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev + c6 * inNext;
        // MUTANT: no __syncthreads() before the rotation

        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[y][x] = inNext;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
