// VARIANT: the x neighbours through warp shuffles. A 32x8 block marches its
// x-y patch through every z plane; each warp is one row segment of 32
// points (lane = x), the z neighbours are in registers (below, here,
// above), each lane's x neighbours are its neighbouring lanes' `here`
// values (__shfl_up_sync / __shfl_down_sync), and only lanes 0 and 31 load
// the one cell beyond the segment from global memory; the y neighbours come
// through the read-only path (__ldg). No shared memory, no barrier. Lanes
// past the grid's edge hold 0 and still take part in every shuffle (full
// mask, one call site, no early return). Correct: every interior (j, k)
// column has one lane that visits every interior plane; a lane's shuffled
// neighbour is the value of the point next to it in the same row and plane
// (lanes 0 and 31 read theirs from memory instead); only interior points
// are written. It follows the lab (one launch spreading the sweep over the
// GPU: every column of the plane a thread).
// Expected: every case passes and the technique line too.
#include "grid.h"

#define BX 32   // a warp: one row segment
#define BY 8    // rows a block

__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int nx,
                               unsigned int ny, unsigned int nz)
{
    const unsigned int full = 0xffffffffu;
    int lane = threadIdx.x;
    int k = (int)(blockIdx.x * BX) + lane, j = (int)(blockIdx.y * BY + threadIdx.y);
    bool in_grid = k < (int)nx && j < (int)ny;
    bool inside = k >= 1 && k + 1 < (int)nx && j >= 1 && j + 1 < (int)ny;
    size_t plane = (size_t)nx * ny;
    float below = 0.0f, here = 0.0f, above = 0.0f;
    if (in_grid) {
        here = __ldg(&in[GRID_INDEX(0, j, k, ny, nx)]);
        if (nz > 1)
            above = __ldg(&in[GRID_INDEX(1, j, k, ny, nx)]);
    }
    for (unsigned int i = 1; i + 1 < nz; i++) {
        below = here;
        here = above;
        size_t p = GRID_INDEX(i, j, k, ny, nx);
        if (in_grid)
            above = __ldg(&in[p + plane]);
        float west = __shfl_up_sync(full, here, 1);    // lane - 1's point: (i, j, k - 1)
        float east = __shfl_down_sync(full, here, 1);  // lane + 1's point: (i, j, k + 1)
        if (inside) {
            if (lane == 0)
                west = __ldg(&in[p - 1]);
            if (lane == BX - 1)
                east = __ldg(&in[p + 1]);
            out[p] = c0 * here + c1 * west + c2 * east
                   + c3 * __ldg(&in[p - nx]) + c4 * __ldg(&in[p + nx])
                   + c5 * below + c6 * above;
        }
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    dim3 block(BX, BY);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
    stencil_kernel<<<grid, block>>>(d_in, d_out, nx, ny, nz);
}
