// HOSTILE: launches its solve with cudaLaunchCooperativeKernel, to synchronise the whole grid between iterations (grid.sync())
// expect-hint: refused-call
// backends: gpu emu
// (a lab 5 submission in a style the kit does not offer; the kit's tests check it gets a clear reason)
//
// Not a cheat, but a launch the kit cannot judge: a cooperative launch keeps
// every block resident and lets a kernel wait for the whole grid, so one
// launch could hold every iteration, and the launch records would show no
// iteration's structure. The shim refuses the call with its reason (a
// cooperative launch: launch once per step that needs the grid in step)
// instead of leaving the file to fail at link time with an undefined
// cudaLaunchCooperativeKernel. The kernel is only the shape of such a solve:
// the refusal comes before it runs.
#include "jacobi.h"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void jacobi_all_iterations(float *a, float *b, const float *f, unsigned int nx, unsigned int ny,
                                      unsigned int nz, float h2, int iters)
{
    cg::grid_group grid = cg::this_grid();
    size_t cells = (size_t)nx * ny * nz;
    for (int t = 0; t < iters; t++) {
        const float *u = t % 2 ? b : a;
        float *v = t % 2 ? a : b;
        for (size_t p = grid.thread_rank(); p < cells; p += grid.size()) {
            size_t k = p % nx, j = p / nx % ny, i = p / ((size_t)nx * ny);
            if (i < 1 || j < 1 || k < 1 || i + 1 >= nz || j + 1 >= ny || k + 1 >= nx)
                continue;
            v[p] = (u[p - 1] + u[p + 1] + u[p - nx] + u[p + nx] + u[p - (size_t)nx * ny] + u[p + (size_t)nx * ny] -
                    h2 * f[p]) / 6.0f;
        }
        grid.sync();
    }
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    unsigned int nx = p->nx, ny = p->ny, nz = p->nz;
    float h2 = p->h * p->h;
    int iters = p->max_iters;
    void *args[] = {&d_a, &d_b, (void *)&d_f, &nx, &ny, &nz, &h2, &iters};
    cudaError_t err = cudaLaunchCooperativeKernel((void *)jacobi_all_iterations, dim3(132), dim3(256), args, 0, 0);
    *iters_done = err == cudaSuccess ? iters : 0;
    *residual = -1.0f;
    return iters % 2;
}
