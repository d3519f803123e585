// MUTANT: the edge threads in x compute too: the compute test checks threadIdx.y and threadIdx.z against the output tile but not threadIdx.x.
// expect-hint: tile-edges
// expect-hint: thread-order
// parity: hints tile-edges thread-order — two blocks write the same edge cells: a GPU runs one order and the wrong edge values show as the tile's edges (tile-edges); emulation's two block orders may disagree (thread-order)
//
// Lab 2 mutant: the instructor solution with the mistake above (marked MUTANT).
// Thread x=0 of tile b computes point k = 6b-1 (tile b-1's last column) and
// thread x=7 computes k = 6b+6 (tile b+1's first), with a neighbour taken from
// the wrong row of in_s. Both tiles write those cells. For every pair of
// neighbouring tiles both columns are interior from N=13 on, and whichever
// tile writes last leaves one of the two wrong (on a GPU one warp writes both
// columns of a row in one store), so the failure does not depend on timing;
// the wrong cells lie on the x edges of the output tiles (tile-edges). Which
// cells are wrong does depend on the order of the blocks: under CPU emulation
// the second run shuffles the blocks, and when the two runs differ the judge
// reports the order dependence first (thread-order).
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
        threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1) {  // MUTANT: threadIdx.x not checked
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
