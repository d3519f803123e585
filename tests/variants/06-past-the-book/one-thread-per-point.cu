// VARIANT: lab 1's kernel on the grid interface: one thread per point, 32x4x4 blocks, a 3D grid sized
// from each axis's own size. Correct; must pass (the technique line too).
#include "grid.h"

#define BX 32
#define BY 4
#define BZ 4

__global__ void stencil_kernel(const float *in, float *out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i + 1 < nz && j >= 1 && j + 1 < ny && k >= 1 && k + 1 < nx)
        out[GRID_INDEX(i, j, k, ny, nx)] = c0 * in[GRID_INDEX(i, j, k, ny, nx)]
                                         + c1 * in[GRID_INDEX(i, j, k - 1, ny, nx)] + c2 * in[GRID_INDEX(i, j, k + 1, ny, nx)]
                                         + c3 * in[GRID_INDEX(i, j - 1, k, ny, nx)] + c4 * in[GRID_INDEX(i, j + 1, k, ny, nx)]
                                         + c5 * in[GRID_INDEX(i - 1, j, k, ny, nx)] + c6 * in[GRID_INDEX(i + 1, j, k, ny, nx)];
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    dim3 block(BX, BY, BZ);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + BZ - 1) / BZ);
    stencil_kernel<<<grid, block>>>(d_in, d_out, nx, ny, nz);
}
