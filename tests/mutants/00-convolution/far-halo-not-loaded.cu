// MUTANT: the 2D halo loop stops at OUT_TILE_DIM + r rows and columns instead of OUT_TILE_DIM + 2r: the far halo (the last r rows and columns of the input tile) is never loaded
// expect-hint: tile-edges
// judge-args: --case 37x29
//
// The pixels within r of a tile's right or bottom edge read shared memory nobody
// wrote (NaN under emulation, stale values on a GPU).
#include "conv.h"

#define OUT_TILE_DIM 16
#define SMAX (OUT_TILE_DIM + 2 * CONV_MAX_RADIUS)

__global__ void conv2d(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    __shared__ float tile[SMAX][SMAX + 1];  // +1: no bank conflicts down a column
    const int w = (int)width, h = (int)height, n = OUT_TILE_DIM + 2 * r;
    const int row0 = (int)(blockIdx.y * OUT_TILE_DIM) - r, col0 = (int)(blockIdx.x * OUT_TILE_DIM) - r;
    for (int ty = threadIdx.y; ty < OUT_TILE_DIM + r; ty += blockDim.y)  // MUTANT: + r, not + 2 * r
        for (int tx = threadIdx.x; tx < OUT_TILE_DIM + r; tx += blockDim.x) {
            int y = row0 + ty, x = col0 + tx;
            tile[ty][tx] = (y >= 0 && y < h && x >= 0 && x < w) ? in[(size_t)y * width + x] : 0.0f;
        }
    __syncthreads();
    int row = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y), col = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x);
    if (row < h && col < w) {
        float acc = 0.0f;
        for (int i = -r; i <= r; i++)
            for (int j = -r; j <= r; j++)
                acc += F[i + r][j + r] * tile[threadIdx.y + r + i][threadIdx.x + r + j];
        out[(size_t)row * width + col] = acc;
    }
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM);
    dim3 grid((width + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (height + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    conv2d<<<grid, block>>>(d_in, d_out, width, height, r);
}
