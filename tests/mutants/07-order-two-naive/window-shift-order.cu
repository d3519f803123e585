// MUTANT: the register window shifted in the wrong order (zm1 = cur before zm2 = zm1): zm2 gets the
// new zm1, so from the second plane of the march on the z-2 term multiplies in[i-1] instead of in[i-2]
// expect-hint: whole-planes
// judge-args: --case 13
// (variant xy-block-z-loop with this one mistake: the first interior plane is right, every later one wrong)
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
        zm1 = cur, zm2 = zm1, cur = zp1, zp1 = zp2;  // MUTANT: zm1 overwritten before zm2 takes it
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BX, BY, 1);
    dim3 grid((N + BX - 1) / BX, (N + BY - 1) / BY, 1);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
