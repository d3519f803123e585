// VARIANT: block = input tile, but launched as a 1D block of IN_TILE_DIM^3 =
// 512 threads whose flat thread index is decomposed into tile coordinates
// (x, y, z) = (t % T, (t / T) % T, t / T^2), with a 3D grid of tiles. Common
// among students who think of threads as a flat list (and the natural shape
// when the block is computed as T*T*T). Correct: the 512 threads map one to
// one onto the 8^3 tile cells exactly as threadIdx.{x,y,z} would; the rest
// is Fig 8.8 (guarded loads, ghost cells 0, one barrier, inner threads
// compute interior points). It uses the lab's technique: the whole input
// tile (2048 B) in shared memory and one thread per input tile cell; only
// the block's SHAPE is 512x1x1 instead of 8x8x8.
// Expected: every case passes; the technique line should pass too.
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int t = (int)threadIdx.x;
    int x = t % IN_TILE_DIM, y = (t / IN_TILE_DIM) % IN_TILE_DIM, z = t / (IN_TILE_DIM * IN_TILE_DIM);
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
    int i = (int)blockIdx.z * OUT_TILE_DIM + z - 1;

    in_s[z][y][x] = (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n) ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    __syncthreads();

    if (x >= 1 && x < IN_TILE_DIM - 1 && y >= 1 && y < IN_TILE_DIM - 1 && z >= 1 && z < IN_TILE_DIM - 1 &&
        i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM>>>(d_in, d_out, N);
}
