// MUTANT: the output index kept in an unsigned short (images taken to hold at most 65,535 pixels): on a larger image it wraps, and two blocks write the same pixels
// expect-hint: thread-order
// expect-hint: unwritten-cells
// parity: hints thread-order unwritten-cells — the wrapped index leaves the pixels past 65,535 unwritten (a GPU names those: unwritten-cells) and writes their values over the first ones, where emulation's two thread orders disagree on which write lands last (thread-order)
// judge-args: --case 300x300,r=2
// (lab 0 solution with this one mistake; the kit's tests check it fails as expected)
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
            sum += F[i][j] * in_s[tile_row + i][tile_col + j];
    unsigned short o = (unsigned short)(row * w + col);  // "small images only"
    out[o] = sum;
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    const unsigned int out_tile = IN_TILE_DIM - 2 * r;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid((width + out_tile - 1) / out_tile, (height + out_tile - 1) / out_tile, 1);
    conv_kernel<<<grid, block>>>(d_in, d_out, width, height, r);
}
