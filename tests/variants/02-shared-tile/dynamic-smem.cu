// VARIANT: the input tile in DYNAMIC shared memory: `extern __shared__
// float tile[]`, its size (IN_TILE_DIM^3 floats = 2048 B at T = 8) passed as
// the third launch parameter, indexed by hand. Students who want the tile
// size to be a run-time choice write this. Block = input tile (Fig 8.8).
// Correct: the same mapping as the book's; every shared cell is written
// (ghost cells 0) before the barrier; the dynamic size covers the whole
// tile. It uses the lab's technique: the launch record carries the 2048 B
// as dynamic shared memory, which the technique check must count.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    extern __shared__ float tile[];
    const int T = (int)blockDim.x;  // the launch's tile edge (IN_TILE_DIM)
    const int O = T - 2;
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y, z = (int)threadIdx.z;
    int k = (int)blockIdx.x * O + x - 1, j = (int)blockIdx.y * O + y - 1, i = (int)blockIdx.z * O + z - 1;
    int s = (z * T + y) * T + x;

    bool in_grid = i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n;
    tile[s] = in_grid ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    __syncthreads();

    if (x >= 1 && x <= O && y >= 1 && y <= O && z >= 1 && z <= O &&
        i >= 1 && i <= n - 2 && j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2) {
        out[LAB_INDEX(i, j, k, N)] = c0 * tile[s]
                                   + c1 * tile[s - 1] + c2 * tile[s + 1]
                                   + c3 * tile[s - T] + c4 * tile[s + T]
                                   + c5 * tile[s - T * T] + c6 * tile[s + T * T];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    size_t smem = (size_t)IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM * sizeof(float);
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM), smem>>>(d_in, d_out, N);
}
