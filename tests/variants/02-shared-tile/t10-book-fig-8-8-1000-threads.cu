// VARIANT: the book's Fig 8.8 organisation (block = input tile, one thread
// per tile cell, edge threads idle while computing) pushed to the largest
// cube that fits a block: IN_TILE_DIM = 10, 10^3 = 1000 threads, a 4000 B
// tile and 8^3 = 512 output points a block (OP/B 13*8^3/(4*10^3) = 1.66,
// against 1.37 at T = 8). A student doing the handout's exercise on OP/B
// against T finds that T = 10 still fits under 1024 threads. Correct: output
// tiles start at multiples of OUT_TILE_DIM = 8 per axis, the grid rounds the
// tile count up, every tile cell in the grid is loaded once (ghost cells 0),
// one barrier, and the inner threads compute interior points from shared
// memory only. It is the lab's technique (the whole input tile with its
// halo in shared memory, block = input tile).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 10
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[IN_TILE_DIM][IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int i = (int)blockIdx.z * OUT_TILE_DIM + tz - 1;
    int j = (int)blockIdx.y * OUT_TILE_DIM + ty - 1;
    int k = (int)blockIdx.x * OUT_TILE_DIM + tx - 1;
    float v = 0.0f;
    if (i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n)
        v = in[LAB_INDEX(i, j, k, N)];
    in_s[tz][ty][tx] = v;
    __syncthreads();
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1) {
        if (tz >= 1 && tz < IN_TILE_DIM - 1 && ty >= 1 && ty < IN_TILE_DIM - 1 && tx >= 1 && tx < IN_TILE_DIM - 1) {
            out[LAB_INDEX(i, j, k, N)] = c0 * in_s[tz][ty][tx]
                                       + c1 * in_s[tz][ty][tx - 1] + c2 * in_s[tz][ty][tx + 1]
                                       + c3 * in_s[tz][ty - 1][tx] + c4 * in_s[tz][ty + 1][tx]
                                       + c5 * in_s[tz - 1][ty][tx] + c6 * in_s[tz + 1][ty][tx];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
