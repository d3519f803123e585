// VARIANT: a 2D grid of 32×8 blocks over (k, j); each thread loops over its
// column's interior planes i = 2 .. N-3, keeping the column's five z values in
// registers as it goes (a register window of the star's 2r + 1 = 5 planes,
// shifted once a plane), and reading the in-plane neighbours from global
// memory. Correct: every interior (i, j, k) is computed by the one thread of
// its column, once. It is the naive lab's technique with fewer threads: one a
// column, N^2 of them, at least 4096 from N = 64 on and every column below that.
// Expected: every case passes and the technique line too.
#include "star13.h"

#define BX 32
#define BY 8

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int j = (int)(blockIdx.y * blockDim.y + threadIdx.y), k = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (j < 2 || k < 2 || j + 2 >= n || k + 2 >= n)
        return;
    float zm2 = in[LAB_INDEX(0, j, k, N)], zm1 = in[LAB_INDEX(1, j, k, N)];
    float cur = in[LAB_INDEX(2, j, k, N)], zp1 = in[LAB_INDEX(3, j, k, N)];
    for (int i = 2; i + 2 < n; i++) {
        float zp2 = in[LAB_INDEX(i + 2, j, k, N)];
        out[LAB_INDEX(i, j, k, N)] = c0 * cur
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c7 * in[LAB_INDEX(i, j, k - 2, N)] + c8 * in[LAB_INDEX(i, j, k + 2, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c9 * in[LAB_INDEX(i, j - 2, k, N)] + c10 * in[LAB_INDEX(i, j + 2, k, N)]
                                   + c5 * zm1 + c6 * zp1 + c11 * zm2 + c12 * zp2;
        zm2 = zm1, zm1 = cur, cur = zp1, zp1 = zp2;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BX, BY, 1);
    dim3 grid((N + BX - 1) / BX, (N + BY - 1) / BY, 1);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
