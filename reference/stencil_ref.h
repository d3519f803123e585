// reference/stencil_ref.h — the CPU reference sweeps the grader trusts.
//
// Plain loops, accumulation in double. Grids are stored plane by plane: point
// (i, j, k) of an nz×ny×nx grid (i the plane z, j the row y, k the column x)
// is at index (i*ny + j)*nx + k, as in PMPP §8.2.
#ifndef STENCIL_REF_H
#define STENCIL_REF_H

#include <stddef.h>

#include "protocol.h"  // the star's radius, its coefficients' order and its interior (STENCIL_*)

// The seven coefficients of the radius-1 star, in the order c0..c6:
// centre, x-1, x+1, y-1, y+1, z-1, z+1. A star of radius r has
// STENCIL_NCOEF(r) = 6r + 1, c7..c12 the same six neighbours two cells away.
#define REF_NCOEF STENCIL_NCOEF(1)

// The book's count of operations for one point of a star of radius r: a
// multiply for each of its 6r + 1 points and an add for all but one, 12r + 1
// (13 for the seven-point star). The OP/B models and the measured OP/B use it.
double reference_flops(int radius);

// The value of the star of radius r at interior point (i, j, k) of in, in
// double; *scale receives the sum of the terms' magnitudes sum|c_n x_n|
// (the size of float32 rounding error is measured against it). c holds
// STENCIL_NCOEF(radius) coefficients. Terms are summed centre first, then
// distance by distance x-, x+, y-, y+, z-, z+. The caller guarantees the
// point is interior (reference_is_interior).
double reference_point(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k,
                       const double *c, int radius, double *scale);

// reference_point at points k0 .. k1-1 of row (i, j), all interior: want[k -
// k0] and scale[k - k0] (the judge's check of a sample, a row at a time).
void reference_points_row(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k0, size_t k1,
                          const double *c, int radius, double *want, double *scale);

// One sweep of the star of radius r (the gold of the sweep labs): out =
// stencil(in) at interior points, out = in at boundary points (the r layers
// at each face). out is double so the reference keeps its precision; in and
// out must not overlap.
void reference_sweep(const float *in, double *out, size_t nx, size_t ny, size_t nz,
                     const double *c, int radius);

// The value of a 2D convolution of radius r at pixel (row, col) of a
// width×height image, in double (PMPP §7.1): the sum over i, j in [-r, r] of
// f[(i+r)*(2r+1) + j+r] * in[row+i][col+j], pixels outside the image (ghost
// cells) counting as 0. *scale receives sum |f x| over the terms.
double reference_conv_point(const float *in, size_t width, size_t height, size_t row, size_t col,
                            const double *f, int r, double *scale);

// 1 if (i, j, k) is an interior point of an nz×ny×nx grid for a star of
// radius r (at least r cells from every face), else 0.
int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k, int radius);

#endif // STENCIL_REF_H
