// VARIANT: a 2D grid of 1D blocks: blockIdx.y is the plane i, and the
// 256-thread blocks along x cover the plane's N*N cells as one flat range
// (cell c = j*N + k), so a warp may straddle two rows; loads through __ldg on
// const __restrict__ pointers, the star summed axis by axis in a __device__
// helper that takes the flat index and the strides. Correct: every (i, c)
// pair is one thread's, and a cell is written only if it lies two or more
// cells from every face. It is the naive lab's technique: one thread per
// point, one launch.
// Expected: every case passes and the technique line too.
#include "star13.h"

#define THREADS 256
#define R 2

// The thirteen-point star at flat index p, rows `row` and planes `plane` floats apart.
__device__ __forceinline__ float star13_at(const float *__restrict__ in, size_t p, size_t row, size_t plane)
{
    float x = c1 * __ldg(&in[p - 1]) + c2 * __ldg(&in[p + 1]) + c7 * __ldg(&in[p - 2]) + c8 * __ldg(&in[p + 2]);
    float y = c3 * __ldg(&in[p - row]) + c4 * __ldg(&in[p + row]) + c9 * __ldg(&in[p - 2 * row]) +
              c10 * __ldg(&in[p + 2 * row]);
    float z = c5 * __ldg(&in[p - plane]) + c6 * __ldg(&in[p + plane]) + c11 * __ldg(&in[p - 2 * plane]) +
              c12 * __ldg(&in[p + 2 * plane]);
    return c0 * __ldg(&in[p]) + x + y + z;
}

__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int N)
{
    const unsigned int i = blockIdx.y;
    const unsigned int c = blockIdx.x * THREADS + threadIdx.x;
    if (c >= N * N)
        return;
    const unsigned int j = c / N, k = c % N;
    if (i >= R && i < N - R && j >= R && j < N - R && k >= R && k < N - R)
        out[LAB_INDEX(i, j, k, N)] = star13_at(in, LAB_INDEX(i, j, k, N), N, (size_t)N * N);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 grid((N * N + THREADS - 1) / THREADS, N);
    stencil_kernel<<<grid, THREADS>>>(d_in, d_out, N);
}
