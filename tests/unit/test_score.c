// tests/unit/test_score.c — the rubric (points lines of lab.conf) and the
// score it gives: groups earn their share of passed cases, speed is linear
// between zero_at and full_at and clamped, parts a backend cannot measure are
// left out of the maximum, a kit-level error earns nothing; and the summary
// the class grader reads holds exactly the keys of summary_keys.h.
#include "test_util.h"

#include <math.h>

#include "judge.h"
#include "report.h"
#include "score.h"
#include "summary_keys.h"

// A uniform double in [0, 1) from the test's random stream.
static double test_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

// A conf with the rubric "a PA, b PB, technique PT, speed PS full_at=F zero_at=Z".
static void rubric_conf(lab_conf *c, double pa, double pb, double pt, double ps, double full, double zero)
{
    char err[256], line[128];
    memset(c, 0, sizeof(*c));
    const char *parts[4] = {"a %g", "b %g", "technique %g", "speed %g full_at=%.17g zero_at=%.17g"};
    double pts[4] = {pa, pb, pt, ps};
    for (int i = 0; i < 4; i++) {
        snprintf(line, sizeof(line), parts[i], pts[i], full, zero);
        assert_int_equal(conf_parse_points(line, &c->parts[c->nparts++], err, sizeof(err)), 0);
    }
}

static void test_score_groups_and_speed(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed());
    for (int round = 0; round < 200; round++) {
        lab_conf c;
        double pa = 1 + (int)(test_unit(&r) * 9), pb = 1 + (int)(test_unit(&r) * 9), pt = 1 + (int)(test_unit(&r) * 3);
        double zero = 0.05 + 0.3 * test_unit(&r), full = zero + 0.05 + 0.5 * test_unit(&r), frac = test_unit(&r);
        rubric_conf(&c, pa, pb, pt, 1, full, zero);
        score_case cases[16];
        int n = 0, a_pass = 0, a_ran = 0, b_pass = 0, b_ran = 0;
        for (int i = 0; i < 12; i++) {
            int status = (int)(test_unit(&r) * 3);  // ok, fail or skipped
            cases[n++] = (score_case){i % 2 ? "b" : "a", status, 0, -1, -1, NULL};
            if (status != 2) {
                (i % 2 ? &b_ran : &a_ran)[0]++;
                (i % 2 ? &b_pass : &a_pass)[0] += status == 0;
            }
        }
        cases[n++] = (score_case){"b", 0, 1, frac, -1, NULL};  // the timed case, passed
        b_ran++, b_pass++;
        int technique = test_unit(&r) < 0.5;
        score_result s = score_compute(&c, cases, n, technique, 0);
        double want_a = a_ran ? pa * a_pass / a_ran : 0, want_b = pa * 0 + pb * b_pass / b_ran;
        double share = fmin(1, fmax(0, (frac - zero) / (full - zero)));
        assert_true(fabs(s.items[0].points - want_a) < 1e-9);
        assert_int_equal(s.items[0].measured, a_ran > 0);
        assert_true(fabs(s.items[1].points - want_b) < 1e-9);
        assert_true(s.items[2].points == (technique ? pt : 0));
        assert_true(fabs(s.items[3].points - share) < 1e-9);
        assert_true(fabs(s.lab_max - (pa + pb + pt + 1)) < 1e-9);
        assert_true(fabs(s.max - ((a_ran ? pa : 0) + pb + pt + 1)) < 1e-9);
        assert_true(s.points <= s.max + 1e-9);
    }
}

static void test_score_unmeasured_failed_and_error(void **state)
{
    (void)state;
    lab_conf c;
    rubric_conf(&c, 2, 3, 1, 2, 0.5, 0.1);
    // Emulation: the timed case is skipped, so speed is not counted.
    score_case emu[2] = {{"a", 0, 0, -1, -1, NULL}, {"b", 2, 1, -1, -1, NULL}};
    score_result s = score_compute(&c, emu, 2, 1, 0);
    assert_false(s.items[3].measured);
    assert_false(s.items[1].measured);
    assert_true(fabs(s.max - 3) < 1e-9 && fabs(s.points - 3) < 1e-9 && fabs(s.lab_max - 8) < 1e-9);
    // A failed timed case earns no speed points, however fast.
    score_case failed[2] = {{"a", 0, 0, -1, -1, NULL}, {"b", 1, 1, 0.9, 1.0, NULL}};
    s = score_compute(&c, failed, 2, 1, 0);
    assert_true(s.items[3].measured && s.items[3].points == 0);
    // Against the lab's solution timed on the same GPU: its fraction decides;
    // without a solution to time (a student kit), speed is not counted.
    rubric_part *sp = &c.parts[3];
    char err[256];
    assert_int_equal(conf_parse_points("speed 2 full_at=0.8 zero_at=0.3 against=solution", sp, err, sizeof(err)), 0);
    score_case timed[2] = {{"a", 0, 0, -1, -1, NULL}, {"b", 0, 1, 0.2, 0.55, NULL}};
    s = score_compute(&c, timed, 2, 1, 0);
    assert_true(s.items[3].measured && fabs(s.items[3].points - 2 * (0.55 - 0.3) / 0.5) < 1e-9);
    assert_non_null(strstr(s.items[3].detail, "the lab's solution timed on this GPU"));  // kept or timed now: never "in the same run"
    timed[1].solution_fraction = -1;
    s = score_compute(&c, timed, 2, 1, 0);
    assert_false(s.items[3].measured);
    assert_non_null(strstr(s.items[3].detail, "your instructor times it when grading"));  // what a student kit's reader is told
    assert_non_null(strstr(s.items[3].detail, "20% of the copy limit"));
    assert_true(fabs(s.max - 6) < 1e-9);
    // The technique: failed, not judged for want of a case with interior
    // points (counted, nothing earned, and said so), not checked.
    score_case small[2] = {{"a", 0, 0, -1, -1, NULL}, {"b", 0, 0, -1, -1, NULL}};
    const struct { int technique; double points; const char *says; } verdicts[] = {
        {1, 1, "technique check passed"}, {0, 0, "technique check failed"},
        {SCORE_TECHNIQUE_UNJUDGED, 0, "technique not judged: no case with interior points passed"},
        {-1, 0, "technique not checked"}};
    for (size_t q = 0; q < sizeof(verdicts) / sizeof(verdicts[0]); q++) {
        s = score_compute(&c, small, 2, verdicts[q].technique, 0);
        assert_true(s.items[2].measured && s.items[2].points == verdicts[q].points);
        assert_non_null(strstr(s.items[2].detail, verdicts[q].says));
    }
    // A kit-level error: nothing earned, everything counted.
    s = score_compute(&c, NULL, 0, 0, 1);
    assert_true(s.points == 0 && fabs(s.max - 8) < 1e-9);  // 2 + 3 + 1 + 2
}

// Several timed cases (lab 6: a cube and a wide-plane grid): speed earns
// the mean of each case's points, names every case and its share, and
// nothing when one of them failed; a skipped one (emulation) is left out.
static void test_score_several_timed(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x74696d6564ull);
    lab_conf c;
    rubric_conf(&c, 1, 2, 1, 3, 0.85, 0.5);
    for (int round = 0; round < 200; round++) {
        double f1 = 1.2 * test_unit(&r), f2 = 1.2 * test_unit(&r);
        score_case cases[3] = {{"a", 0, 0, -1, -1, "5x7x9"}, {"b", 0, 1, f1, -1, "N=512"}, {"b", 0, 1, f2, -1, "4096x4096x32"}};
        double s1 = fmin(1, fmax(0, (f1 - 0.5) / 0.35)), s2 = fmin(1, fmax(0, (f2 - 0.5) / 0.35));
        score_result s = score_compute(&c, cases, 3, 1, 0);
        assert_true(s.items[3].measured);
        assert_true(fabs(s.items[3].points - 3 * (s1 + s2) / 2) < 1e-9);
        char want[64];
        snprintf(want, sizeof(want), "N=512 %.0f%%, 4096x4096x32 %.0f%%", 100 * f1, 100 * f2);
        if (!strstr(s.items[3].detail, want))
            fail_msg("speed detail '%s' lacks '%s'", s.items[3].detail, want);
        cases[2].status = 1;  // the second timed case fails: no speed points, and the line says which
        s = score_compute(&c, cases, 3, 1, 0);
        assert_true(s.items[3].measured && s.items[3].points == 0);
        assert_non_null(strstr(s.items[3].detail, "4096x4096x32 failed"));
        cases[2].status = 2;  // skipped: the other one alone decides, as for one timed case
        s = score_compute(&c, cases, 3, 1, 0);
        assert_true(fabs(s.items[3].points - 3 * s1) < 1e-9);
        assert_null(strstr(s.items[3].detail, "mean"));
    }
}

static void test_points_lines_rejected(void **state)
{
    (void)state;
    rubric_part p;
    char err[256];
    const char *bad[] = {"", "cases", "cases -1", "cases many", "speed 1", "speed 1 full_at=0.2 zero_at=0.3",
                         "technique 1 full_at=0.5", "cases 2 extra", "speed 1 full_at=x"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(conf_parse_points(bad[i], &p, err, sizeof(err)), -1);
    assert_int_equal(conf_parse_points("speed 2 full_at=0.6", &p, err, sizeof(err)), 0);
    assert_true(p.kind == RUBRIC_SPEED && p.full_at == 0.6 && p.zero_at == 0 && p.points == 2);
}

// The summary's keys, as report_summary writes them, are exactly summary_keys.h's, in order.
static void test_summary_keys(void **state)
{
    (void)state;
    static judge_run run;
    memset(&run, 0, sizeof(run));
    run.exit_code = 1;
    run.technique.status = TECHNIQUE_NA;
    snprintf(run.backend, sizeof(run.backend), "emu");
    char path[64] = "/tmp/stencil-summary-XXXXXX", line[1024];
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w+");
    report_summary(&run, f);
    rewind(f);
    static const char *want[] = {
#define KEY_NAME(key, type, what) #key,
        SUMMARY_KEYS(KEY_NAME)
#undef KEY_NAME
    };
    size_t i = 0;
    while (fgets(line, sizeof(line), f)) {
        assert_true(i < sizeof(want) / sizeof(want[0]));
        *strchr(line, '=') = '\0';
        assert_string_equal(line, want[i]);
        i++;
    }
    assert_int_equal(i, sizeof(want) / sizeof(want[0]));
    fclose(f);
    unlink(path);
}

// Every timed case reaches the summary, as name:fraction of the copy limit.
static void test_summary_timed_cases(void **state)
{
    (void)state;
    static judge_run run;
    memset(&run, 0, sizeof(run));
    run.technique.status = TECHNIQUE_OK;
    snprintf(run.backend, sizeof(run.backend), "gpu");
    run.ncases = 3;
    rng g;
    rng_init(&g, test_seed());
    double gbs[3] = {1500 + (double)(rng_next(&g) % 1000), 0, 2000 + (double)(rng_next(&g) % 800)};
    const char *names[3] = {"N=512", "N=33", "4096x4096x32"};
    for (int i = 0; i < 3; i++) {
        snprintf(run.cases[i].name, sizeof(run.cases[i].name), "%s", names[i]);
        run.cases[i].status = CASE_OK;
        run.cases[i].timed = i != 1;
        run.cases[i].gbs = gbs[i];
        run.cases[i].bandwidth_gbs = 3000;
    }
    char path[64] = "/tmp/stencil-summary-XXXXXX", line[1024], want[256] = "";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w+");
    report_summary(&run, f);
    rewind(f);
    snprintf(want, sizeof(want), "timed_cases=N=512:%.4f 4096x4096x32:%.4f\n", gbs[0] / 3000, gbs[2] / 3000);
    int found = 0;
    while (fgets(line, sizeof(line), f))
        found |= !strcmp(line, want);
    if (!found)
        fail_msg("no summary line %s", want);
    fclose(f);
    unlink(path);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_score_groups_and_speed),
        cmocka_unit_test(test_score_unmeasured_failed_and_error),
        cmocka_unit_test(test_score_several_timed),
        cmocka_unit_test(test_summary_timed_cases),
        cmocka_unit_test(test_points_lines_rejected),
        cmocka_unit_test(test_summary_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
