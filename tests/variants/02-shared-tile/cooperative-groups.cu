// VARIANT: the shared tile with cooperative groups: cg::this_thread_block()
// for the barrier (block.sync()) and the block's index; otherwise the
// solution's tile and launch. (Warp tiles are tested in tests/emu/test_coop.cu:
// a warp operation for every thread of every block would make the emulated
// N = 129 case twice as long.)
#include "lab.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    cg::thread_block block = cg::this_thread_block();
    const dim3 tile = block.group_index(), cell = block.thread_index();
    int i = (int)(tile.z * OUT_TILE_DIM + cell.z) - 1;
    int j = (int)(tile.y * OUT_TILE_DIM + cell.y) - 1;
    int k = (int)(tile.x * OUT_TILE_DIM + cell.x) - 1;

    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // Every thread whose cell lies in the grid loads it: guarded by the grid
    // bounds, not the tile's.
    if (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n)
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = in[LAB_INDEX(i, j, k, N)];
    else
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = 0.0f;  // ghost cell: defined, never used
    block.sync();

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
