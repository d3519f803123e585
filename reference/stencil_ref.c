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

double reference_conv_point(const float *in, size_t width, size_t height, size_t row, size_t col,
                            const double *f, int r, double *scale)
{
    double sum = 0.0, mag = 0.0;
    long w = 2 * r + 1;
    for (long i = -r; i <= r; i++) {
        long y = (long)row + i;
        if (y < 0 || y >= (long)height)
            continue;  // a ghost row: 0
        for (long j = -r; j <= r; j++) {
            long x = (long)col + j;
            if (x < 0 || x >= (long)width)
                continue;
            double t = f[(i + r) * w + (j + r)] * in[(size_t)y * width + (size_t)x];
            sum += t;
            mag += fabs(t);
        }
    }
    if (scale)
        *scale = mag;
    return sum;
}

int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k)
{
    return i >= 1 && j >= 1 && k >= 1 && i + 1 < nz && j + 1 < ny && k + 1 < nx;
}

// One row of the sweep: interior points 1..nx-2 of row (i, j), written in the
// same order of terms as reference_point7 so both give identical results.
static void reference_row7(const float *in, double *out, size_t nx, size_t ny, size_t i, size_t j,
                           const double c[REF_NCOEF])
{
    size_t plane = nx * ny, row = (i * ny + j) * nx;
    const float *p = in + row;
    out[row] = (double)p[0];
    for (size_t k = 1; k + 1 < nx; k++) {
        double sum = c[0] * p[k];
        sum += c[1] * p[k - 1];
        sum += c[2] * p[k + 1];
        sum += c[3] * p[k - nx];
        sum += c[4] * p[k + nx];
        sum += c[5] * p[k - plane];
        sum += c[6] * p[k + plane];
        out[row + k] = sum;
    }
    if (nx > 1)
        out[row + nx - 1] = (double)p[nx - 1];
}

void reference_sweep7(const float *in, double *out, size_t nx, size_t ny, size_t nz,
                      const double c[REF_NCOEF])
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++) {
            if (i == 0 || j == 0 || i + 1 >= nz || j + 1 >= ny || nx < 3) {
                size_t row = (i * ny + j) * nx;
                for (size_t k = 0; k < nx; k++)
                    out[row + k] = (double)in[row + k];
            } else {
                reference_row7(in, out, nx, ny, i, j, c);
            }
        }
}
