// HOSTILE: one kernel, the same launch everywhere, but on the timed 512 grid it reads the neighbours from global memory
// expect-hint: technique
// backends: gpu
// (a lab 2 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: the launch records (grid, block, shared memory) are the same on
// every grid, so a rule that reads only them cannot tell; the tile is
// bypassed only where the speed is measured. Why it fails: on a GPU Nsight
// Compute counts the loads on the timed grid, where the shared-load floor is
// not met.
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
        if (n < 400)
            out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                       + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                       + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                       + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
        else  // the timed grid only: the tile is loaded and then ignored
            out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                       + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                       + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                       + c5 * in[LAB_INDEX(i - 1, j, k, N)] + c6 * in[LAB_INDEX(i + 1, j, k, N)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
