// tests/unit/test_pictures.c — the report's pictures (grader/judge/pictures.c)
// from the data side: the heat map keeps the z plane with the most wrong cells
// and marks never-written, NaN and boundary cells with their codes; among
// failing cases it prefers the largest plane up to the preferred size; the
// roofline places the kernel at its measured DRAM OP/B under the measured
// bandwidth's roof; the JSON names exactly the files written, under keys of
// picture_keys.h. Drawing runs only when gnuplot is on PATH.
#include "test_util.h"

#include <math.h>
#include <sys/stat.h>

#include "pictures.h"
#include "protocol.h"
#include "stencil_ref.h"

static judge_run test_run;  // large: static

// A fresh folder for one test's pictures.
static void test_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/stencil-pictures-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

// Removes what the pictures left in dir, then dir.
static void test_remove_dir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

// Reads a whole file into a new buffer (NUL-terminated).
static char *test_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

// A random grid in [-1, 1] with random distinct coefficients, and its right output.
typedef struct test_grid {
    size_t nx, ny, nz;
    float *in, *out;
    sweep_case c;
} test_grid;

static void test_grid_make(test_grid *g, rng *r, size_t nx, size_t ny, size_t nz)
{
    double coef[7];
    g->nx = nx, g->ny = ny, g->nz = nz;
    g->in = malloc(nx * ny * nz * sizeof(float));
    g->out = malloc(nx * ny * nz * sizeof(float));
    assert_non_null(g->in);
    assert_non_null(g->out);
    rng_fill(r, g->in, nx * ny * nz);
    sweep_case c = {g->in, nx, ny, nz, {0}, 1e-6, 1e-9, 0, 0, VERDICT_WORDS_CUBE, 1, 0};
    rng_coefficients(r, c.coef, 7);
    g->c = c;
    for (int n = 0; n < 7; n++)
        coef[n] = c.coef[n];
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++)
            for (size_t k = 0; k < nx; k++) {
                size_t p = (i * ny + j) * nx + k;
                double scale;
                g->out[p] = reference_is_interior(nx, ny, nz, i, j, k, 1)
                                ? (float)reference_point(g->in, nx, ny, i, j, k, coef, 1, &scale)
                                : g->in[p];
            }
}

static void test_grid_free(test_grid *g)
{
    free(g->in);
    free(g->out);
}

// Counts the data lines of a heat map whose value is code.
static int test_count_code(const char *data, const char *code)
{
    int n = 0;
    char needle[32];
    snprintf(needle, sizeof(needle), " %s\n", code);
    for (const char *p = data; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

// A run of lab 1 under emulation with one failed case.
static judge_run *test_emu_run(void)
{
    memset(&test_run, 0, sizeof(test_run));
    test_run.lab_number = 1;
    snprintf(test_run.backend, sizeof(test_run.backend), "emu");
    snprintf(test_run.conf.runner, sizeof(test_run.conf.runner), "sweep");
    test_run.conf.star_radius = 1;  // the seven-point star, as conf_load sets it by default
    test_run.failed = 1;
    return &test_run;
}

static void test_heatmap_worst_plane(void **state)
{
    (void)state;
    rng r;
    char dir[64], path[128];
    rng_init(&r, test_seed());
    test_grid g;
    size_t nx = 8 + rng_next(&r) % 20, ny = 8 + rng_next(&r) % 20, nz = 6 + rng_next(&r) % 10;
    test_grid_make(&g, &r, nx, ny, nz);
    size_t worst = 1 + rng_next(&r) % (nz - 2), other = worst == 1 ? 2 : 1;
    float poison, nan_value = NAN;
    uint32_t bits = POISON_BITS;
    memcpy(&poison, &bits, sizeof(poison));
    int unwritten = 0;
    for (size_t k = 1; k + 1 < nx; k++, unwritten++)  // a whole row never written in the worst plane ...
        g.out[(worst * ny + 2) * nx + k] = poison;
    g.out[(worst * ny + 3) * nx + 1] = nan_value;     // ... a NaN, a boundary cell changed ...
    g.out[(worst * ny + 0) * nx + 4] += 1.0f;
    g.out[(other * ny + 4) * nx + 2] += 0.5f;         // ... and one wrong value in another plane
    test_dir(dir, sizeof(dir));
    setenv("STENCIL_GNUPLOT", "/nonexistent/gnuplot", 1);
    pictures_enable(dir, ".");
    pictures_offer_sweep("N=test", &g.c, g.out);
    pictures_close_offers();
    pictures_offer_sweep("N=late", &g.c, g.out);  // after closing: ignored
    pictures_draw(test_emu_run());
    const picture_result *res = pictures_results();
    assert_true(pictures_gnuplot_missing());
    assert_string_equal(res[PICTURE_heatmap].path[PICTURE_FORMAT_png], "");
    snprintf(path, sizeof(path), "%s/heatmap.dat", dir);
    assert_string_equal(res[PICTURE_heatmap].path[PICTURE_FORMAT_data], path);
    char *data = test_read(path), want[96];
    snprintf(want, sizeof(want), "case N=test (%zux%zux%zu), z plane i = %zu (the one with the most wrong cells)", nx, ny, nz, worst);
    assert_non_null(strstr(data, want));
    snprintf(want, sizeof(want), "%d of %zu cells of this cut wrong (%d never written, 1 NaN, 1 boundary",
             unwritten + 2, nx * ny, unwritten);
    assert_non_null(strstr(data, want));
    assert_int_equal(test_count_code(data, "-5.5"), unwritten);
    assert_int_equal(test_count_code(data, "-6.5"), 1);
    assert_int_equal(test_count_code(data, "-4.5"), 1);
    assert_int_equal(test_count_code(data, "-3.5"), (int)(2 * nx + 2 * ny - 4) - 1);
    snprintf(want, sizeof(want), "\n3 2 -5.5\n");  // (k, j) = (3, 2): in the unwritten row
    assert_non_null(strstr(data, want));
    assert_non_null(strstr(res[PICTURE_roofline].note, "CPU emulation"));
    free(data);
    unsetenv("STENCIL_GNUPLOT");
    test_remove_dir(dir);
    test_grid_free(&g);
}

// Wrong cells that fill one whole z plane (an off-by-one in z): no z plane shows a
// pattern, so the heat map is the side view, the y slice j = ny/2, that plane one row.
static void test_heatmap_side_view(void **state)
{
    (void)state;
    rng r;
    char dir[64], path[128];
    rng_init(&r, test_seed());
    test_grid g;
    size_t nx = 8 + rng_next(&r) % 20, ny = 8 + rng_next(&r) % 20, nz = 6 + rng_next(&r) % 10;
    test_grid_make(&g, &r, nx, ny, nz);
    size_t plane = 1 + rng_next(&r) % (nz - 2);
    float poison;
    uint32_t bits = POISON_BITS;
    memcpy(&poison, &bits, sizeof(poison));
    for (size_t j = 1; j + 1 < ny; j++)
        for (size_t k = 1; k + 1 < nx; k++)
            g.out[(plane * ny + j) * nx + k] = poison;
    test_dir(dir, sizeof(dir));
    setenv("STENCIL_GNUPLOT", "/nonexistent/gnuplot", 1);
    pictures_enable(dir, ".");
    pictures_offer_sweep("N=side", &g.c, g.out);
    pictures_close_offers();
    pictures_draw(test_emu_run());
    snprintf(path, sizeof(path), "%s/heatmap.dat", dir);
    char *data = test_read(path), want[160];
    snprintf(want, sizeof(want), "case N=side (%zux%zux%zu), side view, the y slice j = %zu", nx, ny, nz, ny / 2);
    assert_non_null(strstr(data, want));
    snprintf(want, sizeof(want), "%zu of %zu cells of this cut wrong (%zu never written", nx - 2, nx * nz, nx - 2);
    assert_non_null(strstr(data, want));
    assert_non_null(strstr(data, "# columns: k i value"));
    assert_int_equal(test_count_code(data, "-5.5"), (int)(nx - 2));
    snprintf(want, sizeof(want), "\n1 %zu -5.5\n", plane);  // the first never-written cell: k = 1 of row i = plane
    assert_non_null(strstr(data, want));
    free(data);
    unsetenv("STENCIL_GNUPLOT");
    test_remove_dir(dir);
    test_grid_free(&g);
}

static void test_heatmap_prefers_a_plane_that_shows_each_cell(void **state)
{
    (void)state;
    rng r;
    char dir[64];
    rng_init(&r, test_seed() + 1);
    static const size_t sides[] = {200, 50, 30, 300, 90};  // planes offered in this order
    static const char *names[] = {"N=200", "N=50", "N=30", "N=300", "N=90"};
    test_dir(dir, sizeof(dir));
    setenv("STENCIL_GNUPLOT", "/nonexistent/gnuplot", 1);
    pictures_enable(dir, ".");
    for (int c = 0; c < 5; c++) {
        test_grid g;
        test_grid_make(&g, &r, sides[c], sides[c], 3);
        g.out[(1 * sides[c] + 1) * sides[c] + 1] += 1.0f;
        pictures_offer_sweep(names[c], &g.c, g.out);
        test_grid_free(&g);
    }
    pictures_draw(test_emu_run());
    assert_true(strncmp(pictures_results()[PICTURE_heatmap].note, "N=90,", 5) == 0);
    unsetenv("STENCIL_GNUPLOT");
    test_remove_dir(dir);
}

// 1 if gnuplot is on PATH.
static int test_have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void test_roofline_data_and_json(void **state)
{
    (void)state;
    rng r;
    char dir[64], path[128];
    rng_init(&r, test_seed() + 2);
    test_dir(dir, sizeof(dir));
    judge_run *run = test_emu_run();
    snprintf(run->backend, sizeof(run->backend), "gpu");
    snprintf(run->device, sizeof(run->device), "Test GPU");
    run->failed = 0;
    run->opb_valid = 1;
    run->opb.book = 13.0 / 28.0;
    run->ncases = 1;
    case_result *c = &run->cases[0];
    snprintf(c->name, sizeof(c->name), "N=512");
    c->status = CASE_OK, c->timed = 1, c->time_reps = 20, c->profiled = 1;
    c->interior = 510ull * 510 * 510;
    c->time_ms = 0.2 + (double)(rng_next(&r) % 1000) / 1000.0;
    c->gpoints = (double)c->interior / (c->time_ms * 1e-3) / 1e9;
    c->bandwidth_gbs = 1000.0 + (double)(rng_next(&r) % 3000);
    c->flops = 13.0 * (double)c->interior;
    c->dram_bytes = c->flops / (1.0 + (double)(rng_next(&r) % 100) / 100.0);
    c->load_bytes = c->flops / 0.43;
    case_result *c2 = &run->cases[1];  // a second timed case, not profiled: placed at the book's OP/B
    *c2 = *c;
    snprintf(c2->name, sizeof(c2->name), "4096x4096x32");
    c2->profiled = 0;
    c2->gpoints = c->gpoints * (0.5 + (double)(rng_next(&r) % 100) / 200.0);
    run->ncases = 2;
    for (int round = 0; round < 2; round++) {  // without gnuplot, then with it when installed
        if (round == 0)
            setenv("STENCIL_GNUPLOT", "/nonexistent/gnuplot", 1);
        else if (!test_have_gnuplot())
            break;
        pictures_enable(dir, ".");
        pictures_draw(run);
        unsetenv("STENCIL_GNUPLOT");
        const picture_result *res = pictures_results();
        snprintf(path, sizeof(path), "%s/roofline.dat", dir);
        assert_string_equal(res[PICTURE_roofline].path[PICTURE_FORMAT_data], path);
        assert_non_null(strstr(res[PICTURE_heatmap].note, "not drawn"));
        char *data = test_read(path);
        double dram = c->flops / c->dram_bytes, x, y, x0, y0, x1, y1;
        const char *roof = strstr(data, "# index 0");
        assert_non_null(roof);
        assert_int_equal(sscanf(strchr(roof, '\n') + 1, "%lf %lf %lf %lf", &x0, &y0, &x1, &y1), 4);
        assert_true(fabs(y0 / x0 - c->bandwidth_gbs) < 1e-3 * c->bandwidth_gbs);
        assert_true(fabs(y1 / x1 - c->bandwidth_gbs) < 1e-3 * c->bandwidth_gbs);
        const char *point = strstr(data, "# index 2");
        assert_non_null(point);
        assert_int_equal(sscanf(strchr(point, '\n') + 1, "%lf %lf", &x, &y), 2);
        assert_true(fabs(x - dram) < 1e-4 * dram);
        assert_true(fabs(y - 13.0 * c->gpoints) < 1e-4 * y);
        const char *second = strchr(strchr(point, '\n') + 1, '\n') + 1;  // each timed case its point
        assert_int_equal(sscanf(second, "%lf %lf", &x, &y), 2);
        assert_true(fabs(x - run->opb.book) < 1e-4 * run->opb.book);
        assert_true(fabs(y - 13.0 * c2->gpoints) < 1e-4 * y);
        assert_non_null(strstr(second, "4096x4096x32: "));
        assert_true(x0 < run->opb.book && x1 > dram);
        free(data);
        FILE *json = tmpfile();
        assert_non_null(json);
        pictures_report_json(json);
        rewind(json);
        char text[4096] = "";
        size_t n = fread(text, 1, sizeof(text) - 1, json);
        text[n] = '\0';
        fclose(json);
        // Exactly the files written are named, each under its key of picture_keys.h.
#define TEST_KEY(fmt, ext) \
        for (int p = 0; p < PICTURE_COUNT; p++) { \
            char key[64]; \
            snprintf(key, sizeof(key), "\"%s_%s\": ", res[p].name, #fmt); \
            int written = res[p].path[PICTURE_FORMAT_##fmt][0] != '\0'; \
            assert_int_equal(strstr(text, key) != NULL, written); \
            if (written) \
                assert_int_equal(access(res[p].path[PICTURE_FORMAT_##fmt], R_OK), 0); \
        }
        PICTURE_FORMATS(TEST_KEY)
#undef TEST_KEY
        assert_int_equal(res[PICTURE_roofline].path[PICTURE_FORMAT_png][0] != '\0', round == 1);
        assert_non_null(strstr(text, "\"picture_notes\": {"));
    }
    test_remove_dir(dir);
}

int main(void)
{
    test_seed();  // printed first
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heatmap_worst_plane),
        cmocka_unit_test(test_heatmap_side_view),
        cmocka_unit_test(test_heatmap_prefers_a_plane_that_shows_each_cell),
        cmocka_unit_test(test_roofline_data_and_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
