// VARIANT: the solution's 32x32 block and 28x28 patch, with the column's five
// z values kept in a five-float array reached through five pointers (planes
// i-2 .. i+2) that are rotated each plane instead of copying the values: the
// slot that held plane i-2 takes plane i+3. One shared plane, the halo two
// deep, the block marching 28 planes.
#include "star13.h"

#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 4)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int n = (int)N;
    const int i0 = (int)blockIdx.z * OUT_TILE_DIM;
    const int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 2, k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - 2;
    const int y = threadIdx.y, x = threadIdx.x;
    __shared__ float plane_s[IN_TILE_DIM][IN_TILE_DIM];
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = j >= 2 && j < n - 2 && k >= 2 && k < n - 2 && y >= 2 && y < IN_TILE_DIM - 2 && x >= 2 && x < IN_TILE_DIM - 2;
    float slots[5];
    float *zm2 = &slots[0], *zm1 = &slots[1], *cur = &slots[2], *zp1 = &slots[3], *zp2 = &slots[4];
    for (int d = -2; d <= 1; d++) {
        int p = i0 + d;
        slots[d + 2] = loads && p >= 0 && p < n ? in[LAB_INDEX(p, j, k, N)] : 0.0f;
    }
    plane_s[y][x] = *cur;
    for (int i = i0; i < i0 + OUT_TILE_DIM && i < n - 2; i++) {
        *zp2 = loads && i + 2 < n ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i >= 2)
            out[LAB_INDEX(i, j, k, N)] = c0 * *cur + c5 * *zm1 + c6 * *zp1 + c11 * *zm2 + c12 * *zp2
                                       + c1 * plane_s[y][x - 1] + c2 * plane_s[y][x + 1] + c7 * plane_s[y][x - 2] + c8 * plane_s[y][x + 2]
                                       + c3 * plane_s[y - 1][x] + c4 * plane_s[y + 1][x] + c9 * plane_s[y - 2][x] + c10 * plane_s[y + 2][x];
        __syncthreads();
        float *old = zm2;  // rotate: the oldest slot becomes the next plane's zp2
        zm2 = zm1, zm1 = cur, cur = zp1, zp1 = zp2, zp2 = old;
        plane_s[y][x] = *cur;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int t = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(t, t, t), dim3(IN_TILE_DIM, IN_TILE_DIM)>>>(d_in, d_out, N);
}
