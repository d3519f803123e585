// VARIANT: block = INPUT tile (Fig 8.8's organisation) with a rectangular
// tile: 16 (x) by 8 (y) by 8 (z) = 1024 threads, so the output tile is
// 14x6x6. Wider in x for half-warp-long rows, still within 1024 threads.
// IN_TILE_DIM is the tile's x size, 16 (the grader's OP/B model reads it as
// a cube). Correct: output tiles start at multiples of the output tile size
// per axis (14, 6, 6), the grid rounds up per axis, every thread loads its
// own input cell (ghost cells 0), one barrier, then the threads inside the
// output tile compute interior points. It uses the lab's technique: the
// whole 3D input tile with its halo in shared memory, block = input tile.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the input tile's x size (the grader reads this)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // the output tile's x size: 14
#define IN_Y 8                             // the input tile's y and z sizes
#define IN_Z 8

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[IN_Z][IN_Y][IN_TILE_DIM];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y, z = (int)threadIdx.z;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int j = (int)blockIdx.y * (IN_Y - 2) + y - 1;
    int i = (int)blockIdx.z * (IN_Z - 2) + z - 1;

    in_s[z][y][x] = (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n) ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    __syncthreads();

    if (x >= 1 && x < IN_TILE_DIM - 1 && y >= 1 && y < IN_Y - 1 && z >= 1 && z < IN_Z - 1 &&
        i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(IN_TILE_DIM, IN_Y, IN_Z);
    dim3 grid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + IN_Y - 3) / (IN_Y - 2), (N + IN_Z - 3) / (IN_Z - 2));
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
