// Lab 8 — register tiling of order 2 (PMPP §8.5, Fig 8.12, for the star of Fig 8.3D)
//
// Lab 4's marching block for the thirteen-point star: a point reads two
// planes below and two above, so each thread keeps FIVE values of its own
// column in registers, and the block shares one plane whose x-y neighbours
// one and two cells away the point reads: a halo two cells deep. Read
// handouts/08-order-two-register.md first. Check your work with
//     make check LAB=8          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=8 EMU=1    (CPU emulation: correctness and technique, no timing)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=8 SEED=<seed>` replays a failing run exactly.
#include "star13.h"

// ---------------------------------------------------------------------------
// The tiles
// ---------------------------------------------------------------------------

// The grader reads these two macros: IN_TILE_DIM (T) goes into the book's OP/B
// model 25(T-4)³/(4T³) and into the technique check, so keep both names and
// keep OUT_TILE_DIM = IN_TILE_DIM - 4 (a halo two cells deep on each side).
// A block is T×T threads, at most 1024.
#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 4)

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute an OUT_TILE_DIM-deep column of output tiles per block,
//   plane by plane, with the z neighbours in registers.
//
//   What to compute: the same sweep as lab 7, for every interior point
//   (2 <= i, j, k <= N-3):
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1]  + c2*in[i][j][k+1]  + c7*in[i][j][k-2]  + c8*in[i][j][k+2]
//                    + c3*in[i][j-1][k]  + c4*in[i][j+1][k]  + c9*in[i][j-2][k]  + c10*in[i][j+2][k]
//                    + c5*in[i-1][j][k]  + c6*in[i+1][j][k]  + c11*in[i-2][j][k] + c12*in[i+2][j][k]
//     (i the plane z, j the row y, k the column x; LAB_INDEX from lab.h,
//     which star13.h includes). A block of IN_TILE_DIM × IN_TILE_DIM threads
//     owns output planes iStart .. iStart + OUT_TILE_DIM - 1 of one x-y
//     patch; each thread owns one (j, k) column of the input patch, two
//     cells of halo on each side.
//     1. Five registers per thread hold the thread's own column at planes
//        i-2, i-1, i, i+1 and i+2; one __shared__ plane holds the whole
//        current plane for the x-y neighbours.
//     2. Before the loop, load planes iStart-2 .. iStart+1 into the registers,
//        and store the current one into the shared plane.
//     3. For each output plane i: load plane i+2; wait for the whole block;
//        threads inside the output patch whose point is interior compute
//        out[i][j][k] (x-y neighbours from the shared plane, z neighbours
//        from registers); wait again; then shift the window down one plane
//        and store the new current value into the shared plane.
//     Guard every load by the GRID's bounds (0 <= i, j, k <= N-1). Every
//     thread of the block must reach every __syncthreads().
//   What is allowed: reading in[] and c0..c12; registers; one plane of shared
//     memory; writing out[] at interior points only. The boundary is two
//     layers thick: its cells already hold their input values: do not write
//     them. Do not write in[].
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on N = 1 to 256 (sizes that are not
//     multiples of OUT_TILE_DIM, and ones that leave a single plane for the
//     last block) with random inputs in [-1, 1]; boundary cells unchanged; no
//     cell left unwritten; nothing written outside out[]. Under CPU emulation
//     the cases also run with the threads of each block in another order: a
//     missing barrier shows up there. Technique check: blocks that march in z
//     (far fewer threads than points) and at most one IN_TILE_DIM² plane of
//     shared memory (fewer than three); on a GPU, the kit's count of
//     your loads: at least 4 floats a point from shared memory (half the
//     eight in-plane neighbours), and from global memory no more than
//     filling the planes needs. Then N=512 is timed, and OP/B is printed: the
//     book's model for your IN_TILE_DIM, and with PROFILE=1 the measured one.
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
