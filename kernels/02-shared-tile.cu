// Lab 2 — shared-memory tiling (PMPP §8.3, Fig 8.8)
//
// The same seven-point sweep as lab 1, but each block first copies its input
// tile (the output tile plus one halo cell on every side) into shared memory,
// and computes from there. Read handouts/02-shared-tile.md first. Check your
// work with
//     make check LAB=2          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=2 EMU=1    (CPU emulation: correctness and technique, no timing)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=2 SEED=<seed>` replays a failing run exactly.
#include "lab.h"

// ---------------------------------------------------------------------------
// The tiles
// ---------------------------------------------------------------------------

// The grader reads these two macros: IN_TILE_DIM (T) goes into the book's OP/B
// model 13(T-2)³/(4T³) and into the technique check, so keep both names and
// keep OUT_TILE_DIM = IN_TILE_DIM - 2. A block of T³ threads must fit in 1024,
// which is why the book stops at T = 8.
#define IN_TILE_DIM 8
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute one output tile per block, from an input tile in shared memory.
//
//   What to compute: the same sweep as lab 1, for every interior point
//   (1 <= i, j, k <= N-2):
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1] + c2*in[i][j][k+1]
//                    + c3*in[i][j-1][k] + c4*in[i][j+1][k]
//                    + c5*in[i-1][j][k] + c6*in[i+1][j][k]
//     (i the plane z, j the row y, k the column x; LAB_INDEX from lab.h).
//     Each block owns an OUT_TILE_DIM³ output tile; its input tile is the
//     IN_TILE_DIM³ cube around it (one halo cell on each side).
//     1. Every thread works out the grid point (i, j, k) of the input-tile cell
//        it loads: the tile's corner is one cell before the output tile's.
//     2. Load the input tile into a __shared__ array. Guard each load by the
//        GRID's bounds (0 <= i, j, k <= N-1), not the tile's: cells outside
//        the grid (ghost cells) are never needed, and reading them is reading
//        outside in[].
//     3. Wait until the whole tile is in shared memory.
//     4. Threads whose point is inside the output tile AND an interior grid
//        point compute it from shared memory; the others (the halo's edge
//        threads, and points on the grid's boundary) write nothing.
//   What is allowed: reading in[] (each input-tile cell once per block) and
//     c0..c6; shared memory; writing out[] at interior points only. Boundary
//     cells of out already hold their input values: do not write them. Do
//     not write in[]. Two organisations are accepted, as in the book: a block
//     of IN_TILE_DIM³ threads, one per input-tile cell (edge threads idle
//     while computing: the book's Fig 8.8), or a block of OUT_TILE_DIM³
//     threads, one per output point, that loop to load the halo too.
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on N = 1 to 256 (sizes that are not
//     multiples of OUT_TILE_DIM too) with random inputs in [-1, 1]; boundary
//     cells unchanged; no cell left unwritten; nothing written outside out[].
//     Technique check: the kernel keeps at least IN_TILE_DIM³ floats of shared
//     memory (static or dynamic) and its block has IN_TILE_DIM³ or
//     OUT_TILE_DIM³ threads; a correct kernel without the tile passes the
//     cases and fails this line. Then N=512 is timed, and OP/B is printed
//     three ways: the book's model for your IN_TILE_DIM, and on a GPU the
//     measured bytes requested from global memory and those read from DRAM.
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The launch
// ---------------------------------------------------------------------------

// TODO(2): launch one block per output tile, so that the tiles cover every
//   interior point of the N×N×N grid, and launch stencil_kernel on
//   (d_in, d_out, N).
//
//   What is allowed: the block your kernel was written for (IN_TILE_DIM³ or
//     OUT_TILE_DIM³ threads); one launch. N need not be a multiple of
//     OUT_TILE_DIM: round the number of tiles up. Do not allocate, copy or
//     synchronise here: the grader times this function alone, and checks
//     CUDA errors itself after it returns.
//   How it is graded: as TODO(1); a launch that fails (for example a block of
//     more than 1024 threads) is reported with CUDA's own error message, and
//     the technique check reads the block and shared memory of this launch.
void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    // your code here
}
