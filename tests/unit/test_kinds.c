// tests/unit/test_kinds.c — the tables of lab kinds (lab_kind.h) and of
// techniques (technique.h): every lab of the kit resolves to an entry of
// each, every entry has all its operations, and a name no entry has is refused.
#include "test_util.h"

#include <glob.h>

#include "conf.h"
#include "judge_case.h"
#include "lab_kind.h"
#include "protocol.h"
#include "technique.h"

// A name no table has: "no-such-" and random letters from the test's seed.
static const char *test_unknown_name(rng *gen, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "no-such-");
    for (int i = 0; i < 8 && used + 1 < len; i++)
        buf[used++] = (char)('a' + rng_next(gen) % 26);
    buf[used] = '\0';
    return buf;
}

// Every lab.conf of the kit loads, resolves to a kind of its own runner and
// names a technique and a model of the table; every kind and every technique
// serves some lab (no entry the kit never uses).
static void test_every_lab_resolves(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512];
    int kind_used[16] = {0}, technique_used[32] = {0}, found = 0;
    glob_t labs;
    if (glob("labs/[0-9][0-9]-*/lab.conf", 0, NULL, &labs) != 0)
        fail_msg("no labs/NN-name/lab.conf under %s (run from the kit's root)", getcwd(err, sizeof(err)));
    for (size_t i = 0; i < labs.gl_pathc; i++, found++) {
        if (conf_load(labs.gl_pathv[i], &c, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        const lab_kind *kind = lab_kind_of(&c);
        if (!kind)
            fail_msg("%s: runner %s resolves to no kind of lab", labs.gl_pathv[i], c.runner);
        assert_string_equal(kind->runner->name, c.runner);
        for (int k = 0; lab_kind_at(k); k++)
            kind_used[k] |= lab_kind_at(k) == kind;
        const lab_technique *t = technique_find(c.technique), *model = technique_find(c.opb_model);
        if (!t || !model)
            fail_msg("%s: technique %s or opb_model %s is no entry of the techniques table", labs.gl_pathv[i], c.technique, c.opb_model);
        for (int k = 0; technique_at(k); k++)
            technique_used[k] |= technique_at(k) == t;
    }
    globfree(&labs);
    assert_true(found >= 1);
    for (int k = 0; lab_kind_at(k); k++)
        if (!kind_used[k])
            fail_msg("the kind %s serves no lab of the kit", lab_kind_at(k)->name);
    for (int k = 0; technique_at(k); k++)
        if (!technique_used[k])
            fail_msg("the technique %s serves no lab of the kit", technique_at(k)->name);
}

// Every kind has all its operations and words, one (runner, value) pair of
// its own, and a probe file that defines the function its words name.
static void test_kinds_complete(void **state)
{
    (void)state;
    int n = 0;
    for (const lab_kind *k; (k = lab_kind_at(n)); n++) {
        assert_non_null(k->name);
        assert_non_null(k->runner);
        assert_non_null(k->runner->name);
        assert_non_null(k->runner->key);
        assert_non_null(k->value);
        assert_non_null(k->case_options);
        assert_non_null(k->check_case);
        assert_non_null(k->case_flops);
        assert_non_null(k->filter_radius);
        assert_non_null(k->sized_cases);
        assert_non_null(k->probe.header);
        assert_non_null(k->probe.entry);
        assert_non_null(k->runner->run_case);
        assert_non_null(k->runner->early_bytes);
        assert_non_null(k->runner->early_make);
        assert_non_null(k->words);
        assert_non_null(k->words->function);
        assert_non_null(k->words->timeout);
        assert_non_null(k->words->launch);
        assert_non_null(k->words->fault);
        static lab_conf c;
        memset(&c, 0, sizeof(c));
        c.star_radius = 1;
        snprintf(c.runner, sizeof(c.runner), "%s", k->runner->name);
        assert_int_equal(conf_get(&c, k->runner->key, c.title, sizeof(c.title)), 0);  // the key is one lab.conf has
        snprintf(!strcmp(k->runner->key, "interface") ? c.interface : c.update, sizeof(c.update), "%s", k->value);
        assert_ptr_equal(lab_kind_of(&c), k);
        char probe[512];
        if (!strstr(lab_kind_probe(&c, probe, sizeof(probe)), k->words->function) || !strstr(probe, k->probe.header))
            fail_msg("the probe file of %s does not include %s and define %s", k->name, k->probe.header, k->words->function);
        c.star_radius = 2;
        if (k->probe.header_star13 && !strstr(lab_kind_probe(&c, probe, sizeof(probe)), k->probe.header_star13))
            fail_msg("the probe file of %s for a star of radius 2 does not include %s", k->name, k->probe.header_star13);
        assert_string_equal(lab_kind_probe(&c, probe, 8), "");  // too small: nothing half written
        assert_true(lab_kind_runner_takes(k->runner->name, k->runner->key));
        for (int q = 0; q < n; q++)
            assert_false(lab_kind_at(q)->runner == k->runner && !strcmp(lab_kind_at(q)->value, k->value));
    }
    assert_true(n >= 3);
    assert_string_equal(lab_kind_default_value("interface"), INTERFACE_CUBE);
    assert_string_equal(lab_kind_default_value("update"), UPDATE_JACOBI);
}

// A case's flops as its kind counts them: a convolution's 2(2R+1)^2 at a
// random filter radius, a star's 12r + 1, a Jacobi update's 8, a heat step's 7.
static void test_kind_flops(void **state)
{
    (void)state;
    rng gen;
    rng_init(&gen, test_seed());
    static lab_conf c;
    char err[256];
    int r = 1 + (int)(rng_next(&gen) % CONV_MAX_RADIUS);
    memset(&c, 0, sizeof(c));
    assert_int_equal(conf_parse_case("37x29", &c.cases[0], err, sizeof(err)), 0);
    c.cases[0].nopts = 1;
    snprintf(c.cases[0].opt_key[0], sizeof(c.cases[0].opt_key[0]), "r");
    snprintf(c.cases[0].opt_value[0], sizeof(c.cases[0].opt_value[0]), "%d", r);
    assert_true(lab_kind_convolution.case_flops(&c, &c.cases[0]) == 2.0 * (2 * r + 1) * (2 * r + 1));
    assert_int_equal(lab_kind_convolution.filter_radius(&c.cases[0]), r);
    assert_int_equal(lab_kind_sweep_cube.filter_radius(&c.cases[0]), 0);
    c.star_radius = 1 + (int)(rng_next(&gen) % 2);
    assert_true(lab_kind_sweep_cube.case_flops(&c, &c.cases[0]) == 12.0 * c.star_radius + 1);
    assert_true(lab_kind_jacobi.case_flops(&c, &c.cases[0]) == 8.0);
    assert_true(lab_kind_heat.case_flops(&c, &c.cases[0]) == 7.0);
}

// 1 if lab.conf's cases (on every backend) or out[0..n) hold side, or a side
// of two or more whole tiles of w past offset cells.
static int sized_test_covered(const lab_conf *c, const lab_case *out, int n, unsigned int w, unsigned int offset)
{
    for (int i = 0; i < c->ncases + n; i++) {
        const lab_case *lc = i < c->ncases ? &c->cases[i] : &out[i - c->ncases];
        if (!lc->noemu && lc->nx >= offset + 2 * w && (lc->nx - offset) % w == 0)
            return 1;
    }
    return 0;
}

// Cases sized from a kernel's block, on lab 2's and lab 8's lab.conf and
// random blocks: each a cube no larger than the largest untimed case every
// backend runs, in its group, not one of lab.conf's, its interior (N - 2r)
// or its side two whole tiles of a width the block gives (a side, or a side
// less 2r); every such width covered once the list is not full; a block of
// 15x15x1 on lab 2 gives 28 (2 x 13 + 2), 26 and 30, its 32 covered by N=34.
// The grid interface and the other kinds give none.
static void test_sized_cases(void **state)
{
    (void)state;
    static lab_conf c;
    lab_case out[4];
    char err[512];
    rng gen;
    rng_init(&gen, test_seed() + 5);
    if (conf_load("labs/02-shared-tile/lab.conf", &c, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    unsigned long long tile15[3] = {15, 15, 1};
    assert_int_equal(lab_kind_sized_cases(&c, tile15, out, 4), 3);
    assert_int_equal(out[0].nx, 28), assert_int_equal(out[0].sized_tile, 13);
    assert_int_equal(out[1].nx, 26), assert_int_equal(out[2].nx, 30), assert_int_equal(out[2].sized_tile, 15);
    const char *labs[] = {"labs/02-shared-tile/lab.conf", "labs/08-order-two-register/lab.conf"};
    for (int l = 0; l < 2; l++) {
        if (conf_load(labs[l], &c, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        const lab_case *largest = lab_kind_sized_cap(&c);
        assert_non_null(largest);
        unsigned int r = (unsigned int)c.star_radius;
        for (int t = 0; t < 300; t++) {
            unsigned long long b[3] = {1 + rng_next(&gen) % 64, 1 + rng_next(&gen) % 32, 1 + rng_next(&gen) % 16};
            int n = lab_kind_sized_cases(&c, b, out, 4);
            assert_true(n >= 0 && n <= 4);
            for (int i = 0; i < n; i++) {
                unsigned int w = out[i].sized_tile, side = out[i].nx;
                assert_true(out[i].ny == side && out[i].nz == side && out[i].axes == 1 && !out[i].timed && !out[i].noemu);
                assert_true(side <= largest->nx && w >= 3);
                assert_string_equal(out[i].group, largest->group);
                assert_true(side == 2 * w + 2 * r || side == 2 * w);
                int from_block = 0;
                for (int d = 0; d < 3; d++)
                    from_block |= b[d] == w || b[d] == w + 2 * r;
                assert_true(from_block);
                for (int k = 0; k < c.ncases; k++)
                    assert_true(c.cases[k].nx != side);
                for (int k = 0; k < i; k++)
                    assert_true(out[k].nx != side);
            }
            if (n == 4)
                continue;
            for (int d = 0; d < 3; d++)
                for (unsigned int halo = 0; halo <= 1; halo++) {
                    if (b[d] <= 2ull * r * halo || b[d] - 2ull * r * halo < 3)
                        continue;
                    unsigned int w = (unsigned int)(b[d] - 2ull * r * halo);
                    for (unsigned int offset = 0; offset <= 2 * r; offset += 2 * r)
                        if (2 * w + offset <= largest->nx && !sized_test_covered(&c, out, n, w, offset))
                            fail_msg("%s, block %llux%llux%llu: width %u (offset %u) left uncovered", labs[l], b[0], b[1], b[2], w, offset);
                }
        }
    }
    unsigned long long b[3] = {13, 13, 1};
    assert_int_equal(lab_kind_sweep_grid.sized_cases(&c, b, out, 4), 0);
    assert_int_equal(lab_kind_heat.sized_cases(&c, b, out, 4), 0);
    assert_int_equal(lab_kind_convolution.sized_cases(&c, b, out, 4), 0);
}

// Every technique has its rule and its model, a name of its own, and is
// found by that name.
static void test_techniques_complete(void **state)
{
    (void)state;
    int n = 0;
    for (const lab_technique *t; (t = technique_at(n)); n++) {
        assert_non_null(t->name);
        assert_non_null(t->rule);
        assert_non_null(t->model);
        assert_ptr_equal(technique_find(t->name), t);
        assert_false(t->registers && !t->marches_z);  // registers hold the z neighbours of a marching block
        for (int q = 0; q < n; q++)
            assert_string_not_equal(technique_at(q)->name, t->name);
    }
    assert_true(n >= 3);
}

// A name no table has is refused: by the lookups, and by conf_load with the
// file's line and the names the tables hold.
static void test_unknown_refused(void **state)
{
    (void)state;
    rng gen;
    rng_init(&gen, test_seed() + 1);
    char name[32], text[1024], err[512], path[64];
    static lab_conf c;
    test_unknown_name(&gen, name, sizeof(name));
    assert_null(technique_find(name));
    assert_int_equal(technique_counts_loads(name), 0);
    memset(&c, 0, sizeof(c));
    snprintf(c.runner, sizeof(c.runner), "%s", name);
    assert_null(lab_kind_of(&c));
    snprintf(c.runner, sizeof(c.runner), "sweep");
    snprintf(c.interface, sizeof(c.interface), "%.15s", name);
    assert_null(lab_kind_of(&c));
    static const char *const keys[] = {"runner", "interface", "update", "technique", "opb_model"};
    static const char *const known[] = {"sweep, jacobi", "cube, grid, image", "jacobi, heat2d",
                                        "naive, shared-tile, z-coarsening, register-tiling, jacobi, time-blocking, speed, convolution, heat2d",
                                        "naive, shared-tile, z-coarsening, register-tiling, jacobi, time-blocking, speed, convolution, heat2d"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        char want[256];
        snprintf(text, sizeof(text), "%s = %s\ntitle = t\nrunner = sweep\nkernel = k.cu\nsolution = s.cu\ntechnique = naive\nopb_model = naive\n"
                                     "timeout = 5\nrtol = 1e-5\natol = 1e-6\ncase = 8\n", keys[k], name);  // refused on line 1
        test_write_file(path, sizeof(path), text);
        int rc = conf_load(path, &c, err, sizeof(err));
        unlink(path);
        assert_int_equal(rc, -1);
        snprintf(want, sizeof(want), ":1: unknown %s '%s' (the kit knows: %s)", keys[k], name, known[k]);
        if (!strstr(err, want))
            fail_msg("%s = %s: got '%s', want '...%s'", keys[k], name, err, want);
    }
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_lab_resolves),
        cmocka_unit_test(test_kinds_complete),
        cmocka_unit_test(test_kind_flops),
        cmocka_unit_test(test_sized_cases),
        cmocka_unit_test(test_techniques_complete),
        cmocka_unit_test(test_unknown_refused),
    };
    return cmocka_run_group_tests_name("kinds", tests, NULL, NULL);
}
