// VARIANT: the shared plane declared at FILE scope (`__shared__ float
// plane_s[T][T];` outside any function, which CUDA allows: one instance per
// block, like a __shared__ declared in the kernel), so that a __device__
// helper can read the in-plane neighbours from it by name. Otherwise Fig
// 8.12: a 32x32 block marching OUT_TILE_DIM planes, the z neighbours in
// registers. Correct: as the book's (loads guarded by the grid, ghost cells
// 0, the loop bound the block's, two barriers a step). It uses the lab's
// technique: register tiling, one T^2 plane (4 KB) in shared memory, a T x T
// block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__shared__ float plane_s[IN_TILE_DIM][IN_TILE_DIM];  // the block's current plane

// The four in-plane neighbours' terms of tile position (y, x), from the shared plane.
__device__ __forceinline__ float in_plane_terms(int y, int x)
{
    return c1 * plane_s[y][x - 1] + c2 * plane_s[y][x + 1] + c3 * plane_s[y - 1][x] + c4 * plane_s[y + 1][x];
}

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int n = (int)N, y = (int)threadIdx.y, x = (int)threadIdx.x;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1, k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2 &&
                          k >= 1 && k <= n - 2;
    float inPrev = loads && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float inCurr = loads && iStart < n ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    plane_s[y][x] = inCurr;
    for (int i = iStart; i < iStart + OUT_TILE_DIM && i <= n - 2; i++) {
        float inNext = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();  // the plane is complete
        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr + in_plane_terms(y, x) + c5 * inPrev + c6 * inNext;
        __syncthreads();  // nobody still reads the plane
        inPrev = inCurr;
        inCurr = inNext;
        plane_s[y][x] = inCurr;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
