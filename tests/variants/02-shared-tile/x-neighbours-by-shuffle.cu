// VARIANT: the input-tile block of 8x8x8 (16 full warps, each 4 rows of one
// z plane) whose x neighbours come by warp shuffles after the barrier
// (__shfl_up_sync / __shfl_down_sync, every lane taking part, outside the
// compute test; lane +-1 is the same row for x = 1..6, and the halo lanes
// x = 0 and 7 compute nothing); the centre, y and z neighbours from the
// shared tile: 5 floats a point read from shared memory, above the floor of 3.
#include "lab.h"

#define IN_TILE_DIM 8
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int z = (int)threadIdx.z, y = (int)threadIdx.y, x = (int)threadIdx.x;
    int i = (int)(blockIdx.z * OUT_TILE_DIM) + z - 1;
    int j = (int)(blockIdx.y * OUT_TILE_DIM) + y - 1;
    int k = (int)(blockIdx.x * OUT_TILE_DIM) + x - 1;

    __shared__ float tile[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];

    float v = 0.0f;
    if (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n)
        v = in[LAB_INDEX(i, j, k, N)];
    tile[z][y][x] = v;
    __syncthreads();

    float centre = tile[z][y][x];
    float west = __shfl_up_sync(0xffffffffu, centre, 1);    // x - 1
    float east = __shfl_down_sync(0xffffffffu, centre, 1);  // x + 1

    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1 &&
        z >= 1 && z < IN_TILE_DIM - 1 && y >= 1 && y < IN_TILE_DIM - 1 && x >= 1 && x < IN_TILE_DIM - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * centre + c1 * west + c2 * east
                                   + c3 * tile[z][y - 1][x] + c4 * tile[z][y + 1][x]
                                   + c5 * tile[z - 1][y][x] + c6 * tile[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
