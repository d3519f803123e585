// reference/stencil_ref.h — the CPU reference sweeps the grader trusts.
//
// Plain loops, accumulation in double. Grids are stored plane by plane: point
// (i, j, k) of an nz×ny×nx grid (i the plane z, j the row y, k the column x)
// is at index (i*ny + j)*nx + k, as in PMPP §8.2.
#ifndef STENCIL_REF_H
#define STENCIL_REF_H

#include <stddef.h>

// The seven coefficients of a star stencil, in the order c0..c6:
// centre, x-1, x+1, y-1, y+1, z-1, z+1.
#define REF_NCOEF 7

// The value of the seven-point stencil at interior point (i, j, k) of in, in
// double; *scale receives the sum of the terms' magnitudes sum|c_n x_n|
// (the size of float32 rounding error is measured against it). The caller
// guarantees 1 <= i < nz-1, 1 <= j < ny-1, 1 <= k < nx-1.
double reference_point7(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k,
                        const double c[REF_NCOEF], double *scale);

// One seven-point sweep (the gold of labs 1-4): out = stencil(in) at interior
// points, out = in at boundary points. out is double so the reference keeps
// its precision; in and out must not overlap.
void reference_sweep7(const float *in, double *out, size_t nx, size_t ny, size_t nz,
                      const double c[REF_NCOEF]);

// The value of a 2D convolution of radius r at pixel (row, col) of a
// width×height image, in double (PMPP §7.1): the sum over i, j in [-r, r] of
// f[(i+r)*(2r+1) + j+r] * in[row+i][col+j], pixels outside the image (ghost
// cells) counting as 0. *scale receives sum |f x| over the terms.
double reference_conv_point(const float *in, size_t width, size_t height, size_t row, size_t col,
                            const double *f, int r, double *scale);

// 1 if (i, j, k) is an interior point of an nz×ny×nx grid, else 0.
int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k);

#endif // STENCIL_REF_H
