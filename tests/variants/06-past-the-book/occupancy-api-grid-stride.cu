// Lab 6 form of the lab 1 finding: a grid-stride loop launched with the
// occupancy API's suggested block and minimum grid.
#include "grid.h"

__global__ void stencil_kernel(float *in, float *out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    if (nx < 3 || ny < 3 || nz < 3)
        return;
    size_t wx = nx - 2, wy = ny - 2, count = wx * wy * (nz - 2), plane = (size_t)nx * ny;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < count; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % wx + 1, j = (q / wx) % wy + 1, i = q / (wx * wy) + 1;
        size_t p = GRID_INDEX(i, j, k, ny, nx);
        out[p] = c0 * in[p] + c1 * in[p - 1] + c2 * in[p + 1] + c3 * in[p - nx] + c4 * in[p + nx]
               + c5 * in[p - plane] + c6 * in[p + plane];
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    int min_grid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, stencil_kernel, 0, 0);
    stencil_kernel<<<min_grid, block>>>(d_in, d_out, nx, ny, nz);
}
