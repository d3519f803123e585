// VARIANT: T = IN_TILE_DIM = 16 (256-thread blocks marching 14 planes), the
// register ring written the other common way: the loop body starts by
// storing the current register into the shared plane, then loads the next
// plane's value from global memory into a register, one barrier, compute,
// a second barrier, rotate the registers. The shared plane is declared with
// one float of padding per row ([T][T+1]), a habit from transpose kernels.
// Correct: plane i is in the shared plane before the first barrier of step
// i; nobody overwrites it before the second; the loop bound is the block's.
// It uses the lab's technique: z neighbours in registers, one shared plane
// (16x17 floats = 1088 B), a T x T block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float plane_s[IN_TILE_DIM][IN_TILE_DIM + 1];
    const int n = (int)N;
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + ty - 1;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + tx - 1;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int iStop = min(iStart + OUT_TILE_DIM, n - 1);
    const bool col = j >= 0 && j < n && k >= 0 && k < n;
    const bool inner = tx > 0 && tx < IN_TILE_DIM - 1 && ty > 0 && ty < IN_TILE_DIM - 1 &&
                       j > 0 && j < n - 1 && k > 0 && k < n - 1;

    float below = (col && iStart > 0 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float centre = (col && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    for (int i = iStart; i < iStop; i++) {
        plane_s[ty][tx] = centre;
        float above = col ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;  // i + 1 <= n - 1
        __syncthreads();
        if (inner && i > 0)
            out[LAB_INDEX(i, j, k, N)] = c0 * centre
                                       + c1 * plane_s[ty][tx - 1] + c2 * plane_s[ty][tx + 1]
                                       + c3 * plane_s[ty - 1][tx] + c4 * plane_s[ty + 1][tx]
                                       + c5 * below + c6 * above;
        __syncthreads();
        below = centre;
        centre = above;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM)>>>(d_in, d_out, N);
}
