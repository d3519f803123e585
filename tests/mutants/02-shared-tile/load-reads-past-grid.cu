// MUTANT: the tile load's bound on i written i <= n: the threads of the
// tile's last layer at i = n load the plane past the grid, guard cells a GPU
// reads without complaint (the guard zone is at least a plane, and a ghost
// cell's value is never used), so the output is right there. The emulator
// records that read, and the judge fails the case with the output right:
// out-of-bounds, the reason naming the CUDA thread, the cell and the line.
// expect-hint: out-of-bounds
// backends: emu
// emu-note: a GPU reads the guard cell unseen and the output is right (no check there sees a read); emulation records it and the case fails
// (lab 2 solution with this one mistake; the kit's tests check it fails as expected)
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
    if (i >= 0 && i <= n && j >= 0 && j < n && k >= 0 && k < n)
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
