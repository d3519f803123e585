// Lab 4 — register tiling (PMPP §8.5, Fig 8.12)
//
// Lab 3's marching block again, but each thread keeps its own column's z
// neighbours (previous, current and next plane) in registers: only the
// current plane is read by other threads, so only it stays in shared memory,
// a third of lab 3's. Read handouts/04-register-tiling.md first. Check your
// work with
//     make check LAB=4          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=4 EMU=1    (CPU emulation: correctness and technique, no timing)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=4 SEED=<seed>` replays a failing run exactly.
#include "lab.h"

// ---------------------------------------------------------------------------
// The tiles
// ---------------------------------------------------------------------------

// The grader reads these two macros: IN_TILE_DIM (T) goes into the book's OP/B
// model 13(T-2)³/(4T³) and into the technique check, so keep both names and
// keep OUT_TILE_DIM = IN_TILE_DIM - 2. A block is T×T threads, at most 1024.
#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute an OUT_TILE_DIM-deep column of output tiles per block,
//   plane by plane, with the z neighbours in registers.
//
//   What to compute: the same sweep as lab 1, for every interior point
//   (1 <= i, j, k <= N-2):
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1] + c2*in[i][j][k+1]
//                    + c3*in[i][j-1][k] + c4*in[i][j+1][k]
//                    + c5*in[i-1][j][k] + c6*in[i+1][j][k]
//     (i the plane z, j the row y, k the column x; LAB_INDEX from lab.h).
//     Blocks and threads as in lab 3: a block of IN_TILE_DIM × IN_TILE_DIM
//     threads owns output planes iStart .. iStart + OUT_TILE_DIM - 1 of one
//     x-y patch; each thread owns one (j, k) column of the input patch.
//     1. Three registers per thread, inPrev, inCurr and inNext, hold the
//        thread's own column at planes i-1, i and i+1; one __shared__ plane,
//        inCurr_s, holds the whole current plane for the x-y neighbours.
//     2. Before the loop, load inPrev (plane iStart-1) and inCurr (plane
//        iStart), and store inCurr into inCurr_s.
//     3. For each output plane i: load inNext (plane i+1); wait for the whole
//        block; threads inside the output patch whose point is interior
//        compute out[i][j][k] (x-y neighbours from inCurr_s, the rest from
//        registers); wait again; then shift inPrev <- inCurr <- inNext and
//        store the new inCurr into inCurr_s.
//     Guard every load by the GRID's bounds (0 <= i, j, k <= N-1). Every
//     thread of the block must reach every __syncthreads().
//   What is allowed: reading in[] and c0..c6; registers; one plane of shared
//     memory; writing out[] at interior points only. Boundary cells of out
//     already hold their input values: do not write them. Do not write in[].
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on N = 1 to 256 (sizes that are not
//     multiples of OUT_TILE_DIM, and one that leaves a single plane for the
//     last block) with random inputs in [-1, 1]; boundary cells unchanged; no
//     cell left unwritten; nothing written outside out[]. Under CPU emulation
//     the cases also run with the threads of each block in another order: a
//     missing barrier shows up there. Technique check: about N²·N/OUT_TILE_DIM
//     threads launched in all, not one per point, and at most one
//     IN_TILE_DIM² plane of shared memory (lab 3's three planes fail it).
//     Then N=512 is timed, and OP/B is printed three ways: the book's model
//     for your IN_TILE_DIM, and on a GPU the measured bytes requested from
//     global memory and those read from DRAM.
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The launch
// ---------------------------------------------------------------------------

// TODO(2): launch blocks of IN_TILE_DIM × IN_TILE_DIM threads: enough in x and
//   y for the OUT_TILE_DIM-wide patches to cover the grid, and enough in z
//   for the OUT_TILE_DIM-deep columns to cover its planes. Launch
//   stencil_kernel on (d_in, d_out, N).
//
//   What is allowed: one launch; blocks of at most 1024 threads. N need not
//     be a multiple of OUT_TILE_DIM: round up. Do not allocate, copy or
//     synchronise here: the grader times this function alone, and checks
//     CUDA errors itself after it returns.
//   How it is graded: as TODO(1); the technique check reads the grid, block
//     and shared memory of this launch. Where each thread computes several
//     rows of its tile, lay the grid out as (tiles in x, tiles in y, z
//     chunks): the check reads the tile's size from it.
void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    // your code here
}
