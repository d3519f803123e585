// VARIANT: a 16^3 input tile (16 KB of shared memory) loaded by a 2D block of
// 16x16 = 256 threads: the block is one x-y plane of the input tile and
// loops over the tile's 16 planes to load it, then loops over the 14 output
// planes to compute. The natural answer to "the block size limit stops T at
// 8": keep the whole 3D tile, but give each thread a column of it. Correct:
// every tile cell (ghost cells 0) is written before the barrier; output
// tiles are 14^3 and start at multiples of 14 per axis; each inner thread
// computes its column's interior points. It uses the lab's technique: the
// whole 3D input tile, halo included, in shared memory, all neighbours read
// there (OP/B 13*14^3/(4*16^3) = 2.18, better than T = 8). The block is
// 2D, which is not what Fig 8.8 draws.
// Expected: every case passes; the technique line should pass too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
    int i0 = (int)blockIdx.z * OUT_TILE_DIM - 1;  // the tile's first plane
    bool col_in_grid = j >= 0 && j < n && k >= 0 && k < n;

    for (int z = 0; z < IN_TILE_DIM; z++) {
        int i = i0 + z;
        in_s[z][y][x] = (col_in_grid && i >= 0 && i < n) ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    }
    __syncthreads();

    if (x < 1 || x > OUT_TILE_DIM || y < 1 || y > OUT_TILE_DIM || j < 1 || j > n - 2 || k < 1 || k > n - 2)
        return;  // after the only barrier: safe
    for (int z = 1; z <= OUT_TILE_DIM; z++) {
        int i = i0 + z;
        if (i < 1 || i > n - 2)
            continue;
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM, 1)>>>(d_in, d_out, N);
}
