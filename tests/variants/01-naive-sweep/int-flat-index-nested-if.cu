// VARIANT: plain int arithmetic throughout, the way a first CUDA course
// writes it: a 1D grid of ceil(N^3 / 128) blocks of 128 threads, one thread
// per grid point, `int idx = blockIdx.x * blockDim.x + threadIdx.x`, the
// point recovered with int division and remainder, and the book's nested
// if of Fig 8.6 (i, then j, then k inside 1 .. N-2). Neighbours are idx +-1,
// +-N, +-N*N in int. Correct: N^3 <= 512^3 = 2^27 fits an int, so every
// index is exact; every point has one thread and only interior points are
// written. It is the lab's technique (one thread per output point, one
// launch), with a flat 1D launch and signed indices.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define THREADS 128

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n * n * n) {
        int i = idx / (n * n);
        int j = (idx / n) % n;
        int k = idx % n;
        if (i >= 1 && i < n - 1) {
            if (j >= 1 && j < n - 1) {
                if (k >= 1 && k < n - 1) {
                    out[idx] = c0 * in[idx]
                             + c1 * in[idx - 1] + c2 * in[idx + 1]
                             + c3 * in[idx - n] + c4 * in[idx + n]
                             + c5 * in[idx - n * n] + c6 * in[idx + n * n];
                }
            }
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    int n = (int)N;
    int points = n * n * n;
    int blocks = (points + THREADS - 1) / THREADS;
    stencil_kernel<<<blocks, THREADS>>>(d_in, d_out, N);
}
