// VARIANT: T = IN_TILE_DIM = 32 (1024-thread blocks marching 30 planes),
// written with a pointer that walks down the thread's column (p += N*N per
// step), loads through __ldg (the read-only cache path), a loop over the
// relative plane number s = 0 .. OUT_TILE_DIM-1 with the block-wide bound
// hoisted out, and the register ring rotated before the shared store as in
// Fig 8.12. Correct: plane iStart + s is in the shared plane before step
// s's first barrier and is replaced only after its second; the step count
// is the same for every thread of the block. It uses the lab's technique:
// z neighbours in registers, one 32x32 plane (4 KB) in shared memory, a
// T x T block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    int n = (int)N;
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int j = (int)blockIdx.y * OUT_TILE_DIM + ty - 1;
    int k = (int)blockIdx.x * OUT_TILE_DIM + tx - 1;
    int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    int steps = n - 1 - iStart;  // planes iStart .. n-2 are left for this block
    if (steps > OUT_TILE_DIM)
        steps = OUT_TILE_DIM;
    bool col = j >= 0 && j < n && k >= 0 && k < n;
    bool inner = tx >= 1 && tx <= IN_TILE_DIM - 2 && ty >= 1 && ty <= IN_TILE_DIM - 2 &&
                 j >= 1 && j <= n - 2 && k >= 1 && k <= n - 2;
    size_t plane = (size_t)N * N;
    const float *p = in + (col ? LAB_INDEX(iStart, j, k, N) : 0);  // this column at plane iStart

    float inPrev = (col && iStart >= 1 && iStart <= n) ? __ldg(p - plane) : 0.0f;
    float inCurr = (col && iStart < n) ? __ldg(p) : 0.0f;
    inCurr_s[ty][tx] = inCurr;
    for (int s = 0; s < steps; s++) {
        int i = iStart + s;
        float inNext = col ? __ldg(p + plane) : 0.0f;  // plane i + 1 <= n - 1
        __syncthreads();
        if (inner && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr
                                       + c1 * inCurr_s[ty][tx - 1] + c2 * inCurr_s[ty][tx + 1]
                                       + c3 * inCurr_s[ty - 1][tx] + c4 * inCurr_s[ty + 1][tx]
                                       + c5 * inPrev + c6 * inNext;
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[ty][tx] = inCurr;
        if (col)
            p += plane;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
