// VARIANT: T = IN_TILE_DIM = 16 (256-thread blocks marching 14 planes), the
// three planes kept as one __shared__ float[3][T][T] array and rotated by
// swapping three pointers instead of copying cells (the usual optimisation:
// no shared-memory copy per step). Correct: each step loads plane i+1 into
// the buffer that held plane i-2 (no longer needed), a barrier, the compute,
// a barrier (so nobody still reads the buffer that the next step refills),
// then the pointers rotate, identically in every thread; the loop bound is
// the block's, so all threads reach every barrier. It uses the lab's
// technique: a T x T block marching in z with three T^2 planes (3 KB) in
// shared memory.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

typedef float plane_t[IN_TILE_DIM][IN_TILE_DIM];

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float planes_s[3][IN_TILE_DIM][IN_TILE_DIM];
    const int n = (int)N;
    const int x = (int)threadIdx.x, y = (int)threadIdx.y;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int iEnd = min(iStart + OUT_TILE_DIM, n - 1);  // one past the block's last output plane
    const bool col = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM &&
                          j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;

    plane_t *prev = &planes_s[0], *curr = &planes_s[1], *next = &planes_s[2];
    (*prev)[y][x] = (col && iStart >= 1 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    (*curr)[y][x] = (col && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;

    for (int i = iStart; i < iEnd; i++) {
        (*next)[y][x] = (col && i + 1 < n) ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * (*curr)[y][x]
                                       + c1 * (*curr)[y][x - 1] + c2 * (*curr)[y][x + 1]
                                       + c3 * (*curr)[y - 1][x] + c4 * (*curr)[y + 1][x]
                                       + c5 * (*prev)[y][x] + c6 * (*next)[y][x];
        __syncthreads();
        plane_t *t = prev;
        prev = curr;
        curr = next;
        next = t;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM)>>>(d_in, d_out, N);
}
