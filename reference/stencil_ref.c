// reference/stencil_ref.c — see stencil_ref.h.
#include "stencil_ref.h"

#include <math.h>

double reference_point7(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k,
                        const double c[REF_NCOEF], double *scale)
{
    size_t plane = nx * ny, p = (i * ny + j) * nx + k;
    double t[REF_NCOEF] = {
        c[0] * in[p],
        c[1] * in[p - 1],     c[2] * in[p + 1],
        c[3] * in[p - nx],    c[4] * in[p + nx],
        c[5] * in[p - plane], c[6] * in[p + plane],
    };
    double sum = 0.0, mag = 0.0;
    for (int n = 0; n < REF_NCOEF; n++) {
        sum += t[n];
        mag += fabs(t[n]);
    }
    if (scale)
        *scale = mag;
    return sum;
}

int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k)
{
    return i >= 1 && j >= 1 && k >= 1 && i + 1 < nz && j + 1 < ny && k + 1 < nx;
}

void reference_sweep7(const float *in, double *out, size_t nx, size_t ny, size_t nz,
                      const double c[REF_NCOEF])
{
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++)
            for (size_t k = 0; k < nx; k++) {
                size_t p = (i * ny + j) * nx + k;
                out[p] = reference_is_interior(nx, ny, nz, i, j, k)
                             ? reference_point7(in, nx, ny, i, j, k, c, NULL)
                             : (double)in[p];
            }
}
