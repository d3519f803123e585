// Lab 10 — the 2D heat equation, time stepped (PMPP ch. 8 in two dimensions and in time)
//
// Step the heat equation u_t = alpha * (u_xx + u_yy) on an nx×ny grid: a
// five-point stencil kernel, one launch a time step, ping-ponging between two
// buffers. The grid's rows are padded to 128 bytes so that float4 loads are
// aligned; the tile your block works on has a shape you choose, and
// tests/bench/heat_tile_sweep.sh times the shapes on a GPU. kernels/heat2d.h
// defines the step, the boundary and the layout precisely: read it, and
// handouts/10-heat-2d.md, first. Check your work with
//     make check LAB=10          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=10 EMU=1    (CPU emulation: correctness only)
// The grader draws random grids for every case and prints the seed;
// `make check LAB=10 SEED=<seed> CASE=<size>` replays a failing case exactly.
#include "heat2d.h"

// ---------------------------------------------------------------------------
// The tile
// ---------------------------------------------------------------------------

// The output tile a block owns: TILE_X columns (a multiple of 4, so that a
// thread can own one aligned float4 of a row) by TILE_Y rows. Keep the
// #ifndef: the tuning sweep sets them from outside (-DTILE_X=128 -DTILE_Y=4).
#ifndef TILE_X
#define TILE_X 64
#endif
#ifndef TILE_Y
#define TILE_Y 8
#endif

// ---------------------------------------------------------------------------
// The step
// ---------------------------------------------------------------------------

// TODO(1): one time step from u into v.
//
//   What to compute: at every interior point (1 <= j <= ny-2, 1 <= k <= nx-2)
//         v[j][k] = u[j][k] + r * (u[j][k-1] + u[j][k+1] + u[j-1][k] + u[j+1][k] - 4 * u[j][k])
//     with HEAT_INDEX(j, k, pitch) from heat2d.h: rows are pitch floats apart,
//     not nx. The fast way (handouts/10-heat-2d.md, sections 4 to 6): a block
//     of TILE_X/4 × TILE_Y threads loads its tile and a one-cell halo into
//     shared memory with aligned float4 loads, synchronises, and each thread
//     computes the four points of one float4 and stores them as one float4.
//     Any correct kernel passes: one thread a point with plain loads too.
//   What is allowed: reading u, writing v at interior points only. The
//     boundary cells of v already hold their fixed values (writing the same
//     value back is harmless); never write u, never write a padding cell
//     (columns nx..pitch-1). A float4 that starts inside a row stays inside
//     the stored row, so loading it is safe; storing it is not when the row
//     ends inside it (nx not a multiple of 4): store the row's tail one float
//     at a time.
//   How it is graded: after K steps the grid must match a CPU reference
//     (double precision) within K times a float32 rounding bound a step
//     (labs/10-heat-2d/lab.conf); the padding and the guard zones around the
//     buffers must be untouched.
__global__ void heat_step(const float *u, float *v, unsigned int nx, unsigned int ny, unsigned int pitch, float r)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The host loop
// ---------------------------------------------------------------------------

// TODO(2): the time stepping, as heat2d.h's heat_solve() states it.
//
//   What to do: keep two pointers, cur (the newest grid, d_a at first) and
//     next. For each of the p->steps steps: launch heat_step from cur into
//     next, then swap cur and next. Return 0 if cur is d_a, 1 if it is d_b.
//   What is allowed: kernel launches. Do not allocate (the whole call is
//     timed), do not copy the grids: swapping two pointers is the double
//     buffering, and costs nothing.
//   How it is graded: the returned buffer is checked after every case; the
//     report shows launches per step (one, or fewer if a launch does several
//     steps) and, on a GPU, the time per step and GB/s counting 8 bytes a point.
int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    // your code here
    return 0;
}
