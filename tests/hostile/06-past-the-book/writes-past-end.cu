// HOSTILE: the grid-interface kernel also stores one cell past the end of out, at nx*ny*nz
// expect-hint: out-of-bounds
// (a lab 6 submission that misbehaves; the kit's tests check the grader catches it on any grid shape)
//
// The guard zone after the output buffer is as long as one plane (at least
// 4096 floats), whatever the grid's shape: the stray store lands in it and
// the verdict names it, on the non-cubic cases as on the cube.
#include "grid.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 8   // threads along y (j)

__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int nx,
                               unsigned int ny, unsigned int nz)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (k == 0 && j == 0)
        out[(size_t)nx * ny * nz] = 0.0f;  // one store past the end of out (a "padding" cell the grid does not have)
    if (nz < 3 || k < 1 || k + 1 >= nx || j < 1 || j + 1 >= ny)
        return;  // no barrier below: a thread outside the interior may leave at once
    size_t row = nx, plane = (size_t)nx * ny;
    size_t p = GRID_INDEX(1, j, k, ny, nx);
    float below = in[p - plane], here = in[p];
    for (unsigned int i = 1; i + 1 < nz; i++, p += plane) {
        float above = in[p + plane];
        out[p] = c0 * here
               + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - row] + c4 * in[p + row]
               + c5 * below + c6 * above;
        below = here;
        here = above;
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((nx + BLOCK_X - 1) / BLOCK_X, (ny + BLOCK_Y - 1) / BLOCK_Y, 1);
    stencil_kernel<<<grid, block>>>(d_in, d_out, nx, ny, nz);
}
