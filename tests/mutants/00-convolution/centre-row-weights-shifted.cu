// MUTANT: the centre row's weights read one column to the right, F[r][j+1] for F[r][j] (the last reads F[r][2r+1], past the filter: 0, or at r = 4 the next row's first weight)
// expect-hint: tap-weight
// (lab 0 solution with this one mistake, as in a kernel that writes the
// centre row's terms apart from the others.) The pixels are right, the
// weights of one row shifted by one: the verdict fits the weights from the
// output and names the row and the index used.
#include "conv.h"

#define IN_TILE_DIM 32   // the grader reads this (OP/B model: OUT = IN_TILE_DIM - 2r)

__global__ void conv_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int width,
                            unsigned int height, int r)
{
    const int out_tile = IN_TILE_DIM - 2 * r;
    const int w = (int)width, h = (int)height;
    // The pixel this thread loads: the input tile starts r pixels before the output tile.
    int col = (int)blockIdx.x * out_tile + (int)threadIdx.x - r;
    int row = (int)blockIdx.y * out_tile + (int)threadIdx.y - r;

    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM];
    bool inside = row >= 0 && row < h && col >= 0 && col < w;
    in_s[threadIdx.y][threadIdx.x] = inside ? in[IMAGE_INDEX(row, col, width)] : 0.0f;  // ghost cells: 0
    __syncthreads();

    // The inner threads compute: thread (tx, ty) owns output pixel (ty - r, tx - r) of the tile.
    int tile_col = (int)threadIdx.x - r, tile_row = (int)threadIdx.y - r;
    if (!inside || tile_col < 0 || tile_col >= out_tile || tile_row < 0 || tile_row >= out_tile)
        return;
    float sum = 0.0f;
    for (int i = 0; i <= 2 * r; i++)
        for (int j = 0; j <= 2 * r; j++)
            sum += (i == r ? F[i][j + 1] : F[i][j]) * in_s[tile_row + i][tile_col + j];  // MUTANT: the centre row's weights one column off
    out[IMAGE_INDEX(row, col, width)] = sum;
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    const unsigned int out_tile = IN_TILE_DIM - 2 * r;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid((width + out_tile - 1) / out_tile, (height + out_tile - 1) / out_tile, 1);
    conv_kernel<<<grid, block>>>(d_in, d_out, width, height, r);
}
