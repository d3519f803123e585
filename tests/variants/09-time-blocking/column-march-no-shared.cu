// VARIANT: two iterations a launch with one thread per (y, x) column and no
// shared memory: a 2D grid of 32x4 blocks; each thread marches its column
// up z, keeping its own column's first-level values at planes z-1, z, z+1 in
// registers (one new one a step), and recomputing the first level of its
// four in-plane neighbours at plane z from global memory. The boundary step
// lives in the position mapping (every position holds the cell it stands
// for), so Neumann and periodic boundary cells are written by the same
// kernel; a remainder iteration takes the same kernel with one level.
#include "jacobi.h"

#include <math.h>

struct grid_t {
    int nx, ny, nz, bc;
    float h2;
};

__device__ int source_of(int x, int n, int bc)
{
    int len = n - 2, y = x - 1;
    if (bc == LAB_BC_DIRICHLET)
        return min(max(x, 0), n - 1);
    if (bc == LAB_BC_PERIODIC) {
        y %= len;
        return (y < 0 ? y + len : y) + 1;
    }
    y %= 2 * len;
    y = y < 0 ? y + 2 * len : y;
    return (y < len ? y : 2 * len - 1 - y) + 1;
}

// The value position (z, y, x) holds before the launch (level 0).
__device__ float level0(const float *u, const grid_t &g, int z, int y, int x)
{
    return u[JACOBI_INDEX(source_of(z, g.nz, g.bc), source_of(y, g.ny, g.bc), source_of(x, g.nx, g.bc), g.nx, g.ny)];
}

__device__ bool moves(const grid_t &g, int z, int y, int x)
{
    return g.bc != LAB_BC_DIRICHLET || (x >= 1 && x <= g.nx - 2 && y >= 1 && y <= g.ny - 2 && z >= 1 && z <= g.nz - 2);
}

__device__ float fh(const float *f, const grid_t &g, int z, int y, int x)
{
    return g.h2 * f[JACOBI_INDEX(source_of(z, g.nz, g.bc), source_of(y, g.ny, g.bc), source_of(x, g.nx, g.bc), g.nx, g.ny)];
}

// The value position (z, y, x) holds after one iteration.
__device__ float level1(const float *u, const float *f, const grid_t &g, int z, int y, int x)
{
    if (!moves(g, z, y, x))
        return level0(u, g, z, y, x);
    float sum = level0(u, g, z, y, x - 1) + level0(u, g, z, y, x + 1) + level0(u, g, z, y - 1, x) + level0(u, g, z, y + 1, x) +
                level0(u, g, z - 1, y, x) + level0(u, g, z + 1, y, x);
    return (sum - fh(f, g, z, y, x)) / 6.0f;
}

__global__ void jacobi_columns(const float *u, float *v, const float *f, grid_t g, int levels)
{
    const int first = g.bc == LAB_BC_DIRICHLET ? 1 : 0;
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x) + first, y = (int)(blockIdx.y * blockDim.y + threadIdx.y) + first;
    if (x > g.nx - 1 - first || y > g.ny - 1 - first)
        return;
    const int z0 = first, z1 = g.nz - 1 - first;
    float below = level1(u, f, g, z0 - 1, y, x), here = level1(u, f, g, z0, y, x);  // this column's level 1 at z-1 and z
    for (int z = z0; z <= z1; z++) {
        float above = level1(u, f, g, z + 1, y, x);
        size_t p = JACOBI_INDEX(z, y, x, g.nx, g.ny);
        if (levels == 1)
            v[p] = here;
        else if (!moves(g, z, y, x))
            v[p] = here;
        else {
            float sum = level1(u, f, g, z, y, x - 1) + level1(u, f, g, z, y, x + 1) + level1(u, f, g, z, y - 1, x) +
                        level1(u, f, g, z, y + 1, x) + below + above;
            v[p] = (sum - fh(f, g, z, y, x)) / 6.0f;
        }
        below = here, here = above;
    }
}

__global__ void jacobi_residual(const float *u, const float *f, int nx, int ny, int nz, float h2, double *sum)
{
    size_t wx = nx - 2, wy = ny - 2, n = wx * wy * (nz - 2), row = nx, plane = (size_t)nx * ny;
    double acc = 0.0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < n; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % wx + 1, j = (q / wx) % wy + 1, i = q / (wx * wy) + 1, p = JACOBI_INDEX(i, j, k, nx, ny);
        float d = u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane] - 6.0f * u[p] - h2 * f[p];
        acc += (double)d * d;
    }
    atomicAdd(sum, acc);
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done, float *residual)
{
    float *cur = d_a, *next = d_b;
    int newest = 0, first = p->bc == LAB_BC_DIRICHLET ? 1 : 0;
    int nx = (int)p->nx, ny = (int)p->ny, nz = (int)p->nz;
    grid_t g = {nx, ny, nz, p->bc, p->h * p->h};
    dim3 block(32, 4), grid((nx - 2 * first + 31) / 32, (ny - 2 * first + 3) / 4);
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 0; t < p->max_iters;) {
        int k = p->max_iters - t >= 2 ? 2 : 1;
        if (p->check_every > 0 && k > p->check_every - t % p->check_every)
            k = 1;
        jacobi_columns<<<grid, block>>>(cur, next, d_f, g, k);
        float *swap = cur;
        cur = next, next = swap, newest ^= 1;
        t += k;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double sum = 0.0;
            cudaMemset(p->d_scratch, 0, sizeof(double));
            jacobi_residual<<<64, 256>>>(cur, d_f, nx, ny, nz, g.h2, p->d_scratch);
            cudaMemcpy(&sum, p->d_scratch, sizeof(double), cudaMemcpyDeviceToHost);
            *residual = (float)sqrt(sum / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
            if (*residual < p->tol)
                break;
        }
    }
    return newest;
}
