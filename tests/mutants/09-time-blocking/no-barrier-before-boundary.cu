// MUTANT: no __syncthreads() between the sweep and the boundary step of the one-block kernel: a thread copies a boundary cell's source before the thread that sweeps it has written this iteration's value
// expect-hint: thread-order
// expect-hint: boundary-race
// parity: hints thread-order boundary-race — a race between the boundary's writes and the interior's reads: which hint shows depends on the order the threads ran in (emulation's two orders disagreeing: thread-order; the boundary's pattern: boundary-race)
// judge-args: --case 29x41x11
// (variant one-block-all-iterations with this one mistake; the kit's tests check it fails as expected)
#include "jacobi.h"

#include <math.h>

#define THREADS 1024

__device__ int source(int x, int n, int bc)
{
    if (x >= 1 && x <= n - 2)
        return x;
    if (bc == LAB_BC_NEUMANN)
        return x == 0 ? 1 : n - 2;
    return x == 0 ? n - 2 : 1;  // periodic
}

__global__ void jacobi_persistent(float *a, float *b, const float *f, int nx, int ny, int nz, int bc, float h2, int iters)
{
    const size_t row = nx, plane = (size_t)nx * ny, cells = plane * nz;
    const size_t wx = nx - 2, wy = ny - 2, interior = wx * wy * (nz - 2);
    float *u = a, *v = b;
    for (int t = 0; t < iters; t++) {
        for (size_t q = threadIdx.x; q < interior; q += THREADS) {
            size_t k = q % wx + 1, j = (q / wx) % wy + 1, i = q / (wx * wy) + 1, p = JACOBI_INDEX(i, j, k, nx, ny);
            v[p] = (u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane] - h2 * f[p]) / 6.0f;
        }
        // MUTANT: no __syncthreads() here: the sweep may not be done where a boundary cell copies from
        if (bc != LAB_BC_DIRICHLET)
            for (size_t p = threadIdx.x; p < cells; p += THREADS) {
                int k = (int)(p % row), j = (int)((p / row) % ny), i = (int)(p / plane);
                int sk = source(k, nx, bc), sj = source(j, ny, bc), si = source(i, nz, bc);
                if (sk != k || sj != j || si != i)
                    v[p] = v[JACOBI_INDEX(si, sj, sk, nx, ny)];
            }
        __syncthreads();  // the new grid is whole before the next iteration reads it
        float *w = u;
        u = v, v = w;
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
    int newest = 0, nx = (int)p->nx, ny = (int)p->ny, nz = (int)p->nz;
    float h2 = p->h * p->h;
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 0; t < p->max_iters;) {
        int k = p->max_iters - t;
        if (p->check_every > 0 && k > p->check_every - t % p->check_every)
            k = p->check_every - t % p->check_every;  // stop at the next check
        jacobi_persistent<<<1, THREADS>>>(cur, next, d_f, nx, ny, nz, p->bc, h2, k);
        if (k % 2) {  // an odd count leaves the newest grid in the other buffer
            float *swap = cur;
            cur = next, next = swap, newest ^= 1;
        }
        t += k;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double sum = 0.0;
            cudaMemset(p->d_scratch, 0, sizeof(double));
            jacobi_residual<<<64, 256>>>(cur, d_f, nx, ny, nz, h2, p->d_scratch);
            cudaMemcpy(&sum, p->d_scratch, sizeof(double), cudaMemcpyDeviceToHost);
            *residual = (float)sqrt(sum / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
            if (*residual < p->tol)
                break;
        }
    }
    return newest;
}
