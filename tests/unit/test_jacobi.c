// tests/unit/test_jacobi.c — the whole-solve labs: the CPU reference Jacobi
// iteration (labs 5, 9) against values computed by hand and against the
// manufactured solution; then the verdict on synthetic runs: a right answer,
// and one planted mistake at a time, each of which must get its name. Last,
// the same for the heat update (lab 10).
#include "test_util.h"

#include <math.h>

#include "jacobi_ref.h"
#include "jacobi_verdict.h"
#include "protocol.h"
#include "verdict.h"

// ---------------------------------------------------------------------------
// The reference, by hand
// ---------------------------------------------------------------------------

// Fails the test unless |got - want| <= eps.
static void assert_near(double got, double want, double eps)
{
    if (!(fabs(got - want) <= eps))
        fail_msg("got %.17g, want %.17g (within %g)", got, want, eps);
}

// Index of (i, j, k) in a grid of nx × ny points per plane.
static size_t at(size_t nx, size_t ny, size_t i, size_t j, size_t k)
{
    return (i * ny + j) * nx + k;
}

static void test_source_maps(void **state)
{
    (void)state;
    assert_int_equal(jacobi_source(0, 6, JACOBI_BC_NEUMANN), 1);
    assert_int_equal(jacobi_source(5, 6, JACOBI_BC_NEUMANN), 4);
    assert_int_equal(jacobi_source(0, 6, JACOBI_BC_PERIODIC), 4);
    assert_int_equal(jacobi_source(5, 6, JACOBI_BC_PERIODIC), 1);
    assert_int_equal(jacobi_source(0, 6, JACOBI_BC_DIRICHLET), 0);
    for (size_t x = 1; x < 5; x++)
        assert_int_equal(jacobi_source(x, 6, JACOBI_BC_PERIODIC), x);
    assert_int_equal(jacobi_source(0, 3, JACOBI_BC_PERIODIC), 1);  // one interior layer: both faces copy it
    assert_int_equal(jacobi_source(2, 3, JACOBI_BC_PERIODIC), 1);
    assert_int_equal(jacobi_bc_parse("periodic"), JACOBI_BC_PERIODIC);
    assert_int_equal(jacobi_bc_parse("reflecting"), -1);
    assert_string_equal(jacobi_bc_name(JACOBI_BC_NEUMANN), "neumann");
}

// A 4×3×3 grid (nx = 4: interior k = 1, 2; j = i = 1) with a few non-zero
// cells, h = 0.5 and f = 8 at (1,1,1): after one sweep
//   v(1,1,1) = (u(1,1,0) + u(0,1,1) - h²f) / 6 = (6 + 3 - 2) / 6 = 7/6
//   v(1,1,2) = (u(1,1,3) + u(2,1,2)) / 6     = (12 - 6) / 6   = 1
typedef struct tiny {
    jacobi_grid g;      // 4×3×3, h = 0.5
    float u0[36];       // the initial grid
    float f[36];        // f
    double u[36];       // the result
} tiny;

// The tiny grid with bc, after iters iterations.
static void tiny_run(tiny *t, int bc, int iters)
{
    jacobi_grid g = {4, 3, 3, 0.5, bc, JACOBI_UPDATE_JACOBI, 0.0};
    memset(t, 0, sizeof(*t));
    t->g = g;
    t->u0[at(4, 3, 1, 1, 0)] = 6;
    t->u0[at(4, 3, 1, 1, 3)] = 12;
    t->u0[at(4, 3, 0, 1, 1)] = 3;
    t->u0[at(4, 3, 2, 1, 2)] = -6;
    t->f[at(4, 3, 1, 1, 1)] = 8;
    jacobi_run run = {iters, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    assert_int_equal(jacobi_ref_solve(&t->g, t->u0, t->f, &run, t->u, &out), 0);
    assert_int_equal(out.iters, iters);
    assert_true(out.residual == -1.0);
}

// The value of the tiny result at (i, j, k).
static double tiny_at(const tiny *t, size_t i, size_t j, size_t k)
{
    return t->u[at(4, 3, i, j, k)];
}

static void test_dirichlet_by_hand(void **state)
{
    (void)state;
    tiny t;
    tiny_run(&t, JACOBI_BC_DIRICHLET, 1);
    assert_near(tiny_at(&t, 1, 1, 1), 7.0 / 6.0, 1e-15);
    assert_near(tiny_at(&t, 1, 1, 2), 1.0, 1e-15);
    for (size_t p = 0; p < 36; p++)  // every boundary cell keeps its initial value
        if (p != at(4, 3, 1, 1, 1) && p != at(4, 3, 1, 1, 2))
            assert_true(t.u[p] == t.u0[p]);
    tiny_run(&t, JACOBI_BC_DIRICHLET, 2);  // second sweep: v(1,1,1) = (6 + 1 + 3 - 2) / 6
    assert_near(tiny_at(&t, 1, 1, 1), 8.0 / 6.0, 1e-15);
    assert_near(tiny_at(&t, 1, 1, 2), (7.0 / 6.0 + 12.0 - 6.0) / 6.0, 1e-15);
}

static void test_neumann_by_hand(void **state)
{
    (void)state;
    tiny t;
    tiny_run(&t, JACOBI_BC_NEUMANN, 1);
    double a = 7.0 / 6.0, b = 1.0;
    assert_near(tiny_at(&t, 1, 1, 1), a, 1e-15);
    assert_near(tiny_at(&t, 1, 1, 2), b, 1e-15);
    assert_near(tiny_at(&t, 1, 1, 0), a, 1e-15);  // x faces copy their own neighbour
    assert_near(tiny_at(&t, 1, 1, 3), b, 1e-15);
    assert_near(tiny_at(&t, 0, 1, 2), b, 1e-15);  // z face
    assert_near(tiny_at(&t, 1, 2, 1), a, 1e-15);  // y face
    assert_near(tiny_at(&t, 0, 0, 0), a, 1e-15);  // corners copy the nearest interior cell
    assert_near(tiny_at(&t, 2, 2, 3), b, 1e-15);
    assert_near(tiny_at(&t, 2, 0, 1), a, 1e-15);  // an edge
}

static void test_periodic_by_hand(void **state)
{
    (void)state;
    tiny t;
    tiny_run(&t, JACOBI_BC_PERIODIC, 1);
    double a = 7.0 / 6.0, b = 1.0;
    assert_near(tiny_at(&t, 1, 1, 0), b, 1e-15);  // face k=0 copies k = nx-2 = 2
    assert_near(tiny_at(&t, 1, 1, 3), a, 1e-15);  // face k=3 copies k = 1
    assert_near(tiny_at(&t, 0, 0, 0), b, 1e-15);  // corner copies (nz-2, ny-2, nx-2) = (1,1,2)
    assert_near(tiny_at(&t, 2, 2, 3), a, 1e-15);  // corner copies (1, 1, 1)
    assert_near(tiny_at(&t, 0, 1, 1), a, 1e-15);  // one interior layer in z: both z faces copy it
    assert_near(tiny_at(&t, 2, 1, 1), a, 1e-15);
    tiny_run(&t, JACOBI_BC_PERIODIC, 2);  // second sweep reads the wrapped values: v(1,1,1) = (b + b + 4a + ... )
    double v111 = (b + b + a + a + a + a - 2.0) / 6.0;   // x: (1,1,0)=b, (1,1,2)=b; y, z faces: a
    double v112 = (a + a + b + b + b + b) / 6.0;         // x: (1,1,1)=a, (1,1,3)=a
    assert_near(tiny_at(&t, 1, 1, 1), v111, 1e-15);
    assert_near(tiny_at(&t, 1, 1, 2), v112, 1e-15);
}

static void test_residual_by_hand(void **state)
{
    (void)state;
    tiny t;
    tiny_run(&t, JACOBI_BC_DIRICHLET, 0);
    double u0[36];
    for (size_t p = 0; p < 36; p++)
        u0[p] = t.u0[p];
    // d(1,1,1) = 6 + 3 - 0 - 2 = 7; d(1,1,2) = 12 - 6 = 6
    assert_near(jacobi_ref_residual(&t.g, u0, t.f), sqrt((49.0 + 36.0) / 2.0), 1e-14);
    assert_near(jacobi_ref_residual_float(&t.g, t.u0, t.f), sqrt((49.0 + 36.0) / 2.0), 1e-14);
    // A field linear in every axis with f = 0 solves the equation: residual 0.
    jacobi_grid g = {7, 6, 5, 0.25, JACOBI_BC_DIRICHLET, JACOBI_UPDATE_JACOBI, 0.0};
    double lin[210];
    float zero[210] = {0};
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 6; j++)
            for (size_t k = 0; k < 7; k++)
                lin[at(7, 6, i, j, k)] = 1.0 + 2.0 * k - 3.0 * j + 0.5 * i;
    assert_true(jacobi_ref_residual(&g, lin, zero) == 0.0);
}

// Random grid and f for g (f scaled by 1/h² as the judge does).
static void random_grids(const jacobi_grid *g, uint64_t salt, float *u0, float *f)
{
    rng r;
    size_t cells = jacobi_cells(g);
    rng_init(&r, test_seed() ^ salt);
    rng_fill(&r, u0, cells);
    rng_fill(&r, f, cells);
    for (size_t p = 0; p < cells; p++)
        f[p] = (float)(f[p] / (g->h * g->h));
}

static void test_gauss_seidel_differs(void **state)
{
    (void)state;
    jacobi_grid g = {6, 5, 4, 0.2, JACOBI_BC_NEUMANN, JACOBI_UPDATE_JACOBI, 0.0};
    float u0[120], f[120];
    double jac[120], gs[120];
    jacobi_outcome out = {0};
    random_grids(&g, 11, u0, f);
    jacobi_run run = {1, 0, 0.0, JACOBI_EXACT};
    jacobi_ref_solve(&g, u0, f, &run, jac, &out);
    run.flaw = JACOBI_GAUSS_SEIDEL;
    jacobi_ref_solve(&g, u0, f, &run, gs, &out);
    // The first point in order reads only old values; the last reads new ones.
    assert_true(jac[at(6, 5, 1, 1, 1)] == gs[at(6, 5, 1, 1, 1)]);
    assert_true(fabs(jac[at(6, 5, 2, 3, 4)] - gs[at(6, 5, 2, 3, 4)]) > 1e-6);
}

static void test_prev_and_boundary_first(void **state)
{
    (void)state;
    jacobi_grid g = {7, 6, 5, 0.2, JACOBI_BC_PERIODIC, JACOBI_UPDATE_JACOBI, 0.0};
    float u0[210], f[210];
    double a[210], b[210], prev[210];
    jacobi_outcome out = {0};
    random_grids(&g, 12, u0, f);
    jacobi_run run = {5, 0, 0.0, JACOBI_EXACT};
    out.prev = prev;
    jacobi_ref_solve(&g, u0, f, &run, a, &out);
    run.iters = 4;
    out.prev = NULL;
    jacobi_ref_solve(&g, u0, f, &run, b, &out);
    assert_memory_equal(prev, b, sizeof(b));  // prev of 5 iterations is the grid after 4
    g.bc = JACOBI_BC_DIRICHLET;               // no boundary step: running it first changes nothing
    run.flaw = JACOBI_BOUNDARY_FIRST;
    jacobi_ref_solve(&g, u0, f, &run, a, &out);
    run.flaw = JACOBI_EXACT;
    jacobi_ref_solve(&g, u0, f, &run, b, &out);
    assert_memory_equal(a, b, sizeof(a));
}

static void test_early_stop(void **state)
{
    (void)state;
    jacobi_grid g = {12, 11, 10, (double)(float)(1.0 / 11), JACOBI_BC_DIRICHLET, JACOBI_UPDATE_JACOBI, 0.0};
    size_t cells = jacobi_cells(&g);
    float *u0 = malloc(cells * sizeof(float)), *f = malloc(cells * sizeof(float));
    double *u = malloc(cells * sizeof(double)), hist[40];
    random_grids(&g, 13, u0, f);
    jacobi_run run = {200, 5, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    out.history = hist;
    jacobi_ref_solve(&g, u0, f, &run, u, &out);
    assert_true(hist[39] < hist[0]);  // converging
    run.stop_below = sqrt(hist[9] * hist[10]);  // between the 10th and 11th checks
    jacobi_ref_solve(&g, u0, f, &run, u, &out);
    assert_int_equal(out.iters, 55);
    assert_true(out.residual == hist[10]);
    assert_near(jacobi_ref_residual(&g, u, f), out.residual, 1e-15);
    free(u0);
    free(f);
    free(u);
}

// Max error against the exact solution after iters iterations on an n³ cube.
static double mms_error(size_t n, int iters)
{
    jacobi_grid g = {n, n, n, 1.0 / (double)(n - 1), JACOBI_BC_DIRICHLET, JACOBI_UPDATE_JACOBI, 0.0};
    size_t cells = jacobi_cells(&g);
    float *u0 = malloc(cells * sizeof(float)), *f = malloc(cells * sizeof(float));
    double *u = malloc(cells * sizeof(double)), worst = 0.0;
    jacobi_mms_fill(&g, u0, f);
    jacobi_run run = {iters, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    jacobi_ref_solve(&g, u0, f, &run, u, &out);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++)
                worst = fmax(worst, fabs(u[at(n, n, i, j, k)] - jacobi_mms_exact(&g, i, j, k)));
    free(u0);
    free(f);
    free(u);
    return worst;
}

// u = sin(pi x) sin(pi y) sin(pi z): halving h cuts the error about 4x.
static void test_manufactured_second_order(void **state)
{
    (void)state;
    double coarse = mms_error(9, 400), fine = mms_error(17, 400);
    double ratio = coarse / fine;
    printf("# manufactured solution: error %.4e at h=1/8, %.4e at h=1/16, ratio %.3f\n", coarse, fine, ratio);
    assert_true(ratio >= 3.0 && ratio <= 5.0);
    // The discrete solution is c·u with c = pi²h² / (2 (1 - cos(pi h))): error c - 1.
    double h = 1.0 / 16, pi = 3.14159265358979323846;
    assert_near(fine, pi * pi * h * h / (2.0 * (1.0 - cos(pi * h))) - 1.0, 1e-4);
}

// ---------------------------------------------------------------------------
// The verdict on synthetic runs
// ---------------------------------------------------------------------------

typedef struct fixture {
    jacobi_case c;              // the case
    size_t cells, guard;        // grid cells, guard cells
    float *u0, *f;              // the inputs
    float *a, *b, *f_after;     // guard | grid | guard, as the runner saves them
    double *want, *prev;        // the reference after K and K-1 iterations
    jacobi_outputs o;           // what the verdict sees
} fixture;

// Fills n floats with a bit pattern.
static void fill_bits(float *g, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        memcpy(&g[i], &bits, sizeof(bits));
}

// A guarded buffer holding the float version of grid.
static float *guarded(const double *grid, size_t cells, size_t guard)
{
    float *b = malloc((cells + 2 * guard) * sizeof(float));
    fill_bits(b, guard, GUARD_BITS);
    fill_bits(b + guard + cells, guard, GUARD_BITS);
    for (size_t p = 0; p < cells; p++)
        b[guard + p] = (float)grid[p];
    return b;
}

// A fixture for grid g and iters iterations, its u0 and f drawn at random
// from salt, its buffers not yet laid out (fixture_run).
static fixture fixture_alloc(jacobi_grid g, int iters, uint64_t salt)
{
    fixture x;
    memset(&x, 0, sizeof(x));
    x.c.g = g;
    x.c.max_iters = iters;
    x.c.rtol = 2e-6;
    x.c.atol = 1e-7;
    x.cells = jacobi_cells(&x.c.g);
    x.guard = (size_t)protocol_guard_cells(g.nx * g.ny);
    x.u0 = malloc(x.cells * sizeof(float));
    x.f = malloc(x.cells * sizeof(float));
    x.want = malloc(x.cells * sizeof(double));
    x.prev = malloc(x.cells * sizeof(double));
    random_grids(&x.c.g, salt, x.u0, x.f);
    return x;
}

// Runs the reference for x's case from its u0 and f and lays out what a
// correct run leaves: d_a the result after K (even) iterations, d_b the grid
// before it, f unchanged, guards intact.
static void fixture_run(fixture *x)
{
    int iters = x->c.max_iters;
    x->c.u0 = x->u0;
    x->c.f = x->f;
    jacobi_run run = {iters, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    out.prev = x->prev;
    jacobi_ref_solve(&x->c.g, x->u0, x->f, &run, x->want, &out);
    x->a = guarded(x->want, x->cells, x->guard);
    x->b = guarded(x->prev, x->cells, x->guard);
    x->f_after = malloc((x->cells + 2 * x->guard) * sizeof(float));
    fill_bits(x->f_after, x->guard, GUARD_BITS);
    fill_bits(x->f_after + x->guard + x->cells, x->guard, GUARD_BITS);
    memcpy(x->f_after + x->guard, x->f, x->cells * sizeof(float));
    x->o = (jacobi_outputs){x->a, x->b, x->f_after, NULL, NULL, x->guard, 0, iters, -1.0};
}

// A correct run of K (even) iterations on an nx×ny×nz grid with bc: d_a holds
// the result, d_b the grid before it.
static fixture make_fixture(size_t nx, size_t ny, size_t nz, int bc, int iters, uint64_t salt)
{
    fixture x = fixture_alloc((jacobi_grid){nx, ny, nz, (double)(float)(1.0 / (double)(nx - 1)), bc, JACOBI_UPDATE_JACOBI, 0.0}, iters, salt);
    double *d = malloc(x.cells * sizeof(double));
    for (size_t p = 0; p < x.cells; p++)
        d[p] = x.u0[p];
    jacobi_ref_boundary(&x.c.g, d);  // the initial grid satisfies the boundary condition
    for (size_t p = 0; p < x.cells; p++)
        x.u0[p] = (float)d[p];
    free(d);
    fixture_run(&x);
    return x;
}

// Frees what make_fixture allocated.
static void free_fixture(fixture *x)
{
    free(x->u0);
    free(x->f);
    free(x->a);
    free(x->b);
    free(x->f_after);
    free(x->want);
    free(x->prev);
}

// The returned grid's cell (i, j, k), writable.
static float *cell(fixture *x, size_t i, size_t j, size_t k)
{
    return &x->a[x->guard + at(x->c.g.nx, x->c.g.ny, i, j, k)];
}

// Judges x and checks the hint (NULL: a pass).
static jacobi_verdict expect_hint(fixture *x, const char *key)
{
    jacobi_verdict v;
    int passed = jacobi_judge(&x->c, &x->o, &v);
    if (!key && passed != 1)
        fail_msg("expected a pass, got %s: %s", v.hint_key, v.reason);
    if (key && (passed || !v.hint_key || strcmp(v.hint_key, key) != 0))
        fail_msg("expected hint %s, got %s (%s)", key, passed ? "a pass" : v.hint_key, v.reason);
    return v;
}

static void test_correct_passes(void **state)
{
    (void)state;
    for (int bc = 0; bc <= JACOBI_BC_PERIODIC; bc++) {
        fixture x = make_fixture(11, 9, 7, bc, 6, 20 + (uint64_t)bc);
        jacobi_verdict v = expect_hint(&x, NULL);
        assert_int_equal(v.wrong, 0);
        assert_true(v.max_err <= v.allowed);
        free_fixture(&x);
    }
}

static void test_claims_and_buffers(void **state)
{
    (void)state;
    fixture x = make_fixture(10, 8, 6, JACOBI_BC_NEUMANN, 4, 30);
    x.o.result = 1;                          // the grid before the last sweep
    expect_hint(&x, HINT_WRONG_BUFFER);
    x.o.result = 2;
    expect_hint(&x, HINT_WRONG_BUFFER);
    x.o.result = 0;
    x.o.iters = 3;                           // right grid, wrong count
    expect_hint(&x, HINT_ITERATIONS);
    x.o.iters = 4;
    x.f_after[x.guard + 5] += 1.0f;
    expect_hint(&x, HINT_INPUT_MODIFIED);
    x.f_after[x.guard + 5] = x.f[5];
    x.b[x.guard + x.cells + 2] = 0.0f;       // past the end of d_b
    expect_hint(&x, HINT_OUT_OF_BOUNDS);
    fill_bits(&x.b[x.guard + x.cells + 2], 1, GUARD_BITS);
    expect_hint(&x, NULL);
    free_fixture(&x);
}

static void test_nothing_and_in_place(void **state)
{
    (void)state;
    fixture x = make_fixture(10, 8, 6, JACOBI_BC_PERIODIC, 4, 31);
    memcpy(x.a + x.guard, x.u0, x.cells * sizeof(float));
    memcpy(x.b + x.guard, x.u0, x.cells * sizeof(float));
    x.o.iters = 0;
    expect_hint(&x, HINT_NOTHING_WRITTEN);
    x.o.iters = 4;
    jacobi_run run = {4, 0, 0.0, JACOBI_GAUSS_SEIDEL};  // d_a updated in place, d_b never written
    jacobi_outcome out = {0};
    double *gs = malloc(x.cells * sizeof(double));
    jacobi_ref_solve(&x.c.g, x.u0, x.f, &run, gs, &out);
    for (size_t p = 0; p < x.cells; p++)
        x.a[x.guard + p] = (float)gs[p];
    expect_hint(&x, HINT_IN_PLACE);
    free(gs);
    free_fixture(&x);
}

// Sets every boundary cell of the returned grid by rule source(x, n) per axis.
static void set_boundary(fixture *x, size_t (*source)(size_t, size_t))
{
    const jacobi_grid *g = &x->c.g;
    for (size_t i = 0; i < g->nz; i++)
        for (size_t j = 0; j < g->ny; j++)
            for (size_t k = 0; k < g->nx; k++)
                if (!jacobi_is_interior(g, i, j, k))
                    *cell(x, i, j, k) = *cell(x, source(i, g->nz), source(j, g->ny), source(k, g->nx));
}

// Periodic off by one: 0 -> n-3, n-1 -> 2.
static size_t wrap_off_by_one(size_t x, size_t n)
{
    return x == 0 ? n - 3 : x == n - 1 ? 2 : x;
}

// Neumann from the far side: 0 -> n-2, n-1 -> 1.
static size_t far_side(size_t x, size_t n)
{
    return x == 0 ? n - 2 : x == n - 1 ? 1 : x;
}

static void test_boundary_mistakes(void **state)
{
    (void)state;
    fixture x = make_fixture(10, 9, 8, JACOBI_BC_PERIODIC, 4, 32);
    set_boundary(&x, wrap_off_by_one);
    jacobi_verdict v = expect_hint(&x, HINT_PERIODIC_WRAP);
    assert_non_null(strstr(v.reason, "copies layer"));
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_NEUMANN, 4, 33);
    set_boundary(&x, far_side);
    expect_hint(&x, HINT_NEUMANN_SIDE);
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_NEUMANN, 4, 34);
    *cell(&x, 0, 0, 0) += 0.5f;              // one corner wrong, faces right
    expect_hint(&x, HINT_BOUNDARY_VALUES);
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_NEUMANN, 4, 35);
    for (size_t i = 1; i < 4; i++)           // part of a face still holds the previous iteration
        for (size_t j = 1; j < 8; j++)
            *cell(&x, i, j, 0) = x.b[x.guard + at(10, 9, i, j, 0)];
    expect_hint(&x, HINT_BOUNDARY_RACE);
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_NEUMANN, 4, 37);
    for (size_t j = 0; j < 9; j++)           // a whole face never set: it keeps the previous iteration
        for (size_t k = 0; k < 10; k++)
            *cell(&x, 7, j, k) = x.b[x.guard + at(10, 9, 7, j, k)];
    v = expect_hint(&x, HINT_BOUNDARY_VALUES);
    assert_non_null(strstr(v.hint, "face i=7 holds stale values"));
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_PERIODIC, 4, 38);
    for (size_t i = 0; i < 8; i++)           // periodic face k=0 written, but from a layer one iteration old
        for (size_t j = 0; j < 9; j++)
            *cell(&x, i, j, 0) = x.b[x.guard + at(10, 9, i, j, 0)];
    v = expect_hint(&x, HINT_PERIODIC_FACE);
    assert_non_null(strstr(v.reason, "k=0"));
    free_fixture(&x);

    x = make_fixture(10, 9, 8, JACOBI_BC_PERIODIC, 4, 39);
    for (size_t i = 0; i < 8; i++)           // periodic face k=9 never set: it keeps the initial grid
        for (size_t j = 0; j < 9; j++)
            *cell(&x, i, j, 9) = x.u0[at(10, 9, i, j, 9)];
    v = expect_hint(&x, HINT_BOUNDARY_VALUES);
    assert_non_null(strstr(v.hint, "k=9"));
    free_fixture(&x);

    for (int blocked = 0; blocked < 2; blocked++) {  // no boundary cell ever written, lab 5 and lab 9
        x = make_fixture(10, 9, 8, JACOBI_BC_NEUMANN, 4, 40 + (uint64_t)blocked);
        x.c.blocked = blocked;
        for (size_t i = 0; i < 8; i++)
            for (size_t j = 0; j < 9; j++)
                for (size_t k = 0; k < 10; k++)
                    if (!jacobi_is_interior(&x.c.g, i, j, k))
                        *cell(&x, i, j, k) = x.u0[at(10, 9, i, j, k)];
        v = expect_hint(&x, HINT_BOUNDARY_VALUES);
        assert_non_null(strstr(v.hint, "every face still holds the initial grid's values"));
        free_fixture(&x);
    }

    x = make_fixture(10, 9, 8, JACOBI_BC_DIRICHLET, 4, 36);
    *cell(&x, 7, 3, 3) = 0.0f;               // a Dirichlet boundary cell overwritten
    expect_hint(&x, HINT_BOUNDARY);
    free_fixture(&x);
}

static void test_sweep_mistakes(void **state)
{
    (void)state;
    fixture x = make_fixture(10, 9, 8, JACOBI_BC_DIRICHLET, 2, 40);
    double *alt = malloc(x.cells * sizeof(double));
    jacobi_grid g = x.c.g;
    float *flipped = malloc(x.cells * sizeof(float));
    for (size_t p = 0; p < x.cells; p++)     // the last sweep with +h²f: the same as f negated
        flipped[p] = -x.f[p];
    memcpy(alt, x.want, x.cells * sizeof(double));
    jacobi_ref_sweep(&g, x.prev, flipped, alt);
    for (size_t p = 0; p < x.cells; p++)
        x.a[x.guard + p] = (float)alt[p];
    expect_hint(&x, HINT_SOURCE_TERM);
    for (size_t p = 0; p < x.cells; p++)     // back to right, then the last interior plane never written
        x.a[x.guard + p] = (float)x.want[p];
    for (size_t j = 1; j < 8; j++)
        for (size_t k = 1; k < 9; k++)
            *cell(&x, 6, j, k) = x.u0[at(10, 9, 6, j, k)];
    expect_hint(&x, HINT_OFF_BY_ONE);
    *cell(&x, 6, 3, 3) = NAN;
    *cell(&x, 3, 3, 3) = x.u0[at(10, 9, 3, 3, 3)];
    expect_hint(&x, HINT_UNWRITTEN);
    free(alt);
    free(flipped);
    free_fixture(&x);
}

static void test_stopping_and_residual(void **state)
{
    (void)state;
    fixture x = make_fixture(12, 11, 10, JACOBI_BC_DIRICHLET, 40, 50);
    double hist[8];
    jacobi_run run = {40, 5, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    out.history = hist;
    jacobi_ref_solve(&x.c.g, x.u0, x.f, &run, x.want, &out);
    x.c.check_every = 5;
    x.o.residual = hist[7];
    expect_hint(&x, NULL);                    // 40 iterations, residual of the 8th check
    x.o.residual = 2.0 * hist[7];
    expect_hint(&x, HINT_RESIDUAL);
    x.o.residual = hist[7];
    x.c.tol = sqrt(hist[3] * hist[4]);        // the residual fell below tol at iteration 25
    jacobi_verdict v = expect_hint(&x, HINT_EARLY_STOP);
    assert_non_null(strstr(v.reason, "after iteration 25"));
    x.c.tol = 0.5 * hist[7];                  // never below: all 40 iterations are right
    expect_hint(&x, NULL);
    free_fixture(&x);
}

static void test_thread_order_and_timing(void **state)
{
    (void)state;
    fixture x = make_fixture(9, 8, 7, JACOBI_BC_PERIODIC, 2, 60);
    float *other = malloc((x.cells + 2 * x.guard) * sizeof(float));
    memcpy(other, x.a, (x.cells + 2 * x.guard) * sizeof(float));
    x.o.order2 = other;
    x.o.timed = other;
    expect_hint(&x, NULL);
    x.o.timed = NULL;
    other[x.guard + at(9, 8, 3, 3, 3)] += 1e-7f;  // another rounding in the second order: within tolerance, passes
    expect_hint(&x, NULL);
    other[x.guard + at(9, 8, 3, 3, 3)] += 0.5f;  // a wrong value in the second order
    expect_hint(&x, HINT_THREAD_ORDER);
    x.o.timed = other;
    x.o.order2 = NULL;
    expect_hint(&x, HINT_TIMED_CHANGED);
    free(other);
    free_fixture(&x);
}

// A reference made ahead (the judge's helper, jacobi_reference_solve) gives
// the verdict solving in place gives; it is used only for the iteration
// count the solver reports.
static void test_reference_made_ahead(void **state)
{
    (void)state;
    fixture x = make_fixture(13, 10, 9, JACOBI_BC_NEUMANN, 40, 70);
    x.c.check_every = 5;
    double *grid = malloc(x.cells * sizeof(double)), *prev = malloc(x.cells * sizeof(double)), hist[9], scale;
    assert_int_equal(jacobi_reference_solve(&x.c, 40, grid, prev, hist, &scale), 0);
    x.o.residual = hist[7];
    jacobi_reference ahead = {40, grid, prev, hist, scale};
    jacobi_verdict solved = expect_hint(&x, NULL);
    x.c.reference = &ahead;
    jacobi_verdict taken = expect_hint(&x, NULL);
    assert_true(taken.allowed == solved.allowed && taken.ref_residual == solved.ref_residual && taken.scale == solved.scale);
    *cell(&x, 4, 5, 6) += 0.25f;  // one wrong cell: the same story both ways
    taken = expect_hint(&x, HINT_WRONG_VALUES);
    x.c.reference = NULL;
    solved = expect_hint(&x, HINT_WRONG_VALUES);
    assert_int_equal(taken.wrong, solved.wrong);
    assert_true(taken.first[0] == 4 && taken.first[1] == 5 && taken.first[2] == 6 && solved.first[0] == 4);
    assert_string_equal(taken.reason, solved.reason);
    *cell(&x, 4, 5, 6) -= 0.25f;
    grid[at(13, 10, 2, 3, 4)] += 1.0;  // a spoiled reference: taken for 40 iterations, so the run fails ...
    x.c.reference = &ahead;
    expect_hint(&x, HINT_WRONG_VALUES);
    ahead.iters = 39;                  // ... and left alone for another count: solved in place, it passes
    expect_hint(&x, NULL);
    free(grid);
    free(prev);
    free_fixture(&x);
}

static void test_mms_error(void **state)
{
    (void)state;
    jacobi_grid g = {9, 9, 9, 0.125, JACOBI_BC_DIRICHLET, JACOBI_UPDATE_JACOBI, 0.0};
    float u[729], f[729];
    jacobi_mms_fill(&g, u, f);
    assert_true(jacobi_mms_error(&g, u) < 1e-7);  // float rounding of the exact values only
    u[at(9, 9, 4, 4, 4)] += 0.25f;
    assert_near(jacobi_mms_error(&g, u), 0.25, 1e-6);
    assert_near(f[at(9, 9, 4, 4, 4)], -3.0 * 3.14159265358979 * 3.14159265358979, 1e-4);
}

// ---------------------------------------------------------------------------
// The heat update (lab 10)
// ---------------------------------------------------------------------------

// A 4×3 grid (one plane: interior (j, k) = (1, 1) and (1, 2)), r = 1/4: one step
//   v(1,1) = u + (w + e + s + n - 4u)/4 = 2 + (1 + 3 + 5 + 7 - 8)/4 = 4
//   v(1,2) = 3 + (2 + 4 + 6 + 8 - 12)/4 = 5
// and the boundary kept; a second step: v(1,1) = 4 + (1 + 5 + 5 + 7 - 16)/4 = 4.5.
static void test_heat_by_hand(void **state)
{
    (void)state;
    jacobi_grid g = {4, 3, 1, 1.0, JACOBI_BC_DIRICHLET, JACOBI_UPDATE_HEAT2D, 0.25};
    float u0[12] = {9, 5, 6, 9, 1, 2, 3, 4, 9, 7, 8, 9}, f[12] = {0};
    double u[12];
    assert_true(jacobi_is_2d(&g));
    assert_int_equal(jacobi_interior_cells(&g), 2);
    assert_true(jacobi_is_interior(&g, 0, 1, 2));
    assert_false(jacobi_is_interior(&g, 0, 0, 1));
    assert_false(jacobi_is_interior(&g, 0, 1, 3));
    jacobi_run run = {1, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    jacobi_ref_solve(&g, u0, f, &run, u, &out);
    assert_near(u[5], 4.0, 1e-12);
    assert_near(u[6], 5.0, 1e-12);
    for (size_t p = 0; p < 12; p++)
        if (p != 5 && p != 6)
            assert_near(u[p], u0[p], 0.0);
    assert_near(out.scale, 9.0, 0.0);  // max |u| only: the heat update reads no f
    run.iters = 2;
    jacobi_ref_solve(&g, u0, f, &run, u, &out);
    assert_near(u[5], 4.5, 1e-12);
    assert_int_equal(jacobi_update_parse(UPDATE_HEAT2D), JACOBI_UPDATE_HEAT2D);
    assert_int_equal(jacobi_update_parse("jacobi"), JACOBI_UPDATE_JACOBI);
    assert_int_equal(jacobi_update_parse("heat3d"), -1);
    assert_int_equal(protocol_heat_pitch(67), 96);
    assert_int_equal(protocol_heat_pitch(64), 64);
    assert_int_equal(protocol_heat_edge(0, 0, 5, 4), 0);
    assert_int_equal(protocol_heat_edge(3, 4, 5, 4), 1);
    assert_int_equal(protocol_heat_edge(2, 0, 5, 4), 2);
    assert_int_equal(protocol_heat_edge(1, 4, 5, 4), 3);
    assert_int_equal(protocol_heat_edge(1, 1, 5, 4), -1);
}

// A correct heat run of K (even) steps on an nx×ny grid, r = 0.2, fixed
// edges: d_a holds the result, d_b the grid a step before.
// A heat problem of nx by ny, steps steps, its start drawn from salt; with
// still > 0, the start is 0.25 over the square of interior cells within
// still cells of (still_j, still_k), so that the square's centre holds 0.25
// after up to still steps.
static fixture make_heat_fixture_still(size_t nx, size_t ny, int steps, uint64_t salt, size_t still_j, size_t still_k, size_t still)
{
    fixture x = fixture_alloc((jacobi_grid){nx, ny, 1, 1.0, JACOBI_BC_DIRICHLET, JACOBI_UPDATE_HEAT2D, (double)0.2f}, steps, salt);
    for (size_t j = 0; j < ny; j++)
        for (size_t k = 0; k < nx; k++) {
            int e = protocol_heat_edge(j, k, nx, ny);
            if (e >= 0)
                x.u0[j * nx + k] = 0.5f - 0.25f * (float)e;  // four edge temperatures
            else if (still && j + still >= still_j && j <= still_j + still && k + still >= still_k && k <= still_k + still)
                x.u0[j * nx + k] = 0.25f;
        }
    memset(x.f, 0, x.cells * sizeof(float));
    fixture_run(&x);
    return x;
}

static fixture make_heat_fixture(size_t nx, size_t ny, int steps, uint64_t salt)
{
    return make_heat_fixture_still(nx, ny, steps, salt, 0, 0, 0);
}

// The returned grid becomes one heat step of d_b with r multiplied by scale
// and, when keep_u is 0, without the old value itself.
static void heat_last_step(fixture *x, double scale, int keep_u)
{
    const jacobi_grid *g = &x->c.g;
    for (size_t j = 1; j + 1 < g->ny; j++)
        for (size_t k = 1; k + 1 < g->nx; k++) {
            size_t p = j * g->nx + k;
            double v = protocol_heat_update(x->prev[p], x->prev[p - 1], x->prev[p + 1], x->prev[p - g->nx], x->prev[p + g->nx], scale * g->rate);
            x->a[x->guard + p] = (float)(keep_u ? v : v - x->prev[p]);
        }
}

// A 10 x 30 heat fixture whose rows from y = 16 on were never written (its
// grid's x and y sizes mixed up) must be named sizes-mixed; frees x.
static void expect_rows_unwritten_from_16(fixture *x)
{
    for (size_t j = 16; j < 29; j++)
        for (size_t k = 1; k < 9; k++)
            x->a[x->guard + j * 10 + k] = x->u0[j * 10 + k];
    expect_hint(x, HINT_SIZES_MIXED);
    free_fixture(x);
}

static void test_heat_verdict(void **state)
{
    (void)state;
    fixture x = make_heat_fixture(15, 9, 6, 60);
    expect_hint(&x, NULL);
    x.o.result = 1;                                   // the buffer the last step read
    expect_hint(&x, HINT_WRONG_BUFFER);
    x.o.result = 0;
    for (size_t p = 0; p < x.cells; p++)              // a step behind, the other buffer two steps behind
        x.a[x.guard + p] = (float)x.prev[p];
    memcpy(x.b + x.guard, x.u0, x.cells * sizeof(float));
    jacobi_run run = {4, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    double *two = malloc(x.cells * sizeof(double));
    jacobi_ref_solve(&x.c.g, x.u0, x.f, &run, two, &out);
    for (size_t p = 0; p < x.cells; p++)
        x.b[x.guard + p] = (float)two[p];
    expect_hint(&x, HINT_ITERATIONS);
    free(two);
    free_fixture(&x);

    x = make_heat_fixture(15, 9, 6, 61);
    heat_last_step(&x, -1.0, 1);                      // u - r(...)
    expect_hint(&x, HINT_HEAT_RATE);
    heat_last_step(&x, 1.0, 0);                       // r(...) without u
    expect_hint(&x, HINT_HEAT_RATE);
    heat_last_step(&x, 1.0, 1);
    expect_hint(&x, NULL);
    for (size_t j = 1; j < 8; j++)                    // the row's tail (x >= 12: nx = 15) never written
        x.a[x.guard + j * 15 + 13] = x.u0[j * 15 + 13];
    expect_hint(&x, HINT_ROW_TAIL);
    heat_last_step(&x, 1.0, 1);
    x.a[x.guard + 3] += 0.5f;                         // a cell of the first row: the fixed boundary
    expect_hint(&x, HINT_BOUNDARY);
    free_fixture(&x);

    // Taller than wide (10 x 30): rows from y = 16 (nx rounded up) never written, the start random...
    x = make_heat_fixture(10, 30, 4, 62);
    expect_rows_unwritten_from_16(&x);
    // ... with a still patch among the rows never written: a cell there whose right value is where
    // it started, unwritten and right, is still part of the rows never written ...
    x = make_heat_fixture_still(10, 30, 3, 63, 22, 4, 3);
    assert_true(fabs(x.want[22 * 10 + 4] - 0.25) < 1e-12);  // (the still cell: its reference did not move)
    expect_rows_unwritten_from_16(&x);
    // ... and with one among the rows written (their cells hold their start, rightly).
    x = make_heat_fixture_still(10, 30, 3, 64, 6, 4, 3);
    expect_rows_unwritten_from_16(&x);
}

// Neumann's rule for any bc: 0 -> 1, n-1 -> n-2.
static size_t own_neighbour(size_t x, size_t n)
{
    return x == 0 ? 1 : x == n - 1 ? n - 2 : x;
}

// Neumann mirrored about the first interior layer: 0 -> 2, n-1 -> n-3.
static size_t second_layer(size_t x, size_t n)
{
    return x == 0 ? 2 : x == n - 1 ? n - 3 : x;
}

// Sizes drawn from the test's seed, each in lo .. lo+span-1, printed with what.
static void random_sizes(uint64_t salt, size_t lo, size_t span, size_t n[3], const char *what)
{
    rng r;
    rng_init(&r, test_seed() ^ salt);
    for (int a = 0; a < 3; a++)
        n[a] = lo + rng_next(&r) % span;
    printf("# %s: %zux%zux%zu\n", what, n[0], n[1], n[2]);
}

// The exact reference of x's case after t iterations, into u (cells doubles).
static void reference_after(const fixture *x, int t, double *u)
{
    jacobi_run run = {t, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome out = {0};
    jacobi_ref_solve(&x->c.g, x->u0, x->f, &run, u, &out);
}

// Lays grid u (doubles) into the guarded buffer buf of x.
static void lay(const fixture *x, float *buf, const double *u)
{
    for (size_t p = 0; p < x->cells; p++)
        buf[x->guard + p] = (float)u[p];
}

// A grid fewer iterations old than reported: one short with every iteration
// claimed (lab 5: the returned buffer right a step behind, the other two),
// and a blocked solve's dropped remainder (three short, the other buffer a
// launch of five before): iteration-count, never wrong-buffer. A periodic
// face copying its neighbour is periodic-side, a Neumann face copying the
// second layer neumann-mirror. Random sizes, printed.
static void test_iterations_and_boundary_kinds(void **state)
{
    (void)state;
    size_t n[3];
    random_sizes(0x6974657273ull, 6, 8, n, "iterations and boundary kinds");
    for (int bc = 0; bc <= JACOBI_BC_PERIODIC; bc++) {
        fixture x = make_fixture(n[0], n[1], n[2], bc, 12, 70 + (uint64_t)bc);
        double *u = malloc(x.cells * sizeof(double));
        reference_after(&x, 10, u);
        lay(&x, x.b, u);
        lay(&x, x.a, x.prev);
        jacobi_verdict v = expect_hint(&x, HINT_ITERATIONS);
        assert_non_null(strstr(v.hint, "right for 11 iterations, 1 fewer than the 12"));
        x.c.blocked = 1;
        reference_after(&x, 9, u);
        lay(&x, x.a, u);
        reference_after(&x, 4, u);
        lay(&x, x.b, u);
        v = expect_hint(&x, HINT_ITERATIONS);
        assert_non_null(strstr(v.hint, "3 fewer"));
        free(u);
        free_fixture(&x);
    }
    fixture x = make_fixture(n[0], n[1], n[2], JACOBI_BC_PERIODIC, 4, 75);
    set_boundary(&x, own_neighbour);
    expect_hint(&x, HINT_PERIODIC_SIDE);
    free_fixture(&x);
    x = make_fixture(n[0], n[1], n[2], JACOBI_BC_NEUMANN, 4, 76);
    set_boundary(&x, second_layer);
    expect_hint(&x, HINT_NEUMANN_MIRROR);
    free_fixture(&x);
}

// The last launch of a blocked solve (two iterations from d_b) with f taken
// from the plane above at every level: wrong deeper than any count of
// iterations it may have done, launch-interior, on a grid of 17 or more a
// side (random sizes, printed); on a grid too small to hold a cell that deep
// the verdict does not claim it.
static void test_launch_interior(void **state)
{
    (void)state;
    size_t big[3], small[3] = {4, 6, 5};
    random_sizes(0x6c61756e6368ull, 17, 5, big, "launch interior");
    for (int g = 0; g < 2; g++) {
        const size_t *n = g ? small : big;
        fixture x = make_fixture(n[0], n[1], n[2], JACOBI_BC_NEUMANN, 6, 80 + (uint64_t)g);
        x.c.blocked = 1;
        double *u = malloc(x.cells * sizeof(double)), *w = malloc(x.cells * sizeof(double));
        float *above = malloc(x.cells * sizeof(float));
        size_t plane = n[0] * n[1];
        for (size_t p = 0; p < x.cells; p++)  // f of the plane above (the last plane keeps its own)
            above[p] = p + plane < x.cells ? x.f[p + plane] : x.f[p];
        reference_after(&x, 4, u);
        lay(&x, x.b, u);
        memcpy(w, u, x.cells * sizeof(double));
        for (int t = 0; t < 2; t++) {
            jacobi_ref_sweep(&x.c.g, u, above, w);
            jacobi_ref_boundary(&x.c.g, w);
            memcpy(u, w, x.cells * sizeof(double));
        }
        lay(&x, x.a, u);
        jacobi_verdict v;
        jacobi_judge(&x.c, &x.o, &v);
        assert_non_null(v.hint_key);
        if (g == 0)
            assert_string_equal(v.hint_key, HINT_LAUNCH_INTERIOR);
        else
            assert_string_not_equal(v.hint_key, HINT_LAUNCH_INTERIOR);
        free(u), free(w), free(above);
        free_fixture(&x);
    }
}

// A rule that holds of any cell on a small grid does not fire there: on a
// grid of outer interior layers alone (an axis of 4 points) a cell never
// written is unwritten-cells, not off-by-one; on a heat grid with no cell
// left of the row's tail (nx = 3) a wrong cell is not row-tail.
static void test_small_grid_rules(void **state)
{
    (void)state;
    fixture x = make_fixture(4, 6, 5, JACOBI_BC_DIRICHLET, 2, 90);
    *cell(&x, 2, 3, 1) = x.u0[at(4, 6, 2, 3, 1)];
    expect_hint(&x, HINT_UNWRITTEN);
    free_fixture(&x);
    x = make_fixture(7, 6, 8, JACOBI_BC_DIRICHLET, 2, 91);
    *cell(&x, 6, 3, 2) = x.u0[at(7, 6, 6, 3, 2)];   // the last interior plane, on a grid with inner cells
    expect_hint(&x, HINT_OFF_BY_ONE);
    free_fixture(&x);
    x = make_heat_fixture(3, 17, 4, 92);
    x.a[x.guard + 5 * 3 + 1] += 0.5f;
    jacobi_verdict v;
    jacobi_judge(&x.c, &x.o, &v);
    assert_non_null(v.hint_key);
    assert_string_not_equal(v.hint_key, HINT_ROW_TAIL);
    free_fixture(&x);
}

// Rows taken nx floats apart: a padded buffer (random nx, not a multiple of
// the pitch, printed) whose padding lost exactly the cells stores at
// j*nx + k reach is row-pitch's pattern, a float4 run past a row's end is
// not, and untouched padding is neither; the last heat step with its y
// neighbours read nx floats away in the padded rows is row-pitch.
static void test_row_pitch(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x7069746368ull);
    size_t nx = 5 + rng_next(&r) % 26, ny = 4 + rng_next(&r) % 20, pitch = (size_t)protocol_heat_pitch(nx);
    printf("# row pitch: %zux%zu, pitch %zu\n", nx, ny, pitch);
    float *stored = malloc(ny * pitch * sizeof(float));
    fill_bits(stored, ny * pitch, PAD_BITS);
    assert_int_equal(jacobi_padding_rows_packed(nx, ny, pitch, stored), 0);
    for (size_t j = 1; j + 1 < ny; j++)
        for (size_t k = 1; k + 1 < nx; k++)
            stored[j * nx + k] = 1.0f;
    assert_int_equal(jacobi_padding_rows_packed(nx, ny, pitch, stored), 1);
    fill_bits(stored, ny * pitch, PAD_BITS);
    for (size_t j = 1; j + 1 < ny; j++)  // a float4 past the row's end
        stored[j * pitch + nx] = 0.0f;
    assert_int_equal(jacobi_padding_rows_packed(nx, ny, pitch, stored), -1);
    free(stored);

    fixture x = make_heat_fixture(nx, ny, 4, 93);
    const jacobi_grid *g = &x.c.g;
    for (size_t j = 1; j + 1 < ny; j++)
        for (size_t k = 1; k + 1 < nx; k++) {
            size_t p = j * nx + k, q = j * pitch + k, s = q - nx, t = q + nx;
            double south = s % pitch < nx ? x.prev[s / pitch * nx + s % pitch] : NAN;
            double north = t % pitch < nx && t / pitch < ny ? x.prev[t / pitch * nx + t % pitch] : NAN;
            x.a[x.guard + p] = (float)protocol_heat_update(x.prev[p], x.prev[p - 1], x.prev[p + 1], south, north, g->rate);
        }
    expect_hint(&x, HINT_ROW_PITCH);
    free_fixture(&x);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_maps),
        cmocka_unit_test(test_dirichlet_by_hand),
        cmocka_unit_test(test_neumann_by_hand),
        cmocka_unit_test(test_periodic_by_hand),
        cmocka_unit_test(test_residual_by_hand),
        cmocka_unit_test(test_gauss_seidel_differs),
        cmocka_unit_test(test_prev_and_boundary_first),
        cmocka_unit_test(test_early_stop),
        cmocka_unit_test(test_manufactured_second_order),
        cmocka_unit_test(test_correct_passes),
        cmocka_unit_test(test_claims_and_buffers),
        cmocka_unit_test(test_nothing_and_in_place),
        cmocka_unit_test(test_boundary_mistakes),
        cmocka_unit_test(test_sweep_mistakes),
        cmocka_unit_test(test_stopping_and_residual),
        cmocka_unit_test(test_thread_order_and_timing),
        cmocka_unit_test(test_reference_made_ahead),
        cmocka_unit_test(test_mms_error),
        cmocka_unit_test(test_heat_by_hand),
        cmocka_unit_test(test_heat_verdict),
        cmocka_unit_test(test_iterations_and_boundary_kinds),
        cmocka_unit_test(test_launch_interior),
        cmocka_unit_test(test_small_grid_rules),
        cmocka_unit_test(test_row_pitch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
