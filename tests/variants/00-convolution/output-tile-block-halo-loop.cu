// VARIANT (correct): a block the size of the output tile (16x16 threads, one
// per output pixel) that loads the (16+2r)² input tile in a loop over the
// tile's pixels, the book's second thread organisation (§7.4), with a shared
// array sized for the largest radius.
#include "conv.h"

#define OUT_TILE_DIM 16                                  // the grader reads this (the block is the output tile)
#define TILE_MAX (OUT_TILE_DIM + 2 * CONV_MAX_RADIUS)    // the input tile at the largest radius

__global__ void conv_kernel(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    __shared__ float tile[TILE_MAX][TILE_MAX];
    const int in_dim = OUT_TILE_DIM + 2 * r, w = (int)width, h = (int)height;
    const int row0 = (int)blockIdx.y * OUT_TILE_DIM - r, col0 = (int)blockIdx.x * OUT_TILE_DIM - r;
    for (int t = (int)(threadIdx.y * OUT_TILE_DIM + threadIdx.x); t < in_dim * in_dim; t += OUT_TILE_DIM * OUT_TILE_DIM) {
        int ty = t / in_dim, tx = t % in_dim, row = row0 + ty, col = col0 + tx;
        tile[ty][tx] = row >= 0 && row < h && col >= 0 && col < w ? in[IMAGE_INDEX(row, col, width)] : 0.0f;
    }
    __syncthreads();
    int row = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y), col = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x);
    if (row >= h || col >= w)
        return;
    float sum = 0.0f;
    for (int i = 0; i <= 2 * r; i++)
        for (int j = 0; j <= 2 * r; j++)
            sum += F[i][j] * tile[threadIdx.y + i][threadIdx.x + j];
    out[IMAGE_INDEX(row, col, width)] = sum;
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM, 1);
    dim3 grid((width + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (height + OUT_TILE_DIM - 1) / OUT_TILE_DIM, 1);
    conv_kernel<<<grid, block>>>(d_in, d_out, width, height, r);
}
