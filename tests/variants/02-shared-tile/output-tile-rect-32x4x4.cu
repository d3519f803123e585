// VARIANT: block = OUTPUT tile, rectangular: 32x4x4 = 512 threads, one per
// output point of a 32 (x) by 4 (y) by 4 (z) output tile, whose input tile
// 34x6x6 = 1224 floats (4896 B) the threads load in a strided loop (each
// loads every 512th cell, halo included). The wide x side keeps a warp on
// one row (coalesced loads and stores) and the halo share is smaller than
// the 8^3 cube's for the same 512 threads. IN_TILE_DIM is the tile's x
// size, 34 (the grader's OP/B model reads it as a cube: not this tile's
// true OP/B). Correct: output tiles start at multiples of the output tile
// size per axis, the grid rounds up per axis, the loop covers every input
// tile cell (ghost cells 0), one barrier, then each thread computes its own
// point if it is interior. It uses the lab's technique: a 3D input tile with
// its halo in shared memory; the block is the output tile (the second
// organisation the skeleton accepts), only not a cube.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 34                     // the input tile's x size (the grader reads this)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // the output tile's x size: 32
#define OUT_Y 4                            // output tile, y and z
#define OUT_Z 4
#define IN_X IN_TILE_DIM
#define IN_Y (OUT_Y + 2)
#define IN_Z (OUT_Z + 2)
#define THREADS (OUT_TILE_DIM * OUT_Y * OUT_Z)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[IN_Z][IN_Y][IN_X];
    int n = (int)N;
    int k0 = (int)blockIdx.x * OUT_TILE_DIM - 1;  // the input tile's first column, row, plane
    int j0 = (int)blockIdx.y * OUT_Y - 1;
    int i0 = (int)blockIdx.z * OUT_Z - 1;
    int tid = ((int)threadIdx.z * OUT_Y + (int)threadIdx.y) * OUT_TILE_DIM + (int)threadIdx.x;

    for (int c = tid; c < IN_X * IN_Y * IN_Z; c += THREADS) {
        int x = c % IN_X, y = (c / IN_X) % IN_Y, z = c / (IN_X * IN_Y);
        int i = i0 + z, j = j0 + y, k = k0 + x;
        in_s[z][y][x] = (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n) ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    }
    __syncthreads();

    int x = (int)threadIdx.x + 1, y = (int)threadIdx.y + 1, z = (int)threadIdx.z + 1;
    int i = i0 + z, j = j0 + y, k = k0 + x;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(OUT_TILE_DIM, OUT_Y, OUT_Z);
    dim3 grid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_Y - 1) / OUT_Y, (N + OUT_Z - 1) / OUT_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
