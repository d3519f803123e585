// tests/unit/test_reference.c — the CPU reference sweep against values known
// analytically, not only against itself.
#include "test_util.h"

#include <math.h>

#include "stencil_ref.h"

// Fills an n^3 grid with f(i, j, k) = a + b*k + c*j + d*i (small integers: exact in float).
static float *linear_field(size_t n, int a, int b, int c, int d)
{
    float *g = malloc(n * n * n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++)
                g[(i * n + j) * n + k] = (float)(a + b * (int)k + c * (int)j + d * (int)i);
    return g;
}

// On a linear field every stencil gives f*sum(c) + b(c2-c1) + c(c4-c3) + d(c6-c5), exactly.
static void test_linear_field_exact(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed());
    size_t n = 9;
    int a = (int)(rng_next(&r) % 7) - 3, b = (int)(rng_next(&r) % 5) + 1, c = -2, d = 3;
    float *in = linear_field(n, a, b, c, d);
    double coef[7] = {-6, 0.5, 1.5, 0.25, 2, -1, 0.75};
    double sum = 0;
    for (int q = 0; q < 7; q++)
        sum += coef[q];
    double *out = malloc(n * n * n * sizeof(double));
    reference_sweep(in, out, n, n, n, coef, 1);
    for (size_t i = 1; i + 1 < n; i++)
        for (size_t j = 1; j + 1 < n; j++)
            for (size_t k = 1; k + 1 < n; k++) {
                double f = a + b * (double)k + c * (double)j + d * (double)i;
                double want = f * sum + b * (coef[2] - coef[1]) + c * (coef[4] - coef[3]) + d * (coef[6] - coef[5]);
                assert_true(out[(i * n + j) * n + k] == want);
            }
    free(in);
    free(out);
}

// The discrete Laplacian (c0 = -6, neighbours 1) of i^2 + j^2 + k^2 is 6 everywhere.
static void test_laplacian_of_quadratic(void **state)
{
    (void)state;
    size_t n = 12;
    float *in = malloc(n * n * n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++)
                in[(i * n + j) * n + k] = (float)(i * i + j * j + k * k);
    double lap[7] = {-6, 1, 1, 1, 1, 1, 1};
    double scale = 0;
    for (size_t i = 1; i + 1 < n; i++)
        for (size_t j = 1; j + 1 < n; j++)
            for (size_t k = 1; k + 1 < n; k++) {
                assert_true(reference_point(in, n, n, i, j, k, lap, 1, &scale) == 6.0);
                assert_true(scale > 0);
            }
    free(in);
}

// Each coefficient multiplies the neighbour lab.h says: a unit impulse at one
// neighbour of (i, j, k) returns exactly that neighbour's coefficient.
static void test_coefficient_positions(void **state)
{
    (void)state;
    size_t nx = 6, ny = 5, nz = 4, i = 2, j = 2, k = 3;
    double coef[7] = {10, 11, 12, 13, 14, 15, 16};
    long offsets[7] = {0, -1, 1, -(long)nx, (long)nx, -(long)(nx * ny), (long)(nx * ny)};
    float *in = calloc(nx * ny * nz, sizeof(float));
    size_t p = (i * ny + j) * nx + k;
    for (int q = 0; q < 7; q++) {
        memset(in, 0, nx * ny * nz * sizeof(float));
        in[(long)p + offsets[q]] = 1.0f;
        assert_true(reference_point(in, nx, ny, i, j, k, coef, 1, NULL) == coef[q]);
    }
    free(in);
}

// Boundary cells are copied; rectangular grids index as (i*ny + j)*nx + k.
static void test_boundary_copied_and_interior(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() + 1);
    size_t nx = 7, ny = 4, nz = 3;
    float *in = malloc(nx * ny * nz * sizeof(float));
    double *out = malloc(nx * ny * nz * sizeof(double));
    rng_fill(&r, in, nx * ny * nz);
    double coef[7] = {0.5, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7};
    reference_sweep(in, out, nx, ny, nz, coef, 1);
    size_t interior = 0;
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++)
            for (size_t k = 0; k < nx; k++) {
                size_t p = (i * ny + j) * nx + k;
                if (reference_is_interior(nx, ny, nz, i, j, k, 1)) {
                    interior++;
                    assert_true(out[p] == reference_point(in, nx, ny, i, j, k, coef, 1, NULL));
                } else {
                    assert_true(out[p] == (double)in[p]);
                }
            }
    assert_int_equal(interior, (nx - 2) * (ny - 2) * (nz - 2));
    assert_false(reference_is_interior(3, 3, 3, 0, 1, 1, 1));
    assert_true(reference_is_interior(3, 3, 3, 1, 1, 1, 1));
    assert_false(reference_is_interior(2, 2, 2, 1, 1, 1, 1));
    free(in);
    free(out);
}

// The scale is the sum of the terms' magnitudes.
static void test_scale_is_sum_of_magnitudes(void **state)
{
    (void)state;
    float in[27];
    for (int q = 0; q < 27; q++)
        in[q] = (q % 2) ? -1.0f : 1.0f;
    double coef[7] = {1, -2, 3, -4, 5, -6, 7}, scale = 0;
    reference_point(in, 3, 3, 1, 1, 1, coef, 1, &scale);
    assert_true(scale == 28.0);
}

// The star of radius 2: each of c0..c12 multiplies the cell protocol.h's
// order names (a unit impulse there returns exactly that coefficient), the
// sweep keeps a boundary two layers thick, and the flops are 12r + 1.
static void test_radius_two(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() + 3);
    size_t nx = 9 + rng_next(&r) % 4, ny = 6 + rng_next(&r) % 4, nz = 5 + rng_next(&r) % 3;
    size_t cells = nx * ny * nz, i = 2, j = 3, k = nx - 3;
    double coef[13];
    for (int q = 0; q < 13; q++)
        coef[q] = 10 + q;
    const long stride[3] = {1, (long)nx, (long)(nx * ny)};
    const long offsets[13] = {0, -1, 1, -stride[1], stride[1], -stride[2], stride[2],
                              -2, 2, -2 * stride[1], 2 * stride[1], -2 * stride[2], 2 * stride[2]};
    float *in = calloc(cells, sizeof(float));
    double *out = malloc(cells * sizeof(double));
    size_t p = (i * ny + j) * nx + k;
    for (int a = 0; a < 3; a++)  // protocol.h's index of each neighbour is where the table puts it
        for (int side = 0; side < 2; side++)
            for (int d = 1; d <= 2; d++)
                assert_int_equal(offsets[STENCIL_COEF_INDEX(a, side, d)], (side ? d : -d) * stride[a]);
    for (int q = 0; q < 13; q++) {
        memset(in, 0, cells * sizeof(float));
        in[(long)p + offsets[q]] = 1.0f;
        assert_true(reference_point(in, nx, ny, i, j, k, coef, 2, NULL) == coef[q]);
    }
    rng_fill(&r, in, cells);
    reference_sweep(in, out, nx, ny, nz, coef, 2);
    size_t interior = 0;
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++) {
                size_t q = (z * ny + y) * nx + x;
                int inside = z >= 2 && y >= 2 && x >= 2 && z + 2 < nz && y + 2 < ny && x + 2 < nx;
                assert_int_equal(reference_is_interior(nx, ny, nz, z, y, x, 2), inside);
                if (inside) {
                    interior++;
                    assert_true(out[q] == reference_point(in, nx, ny, z, y, x, coef, 2, NULL));
                } else {
                    assert_true(out[q] == (double)in[q]);
                }
            }
    assert_int_equal(interior, (nx - 4) * (ny - 4) * (nz - 4));
    assert_false(reference_is_interior(4, 4, 4, 2, 2, 2, 2));  // N <= 4: no interior
    assert_true(reference_is_interior(5, 5, 5, 2, 2, 2, 2));   // N = 5: one point
    assert_false(reference_is_interior(5, 5, 5, 1, 2, 2, 2));
    assert_true(reference_flops(1) == 13.0 && reference_flops(2) == 25.0);
    free(in);
    free(out);
}

// The two radii the runners tell apart (protocol.h): a star's, from its
// coefficient count, and a convolution filter's, from --radius; the cells
// written under each rule: a star's interior, r layers in from every face, or
// every pixel of an image.
static void test_star_and_filter_radius(void **state)
{
    (void)state;
    assert_int_equal(protocol_radius_of(7), 1);
    assert_int_equal(protocol_radius_of(13), 2);
    for (int r = 1; r <= CONV_MAX_RADIUS; r++)  // no filter's weight count reads as a star of the kit
        assert_int_equal(protocol_radius_of(FILTER_NWEIGHTS(r)), 0);
    assert_true(FILTER_NWEIGHTS(CONV_MAX_RADIUS) == PROTOCOL_MAX_WEIGHTS && STENCIL_MAX_NCOEF <= PROTOCOL_MAX_WEIGHTS);
    assert_true(STENCIL_FLOPS(1) == reference_flops(1) && STENCIL_FLOPS(2) == reference_flops(2));
    rng g;
    rng_init(&g, test_seed() + 11);
    for (int t = 0; t < 50; t++) {
        size_t nx = 1 + rng_next(&g) % 12, ny = 1 + rng_next(&g) % 12, nz = 1 + rng_next(&g) % 12;
        for (int r = 1; r <= STENCIL_MAX_RADIUS; r++) {
            unsigned long long star = 0, image = 0;
            for (size_t i = 0; i < nz; i++)
                for (size_t j = 0; j < ny; j++)
                    for (size_t k = 0; k < nx; k++) {
                        assert_int_equal(protocol_cell_written(0, r, i, j, k, nx, ny, nz), reference_is_interior(nx, ny, nz, i, j, k, r));
                        assert_true(protocol_cell_written(1, r, i, j, k, nx, ny, nz));  // an image: every pixel, whatever the star
                        star += protocol_cell_written(0, r, i, j, k, nx, ny, nz);
                        image += protocol_cell_written(1, r, i, j, k, nx, ny, nz);
                    }
            assert_true(protocol_cells_written(0, r, nx, ny, nz) == star);  // the count is the rule's own count
            assert_true(protocol_cells_written(1, r, nx, ny, nz) == image);
        }
    }
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_field_exact),
        cmocka_unit_test(test_laplacian_of_quadratic),
        cmocka_unit_test(test_coefficient_positions),
        cmocka_unit_test(test_boundary_copied_and_interior),
        cmocka_unit_test(test_scale_is_sum_of_magnitudes),
        cmocka_unit_test(test_radius_two),
        cmocka_unit_test(test_star_and_filter_radius),
    };
    return cmocka_run_group_tests_name("reference", tests, NULL, NULL);
}
