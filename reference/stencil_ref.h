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

// 1 if (i, j, k) is an interior point of an nz×ny×nx grid, else 0.
int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k);

#endif // STENCIL_REF_H
