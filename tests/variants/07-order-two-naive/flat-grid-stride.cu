// VARIANT: a grid-stride loop over flat indices: a fixed grid of 512 blocks of
// 256 threads, whatever N is; each thread strides over the N^3 points with a
// step of gridDim.x * blockDim.x, splits each flat index into (i, j, k) and
// computes the thirteen-point star there when the point is at least two cells
// from every face. Correct: the flat indices t, t + S, t + 2S, ... of the
// 131072 threads cover 0 .. N^3-1 exactly once; the sum runs distance by
// distance (the near star first, then the far one), another order than the
// solution's, inside the tolerance.
// Expected: every case passes and the technique line too (131072 threads, more than 4096).
#include "star13.h"

#define THREADS 256
#define BLOCKS 512

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    size_t n = N, cells = n * n * n, plane = n * n;
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < cells; p += (size_t)gridDim.x * blockDim.x) {
        size_t i = p / plane, j = (p / n) % n, k = p % n;
        if (i < 2 || j < 2 || k < 2 || i + 2 >= n || j + 2 >= n || k + 2 >= n)
            continue;
        float near = c0 * in[p] + c1 * in[p - 1] + c2 * in[p + 1] + c3 * in[p - n] + c4 * in[p + n]
                   + c5 * in[p - plane] + c6 * in[p + plane];
        float far = c7 * in[p - 2] + c8 * in[p + 2] + c9 * in[p - 2 * n] + c10 * in[p + 2 * n]
                  + c11 * in[p - 2 * plane] + c12 * in[p + 2 * plane];
        out[p] = near + far;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    stencil_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, N);
}
