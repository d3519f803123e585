// tests/unit/test_conf.c — lab.conf parsing, the good files and the bad.
#include "test_util.h"

#include <glob.h>

#include "conf.h"
#include "lab_kind.h"

static const char *good_conf =
    "# a comment line\n"
    "title = Test lab   # trailing comment\n"
    "chapter = 8.2\n"
    "runner = sweep\n"
    "kernel = kernels/x.cu\n"
    "solution = reference/solutions/x.cu\n"
    "technique = naive\n"
    "opb_model = naive\n"
    "timeout = 2.5\n"
    "time_reps = 30\n"
    "rtol = 1e-6\n"
    "atol = 1e-9\n"
    "case = 1\n"
    "case = 64x32x16 noemu\n"
    "case = 512 timed noemu\n"
    "interface = grid   # launch_sweep: the 64x32x16 case is no cube\n";

// Loads text as a lab.conf; returns conf_load's result, the message in err.
static int load_text(const char *text, lab_conf *c, char *err, size_t len)
{
    char path[64];
    test_write_file(path, sizeof(path), text);
    int rc = conf_load(path, c, err, len);
    unlink(path);
    return rc;
}

static void test_good_file(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512] = "";
    assert_int_equal(load_text(good_conf, &c, err, sizeof(err)), 0);
    assert_string_equal(c.title, "Test lab");
    assert_string_equal(c.runner, "sweep");
    assert_true(c.timeout_s == 2.5);
    assert_int_equal(c.time_reps, 30);
    assert_true(c.rtol == 1e-6 && c.atol == 1e-9);
    assert_int_equal(c.ncases, 3);
    assert_int_equal(c.cases[1].nx, 64);
    assert_int_equal(c.cases[1].ny, 32);
    assert_int_equal(c.cases[1].nz, 16);
    assert_true(c.cases[1].noemu && !c.cases[1].timed);
    assert_null(conf_case_opt(&c.cases[1], "iters"));
    assert_true(c.cases[2].timed && c.cases[2].noemu);
    assert_int_equal(c.cases[2].line, 15);
    assert_string_equal(c.interface, "grid");
    assert_int_equal(c.interface_line, 16);
    char name[32];
    assert_string_equal(conf_case_name(&c.cases[0], name, sizeof(name)), "N=1");
    assert_string_equal(conf_case_name(&c.cases[1], name, sizeof(name)), "64x32x16");
}

// Replaces the first occurrence of from in good_conf by to, loads it, and
// checks the error names the expected text.
static void expect_error(const char *from, const char *to, const char *want)
{
    static lab_conf c;
    char text[4096], err[512] = "";
    const char *at = strstr(good_conf, from);
    assert_non_null(at);
    snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good_conf), good_conf, to, at + strlen(from));
    assert_int_equal(load_text(text, &c, err, sizeof(err)), -1);
    if (!strstr(err, want))
        fail_msg("error '%s' does not mention '%s'", err, want);
}

static void test_bad_files(void **state)
{
    (void)state;
    expect_error("timeout = 2.5\n", "timout = 2.5\n", ":9: unknown key 'timout'");
    expect_error("timeout = 2.5\n", "timeout = soon\n", ":9: 'timeout' must be a positive number, got 'soon'");
    expect_error("timeout = 2.5\n", "timeout = -1\n", "'timeout' must be a positive number");
    expect_error("timeout = 2.5\n", "", "missing key 'timeout'");
    expect_error("runner = sweep\n", "runner sweep\n", ":4: expected 'key = value'");
    expect_error("runner = sweep\n", "runner =\n", ":4: key 'runner' has no value");
    expect_error("runner = sweep\n", "runner = sweeps\n", ":4: unknown runner 'sweeps' (the kit knows: sweep, jacobi)");
    expect_error("technique = naive\n", "technique = tiled\n", ":7: unknown technique 'tiled' (the kit knows: naive, shared-tile");
    expect_error("opb_model = naive\n", "opb_model = roofline\n", ":8: unknown opb_model 'roofline'");
    expect_error("chapter = 8.2\n", "title = again\n", ":3: key 'title' given twice");
    expect_error("case = 1\n", "case = zero\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = 0\n", "a case starts with a grid size");
    expect_error("case = 1\n", "case = 4 r=2\n", ":13: r= (a filter radius) belongs to the image interface's cases");
    expect_error("interface = grid ", "interface = image ", ":13: a case of the image interface (launch_convolution, kernels/conv.h) is WxH with a filter radius r=1..4");
    expect_error("case = 1\n", "case = 8 fast\n", "unknown case word 'fast'");
    expect_error("time_reps = 30\n", "time_reps = 2.5\n", "'time_reps' must be a whole number");
    // Grid sizes that are not one: file:line and what a size is.
    expect_error("case = 1\n", "case = 2048x2048x\n", ":13: a case starts with a grid size, N, WxH or NXxNYxNZ (each 1..65536), got '2048x2048x'");
    expect_error("case = 1\n", "case = 2048xx64\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = 64x32x16x8\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = 2048x2048x0\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = 65537x4x4\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = x64x64\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = 64X32X16\n", ":13: a case starts with a grid size");
    expect_error("case = 1\n", "case = -64\n", ":13: a case starts with a grid size");
    // The interface: one of the kit's, a cube lab's cases are cubes, a sweep lab's key.
    expect_error("interface = grid ", "interface = hex ", ":16: unknown interface 'hex' (the kit knows: cube, grid, image)");
    expect_error("interface = grid ", "interface = cube ", ":14: case 64x32x16 is not a cube");
    expect_error("interface = grid   # launch_sweep: the 64x32x16 case is no cube\n", "", ":14: case 64x32x16 is not a cube: this lab's interface is cube (launch_stencil(d_in, d_out, N), kernels/lab.h)");
    expect_error("runner = sweep\n", "runner = jacobi\n", ":16: 'interface' is a key of the sweep labs");
}

// Without an interface line a lab is a cube lab (labs 1-4).
static void test_default_interface(void **state)
{
    (void)state;
    static lab_conf c;
    char path[64], err[512] = "";
    test_write_file(path, sizeof(path),
                    "title = t\nrunner = sweep\nkernel = k.cu\nsolution = s.cu\ntechnique = naive\nopb_model = naive\n"
                    "timeout = 1\nrtol = 1e-6\natol = 1e-9\ncase = 5\ncase = 7x7x7\n");
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_string_equal(c.interface, "cube");
    assert_int_equal(c.interface_line, 0);
    char name[32];
    assert_string_equal(conf_case_name(&c.cases[1], name, sizeof(name)), "N=7");
}

// Random sizes, written as lab.conf writes them, parse back to themselves;
// one axis over the limit, or a size short of an axis, does not parse.
static void test_sizes_round_trip(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed());
    for (int t = 0; t < 2000; t++) {
        unsigned int n[3];
        for (int d = 0; d < 3; d++)  // small sizes often (1, 2, 3: no interior), up to the limit
            n[d] = (rng_next(&g) & 3) ? 1 + (unsigned int)(rng_next(&g) % 300) : 1 + (unsigned int)(rng_next(&g) % 65536);
        char text[96], err[256] = "", name[48];
        lab_case c;
        snprintf(text, sizeof(text), "%ux%ux%u timed group=g", n[0], n[1], n[2]);
        assert_int_equal(conf_parse_case(text, &c, err, sizeof(err)), 0);
        assert_true(c.nx == n[0] && c.ny == n[1] && c.nz == n[2] && c.timed);
        char want[48];  // a cube by its N, as CASE= takes it; any other grid as lab.conf writes it
        if (n[0] == n[1] && n[1] == n[2])
            snprintf(want, sizeof(want), "N=%u", n[0]);
        else
            snprintf(want, sizeof(want), "%ux%ux%u", n[0], n[1], n[2]);
        assert_string_equal(conf_case_name(&c, name, sizeof(name)), want);
        int d = (int)(rng_next(&g) % 3);
        n[d] = 65537 + (unsigned int)(rng_next(&g) % 100000);
        snprintf(text, sizeof(text), "%ux%ux%u", n[0], n[1], n[2]);
        assert_int_equal(conf_parse_case(text, &c, err, sizeof(err)), -1);
        snprintf(text, sizeof(text), "%ux%u", n[(d + 1) % 3], n[(d + 2) % 3]);  // two axes: an image, nz = 1
        assert_int_equal(conf_parse_case(text, &c, err, sizeof(err)), 0);
        assert_true(c.nx == n[(d + 1) % 3] && c.ny == n[(d + 2) % 3] && c.nz == 1);
        assert_string_equal(conf_case_name(&c, name, sizeof(name)), text);
        snprintf(text, sizeof(text), "%ux%u r=3", n[(d + 1) % 3], n[(d + 2) % 3]);  // with its filter's radius
        assert_int_equal(conf_parse_case(text, &c, err, sizeof(err)), 0);
        snprintf(want, sizeof(want), "%ux%u,r=3", n[(d + 1) % 3], n[(d + 2) % 3]);
        assert_string_equal(conf_case_name(&c, name, sizeof(name)), want);
        snprintf(text, sizeof(text), "%ux%u", n[d], n[(d + 2) % 3]);  // an axis past 65536
        assert_int_equal(conf_parse_case(text, &c, err, sizeof(err)), -1);
    }
}

// The stencil key: star7 (radius 1) unless it says star13 (radius 2); a
// wider star is a sweep of the cube interface; anything else is an error
// naming the file and the line.
static void test_stencil_key(void **state)
{
    (void)state;
    static lab_conf c;
    static const char *base = "title = t\nrunner = sweep\nkernel = k.cu\nsolution = s.cu\ntechnique = naive\nopb_model = naive\n"
                              "timeout = 1\nrtol = 1e-6\natol = 1e-9\ncase = 5\n";
    char path[64], text[1024], err[512] = "";
    test_write_file(path, sizeof(path), base);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_string_equal(c.stencil, "star7");
    assert_int_equal(c.star_radius, 1);
    assert_int_equal(c.stencil_line, 0);
    snprintf(text, sizeof(text), "%sstencil = star13   # the thirteen-point star\n", base);
    test_write_file(path, sizeof(path), text);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_string_equal(c.stencil, "star13");
    assert_int_equal(c.star_radius, 2);
    assert_int_equal(c.stencil_line, 11);
    snprintf(text, sizeof(text), "%sstencil = star7\n", base);
    test_write_file(path, sizeof(path), text);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_int_equal(c.star_radius, 1);
    // Bad values: one line, naming the file and the line.
    expect_error("runner = sweep\n", "runner = sweep\nstencil = star9\n", ":5: unknown stencil 'star9' (the kit knows: star7, star13)");
    expect_error("runner = sweep\n", "runner = sweep\nstencil = 2\n", ":5: unknown stencil '2'");
    expect_error("runner = sweep\n", "runner = sweep\nstencil =\n", ":5: key 'stencil' has no value");
    expect_error("runner = sweep\n", "runner = sweep\nstencil = star13\nstencil = star13\n", ":6: key 'stencil' given twice");
    expect_error("runner = sweep\n", "runner = sweep\nstencil = star13\n", ":5: stencil = star13 is graded on the cube interface only");
    snprintf(text, sizeof(text), "title = t\nrunner = jacobi\nkernel = k.cu\nsolution = s.cu\ntechnique = jacobi\nopb_model = jacobi\n"
                                 "timeout = 1\nrtol = 1e-6\natol = 1e-9\ncase = 5\nstencil = star13\n");
    test_write_file(path, sizeof(path), text);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), -1);
    unlink(path);
    if (!strstr(err, ":11: 'stencil' is a key of the sweep labs"))
        fail_msg("error '%s' does not name line 11 and the sweep labs", err);
}

// The update key: the whole-solve labs' (runner = jacobi), jacobi unless it
// says heat2d; a sweep lab that names one, or an update the kit does not
// know, is an error naming the file and the line.
static void test_update_key(void **state)
{
    (void)state;
    static lab_conf c;
    static const char *base = "title = t\nrunner = jacobi\nkernel = k.cu\nsolution = s.cu\ntechnique = heat2d\nopb_model = heat2d\n"
                              "timeout = 1\nrtol = 1e-6\natol = 1e-9\ncase = 67x30\n";
    char path[64], text[1024], err[512] = "";
    test_write_file(path, sizeof(path), base);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_string_equal(c.update, "jacobi");
    assert_int_equal(c.update_line, 0);
    assert_true(lab_kind_of(&c)->case_flops(&c, &c.cases[0]) == 8.0);
    snprintf(text, sizeof(text), "%supdate = heat2d   # the heat step\n", base);
    test_write_file(path, sizeof(path), text);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), 0);
    unlink(path);
    assert_string_equal(c.update, "heat2d");
    assert_int_equal(c.update_line, 11);
    assert_true(lab_kind_of(&c)->case_flops(&c, &c.cases[0]) == 7.0);
    char name[64];
    assert_string_equal(conf_case_name(&c.cases[0], name, sizeof(name)), "67x30");
    snprintf(text, sizeof(text), "%supdate = heat3d\n", base);
    test_write_file(path, sizeof(path), text);
    assert_int_equal(conf_load(path, &c, err, sizeof(err)), -1);
    unlink(path);
    if (!strstr(err, ":11: unknown update 'heat3d' (the kit knows: jacobi, heat2d)"))
        fail_msg("error '%s' does not name line 11 and the updates", err);
    expect_error("runner = sweep\n", "runner = sweep\nupdate = heat2d\n", ":5: 'update' is a key of the whole-solve labs (runner = jacobi)");
}

// The case options each kind of lab takes, read; any other is the file's
// mistake, named with its line (not a case a student then fails).
static void test_case_options(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512] = "";
    const char *jacobi = "title = J\nchapter = x\nrunner = jacobi\nkernel = k.cu\nsolution = s.cu\ntechnique = naive\n"
                         "opb_model = naive\ntimeout = 5\ntime_reps = 5\nrtol = 1e-5\natol = 1e-6\n"
                         "case = 16x12x10 bc=periodic iters=%d check=5 tol=1e-4 h=0.1\ncase = 9 %s\n";
    char text[1024];
    int iters = 1 + (int)(test_seed() % 500);
    snprintf(text, sizeof(text), jacobi, iters, "mms=1");
    assert_int_equal(load_text(text, &c, err, sizeof(err)), 0);
    assert_string_equal(conf_case_opt(&c.cases[0], "bc"), "periodic");
    assert_int_equal(atoi(conf_case_opt(&c.cases[0], "iters")), iters);
    assert_null(conf_case_opt(&c.cases[1], "iters"));
    const char *bad_words[] = {"iter=3", "bogus=1", "steps=4"};  // a typo, a made-up word, another kind's option
    for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
        snprintf(text, sizeof(text), jacobi, iters, bad_words[i]);
        assert_int_equal(load_text(text, &c, err, sizeof(err)), -1);
        char want[64];
        snprintf(want, sizeof(want), ":13: unknown case option '%.*s='", (int)(strchr(bad_words[i], '=') - bad_words[i]), bad_words[i]);
        if (!strstr(err, want) || !strstr(err, "iters="))
            fail_msg("error '%s' does not name '%s' and the options the lab takes", err, want);
    }
    expect_error("case = 1\n", "case = 1 bogus=1\n", "unknown case option 'bogus=' (this lab's cases take no key=value option");
    expect_error("case = 1\n", "case = 1 r=2\n", "r= (a filter radius) belongs to the image interface");
}

// What a script asks of lab.conf, answered by the judge's reading of it.
static void test_conf_get(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512] = "", value[256];
    assert_int_equal(load_text(good_conf, &c, err, sizeof(err)), 0);
    assert_int_equal(conf_get(&c, "solution", value, sizeof(value)), 0);
    assert_string_equal(value, "reference/solutions/x.cu");
    assert_int_equal(conf_get(&c, "title", value, sizeof(value)), 0);
    assert_string_equal(value, "Test lab");
    assert_int_equal(conf_get(&c, "timed", value, sizeof(value)), 0);
    assert_string_equal(value, "512");
    assert_int_equal(conf_get(&c, "largest", value, sizeof(value)), 0);
    assert_string_equal(value, "1");  // 64x32x16 and 512 are noemu
    assert_int_equal(conf_get(&c, "timeout", value, sizeof(value)), 0);
    assert_string_equal(value, "2.5");
    assert_int_equal(conf_get(&c, "points", value, sizeof(value)), 0);
    assert_true(atof(value) > 0);
    assert_int_equal(conf_get(&c, "solutions", value, sizeof(value)), -1);
    assert_non_null(strstr(value, "solution"));
}

static void test_missing_file(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512];
    assert_int_equal(conf_load("/nonexistent/lab.conf", &c, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/nonexistent/lab.conf: cannot open"));
}

// Every lab.conf the kit ships parses.
static void test_kit_labs_parse(void **state)
{
    (void)state;
    static lab_conf c;
    char err[512];
    glob_t labs;
    int found = 0;
    if (glob("labs/[0-9][0-9]-*/lab.conf", 0, NULL, &labs) != 0)
        fail_msg("no labs/NN-name/lab.conf under %s (run from the kit's root)", getcwd(err, sizeof(err)));
    for (size_t i = 0; i < labs.gl_pathc; i++) {
        found++;
        if (conf_load(labs.gl_pathv[i], &c, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_true(c.ncases > 0);
    }
    globfree(&labs);
    assert_true(found >= 1);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_conf_get),
        cmocka_unit_test(test_case_options),
        cmocka_unit_test(test_default_interface),
        cmocka_unit_test(test_stencil_key),
        cmocka_unit_test(test_update_key),
        cmocka_unit_test(test_sizes_round_trip),
        cmocka_unit_test(test_kit_labs_parse),
    };
    return cmocka_run_group_tests_name("conf", tests, NULL, NULL);
}
