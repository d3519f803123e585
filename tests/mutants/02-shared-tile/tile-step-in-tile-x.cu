// MUTANT: in x only, the tile origin steps by IN_TILE_DIM (k = blockIdx.x*IN_TILE_DIM + threadIdx.x - 1) instead of OUT_TILE_DIM; y and z and the grid size are right. Tile b computes columns 8b..8b+5, so the columns at the tile seams, k = 8b+6 and 8b+7, are never written
// expect-hint: tile-seam
// Passes up to N=7 (column 6 is the boundary there); fails from N=13 on.
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int i = (int)(blockIdx.z * OUT_TILE_DIM + threadIdx.z) - 1;
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 1;
    int k = (int)(blockIdx.x * IN_TILE_DIM + threadIdx.x) - 1;  // MUTANT: IN_TILE_DIM in x

    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // Every thread whose cell lies in the grid loads it: guarded by the grid
    // bounds, not the tile's.
    if (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n)
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
