// VARIANT (correct): the input-tile block of Fig 7.12 in another shape: 64x16
// threads (wide rows for coalesced loads), the tile in dynamic shared memory
// sized at launch, the taps summed column by column, each weight read from F
// into a register before its multiply.
#include "conv.h"

#define BLOCK_X 64
#define BLOCK_Y 16   // 16 - 2r: 8 output rows at r = 4

__global__ void conv_kernel(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    extern __shared__ float tile[];  // BLOCK_Y x BLOCK_X, row by row
    const int out_x = BLOCK_X - 2 * r, out_y = BLOCK_Y - 2 * r, w = (int)width, h = (int)height;
    int col = (int)blockIdx.x * out_x + (int)threadIdx.x - r;
    int row = (int)blockIdx.y * out_y + (int)threadIdx.y - r;
    bool inside = row >= 0 && row < h && col >= 0 && col < w;
    tile[threadIdx.y * BLOCK_X + threadIdx.x] = inside ? in[IMAGE_INDEX(row, col, width)] : 0.0f;
    __syncthreads();
    int tx = (int)threadIdx.x - r, ty = (int)threadIdx.y - r;
    if (!inside || tx < 0 || tx >= out_x || ty < 0 || ty >= out_y)
        return;
    float sum = 0.0f;
    for (int j = 0; j <= 2 * r; j++)
        for (int i = 0; i <= 2 * r; i++) {
            float f = F[i][j];
            sum += f * tile[(ty + i) * BLOCK_X + tx + j];
        }
    out[IMAGE_INDEX(row, col, width)] = sum;
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    unsigned int out_x = BLOCK_X - 2 * r, out_y = BLOCK_Y - 2 * r;
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((width + out_x - 1) / out_x, (height + out_y - 1) / out_y, 1);
    conv_kernel<<<grid, block, BLOCK_X * BLOCK_Y * sizeof(float)>>>(d_in, d_out, width, height, r);
}
