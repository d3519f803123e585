// MUTANT: the basic kernel of Fig 7.9: one thread per pixel, the filter in constant memory, every tap read from in[] (no tile in shared memory).
// expect-hint: technique
//
// Every pixel is right; the technique line fails: no shared memory at all.
#include "conv.h"

#define BLOCK 16

__global__ void conv_kernel(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    int col = (int)(blockIdx.x * BLOCK + threadIdx.x), row = (int)(blockIdx.y * BLOCK + threadIdx.y);
    int w = (int)width, h = (int)height;
    if (row >= h || col >= w)
        return;
    float sum = 0.0f;
    for (int i = 0; i <= 2 * r; i++)
        for (int j = 0; j <= 2 * r; j++) {
            int y = row - r + i, x = col - r + j;
            if (y >= 0 && y < h && x >= 0 && x < w)  // ghost cells: skipped (0)
                sum += F[i][j] * in[IMAGE_INDEX(y, x, width)];
        }
    out[IMAGE_INDEX(row, col, width)] = sum;
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    dim3 block(BLOCK, BLOCK, 1);
    dim3 grid((width + BLOCK - 1) / BLOCK, (height + BLOCK - 1) / BLOCK, 1);
    conv_kernel<<<grid, block>>>(d_in, d_out, width, height, r);
}
