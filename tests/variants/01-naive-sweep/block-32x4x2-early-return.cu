// VARIANT: one thread per point with a flatter 32x4x2 block (256 threads),
// the grid rounded up per axis, an early `return` for threads outside the
// interior, the interior-shifted mapping (thread 0 owns point 1, so the grid
// covers exactly the N-2 interior points per axis, not N), and neighbours
// addressed by pointer offsets from the centre (+-1, +-N, +-N*N), with the
// terms summed in a different order (z, y, x, centre). Correct: every
// interior (i, j, k) = (1 + global thread index) has one thread; no barrier,
// so the early return is safe. It is the lab's technique (Fig 8.6): one
// thread per output point, one launch; it launches (N-2)^3 rounded up
// rather than N^3 rounded up.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define BLOCK_X 32
#define BLOCK_Y 4
#define BLOCK_Z 2

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    if (N < 3)
        return;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z + 1;
    if (i > N - 2 || j > N - 2 || k > N - 2)
        return;
    const size_t plane = (size_t)N * N;
    const float *c = in + LAB_INDEX(i, j, k, N);
    float r = c5 * c[-(ptrdiff_t)plane] + c6 * c[plane];
    r += c3 * c[-(ptrdiff_t)N] + c4 * c[N];
    r += c1 * c[-1] + c2 * c[1];
    r += c0 * c[0];
    out[LAB_INDEX(i, j, k, N)] = r;
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int m = N > 2 ? N - 2 : 1;  // interior points per axis (at least one block)
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((m + BLOCK_X - 1) / BLOCK_X, (m + BLOCK_Y - 1) / BLOCK_Y, (m + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
