// VARIANT (correct): a 16x16 block, one thread per output pixel, that loads the input
// tile the way the edge-thread kernels do: every thread loads its own pixel,
// the r threads nearest each edge of the block also load the halo pixels
// beyond that edge, and the r x r threads at each corner the corner's halo,
// each load a separate guarded statement (no loop over the tile); the shared
// array is sized for the largest radius. Correct: the centre, the four edge
// strips and the four corners cover the (16 + 2r)^2 tile exactly once for
// every r <= 16 (here 1..4), ghost cells 0; the barrier separates load and
// use; only pixels in the image are written. It uses the lab's technique:
// one launch, the input tile in shared memory, the filter from constant
// memory.
// Expected: every case passes and the technique line too.
#include "conv.h"

#define OUT_TILE_DIM 16                              // the grader reads this (the block is the output tile)
#define TILE_MAX (OUT_TILE_DIM + 2 * CONV_MAX_RADIUS) // the input tile at the largest radius

// in[row][col], or 0 for a ghost cell.
__device__ __forceinline__ float pixel_or_ghost(const float *in, int row, int col, int w, int h)
{
    return row >= 0 && row < h && col >= 0 && col < w ? in[IMAGE_INDEX(row, col, w)] : 0.0f;
}

__global__ void conv_kernel(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    __shared__ float tile[TILE_MAX][TILE_MAX];
    const int w = (int)width, h = (int)height, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const int row = (int)blockIdx.y * OUT_TILE_DIM + ty, col = (int)blockIdx.x * OUT_TILE_DIM + tx;
    const bool left = tx < r, right = tx >= OUT_TILE_DIM - r, top = ty < r, bottom = ty >= OUT_TILE_DIM - r;

    tile[ty + r][tx + r] = pixel_or_ghost(in, row, col, w, h);
    if (left)
        tile[ty + r][tx] = pixel_or_ghost(in, row, col - r, w, h);
    if (right)
        tile[ty + r][tx + 2 * r] = pixel_or_ghost(in, row, col + r, w, h);
    if (top)
        tile[ty][tx + r] = pixel_or_ghost(in, row - r, col, w, h);
    if (bottom)
        tile[ty + 2 * r][tx + r] = pixel_or_ghost(in, row + r, col, w, h);
    if (top && left)
        tile[ty][tx] = pixel_or_ghost(in, row - r, col - r, w, h);
    if (top && right)
        tile[ty][tx + 2 * r] = pixel_or_ghost(in, row - r, col + r, w, h);
    if (bottom && left)
        tile[ty + 2 * r][tx] = pixel_or_ghost(in, row + r, col - r, w, h);
    if (bottom && right)
        tile[ty + 2 * r][tx + 2 * r] = pixel_or_ghost(in, row + r, col + r, w, h);
    __syncthreads();

    if (row < h && col < w) {
        float sum = 0.0f;
        for (int i = 0; i <= 2 * r; i++)
            for (int j = 0; j <= 2 * r; j++)
                sum += F[i][j] * tile[ty + i][tx + j];
        out[IMAGE_INDEX(row, col, width)] = sum;
    }
}

void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM);
    dim3 grid((width + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (height + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    conv_kernel<<<grid, block>>>(d_in, d_out, width, height, r);
}
