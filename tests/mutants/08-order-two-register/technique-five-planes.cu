// MUTANT: lab 3's technique for the thirteen-point star: the five planes a point reads
// (i-2 .. i+2) all kept in shared memory, a ring of five 32x32 planes (20 KB a block)
// expect-hint: technique
//
// Correct values on every case; the technique line fails: register tiling keeps one
// plane in shared memory (fewer than three), the z neighbours in registers.
#include "star13.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 4)     // and this
#define R 2                                // the star's radius
#define PLANES (2 * R + 1)                 // the planes a point reads

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - R;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - R;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;

    __shared__ float ring[PLANES][IN_TILE_DIM][IN_TILE_DIM];  // plane p in slot (p - iStart + R) % PLANES

    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= R && j < n - R && k >= R && k < n - R &&
                    y >= R && y < IN_TILE_DIM - R && x >= R && x < IN_TILE_DIM - R;

    for (int p = iStart - R; p < iStart + R; p++)  // planes iStart-2 .. iStart+1 into slots 0..3
        ring[p - iStart + R][y][x] = loads && p >= 0 && p < n ? in[LAB_INDEX(p, j, k, N)] : 0.0f;

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - R; i++) {
        int s = i - iStart + R;  // the slot of plane i, before the modulo
        ring[(s + 2) % PLANES][y][x] = loads && i + 2 < n ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        __syncthreads();  // the five planes are in place

        if (computes && i >= R) {
            const float(*c)[IN_TILE_DIM] = ring[s % PLANES];
            out[LAB_INDEX(i, j, k, N)] = c0 * c[y][x]
                                       + c1 * c[y][x - 1] + c2 * c[y][x + 1]
                                       + c3 * c[y - 1][x] + c4 * c[y + 1][x]
                                       + c5 * ring[(s + 4) % PLANES][y][x] + c6 * ring[(s + 1) % PLANES][y][x]
                                       + c7 * c[y][x - 2] + c8 * c[y][x + 2]
                                       + c9 * c[y - 2][x] + c10 * c[y + 2][x]
                                       + c11 * ring[(s + 3) % PLANES][y][x] + c12 * ring[(s + 2) % PLANES][y][x];
        }
        __syncthreads();  // plane i-2's slot is free for plane i+3
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
