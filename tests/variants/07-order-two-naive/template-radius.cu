// VARIANT: lab 1's kernel made generic in the star's radius: stencil_kernel
// is a template on R (template <int R>), the sum a loop over the distances
// d = 1 .. R unrolled by the compiler, the coefficients of distance d taken
// from a small table built at the kernel's start; launched as
// stencil_kernel<2> for this lab's thirteen-point star, with 32x4x4 blocks,
// one thread per point. Correct: the same point set (R cells from every
// face) and the same thirteen terms as the solution, in another order. It is
// the naive lab's technique: one thread per output point, one launch.
// Expected: every case passes and the technique line too.
#include "star13.h"

template <int R>
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int i = (int)(blockIdx.z * blockDim.z + threadIdx.z);
    const int j = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    const int k = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int n = (int)N;
    if (i < R || i >= n - R || j < R || j >= n - R || k < R || k >= n - R)
        return;
    // cx[d-1], cy[d-1], cz[d-1]: the minus and plus coefficients of distance d on each axis.
    const float cxm[2] = {c1, c7}, cxp[2] = {c2, c8}, cym[2] = {c3, c9}, cyp[2] = {c4, c10};
    const float czm[2] = {c5, c11}, czp[2] = {c6, c12};
    const size_t p = LAB_INDEX(i, j, k, N), row = N, plane = (size_t)N * N;
    float sum = c0 * in[p];
#pragma unroll
    for (int d = 1; d <= R; d++)
        sum += cxm[d - 1] * in[p - d] + cxp[d - 1] * in[p + d] + cym[d - 1] * in[p - d * row] +
               cyp[d - 1] * in[p + d * row] + czm[d - 1] * in[p - d * plane] + czp[d - 1] * in[p + d * plane];
    out[p] = sum;
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(32, 4, 4);
    dim3 grid((N + 31) / 32, (N + 3) / 4, (N + 3) / 4);
    stencil_kernel<STENCIL_RADIUS><<<grid, block>>>(d_in, d_out, N);
}
