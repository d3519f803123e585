// MUTANT: the plane stride N*N is kept in an unsigned short: right for N <= 255, but N*N = 65536 wraps to 0 at N = 256 (and 512), so every plane's result lands in plane 0 (a boundary plane) and planes 1..N-2 are never written
// expect-hint: index-overflow
// gpu-hint-today (H100, seed 4242): nothing-written at N=256, timed-rep-wrong at N=512
// A student "saving registers" with a 16-bit stride. Every case up to N=129
// passes; N=256 (the emulated large case) and N=512 (timed, GPU only) fail.
// Threads of different planes i store to the same cell of plane 0, so the
// value left there depends on which thread stores last.
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

#define IDX(i, j, k) ((i) * plane + (j) * N + (k))  // linear index with the 16-bit plane stride

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short plane = N * N;  // MUTANT: 16 bits: 0 at N = 256
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[IDX(i, j, k)] = c0 * in[IDX(i, j, k)]
                                   + c1 * in[IDX(i, j, k - 1)]
                                   + c2 * in[IDX(i, j, k + 1)]
                                   + c3 * in[IDX(i, j - 1, k)]
                                   + c4 * in[IDX(i, j + 1, k)]
                                   + c5 * in[IDX(i - 1, j, k)]
                                   + c6 * in[IDX(i + 1, j, k)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
