// tests/unit/test_conf.c — lab.conf parsing, the good files and the bad.
#include "test_util.h"

#include "conf.h"

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
    "case = 64x32x16 noemu bc=periodic\n"
    "case = 512 timed noemu\n";

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
    assert_string_equal(conf_case_opt(&c.cases[1], "bc"), "periodic");
    assert_null(conf_case_opt(&c.cases[1], "iters"));
    assert_true(c.cases[2].timed && c.cases[2].noemu);
    assert_int_equal(c.cases[2].line, 15);
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
    expect_error("case = 1\n", "case = 4x4\n", "a case starts with a grid size");
    expect_error("case = 1\n", "case = 8 fast\n", "unknown case word 'fast'");
    expect_error("time_reps = 30\n", "time_reps = 2.5\n", "'time_reps' must be a whole number");
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
    char err[512], path[256];
    const char *labs[] = {"01-naive-sweep", "02-shared-tile", "03-z-coarsening", "04-register-tiling", "05-jacobi"};
    int found = 0;
    for (size_t i = 0; i < sizeof(labs) / sizeof(labs[0]); i++) {
        snprintf(path, sizeof(path), "labs/%s/lab.conf", labs[i]);
        if (access(path, R_OK) != 0)
            continue;
        found++;
        if (conf_load(path, &c, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_true(c.ncases > 0);
    }
    assert_true(found >= 1);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_kit_labs_parse),
    };
    return cmocka_run_group_tests_name("conf", tests, NULL, NULL);
}
