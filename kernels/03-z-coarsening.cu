// Lab 3 — thread coarsening in z (PMPP §8.4, Fig 8.10)
//
// Lab 2's tile is stuck at 8×8×8 because a block holds at most 1024 threads.
// Here a block of IN_TILE_DIM × IN_TILE_DIM threads (one x-y plane of the
// input tile) marches through OUT_TILE_DIM planes in z, keeping three input
// planes in shared memory, so the tile can be 32 wide. Read
// handouts/03-z-coarsening.md first. Check your work with
//     make check LAB=3          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=3 EMU=1    (CPU emulation: correctness and technique, no timing)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=3 SEED=<seed>` replays a failing run exactly.
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
//   plane by plane.
//
//   What to compute: the same sweep as lab 1, for every interior point
//   (1 <= i, j, k <= N-2):
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1] + c2*in[i][j][k+1]
//                    + c3*in[i][j-1][k] + c4*in[i][j+1][k]
//                    + c5*in[i-1][j][k] + c6*in[i+1][j][k]
//     (i the plane z, j the row y, k the column x; LAB_INDEX from lab.h).
//     A block of IN_TILE_DIM × IN_TILE_DIM threads owns the output planes
//     iStart .. iStart + OUT_TILE_DIM - 1 of one OUT_TILE_DIM × OUT_TILE_DIM
//     patch in x-y; each thread owns one (j, k) column of the input patch
//     (one halo cell on each side in x and y).
//     1. Before the loop, load planes iStart-1 and iStart of the input patch
//        into two __shared__ planes (inPrev_s, inCurr_s).
//     2. For each output plane i: load plane i+1 into a third shared plane
//        (inNext_s); wait for the whole block; threads inside the output
//        patch whose point is interior compute out[i][j][k] from the three
//        planes; wait again; then move inCurr_s to inPrev_s and inNext_s to
//        inCurr_s, ready for plane i+1.
//     Guard every load by the GRID's bounds (0 <= i, j, k <= N-1). Every
//     thread of the block must reach every __syncthreads(): a loop bound
//     that depends on the thread is a hang or a wrong answer.
//   What is allowed: reading in[] and c0..c6; shared memory; writing out[]
//     at interior points only. Boundary cells of out already hold their input
//     values: do not write them. Do not write in[].
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on N = 1 to 256 (sizes that are not
//     multiples of OUT_TILE_DIM, and one that leaves a single plane for the
//     last block) with random inputs in [-1, 1]; boundary cells unchanged; no
//     cell left unwritten; nothing written outside out[]. Under CPU emulation
//     the cases also run with the threads of each block in another order: a
//     missing barrier shows up there. Technique check: about N²·N/OUT_TILE_DIM
//     threads launched in all, not one per point, and at least three
//     IN_TILE_DIM² planes of shared memory. Then N=512 is timed, and OP/B is
//     printed three ways: the book's model for your IN_TILE_DIM, and on a GPU
//     the measured bytes requested from global memory and those read from DRAM.
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
//     and shared memory of this launch.
void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    // your code here
}
