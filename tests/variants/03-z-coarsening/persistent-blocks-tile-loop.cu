// VARIANT: persistent blocks: a fixed 1D grid of 48 blocks of 32x32
// threads, whatever N is, each block taking tile columns (x patch, y patch,
// z column) in turn with a grid-stride loop over their flat number and
// marching each one as Fig 8.10 does. Correct: the work items cover every
// 30x30x30 output tile once; an item's loop bound is the block's, so all
// threads reach every barrier; a thread rotates and reloads only its own
// cells between the last barrier of one item and the first of the next, so
// no neighbour's read races with them. It uses the lab's technique: a T x T
// block marching in z with three T^2 planes (12 KB) in shared memory, and
// far fewer threads than points.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this
#define BLOCKS 48                          // the persistent grid

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];
    const int n = (int)N, y = (int)threadIdx.y, x = (int)threadIdx.x;
    const int tiles = (n + OUT_TILE_DIM - 1) / OUT_TILE_DIM;

    for (int item = (int)blockIdx.x; item < tiles * tiles * tiles; item += (int)gridDim.x) {
        const int bx = item % tiles, by = (item / tiles) % tiles, bz = item / (tiles * tiles);
        const int iStart = bz * OUT_TILE_DIM;
        const int j = by * OUT_TILE_DIM + y - 1, k = bx * OUT_TILE_DIM + x - 1;
        const bool loads = j >= 0 && j < n && k >= 0 && k < n;
        const bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 &&
                              j <= n - 2 && k >= 1 && k <= n - 2;
        inPrev_s[y][x] = loads && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
        inCurr_s[y][x] = loads && iStart < n ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
        for (int i = iStart; i < iStart + OUT_TILE_DIM && i <= n - 2; i++) {
            inNext_s[y][x] = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
            __syncthreads();  // three planes complete
            if (computes && i >= 1)
                out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                           + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                           + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                           + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
            __syncthreads();  // every read done before the rotation
            inPrev_s[y][x] = inCurr_s[y][x];
            inCurr_s[y][x] = inNext_s[y][x];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    stencil_kernel<<<BLOCKS, dim3(IN_TILE_DIM, IN_TILE_DIM)>>>(d_in, d_out, N);
}
