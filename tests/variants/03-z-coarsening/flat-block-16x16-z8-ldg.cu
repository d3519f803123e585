// VARIANT: a flat 1D block of 256 threads standing for a 16x16 tile
// (thread t owns the column (t / 16, t % 16) of the input patch), each
// block marching a z chunk of Z_CHUNK = 8 planes, not OUT_TILE_DIM (a
// different split of z than the tile's), the loads through __ldg on
// const __restrict__ pointers, unsigned tile arithmetic turned into signed
// positions once. Correct: the Fig 8.10 step (load next, barrier, compute,
// barrier, rotate by copying); patches start every 14 columns and rows and
// chunks every 8 planes from plane 1, rounded up; the loop bound is the
// block's. It uses the lab's technique: a block of a plane's threads
// marching in z with three 16x16 planes (3 KB) in shared memory.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this
#define Z_CHUNK 8                          // output planes a block marches

__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int N)
{
    __shared__ float prev_s[IN_TILE_DIM * IN_TILE_DIM];
    __shared__ float curr_s[IN_TILE_DIM * IN_TILE_DIM];
    __shared__ float next_s[IN_TILE_DIM * IN_TILE_DIM];
    const unsigned int t = threadIdx.x;
    const int y = (int)(t / IN_TILE_DIM), x = (int)(t % IN_TILE_DIM), n = (int)N;
    const int j = (int)(blockIdx.y * OUT_TILE_DIM) + y - 1;
    const int k = (int)(blockIdx.x * OUT_TILE_DIM) + x - 1;
    const int first = 1 + (int)(blockIdx.z * Z_CHUNK);  // the chunk's first output plane
    const int last = min(first + Z_CHUNK - 1, n - 2);   // and its last: the same for the whole block
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2 &&
                          k >= 1 && k <= n - 2;

    prev_s[t] = loads && first - 1 < n ? __ldg(&in[LAB_INDEX(first - 1, j, k, N)]) : 0.0f;
    curr_s[t] = loads && first < n ? __ldg(&in[LAB_INDEX(first, j, k, N)]) : 0.0f;
    for (int i = first; i <= last; i++) {
        next_s[t] = loads ? __ldg(&in[LAB_INDEX(i + 1, j, k, N)]) : 0.0f;
        __syncthreads();  // three planes complete
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = c0 * curr_s[t]
                                       + c1 * curr_s[t - 1] + c2 * curr_s[t + 1]
                                       + c3 * curr_s[t - IN_TILE_DIM] + c4 * curr_s[t + IN_TILE_DIM]
                                       + c5 * prev_s[t] + c6 * next_s[t];
        __syncthreads();  // every read done before the rotation
        prev_s[t] = curr_s[t];
        curr_s[t] = next_s[t];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    unsigned int chunks = N > 2 ? (N - 2 + Z_CHUNK - 1) / Z_CHUNK : 1;
    dim3 grid(tiles, tiles, chunks);
    stencil_kernel<<<grid, IN_TILE_DIM * IN_TILE_DIM>>>(d_in, d_out, N);
}
