// MUTANT: x-coarsening by 4 with a hand-written tail: ceil((N-2)/4) threads per row, and the last thread of a row does (N-2) % 4 columns; when (N-2) % 4 == 0 that is 0 instead of 4, so the last four interior columns are never written (N = 6, 10, 14, 18, 34, 66, 130, 258, 514 ...)
// expect-hint: unwritten-cells
#include "lab.h"

#define CX 4

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    if (N < 3) return;
    unsigned int M = N - 2;
    unsigned int nthreads_x = (M + CX - 1) / CX;
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = 1 + blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int i = 1 + blockIdx.z * blockDim.z + threadIdx.z;
    if (t >= nthreads_x || j >= N - 1 || i >= N - 1) return;
    unsigned int count = (t == nthreads_x - 1) ? (M % CX) : CX;   // the tail
    unsigned int k0 = 1 + t * CX;
    size_t NN = (size_t)N * N;
    for (unsigned int d = 0; d < count; ++d) {
        size_t p = LAB_INDEX(i, j, k0 + d, N);
        out[p] = c0 * in[p] + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - N] + c4 * in[p + N] + c5 * in[p - NN] + c6 * in[p + NN];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (N < 3) return;
    unsigned int M = N - 2;
    unsigned int tx = (M + CX - 1) / CX;
    dim3 block(32, 4, 4);
    dim3 grid((tx + 31) / 32, (M + 3) / 4, (M + 3) / 4);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
