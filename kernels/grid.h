// kernels/grid.h — what a sweep lab graded on nx×ny×nz grids gives the
// student's kernel file (lab.conf: `interface = grid`; lab 6).
//
// Include it at the top of your kernel file. It provides:
//   - the seven stencil coefficients c0..c6 in constant memory, as in lab.h
//     (coefficients.h): drawn at random for every case, all different, copied
//     in before your host function runs.
//   - the prototype of the host function you write, launch_sweep().
//   - GRID_INDEX(i, j, k, ny, nx): the linear index of point (i, j, k).
//
// The layout is lab.h's, with three sizes instead of one: i is the plane (z,
// slowest, 0 <= i < nz), j the row (y, 0 <= j < ny), k the column (x, fastest,
// contiguous in memory, 0 <= k < nx). A row holds nx floats, a plane nx*ny.
// The seven-point stencil is
//
//   out[i][j][k] = c0*in[i][j][k]
//                + c1*in[i][j][k-1] + c2*in[i][j][k+1]      (x neighbours: ±1)
//                + c3*in[i][j-1][k] + c4*in[i][j+1][k]      (y neighbours: ±nx)
//                + c5*in[i-1][j][k] + c6*in[i+1][j][k]      (z neighbours: ±nx*ny)
//
// for every interior point 1 <= i <= nz-2, 1 <= j <= ny-2, 1 <= k <= nx-2.
// Boundary cells keep their input values: when your kernel runs, out's
// boundary cells already hold them, so your kernel must write every interior
// cell and nothing else. Any size may be 1, 2 or 3 (no interior, or a single
// layer), and the sizes differ from each other: a kernel that mixes up nx and
// ny, or x and y, fails on most grids.
#ifndef STENCIL_GRID_H
#define STENCIL_GRID_H

#include "coefficients.h"  // c0..c6 in constant memory, and the kit's lab_set_coefficients()

// Linear index of point (i, j, k) of an nx×ny×nz grid stored plane by plane:
// (i*ny + j)*nx + k, computed in size_t (a grid may hold more than 2^32 floats).
#define GRID_INDEX(i, j, k, ny, nx) (((size_t)(i) * (ny) + (size_t)(j)) * (nx) + (size_t)(k))

// ---------------------------------------------------------------------------
// What the student writes
// ---------------------------------------------------------------------------

// Launches the lab's kernel over an nx×ny×nz grid: d_in and d_out are device
// pointers to nx*ny*nz floats each, each starting on a 256-byte boundary (as
// cudaMalloc aligns). Chooses the grid and block, launches, and
// returns without synchronising (the kit synchronises and checks errors).
// Launch on the default stream: creating streams or events is refused (the
// kit orders and times the work itself).
void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz);

#endif // STENCIL_GRID_H
