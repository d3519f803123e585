// MUTANT: the input-tile load is guarded by the tile size (i, j, k < IN_TILE_DIM) instead of the grid size N.
// expect-hint: wrong-values
// judge-args: --case 13
//
// Lab 2 mutant: the instructor solution with the mistake above (marked MUTANT).
// Only grid points with all coordinates below 8 are ever loaded; every other
// cell of every tile reads as 0. Cases up to N=7 still pass (one tile, or a
// second tile with nothing to compute); from N=13 on, every cell with a
// coordinate of 7 or more is wrong. For N < 8 the loads also read past the
// end of a row, and of the grid, into the runner's guard zone: a GPU reads it
// unseen (those cases pass there), while emulation, which counts this lab's
// loads, fails them as out-of-bounds, naming the load's line. The test runs
// N=13, the first case a GPU fails, where no load leaves the grid and both
// backends name the mistake's own pattern (the read past the grid alone is
// load-reads-past-grid.cu's).
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int i = (int)(blockIdx.z * OUT_TILE_DIM + threadIdx.z) - 1;
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 1;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - 1;

    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // Every thread whose cell lies in the grid loads it: guarded by the grid
    // bounds, not the tile's.
    if (i >= 0 && i < IN_TILE_DIM && j >= 0 && j < IN_TILE_DIM && k >= 0 && k < IN_TILE_DIM)  // MUTANT
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = in[LAB_INDEX(i, j, k, N)];
    else
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = 0.0f;  // ghost cell: defined, never used
    __syncthreads();

    // Interior grid points only, and only the threads inside the output tile.
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1 &&
        threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 &&
        threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 &&
        threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
        int z = (int)threadIdx.z, y = (int)threadIdx.y, x = (int)threadIdx.x;
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
