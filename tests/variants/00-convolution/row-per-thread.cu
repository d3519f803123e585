// VARIANT (correct): a one-dimensional block of 32 threads for a 32x32 output tile:
// the threads load the (32+2r)² input tile together (each a column of it, row
// after row: coalesced), then each thread computes one whole row of the output
// tile, sliding along x; the row loop carries the 2r+1 filter rows.
#include "conv.h"

#define OUT_TILE_DIM 32
#define SMAX (OUT_TILE_DIM + 2 * CONV_MAX_RADIUS)

__global__ void conv_rows(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    __shared__ float tile[SMAX * SMAX];
    const int w = (int)width, h = (int)height, n = OUT_TILE_DIM + 2 * r;
    const int row0 = (int)blockIdx.y * OUT_TILE_DIM, col0 = (int)blockIdx.x * OUT_TILE_DIM;
    for (int ty = 0; ty < n; ty++)
        for (int tx = threadIdx.x; tx < n; tx += OUT_TILE_DIM) {
            int y = row0 - r + ty, x = col0 - r + tx;
            tile[ty * n + tx] = (y >= 0 && y < h && x >= 0 && x < w) ? in[IMAGE_INDEX(y, x, width)] : 0.0f;
        }
    __syncthreads();
    int row = row0 + (int)threadIdx.x;  // this thread's output row
    if (row >= h)
        return;
    for (int c = 0; c < OUT_TILE_DIM && col0 + c < w; c++) {
        float sum = 0.0f;
        for (int i = 0; i <= 2 * r; i++) {
            const float *line = &tile[(threadIdx.x + i) * n + c];
            for (int j = 0; j <= 2 * r; j++)
                sum += F[i][j] * line[j];
        }
        out[IMAGE_INDEX(row, col0 + c, width)] = sum;
    }
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    dim3 grid((width + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (height + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    conv_rows<<<grid, OUT_TILE_DIM>>>(d_in, d_out, width, height, r);
}
