// kernels/star13.h — what the thirteen-point labs give the student's kernel
// file (lab.conf: `stencil = star13`; labs 7 and 8).
//
// Include it at the top of your kernel file, instead of lab.h. It provides
// everything lab.h does — LAB_INDEX(i, j, k, N) and the prototype of
// launch_stencil(d_in, d_out, N), your host function — and thirteen
// coefficients c0..c12 in constant memory, drawn at random for every case
// (all different) and copied in before launch_stencil runs.
//
// The star of radius 2 (PMPP Fig 8.3D, "order 2") reaches two cells along each
// axis:
//
//   out[i][j][k] = c0*in[i][j][k]
//                + c1*in[i][j][k-1] + c2*in[i][j][k+1]   + c7*in[i][j][k-2]  + c8*in[i][j][k+2]    (x)
//                + c3*in[i][j-1][k] + c4*in[i][j+1][k]   + c9*in[i][j-2][k]  + c10*in[i][j+2][k]   (y)
//                + c5*in[i-1][j][k] + c6*in[i+1][j][k]   + c11*in[i-2][j][k] + c12*in[i+2][j][k]   (z)
//
// for every interior point 2 <= i, j, k <= N-3: the points at least two cells
// from every face. The boundary is two layers thick: its cells keep their
// input values. When your kernel runs, out's boundary cells already hold
// them, so your kernel must write every interior cell and nothing else. N may
// be 1 to 4 (no interior) or 5 (a single interior point).
#ifndef STENCIL_STAR13_H
#define STENCIL_STAR13_H

#if defined(STENCIL_COEFFICIENTS_H) && STENCIL_RADIUS != 2
#error "star13.h is the header of the thirteen-point labs (lab.conf: stencil = star13), included instead of lab.h, not after it; a seven-point lab's kernel includes lab.h alone"
#endif
#undef STENCIL_RADIUS
#define STENCIL_RADIUS 2  // the star reaches two cells along each axis

#include "lab.h"  // c0..c12 (coefficients.h), LAB_INDEX, launch_stencil

#endif // STENCIL_STAR13_H
