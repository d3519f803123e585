// MUTANT: the interior taken as in lab 1 (1 <= i, j, k <= N-2): the kernel writes the
// boundary's inner layer, which the star of radius 2 must leave holding its input values
// expect-hint: boundary-too-thin
// (lab 7 solution with this one mistake, written with a signed flat index. Its points one
// cell from a face read two cells out, past the grid: into the kit's guard zones, which
// hold the guard pattern (NaN), or into the neighbouring row or plane; the stores stay
// inside the grid. With unsigned coordinates, i - 2 would wrap and the read would fault.)
#include "star13.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    long n = N, plane = n * n;
    long i = blockIdx.z * blockDim.z + threadIdx.z;
    long j = blockIdx.y * blockDim.y + threadIdx.y;
    long k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i + 1 < n && j >= 1 && j + 1 < n && k >= 1 && k + 1 < n) {
        long p = (i * n + j) * n + k;
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1] + c3 * in[p - n] + c4 * in[p + n] + c5 * in[p - plane] + c6 * in[p + plane]
               + c7 * in[p - 2] + c8 * in[p + 2] + c9 * in[p - 2 * n] + c10 * in[p + 2 * n]
               + c11 * in[p - 2 * plane] + c12 * in[p + 2 * plane];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
