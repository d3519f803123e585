// tests/unit/test_verdict.c — the verdicts and hints on synthetic outputs:
// a right answer, then one planted mistake at a time.
#include "test_util.h"

#include <math.h>

#include "protocol.h"
#include "stencil_ref.h"
#include "verdict.h"

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

// A case of edge n with random input and coefficients, and its correct output.
static fixture make_fixture(size_t n, uint64_t salt)
{
    fixture f;
    rng r;
    memset(&f, 0, sizeof(f));
    rng_init(&r, test_seed() ^ salt);
    f.n = n;
    f.cells = n * n * n;
    f.guard = (size_t)protocol_guard_cells(n * n);
    f.in = malloc(f.cells * sizeof(float));
    f.out = malloc((f.cells + 2 * f.guard) * sizeof(float));
    f.in_after = malloc((f.cells + 2 * f.guard) * sizeof(float));
    rng_fill(&r, f.in, f.cells);
    rng_coefficients(&r, f.c.coef, 7);
    double coef[7], *ref = malloc(f.cells * sizeof(double));
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    reference_sweep7(f.in, ref, n, n, n, coef);
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
    f.c.nx = f.c.ny = f.c.nz = n;
    f.c.rtol = 1e-6;
    f.c.atol = 1e-9;
    f.b.out = f.out;
    f.b.in_after = f.in_after;
    f.b.guard = f.guard;
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
                *cell(f, i, j, k) = (float)reference_point7(f->in, f->n, f->n, i, j, k, coef, NULL);
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

// A cell off by exactly the allowed error passes; twice that fails.
static void test_tolerance_edge(void **state)
{
    (void)state;
    fixture f = make_fixture(6, 2);
    double coef[7], scale;
    for (int q = 0; q < 7; q++)
        coef[q] = f.c.coef[q];
    double want = reference_point7(f.in, 6, 6, 2, 3, 4, coef, &scale);
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
    expect_hint(&f, HINT_OFF_BY_ONE);
    fill_bits(cell(&f, 5, 5, 5), 1, POISON_BITS);  // and one in the middle
    expect_hint(&f, HINT_UNWRITTEN);
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
        if (!reference_is_interior(f.n, f.n, f.n, p / (f.n * f.n), p / f.n % f.n, p % f.n))
            f.out[f.guard + p] = f.in[p];
    expect_hint(&f, HINT_INDEX_OVERFLOW);
    free_fixture(&f);
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
                *cell(&f, i, j, k) = 0.25f;
    sweep_verdict v = expect_hint(&f, HINT_WHOLE_PLANES);
    assert_int_equal(v.wrong, 6 * 12 * 12);
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

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correct_passes),
        cmocka_unit_test(test_tolerance_edge),
        cmocka_unit_test(test_nothing_written),
        cmocka_unit_test(test_unwritten_patterns),
        cmocka_unit_test(test_nan_and_value_text),
        cmocka_unit_test(test_boundary_changed),
        cmocka_unit_test(test_guards_and_input),
        cmocka_unit_test(test_alternative_stencils),
        cmocka_unit_test(test_neighbour_offset),
        cmocka_unit_test(test_tile_seam_and_index_overflow),
        cmocka_unit_test(test_tile_edges),
        cmocka_unit_test(test_whole_planes),
        cmocka_unit_test(test_thread_order_and_timing),
        cmocka_unit_test(test_no_interior),
    };
    return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
