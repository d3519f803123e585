// reference/stencil_ref.c — see stencil_ref.h.
#include "stencil_ref.h"

#include <math.h>

double reference_flops(int radius)
{
    return STENCIL_FLOPS(radius);
}

// reference_point's sum and scale; inlined where the radius is a constant.
static inline __attribute__((always_inline)) double reference_point_at(const float *in, size_t nx, size_t ny, size_t i, size_t j,
                                                                       size_t k, const double *c, int radius, double *scale)
{
    const ptrdiff_t stride[3] = {1, (ptrdiff_t)nx, (ptrdiff_t)(nx * ny)};
    const float *p = in + (i * ny + j) * nx + k;
    double t = c[0] * p[0], sum = t, mag = fabs(t);
    for (int d = 1; d <= radius; d++)
        for (int a = 0; a < 3; a++)
            for (int s = 0; s < 2; s++) {
                t = c[STENCIL_COEF_INDEX(a, s, d)] * p[(s ? d : -d) * stride[a]];
                sum += t;
                mag += fabs(t);
            }
    *scale = mag;
    return sum;
}

double reference_point(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k,
                       const double *c, int radius, double *scale)
{
    double mag;
    double sum = reference_point_at(in, nx, ny, i, j, k, c, radius, &mag);
    if (scale)
        *scale = mag;
    return sum;
}

void reference_points_row(const float *in, size_t nx, size_t ny, size_t i, size_t j, size_t k0, size_t k1,
                          const double *c, int radius, double *want, double *scale)
{
    if (radius == 1)  // the seven-point star, its terms unrolled: the same sums in the same order
        for (size_t k = k0; k < k1; k++)
            want[k - k0] = reference_point_at(in, nx, ny, i, j, k, c, 1, &scale[k - k0]);
    else
        for (size_t k = k0; k < k1; k++)
            want[k - k0] = reference_point_at(in, nx, ny, i, j, k, c, radius, &scale[k - k0]);
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

int reference_is_interior(size_t nx, size_t ny, size_t nz, size_t i, size_t j, size_t k, int radius)
{
    return protocol_is_interior(nx, ny, nz, i, j, k, radius);
}

// One row of the sweep: interior points r..nx-1-r of row (i, j), written in
// the same order of terms as reference_point so both give identical results.
static void reference_row(const float *in, double *out, size_t nx, size_t ny, size_t i, size_t j,
                          const double *c, int radius)
{
    const ptrdiff_t stride[3] = {1, (ptrdiff_t)nx, (ptrdiff_t)(nx * ny)};
    size_t row = (i * ny + j) * nx, r = (size_t)radius;
    const float *p = in + row;
    for (size_t k = 0; k < nx; k++) {
        if (k < r || k + r >= nx) {
            out[row + k] = (double)p[k];
            continue;
        }
        double sum = c[0] * p[k];
        for (int d = 1; d <= radius; d++)
            for (int a = 0; a < 3; a++)
                for (int s = 0; s < 2; s++)
                    sum += c[STENCIL_COEF_INDEX(a, s, d)] * p[(ptrdiff_t)k + (s ? d : -d) * stride[a]];
        out[row + k] = sum;
    }
}

void reference_sweep(const float *in, double *out, size_t nx, size_t ny, size_t nz,
                     const double *c, int radius)
{
    size_t r = (size_t)radius;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++) {
            if (i < r || j < r || i + r >= nz || j + r >= ny || nx < 2 * r + 1) {
                size_t row = (i * ny + j) * nx;
                for (size_t k = 0; k < nx; k++)
                    out[row + k] = (double)in[row + k];
            } else {
                reference_row(in, out, nx, ny, i, j, c, radius);
            }
        }
}
