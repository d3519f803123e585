// Lab 6 — past the book: the sweep at the copy limit
//
// The seven-point sweep of labs 1-4, on grids of any shape (nx × ny × nz), as
// fast as the GPU's memory allows: every point must be read once and written
// once, so the sweep can be no faster than a copy of the grid. Read
// handouts/06-past-the-book.md first. Check your work with
//     make check LAB=6          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=6 EMU=1    (CPU emulation: correctness only, no timing)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=6 SEED=<seed>` replays a failing run exactly.
#include "grid.h"

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute the sweep over an nx × ny × nz grid, as fast as you can.
//
//   What to compute: for every interior point (1 <= i <= nz-2,
//   1 <= j <= ny-2, 1 <= k <= nx-2)
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1] + c2*in[i][j][k+1]
//                    + c3*in[i][j-1][k] + c4*in[i][j+1][k]
//                    + c5*in[i-1][j][k] + c6*in[i+1][j][k]
//     with i the plane (z), j the row (y), k the column (x, contiguous);
//     GRID_INDEX(i, j, k, ny, nx) from grid.h gives the linear index. A row
//     holds nx floats, a plane nx*ny: the three sizes differ from case to
//     case, and a plane may be 4096 × 4096 while the grid is 32 planes deep.
//   What is allowed: any kernel shape, block shape and tiling; registers,
//     shared memory, the read-only path (const __restrict__, __ldg), vector
//     loads where the alignment allows them; reading in[] and c0..c6; writing
//     out[] at interior points only. Boundary cells of out already hold their
//     input values: do not write them. Do not write in[].
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on odd grids from 2x9x5 (no
//     interior) to 257x129x65, with random inputs in [-1, 1]; boundary cells
//     unchanged; no cell left unwritten; nothing written outside out[]. Then
//     on a GPU the 512³ cube and the 4096x4096x32 grid are timed: GB/s (8
//     bytes per interior point) as a share of the copy limit measured in the
//     same run. Full speed points at 85% of it, none at 50%.
__global__ void stencil_kernel(const float *in, float *out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The launch
// ---------------------------------------------------------------------------

// TODO(2): choose a block and a grid for the nx × ny × nz grid (each grid
//   dimension from its own size) and launch your kernel on (d_in, d_out, nx,
//   ny, nz).
//
//   What is allowed: one launch of blocks of at most 1024 threads (a grid's y
//     and z dimensions may hold at most 65535 blocks). Do not allocate, copy
//     or synchronise here: the grader times this function alone, and checks
//     CUDA errors itself after it returns.
//   How it is graded: as TODO(1); a launch that fails is reported with CUDA's
//     own error message. The technique line asks for one launch whose threads
//     spread the sweep over the GPU (at least 4096 of them, or one per point,
//     or one per 1024 points where that is fewer).
void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    // your code here
}
