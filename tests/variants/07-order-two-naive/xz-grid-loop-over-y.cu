// VARIANT: a 2D grid over (k, i), x and z, whose threads loop over the rows
// j: each thread walks its (i, k) line along y keeping the five y values
// j-2 .. j+2 in registers, the x and z neighbours from global memory. One
// thread per interior (i, k) pair, a 64x4 block.
#include "star13.h"

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int n = (int)N;
    const int k = (int)(blockIdx.x * blockDim.x + threadIdx.x) + 2, i = (int)(blockIdx.y * blockDim.y + threadIdx.y) + 2;
    if (k + 2 >= n || i + 2 >= n)
        return;
    const size_t row = N, plane = (size_t)N * N;
    float ym2 = in[LAB_INDEX(i, 0, k, N)], ym1 = in[LAB_INDEX(i, 1, k, N)];
    float cur = in[LAB_INDEX(i, 2, k, N)], yp1 = in[LAB_INDEX(i, 3, k, N)];
    for (int j = 2; j + 2 < n; j++) {
        size_t p = LAB_INDEX(i, j, k, N);
        float yp2 = in[p + 2 * row];
        out[p] = c0 * cur + c3 * ym1 + c4 * yp1 + c9 * ym2 + c10 * yp2
               + c1 * in[p - 1] + c2 * in[p + 1] + c7 * in[p - 2] + c8 * in[p + 2]
               + c5 * in[p - plane] + c6 * in[p + plane] + c11 * in[p - 2 * plane] + c12 * in[p + 2 * plane];
        ym2 = ym1, ym1 = cur, cur = yp1, yp1 = yp2;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int m = N > 4 ? N - 4 : 1;
    dim3 block(64, 4), grid((m + 63) / 64, (m + 3) / 4);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
