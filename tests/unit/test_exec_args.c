// tests/unit/test_exec_args.c — the executor's command line and the judge's
// requests (grader/executor/exec_args.c), read with no GPU: every option
// the judge sends comes back in its field, on random values (the seed
// printed); every malformed value, missing value, unknown option and
// command line that makes no case is refused with a reason naming it; a
// request is read whole, and a malformed or cut one is refused.
#include "test_util.h"

#include <stdarg.h>

#include "../../grader/executor/exec_args.h"
#include "gpu_locks.h"

// The executor's --bc names, in LAB_BC_*'s order (kernels/jacobi.h).
static int bc_of(const char *name)
{
    return !strcmp(name, "dirichlet") ? 0 : !strcmp(name, "neumann") ? 1 : !strcmp(name, "periodic") ? 2 : -1;
}

static uint64_t rng_state;

// A random whole number in [lo, hi].
static unsigned draw(unsigned lo, unsigned hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (unsigned)((rng_state >> 31) % ((uint64_t)hi - lo + 1));
}

// Parses the NULL-ended arguments after the program's name; returns exec_args_parse's status, why in why.
static int parse(exec_args *a, char *why, ...)
{
    char *argv[80] = {"executor"};
    int argc = 1;
    va_list ap;
    va_start(ap, why);
    for (char *arg; (arg = va_arg(ap, char *)) != NULL && argc < 79;)
        argv[argc++] = arg;
    va_end(ap);
    memset(a, 0x5a, sizeof(*a));  // nothing of an earlier parse may show through
    why[0] = '\0';
    return exec_args_parse(argc, argv, bc_of, a, why, 300);
}

static int setup(void **state)
{
    (void)state;
    rng_state = test_seed();
    return 0;
}

// A sweep case with every option the judge sends: each comes back in its field.
static void test_sweep_case(void **state)
{
    (void)state;
    exec_args a;
    char why[300], n[16], coef[256] = "", reps[16], units[64], fill[32], budget[32], bytes[32];
    unsigned side = draw(8, 600), used = 0;
    float want[7];
    for (int i = 0; i < 7; i++) {
        want[i] = (float)draw(0, 2000) / 1000.0f - 1.0f;
        used += (unsigned)snprintf(coef + used, sizeof(coef) - used, "%s%.3f", i ? "," : "", (double)want[i]);
    }
    unsigned u0 = draw(0, side - 1), u1 = draw(0, side - 1);
    unsigned long long seed = ((unsigned long long)draw(0, 0xffffffffu) << 32) | draw(0, 0xffffffffu);
    snprintf(n, sizeof(n), "%u", side);
    snprintf(reps, sizeof(reps), "%u", draw(1, 50));
    snprintf(units, sizeof(units), "%u,%u", u0, u1);
    snprintf(fill, sizeof(fill), "%llx", seed);
    snprintf(budget, sizeof(budget), "%.2f", (double)draw(1, 900) / 100.0);
    snprintf(bytes, sizeof(bytes), "%u", draw(1, 1u << 30));
    assert_int_equal(parse(&a, why, "--outdir", "/tmp/case", "--student", "/tmp/student", "--n", n, "--coef", coef, "--time", reps,
                           "--time-budget", budget, "--accuracy", "1e-6,1e-9", "--gpu-check", units, FILL_OPTION, fill, "--log",
                           "/tmp/log", "--file-bytes", bytes, GPU_LOCKS_OPTION, "a,b,c,d,e,alone", LOADS_OPTION, "--yardstick", NULL),
                     0);
    assert_string_equal(a.outdir, "/tmp/case");
    assert_string_equal(a.student, "/tmp/student");
    assert_int_equal(a.kind, RUNNER_KIND_SWEEP);
    assert_true(a.n[0] == side && a.n[1] == side && a.n[2] == side);
    assert_int_equal(a.ncoef, 7);
    assert_int_equal(a.star_radius, 1);
    assert_int_equal(a.filter_radius, 0);
    for (int i = 0; i < 7; i++)
        assert_float_equal(a.coef[i], want[i], 1e-6);
    assert_int_equal(a.time_reps, atoi(reps));
    assert_float_equal(a.time_budget_s, atof(budget), 1e-9);
    assert_float_equal(a.rtol, 1e-6, 1e-15);
    assert_float_equal(a.atol, 1e-9, 1e-18);
    assert_int_equal(a.gpu_check, 1);
    assert_int_equal(a.nsample, 2);
    assert_true(a.sample[0] == u0 && a.sample[1] == u1);
    assert_int_equal(a.fill_given, 1);
    assert_true(a.fill == seed);
    assert_string_equal(a.log, "/tmp/log");
    assert_true(a.file_bytes == strtoull(bytes, NULL, 10));
    assert_string_equal(a.gpu_locks, "a,b,c,d,e,alone");
    assert_true(a.count_loads == 1 && a.yardstick == 1 && a.probe == 0 && a.serve == 0);
    assert_int_equal(a.pitch, side);  // no --pitch: a row's own width
}

// A grid of three sizes, and lab 0's filter (--radius, its (2R+1)² weights, one plane).
static void test_grid_and_filter(void **state)
{
    (void)state;
    exec_args a;
    char why[300], size[48], coef[1024] = "", radius[8];
    unsigned nx = draw(1, 300), ny = draw(1, 300), nz = draw(1, 300);
    snprintf(size, sizeof(size), "%u,%u,%u", nx, ny, nz);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--size", size, "--coef", "1,2,3,4,5,6,7,8,9,10,11,12,13", NULL), 0);
    assert_true(a.n[0] == nx && a.n[1] == ny && a.n[2] == nz);
    assert_int_equal(a.star_radius, 2);
    int r = (int)draw(1, CONV_MAX_RADIUS), used = 0;
    for (int i = 0; i < FILTER_NWEIGHTS(r); i++)
        used += snprintf(coef + used, sizeof(coef) - (size_t)used, "%s%u", i ? "," : "", draw(0, 9));
    snprintf(radius, sizeof(radius), "%d", r);
    snprintf(size, sizeof(size), "%u,%u,1", nx, ny);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--size", size, "--coef", coef, "--radius", radius, NULL), 0);
    assert_int_equal(a.filter_radius, r);
    assert_int_equal(a.star_radius, 0);
    assert_int_equal(a.ncoef, FILTER_NWEIGHTS(r));
    snprintf(size, sizeof(size), "%u,%u,2", nx, ny);  // a filter's image is one plane
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--size", size, "--coef", coef, "--radius", radius, NULL), -1);
    assert_non_null(strstr(why, "usage"));
}

// A whole solve: Jacobi's options, and the heat equation's (one plane, Dirichlet, a padded pitch).
static void test_solves(void **state)
{
    (void)state;
    exec_args a;
    char why[300], size[48], pitch[16], rate[16], iters[16];
    unsigned nx = draw(3, 200), ny = draw(3, 200), nz = draw(3, 200);
    snprintf(size, sizeof(size), "%u,%u,%u", nx, ny, nz);
    snprintf(iters, sizeof(iters), "%u", draw(0, 5000));
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--h", "0.125", "--bc",
                           "periodic", "--iters", iters, "--check", "10", "--tol", "1e-5", "--gpu-check", GPU_CHECK_SOLVE, "--scale", "2.5",
                           NULL),
                     0);
    assert_int_equal(a.kind, RUNNER_KIND_JACOBI);
    assert_int_equal(a.bc, 2);
    assert_int_equal(a.iters, atoi(iters));
    assert_int_equal(a.check_every, 10);
    assert_float_equal(a.h, 0.125, 1e-9);
    assert_float_equal(a.tol, 1e-5, 1e-12);
    assert_int_equal(a.gpu_check, 1);
    assert_int_equal(a.nsample, 0);
    assert_float_equal(a.scale, 2.5, 1e-12);
    unsigned p = HEAT_PITCH_FLOATS * draw((nx + HEAT_PITCH_FLOATS - 1) / HEAT_PITCH_FLOATS, 20);
    snprintf(size, sizeof(size), "%u,%u,1", nx, ny);
    snprintf(pitch, sizeof(pitch), "%u", p);
    snprintf(rate, sizeof(rate), "%.3f", (double)draw(1, 250) / 1000.0);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--bc", "dirichlet", "--update",
                           UPDATE_HEAT2D, "--rate", rate, "--pitch", pitch, NULL),
                     0);
    assert_true(a.heat == 1 && a.pitch == p);
    assert_float_equal(a.rate, atof(rate), 1e-6);
    // What makes no heat case: a pitch that is no multiple, a rate past 1/4, two planes, another boundary.
    snprintf(pitch, sizeof(pitch), "%u", p + 1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--bc", "dirichlet", "--update",
                           UPDATE_HEAT2D, "--rate", rate, "--pitch", pitch, NULL),
                     -1);
    snprintf(pitch, sizeof(pitch), "%u", p);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--bc", "dirichlet", "--update",
                           UPDATE_HEAT2D, "--rate", "0.26", "--pitch", pitch, NULL),
                     -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--bc", "neumann", "--update",
                           UPDATE_HEAT2D, "--rate", rate, "--pitch", pitch, NULL),
                     -1);
    snprintf(size, sizeof(size), "%u,%u,2", nx, ny);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", size, "--bc", "dirichlet", "--update",
                           UPDATE_HEAT2D, "--rate", rate, "--pitch", pitch, NULL),
                     -1);
    // Jacobi: fewer than three points on an axis, a negative iteration count, no boundary, a padded pitch.
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", "2,9,9", "--bc", "neumann", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", "9,9,9", "--bc", "neumann", "--iters",
                           "-1", NULL),
                     -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", "9,9,9", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", RUNNER_JACOBI, "--size", "9,9,9", "--bc", "neumann",
                           "--pitch", "64", NULL),
                     -1);
    assert_non_null(strstr(why, "usage"));
}

// A serving executor's own command line needs no case; a probe needs only its folder.
static void test_serve_and_probe(void **state)
{
    (void)state;
    exec_args a;
    char why[300];
    assert_int_equal(parse(&a, why, "--serve", LOADS_OPTION, NULL), 0);
    assert_true(a.serve == 1 && a.count_loads == 1);
    assert_int_equal(parse(&a, why, "--probe", "--outdir", "o", NULL), 0);
    assert_true(a.probe == 1 && a.student == NULL);
    assert_int_equal(parse(&a, why, "--probe", NULL), -1);  // no folder for its report
}

// Each malformed or missing value, and an unknown option, is refused, the reason naming the option.
static void test_refused(void **state)
{
    (void)state;
    exec_args a;
    char why[300], many[128] = "", past[32], big[32];
    static const char *const bad[][2] = {
        {"--n", "x"},           {"--size", "1,2"},     {"--coef", "1,a"},        {"--coef", ""},       {"--radius", "0"},
        {"--radius", "99"},     {"--h", "h"},          {"--bc", "sideways"},      {"--iters", "many"}, {"--check", "?"},
        {"--tol", "t"},         {"--time", "t"},       {"--time-budget", "-1"},   {"--update", "wave"}, {"--rate", "r"},
        {"--pitch", "p"},       {"--accuracy", "1e-6"}, {"--gpu-check", "1,,2"}, {"--gpu-check", "3x"}, {"--scale", "-1"},
        {"--file-bytes", "b"},  {FILL_OPTION, "zz"},   {FILL_OPTION, ""},         {"--colour", "blue"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", "8", bad[i][0], bad[i][1], NULL), -1);
        assert_non_null(strstr(why, bad[i][0]));
    }
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", NULL), -1);  // a value missing at the end
    assert_non_null(strstr(why, "'--n'"));
    for (int i = 0, used = 0; i <= GPU_CHECK_MAX_UNITS; i++)  // one unit more than a sample holds
        used += snprintf(many + used, sizeof(many) - (size_t)used, "%s%u", i ? "," : "", draw(0, 7));
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", "8", "--gpu-check", many, NULL), -1);
    snprintf(past, sizeof(past), "%u", draw(8, 1000));  // a plane past the grid's eight
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", "8", "--coef", "1,1,1,1,1,1,1", "--gpu-check", past, NULL), -1);
    assert_non_null(strstr(why, "--gpu-check names unit"));
    snprintf(big, sizeof(big), "%u", (1u << 20) + draw(1, 1000));
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", "8", "--gpu-check", big, NULL), -1);
    // No case: no folder, no program, no weights a star or filter takes, an unknown kind, an empty grid.
    assert_int_equal(parse(&a, why, "--student", "s", "--n", "8", "--coef", "1,1,1,1,1,1,1", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--n", "8", "--coef", "1,1,1,1,1,1,1", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--n", "8", "--coef", "1,1,1,1,1", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--kind", "brew", "--n", "8", "--coef", "1,1,1,1,1,1,1", NULL), -1);
    assert_int_equal(parse(&a, why, "--outdir", "o", "--student", "s", "--size", "8,0,8", "--coef", "1,1,1,1,1,1,1", NULL), -1);
    assert_non_null(strstr(why, "usage"));
}

// Writes len bytes of text to a fresh pipe, closes its write end, and returns its read end.
static int pipe_with(const char *text, size_t len)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    close(fds[1]);
    return fds[0];
}

// A request read whole into its arguments; then the end of input; malformed and cut ones refused.
static void test_requests(void **state)
{
    (void)state;
    static char block[PROTOCOL_SERVE_MAX_BYTES];
    char *argv[PROTOCOL_SERVE_MAX_ARGS + 2] = {"executor"};
    char text[4096], args[2048];
    int nargs = (int)draw(1, 40);
    size_t len = 0;
    for (int i = 0; i < nargs; i++)
        len += (size_t)snprintf(args + len, sizeof(args) - len, "--a%u", draw(0, 99999)) + 1;  // each NUL-ended
    int head = snprintf(text, sizeof(text), "%zu\n", len);
    memcpy(text + head, args, len);
    memcpy(text + head + len, text, (size_t)head + len);  // the same request twice
    int fd = pipe_with(text, 2 * ((size_t)head + len));
    for (int round = 0; round < 2; round++) {
        assert_int_equal(exec_args_read_request(fd, block, argv), nargs + 1);
        assert_null(argv[nargs + 1]);
        for (int i = 0, at = 0; i < nargs; at += (int)strlen(args + at) + 1, i++)
            assert_string_equal(argv[i + 1], args + at);
    }
    assert_int_equal(exec_args_read_request(fd, block, argv), 0);  // the judge closed its end
    close(fd);
    // Not a length, none, past the longest, no NUL at its end, cut short, a head of 27 digits.
    static const char *const malformed[] = {"x\nab\0", "0\n", "99999999\nab\0", "3\nabc", "5\nab\0", "123456789012345678901234567"};
    static const size_t lengths[] = {5, 2, 12, 5, 5, 27};
    for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
        fd = pipe_with(malformed[i], lengths[i]);
        assert_int_equal(exec_args_read_request(fd, block, argv), -1);
        close(fd);
    }
    fd = pipe_with("12", 2);  // the judge gone in the middle of a length: the end of input
    assert_int_equal(exec_args_read_request(fd, block, argv), 0);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_sweep_case, setup),      cmocka_unit_test_setup(test_grid_and_filter, setup),
        cmocka_unit_test_setup(test_solves, setup),          cmocka_unit_test_setup(test_serve_and_probe, setup),
        cmocka_unit_test_setup(test_refused, setup),         cmocka_unit_test_setup(test_requests, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
