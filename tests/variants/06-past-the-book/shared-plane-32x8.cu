// VARIANT: lab 4's register tiling on any grid: a 32x8 block marches its x-y patch through every z
// plane, the z neighbours in registers and the current plane's patch with its halo (34x10) in shared
// memory, loaded by the block's threads in a loop; barriers reached by every thread. Correct; must pass.
#include "grid.h"

#define TX 32
#define TY 8

__global__ void stencil_kernel(const float *in, float *out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    __shared__ float tile[TY + 2][TX + 2];
    int k0 = (int)(blockIdx.x * TX), j0 = (int)(blockIdx.y * TY);
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int k = k0 + tx, j = j0 + ty;
    int inside = k >= 1 && k + 1 < (int)nx && j >= 1 && j + 1 < (int)ny;
    size_t plane = (size_t)nx * ny;
    float below = 0.0f, here = 0.0f, above = 0.0f;
    if (k < (int)nx && j < (int)ny) {
        here = in[GRID_INDEX(0, j, k, ny, nx)];
        if (nz > 1)
            above = in[GRID_INDEX(1, j, k, ny, nx)];
    }
    for (unsigned int i = 1; i + 1 < nz; i++) {
        below = here;
        here = above;
        if (k < (int)nx && j < (int)ny)
            above = in[GRID_INDEX(i + 1, j, k, ny, nx)];
        for (int t = ty * TX + tx; t < (TY + 2) * (TX + 2); t += TX * TY) {  // the patch and its halo
            int hj = j0 - 1 + t / (TX + 2), hk = k0 - 1 + t % (TX + 2);
            tile[t / (TX + 2)][t % (TX + 2)] = hj >= 0 && hj < (int)ny && hk >= 0 && hk < (int)nx ? in[i * plane + (size_t)hj * nx + hk] : 0.0f;
        }
        __syncthreads();
        if (inside)
            out[GRID_INDEX(i, j, k, ny, nx)] = c0 * here
                                             + c1 * tile[ty + 1][tx] + c2 * tile[ty + 1][tx + 2]
                                             + c3 * tile[ty][tx + 1] + c4 * tile[ty + 2][tx + 1]
                                             + c5 * below + c6 * above;
        __syncthreads();
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    dim3 block(TX, TY, 1);
    dim3 grid((nx + TX - 1) / TX, (ny + TY - 1) / TY, 1);
    stencil_kernel<<<grid, block>>>(d_in, d_out, nx, ny, nz);
}
