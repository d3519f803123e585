// VARIANT: a grid-stride loop (the "CUDA Pro Tip" style): a fixed grid of
// 1024 blocks x 256 threads, whatever N is, and each thread strides over
// every point of the N^3 grid with a step of gridDim.x * blockDim.x,
// decomposing each flat index into (i, j, k) and computing it if it is an
// interior point. Correct: the flat indices p = t, t + S, t + 2S, ... of the
// 262144 threads cover 0 .. N^3-1 exactly once, and only interior points are
// written. It is the lab's technique (one launch, points computed in parallel
// by many threads, the Fig 8.6 computation per point); the only difference
// is that a thread may own several points when N^3 > 262144 (N >= 65).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define GRID_BLOCKS 1024   // about 8 blocks per SM on a 132-SM GPU
#define BLOCK_THREADS 256

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    size_t total = (size_t)N * N * N;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < total; p += stride) {
        unsigned int k = (unsigned int)(p % N);
        unsigned int j = (unsigned int)((p / N) % N);
        unsigned int i = (unsigned int)(p / ((size_t)N * N));
        if (i >= 1 && i + 1 < N && j >= 1 && j + 1 < N && k >= 1 && k + 1 < N) {
            out[p] = c0 * in[p]
                   + c1 * in[p - 1] + c2 * in[p + 1]
                   + c3 * in[p - N] + c4 * in[p + N]
                   + c5 * in[p - (size_t)N * N] + c6 * in[p + (size_t)N * N];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    stencil_kernel<<<GRID_BLOCKS, BLOCK_THREADS>>>(d_in, d_out, N);
}
