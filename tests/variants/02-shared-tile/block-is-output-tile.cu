// VARIANT: the book's second thread organisation for lab 2 (left as an
// exercise in PMPP 8.3): the block is the OUTPUT tile, (T-2)^3 = 216 threads,
// and the threads loop to load the whole T^3 input tile, halo included.
// Correct, and it uses the lab's technique: it must pass every case and the
// technique check. (The kit's tests run every file in tests/variants/<lab>/
// and expect a pass.)
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM) - 1;  // the input tile's first plane, row, column
    int jStart = (int)(blockIdx.y * OUT_TILE_DIM) - 1;
    int kStart = (int)(blockIdx.x * OUT_TILE_DIM) - 1;
    int tid = (int)((threadIdx.z * OUT_TILE_DIM + threadIdx.y) * OUT_TILE_DIM + threadIdx.x);

    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    // 216 threads load 512 cells: each takes every 216th cell of the tile.
    for (int c = tid; c < IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM; c += OUT_TILE_DIM * OUT_TILE_DIM * OUT_TILE_DIM) {
        int z = c / (IN_TILE_DIM * IN_TILE_DIM), y = (c / IN_TILE_DIM) % IN_TILE_DIM, x = c % IN_TILE_DIM;
        int i = iStart + z, j = jStart + y, k = kStart + x;
        in_s[z][y][x] = (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n) ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    }
    __syncthreads();

    // Every thread owns one output point: tile cell (z, y, x) = thread + 1.
    int z = (int)threadIdx.z + 1, y = (int)threadIdx.y + 1, x = (int)threadIdx.x + 1;
    int i = iStart + z, j = jStart + y, k = kStart + x;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM, OUT_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
