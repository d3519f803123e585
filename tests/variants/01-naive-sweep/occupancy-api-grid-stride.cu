// VARIANT: a grid-stride loop sized by the occupancy API, as NVIDIA's
// programming guide shows it ("Occupancy Calculator" section):
// cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, stencil_kernel)
// gives the block size with the best occupancy and the smallest grid that
// fills the GPU at that occupancy, and the kernel is launched with exactly
// that grid and block; each thread strides over the interior points (a
// flat index over the (N-2)^3 interior). Correct: the stride loop covers
// every interior point exactly once whatever the grid. It is the lab's
// technique as the handout states it (a grid-stride loop: one launch, the
// Fig 8.6 per-point computation spread over as many threads as the GPU
// runs at once: min_grid x block is the GPU's full occupancy, e.g. 132 x
// 2048 threads on an H100).
// Expected: every case passes and the technique line too.
#include "lab.h"

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    if (N < 3)
        return;
    size_t m = N - 2, count = m * m * m, plane = (size_t)N * N;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < count; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % m + 1, j = (q / m) % m + 1, i = q / (m * m) + 1;
        size_t p = LAB_INDEX(i, j, k, N);
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - N] + c4 * in[p + N]
               + c5 * in[p - plane] + c6 * in[p + plane];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    int min_grid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, stencil_kernel, 0, 0);
    stencil_kernel<<<min_grid, block>>>(d_in, d_out, N);
}
