// tests/unit/test_verdict.c — the verdicts and hints on synthetic outputs:
// a right answer, then one planted mistake at a time.
#include "test_util.h"

#include <math.h>

#include "protocol.h"
#include "stencil_ref.h"
#include "verdict.h"
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct fixture {
    size_t n, cells, guard;   // grid edge, cells, guard cells
    float *in;                // the input grid
    float *out;               // guard | a correct output | guard
    float *in_after;          // guard | the input | guard
    sweep_case c;             // the case as the verdict sees it
    sweep_buffers b;          // the buffers as the verdict sees them
} fixture;

// Fills n floats with a bit pattern.
static void fill_bits(float *g, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        memcpy(&g[i], &bits, sizeof(bits));
}

// A case of nx×ny×nz points of a star of radius r with random input and
// coefficients, and its correct output.
static fixture make_star_fixture(size_t nx, size_t ny, size_t nz, int radius, uint64_t salt)
{
    fixture f;
    rng r;
    memset(&f, 0, sizeof(f));
    rng_init(&r, test_seed() ^ salt);
    f.cells = nx * ny * nz;
    f.guard = (size_t)protocol_guard_cells(nx * ny);
    f.in = malloc(f.cells * sizeof(float));
    f.out = malloc((f.cells + 2 * f.guard) * sizeof(float));
    f.in_after = malloc((f.cells + 2 * f.guard) * sizeof(float));
    rng_fill(&r, f.in, f.cells);
    rng_coefficients(&r, f.c.coef, STENCIL_NCOEF(radius));
    double coef[STENCIL_MAX_NCOEF], *ref = malloc(f.cells * sizeof(double));
    for (int q = 0; q < STENCIL_NCOEF(radius); q++)
        coef[q] = f.c.coef[q];
    reference_sweep(f.in, ref, nx, ny, nz, coef, radius);
    fill_bits(f.out, f.guard, GUARD_BITS);
    fill_bits(f.out + f.guard + f.cells, f.guard, GUARD_BITS);
    fill_bits(f.in_after, f.guard, GUARD_BITS);
    fill_bits(f.in_after + f.guard + f.cells, f.guard, GUARD_BITS);
    for (size_t p = 0; p < f.cells; p++) {
        f.out[f.guard + p] = (float)ref[p];
        f.in_after[f.guard + p] = f.in[p];
    }
    free(ref);
    f.c.in = f.in;
    f.c.nx = nx, f.c.ny = ny, f.c.nz = nz;
    f.c.star_radius = radius;
    f.c.rtol = 1e-6;
    f.c.atol = 1e-9;
    f.b.out = f.out;
    f.b.in_after = f.in_after;
    f.b.guard = f.guard;
    return f;
}

// A case of nx×ny×nz points of the seven-point star.
static fixture make_grid_fixture(size_t nx, size_t ny, size_t nz, uint64_t salt)
{
    return make_star_fixture(nx, ny, nz, 1, salt);
}

// A case of edge n (the cube n×n×n), as make_grid_fixture.
static fixture make_fixture(size_t n, uint64_t salt)
{
    fixture f = make_grid_fixture(n, n, n, salt);
    f.n = n;
    return f;
}

static void free_fixture(fixture *f)
{
    free(f->in);
    free(f->out);
    free(f->in_after);
}

// The output cell (i, j, k) of f, writable.
static float *cell(fixture *f, size_t i, size_t j, size_t k)
{
    return &f->out[f->guard + (i * f->n + j) * f->n + k];
}

// The output cell (i, j, k) of a grid fixture, writable.
static float *grid_cell(fixture *f, size_t i, size_t j, size_t k)
{
    return &f->out[f->guard + (i * f->c.ny + j) * f->c.nx + k];
}

// Runs the verdict and checks it failed with hint key (or passed when key is NULL).
static sweep_verdict expect_hint(fixture *f, const char *key)
{
    sweep_verdict v;
    int passed = verdict_sweep(&f->c, &f->b, &v);
    if (!key) {
        if (!passed)
            fail_msg("expected a pass, got %s: %s", v.hint_key, v.reason);
    } else if (passed || !v.hint_key || strcmp(v.hint_key, key) != 0) {
        fail_msg("expected hint %s, got %s (%s)", key, passed ? "a pass" : v.hint_key, v.reason);
    }
    return v;
}

// Recomputes the interior of f's output with coefficients permuted by perm (drop: term set to 0).
static void compute_with(fixture *f, const int perm[7], int drop)
{
    double coef[7];
    for (int q = 0; q < 7; q++)
        coef[q] = q == drop ? 0.0 : f->c.coef[perm[q]];
    for (size_t i = 1; i + 1 < f->n; i++)
        for (size_t j = 1; j + 1 < f->n; j++)
            for (size_t k = 1; k + 1 < f->n; k++)
                *cell(f, i, j, k) = (float)reference_point(f->in, f->n, f->n, i, j, k, coef, 1, NULL);
}

static void test_correct_passes(void **state)
{
    (void)state;
    fixture f = make_fixture(17, 1);
    sweep_verdict v = expect_hint(&f, NULL);
    assert_int_equal(v.interior, 15 * 15 * 15);
    assert_int_equal(v.wrong, 0);
    free_fixture(&f);
}

// A grid large enough for the all-CPU pass (verdict_scan_clean): a correct
// one passes with every interior cell counted and its largest error ratio;
// each kind of deviation still fails with the hint the cell-by-cell walk gives.
// The judge's own look at a GPU-checked case: the sample planes of a right
// output pass; a wrong interior cell, a kept cell changed or one left
// unwritten in a sampled plane is found, and named.
static void test_gpu_check_sample(void **state)
{
    (void)state;
    for (int radius = 1; radius <= 2; radius++) {
        fixture f = make_star_fixture(23, 19, 17, radius, 0x5a3ull + (uint64_t)radius);
        size_t plane = 23 * 19;
        unsigned which[4] = {0, (unsigned)radius, 9, 16};
        float *planes = malloc(4 * plane * sizeof(float));
        for (int q = 0; q < 4; q++)
            memcpy(planes + q * plane, f.out + f.guard + which[q] * plane, plane * sizeof(float));
        long first[3];
        double want;
        float got;
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 0);
        assert_true(first[0] == -1);
        float *interior = planes + 2 * plane + 7 * 23 + 11;  // plane 9, (j, k) = (7, 11)
        *interior += 1e-3f;
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 1);
        assert_true(first[0] == 9 && first[1] == 7 && first[2] == 11 && got == *interior);
        *interior -= 1e-3f;
        fill_bits(interior, 1, POISON_BITS);
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 1);
        memcpy(interior, f.out + f.guard + 9 * plane + 7 * 23 + 11, sizeof(float));
        *interior = NAN;
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 1);
        memcpy(interior, f.out + f.guard + 9 * plane + 7 * 23 + 11, sizeof(float));
        float *kept = planes + 2 * plane + 7 * 23 + 23 - (size_t)radius;  // an interior row's kept cells: its last r, then its first
        *kept += 0.5f;
        interior[-11] += 0.5f;
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 2);
        assert_true(first[0] == 9 && first[1] == 7 && first[2] == 0);
        *kept -= 0.5f;
        interior[-11] -= 0.5f;
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 0);
        planes[5] += 1.0f;  // plane 0 is all boundary: kept as the input
        assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 1);
        assert_true(first[0] == 0 && first[1] == 0 && first[2] == 5);
        free(planes);
        free_fixture(&f);
    }
}

// A sample of planes large enough to be checked side by side (over 2^20
// cells): it passes as it is; with two wrong cells at random places, both are
// counted and the first named is the one of lowest position in the sample,
// as going through it in order finds it.
static void test_gpu_check_sample_side_by_side(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x73696465ull);
    fixture f = make_star_fixture(640, 600, 7, 1, 0x516ull);
    size_t plane = 640 * 600;
    unsigned which[4] = {0, 1, 3, 6};
    float *planes = malloc(4 * plane * sizeof(float));
    for (int q = 0; q < 4; q++)
        memcpy(planes + q * plane, f.out + f.guard + which[q] * plane, plane * sizeof(float));
    long first[3];
    double want;
    float got;
    assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 0);
    size_t a = plane + plane / 2 + rng_next(&g) % (plane / 4), b = 2 * plane + rng_next(&g) % plane;  // planes 1 and 3
    size_t ja = (a % plane) / 640, ka = a % 640;
    if (ja == 0 || ja == 599 || ka == 0 || ka == 639)  // an interior cell of plane 1
        a = plane + 300 * 640 + 320, ja = 300, ka = 320;
    planes[a] += 1e-2f;
    planes[b] = -planes[b] - 3.0f;
    assert_int_equal(verdict_sweep_sample(&f.c, planes, which, 4, first, &want, &got), 2);
    assert_true(first[0] == 1 && first[1] == (long)ja && first[2] == (long)ka && got == planes[a]);
    free(planes);
    free_fixture(&f);
}

static void test_large_grid_clean_pass(void **state)
{
    (void)state;
    fixture f = make_grid_fixture(70, 53, 41, 11);
    size_t interior = 68 * 51 * 39;
    double coef[7], scale;
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    // One cell at half the allowed error: the pass reports that ratio.
    double want = reference_point(f.in, 70, 53, 20, 30, 40, coef, 1, &scale);
    *grid_cell(&f, 20, 30, 40) = (float)(want + 0.5 * (f.c.atol + f.c.rtol * scale));
    double ratio = fabs((double)*grid_cell(&f, 20, 30, 40) - want) / (f.c.atol + f.c.rtol * scale);
    sweep_verdict v = expect_hint(&f, NULL);
    assert_int_equal(v.interior, interior);
    assert_int_equal(v.wrong, 0);
    assert_true(v.max_err_ratio >= ratio * 0.999 && v.max_err_ratio <= 1.0);
    // The timed output differing in one cell.
    float *timed = malloc((f.cells + 2 * f.guard) * sizeof(float));
    memcpy(timed, f.out, (f.cells + 2 * f.guard) * sizeof(float));
    timed[f.guard + 5000] += 1.0f;
    f.b.out_timed = timed;
    v = expect_hint(&f, HINT_TIMED_CHANGED);
    assert_int_equal(v.timed_differs, 1);
    f.b.out_timed = NULL;
    // A boundary cell changed, then an input cell changed, then one interior cell wrong.
    float keep = *grid_cell(&f, 0, 10, 10);
    *grid_cell(&f, 0, 10, 10) += 1.0f;
    v = expect_hint(&f, HINT_BOUNDARY);
    assert_int_equal(v.boundary_changed, 1);
    *grid_cell(&f, 0, 10, 10) = keep;
    f.in_after[f.guard + 777] += 1.0f;
    v = expect_hint(&f, HINT_INPUT_MODIFIED);
    f.in_after[f.guard + 777] = f.in[777];
    *grid_cell(&f, 30, 30, 30) += 1.0f;
    v = expect_hint(&f, "wrong-values");
    assert_int_equal(v.wrong, 1);
    free(timed);
    free_fixture(&f);
}

// A lone wrong cell in a plane that is otherwise right is never named a
// window of planes (whole-planes), whatever its value: one value matches
// some window of the seven-point star by chance a few times in a hundred.
// 200 random cells and offsets, a fresh grid each 25.
static void test_lone_cell_no_window(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6c6f6e65ull);
    for (int round = 0; round < 8; round++) {
        fixture f = make_grid_fixture(24, 19, 17, 100 + (uint64_t)round);
        for (int trial = 0; trial < 25; trial++) {
            size_t i = 1 + (size_t)((rng_unit(&g) + 1.0f) * 0.5f * 14.99f), j = 1 + (size_t)((rng_unit(&g) + 1.0f) * 0.5f * 16.99f),
                   k = 1 + (size_t)((rng_unit(&g) + 1.0f) * 0.5f * 21.99f);
            float keep = *grid_cell(&f, i, j, k);
            float off = 0.05f + 0.5f * (rng_unit(&g) + 1.0f);  // 0.05 .. 1.05: within a window's reach
            *grid_cell(&f, i, j, k) = keep + (rng_unit(&g) > 0 ? off : -off);
            sweep_verdict v;
            assert_int_equal(verdict_sweep(&f.c, &f.b, &v), 0);
            if (v.hint_key && !strcmp(v.hint_key, HINT_WHOLE_PLANES))
                fail_msg("one wrong cell (%zu,%zu,%zu) named a window of planes: %s", i, j, k, v.hint);
            *grid_cell(&f, i, j, k) = keep;
        }
        free_fixture(&f);
    }
}

// A failing grid large enough to be walked by several threads gives the
// verdict one thread gives: the same hint, reason, counts and first wrong cell.
static void test_large_grid_walk_threads(void **state)
{
    (void)state;
#ifdef _OPENMP
    fixture f = make_fixture(108, 12);
    const int same[7] = {0, 1, 2, 3, 4, 5, 6};
    compute_with(&f, same, 4);  // the y- term dropped everywhere
    fill_bits(cell(&f, 50, 60, 70), 1, POISON_BITS);
    *cell(&f, 0, 5, 5) += 1.0f;
    sweep_verdict one, many;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    verdict_sweep(&f.c, &f.b, &one);
    omp_set_num_threads(threads > 1 ? threads : 2);
    verdict_sweep(&f.c, &f.b, &many);
    omp_set_num_threads(threads);
    assert_non_null(one.hint_key);
    assert_string_equal(one.hint_key, many.hint_key);
    assert_string_equal(one.reason, many.reason);
    assert_string_equal(one.hint, many.hint);
    assert_int_equal(one.wrong, many.wrong);
    assert_int_equal(one.unwritten, 1);
    assert_int_equal(many.unwritten, 1);
    assert_int_equal(one.boundary_changed, many.boundary_changed);
    assert_memory_equal(one.first, many.first, sizeof(one.first));
    assert_true(one.max_err_ratio == many.max_err_ratio);
    free_fixture(&f);
#else
    skip();
#endif
}

// A cell off by exactly the allowed error passes; twice that fails.
static void test_tolerance_edge(void **state)
{
    (void)state;
    fixture f = make_fixture(6, 2);
    double coef[7], scale;
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    double want = reference_point(f.in, 6, 6, 2, 3, 4, coef, 1, &scale);
    double allowed = f.c.atol + f.c.rtol * scale;
    *cell(&f, 2, 3, 4) = (float)(want + 0.5 * allowed);
    expect_hint(&f, NULL);
    *cell(&f, 2, 3, 4) = (float)(want + 3.0 * allowed);
    sweep_verdict v = expect_hint(&f, HINT_WRONG_VALUES);
    assert_int_equal(v.wrong, 1);
    assert_int_equal(v.first[0], 2);
    assert_int_equal(v.first[1], 3);
    assert_int_equal(v.first[2], 4);
    free_fixture(&f);
}

static void test_nothing_written(void **state)
{
    (void)state;
    fixture f = make_fixture(9, 3);
    for (size_t i = 1; i < 8; i++)
        for (size_t j = 1; j < 8; j++)
            for (size_t k = 1; k < 8; k++)
                fill_bits(cell(&f, i, j, k), 1, POISON_BITS);
    sweep_verdict v = expect_hint(&f, HINT_NOTHING_WRITTEN);
    assert_int_equal(v.unwritten, 343);
    char text[32];
    assert_string_equal(verdict_value_text(v.first_got, text, sizeof(text)), "<unwritten>");
    free_fixture(&f);
}

static void test_unwritten_patterns(void **state)
{
    (void)state;
    fixture f = make_fixture(12, 4);
    for (size_t i = 1; i < 11; i++)   // the last interior column never written
        for (size_t j = 1; j < 11; j++)
            fill_bits(cell(&f, i, j, 10), 1, POISON_BITS);
    sweep_verdict v = expect_hint(&f, HINT_OFF_BY_ONE);
    assert_non_null(strstr(v.hint, "the last interior column (k = 10, the far face along x)"));
    fill_bits(cell(&f, 5, 5, 5), 1, POISON_BITS);  // and one in the middle
    expect_hint(&f, HINT_UNWRITTEN);
    free_fixture(&f);
    f = make_fixture(9, 5);  // the first interior row never written: the near face, named
    for (size_t i = 1; i < 8; i++)
        for (size_t k = 1; k < 8; k++)
            fill_bits(cell(&f, i, 1, k), 1, POISON_BITS);
    v = expect_hint(&f, HINT_OFF_BY_ONE);
    assert_non_null(strstr(v.hint, "the first interior row (j = 1, the near face along y)"));
    free_fixture(&f);
}

static void test_nan_and_value_text(void **state)
{
    (void)state;
    fixture f = make_fixture(8, 5);
    *cell(&f, 3, 3, 3) = NAN;
    sweep_verdict v = expect_hint(&f, HINT_NAN);
    char text[32];
    assert_string_equal(verdict_value_text(v.first_got, text, sizeof(text)), "NaN");
    assert_string_equal(verdict_value_text(1.5f, text, sizeof(text)), "1.5");
    free_fixture(&f);
}

static void test_boundary_changed(void **state)
{
    (void)state;
    fixture f = make_fixture(7, 6);
    *cell(&f, 0, 3, 3) += 1.0f;
    sweep_verdict v = expect_hint(&f, HINT_BOUNDARY);
    assert_int_equal(v.boundary_changed, 1);
    assert_int_equal(v.first[0], 0);
    free_fixture(&f);
}

static void test_guards_and_input(void **state)
{
    (void)state;
    fixture f = make_fixture(7, 7);
    f.out[f.guard + f.cells + 3] = 0.0f;  // past the end
    sweep_verdict v = expect_hint(&f, HINT_OUT_OF_BOUNDS);
    assert_int_equal(v.guard_after, 1);
    assert_non_null(strstr(v.hint, "4 floats past the end"));
    fill_bits(&f.out[f.guard + f.cells + 3], 1, GUARD_BITS);
    f.out[f.guard - 2] = 0.0f;            // before the start
    v = expect_hint(&f, HINT_OUT_OF_BOUNDS);
    assert_int_equal(v.guard_before, 1);
    assert_non_null(strstr(v.hint, "2 floats before the start"));
    fill_bits(&f.out[f.guard - 2], 1, GUARD_BITS);
    f.in_after[f.guard + 10] += 1.0f;     // input modified
    v = expect_hint(&f, HINT_INPUT_MODIFIED);
    assert_int_equal(v.input_changed, 1);
    free_fixture(&f);
}

// Each classic coefficient mistake is named.
static void test_alternative_stencils(void **state)
{
    (void)state;
    static const struct { int perm[7]; int drop; const char *key; } cases[] = {
        {{0, 2, 1, 3, 4, 5, 6}, -1, "neighbours-swapped-x"},
        {{0, 1, 2, 4, 3, 5, 6}, -1, "neighbours-swapped-y"},
        {{0, 1, 2, 3, 4, 6, 5}, -1, "neighbours-swapped-z"},
        {{0, 3, 4, 1, 2, 5, 6}, -1, "axes-swapped-xy"},
        {{0, 5, 6, 3, 4, 1, 2}, -1, "axes-swapped-xz"},
        {{0, 1, 2, 5, 6, 3, 4}, -1, "axes-swapped-yz"},
        {{0, 1, 2, 3, 4, 5, 6}, 0, HINT_CENTRE_MISSING},
        {{0, 1, 2, 3, 4, 5, 6}, 4, HINT_TERM_MISSING},
    };
    for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
        fixture f = make_fixture(10, 100 + t);
        compute_with(&f, cases[t].perm, cases[t].drop);
        sweep_verdict v = expect_hint(&f, cases[t].key);
        if (cases[t].drop == 4)
            assert_non_null(strstr(v.hint, "c4 term"));
        free_fixture(&f);
    }
}

// A classic mistake is named only where the values show it: one cell of
// many holding what swapped x neighbours give (the right cells around it,
// where that kernel would go wrong too, say it is chance) is wrong-values;
// the mistake everywhere but in one column of the grid is named; five such
// cells of 343 are not; seven of eight (one right) are; a term on the wrong
// cell in every fourth column only (one point of a float4), the other
// columns right, is; on a grid of one interior point, its one value names it with the
// warning that one value can match by chance.
static void test_alternative_refuted_by_right_cells(void **state)
{
    (void)state;
    static const int swap_x[7] = {0, 2, 1, 3, 4, 5, 6}, same[7] = {0, 1, 2, 3, 4, 5, 6};
    fixture f = make_fixture(9, 0x72656675);
    compute_with(&f, swap_x, -1);
    sweep_verdict v = expect_hint(&f, "neighbours-swapped-x");
    assert_null(strstr(v.hint, "by chance"));
    float lone = *cell(&f, 4, 3, 5);
    compute_with(&f, same, -1);
    *cell(&f, 4, 3, 5) = lone;
    v = expect_hint(&f, HINT_WRONG_VALUES);
    assert_int_equal(v.wrong, 1);
    compute_with(&f, swap_x, -1);
    double coef[7];
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    for (size_t i = 1; i < 8; i++)  // column 1 right (a thread block's first column done apart): fewer right cells than wrong
        for (size_t j = 1; j < 8; j++)
            *cell(&f, i, j, 1) = (float)reference_point(f.in, 9, 9, i, j, 1, coef, 1, NULL);
    expect_hint(&f, "neighbours-swapped-x");
    compute_with(&f, swap_x, -1);
    float five[5];
    for (int q = 0; q < 5; q++)  // five cells of 343 swapped: still chance, as far as the values show
        five[q] = *cell(&f, 2 + (size_t)q, 3, 4);
    compute_with(&f, same, -1);
    for (int q = 0; q < 5; q++)
        *cell(&f, 2 + (size_t)q, 3, 4) = five[q];
    expect_hint(&f, HINT_WRONG_VALUES);
    free_fixture(&f);
    f = make_fixture(4, 0x736d616c);  // 8 interior cells, 7 swapped and one right: named
    compute_with(&f, swap_x, -1);
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    *cell(&f, 1, 1, 1) = (float)reference_point(f.in, 4, 4, 1, 1, 1, coef, 1, NULL);
    expect_hint(&f, "neighbours-swapped-x");
    free_fixture(&f);
    f = make_grid_fixture(8, 4, 4, 0x6c616e33);  // c2 on the centre's cell in columns k % 4 == 3 only (a float4's .w): 4 cells
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    for (size_t i = 1; i < 3; i++)
        for (size_t j = 1; j < 3; j++) {
            size_t p = (i * 4 + j) * 8 + 3;
            *grid_cell(&f, i, j, 3) = (float)(reference_point(f.in, 8, 4, i, j, 3, coef, 1, NULL) + coef[2] * (f.in[p] - f.in[p + 1]));
        }
    v = expect_hint(&f, HINT_TERM_WRONG_CELL);
    assert_non_null(strstr(v.hint, "c2"));
    free_fixture(&f);
    fixture one = make_fixture(3, 0x6f6e6563);
    compute_with(&one, swap_x, -1);
    v = expect_hint(&one, "neighbours-swapped-x");
    assert_non_null(strstr(v.hint, "Only one cell is wrong here, and a single value can match a mistake by chance"));
    free_fixture(&one);
}

// A single term counted twice, subtracted, or multiplying another term's cell
// (the wrong neighbour, on its own axis or another): each is named with the
// term, for every term of the seven-point star and for random terms of the
// star of radius 2 (the seed of make_star_fixture is printed).
static void test_single_term_mistakes(void **state)
{
    (void)state;
    for (int radius = 1; radius <= 2; radius++) {
        const size_t n = radius == 1 ? 9 : 11;
        const int ncoef = STENCIL_NCOEF(radius);
        for (int trial = 0; trial < (radius == 1 ? 3 * ncoef : 12); trial++) {
            fixture f = make_star_fixture(n, n, n, radius, 900 + 100 * (uint64_t)radius + (uint64_t)trial);
            f.n = n;
            int kind = trial % 3, term = radius == 1 ? trial / 3 : (int)((f.c.coef[trial % ncoef] * 1e6 > 0 ? trial * 7 : trial * 5) % ncoef);
            int other = (term + 1 + trial % (ncoef - 1)) % ncoef;
            double coef[STENCIL_MAX_NCOEF];
            for (int q = 0; q < ncoef; q++)
                coef[q] = f.c.coef[q];
            const char *key = kind == 0 ? HINT_TERM_DOUBLED : kind == 1 ? HINT_TERM_SIGN : HINT_TERM_WRONG_CELL;
            if (kind == 0)
                coef[term] *= 2.0;
            else if (kind == 1)
                coef[term] = -coef[term];
            else
                coef[other] += coef[term], coef[term] = 0.0;
            for (size_t i = (size_t)radius; i + (size_t)radius < n; i++)
                for (size_t j = (size_t)radius; j + (size_t)radius < n; j++)
                    for (size_t k = (size_t)radius; k + (size_t)radius < n; k++)
                        *cell(&f, i, j, k) = (float)reference_point(f.in, n, n, i, j, k, coef, radius, NULL);
            sweep_verdict v = expect_hint(&f, key);
            char named[32];
            snprintf(named, sizeof(named), "its c%d (", term);
            if (!strstr(v.hint, named))
                fail_msg("radius %d, term %d, %s: hint '%s' does not name the term", radius, term, key, v.hint);
            snprintf(named, sizeof(named), "(c%d's cell)", other);
            if (kind == 2 && !strstr(v.hint, named))
                fail_msg("radius %d, term %d on c%d's cell: hint '%s' does not name the cell", radius, term, other, v.hint);
            free_fixture(&f);
        }
    }
}

// One term read a few columns from its own cell, in every fourth column
// only (a float4's point taking the term from another lane), on a grid of
// random size and radius: term-wrong-cell naming the term, the cell and the
// lane; the same mistake in every column names no lane; two terms moved
// are not that mistake.
static void test_term_from_other_lane(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6c616e65ull);
    int radius = 1 + (int)(rng_next(&g) % 2), lane = (int)(rng_next(&g) % 4), dx;
    do
        dx = (int)(rng_next(&g) % 7) - 3;
    while (dx == 0 || lane + dx < 0 || lane + dx > 3);
    int n = STENCIL_COEF_INDEX(1 + (int)(rng_next(&g) % 2), (int)(rng_next(&g) % 2), 1 + (int)(rng_next(&g) % (uint64_t)radius));
    size_t nx = 4 * (4 + rng_next(&g) % 6), ny = 2 * (size_t)radius + 2 + rng_next(&g) % 8, nz = 2 * (size_t)radius + 2 + rng_next(&g) % 6;
    printf("# term from another lane: %zux%zux%zu, radius %d, c%d, lane %d from %d\n", nx, ny, nz, radius, n, lane, lane + dx);
    fixture f = make_star_fixture(nx, ny, nz, radius, 0x6c616e);
    int d = (n - 1) / 6 + 1, axis = (n - 1) % 6 / 2, side = (n - 1) % 2;
    long step = (side ? 1 : -1) * d * (axis == 1 ? (long)nx : (long)(nx * ny));
    double coef[STENCIL_MAX_NCOEF];
    for (int q = 0; q < STENCIL_NCOEF(radius); q++)
        coef[q] = f.c.coef[q];
    for (int every = 0; every < 2; every++) {
        for (size_t i = (size_t)radius; i + (size_t)radius < nz; i++)
            for (size_t j = (size_t)radius; j + (size_t)radius < ny; j++)
                for (size_t k = (size_t)radius; k + (size_t)radius < nx; k++) {
                    long p = (long)((i * ny + j) * nx + k);
                    double want = reference_point(f.in, nx, ny, i, j, k, coef, radius, NULL);
                    int moved = every ? (long)k + dx >= 0 && (long)k + dx < (long)nx : (int)(k % 4) == lane;
                    if (moved)
                        want += coef[n] * (f.in[p + step + dx] - f.in[p + step]);
                    *grid_cell(&f, i, j, k) = (float)want;
                }
        sweep_verdict v = expect_hint(&f, HINT_TERM_WRONG_CELL);
        char text[64];
        snprintf(text, sizeof(text), "its c%d (", n);
        assert_non_null(strstr(v.hint, text));
        snprintf(text, sizeof(text), "k%+d]", dx);
        assert_non_null(strstr(v.hint, text));
        snprintf(text, sizeof(text), "(k %% 4 == %d)", lane);
        if (every)
            assert_null(strstr(v.hint, "(k % 4 =="));
        else
            assert_non_null(strstr(v.hint, text));
    }
    for (size_t k = (size_t)radius; k + (size_t)radius < nx; k += 4)  // a second term moved as well, in some cells
        *grid_cell(&f, (size_t)radius, (size_t)radius, k) += (float)(coef[0] * f.in[((size_t)radius * ny + (size_t)radius) * nx + k + 1]);
    sweep_verdict v;
    verdict_sweep(&f.c, &f.b, &v);
    assert_non_null(v.hint_key);
    assert_null(strstr(v.hint, "its own: that term reads the wrong cell"));
    free_fixture(&f);
}

// One x or y neighbour read two cells away (a flat index, as such a kernel
// reads it): neighbour-offset, naming the term. (A z neighbour two planes
// away reads outside the grid on the first or last plane: a fault, or whole
// wrong planes.)
static void test_neighbour_offset(void **state)
{
    (void)state;
    static const char *names[7] = {"", "c1 term reading in[i][j][k-2]", "c2 term reading in[i][j][k+2]", "c3 term reading in[i][j-2][k]",
                                   "c4 term reading in[i][j+2][k]", "c5 term reading in[i-2][j][k]", "c6 term reading in[i+2][j][k]"};
    for (int term = 1; term <= 4; term++) {
        size_t n = 9;
        fixture f = make_fixture(n, 300 + (uint64_t)term);
        long stride[7] = {0, -1, 1, -(long)n, (long)n, -(long)(n * n), (long)(n * n)};
        for (size_t i = 1; i + 1 < n; i++)
            for (size_t j = 1; j + 1 < n; j++)
                for (size_t k = 1; k + 1 < n; k++) {
                    long p = (long)((i * n + j) * n + k), far = p + 2 * stride[term];
                    if (far < 0 || far >= (long)f.cells)
                        continue;  // the kernel would read outside the grid here: leave the cell right
                    double c = f.c.coef[term];
                    *cell(&f, i, j, k) = (float)((double)*cell(&f, i, j, k) + c * ((double)f.in[far] - (double)f.in[p + stride[term]]));
                }
        sweep_verdict v = expect_hint(&f, HINT_NEIGHBOUR_OFFSET);
        if (!strstr(v.hint, names[term]))
            fail_msg("term %d: hint '%s' does not name '%s'", term, v.hint, names[term]);
        free_fixture(&f);
    }
}

// Whole layers between tiles never written, along x or along y: tile-seam;
// the interior untouched while boundary cells changed: index-overflow.
static void test_tile_seam_and_index_overflow(void **state)
{
    (void)state;
    for (int axis = 0; axis < 2; axis++) {
        fixture f = make_fixture(20, 400 + (uint64_t)axis);
        for (size_t i = 1; i + 1 < f.n; i++)
            for (size_t j = 1; j + 1 < f.n; j++)
                for (size_t k = 1; k + 1 < f.n; k++)
                    if ((axis ? j : k) % 8 == 6 || (axis ? j : k) % 8 == 7)  // tiles placed 8 apart writing 6
                        fill_bits(cell(&f, i, j, k), 1, POISON_BITS);
        sweep_verdict v = expect_hint(&f, HINT_TILE_SEAM);
        assert_non_null(strstr(v.hint, axis ? "j = 6, 7, 14, 15" : "k = 6, 7, 14, 15"));
        free_fixture(&f);
    }
    fixture f = make_fixture(12, 450);  // one layer inside the grid (a tile's last row skipped)
    for (size_t i = 1; i + 1 < f.n; i++)
        for (size_t k = 1; k + 1 < f.n; k++)
            fill_bits(cell(&f, i, 5, k), 1, POISON_BITS);
    expect_hint(&f, HINT_TILE_SEAM);
    free_fixture(&f);
    f = make_fixture(12, 460);
    for (size_t p = 0; p < f.cells; p++)
        fill_bits(&f.out[f.guard + p], 1, POISON_BITS);
    for (size_t j = 0; j < f.n; j++)  // plane 0, where every wrapped index points, holds the stores
        for (size_t k = 0; k < f.n; k++)
            *cell(&f, 0, j, k) = f.in[j * f.n + k] + 1.0f;
    for (size_t p = f.n * f.n; p < f.cells; p++)
        if (!reference_is_interior(f.n, f.n, f.n, p / (f.n * f.n), p / f.n % f.n, p % f.n, 1))
            f.out[f.guard + p] = f.in[p];
    expect_hint(&f, HINT_INDEX_OVERFLOW);
    free_fixture(&f);
}

// The last layers of one axis never written, all else right (a grid rounded
// down, or with width and height exchanged): the grid stops short, which is
// no seam between tiles (unwritten-cells, naming the axis).
static void test_grid_stops_short(void **state)
{
    (void)state;
    for (int axis = 0; axis < 2; axis++) {
        fixture f = make_fixture(20, 470 + (uint64_t)axis);
        for (size_t i = 1; i + 1 < f.n; i++)
            for (size_t j = 1; j + 1 < f.n; j++)
                for (size_t k = 1; k + 1 < f.n; k++)
                    if ((axis ? j : k) >= 16)  // 16-wide blocks, one too few: layers 16..18 of the interior 1..18
                        fill_bits(cell(&f, i, j, k), 1, POISON_BITS);
        sweep_verdict v = expect_hint(&f, HINT_UNWRITTEN);
        assert_non_null(strstr(v.hint, axis ? "j = 16, 17, 18" : "k = 16, 17, 18"));
        assert_non_null(strstr(v.hint, axis ? "stops short along y" : "stops short along x"));
        free_fixture(&f);
    }
}

// Wrong only on the edges of 6-wide output tiles: the halo hint.
static void test_tile_edges(void **state)
{
    (void)state;
    fixture f = make_fixture(26, 8);
    f.c.out_tile = 6;
    for (size_t i = 1; i < 25; i++)
        for (size_t j = 1; j < 25; j++)
            for (size_t k = 1; k < 25; k++)
                if (k % 6 == 0 || k % 6 == 5)
                    *cell(&f, i, j, k) += 0.5f;
    expect_hint(&f, HINT_TILE_EDGES);
    f.c.out_tile = 0;  // without a declared tile, no such claim
    expect_hint(&f, HINT_WRONG_VALUES);
    free_fixture(&f);
}

static void test_whole_planes(void **state)
{
    (void)state;
    fixture f = make_fixture(14, 9);
    for (size_t i = 7; i < 13; i++)
        for (size_t j = 1; j < 13; j++)
            for (size_t k = 1; k < 13; k++)
                *cell(&f, i, j, k) = 1000.25f;  // further than any cell's value can lie from 0 (|in| <= 1, |c| <= 1)
    sweep_verdict v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_int_equal(v.wrong, 6 * 12 * 12);
    free_fixture(&f);
}

// Input cell (x, j, k) of f, 0 when plane x lies outside the grid.
static double window_cell(const fixture *f, long x, size_t j, size_t k)
{
    return x < 0 || x >= (long)f->c.nz ? 0.0 : (double)f->in[((size_t)x * f->c.ny + j) * f->c.nx + k];
}

// Writes plane i of f's output as the seven-point stencil with its centre
// from plane centre, its in-plane neighbours from in_plane, its z-1 term
// from below and its z+1 term from above (outside the grid: 0).
static void compute_window(fixture *f, size_t i, long centre, long in_plane, long below, long above)
{
    const float *c = f->c.coef;
    for (size_t j = 1; j + 1 < f->c.ny; j++)
        for (size_t k = 1; k + 1 < f->c.nx; k++)
            *grid_cell(f, i, j, k) = (float)(c[0] * window_cell(f, centre, j, k) + c[1] * window_cell(f, in_plane, j, k - 1) +
                                             c[2] * window_cell(f, in_plane, j, k + 1) + c[3] * window_cell(f, in_plane, j - 1, k) +
                                             c[4] * window_cell(f, in_plane, j + 1, k) + c[5] * window_cell(f, below, j, k) +
                                             c[6] * window_cell(f, above, j, k));
}

// A z march whose planes are never rotated (every plane from the first two),
// or whose shared plane is never refreshed, on a grid of random sizes with
// one block in z (no plane right): whole-planes naming the planes. The
// rotation in the wrong order (z-1 from the centre's own plane) is
// term-wrong-cell, naming the rotation in a z-marching lab only. Scattered
// wrong values in a plane are none of these.
static void test_plane_window(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x77696e646f77ull);
    size_t nx = 4 + rng_next(&r) % 12, ny = 4 + rng_next(&r) % 12, nz = 4 + rng_next(&r) % 12;
    printf("# plane window: %zux%zux%zu\n", nx, ny, nz);
    fixture f = make_grid_fixture(nx, ny, nz, 0x77696e);
    for (size_t i = 1; i + 1 < nz; i++)                  // the rotation outside the loop
        compute_window(&f, i, 0, 0, -1, (long)i + 1);
    sweep_verdict v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_non_null(strstr(v.hint, "the centre from plane 0, the in-plane neighbours from 0, z-1 from -1 (outside the grid: 0), z+1 from 2"));
    for (size_t i = 1; i + 1 < nz; i++)                  // the shared plane never refreshed
        compute_window(&f, i, (long)i, 0, (long)i - 1, (long)i + 1);
    v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_non_null(strstr(v.hint, "plane i = 1 is the stencil"));
    for (size_t i = 1; i + 1 < nz; i++)                  // the rotation in the wrong order: prev is the centre's plane
        compute_window(&f, i, (long)i, (long)i, (long)i, (long)i + 1);
    for (int marching = 0; marching < 2; marching++) {
        f.c.planes_first = marching;
        v = expect_hint(&f, HINT_TERM_WRONG_CELL);
        assert_true((strstr(v.hint, "rotated in the wrong order") != NULL) == marching);
    }
    for (size_t i = 1; i + 1 < nz; i++)                  // right again, then noise in one plane
        compute_window(&f, i, (long)i, (long)i, (long)i - 1, (long)i + 1);
    expect_hint(&f, NULL);
    for (size_t j = 1; j + 1 < ny; j += 2)
        *grid_cell(&f, nz / 2, j, 1 + rng_next(&r) % (nx - 2)) += 0.5f + (float)(rng_next(&r) % 100) / 100.0f;
    v = expect_hint(&f, HINT_WRONG_VALUES);
    free_fixture(&f);
}

// Writes plane i of f's output (a star of radius 2) as the thirteen-point
// stencil with its centre from plane centre, its in-plane neighbours from
// in_plane and its z neighbours from z[0..3] (the planes of z-2, z-1, z+1,
// z+2; outside the grid: 0).
static void compute_window13(fixture *f, size_t i, long centre, long in_plane, const long z[4])
{
    const float *c = f->c.coef;
    for (size_t j = 2; j + 2 < f->c.ny; j++)
        for (size_t k = 2; k + 2 < f->c.nx; k++) {
            double sum = c[0] * window_cell(f, centre, j, k);
            for (int d = 1; d <= 2; d++)
                sum += c[STENCIL_COEF_INDEX(0, 0, d)] * window_cell(f, in_plane, j, k - d) + c[STENCIL_COEF_INDEX(0, 1, d)] * window_cell(f, in_plane, j, k + d) +
                       c[STENCIL_COEF_INDEX(1, 0, d)] * window_cell(f, in_plane, j - d, k) + c[STENCIL_COEF_INDEX(1, 1, d)] * window_cell(f, in_plane, j + d, k) +
                       c[STENCIL_COEF_INDEX(2, 0, d)] * window_cell(f, z[2 - d], j, k) + c[STENCIL_COEF_INDEX(2, 1, d)] * window_cell(f, z[1 + d], j, k);
            *grid_cell(f, i, j, k) = (float)sum;
        }
}

// The window of a march of the star of radius 2 (five registers, one
// shared plane), on a grid of random sizes, one block in z (no plane
// right): a shift outside the loop, or a shared plane never refreshed, is
// whole-planes naming all four z neighbours' planes; scattered wrong values
// are not. A plane with a single wrong cell names no window: one cell is
// matched by chance among half a million choices of planes (a classic
// mistake met by that one value is named with a warning that it may be
// chance).
static void test_plane_window_radius_two(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x77696e646f7732ull);
    size_t nx = 6 + rng_next(&r) % 10, ny = 6 + rng_next(&r) % 10, nz = 6 + rng_next(&r) % 10;
    printf("# plane window, radius 2: %zux%zux%zu\n", nx, ny, nz);
    fixture f = make_star_fixture(nx, ny, nz, 2, 0x77696e32);
    f.c.rtol = 2e-6;
    for (size_t i = 2; i + 2 < nz; i++) {                // the shift outside the loop
        const long z[4] = {-1, -1, 1, (long)i + 2};
        compute_window13(&f, i, 0, 0, z);
    }
    sweep_verdict v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_non_null(strstr(v.hint, "the centre from plane 0, the in-plane neighbours from 0, z-2 from -1 (outside the grid: 0), z-1 from -1 (outside the grid: 0), z+1 from 1, z+2 from 4"));
    for (size_t i = 2; i + 2 < nz; i++) {                // the shared plane never refreshed
        const long z[4] = {(long)i - 2, (long)i - 1, (long)i + 1, (long)i + 2};
        compute_window13(&f, i, (long)i, 0, z);
    }
    v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_non_null(strstr(v.hint, "plane i = 2 is the stencil"));
    assert_non_null(strstr(v.hint, "zm2 <- zm1 <- cur <- zp1 <- zp2"));
    for (size_t i = 2; i + 2 < nz; i++) {                // right again, then noise in one plane
        const long z[4] = {(long)i - 2, (long)i - 1, (long)i + 1, (long)i + 2};
        compute_window13(&f, i, (long)i, (long)i, z);
    }
    expect_hint(&f, NULL);
    for (size_t j = 2; j + 2 < ny; j += 2)
        *grid_cell(&f, nz / 2, j, 2 + rng_next(&r) % (nx - 4)) += 0.5f + (float)(rng_next(&r) % 100) / 100.0f;
    expect_hint(&f, HINT_WRONG_VALUES);
    free_fixture(&f);
    fixture one = make_star_fixture(5, 5, 5, 2, 0x6f6e65);  // one interior point, its planes from the first ones
    const long z[4] = {-1, -1, 1, 4};
    compute_window13(&one, 2, 0, 0, z);
    verdict_sweep(&one.c, &one.b, &v);  // no window named from one cell; a classic mistake met by chance says so
    assert_false(v.passed);
    assert_string_not_equal(v.hint_key, HINT_WHOLE_PLANES);
    if (strcmp(v.hint_key, HINT_WRONG_VALUES) == 0)
        assert_non_null(strstr(v.hint, "Plane i = 2 has only 1 wrong cell: too few to tell a z march's planes taken wrongly"));
    else
        assert_non_null(strstr(v.hint, "Only one cell is wrong here, and a single value can match a mistake by chance"));
    free_fixture(&one);
}

// The last planes of a grid never written, all else right: whole-planes,
// naming them as a march or a grid of blocks that stops short; the same
// planes in the middle of the grid keep the z loop's words.
static void test_trailing_planes(void **state)
{
    (void)state;
    fixture f = make_fixture(14, 21);
    for (size_t i = 10; i < 13; i++)
        for (size_t j = 1; j < 13; j++)
            fill_bits(cell(&f, i, j, 1), 12, POISON_BITS);
    sweep_verdict v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_non_null(strstr(v.hint, "the last z planes (i = 10 to 12)"));
    free_fixture(&f);
    f = make_fixture(14, 22);
    for (size_t i = 5; i < 8; i++)
        for (size_t j = 1; j < 13; j++)
            fill_bits(cell(&f, i, j, 1), 12, POISON_BITS);
    v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_null(strstr(v.hint, "the last z planes"));
    free_fixture(&f);
}

// A term missing only where its neighbour is a boundary cell (a load that
// stops short of the grid's face: the cell read as 0) is named as the
// halo's load, tile-edges; the same term missing everywhere is term-missing.
// The term, an x or y neighbour, is drawn at random (its number printed); a
// z neighbour missing at a face leaves one whole plane wrong (whole-planes).
static void test_term_missing_at_faces(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x66616365ull);
    int term = 1 + (int)(rng_next(&r) % 4);
    printf("# term missing at the faces: c%d\n", term);
    fixture f = make_fixture(12, 23);
    double coef[7];
    for (int q = 0; q < 7; q++)
        coef[q] = q == term ? 0.0 : f.c.coef[q];
    int a = (term - 1) / 2, s = (term - 1) % 2;
    for (size_t i = 1; i < 11; i++)
        for (size_t j = 1; j < 11; j++)
            for (size_t k = 1; k < 11; k++) {
                size_t at = a == 0 ? k : a == 1 ? j : i;
                if (at == (s ? 10u : 1u))  // the layer next to the face the term reads
                    *cell(&f, i, j, k) = (float)reference_point(f.in, 12, 12, i, j, k, coef, 1, NULL);
            }
    sweep_verdict v = expect_hint(&f, HINT_TILE_EDGES);
    assert_non_null(strstr(v.hint, "is a boundary cell"));
    int identity[7] = {0, 1, 2, 3, 4, 5, 6};
    compute_with(&f, identity, term);
    expect_hint(&f, HINT_TERM_MISSING);
    free_fixture(&f);
}

static void test_thread_order_and_timing(void **state)
{
    (void)state;
    fixture f = make_fixture(8, 10);
    size_t total = f.cells + 2 * f.guard;
    float *second = malloc(total * sizeof(float));
    memcpy(second, f.out, total * sizeof(float));
    f.b.out_order2 = second;
    f.b.out_timed = second;
    expect_hint(&f, NULL);
    size_t centre = f.guard + (4 * 8 + 4) * 8 + 4;  // an interior cell of the 8^3 grid
    second[centre] = nextafterf(second[centre], INFINITY);  // another rounding in the second order: still right
    f.b.out_timed = NULL;
    assert_int_equal(expect_hint(&f, NULL).order_differs, 0);
    second[centre] = f.out[centre];
    f.b.out_timed = second;
    second[f.guard + 100] += 1.0f;
    sweep_verdict v = expect_hint(&f, HINT_THREAD_ORDER);
    assert_int_equal(v.order_differs, 1);
    f.b.out_order2 = NULL;
    v = expect_hint(&f, HINT_TIMED_CHANGED);
    assert_int_equal(v.timed_differs, 1);
    free(second);
    free_fixture(&f);
}

// N = 1 and 2 have no interior: the output must equal the input.
static void test_no_interior(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 2; n++) {
        fixture f = make_fixture(n, 11 + n);
        sweep_verdict v = expect_hint(&f, NULL);
        assert_int_equal(v.interior, 0);
        *cell(&f, 0, 0, 0) = 7.0f;
        expect_hint(&f, HINT_BOUNDARY);
        free_fixture(&f);
    }
}

// Recomputes the whole interior of a grid fixture's output from the reference.
static void compute_with_grid_reference(fixture *f)
{
    double coef[7];
    for (int q = 0; q < 7; q++)
        coef[q] = f->c.coef[q];
    for (size_t i = 1; i + 1 < f->c.nz; i++)
        for (size_t j = 1; j + 1 < f->c.ny; j++)
            for (size_t k = 1; k + 1 < f->c.nx; k++)
                *grid_cell(f, i, j, k) = (float)reference_point(f->in, f->c.nx, f->c.ny, i, j, k, coef, 1, NULL);
}

// The stencil at flat cell p of a grid fixture with its y neighbours read ny
// floats away (what a kernel that takes rows to hold ny floats computes).
static double rows_of_ny(const fixture *f, size_t p, const double coef[7])
{
    size_t plane = f->c.nx * f->c.ny;
    const float *in = f->in;
    return coef[0] * in[p] + coef[1] * in[p - 1] + coef[2] * in[p + 1] + coef[3] * in[p - f->c.ny] + coef[4] * in[p + f->c.ny] +
           coef[5] * in[p - plane] + coef[6] * in[p + plane];
}

// nx, ny and nz mixed up, on grids that are no cube: the y range bounded by
// nx (whole rows from nx-1 on never written) and stores with x and y
// exchanged (GRID_INDEX(i, k, j, nx, ny): the cells written hold the stencil
// with rows of ny floats, boundary cells among them); a cube never gets it.
static void test_sizes_mixed(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x73697a6573ull);
    for (int t = 0; t < 12; t++) {
        size_t nx = 5 + rng_next(&r) % 20, ny = nx + 3 + rng_next(&r) % 20, nz = 5 + rng_next(&r) % 10;
        if (ny == 2 * nx)
            ny++;
        fixture f = make_grid_fixture(nx, ny, nz, 800 + (uint64_t)t);
        f.c.words = VERDICT_WORDS_GRID;
        for (size_t i = 1; i + 1 < nz; i++)  // j < nx - 1 where j < ny - 1 was meant
            for (size_t j = nx - 1; j + 1 < ny; j++)
                for (size_t k = 1; k + 1 < nx; k++)
                    fill_bits(grid_cell(&f, i, j, k), 1, POISON_BITS);
        sweep_verdict v = expect_hint(&f, HINT_SIZES_MIXED);
        char want[96];
        snprintf(want, sizeof(want), "the layers j = %zu to %zu were never written", nx - 1, ny - 2);
        if (!strstr(v.hint, want) || !strstr(v.hint, "where nx would stop it"))
            fail_msg("hint '%s' lacks '%s'", v.hint, want);
        free_fixture(&f);
        // Stores at GRID_INDEX(i, k, j, nx, ny), reads with rows of ny floats; either way round.
        size_t a = t % 2 ? ny : nx, b = t % 2 ? nx : ny;
        f = make_grid_fixture(a, b, nz, 900 + (uint64_t)t);
        f.c.words = VERDICT_WORDS_GRID;
        double coef[7];
        for (int q = 0; q < 7; q++)
            coef[q] = f.c.coef[q];
        for (size_t i = 1; i + 1 < nz; i++)
            for (size_t j = 1; j + 1 < b; j++)
                for (size_t k = 1; k + 1 < a; k++)
                    fill_bits(grid_cell(&f, i, j, k), 1, POISON_BITS);
        for (size_t i = 1; i + 1 < nz; i++)
            for (size_t j = 1; j + 1 < b; j++)
                for (size_t k = 1; k + 1 < a; k++) {
                    size_t q = (i * a + k) * b + j;
                    f.out[f.guard + q] = (float)rows_of_ny(&f, q, coef);
                }
        v = expect_hint(&f, HINT_SIZES_MIXED);
        assert_non_null(strstr(v.hint, "x and y are exchanged"));
        assert_true(v.boundary_changed > 0);
        free_fixture(&f);
    }
    // A cube: the same mistakes are other patterns (rows of N floats are right).
    fixture f = make_fixture(9, 990);
    for (size_t i = 1; i + 1 < 9; i++)
        for (size_t j = 5; j + 1 < 9; j++)
            for (size_t k = 1; k + 1 < 9; k++)
                fill_bits(cell(&f, i, j, k), 1, POISON_BITS);
    sweep_verdict v;
    verdict_sweep(&f.c, &f.b, &v);
    assert_true(v.hint_key && strcmp(v.hint_key, HINT_SIZES_MIXED) != 0);
    free_fixture(&f);
}

// Fails when a hint of the grid interface still speaks of lab.h's N or its names.
static void expect_grid_words(const sweep_verdict *v)
{
    static const char *const cube_words[] = {"LAB_INDEX", "launch_stencil", " N ", " N)", "(N ", "N-2", "N-1", "N*N", "N floats",
                                             "this N", "stride N", NULL};
    for (int w = 0; cube_words[w]; w++)
        if (strstr(v->hint, cube_words[w]))
            fail_msg("hint %s of the grid interface says '%s': %s", v->hint_key, cube_words[w], v->hint);
}

// Grids with three different sizes (random, printed seed): each planted
// mistake gets its hint, in the grid interface's words when it asks for them,
// and a cube lab's words otherwise.
static void test_grids(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x6772696475ull);
    for (int t = 0; t < 12; t++) {
        size_t nx = 5 + rng_next(&r) % 30, ny = 5 + rng_next(&r) % 30, nz = 5 + rng_next(&r) % 12;
        if (ny == nx || ny == 2 * nx)  // the same row, or exactly two rows away (a neighbour-offset pattern)
            ny++;
        for (int words = 0; words <= 1; words++) {
            fixture f = make_grid_fixture(nx, ny, nz, 600 + (uint64_t)t);
            f.c.words = words;
            sweep_verdict v = expect_hint(&f, NULL);
            assert_int_equal(v.interior, (nx - 2) * (ny - 2) * (nz - 2));
            // The last interior column never written: the far face, named by its own size.
            for (size_t i = 1; i + 1 < nz; i++)
                for (size_t j = 1; j + 1 < ny; j++)
                    fill_bits(grid_cell(&f, i, j, nx - 2), 1, POISON_BITS);
            v = expect_hint(&f, HINT_OFF_BY_ONE);
            assert_int_equal(v.first[0], 1);
            assert_int_equal(v.first[2], (long)nx - 2);
            if (words) {
                expect_grid_words(&v);
                assert_non_null(strstr(v.hint, "k < nx-1"));
            } else {
                assert_non_null(strstr(v.hint, "1 <= i <= N-2 means i < N-1"));
            }
            // Nothing written at all: the grid interface's host function.
            for (size_t i = 1; i + 1 < nz; i++)
                for (size_t j = 1; j + 1 < ny; j++)
                    for (size_t k = 1; k + 1 < nx; k++)
                        fill_bits(grid_cell(&f, i, j, k), 1, POISON_BITS);
            v = expect_hint(&f, HINT_NOTHING_WRITTEN);
            assert_non_null(strstr(v.hint, words ? "launch_sweep" : "launch_stencil"));
            free_fixture(&f);
            // The y neighbours read one row of ny floats away (nx and ny mixed up): sizes-mixed.
            f = make_grid_fixture(nx, ny, nz, 700 + (uint64_t)t);
            f.c.words = words;
            double coef[7];
            for (int q = 0; q < 7; q++)
                coef[q] = f.c.coef[q];
            for (size_t i = 1; i + 1 < nz; i++)
                for (size_t j = 1; j + 1 < ny; j++)
                    for (size_t k = 1; k + 1 < nx; k++)
                        *grid_cell(&f, i, j, k) = (float)rows_of_ny(&f, (i * ny + j) * nx + k, coef);
            v = expect_hint(&f, HINT_SIZES_MIXED);
            assert_non_null(strstr(v.hint, "GRID_INDEX(i, j - 1, k, ny, nx)"));
            // Values off with no pattern: the fallback names the grid interface's index.
            compute_with_grid_reference(&f);
            for (int w = 0; w < 5; w++)
                *grid_cell(&f, 1 + rng_next(&r) % (nz - 2), 1 + rng_next(&r) % (ny - 2), 1 + rng_next(&r) % (nx - 2)) += 0.5f;
            v = expect_hint(&f, HINT_WRONG_VALUES);
            assert_non_null(strstr(v.hint, words ? "GRID_INDEX(i, j, k, ny, nx)" : "LAB_INDEX(i, j, k, N)"));
            if (words)
                expect_grid_words(&v);
            compute_with_grid_reference(&f);
            // A boundary cell written: the interior's bounds, axis by axis.
            *grid_cell(&f, nz - 1, ny / 2, nx / 2) += 1.0f;
            compute_with_grid_reference(&f);
            v = expect_hint(&f, HINT_BOUNDARY);
            if (words) {
                expect_grid_words(&v);
                assert_non_null(strstr(v.hint, "1 <= i <= nz-2, 1 <= j <= ny-2 and 1 <= k <= nx-2"));
            }
            free_fixture(&f);
        }
    }
}

// The star of radius 2 on a cube: right passes; a far neighbour pair
// swapped, a far term dropped, a far neighbour read a cell too far are named
// with their coefficients; an inner boundary layer written is
// boundary-too-thin, the outer face boundary-overwritten; the interior's
// outer layer unwritten is off-by-one, in the radius-2 range's words.
static void test_radius_two(void **state)
{
    (void)state;
    const size_t n = 11;
    fixture f = make_star_fixture(n, n, n, 2, 700);
    f.n = n;
    sweep_verdict v = expect_hint(&f, NULL);
    assert_int_equal(v.interior, 7 * 7 * 7);
    free_fixture(&f);
    static const struct { int a, b, drop; const char *key, *text; } mistakes[] = {
        {7, 8, -1, "neighbours-swapped-x", "c7 and c8 exchanged: the x neighbours two cells away are swapped (c7 multiplies in[i][j][k-2], c8 in[i][j][k+2])"},
        {11, 12, -1, "neighbours-swapped-z", "c11 and c12 exchanged"},
        {3, 4, -1, "neighbours-swapped-y", "c3 and c4 exchanged: the y neighbours are swapped"},
        {0, 0, 11, HINT_TERM_MISSING, "without its c11 term (the z-2 neighbour, in[i-2][j][k])"},
        {0, 0, 2, HINT_TERM_MISSING, "without its c2 term (the x+1 neighbour, in[i][j][k+1])"},
    };
    for (size_t t = 0; t < sizeof(mistakes) / sizeof(mistakes[0]); t++) {
        f = make_star_fixture(n, n, n, 2, 710 + t);
        f.n = n;
        double coef[STENCIL_MAX_NCOEF];
        for (int q = 0; q < 13; q++)
            coef[q] = q == mistakes[t].drop ? 0.0 : f.c.coef[q == mistakes[t].a ? mistakes[t].b : q == mistakes[t].b ? mistakes[t].a : q];
        for (size_t i = 2; i + 2 < n; i++)
            for (size_t j = 2; j + 2 < n; j++)
                for (size_t k = 2; k + 2 < n; k++)
                    *cell(&f, i, j, k) = (float)reference_point(f.in, n, n, i, j, k, coef, 2, NULL);
        v = expect_hint(&f, mistakes[t].key);
        if (!strstr(v.hint, mistakes[t].text))
            fail_msg("hint '%s' does not say '%s'", v.hint, mistakes[t].text);
        free_fixture(&f);
    }
    // c10 (y+2) read three rows down instead of two: neighbour-offset.
    f = make_star_fixture(n, n, n, 2, 730);
    f.n = n;
    for (size_t i = 2; i + 2 < n; i++)
        for (size_t j = 2; j + 3 < n; j++)
            for (size_t k = 2; k + 2 < n; k++) {
                size_t p = (i * n + j) * n + k;
                *cell(&f, i, j, k) += (float)(f.c.coef[10] * ((double)f.in[p + 3 * n] - (double)f.in[p + 2 * n]));
            }
    v = expect_hint(&f, HINT_NEIGHBOUR_OFFSET);
    assert_non_null(strstr(v.hint, "c10 term reading in[i][j+3][k]: the y+2 neighbour's offset is off by one (it is j+2, two rows: 2*N floats)"));
    free_fixture(&f);
    // The kernel takes the boundary one layer thick: it writes the second layer (here plane 1 and column n-2).
    f = make_star_fixture(n, n, n, 2, 740);
    f.n = n;
    for (size_t j = 1; j + 1 < n; j++)
        for (size_t k = 1; k + 1 < n; k++)
            *cell(&f, 1, j, k) += 0.5f;
    for (size_t i = 1; i + 1 < n; i++)
        *cell(&f, i, 4, n - 2) -= 0.5f;
    v = expect_hint(&f, HINT_BOUNDARY_THIN);
    assert_non_null(strstr(v.hint, "only points with 2 <= i, j, k <= N-3 may be written"));
    *cell(&f, 0, 3, 3) += 1.0f;  // and a cell of the outermost face: the plain hint
    v = expect_hint(&f, HINT_BOUNDARY);
    assert_non_null(strstr(v.hint, "only points with 2 <= i, j, k <= N-3 may be written"));
    free_fixture(&f);
    // The last interior plane (i = n-3) never written: off-by-one, the range in radius 2's words.
    f = make_star_fixture(n, n, n, 2, 750);
    f.n = n;
    for (size_t j = 2; j + 2 < n; j++)
        for (size_t k = 2; k + 2 < n; k++)
            fill_bits(cell(&f, n - 3, j, k), 1, POISON_BITS);
    v = expect_hint(&f, HINT_OFF_BY_ONE);
    assert_non_null(strstr(v.hint, "(2 <= i <= N-3 means i < N-2)"));
    char face[64];
    snprintf(face, sizeof(face), "the last interior plane (i = %zu, the far face along z)", n - 3);
    assert_non_null(strstr(v.hint, face));
    free_fixture(&f);
}

// ---------------------------------------------------------------------------
// Lab 0: images (a width x height x 1 grid, every pixel written, ghost cells 0)
// ---------------------------------------------------------------------------

// A case of a width x height image and a filter of radius r with random
// input and weights, and its correct output.
static fixture make_image_fixture(size_t w, size_t h, int r, uint64_t salt)
{
    fixture f;
    rng g;
    double filter[VERDICT_MAX_WEIGHTS];
    memset(&f, 0, sizeof(f));
    rng_init(&g, test_seed() ^ salt);
    f.cells = w * h;
    f.guard = (size_t)protocol_guard_cells(w * h);
    f.in = malloc(f.cells * sizeof(float));
    f.out = malloc((f.cells + 2 * f.guard) * sizeof(float));
    f.in_after = malloc((f.cells + 2 * f.guard) * sizeof(float));
    rng_fill(&g, f.in, f.cells);
    rng_filter(&g, f.c.coef, FILTER_NWEIGHTS(r));
    for (int q = 0; q < FILTER_NWEIGHTS(r); q++)
        filter[q] = f.c.coef[q];
    fill_bits(f.out, f.guard, GUARD_BITS);
    fill_bits(f.out + f.guard + f.cells, f.guard, GUARD_BITS);
    fill_bits(f.in_after, f.guard, GUARD_BITS);
    fill_bits(f.in_after + f.guard + f.cells, f.guard, GUARD_BITS);
    for (size_t p = 0; p < f.cells; p++) {
        f.out[f.guard + p] = (float)reference_conv_point(f.in, w, h, p / w, p % w, filter, r, NULL);
        f.in_after[f.guard + p] = f.in[p];
    }
    f.c.in = f.in;
    f.c.nx = w, f.c.ny = h, f.c.nz = 1;
    f.c.star_radius = 1;
    f.c.filter_radius = r;
    f.c.words = VERDICT_WORDS_IMAGE;
    f.c.rtol = 1e-5;  // labs/00-convolution/lab.conf's tolerance
    f.c.atol = 1e-9;
    f.b.out = f.out;
    f.b.in_after = f.in_after;
    f.b.guard = f.guard;
    return f;
}

// The judge's own look at a GPU-checked 2D image (lab 0): the sample is rows
// (protocol_sample_unit_of): the first and last rows and two at random. The
// right rows pass; one wrong pixel in a sampled row, at random, fails, named
// (0, row, col) with the value found and the one expected.
static void test_gpu_check_sample_rows(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x726f7773ull);
    for (int trial = 0; trial < 6; trial++) {
        size_t w = 20 + rng_next(&g) % 60, h = 12 + rng_next(&g) % 40;
        int r = 1 + (int)(rng_next(&g) % 4);
        fixture f = make_image_fixture(w, h, r, 0x726f77ull + (uint64_t)trial);
        unsigned which[4] = {0, (unsigned)(h - 1), 0, 0};
        which[2] = 1 + (unsigned)(rng_next(&g) % (h / 2 - 1)), which[3] = which[2] + (unsigned)(h / 2) - 1;
        float *rows = malloc(4 * w * sizeof(float));
        for (int q = 0; q < 4; q++)
            memcpy(rows + q * w, f.out + f.guard + which[q] * w, w * sizeof(float));
        long first[3];
        double want;
        float got;
        assert_int_equal(verdict_sweep_sample(&f.c, rows, which, 4, first, &want, &got), 0);
        assert_true(first[0] == -1);
        int q = (int)(rng_next(&g) % 4);
        size_t col = rng_next(&g) % w;
        float *pixel = rows + (size_t)q * w + col;
        *pixel += 1e-2f;
        printf("# %zux%zu r=%d: pixel (%u, %zu) of rows %u,%u,%u,%u off by 1e-2\n", w, h, r, which[q], col, which[0], which[1],
               which[2], which[3]);
        assert_int_equal(verdict_sweep_sample(&f.c, rows, which, 4, first, &want, &got), 1);
        assert_true(first[0] == 0 && first[1] == (long)which[q] && first[2] == (long)col && got == *pixel);
        assert_true(fabs(want - (double)f.out[f.guard + which[q] * w + col]) < 1e-4);
        free(rows);
        free_fixture(&f);
    }
}

// What a test kernel reads for tap (y, x) of an image fixture.
enum {
    TAP_ZERO,       // right: outside the image, 0
    TAP_CLAMP,      // outside, the nearest pixel of the image
    TAP_WRAP,       // outside, the pixel across the image (periodic)
    TAP_UNTESTED,   // no test at all: in[y*width + x], guards included (NaN there)
    TAP_ROW_TESTED, // only 0 <= y < height tested: a column outside reads in[y*width + x]
};

// The input buffer of f (guards included) at flat offset p, as a test kernel reads it.
static double image_buffer(const fixture *f, long p)
{
    assert_true(p >= -(long)f->guard && p < (long)(f->cells + f->guard));
    return (double)f->in_after[(long)f->guard + p];
}

// Tap (y, x) of f's image read the way `how` says.
static double image_tap(const fixture *f, long y, long x, int how)
{
    long w = (long)f->c.nx, h = (long)f->c.ny;
    int inside = y >= 0 && y < h && x >= 0 && x < w;
    if (inside || how == TAP_UNTESTED || (how == TAP_ROW_TESTED && y >= 0 && y < h))
        return image_buffer(f, y * w + x);
    if (how == TAP_CLAMP)
        return f->in[(y < 0 ? 0 : y >= h ? h - 1 : y) * w + (x < 0 ? 0 : x >= w ? w - 1 : x)];
    if (how == TAP_WRAP)
        return f->in[((y % h + h) % h) * w + (x % w + w) % w];
    return 0.0;
}

// Pixel (row, col) of f's convolution with its taps read the way `how` says.
static float image_pixel_with(const fixture *f, long row, long col, int how)
{
    int r = f->c.filter_radius, fw = 2 * r + 1;
    double sum = 0.0;
    for (int i = -r; i <= r; i++)
        for (int j = -r; j <= r; j++)
            sum += f->c.coef[(i + r) * fw + (j + r)] * image_tap(f, row + i, col + j, how);
    return (float)sum;
}

// f's output recomputed with every tap read the way `how` says.
static void image_compute_with(fixture *f, int how)
{
    for (size_t p = 0; p < f->cells; p++)
        f->out[f->guard + p] = image_pixel_with(f, (long)(p / f->c.nx), (long)(p % f->c.nx), how);
}

// An image of random size whose every pixel lies within r of an edge
// (width or height at most 2r, or both), t picking the shape.
static fixture make_all_edge_image(rng *g, int t, uint64_t salt)
{
    int r = 1 + (int)(rng_next(g) % CONV_MAX_RADIUS);
    size_t thin = 1 + rng_next(g) % (size_t)(2 * r), other = 1 + rng_next(g) % 40;
    size_t w = t % 3 == 0 ? thin : t % 3 == 1 ? other : 1 + rng_next(g) % (size_t)(2 * r);
    size_t h = t % 3 == 0 ? other : t % 3 == 1 ? thin : 1 + rng_next(g) % (size_t)(2 * r);
    return make_image_fixture(w, h, r, salt);
}

// A right output passes on every kind of image (all within r of an edge, no
// square, square), with a second thread order that agrees.
static void test_image_correct_passes(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x696d616765ull);
    for (int t = 0; t < 24; t++) {
        fixture f = t < 12 ? make_all_edge_image(&g, t, 1000 + (uint64_t)t)
                           : make_image_fixture(1 + rng_next(&g) % 60, 1 + rng_next(&g) % 60, 1 + (int)(rng_next(&g) % 4), 1000 + (uint64_t)t);
        f.b.out_order2 = f.out;
        expect_hint(&f, NULL);
        free_fixture(&f);
    }
}

// Ghost cells mishandled (clamped, wrapped, read from in[] unchecked,
// pixels near the edges left out) give ghost-cells on every image, those
// whose every pixel lies within r of an edge included; where the values
// cannot tell (every pixel NaN, every pixel unwritten) the hint says no
// more than it sees, with a word on such images.
static void test_image_ghost_cells(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x67686f7374ull);
    for (int t = 0; t < 12; t++) {
        fixture f = make_all_edge_image(&g, t, 1100 + (uint64_t)t);
        image_compute_with(&f, t % 2 ? TAP_WRAP : TAP_CLAMP);
        sweep_verdict v = expect_hint(&f, HINT_GHOST_CELLS);
        assert_non_null(strstr(v.hint, f.cells == 1 ? "the pixel itself" : t % 2 ? "wrapped around" : "clamped to the edge"));
        free_fixture(&f);
    }
    for (int t = 0; t < 8; t++) {  // one row wider than the filter: the first and last r pixels NaN, the others right
        int r = 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS);
        size_t w = 2 * (size_t)r + 1 + rng_next(&g) % 40;
        fixture f = make_image_fixture(w, 1, r, 1200 + (uint64_t)t);
        image_compute_with(&f, TAP_ROW_TESTED);
        sweep_verdict v = expect_hint(&f, HINT_GHOST_CELLS);
        assert_int_equal(v.nan_cells, 2 * (size_t)r);
        assert_non_null(strstr(v.hint, "without col >= 0, without col < width"));
        free_fixture(&f);
        // Narrower than the filter: every pixel reads the memory around the image, NaN everywhere.
        f = make_image_fixture(1 + rng_next(&g) % (size_t)(2 * r), 1, r, 1300 + (uint64_t)t);
        image_compute_with(&f, TAP_UNTESTED);
        v = expect_hint(&f, HINT_NAN);
        assert_non_null(strstr(v.hint, "Every pixel of this image lies within r"));
        free_fixture(&f);
    }
    for (int t = 0; t < 8; t++) {  // larger images: unchecked reads, and the pixels within r of an edge left out
        int r = 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS);
        size_t w = 2 * (size_t)r + 2 + rng_next(&g) % 40, h = 2 * (size_t)r + 2 + rng_next(&g) % 40;
        fixture f = make_image_fixture(w, h, r, 1400 + (uint64_t)t);
        image_compute_with(&f, TAP_UNTESTED);
        sweep_verdict v = expect_hint(&f, HINT_GHOST_CELLS);
        assert_non_null(strstr(v.hint, "without row >= 0, without row < height, without col >= 0, without col < width"));
        free_fixture(&f);
        f = make_image_fixture(w, h, r, 1500 + (uint64_t)t);
        for (size_t p = 0; p < f.cells; p++) {
            size_t row = p / w, col = p % w;
            if (row < (size_t)r || row + (size_t)r >= h || col < (size_t)r || col + (size_t)r >= w)
                fill_bits(&f.out[f.guard + p], 1, POISON_BITS);
        }
        v = expect_hint(&f, HINT_GHOST_CELLS);
        assert_non_null(strstr(v.hint, "four edges were never written"));
        free_fixture(&f);
        // On an image whose every pixel lies within r of an edge that writes nothing.
        f = make_all_edge_image(&g, t, 1600 + (uint64_t)t);
        fill_bits(f.out + f.guard, f.cells, POISON_BITS);
        v = expect_hint(&f, HINT_NOTHING_WRITTEN);
        assert_non_null(strstr(v.hint, "Every pixel of this image lies within r"));
        free_fixture(&f);
    }
}

// Other mistakes on images whose every pixel lies within r of an edge are
// not taken for ghost cells: zeros (also where one pixel's right value is
// 0), the input copied, every tap reading the pixel itself (more than one
// pixel), the filter transposed. On one column, zeros here and there and a
// store past the end are not taken for width and height mixed up.
static void test_image_all_edge_others(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6f7468657273ull);
    for (int t = 0; t < 12; t++) {
        fixture f = make_all_edge_image(&g, t, 1700 + (uint64_t)t);
        int r = f.c.filter_radius, fw = 2 * r + 1;
        double sum_f = 0.0;
        for (int q = 0; q < fw * fw; q++)
            sum_f += f.c.coef[q];
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = 0.0f;
        sweep_verdict v;
        verdict_sweep(&f.c, &f.b, &v);
        assert_true(v.hint_key && strcmp(v.hint_key, HINT_GHOST_CELLS) != 0);
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = f.in[p];
        verdict_sweep(&f.c, &f.b, &v);
        assert_true(v.hint_key && strcmp(v.hint_key, HINT_GHOST_CELLS) != 0);
        if (f.cells > 1) {
            for (size_t p = 0; p < f.cells; p++)
                f.out[f.guard + p] = (float)(sum_f * f.in[p]);
            verdict_sweep(&f.c, &f.b, &v);
            assert_true(v.hint_key && strcmp(v.hint_key, HINT_GHOST_CELLS) != 0);
        }
        double transposed[VERDICT_MAX_WEIGHTS];
        for (int i = 0; i < fw; i++)
            for (int j = 0; j < fw; j++)
                transposed[i * fw + j] = f.c.coef[j * fw + i];
        int differs = 0;
        for (size_t p = 0; p < f.cells; p++) {
            float want = f.out[f.guard + p] = (float)reference_conv_point(f.in, f.c.nx, f.c.ny, p / f.c.nx, p % f.c.nx, transposed, r, NULL);
            differs |= fabs(want - image_pixel_with(&f, (long)(p / f.c.nx), (long)(p % f.c.nx), TAP_ZERO)) > 1e-3;
        }
        if (differs && f.c.nx > 1 && f.c.ny > 1)  // one row or column: the transposed filter is also width and height exchanged
            expect_hint(&f, HINT_FILTER_TRANSPOSED);
        free_fixture(&f);
    }
    for (int t = 0; t < 6; t++) {
        // Zeros everywhere, one pixel's right value 0 (its input moved so): no pattern of right and wrong pixels.
        fixture f = make_all_edge_image(&g, t, 1750 + (uint64_t)t);
        int r = f.c.filter_radius, fw = 2 * r + 1;
        size_t p0 = rng_next(&g) % f.cells;
        double sum = image_pixel_with(&f, (long)(p0 / f.c.nx), (long)(p0 % f.c.nx), TAP_ZERO);
        f.in[p0] -= (float)(sum / f.c.coef[r * fw + r]);
        f.in_after[f.guard + p0] = f.in[p0];
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = 0.0f;
        sweep_verdict v;
        verdict_sweep(&f.c, &f.b, &v);
        if (f.cells > 1)  // (a single pixel is then right, or nearly so)
            assert_true(v.hint_key && strcmp(v.hint_key, HINT_GHOST_CELLS) != 0 && strcmp(v.hint_key, HINT_SIZES_MIXED) != 0);
        free_fixture(&f);
        // One column, every seventh pixel 0 (a thread outside the image could store 0 there if col < height let it through: no evidence).
        f = make_image_fixture(1, 2 * (size_t)r + 10 + rng_next(&g) % 30, r, 1760 + (uint64_t)t);
        for (size_t p = 3; p < f.cells; p += 7)
            f.out[f.guard + p] = 0.0f;
        verdict_sweep(&f.c, &f.b, &v);
        assert_true(v.hint_key && strcmp(v.hint_key, HINT_GHOST_CELLS) != 0 && strcmp(v.hint_key, HINT_SIZES_MIXED) != 0);
        free_fixture(&f);
        // All right, and a 0 stored just past the image's end.
        f = make_image_fixture(1, 2 * (size_t)r + 10 + rng_next(&g) % 30, r, 1770 + (uint64_t)t);
        f.out[f.guard + f.cells + 1] = 0.0f;
        expect_hint(&f, HINT_OUT_OF_BOUNDS);
        free_fixture(&f);
    }
}

// Where a test kernel with width and height mixed up stores pixel (row, col)
// of f, and how it reads and bounds it.
enum { MIX_ROWS_OF_HEIGHT, MIX_COLUMNS, MIX_BOUNDS_SWAPPED };

// The flat place of pixel (y, x) for mistake mix.
static long mixed_index(const fixture *f, int mix, long y, long x)
{
    long w = (long)f->c.nx, h = (long)f->c.ny;
    return mix == MIX_ROWS_OF_HEIGHT ? y * h + x : mix == MIX_COLUMNS ? x * h + y : y * w + x;
}

// Writes into out (guard | image | guard, as f's) what a kernel with mistake
// mix leaves: every thread its bound lets through, in order (reverse: last
// to first), each reading its taps through the mistaken index and bound
// (the guards around the input hold NaN) and storing through it. Where two
// threads store to one place, the later wins.
static void image_mixed_kernel(const fixture *f, float *out, int mix, int reverse)
{
    long w = (long)f->c.nx, h = (long)f->c.ny, bh = mix == MIX_BOUNDS_SWAPPED ? w : h, bw = mix == MIX_BOUNDS_SWAPPED ? h : w;
    int r = f->c.filter_radius, fw = 2 * r + 1;
    memcpy(out, f->out, (f->cells + 2 * f->guard) * sizeof(float));
    fill_bits(out + f->guard, f->cells, POISON_BITS);
    for (long n = 0; n < bh * bw; n++) {
        long t = reverse ? bh * bw - 1 - n : n, row = t / bw, col = t % bw;
        double sum = 0.0;
        for (int i = -r; i <= r; i++)
            for (int j = -r; j <= r; j++) {
                long y = row + i, x = col + j;
                if (y >= 0 && y < bh && x >= 0 && x < bw)
                    sum += f->c.coef[(i + r) * fw + (j + r)] * image_buffer(f, mixed_index(f, mix, y, x));
            }
        long q = mixed_index(f, mix, row, col);
        assert_true(q >= -(long)f->guard && q < (long)(f->cells + f->guard));
        out[(long)f->guard + q] = (float)sum;
    }
}

// Width and height mixed up on images that are no square, wider or taller,
// with two thread orders that disagree where two threads store to one place:
// rows of height floats, the image taken column by column, the bounds
// exchanged. A square image never gets sizes-mixed.
static void test_image_sizes_mixed(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6d69786564ull);
    for (int t = 0; t < 18; t++) {
        int mix = t % 3, r = 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS);
        size_t a = 2 + rng_next(&g) % 40, b = a + 1 + rng_next(&g) % a;  // b < 2a: every store lands within the guards
        fixture f = t / 3 % 2 ? make_image_fixture(a, b, r, 1800 + (uint64_t)t) : make_image_fixture(b, a, r, 1800 + (uint64_t)t);
        float *out = malloc((f.cells + 2 * f.guard) * sizeof(float)), *out2 = malloc((f.cells + 2 * f.guard) * sizeof(float));
        image_mixed_kernel(&f, out, mix, 0);
        image_mixed_kernel(&f, out2, mix, 1);
        f.b.out = out;
        f.b.out_order2 = out2;
        sweep_verdict v = expect_hint(&f, HINT_SIZES_MIXED);
        static const char *const named[3] = {"IMAGE_INDEX(row, col, height)", "IMAGE_INDEX(col, row, height)", "(row < width, col < height)"};
        if (!strstr(v.hint, named[mix]))
            fail_msg("%zux%zu r=%d: hint '%s' lacks '%s'", f.c.nx, f.c.ny, r, v.hint, named[mix]);
        free(out), free(out2);
        free_fixture(&f);
    }
    for (int mix = 0; mix < 3; mix++) {  // a square: rows of height floats and exchanged bounds are right, columns are the filter transposed
        size_t n = 3 + rng_next(&g) % 30;
        fixture f = make_image_fixture(n, n, 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS), 1900 + (uint64_t)mix);
        float *out = malloc((f.cells + 2 * f.guard) * sizeof(float));
        image_mixed_kernel(&f, out, mix, 0);
        f.b.out = out;
        expect_hint(&f, mix == MIX_COLUMNS ? HINT_FILTER_TRANSPOSED : NULL);
        free(out);
        free_fixture(&f);
    }
}

// The one tap of those the tap loops stopping one short leave out
// (F[2r][*] and F[*][2r]) that reaches a pixel of a w x h image, when only
// one does (one row: F[r][2r]; one column: F[2r][r]), else -1.
static int image_short_single_tap(size_t w, size_t h, int r)
{
    int e = 2 * r, reach = 0, tap = -1;
    for (int q = 0; q < (e + 1) * (e + 1); q++) {
        int i = q / (e + 1), j = q % (e + 1);
        if ((i == e || j == e) && (long)h > labs((long)(i - r)) && (long)w > labs((long)(j - r)))
            reach++, tap = q;
    }
    return reach == 1 ? tap : -1;
}

// Expects filter-loop-short on f (its output the convolution without tap
// `tap`, or without F[2r][*] and F[*][2r]: the same values on it) and the
// note that leaving out `tap` alone gives the same values on so thin an
// image; -1: an image that tells the two apart, the note absent.
static sweep_verdict expect_short_note(fixture *f, int tap, const char *key)
{
    int fw = 2 * f->c.filter_radius + 1;
    char note[320];
    snprintf(note, sizeof(note), " On an image this thin F[%d][%d] is the only one of those taps that reaches a pixel (the others read ghost cells, 0): leaving out F[%d][%d] alone gives the same values, and larger images tell the two apart.",
             tap / fw, tap % fw, tap / fw, tap % fw);
    sweep_verdict v = expect_hint(f, key);
    if (tap >= 0 && !strstr(v.hint, note))
        fail_msg("%zux%zu r=%d: the hint lacks the note '%s': %s", f->c.nx, f->c.ny, f->c.filter_radius, note, v.hint);
    if (tap < 0 && strstr(v.hint, "On an image this thin"))
        fail_msg("%zux%zu r=%d: the hint has a thin-image note: %s", f->c.nx, f->c.ny, f->c.filter_radius, v.hint);
    return v;
}

// f's output as the convolution with the filter less tap `tap` (-1: less
// its last row and column, F[2r][*] and F[*][2r]).
static void image_output_without(fixture *f, int tap)
{
    int r = f->c.filter_radius, fw = 2 * r + 1;
    double filter[VERDICT_MAX_WEIGHTS];
    for (int q = 0; q < fw * fw; q++)
        filter[q] = q == tap || (tap < 0 && (q / fw == fw - 1 || q % fw == fw - 1)) ? 0.0 : f->c.coef[q];
    for (size_t p = 0; p < f->cells; p++)
        f->out[f->guard + p] = (float)reference_conv_point(f->in, f->c.nx, f->c.ny, p / f->c.nx, p % f->c.nx, filter, r, NULL);
}

// On one row (one column) of random length, each radius: F[r][2r]
// (F[2r][r]) left out and the tap loops stopping one short give the same
// values, named filter-loop-short with the note that the single tap gives
// them too; on two rows (two columns) they differ: term-missing, and
// filter-loop-short without the note.
static void image_thin_tap_off(rng *g)
{
    for (int r = 1; r <= CONV_MAX_RADIUS; r++)
        for (int thin = 1; thin <= 2; thin++)
            for (int columns = 0; columns < 2; columns++) {
                size_t len = (size_t)r + 1 + rng_next(g) % 40, w = columns ? (size_t)thin : len, h = columns ? len : (size_t)thin;
                int fw = 2 * r + 1, tap = columns ? 2 * r * fw + r : r * fw + 2 * r, single = image_short_single_tap(w, h, r);
                fixture f = make_image_fixture(w, h, r, 0x7468696e + (uint64_t)(r * 4 + thin * 2 + columns));
                assert_int_equal(single, thin == 1 ? tap : -1);
                image_output_without(&f, tap);
                expect_short_note(&f, single, thin == 1 ? HINT_FILTER_SHORT : HINT_TERM_MISSING);
                image_output_without(&f, -1);
                expect_short_note(&f, single, HINT_FILTER_SHORT);
                free_fixture(&f);
            }
}

// One filter tap's weight off by a whole term (counted twice, left out,
// subtracted, its pixel added once more with weight 1), on an image of
// random size and radius and a random tap: the key for it, naming that tap;
// the centre left out is centre-missing; two taps off are none of these.
// On an image of one row or column the tap that the tap loops stopping one
// short leave out alone (image_short_single_tap) left out is
// filter-loop-short, with the note that the tap alone gives the same.
static void test_image_tap_off(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x746170ull);
    static const struct { double f_times, plus; const char *key; } kinds[] = {
        {1, 0, HINT_TERM_DOUBLED}, {-1, 0, HINT_TERM_MISSING}, {-2, 0, HINT_TERM_SIGN}, {0, 1, HINT_TERM_DOUBLED}};
    for (int kind = 0; kind < 4; kind++) {
        int r = 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS), fw = 2 * r + 1;
        size_t w = 1 + rng_next(&g) % 40, h = 1 + rng_next(&g) % 40;
        int tap = kind == 3 || rng_next(&g) % 3 == 0 ? r * fw + r : (int)(rng_next(&g) % (uint64_t)(fw * fw));
        int ty = tap / fw - r, tx = tap % fw - r;
        if ((long)h <= labs((long)ty) || (long)w <= labs((long)tx))  // the tap must reach a pixel of the image
            ty = tx = 0, tap = r * fw + r;
        printf("# tap off: %zux%zu, r = %d, F[%d][%d], kind %d\n", w, h, r, tap / fw, tap % fw, kind);
        fixture f = make_image_fixture(w, h, r, 0x746170 + (uint64_t)kind);
        double filter[VERDICT_MAX_WEIGHTS];
        for (int q = 0; q < fw * fw; q++)
            filter[q] = f.c.coef[q] + (q == tap ? kinds[kind].f_times * f.c.coef[q] + kinds[kind].plus : 0.0);
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = (float)reference_conv_point(f.in, w, h, p / w, p % w, filter, r, NULL);
        int thin = kind == 1 && tap == image_short_single_tap(w, h, r);  // F[r][2r] on one row, F[2r][r] on one column
        sweep_verdict v = thin ? expect_short_note(&f, tap, HINT_FILTER_SHORT)
                               : expect_hint(&f, kind == 1 && tap == r * fw + r ? HINT_CENTRE_MISSING : kinds[kind].key);
        char name[48];
        snprintf(name, sizeof(name), "F[%d][%d]", tap / fw, tap % fw);
        assert_non_null(strstr(v.hint, name));
        filter[(tap + 1) % (fw * fw)] *= 2.0;  // a second tap counted twice
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = (float)reference_conv_point(f.in, w, h, p / w, p % w, filter, r, NULL);
        verdict_sweep(&f.c, &f.b, &v);
        if (w >= (size_t)fw && h >= (size_t)fw)  // every tap reaches pixels of the image: two taps off show
            assert_null(strstr(v.hint, "the values match the convolution with the tap"));
        free_fixture(&f);
    }
    image_thin_tap_off(&g);
}

// f's output recomputed as the convolution with weights w (row by row, as
// the filter), in double.
static void image_output_with_weights(fixture *f, const double *w)
{
    for (size_t p = 0; p < f->cells; p++)
        f->out[f->guard + p] = (float)reference_conv_point(f->in, f->c.nx, f->c.ny, p / f->c.nx, p % f->c.nx, w, f->c.filter_radius, NULL);
}

// A random image of at least 2r+2 pixels each way (every tap reaches
// pixels of it, and more pixels than taps) and a random radius.
static fixture make_tap_image(rng *g, uint64_t salt)
{
    int r = 1 + (int)(rng_next(g) % CONV_MAX_RADIUS);
    size_t w = 2 * (size_t)r + 2 + rng_next(g) % 40, h = 2 * (size_t)r + 2 + rng_next(g) % 40;
    return make_image_fixture(w, h, r, salt);
}

// 1 if weight w on a tap of weight f is what a kernel with that tap off by a
// whole term gives (2f: counted twice, -f: subtracted, f + 1: a sum started
// at its pixel; verdict_image_tap_off), to within what a case's tolerance can
// tell: such an output is that mistake as much as a weight replaced, and a
// test of one names the other.
static int tap_off_alike(double f, double w)
{
    return fabs(w - 2.0 * f) < 1e-3 || fabs(w + f) < 1e-3 || fabs(w - f - 1.0) < 1e-3;
}

// Expects tap-weight on f and its hint to name every text of names; returns the verdict.
static sweep_verdict expect_tap_weight(fixture *f, const char *const *names, int n)
{
    sweep_verdict v = expect_hint(f, HINT_TAP_WEIGHT);
    for (int k = 0; k < n; k++)
        if (!strstr(v.hint, names[k]))
            fail_msg("the hint does not name %s: %s", names[k], v.hint);
    return v;
}

// One tap (not the centre, a random one) of a random image of radius r
// weighted with a constant near a weight: its own plus 3e-4 at radius 1
// (many pixels wrong), another tap's plus 2e-5 at radius 4 (that tap's
// weight within the tolerance on every pixel too). The fit tells either
// apart from the weight: tap-weight naming the constant, to 1e-6.
static void image_tap_near_weight(rng *g, int r, uint64_t salt)
{
    fixture f = make_image_fixture(2 * (size_t)r + 2 + rng_next(g) % 40, 2 * (size_t)r + 2 + rng_next(g) % 40, r, salt);
    int fw = 2 * r + 1, tap, other;
    do
        tap = (int)(rng_next(g) % (uint64_t)(fw * fw)), other = r == 1 ? tap : (int)(rng_next(g) % (uint64_t)(fw * fw));
    while (tap == r * fw + r || (r > 1 && other == tap));
    double w[VERDICT_MAX_WEIGHTS], constant = f.c.coef[other] + (r == 1 ? 3e-4 : 2e-5);
    for (int q = 0; q < fw * fw; q++)
        w[q] = q == tap ? constant : f.c.coef[q];
    printf("# tap near a weight: %zux%zu, r = %d, F[%d][%d] weighted with %.9g, F[%d][%d] = %.9g\n", f.c.nx, f.c.ny, r, tap / fw, tap % fw, constant,
           other / fw, other % fw, f.c.coef[other]);
    image_output_with_weights(&f, w);
    char name[24];
    snprintf(name, sizeof(name), "F[%d][%d]", tap / fw, tap % fw);
    const char *names[2] = {name, "weighted with"};
    sweep_verdict v = expect_tap_weight(&f, names, 2);
    double named = strtod(strstr(v.hint, "weighted with") + strlen("weighted with"), NULL);
    if (!(fabs(named - constant) < 1e-6))
        fail_msg("the hint names %.9g, not the constant %.9g: %s", named, constant, v.hint);
    free_fixture(&f);
}

// One tap (not the centre) weighted with another tap's weight (its mirror
// through the centre, its neighbour, its transposed tap, any tap) or with a
// constant, on images of random size and radius: tap-weight naming the tap
// and the weight it took; on an image of fewer pixels than taps (the
// weights fitted one tap at a time) too; a constant within 1e-3 of the
// tap's own weight or another's is the constant (image_tap_near_weight); on
// a single pixel, where any value is the centre with some weight, not.
static void test_image_tap_weight_one(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x776569676874ull);
    for (int t = 0; t < 15; t++) {
        int kind = t % 5;
        fixture f = t < 10 ? make_tap_image(&g, 0x7770 + (uint64_t)t) : make_image_fixture(5, 6, 3, 0x7770 + (uint64_t)t);
        int r = f.c.filter_radius, fw = 2 * r + 1, e = 2 * r, tap, i, j, other = -1;
        do {
            tap = (int)(rng_next(&g) % (uint64_t)(fw * fw));
            i = tap / fw, j = tap % fw;
        } while ((i == r && j == r) || (kind == 0 && i + j == e) || (kind == 2 && i == j));  // a mirror tap that is not its transposed tap; a transposed tap of its own
        other = kind == 0 ? (e - i) * fw + (e - j) : kind == 1 ? i * fw + (j < e ? j + 1 : j - 1) : kind == 2 ? j * fw + i
              : kind == 3 ? (tap + 1 + (int)(rng_next(&g) % (uint64_t)(fw * fw - 1))) % (fw * fw) : -1;
        double w[VERDICT_MAX_WEIGHTS], constant = rng_next(&g) % 2 ? 1.0 : 2.5 * rng_unit(&g);
        for (int q = 0; q < fw * fw; q++)
            w[q] = f.c.coef[q];
        w[tap] = other >= 0 ? f.c.coef[other] : constant;
        if (tap_off_alike(f.c.coef[tap], w[tap])) {  // that tap off by a whole term as well: another draw
            free_fixture(&f);
            t--;
            continue;
        }
        printf("# tap weight: %zux%zu, r = %d, F[%d][%d] weighted with %s%d (%g)\n", f.c.nx, f.c.ny, r, i, j, other >= 0 ? "tap " : "a constant ", other, w[tap]);
        image_output_with_weights(&f, w);
        static const char *const relations[5] = {"mirror tap through the filter's centre", "neighbour", "transposed tap", "F[", "weighted with"};
        char name[24], took[24];
        snprintf(name, sizeof(name), "F[%d][%d]", i, j);
        snprintf(took, sizeof(took), "F[%d][%d]", (other >= 0 ? other : tap) / fw, (other >= 0 ? other : tap) % fw);
        const char *names[3] = {name, took, relations[kind]};
        sweep_verdict v = expect_tap_weight(&f, names, 3);
        if (other < 0)  // the constant, as fitted: "weighted with 2.3456 (...)"
            assert_true(fabs(strtod(strstr(v.hint, "weighted with") + strlen("weighted with"), NULL) - constant) < 1e-4);
        free_fixture(&f);
    }
    image_tap_near_weight(&g, 1, 0x7790);
    image_tap_near_weight(&g, CONV_MAX_RADIUS, 0x7791);
    fixture f = make_image_fixture(1, 1, 1 + (int)(rng_next(&g) % CONV_MAX_RADIUS), 0x7780);
    double w[VERDICT_MAX_WEIGHTS];
    for (int q = 0; q < VERDICT_MAX_WEIGHTS; q++)
        w[q] = q < FILTER_NWEIGHTS(f.c.filter_radius) ? f.c.coef[q] : 0.0;
    w[FILTER_NWEIGHTS(f.c.filter_radius) / 2] = 1.0;  // the centre weighted with 1: also any other value there
    image_output_with_weights(&f, w);
    sweep_verdict v;
    assert_false(verdict_sweep(&f.c, &f.b, &v));
    assert_string_not_equal(v.hint_key, HINT_TAP_WEIGHT);
    free_fixture(&f);
}

// The weight a kernel indexing its filter by pattern `what` gives tap
// (i, j) of f's filter (F's 9x9 memory holds 0 past the filter; `beyond`
// stands for what lies outside F).
enum { PATTERN_ROW_MIRROR, PATTERN_COLUMN_MIRROR, PATTERN_OTHER_DIAGONAL, PATTERN_TURNED, PATTERN_TURNED_BACK,
       PATTERN_RIGHT, PATTERN_LEFT, PATTERN_DOWN, PATTERN_UP, PATTERNS };
static double image_pattern_weight(const fixture *f, int what, int i, int j, double beyond)
{
    int fw = 2 * f->c.filter_radius + 1, e = fw - 1, si = i, sj = j;
    switch (what) {
    case PATTERN_ROW_MIRROR: si = e - i; break;
    case PATTERN_COLUMN_MIRROR: sj = e - j; break;
    case PATTERN_OTHER_DIAGONAL: si = e - j, sj = e - i; break;
    case PATTERN_TURNED: si = j, sj = e - i; break;
    case PATTERN_TURNED_BACK: si = e - j, sj = i; break;
    case PATTERN_RIGHT: sj = j + 1; break;
    case PATTERN_LEFT: sj = j - 1; break;
    case PATTERN_DOWN: si = i + 1; break;
    default: si = i - 1; break;
    }
    int flat = si * CONV_MAX_WIDTH + sj;
    if (flat < 0 || flat >= CONV_MAX_WIDTH * CONV_MAX_WIDTH)
        return beyond;
    si = flat / CONV_MAX_WIDTH, sj = flat % CONV_MAX_WIDTH;
    return si < fw && sj < fw ? f->c.coef[si * fw + sj] : 0.0;
}

// The filter (scope 0), one row (1) or one column (2) of it indexed by
// pattern `what` (mirrored across a centre line or the other diagonal,
// turned by 90 degrees either way, read one tap to a side), or two taps'
// weights exchanged (scope 3), on images of random size and radius:
// tap-weight, the hint naming the index used or the taps.
static void test_image_tap_weight_patterns(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x7061747465726eull);
    static const char *const index[PATTERNS] = {"F[2r-i][j]", "F[i][2r-j]", "F[2r-j][2r-i]", "F[j][2r-i]", "F[2r-j][i]",
                                                "F[i][j+1]", "F[i][j-1]", "F[i+1][j]", "F[i-1][j]"};
    for (int t = 0; t < PATTERNS + 4 + 8; t++) {
        fixture f = make_tap_image(&g, 0x7061 + (uint64_t)t);
        int fw = 2 * f.c.filter_radius + 1, line = 1 + (int)(rng_next(&g) % (uint64_t)(fw - 2));
        int scope = t < PATTERNS ? 0 : t < PATTERNS + 4 ? 3 : 1 + t % 2, what = scope == 0 ? t : PATTERN_RIGHT + t / 2 % 4;
        int a = (int)(rng_next(&g) % (uint64_t)(fw * fw)), b = (a + 1 + (int)(rng_next(&g) % (uint64_t)(fw * fw - 1))) % (fw * fw);
        double w[VERDICT_MAX_WEIGHTS], beyond = rng_unit(&g);
        char text[2][64];
        for (int q = 0; q < fw * fw; q++) {
            int i = q / fw, j = q % fw, in = scope == 0 || (scope == 1 && i == line) || (scope == 2 && j == line);
            w[q] = scope == 3 ? f.c.coef[q == a ? b : q == b ? a : q] : in ? image_pattern_weight(&f, what, i, j, beyond) : f.c.coef[q];
        }
        if (scope == 3) {
            snprintf(text[0], sizeof(text[0]), "F[%d][%d] (on", a / fw, a % fw);
            snprintf(text[1], sizeof(text[1]), "F[%d][%d] (on", b / fw, b % fw);
        } else {
            snprintf(text[0], sizeof(text[0]), "(%s for F[i][j]", index[what]);
            snprintf(text[1], sizeof(text[1]), scope == 0 ? "F[i][j]" : scope == 1 ? ", i = %d" : ", j = %d", line);
        }
        printf("# weight pattern: %zux%zu, r = %d, %s, scope %d\n", f.c.nx, f.c.ny, f.c.filter_radius, scope == 3 ? "two taps" : index[what], scope);
        image_output_with_weights(&f, w);
        const char *names[2] = {text[0], text[1]};
        expect_tap_weight(&f, names, 2);
        free_fixture(&f);
    }
}

// Kernels the weights must not be named for: right ones summing their taps
// in another order in float (each pixel its own random order, with fma or
// without) pass; kernels with two unrelated mistakes (two taps with other
// taps' weights, or one with a constant; one tap's weight and one pixel
// wrong besides; one tap's weight wrong on half the image only) keep
// wrong-values.
static void test_image_tap_weight_negatives(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6e65676174ull);
    for (int t = 0; t < 12; t++) {
        fixture f = make_tap_image(&g, 0x6e65 + (uint64_t)t);
        int r = f.c.filter_radius, fw = 2 * r + 1, order[VERDICT_MAX_WEIGHTS];
        for (size_t p = 0; p < f.cells; p++) {  // a right kernel, summing in an order of its own
            long row = (long)(p / f.c.nx), col = (long)(p % f.c.nx);
            float sum = 0.0f;
            for (int q = 0; q < fw * fw; q++)
                order[q] = q;
            for (int q = fw * fw - 1; q > 0; q--) {
                int k = (int)(rng_next(&g) % (uint64_t)(q + 1)), keep = order[q];
                order[q] = order[k], order[k] = keep;
            }
            for (int n = 0; n < fw * fw; n++) {
                long y = row + order[n] / fw - r, x = col + order[n] % fw - r;
                float pixel = y < 0 || y >= (long)f.c.ny || x < 0 || x >= (long)f.c.nx ? 0.0f : f.in[y * (long)f.c.nx + x];
                sum = t % 2 ? fmaf(f.c.coef[order[n]], pixel, sum) : sum + f.c.coef[order[n]] * pixel;
            }
            f.out[f.guard + p] = sum;
        }
        expect_hint(&f, NULL);
        int a, b;
        do  // a tap whose neighbour's weight is not also that tap off by a whole term
            a = (int)(rng_next(&g) % (uint64_t)(fw * fw)), b = (a + 1 + (int)(rng_next(&g) % (uint64_t)(fw * fw - 1))) % (fw * fw);
        while (tap_off_alike(f.c.coef[a], f.c.coef[(a + 1) % (fw * fw)]));
        double w[VERDICT_MAX_WEIGHTS];
        for (int q = 0; q < fw * fw; q++)
            w[q] = f.c.coef[q];
        w[a] = f.c.coef[(a + 1) % (fw * fw)];
        w[b] = t % 2 ? 1.0 : f.c.coef[(b + fw) % (fw * fw)];
        printf("# two mistakes: %zux%zu, r = %d, F[%d][%d] and F[%d][%d]\n", f.c.nx, f.c.ny, r, a / fw, a % fw, b / fw, b % fw);
        image_output_with_weights(&f, w);
        expect_hint(&f, HINT_WRONG_VALUES);
        w[b] = f.c.coef[b];  // one tap's weight alone: named, but not with one pixel wrong besides, nor when half the image is right
        image_output_with_weights(&f, w);
        expect_hint(&f, HINT_TAP_WEIGHT);
        size_t p0 = rng_next(&g) % f.cells;
        f.out[f.guard + p0] += 1.0f;
        expect_hint(&f, HINT_WRONG_VALUES);
        image_output_with_weights(&f, w);  // the top half's pixels with the tap's weight wrong, the bottom half's right
        for (int q = 0; q < fw * fw; q++)
            w[q] = f.c.coef[q];
        for (size_t p = f.cells / f.c.ny * (f.c.ny / 2); p < f.cells; p++)
            f.out[f.guard + p] = (float)reference_conv_point(f.in, f.c.nx, f.c.ny, p / f.c.nx, p % f.c.nx, w, r, NULL);
        expect_hint(&f, HINT_WRONG_VALUES);
        free_fixture(&f);
    }
}

// A convolution whose tap loops stop one short (i, j < 2r: the filter's
// last row and column left out), on an image of random size and radius:
// filter-loop-short; the same filter with only its last row left out is
// no such kernel.
static void test_image_filter_loop_short(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x73686f7274ull);
    size_t w = 5 + rng_next(&g) % 30, h = 5 + rng_next(&g) % 30;
    int r = 1 + (int)(rng_next(&g) % 4), fw = 2 * r + 1;
    printf("# filter loop short: %zux%zu, r = %d\n", w, h, r);
    fixture f = make_image_fixture(w, h, r, 0x73686f);
    for (int last_column = 1; last_column >= 0; last_column--) {
        double filter[VERDICT_MAX_WEIGHTS];
        for (int i = 0; i < fw; i++)
            for (int j = 0; j < fw; j++)
                filter[i * fw + j] = i == fw - 1 || (last_column && j == fw - 1) ? 0.0 : f.c.coef[i * fw + j];
        for (size_t p = 0; p < f.cells; p++)
            f.out[f.guard + p] = (float)reference_conv_point(f.in, w, h, p / w, p % w, filter, r, NULL);
        sweep_verdict v;
        verdict_sweep(&f.c, &f.b, &v);
        assert_non_null(v.hint_key);
        if (last_column)
            assert_string_equal(v.hint_key, HINT_FILTER_SHORT);
        else
            assert_string_not_equal(v.hint_key, HINT_FILTER_SHORT);
    }
    free_fixture(&f);
}

// An image whose first r rows and columns were never written, all else
// right (a tile mapping without its - r), on a random size and radius:
// unwritten-cells naming those rows and columns; the first r rows alone are
// not that pattern (whatever else they are named).
static void test_image_origin_shifted(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x6f726967ull);
    int r = 1 + (int)(rng_next(&g) % 4);
    size_t w = (size_t)r + 2 + rng_next(&g) % 30, h = (size_t)r + 2 + rng_next(&g) % 30;
    printf("# origin shifted: %zux%zu, r = %d\n", w, h, r);
    fixture f = make_image_fixture(w, h, r, 0x6f7269);
    for (size_t p = 0; p < f.cells; p++)
        if (p / w < (size_t)r)
            fill_bits(&f.out[f.guard + p], 1, POISON_BITS);
    sweep_verdict v;
    assert_false(verdict_sweep(&f.c, &f.b, &v));
    assert_null(strstr(v.hint, "rows and columns were never written"));
    for (size_t p = 0; p < f.cells; p++)
        if (p % w < (size_t)r)
            fill_bits(&f.out[f.guard + p], 1, POISON_BITS);
    v = expect_hint(&f, HINT_UNWRITTEN);
    assert_non_null(strstr(v.hint, "rows and columns were never written"));
    free_fixture(&f);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correct_passes),
        cmocka_unit_test(test_tolerance_edge),
        cmocka_unit_test(test_large_grid_clean_pass),
        cmocka_unit_test(test_lone_cell_no_window),
        cmocka_unit_test(test_gpu_check_sample),
        cmocka_unit_test(test_gpu_check_sample_side_by_side),
        cmocka_unit_test(test_gpu_check_sample_rows),
        cmocka_unit_test(test_large_grid_walk_threads),
        cmocka_unit_test(test_nothing_written),
        cmocka_unit_test(test_unwritten_patterns),
        cmocka_unit_test(test_nan_and_value_text),
        cmocka_unit_test(test_boundary_changed),
        cmocka_unit_test(test_guards_and_input),
        cmocka_unit_test(test_alternative_stencils),
        cmocka_unit_test(test_alternative_refuted_by_right_cells),
        cmocka_unit_test(test_single_term_mistakes),
        cmocka_unit_test(test_term_from_other_lane),
        cmocka_unit_test(test_neighbour_offset),
        cmocka_unit_test(test_tile_seam_and_index_overflow),
        cmocka_unit_test(test_grid_stops_short),
        cmocka_unit_test(test_tile_edges),
        cmocka_unit_test(test_whole_planes),
        cmocka_unit_test(test_plane_window),
        cmocka_unit_test(test_plane_window_radius_two),
        cmocka_unit_test(test_trailing_planes),
        cmocka_unit_test(test_term_missing_at_faces),
        cmocka_unit_test(test_image_tap_off),
        cmocka_unit_test(test_image_tap_weight_one),
        cmocka_unit_test(test_image_tap_weight_patterns),
        cmocka_unit_test(test_image_tap_weight_negatives),
        cmocka_unit_test(test_image_filter_loop_short),
        cmocka_unit_test(test_image_origin_shifted),
        cmocka_unit_test(test_thread_order_and_timing),
        cmocka_unit_test(test_no_interior),
        cmocka_unit_test(test_grids),
        cmocka_unit_test(test_sizes_mixed),
        cmocka_unit_test(test_radius_two),
        cmocka_unit_test(test_image_correct_passes),
        cmocka_unit_test(test_image_ghost_cells),
        cmocka_unit_test(test_image_all_edge_others),
        cmocka_unit_test(test_image_sizes_mixed),
    };
    return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
