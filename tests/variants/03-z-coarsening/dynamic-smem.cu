// VARIANT: the three planes in DYNAMIC shared memory: one `extern __shared__
// float smem[]` of 3*T*T floats (12 KB at T = 32), its size passed as the
// third launch parameter, carved into prev/curr/next by pointer arithmetic
// and indexed by hand (row pitch T). Correct: the Fig 8.10 algorithm
// (load two planes, then per step: load next, barrier, compute, barrier,
// rotate by copying); the z loop's bound is the block's. It uses the lab's
// technique: a T x T block marching in z with three T^2 planes in shared
// memory; the launch record carries them as dynamic shared memory.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    extern __shared__ float smem[];
    float *prev = smem, *curr = smem + IN_TILE_DIM * IN_TILE_DIM, *next = smem + 2 * IN_TILE_DIM * IN_TILE_DIM;
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y, s = y * IN_TILE_DIM + x;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1, k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = loads && x > 0 && x < IN_TILE_DIM - 1 && y > 0 && y < IN_TILE_DIM - 1 && j > 0 && j < n - 1 && k > 0 && k < n - 1;

    prev[s] = (loads && iStart > 0 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    curr[s] = (loads && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    int iEnd = min(iStart + OUT_TILE_DIM, n - 1);
    for (int i = iStart; i < iEnd; i++) {
        next[s] = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i > 0)
            out[LAB_INDEX(i, j, k, N)] = c0 * curr[s] + c1 * curr[s - 1] + c2 * curr[s + 1]
                                       + c3 * curr[s - IN_TILE_DIM] + c4 * curr[s + IN_TILE_DIM]
                                       + c5 * prev[s] + c6 * next[s];
        __syncthreads();
        prev[s] = curr[s];
        curr[s] = next[s];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    size_t bytes = 3 * IN_TILE_DIM * IN_TILE_DIM * sizeof(float);
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM), bytes>>>(d_in, d_out, N);
}
