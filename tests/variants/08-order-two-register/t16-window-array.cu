// VARIANT: a 16×16 tile (output patch 12×12, the halo two deep) with the
// column's five z values in an array w[0..4] (planes i-2 .. i+2), shifted by
// an unrolled loop, so the compiler keeps it in registers. Correct: the same
// march as the solution with another tile size and a window written as an
// array; it is register tiling (one 1 KB plane shared, blocks marching 12
// planes). Its book OP/B is 25 * 12³ / (4 * 16³) = 2.64: a small tile loses
// much to the halo two deep (58% of the input tile).
// Expected: every case passes and the technique line too.
#include "star13.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 4)     // and this
#define R 2

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - R;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - R;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;
    __shared__ float plane_s[IN_TILE_DIM][IN_TILE_DIM];
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= R && j + R < n && k >= R && k + R < n && y >= R && y + R < IN_TILE_DIM && x >= R && x + R < IN_TILE_DIM;

    float w[2 * R + 1];  // w[R + d]: this column at plane i + d
#pragma unroll
    for (int d = -R; d < R; d++) {
        int p = iStart + d;
        w[R + d] = loads && p >= 0 && p < n ? in[LAB_INDEX(p, j, k, N)] : 0.0f;
    }
    w[2 * R] = 0.0f;
    plane_s[y][x] = w[R];

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i + R < n; i++) {
        w[2 * R] = loads && i + R < n ? in[LAB_INDEX(i + R, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i >= R) {
            float sum = c0 * w[R];
            sum += c1 * plane_s[y][x - 1] + c2 * plane_s[y][x + 1] + c3 * plane_s[y - 1][x] + c4 * plane_s[y + 1][x];
            sum += c7 * plane_s[y][x - 2] + c8 * plane_s[y][x + 2] + c9 * plane_s[y - 2][x] + c10 * plane_s[y + 2][x];
            sum += c5 * w[R - 1] + c6 * w[R + 1] + c11 * w[R - 2] + c12 * w[R + 2];
            out[LAB_INDEX(i, j, k, N)] = sum;
        }
        __syncthreads();
#pragma unroll
        for (int d = 0; d < 2 * R; d++)
            w[d] = w[d + 1];
        plane_s[y][x] = w[R];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM, 1)>>>(d_in, d_out, N);
}
