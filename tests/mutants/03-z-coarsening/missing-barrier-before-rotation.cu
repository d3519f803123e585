// MUTANT: no __syncthreads() between computing a plane and rotating the shared planes.
// expect-hint: thread-order
// expect-hint: wrong-values
// expect-hint: missing-barrier
// parity: hints missing-barrier thread-order wrong-values — a race: which hint shows depends on the order the threads ran in: a GPU names it through the sync case's racecheck (missing-barrier) or by the values one order left; emulation by its two thread orders disagreeing (thread-order), by a shared cell read before any thread stored it (its shared memory starts as NaN: nan-computed) or by the values
//
// Lab 3 mutant: the instructor solution with the mistake above (marked MUTANT).
// A thread that has nothing to compute (a halo thread, or a neighbour in the
// same warp outside the grid's interior) rotates at once and overwrites its
// inCurr_s cell with the next plane while its neighbours still read it.
// Under CPU emulation the threads run one after the other between barriers,
// so in any order some neighbours read the rotated value, and two thread
// orders give different results (thread-order). On a GPU the idle lanes of
// the computing warp take the rotation path first, and the wrong values show
// from N=3 on (wrong-values), and compute-sanitizer's racecheck, run on that
// first wrong case, names the race (missing-barrier).
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

    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];

    // This thread's column lies in the grid: it may load. It lies inside the
    // output tile and the grid's interior: it computes (once the plane does too).
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= 1 && j < n - 1 && k >= 1 && k < n - 1 &&
                    y >= 1 && y < IN_TILE_DIM - 1 && x >= 1 && x < IN_TILE_DIM - 1;

    // Cells outside the grid (ghost cells) get 0: never used, but defined.
    if (loads && iStart - 1 >= 0 && iStart - 1 < n)
        inPrev_s[y][x] = in[LAB_INDEX(iStart - 1, j, k, N)];
    else
        inPrev_s[y][x] = 0.0f;
    if (loads && iStart < n)
        inCurr_s[y][x] = in[LAB_INDEX(iStart, j, k, N)];
    else
        inCurr_s[y][x] = 0.0f;

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - 1; i++) {
        if (loads && i + 1 < n)
            inNext_s[y][x] = in[LAB_INDEX(i + 1, j, k, N)];
        else
            inNext_s[y][x] = 0.0f;
        __syncthreads();  // the three planes are complete (and last step's rotation done)

        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
        // MUTANT: no __syncthreads() before the rotation

        inPrev_s[y][x] = inCurr_s[y][x];
        inCurr_s[y][x] = inNext_s[y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
