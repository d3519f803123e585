// MUTANT: the barrier between the levels only after the last one: level 2 reads level 1's tile while other threads are still writing it
// expect-hint: nan-computed
// expect-hint: thread-order
// expect-hint: missing-barrier
// parity: hints nan-computed thread-order missing-barrier — a GPU names the race through racecheck (missing-barrier); emulation reads a level's shared cells before any thread wrote them, where its shared memory holds NaN (nan-computed), or its orders disagree (thread-order)
// judge-args: --case 29x41x11
// Under emulation the level-1 cells not yet written still hold the shared memory's NaN poison in both thread
// orders alike; on a GPU racecheck names the race on the sync case.
// (variant tile3d-two-levels with this one mistake; the kit's tests check it fails as expected)
#include "jacobi.h"

#include <math.h>

#define T 10                                  // the input tile's edge, halo included
#define IN_TILE_DIM T
#define OUT_TILE_DIM (T - 4)                  // two iterations a launch

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

__global__ void jacobi_levels(const float *u, float *v, const float *f, int nx, int ny, int nz, int bc, float h2, int levels)
{
    __shared__ float s[2][T][T][T];
    const int first = bc == LAB_BC_DIRICHLET ? 1 : 0, out = T - 2 * levels;
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int x = (int)blockIdx.x * out + first - levels + tx;
    const int y = (int)blockIdx.y * out + first - levels + ty;
    const int z = (int)blockIdx.z * out + first - levels + tz;
    const size_t src = JACOBI_INDEX(source_of(z, nz, bc), source_of(y, ny, bc), source_of(x, nx, bc), nx, ny);
    const bool moves = bc != LAB_BC_DIRICHLET || (x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2 && z >= 1 && z <= nz - 2);
    const float fh = h2 * f[src];
    s[0][tz][ty][tx] = u[src];
    __syncthreads();
    for (int l = 1; l <= levels; l++) {
        const int a = (l - 1) & 1, b = l & 1;
        const bool inner = tx >= l && tx < T - l && ty >= l && ty < T - l && tz >= l && tz < T - l;
        if (inner)
            s[b][tz][ty][tx] = moves ? (s[a][tz][ty][tx - 1] + s[a][tz][ty][tx + 1] + s[a][tz][ty - 1][tx] + s[a][tz][ty + 1][tx] +
                                        s[a][tz - 1][ty][tx] + s[a][tz + 1][ty][tx] - fh) / 6.0f
                                     : s[a][tz][ty][tx];
        if (l == levels)  // MUTANT: the barrier only after the last level
            __syncthreads();
    }
    const bool writes = tx >= levels && tx < T - levels && ty >= levels && ty < T - levels && tz >= levels && tz < T - levels &&
                        x <= nx - 1 - first && y <= ny - 1 - first && z <= nz - 1 - first;
    if (writes)
        v[JACOBI_INDEX(z, y, x, nx, ny)] = s[levels & 1][tz][ty][tx];
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
    float h2 = p->h * p->h;
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 0; t < p->max_iters;) {
        int k = p->max_iters - t >= 2 ? 2 : 1;
        if (p->check_every > 0 && k > p->check_every - t % p->check_every)
            k = 1;
        int out = T - 2 * k, wx = nx - 2 * first, wy = ny - 2 * first, wz = nz - 2 * first;
        dim3 grid((wx + out - 1) / out, (wy + out - 1) / out, (wz + out - 1) / out);
        jacobi_levels<<<grid, dim3(T, T, T)>>>(cur, next, d_f, nx, ny, nz, p->bc, h2, k);
        float *swap = cur;
        cur = next, next = swap, newest ^= 1;
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
