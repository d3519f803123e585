// MUTANT: the threads outside the output tile (the halo ring, x or y = 0 or 31) return after loading the block's first planes, before the z loop whose __syncthreads() the others reach: a divergent barrier (emulation refuses it; current GPUs let exited threads stop counting), and on a GPU the halo ring of inCurr_s is never refreshed, so from the block's second plane on the cells next to the halo use plane iStart's halo values
// expect-hint: divergent-barrier
// expect-hint: tile-edges
// parity: hints divergent-barrier tile-edges — the emulator's strict barriers stop at the early return before a barrier (divergent-barrier); a GPU forgives the divergence and shows the edge cells the returned threads left unwritten (tile-edges)
// (on an H100 the returned threads leave their halo cells unloaded, so an ordinary case already fails at the tile edges before the sync case runs)
// gpu-hint-today (H100, seed 4242): tile-edges (N=32..256, stale halo values), divergent-barrier at N=34, timed-rep-wrong at 512
// tests/mutants/04-register-tiling/early-return-before-barrier.cu is the
// flavour a GPU forgives (threads of ghost columns, outside the grid, return).
// N = 1 runs no loop step (no barrier) and passes; from N = 2 on the loop
// runs and the returned halo threads leave the barrier short.
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
    if (!(y >= 1 && y < IN_TILE_DIM - 1 && x >= 1 && x < IN_TILE_DIM - 1))
        return;  // MUTANT: a halo thread: its cell is loaded, it has nothing to compute

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - 1; i++) {
        inNext = loads && i + 1 < n ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();  // inCurr_s holds the whole current plane

        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev + c6 * inNext;
        __syncthreads();  // nobody still reads inCurr_s before it is overwritten

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
