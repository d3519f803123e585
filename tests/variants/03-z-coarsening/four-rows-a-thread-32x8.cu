// VARIANT: thread coarsening in y as well as in z: a 32x8 block (256
// threads) covers the book's 32x32 input tile, each thread owning four of
// its columns (rows ty, ty+8, ty+16, ty+24): it loads, computes and rotates
// four cells of each plane. Three 32x32 planes (12 KB) in shared memory as
// in Fig 8.10; the block marches OUT_TILE_DIM planes. Correct: the four rows
// of the 8 threads of a column cover the tile's 32 rows exactly once; the
// rotation copies only a thread's own cells after the second barrier, so the
// next step's load races with nothing; the loop bound is the block's. It
// uses the lab's technique: a 2D block marching in z with three tile planes
// in shared memory (three times the block's 256 floats, and more).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this
#define BLOCK_Y 8                          // threads along y
#define ROWS (IN_TILE_DIM / BLOCK_Y)       // tile rows a thread owns: 4

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];
    const int n = (int)N, x = (int)threadIdx.x;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const int j0 = (int)blockIdx.y * OUT_TILE_DIM - 1;  // grid row of the tile's row 0
    const bool col_in = k >= 0 && k < n;

#pragma unroll
    for (int q = 0; q < ROWS; q++) {
        int y = (int)threadIdx.y + q * BLOCK_Y, j = j0 + y;
        bool loads = col_in && j >= 0 && j < n;
        inPrev_s[y][x] = loads && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
        inCurr_s[y][x] = loads && iStart < n ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM && i <= n - 2; i++) {
#pragma unroll
        for (int q = 0; q < ROWS; q++) {
            int y = (int)threadIdx.y + q * BLOCK_Y, j = j0 + y;
            inNext_s[y][x] = col_in && j >= 0 && j < n ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        }
        __syncthreads();  // three planes complete
        if (i >= 1 && x >= 1 && x <= OUT_TILE_DIM && k >= 1 && k <= n - 2) {
#pragma unroll
            for (int q = 0; q < ROWS; q++) {
                int y = (int)threadIdx.y + q * BLOCK_Y, j = j0 + y;
                if (y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2)
                    out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                               + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                               + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                               + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
            }
        }
        __syncthreads();  // every read done before the rotation
#pragma unroll
        for (int q = 0; q < ROWS; q++) {
            int y = (int)threadIdx.y + q * BLOCK_Y;
            inPrev_s[y][x] = inCurr_s[y][x];
            inCurr_s[y][x] = inNext_s[y][x];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, BLOCK_Y, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
