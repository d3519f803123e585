// VARIANT: a rectangular tile: 32 (x) by 8 (y) blocks (256 threads, a warp
// per row), three 32x8 planes (3 KB) in shared memory, an output patch of
// 30x6 per block, and a z depth decoupled from the tile: each block marches
// Z_DEPTH = 32 planes (the handout's "deeper columns" exercise). More
// blocks resident per SM than a 32x32 block allows, at the price of a
// larger y halo. IN_TILE_DIM is the tile's x size, 32 (the grader's OP/B
// model reads it as a square tile). Correct: patches start at multiples of
// 30 in x, 6 in y and 32 in z; the grid rounds each up; the z loop's bound
// is the block's; three planes rotate by copying after the second barrier,
// as in Fig 8.10. It uses the lab's technique: a 2D block marching in z
// with three planes of the block in shared memory.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the input tile's x size (the grader reads this)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // the output patch's x size: 30
#define IN_Y 8                             // the input tile's y size
#define OUT_Y (IN_Y - 2)                   // the output patch's y size: 6
#define Z_DEPTH 32                         // planes each block marches through

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inPrev_s[IN_Y][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_Y][IN_TILE_DIM];
    __shared__ float inNext_s[IN_Y][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int j = (int)blockIdx.y * OUT_Y + y - 1;
    int iStart = (int)blockIdx.z * Z_DEPTH;
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_Y && j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;

    inPrev_s[y][x] = (loads && iStart >= 1 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    inCurr_s[y][x] = (loads && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    for (int i = iStart; i < iStart + Z_DEPTH && i <= n - 2; i++) {
        inNext_s[y][x] = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;  // i + 1 <= n - 1
        __syncthreads();
        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
        __syncthreads();
        inPrev_s[y][x] = inCurr_s[y][x];
        inCurr_s[y][x] = inNext_s[y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(IN_TILE_DIM, IN_Y, 1);
    dim3 grid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_Y - 1) / OUT_Y, (N + Z_DEPTH - 1) / Z_DEPTH);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
