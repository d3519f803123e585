// kernels/lab.h — what every sweep lab (1 to 4) gives the student's kernel file.
//
// Include it at the top of your kernel file. It provides:
//   - the seven stencil coefficients c0..c6 in constant memory. The grader draws
//     them at random for every case (all different, so a swapped neighbour or a
//     dropped term cannot pass by symmetry) and copies them in before your
//     launch function runs. Your kernel reads them like ordinary floats.
//   - the prototype of the host function you write, launch_stencil().
//   - LAB_INDEX(i, j, k, N): the linear index the book uses for an N×N×N grid.
//
// Naming follows PMPP §8.2 (Fig 8.6): i is the plane (z, slowest), j the row (y),
// k the column (x, fastest, contiguous in memory). The seven-point stencil is
//
//   out[i][j][k] = c0*in[i][j][k]
//                + c1*in[i][j][k-1] + c2*in[i][j][k+1]      (x neighbours)
//                + c3*in[i][j-1][k] + c4*in[i][j+1][k]      (y neighbours)
//                + c5*in[i-1][j][k] + c6*in[i+1][j][k]      (z neighbours)
//
// for every interior point 1 <= i, j, k <= N-2. Boundary cells keep their input
// values: when your kernel runs, out's boundary cells already hold them, so your
// kernel must write every interior cell and nothing else.
#ifndef STENCIL_LAB_H
#define STENCIL_LAB_H

#include "coefficients.h"  // c0..c6 in constant memory, and the kit's lab_set_coefficients()

// Linear index of point (i, j, k) of an N×N×N grid stored plane by plane.
#define LAB_INDEX(i, j, k, N) ((size_t)(i) * (N) * (N) + (size_t)(j) * (N) + (k))

// ---------------------------------------------------------------------------
// What the student writes (one kernel file per lab)
// ---------------------------------------------------------------------------

// Launches the lab's kernel over an N×N×N grid: d_in and d_out are device
// pointers to N*N*N floats each, each starting on a 256-byte boundary (as
// cudaMalloc aligns). Chooses the grid and block, launches, and
// returns without synchronising (the kit synchronises and checks errors).
// Launch on the default stream: creating streams or events is refused (the
// kit orders and times the work itself).
void launch_stencil(float *d_in, float *d_out, unsigned int N);

#endif // STENCIL_LAB_H
