// HOSTILE: jacobi_solve copies d_a and d_f to the host, solves on the CPU and copies the grids back with cudaMemcpy host-to-device; empty kernels launched once per iteration fake the launch records
// expect-hint: refused-call
// judge-args: --timeout 90
// backends: gpu emu
// (both backends refuse host copies into and out of the kit's grids while the host function runs: the same words, protocol.h)
// (a lab 5 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: a grader that checks only the grids and counts launches per
// iteration passes a solve done on the CPU. Why it fails: the executor refuses
// any cudaMemcpy between the host and the kit's grids (d_a, d_b, d_f); the
// first copy, of d_a, ends the case.
#include <math.h>
#include <vector>
#include "jacobi.h"

// Launched as the real method launches its kernels, once per iteration each
// (no boundary kernel under Dirichlet); they compute nothing.
__global__ void jacobi_sweep(const float *u, float *v, const float *f)
{
}

__global__ void jacobi_boundary(float *v)
{
}

// The source of position x along an axis of n points (jacobi.h's s).
static size_t source(size_t x, size_t n, int bc)
{
    if (x == 0)
        return bc == LAB_BC_PERIODIC ? n - 2 : 1;
    if (x == n - 1)
        return bc == LAB_BC_PERIODIC ? 1 : n - 2;
    return x;
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    size_t nx = p->nx, ny = p->ny, nz = p->nz, cells = nx * ny * nz, row = nx, plane = nx * ny;
    float h2 = p->h * p->h;
    std::vector<float> u(cells), v(cells), f(cells);
    cudaMemcpy(u.data(), d_a, cells * sizeof(float), cudaMemcpyDeviceToHost);  // the cheat: the grids to the host
    cudaMemcpy(f.data(), d_f, cells * sizeof(float), cudaMemcpyDeviceToHost);
    v = u;  // d_b holds the initial grid too
    float *dev[2] = {d_a, d_b};
    int newest = 0;  // which device buffer u stands for
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 1; t <= p->max_iters; t++) {
        for (size_t i = 1; i + 1 < nz; i++)
            for (size_t j = 1; j + 1 < ny; j++)
                for (size_t k = 1; k + 1 < nx; k++) {
                    size_t q = JACOBI_INDEX(i, j, k, nx, ny);
                    v[q] = (u[q - 1] + u[q + 1] + u[q - row] + u[q + row] + u[q - plane] + u[q + plane] - h2 * f[q]) / 6.0f;
                }
        for (size_t i = 0; p->bc != LAB_BC_DIRICHLET && i < nz; i++)
            for (size_t j = 0; j < ny; j++)
                for (size_t k = 0; k < nx; k++)
                    if (source(i, nz, p->bc) != i || source(j, ny, p->bc) != j || source(k, nx, p->bc) != k)
                        v[JACOBI_INDEX(i, j, k, nx, ny)] =
                            v[JACOBI_INDEX(source(i, nz, p->bc), source(j, ny, p->bc), source(k, nx, p->bc), nx, ny)];
        jacobi_sweep<<<1, 32>>>(dev[newest], dev[newest ^ 1], d_f);
        if (p->bc != LAB_BC_DIRICHLET)
            jacobi_boundary<<<1, 32>>>(dev[newest ^ 1]);
        u.swap(v);
        newest ^= 1;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double sum = 0.0;
            for (size_t i = 1; i + 1 < nz; i++)
                for (size_t j = 1; j + 1 < ny; j++)
                    for (size_t k = 1; k + 1 < nx; k++) {
                        size_t q = JACOBI_INDEX(i, j, k, nx, ny);
                        float d = u[q - 1] + u[q + 1] + u[q - row] + u[q + row] + u[q - plane] + u[q + plane]
                                - 6.0f * u[q] - h2 * f[q];
                        sum += (double)d * d;
                    }
            *residual = (float)sqrt(sum / (double)((nx - 2) * (ny - 2) * (nz - 2)));
            if (*residual < p->tol)
                break;
        }
    }
    cudaMemcpy(dev[newest], u.data(), cells * sizeof(float), cudaMemcpyHostToDevice);  // and the answers back
    cudaMemcpy(dev[newest ^ 1], v.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
    return newest;
}
