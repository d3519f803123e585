// VARIANT: a 1D launch, one thread per grid point: ceil(N^3 / 256) blocks of
// 256 threads, and each thread decomposes its flat index t into
// (i, j, k) = (t / N^2, (t / N) % N, t % N) -- the layout of LAB_INDEX --
// then computes the point if it is interior. Common among students who
// learnt CUDA from 1D vector-add examples. Correct: t runs over 0 .. N^3-1
// once each; only interior points are written. It is the lab's technique
// (Fig 8.6's one thread per output point, one launch), with a 1D instead of
// a 3D block.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define THREADS 256

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t nn = (size_t)N * N;
    if (t >= nn * N)
        return;
    unsigned int i = (unsigned int)(t / nn);
    unsigned int j = (unsigned int)((t / N) % N);
    unsigned int k = (unsigned int)(t % N);
    if (i == 0 || i == N - 1 || j == 0 || j == N - 1 || k == 0 || k == N - 1)
        return;  // boundary cell: already holds its input value
    out[t] = c0 * in[t] + c1 * in[t - 1] + c2 * in[t + 1] + c3 * in[t - N] + c4 * in[t + N]
           + c5 * in[t - nn] + c6 * in[t + nn];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    size_t points = (size_t)N * N * N;
    unsigned int blocks = (unsigned int)((points + THREADS - 1) / THREADS);
    stencil_kernel<<<blocks, THREADS>>>(d_in, d_out, N);
}
