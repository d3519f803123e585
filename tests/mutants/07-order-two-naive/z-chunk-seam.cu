// MUTANT: a z march in chunks of 128 planes (each thread keeps its z neighbours in registers), whose window at a chunk's start takes the plane two below from i0-1, not i0-2: every chunk but the first gets its first plane's z-2 term wrong (a grid of more than 132 planes has a second chunk)
// expect-hint: whole-planes
// judge-args: --case 140
// (a z-marching lab 7 kernel with this one mistake; the kit's tests check it fails as expected)
#include "star13.h"

#define BLOCK_X 32
#define BLOCK_Y 8
#define CHUNK 128   // planes a thread marches
#define R 2

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int i0 = blockIdx.z * CHUNK + R;
    if (!(j >= R && j + R < N && k >= R && k + R < N) || i0 + R >= N)
        return;
    unsigned int iend = min(i0 + CHUNK, N - R);
    float zm2 = in[LAB_INDEX(i0 == R ? i0 - 2 : i0 - 1, j, k, N)];
    float zm1 = in[LAB_INDEX(i0 - 1, j, k, N)];
    float cur = in[LAB_INDEX(i0, j, k, N)];
    float zp1 = in[LAB_INDEX(i0 + 1, j, k, N)];
    for (unsigned int i = i0; i < iend; i++) {
        float zp2 = in[LAB_INDEX(i + 2, j, k, N)];
        out[LAB_INDEX(i, j, k, N)] = c0 * cur
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * zm1 + c6 * zp1
                                   + c7 * in[LAB_INDEX(i, j, k - 2, N)] + c8 * in[LAB_INDEX(i, j, k + 2, N)]
                                   + c9 * in[LAB_INDEX(i, j - 2, k, N)] + c10 * in[LAB_INDEX(i, j + 2, k, N)]
                                   + c11 * zm2 + c12 * zp2;
        zm2 = zm1; zm1 = cur; cur = zp1; zp1 = zp2;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (N < 2 * R + 1)
        return;
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N - 2 * R + CHUNK - 1) / CHUNK);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
