// VARIANT: lab 9 with no shared memory at all: each thread computes one
// output cell two iterations ahead by recomputing the first iteration at its
// seven-point neighbourhood straight from global memory (7 first-level values
// a cell, each a 7-point sum), one thread per cell and a z loop; a remainder
// iteration uses the same kernel with one level. The boundary step lives in
// the position mapping (a halo position stands for its source cell), so
// Neumann and periodic cells are written by the same kernel. Correct, and
// the most wasteful way to do two iterations a launch.
#include "jacobi.h"

#include <math.h>

// The cell of an axis of n points whose value position x holds (x may lie
// one or two cells outside the grid).
__device__ int source_of(int x, int n, int bc)
{
    int len = n - 2;
    if (bc == LAB_BC_DIRICHLET)
        return x;
    if (x >= 1 && x <= n - 2)
        return x;
    if (bc == LAB_BC_PERIODIC)
        return ((x - 1) % len + len) % len + 1;
    int y = ((x - 1) % (2 * len) + 2 * len) % (2 * len);
    return (y < len ? y : 2 * len - 1 - y) + 1;
}

struct grid_info {
    int nx, ny, nz, bc;
    float h2;
};

__device__ bool is_interior(const grid_info &g, int i, int j, int k)
{
    return i >= 1 && i <= g.nz - 2 && j >= 1 && j <= g.ny - 2 && k >= 1 && k <= g.nx - 2;
}

// u at position (i, j, k), mapped to its source.
__device__ float at(const float *u, const grid_info &g, int i, int j, int k)
{
    return u[JACOBI_INDEX(source_of(i, g.nz, g.bc), source_of(j, g.ny, g.bc), source_of(k, g.nx, g.bc), g.nx, g.ny)];
}

// One iteration's value at a real cell (i, j, k) (Dirichlet boundary: unchanged).
__device__ float once(const float *u, const float *f, const grid_info &g, int i, int j, int k)
{
    if (g.bc == LAB_BC_DIRICHLET && !is_interior(g, i, j, k))
        return u[JACOBI_INDEX(i, j, k, g.nx, g.ny)];
    int si = source_of(i, g.nz, g.bc), sj = source_of(j, g.ny, g.bc), sk = source_of(k, g.nx, g.bc);
    float sum = at(u, g, si, sj, sk - 1) + at(u, g, si, sj, sk + 1) + at(u, g, si, sj - 1, sk) + at(u, g, si, sj + 1, sk) +
                at(u, g, si - 1, sj, sk) + at(u, g, si + 1, sj, sk);
    return (sum - g.h2 * f[JACOBI_INDEX(si, sj, sk, g.nx, g.ny)]) / 6.0f;
}

// Two iterations' value at a real cell, its first level recomputed at the seven neighbours.
__device__ float twice(const float *u, const float *f, const grid_info &g, int i, int j, int k)
{
    if (g.bc == LAB_BC_DIRICHLET && !is_interior(g, i, j, k))
        return u[JACOBI_INDEX(i, j, k, g.nx, g.ny)];
    int si = source_of(i, g.nz, g.bc), sj = source_of(j, g.ny, g.bc), sk = source_of(k, g.nx, g.bc);
    const int d[6][3] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {-1, 0, 0}, {1, 0, 0}};
    float sum = 0.0f;
    for (int n = 0; n < 6; n++) {
        int ni = si + d[n][0], nj = sj + d[n][1], nk = sk + d[n][2];
        if (g.bc != LAB_BC_DIRICHLET) {
            ni = source_of(ni, g.nz, g.bc);
            nj = source_of(nj, g.ny, g.bc);
            nk = source_of(nk, g.nx, g.bc);
        }
        sum += once(u, f, g, ni, nj, nk);
    }
    return (sum - g.h2 * f[JACOBI_INDEX(si, sj, sk, g.nx, g.ny)]) / 6.0f;
}

// levels (1 or 2) iterations from u into v, every cell: a 2D grid of threads looping over z.
__global__ void jacobi_ahead(const float *u, float *v, const float *f, grid_info g, int levels)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (k >= g.nx || j >= g.ny)
        return;
    for (int i = 0; i < g.nz; i++)
        v[JACOBI_INDEX(i, j, k, g.nx, g.ny)] = levels == 2 ? twice(u, f, g, i, j, k) : once(u, f, g, i, j, k);
}

// The residual: one thread per interior cell, one double atomicAdd per thread.
__global__ void jacobi_residual(const float *u, const float *f, grid_info g, double *sum)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (k > g.nx - 2 || j > g.ny - 2)
        return;
    size_t row = g.nx, plane = (size_t)g.nx * g.ny;
    double acc = 0.0;
    for (int i = 1; i <= g.nz - 2; i++) {
        size_t p = JACOBI_INDEX(i, j, k, g.nx, g.ny);
        float d = u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane] - 6.0f * u[p] - g.h2 * f[p];
        acc += (double)d * d;
    }
    atomicAdd(sum, acc);
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    grid_info g = {(int)p->nx, (int)p->ny, (int)p->nz, p->bc, p->h * p->h};
    dim3 block(32, 4), grid((p->nx + 31) / 32, (p->ny + 3) / 4);
    float *cur = d_a, *next = d_b;
    int newest = 0;
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 0; t < p->max_iters;) {
        int levels = p->max_iters - t >= 2 ? 2 : 1;
        if (p->check_every > 0 && levels > p->check_every - t % p->check_every)
            levels = 1;  // the next check comes after one iteration
        jacobi_ahead<<<grid, block>>>(cur, next, d_f, g, levels);
        float *swap = cur;
        cur = next;
        next = swap;
        newest ^= 1;
        t += levels;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double sum = 0.0;
            cudaMemset(p->d_scratch, 0, sizeof(double));
            jacobi_residual<<<grid, block>>>(cur, d_f, g, p->d_scratch);
            cudaMemcpy(&sum, p->d_scratch, sizeof(double), cudaMemcpyDeviceToHost);
            *residual = (float)sqrt(sum / ((double)(p->nx - 2) * (p->ny - 2) * (p->nz - 2)));
            if (*residual < p->tol)
                break;
        }
    }
    return newest;
}
