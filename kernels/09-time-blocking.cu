// Lab 9 — several Jacobi iterations a launch (time blocking)
//
// Lab 5 solved the Poisson equation with one sweep (and one boundary step) a
// launch: every iteration reads the whole grid and f from DRAM and writes the
// whole grid back, 12 bytes a point, so no iteration can be faster than the
// copy limit allows. Here one launch does S iterations: a block loads a tile
// with a halo S cells wide, computes S levels of it on chip as it marches in
// z, and writes only the cells that are still right after S levels. Read
// kernels/jacobi.h (the iteration, the boundary conditions, the residual) and
// handouts/09-time-blocking.md first. Check your work with
//     make check LAB=9          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=9 EMU=1    (CPU emulation: correctness only)
// The grader draws random grids for every case and prints the seed;
// `make check LAB=9 SEED=<seed> CASE=<size>` replays a failing case exactly.
#include "jacobi.h"

// ---------------------------------------------------------------------------
// The tiles
// ---------------------------------------------------------------------------

// The grader reads IN_TILE_DIM (a block's tile edge, halo included) and
// OUT_TILE_DIM (the cells a block writes per edge) for the OP/B model:
// S = (IN_TILE_DIM - OUT_TILE_DIM) / 2 iterations a launch. Keep the names.
#define STEPS 4
#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 2 * STEPS)

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): k iterations (1 <= k <= STEPS) from u into v, boundary step included.
//
//   What to compute: v must hold what k iterations of lab 5 (sweep, then
//     boundary step; jacobi.h) make of u. A block owns IN_TILE_DIM ×
//     IN_TILE_DIM columns (x, y) of the grid, OUT_TILE_DIM × OUT_TILE_DIM of
//     them its own and k on each side its halo, and marches up z. At z step
//     q a thread loads level 0 at plane q, then computes level l = 1..k at
//     plane q - l from level l-1 at planes q-l-1, q-l, q-l+1: the z
//     neighbours are its own registers, the four in-plane ones come from the
//     block's shared plane of level l-1 (written one step earlier, read after
//     a barrier). After k levels the cells k or more from the tile's edge are
//     right; write those (level k, plane q - k).
//   The boundary: Dirichlet cells never change (load them, never update
//     them). For Neumann and periodic, load a halo cell from the cell whose
//     value its position holds (jacobi.h's s per axis, continued beyond the
//     first layer: Neumann mirrors about the face, periodic wraps with a
//     period of n-2) and update every cell: the sweep then keeps each
//     boundary cell equal to its source at every level, and the block writes
//     the grid's boundary cells too (no boundary kernel).
//   What is allowed: reading u and f, writing v; never write u. Any layout
//     that does at least two iterations a launch on average passes the
//     technique line; the speed line scores how far past the copy limit
//     (12 bytes a point an iteration) your solve gets.
__global__ void jacobi_steps(const float *u, float *v, const float *f, int nx, int ny, int nz, int bc, float h2,
                             int k)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The residual
// ---------------------------------------------------------------------------

// TODO(2): the residual, as in lab 5 (copy your lab 5 kernel): the sum over
// the interior of d² (jacobi.h) into *sum, in doubles.
__global__ void jacobi_residual(const float *u, const float *f, unsigned int nx, unsigned int ny,
                                unsigned int nz, float h2, double *sum)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The host loop
// ---------------------------------------------------------------------------

// TODO(3): the solve. As lab 5's loop, but each launch does k = STEPS
// iterations, fewer where the next residual check (every p->check_every
// iterations) or the last iteration comes sooner: the checks and the
// iteration count are exactly lab 5's. Return the buffer that holds the newest
// grid (0: d_a, 1: d_b); d_a and d_b both hold the initial grid on entry.
int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p, int *iters_done,
                 float *residual)
{
    // your code here
    *iters_done = 0;
    *residual = -1.0f;
    return 0;
}
