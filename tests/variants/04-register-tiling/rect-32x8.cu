// VARIANT: a rectangular tile: 32 (x) by 8 (y) blocks (256 threads), a 32x8
// shared plane (1 KB), output patches of 30x6, each block marching
// Z_DEPTH = 64 planes with its column's z neighbours in registers.
// IN_TILE_DIM is the tile's x size, 32 (the grader's OP/B model reads it as
// a square tile). Correct: patches start at multiples of 30 in x, 6 in y and
// 64 in z; the grid rounds each up; the z loop bound is the block's; the
// Fig 8.12 order (load next, barrier, compute, barrier, rotate and store).
// It uses the lab's technique: register tiling with one shared plane of
// the block, a 2D block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the input tile's x size (the grader reads this)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // the output patch's x size: 30
#define IN_Y 8                             // the input tile's y size
#define OUT_Y (IN_Y - 2)                   // the output patch's y size: 6
#define Z_DEPTH 64                         // planes each block marches through

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inCurr_s[IN_Y][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int j = (int)blockIdx.y * OUT_Y + y - 1;
    int iStart = (int)blockIdx.z * Z_DEPTH;
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_Y && j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;

    float inPrev = (loads && iStart >= 1 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float inCurr = (loads && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    inCurr_s[y][x] = inCurr;
    for (int i = iStart; i < iStart + Z_DEPTH && i <= n - 2; i++) {
        float inNext = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev + c6 * inNext;
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[y][x] = inNext;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(IN_TILE_DIM, IN_Y, 1);
    dim3 grid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_Y - 1) / OUT_Y, (N + Z_DEPTH - 1) / Z_DEPTH);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
