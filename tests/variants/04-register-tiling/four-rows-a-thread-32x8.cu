// VARIANT: register tiling with thread coarsening in y as well: a 32x8 block
// (256 threads) covers the book's 32x32 input tile, each thread owning four
// columns of it (rows ty, ty+8, ty+16, ty+24), each with its own z
// neighbours in registers (inPrev[4], inCurr[4], inNext[4]); one 32x32 plane
// (4 KB) in shared memory, as in Fig 8.12. The block marches OUT_TILE_DIM
// planes. Correct: the four rows of the 8 threads of a column cover the 32
// rows of the tile exactly once; every thread stores its four cells of the
// current plane before the first barrier of a step and overwrites them only
// after the second; the loop bound is the block's. It uses the lab's
// technique: z neighbours in registers, one T^2 plane in shared memory, a
// 2D block marching in z (fewer threads than lab 3's block, four columns
// each).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this
#define BLOCK_Y 8                          // threads along y
#define ROWS (IN_TILE_DIM / BLOCK_Y)       // tile rows a thread owns: 4

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int n = (int)N;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int x = (int)threadIdx.x;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];

    float inPrev[ROWS], inCurr[ROWS], inNext[ROWS];
    bool loads[ROWS], computes[ROWS];
#pragma unroll
    for (int q = 0; q < ROWS; q++) {
        int y = (int)threadIdx.y + q * BLOCK_Y;
        int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
        loads[q] = j >= 0 && j < n && k >= 0 && k < n;
        computes[q] = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2 &&
                      k >= 1 && k <= n - 2;
        inPrev[q] = loads[q] && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
        inCurr[q] = loads[q] && iStart < n ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
        inNext[q] = 0.0f;
        inCurr_s[y][x] = inCurr[q];
    }

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i <= n - 2; i++) {
#pragma unroll
        for (int q = 0; q < ROWS; q++) {
            int j = (int)blockIdx.y * OUT_TILE_DIM + (int)threadIdx.y + q * BLOCK_Y - 1;
            inNext[q] = loads[q] ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        }
        __syncthreads();  // inCurr_s holds the whole current plane
        if (i >= 1) {
#pragma unroll
            for (int q = 0; q < ROWS; q++) {
                int y = (int)threadIdx.y + q * BLOCK_Y;
                int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
                if (computes[q])
                    out[LAB_INDEX(i, j, k, N)] = c0 * inCurr[q]
                                               + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                               + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                               + c5 * inPrev[q] + c6 * inNext[q];
            }
        }
        __syncthreads();  // nobody still reads inCurr_s before it is overwritten
#pragma unroll
        for (int q = 0; q < ROWS; q++) {
            inPrev[q] = inCurr[q];
            inCurr[q] = inNext[q];
            inCurr_s[(int)threadIdx.y + q * BLOCK_Y][x] = inCurr[q];
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
