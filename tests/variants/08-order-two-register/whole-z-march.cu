// VARIANT: one block per x-y patch marching through every plane (grid.z = 1):
// the register window and the shared plane of the solution, with the z loop
// from plane 2 to N-3 in a single block column and the window's first planes
// loaded once. Correct: the march covers every interior plane once; fewer
// halo planes are loaded than with OUT_TILE_DIM-deep columns (2r a patch
// instead of 2r a tile), at the price of less parallelism on small grids.
// Expected: every case passes and the technique line too.
#include "star13.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 4)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 2;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - 2;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;
    __shared__ float cur_s[IN_TILE_DIM][IN_TILE_DIM];
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= 2 && j + 2 < n && k >= 2 && k + 2 < n && y >= 2 && y < IN_TILE_DIM - 2 && x >= 2 && x < IN_TILE_DIM - 2;
    if (n < 5)
        return;  // no interior point: every thread of the block leaves, before any barrier
    float a = loads ? in[LAB_INDEX(0, j, k, N)] : 0.0f;  // planes i-2, i-1, i, i+1 for i = 2
    float b = loads ? in[LAB_INDEX(1, j, k, N)] : 0.0f;
    float c = loads ? in[LAB_INDEX(2, j, k, N)] : 0.0f;
    float d = loads ? in[LAB_INDEX(3, j, k, N)] : 0.0f;
    cur_s[y][x] = c;
    for (int i = 2; i + 2 < n; i++) {
        float e = loads ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = c11 * a + c5 * b + c0 * c + c6 * d + c12 * e
                                       + c1 * cur_s[y][x - 1] + c2 * cur_s[y][x + 1] + c7 * cur_s[y][x - 2] + c8 * cur_s[y][x + 2]
                                       + c3 * cur_s[y - 1][x] + c4 * cur_s[y + 1][x] + c9 * cur_s[y - 2][x] + c10 * cur_s[y + 2][x];
        __syncthreads();
        a = b, b = c, c = d, d = e;
        cur_s[y][x] = c;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, 1), dim3(IN_TILE_DIM, IN_TILE_DIM, 1)>>>(d_in, d_out, N);
}
