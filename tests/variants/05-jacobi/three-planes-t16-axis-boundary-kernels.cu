// VARIANT: lab 3's technique for the sweep (a 16x16 block = input tile
// marching OUT_TILE_DIM = 14 planes, three shared planes rotated by
// copying), the boundary step as THREE kernels, one per axis (z faces whole
// in jacobi_boundary, then the y faces for interior i, then the x faces for
// interior i and j: no cell set twice), and a two-pass residual in the
// style of PMPP ch. 10: at most 64 blocks each write their partial sum to
// their own slot of the scratch (no atomics, no memset), and the host adds
// the 64 doubles after copying them back. Correct: the sweep covers every
// interior point once from u; the three boundary launches run after the
// sweep in the same stream and read only interior sources, so their order
// does not matter; the partial sums cover every interior point once. It
// uses the lab's technique: a sweep kernel and separate boundary kernels,
// double buffers; it launches 4 kernels per iteration (Neumann, periodic),
// plus one residual launch per check: on the GPU's timed case (500
// iterations, a check every 50) that is 2010 launches, 4.02 per iteration.
// Expected: every case passes; the technique line should pass too.
#include "jacobi.h"

#include <math.h>

#define IN_TILE_DIM 16                     // the shared planes' edge (the grader's OP/B model reads it)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)
#define FB 16                              // boundary blocks: 16 x 16
#define RES_THREADS 256
#define RES_BLOCKS JACOBI_SCRATCH_DOUBLES  // one scratch slot per block

__global__ void jacobi_sweep(const float *u, float *v, const float *f, unsigned int nx, unsigned int ny,
                             unsigned int nz, float h2)
{
    __shared__ float prev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float curr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float next_s[IN_TILE_DIM][IN_TILE_DIM];
    int x = (int)threadIdx.x, y = (int)threadIdx.y;
    int k = (int)blockIdx.x * OUT_TILE_DIM + x, j = (int)blockIdx.y * OUT_TILE_DIM + y;  // x = 0: halo
    int iStart = (int)blockIdx.z * OUT_TILE_DIM + 1;
    int iEnd = min(iStart + OUT_TILE_DIM, (int)nz - 1);
    bool loads = k < (int)nx && j < (int)ny;
    bool computes = x >= 1 && x <= OUT_TILE_DIM && y >= 1 && y <= OUT_TILE_DIM && k <= (int)nx - 2 && j <= (int)ny - 2;

    prev_s[y][x] = loads ? u[JACOBI_INDEX(iStart - 1, j, k, nx, ny)] : 0.0f;
    curr_s[y][x] = loads ? u[JACOBI_INDEX(iStart, j, k, nx, ny)] : 0.0f;
    for (int i = iStart; i < iEnd; i++) {
        next_s[y][x] = loads ? u[JACOBI_INDEX(i + 1, j, k, nx, ny)] : 0.0f;
        __syncthreads();
        if (computes) {
            size_t p = JACOBI_INDEX(i, j, k, nx, ny);
            v[p] = (curr_s[y][x - 1] + curr_s[y][x + 1] + curr_s[y - 1][x] + curr_s[y + 1][x]
                    + prev_s[y][x] + next_s[y][x] - h2 * f[p]) / 6.0f;
        }
        __syncthreads();
        prev_s[y][x] = curr_s[y][x];
        curr_s[y][x] = next_s[y][x];
    }
}

__device__ __forceinline__ unsigned int wrap(unsigned int x, unsigned int n, int bc)
{
    if (x == 0)
        return bc == LAB_BC_PERIODIC ? n - 2 : 1;
    if (x == n - 1)
        return bc == LAB_BC_PERIODIC ? 1 : n - 2;
    return x;
}

// z faces, whole: (0, j, k) and (nz-1, j, k) for every j, k.
__global__ void jacobi_boundary(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (k >= nx || j >= ny)
        return;
    unsigned int sj = wrap(j, ny, bc), sk = wrap(k, nx, bc);
    v[JACOBI_INDEX(0, j, k, nx, ny)] = v[JACOBI_INDEX(wrap(0, nz, bc), sj, sk, nx, ny)];
    v[JACOBI_INDEX(nz - 1, j, k, nx, ny)] = v[JACOBI_INDEX(wrap(nz - 1, nz, bc), sj, sk, nx, ny)];
}

// y faces for interior planes: (i, 0, k) and (i, ny-1, k), 1 <= i <= nz-2, every k.
__global__ void jacobi_boundary_y(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (k >= nx || i > nz - 2)
        return;
    unsigned int sk = wrap(k, nx, bc);
    v[JACOBI_INDEX(i, 0, k, nx, ny)] = v[JACOBI_INDEX(i, wrap(0, ny, bc), sk, nx, ny)];
    v[JACOBI_INDEX(i, ny - 1, k, nx, ny)] = v[JACOBI_INDEX(i, wrap(ny - 1, ny, bc), sk, nx, ny)];
}

// x faces for interior planes and rows: (i, j, 0) and (i, j, nx-1).
__global__ void jacobi_boundary_x(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    unsigned int j = blockIdx.x * blockDim.x + threadIdx.x + 1, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (j > ny - 2 || i > nz - 2)
        return;
    v[JACOBI_INDEX(i, j, 0, nx, ny)] = v[JACOBI_INDEX(i, j, wrap(0, nx, bc), nx, ny)];
    v[JACOBI_INDEX(i, j, nx - 1, nx, ny)] = v[JACOBI_INDEX(i, j, wrap(nx - 1, nx, bc), nx, ny)];
}

// Block b writes the sum of d^2 over its share of the interior to partial[b].
__global__ void jacobi_residual(const float *u, const float *f, unsigned int nx, unsigned int ny,
                                unsigned int nz, float h2, double *partial)
{
    __shared__ double s[RES_THREADS];
    size_t wx = nx - 2, wy = ny - 2, count = wx * wy * (nz - 2), plane = (size_t)nx * ny;
    double acc = 0.0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < count; q += (size_t)gridDim.x * blockDim.x) {
        size_t p = JACOBI_INDEX(q / (wx * wy) + 1, (q / wx) % wy + 1, q % wx + 1, nx, ny);
        float d = u[p - 1] + u[p + 1] + u[p - nx] + u[p + nx] + u[p - plane] + u[p + plane] - 6.0f * u[p] - h2 * f[p];
        acc += (double)d * d;
    }
    s[threadIdx.x] = acc;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    unsigned int nx = p->nx, ny = p->ny, nz = p->nz;
    float h2 = p->h * p->h;
    dim3 tile(IN_TILE_DIM, IN_TILE_DIM);
    dim3 tiles((nx - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (ny - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
               (nz - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    dim3 fb(FB, FB);
    dim3 gz((nx + FB - 1) / FB, (ny + FB - 1) / FB);
    dim3 gy((nx + FB - 1) / FB, (nz - 2 + FB - 1) / FB);
    dim3 gx((ny - 2 + FB - 1) / FB, (nz - 2 + FB - 1) / FB);
    float *cur = d_a, *nxt = d_b;

    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 1; t <= p->max_iters; t++) {
        jacobi_sweep<<<tiles, tile>>>(cur, nxt, d_f, nx, ny, nz, h2);
        if (p->bc != LAB_BC_DIRICHLET) {
            jacobi_boundary<<<gz, fb>>>(nxt, nx, ny, nz, p->bc);
            jacobi_boundary_y<<<gy, fb>>>(nxt, nx, ny, nz, p->bc);
            jacobi_boundary_x<<<gx, fb>>>(nxt, nx, ny, nz, p->bc);
        }
        float *tmp = cur;
        cur = nxt;
        nxt = tmp;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            double part[RES_BLOCKS], sum = 0.0;
            jacobi_residual<<<RES_BLOCKS, RES_THREADS>>>(cur, d_f, nx, ny, nz, h2, p->d_scratch);
            cudaMemcpy(part, p->d_scratch, sizeof(part), cudaMemcpyDeviceToHost);
            for (int b = 0; b < RES_BLOCKS; b++)
                sum += part[b];
            *residual = (float)sqrt(sum / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
            if (*residual < p->tol)
                break;
        }
    }
    return cur == d_a ? 0 : 1;
}
