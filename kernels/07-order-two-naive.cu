// Lab 7 — the naive sweep of order 2 (PMPP §8.1-8.2, Fig 8.3D and Fig 8.6)
//
// Lab 1 for the thirteen-point star: one thread per output point, each point
// reading its neighbours one AND two cells away along every axis. Read
// handouts/07-order-two-naive.md first. Check your work with
//     make check LAB=7          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=7 EMU=1    (CPU emulation: correctness only)
// The grader draws random inputs and coefficients for every case and prints the
// seed; `make check LAB=7 SEED=<seed>` replays a failing run exactly.
#include "star13.h"

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute one output point per thread.
//
//   What to compute: for every interior point (2 <= i, j, k <= N-3)
//       out[i][j][k] = c0*in[i][j][k]
//                    + c1*in[i][j][k-1]  + c2*in[i][j][k+1]  + c7*in[i][j][k-2]  + c8*in[i][j][k+2]
//                    + c3*in[i][j-1][k]  + c4*in[i][j+1][k]  + c9*in[i][j-2][k]  + c10*in[i][j+2][k]
//                    + c5*in[i-1][j][k]  + c6*in[i+1][j][k]  + c11*in[i-2][j][k] + c12*in[i+2][j][k]
//     with i the plane (z), j the row (y), k the column (x); LAB_INDEX(i, j, k, N)
//     from lab.h (star13.h includes it) gives the linear index. Map the
//     thread to its point as in lab 1: x to k, y to j, z to i.
//   What is allowed: any block shape; reading in[] and c0..c12; writing out[]
//     at interior points only. The boundary is TWO layers thick: cells with
//     i, j or k equal to 0, 1, N-2 or N-1 already hold their input values in
//     out: do not write them. Do not write in[].
//   How it is graded: every interior cell within a float32 rounding tolerance
//     of a double-precision CPU reference, on N = 1 to 256 (sizes that are
//     not multiples of your block too) with random inputs in [-1, 1]; boundary
//     cells unchanged; no cell left unwritten; nothing written outside out[].
//     Then N=512 is timed and reported in GPoints/s, GB/s and % of the
//     device's measured bandwidth.
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The launch
// ---------------------------------------------------------------------------

// TODO(2): choose a block and a grid that give every point of the N×N×N grid
//   a thread, and launch stencil_kernel on (d_in, d_out, N).
//
//   What is allowed: any block shape of at most 1024 threads; one launch.
//     Do not allocate, copy or synchronise here: the grader times this
//     function alone, and checks CUDA errors itself after it returns.
//   How it is graded: as TODO(1); a launch that fails (for example a block of
//     more than 1024 threads) is reported with CUDA's own error message.
void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    // your code here
}
