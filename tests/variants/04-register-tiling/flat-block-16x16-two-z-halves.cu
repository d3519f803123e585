// VARIANT: a flat 1D block of 256 threads standing for a 16x16 tile (thread
// t owns column (t / 16, t % 16) of the input patch) and z split in two:
// grid.z = 2, each block marching half of the interior planes (the first
// half rounded up), whatever N is. The z neighbours in registers, one 16x16
// plane (1 KB) in shared memory indexed flat, the sum in a __device__
// helper. Correct: patches start every 14 columns and rows; the two halves
// cover planes 1 .. N-2 once; the loop bound is the block's; Fig 8.12's step
// order (load next, barrier, compute, barrier, shift and store). It uses the
// lab's technique: register tiling with one plane in shared memory, a block
// marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 16                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

// The seven-point sum at flat position t of the shared plane.
__device__ __forceinline__ float star7(const float *plane, int t, float below, float centre, float above)
{
    return c0 * centre + c1 * plane[t - 1] + c2 * plane[t + 1] + c3 * plane[t - IN_TILE_DIM] +
           c4 * plane[t + IN_TILE_DIM] + c5 * below + c6 * above;
}

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float plane_s[IN_TILE_DIM * IN_TILE_DIM];
    const int t = (int)threadIdx.x, n = (int)N;
    const int y = t / IN_TILE_DIM, x = t % IN_TILE_DIM;
    const int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1, k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const int planes = n > 2 ? n - 2 : 0, half = (planes + 1) / 2;
    const int first = 1 + (int)blockIdx.z * half;        // this block's first output plane
    const int last = blockIdx.z == 0 ? half : planes;     // and its last
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && j >= 1 && j <= n - 2 &&
                          k >= 1 && k <= n - 2;

    float below = loads && first - 1 < n ? in[LAB_INDEX(first - 1, j, k, N)] : 0.0f;
    float centre = loads && first < n ? in[LAB_INDEX(first, j, k, N)] : 0.0f;
    plane_s[t] = centre;
    for (int i = first; i <= last; i++) {
        float above = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();  // the plane is complete
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = star7(plane_s, t, below, centre, above);
        __syncthreads();  // nobody still reads the plane
        below = centre;
        centre = above;
        plane_s[t] = centre;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, 2), IN_TILE_DIM * IN_TILE_DIM>>>(d_in, d_out, N);
}
