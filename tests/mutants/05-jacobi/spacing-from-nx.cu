// MUTANT: the host loop ignores p->h and uses h = 1/(nx-1) ("the grid spans the unit cube"): right only when the case's h is the default 1/(nx-1); any other spacing gets the wrong source term h²f.
// expect-hint: wrong-values
// Lab 5 solution — Jacobi iteration with boundary conditions. Instructors only.
//
// Three kernels and a host loop:
//   jacobi_sweep     register tiling as in lab 4, laid out as in the SRC
//                    write-up (handouts/05-jacobi.md, section 6): a block is
//                    the OUT_TILE_DIM × OUT_TILE_DIM output tile, marching
//                    OUT_TILE_DIM planes in z; each thread keeps its column's
//                    planes i-1, i, i+1 in a ring of three registers, and one
//                    shared IN_TILE_DIM × IN_TILE_DIM plane (the output tile
//                    and its halo, which edge threads load) serves the x-y
//                    neighbours. On an H200 this layout ran a 512x512x64 sweep
//                    twice as fast as lab 4's (a block the size of the input tile).
//   jacobi_boundary  sets every boundary cell from its source (jacobi.h), one
//                    thread per pair of opposite boundary cells; launched after
//                    the sweep, in the same stream, so it sees the whole new
//                    interior (a kernel boundary is the grid-wide barrier).
//   jacobi_residual  the h²-scaled residual's sum of squares: a grid-stride
//                    loop, a warp shuffle reduction, one double atomicAdd per block.
// jacobi_solve ping-pongs between the two buffers: read one, write the other,
// swap — never in place.
#include "jacobi.h"

#include <math.h>

#define OUT_TILE_DIM 16                    // a block: OUT_TILE_DIM² threads, one per interior column
#define IN_TILE_DIM (OUT_TILE_DIM + 2)     // the shared plane: output tile plus halo (the grader's OP/B model reads it)
#define FACE_BLOCK_X 32                    // boundary kernel block: 32 × 8 threads
#define FACE_BLOCK_Y 8
#define RESIDUAL_BLOCK 256                 // residual kernel block (a multiple of 32)
#define RESIDUAL_MAX_BLOCKS 1024           // grid-stride beyond this

// ---------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------

// Stores plane cell p into the shared plane at (y, x): the thread's own value,
// and the halo cell beyond it if the thread sits on the tile's edge (or the
// grid's last interior row or column).
__device__ void load_plane(float (*plane_s)[IN_TILE_DIM], const float *u, size_t p, float here, int y, int x,
                           bool last_k, bool last_j, unsigned int nx)
{
    plane_s[y][x] = here;
    if (x == 1)
        plane_s[y][0] = u[p - 1];
    if (x == OUT_TILE_DIM || last_k)
        plane_s[y][x + 1] = u[p + 1];
    if (y == 1)
        plane_s[0][x] = u[p - nx];
    if (y == OUT_TILE_DIM || last_j)
        plane_s[y + 1][x] = u[p + nx];
}

// One Jacobi sweep from u into v at interior points (v's boundary untouched).
// Thread (tx, ty) of block (bx, by, bz) owns the interior column
// (j, k) = (by*OUT_TILE_DIM + ty + 1, bx*OUT_TILE_DIM + tx + 1) and the block
// computes planes bz*OUT_TILE_DIM + 1 up to OUT_TILE_DIM of them, before nz-1.
__global__ void jacobi_sweep(const float *u, float *v, const float *f, unsigned int nx, unsigned int ny,
                             unsigned int nz, float h2)
{
    __shared__ float plane_s[IN_TILE_DIM][IN_TILE_DIM];
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) + 1;
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) + 1;
    int x = (int)threadIdx.x + 1, y = (int)threadIdx.y + 1;  // position in plane_s
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM) + 1;
    int iEnd = min(iStart + OUT_TILE_DIM, (int)nz - 1);      // the same for every thread of the block
    bool mine = k <= (int)nx - 2 && j <= (int)ny - 2;       // an interior column
    size_t plane = (size_t)nx * ny, p = JACOBI_INDEX(iStart, j, k, nx, ny);

    float below = 0.0f, here = 0.0f, above = 0.0f;  // the register ring: planes i-1, i, i+1
    if (mine) {
        below = u[p - plane];
        here = u[p];
    }
    for (int i = iStart; i < iEnd; i++, p += plane) {
        float fi = 0.0f;
        if (mine) {
            above = u[p + plane];
            fi = f[p];
            load_plane(plane_s, u, p, here, y, x, k == (int)nx - 2, j == (int)ny - 2, nx);
        }
        __syncthreads();  // plane_s holds plane i, halo included

        if (mine) {
            float sum = plane_s[y][x - 1] + plane_s[y][x + 1] + plane_s[y - 1][x] + plane_s[y + 1][x] + below + above;
            v[p] = (sum - h2 * fi) / 6.0f;
        }
        __syncthreads();  // nobody reads plane_s any more

        below = here;
        here = above;
    }
}

// ---------------------------------------------------------------------------
// The boundary
// ---------------------------------------------------------------------------

// The source of position x along an axis of n points (jacobi.h's s).
__device__ unsigned int jacobi_source(unsigned int x, unsigned int n, int bc)
{
    if (x == 0)
        return bc == LAB_BC_PERIODIC ? n - 2 : 1;
    if (x == n - 1)
        return bc == LAB_BC_PERIODIC ? 1 : n - 2;
    return x;
}

// Copies boundary cell (i, j, k) of v from its source.
__device__ void jacobi_set_boundary(float *v, unsigned int i, unsigned int j, unsigned int k, unsigned int nx,
                                    unsigned int ny, unsigned int nz, int bc)
{
    unsigned int si = jacobi_source(i, nz, bc), sj = jacobi_source(j, ny, bc), sk = jacobi_source(k, nx, bc);
    v[JACOBI_INDEX(i, j, k, nx, ny)] = v[JACOBI_INDEX(si, sj, sk, nx, ny)];
}

// The boundary step on v. blockIdx.z picks a pair of opposite faces, and the
// three pairs share out the boundary cells without overlap: 0 the z faces
// (i = 0, nz-1) whole; 1 the y faces (j = 0, ny-1) for interior i; 2 the x
// faces (k = 0, nx-1) for interior i and j. A thread (a, b) sets the cell at
// (a, b) on both faces of its pair.
__global__ void jacobi_boundary(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    unsigned int a = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int b = blockIdx.y * blockDim.y + threadIdx.y;
    if (blockIdx.z == 0 && a < nx && b < ny) {
        jacobi_set_boundary(v, 0, b, a, nx, ny, nz, bc);
        jacobi_set_boundary(v, nz - 1, b, a, nx, ny, nz, bc);
    } else if (blockIdx.z == 1 && a < nx && b < nz - 2) {
        jacobi_set_boundary(v, b + 1, 0, a, nx, ny, nz, bc);
        jacobi_set_boundary(v, b + 1, ny - 1, a, nx, ny, nz, bc);
    } else if (blockIdx.z == 2 && a < ny - 2 && b < nz - 2) {
        jacobi_set_boundary(v, b + 1, a + 1, 0, nx, ny, nz, bc);
        jacobi_set_boundary(v, b + 1, a + 1, nx - 1, nx, ny, nz, bc);
    }
}

// ---------------------------------------------------------------------------
// The residual
// ---------------------------------------------------------------------------

// Adds the sum over the interior of d² (jacobi.h) to *sum.
__global__ void jacobi_residual(const float *u, const float *f, unsigned int nx, unsigned int ny,
                                unsigned int nz, float h2, double *sum)
{
    size_t wx = nx - 2, wy = ny - 2, n = wx * wy * (nz - 2);
    size_t row = nx, plane = (size_t)nx * ny;
    double acc = 0.0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < n; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % wx + 1, j = (q / wx) % wy + 1, i = q / (wx * wy) + 1;
        size_t p = JACOBI_INDEX(i, j, k, nx, ny);
        float d = u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane]
                - 6.0f * u[p] - h2 * f[p];
        acc += (double)d * d;
    }
    __shared__ double warp_sums[RESIDUAL_BLOCK / 32];
    unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (lane == 0)
        warp_sums[warp] = acc;
    __syncthreads();  // every warp's sum is in warp_sums
    if (warp == 0) {
        acc = lane < RESIDUAL_BLOCK / 32 ? warp_sums[lane] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, offset);
        if (lane == 0)
            atomicAdd(sum, acc);
    }
}

// ---------------------------------------------------------------------------
// The host loop
// ---------------------------------------------------------------------------

// Launches one sweep from u into v: one block per output tile of the
// interior ((n-2) points per axis, rounded up to whole tiles).
static void launch_sweep(const float *u, float *v, const float *f, const jacobi_problem *p)
{
    float h = 1.0f / (float)(p->nx - 1);
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM, 1);
    dim3 grid((p->nx - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (p->ny - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
              (p->nz - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    jacobi_sweep<<<grid, block>>>(u, v, f, p->nx, p->ny, p->nz, h * h);
}

// Launches the boundary step on v (Dirichlet has none: nothing is launched).
static void launch_boundary(float *v, const jacobi_problem *p)
{
    if (p->bc == LAB_BC_DIRICHLET)
        return;
    unsigned int wide = p->nx > p->ny ? p->nx : p->ny, high = p->ny > p->nz ? p->ny : p->nz;
    dim3 block(FACE_BLOCK_X, FACE_BLOCK_Y, 1);
    dim3 grid((wide + FACE_BLOCK_X - 1) / FACE_BLOCK_X, (high + FACE_BLOCK_Y - 1) / FACE_BLOCK_Y, 3);
    jacobi_boundary<<<grid, block>>>(v, p->nx, p->ny, p->nz, p->bc);
}

// Computes the residual of u on the device; returns it (synchronises).
static float residual_of(const float *u, const float *f, const jacobi_problem *p)
{
    size_t n = (size_t)(p->nx - 2) * (p->ny - 2) * (p->nz - 2);
    size_t blocks = (n + 4 * RESIDUAL_BLOCK - 1) / (4 * RESIDUAL_BLOCK);  // at least 4 points a thread
    double sum = 0.0;
    float h = 1.0f / (float)(p->nx - 1);
    cudaMemset(p->d_scratch, 0, sizeof(double));
    jacobi_residual<<<blocks < RESIDUAL_MAX_BLOCKS ? blocks : RESIDUAL_MAX_BLOCKS, RESIDUAL_BLOCK>>>(
        u, f, p->nx, p->ny, p->nz, h * h, p->d_scratch);
    cudaMemcpy(&sum, p->d_scratch, sizeof(double), cudaMemcpyDeviceToHost);
    return (float)sqrt(sum / (double)n);
}

int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    float *cur = d_a, *next = d_b;
    int newest = 0;  // which buffer cur is
    *iters_done = 0;
    *residual = -1.0f;
    for (int t = 1; t <= p->max_iters; t++) {
        launch_sweep(cur, next, d_f, p);
        launch_boundary(next, p);
        float *swap = cur;
        cur = next;
        next = swap;
        newest ^= 1;
        *iters_done = t;
        if (p->check_every > 0 && t % p->check_every == 0) {
            *residual = residual_of(cur, d_f, p);
            if (*residual < p->tol)
                break;
        }
    }
    return newest;
}
