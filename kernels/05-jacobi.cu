// Lab 5 — Jacobi iteration with boundary conditions (PMPP ch. 8 carried into time)
//
// Solve the Poisson equation ∇²u = f by Jacobi iteration: a sweep kernel,
// a separate boundary kernel, a residual reduction, and a host loop that
// ping-pongs between two buffers. kernels/jacobi.h defines the iteration, the
// three boundary conditions and the residual precisely: read it, and
// handouts/05-jacobi.md, first. Check your work with
//     make check LAB=5          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=5 EMU=1    (CPU emulation: correctness only)
// The grader draws random grids for every case and prints the seed;
// `make check LAB=5 SEED=<seed> CASE=<size>` replays a failing case exactly.
#include "jacobi.h"

// ---------------------------------------------------------------------------
// The tiles
// ---------------------------------------------------------------------------

// The grader reads IN_TILE_DIM, the edge of the input tile your shared plane
// holds (an output tile of OUT_TILE_DIM² points plus its one-cell halo), for
// the OP/B model of the sweep. Keep the names if you tile; any correct sweep
// passes. Two layouts work (handouts/05-jacobi.md, section 6): lab 4's, a
// block of IN_TILE_DIM² threads where the edge threads only load; or a block
// of OUT_TILE_DIM² threads, one per output column, where the edge threads
// also load the halo cell beyond them.
#define OUT_TILE_DIM 16
#define IN_TILE_DIM (OUT_TILE_DIM + 2)

// ---------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------

// TODO(1): one Jacobi sweep from u into v.
//
//   What to compute: at every interior point (1 <= i <= nz-2, 1 <= j <= ny-2,
//       1 <= k <= nx-2)
//         v[i][j][k] = (u[i][j][k-1] + u[i][j][k+1] + u[i][j-1][k] + u[i][j+1][k]
//                       + u[i-1][j][k] + u[i+1][j][k] - h2*f[i][j][k]) / 6
//     with h2 = h*h and JACOBI_INDEX(i, j, k, nx, ny) from jacobi.h. Use any
//     technique of labs 1-4; register tiling (a block marching OUT_TILE_DIM
//     planes in z, each thread's z neighbours in a ring of three registers,
//     one shared x-y plane) is the fast one. The grid is rectangular: nx, ny
//     and nz differ, and none need be a multiple of a tile.
//   What is allowed: reading u and f, writing v at interior points only. Never
//     write u: a sweep that writes the grid it reads is Gauss–Seidel, not
//     Jacobi, and its result depends on the order threads run in.
//   How it is graded: after K iterations the grid must match a CPU reference
//     (double precision) within K times a float32 rounding bound per
//     iteration; see labs/05-jacobi/lab.conf.
__global__ void jacobi_sweep(const float *u, float *v, const float *f, unsigned int nx, unsigned int ny,
                             unsigned int nz, float h2)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The boundary
// ---------------------------------------------------------------------------

// TODO(2): the boundary step on v, after the sweep into v has finished.
//
//   What to compute: every boundary cell (i, j or k on the first or last
//     layer of its axis) takes the value of its source cell,
//         v[i][j][k] = v[s(i)][s(j)][s(k)],
//     s applied per axis of n points: s(x) = x inside; Neumann s(0) = 1,
//     s(n-1) = n-2; periodic s(0) = n-2, s(n-1) = 1. Edges and corners apply
//     s on two or three axes. Dirichlet: nothing to do (its boundary cells
//     never change; both buffers already hold them).
//   What is allowed: any launch shape; reading v's interior, writing v's
//     boundary. Every source is interior, so the order of the writes does not
//     matter — but the sweep must be complete first: launch this kernel after
//     the sweep, in the same stream. Fusing it into the sweep kernel reads
//     interior cells other blocks may not have written yet.
//   How it is graded: cases with each boundary condition; a wrong face, edge
//     or corner is named in the report (periodic wrap, Neumann side, stale
//     boundary values).
__global__ void jacobi_boundary(float *v, unsigned int nx, unsigned int ny, unsigned int nz, int bc)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The residual
// ---------------------------------------------------------------------------

// TODO(3): add the sum over the interior of d*d to *sum, where
//         d = (sum of the six neighbours of u) - 6*u[i][j][k] - h2*f[i][j][k].
//
//   What is allowed: any reduction: each thread sums some points (a
//     grid-stride loop), then the block combines its threads' sums (warp
//     shuffles or shared memory and __syncthreads), and one thread per block
//     adds the block's sum with atomicAdd. Accumulate in double: a float sum
//     of a million squares loses digits.
//   How it is graded: jacobi_solve's reported residual must match the
//     reference's within rounding, and early stopping must happen at the
//     same check as the reference's.
__global__ void jacobi_residual(const float *u, const float *f, unsigned int nx, unsigned int ny,
                                unsigned int nz, float h2, double *sum)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The host loop
// ---------------------------------------------------------------------------

// TODO(4): the iteration, as jacobi.h's jacobi_solve() states it.
//
//   What to do: keep two pointers, cur (the newest grid, d_a at first) and
//     next. For t = 1 .. p->max_iters: sweep cur -> next; boundary step on
//     next (not for Dirichlet); swap cur and next; *iters_done = t. When
//     p->check_every > 0 and t % p->check_every == 0: zero a double in
//     p->d_scratch (cudaMemset), launch jacobi_residual on cur, copy the sum
//     back (cudaMemcpy, which waits for the kernels), set
//     *residual = sqrt(sum / N) with N = (nx-2)(ny-2)(nz-2), and stop if it
//     is below p->tol. Return 0 if cur is d_a, 1 if it is d_b.
//   What is allowed: kernel launches, cudaMemset and cudaMemcpy of the
//     scratch. Do not allocate (the whole call is timed) and do not copy the
//     grids back and forth: both buffers stay on the device.
//   How it is graded: the returned buffer, *iters_done and *residual are all
//     checked; the report shows launches per iteration (a sweep and a
//     boundary kernel: about 2) and, on a GPU, the time per iteration.
int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    *iters_done = 0;
    *residual = -1.0f;
    // your code here
    return 0;
}
