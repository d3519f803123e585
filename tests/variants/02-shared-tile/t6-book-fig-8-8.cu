// VARIANT: the book's Fig 8.8 kernel almost verbatim, with T = IN_TILE_DIM
// = 6 (216-thread blocks, 4^3 output points each): int indices built from
// unsigned blockIdx arithmetic, the loads guarded by `i >= 0 && i < N`
// against the unsigned N, ghost cells of the tile left unwritten (never
// read for an interior point), and the nested if of the book. Correct: a
// negative i converts to a huge unsigned in `i < N` and fails the guard as
// the book intends; every neighbour read by an output thread lies inside
// the tile and inside the grid, so no unwritten cell is ever read. It is
// the lab's technique (input tile in shared memory, block = input tile).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 6                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int i = blockIdx.z * OUT_TILE_DIM + threadIdx.z - 1;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    if (i >= 0 && i < N && j >= 0 && j < N && k >= 0 && k < N) {
        in_s[threadIdx.z][threadIdx.y][threadIdx.x] = in[i * N * N + j * N + k];
    }
    __syncthreads();
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        if (threadIdx.z >= 1 && threadIdx.z < IN_TILE_DIM - 1 && threadIdx.y >= 1
            && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
            out[i * N * N + j * N + k] = c0 * in_s[threadIdx.z][threadIdx.y][threadIdx.x]
                                       + c1 * in_s[threadIdx.z][threadIdx.y][threadIdx.x - 1]
                                       + c2 * in_s[threadIdx.z][threadIdx.y][threadIdx.x + 1]
                                       + c3 * in_s[threadIdx.z][threadIdx.y - 1][threadIdx.x]
                                       + c4 * in_s[threadIdx.z][threadIdx.y + 1][threadIdx.x]
                                       + c5 * in_s[threadIdx.z - 1][threadIdx.y][threadIdx.x]
                                       + c6 * in_s[threadIdx.z + 1][threadIdx.y][threadIdx.x];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 dimBlock(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 dimGrid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
                 (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    stencil_kernel<<<dimGrid, dimBlock>>>(d_in, d_out, N);
}
