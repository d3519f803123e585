// tests/unit/test_tool_cache.c — the remembered runs under a tool
// (grader/judge/tool_cache.c): a clean outcome comes back whole for the same
// programs and case, a rebuilt program, another case or another tool misses,
// a failure is never remembered, and a file the cache did not write is not believed.
#include "test_util.h"

#include <limits.h>
#include <sys/stat.h>

#include "tool_cache.h"

// A folder of this test's own under /tmp, and in it two "programs" of random bytes.
typedef struct cache_fixture {
    char dir[64];
    char programs[2][PATH_MAX];
    const char *list[3];
    lab_conf conf;
    lab_case spec;
    rng r;
} cache_fixture;

// Writes n random bytes to path.
static void random_file(rng *r, const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc((int)(rng_next(r) & 0xff), f);
    fclose(f);
}

static int fixture_up(void **state)
{
    cache_fixture *x = calloc(1, sizeof(*x));
    rng_init(&x->r, test_seed());
    snprintf(x->dir, sizeof(x->dir), "/tmp/stencil-cache-XXXXXX");
    assert_non_null(mkdtemp(x->dir));
    for (int i = 0; i < 2; i++) {
        snprintf(x->programs[i], sizeof(x->programs[i]), "%s/program-%d", x->dir, i);
        random_file(&x->r, x->programs[i], 1000 + rng_next(&x->r) % 100000);
        x->list[i] = x->programs[i];
    }
    snprintf(x->conf.runner, sizeof(x->conf.runner), "sweep");
    snprintf(x->conf.technique, sizeof(x->conf.technique), "register-tiling");
    x->conf.star_radius = 1, x->conf.rtol = 1e-5, x->conf.atol = 1e-6;
    x->spec.nx = x->spec.ny = x->spec.nz = 1 + (unsigned)(rng_next(&x->r) % 600);
    x->spec.sync = 1;
    *state = x;
    return 0;
}

static int fixture_down(void **state)
{
    cache_fixture *x = *state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->dir);
    assert_int_equal(system(cmd), 0);
    free(x);
    return 0;
}

// A passing outcome with random load counts, and a report of random keys.
static void random_outcome(rng *r, case_result *c, kv_list *report)
{
    char key[32], value[32];
    memset(c, 0, sizeof(*c));
    memset(report, 0, sizeof(*report));
    c->status = CASE_OK;
    c->loads_counted = 1;
    c->global_loads = (double)(rng_next(r) % 100000000) / 7.0;
    c->shared_loads = (double)(rng_next(r) % 100000000) / 3.0;
    int n = 1 + (int)(rng_next(r) % 40);
    for (int i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "key%d", i);
        snprintf(value, sizeof(value), "%llu", (unsigned long long)(rng_next(r) % 1000000));
        assert_int_equal(kv_add(report, key, value), 0);
    }
}

static void test_clean_outcome_comes_back(void **state)
{
    cache_fixture *x = *state;
    char path[PATH_MAX + 64];
    case_result c, got;
    kv_list report, back;
    random_outcome(&x->r, &c, &report);
    assert_int_equal(tool_cache_path(x->dir, "loads", &x->conf, &x->spec, x->list, path, sizeof(path)), 0);
    memset(&got, 0, sizeof(got));
    assert_int_equal(tool_cache_load(path, &got, &back), 0);  // nothing yet
    assert_int_equal(tool_cache_save(path, &c, &report), 1);
    assert_int_equal(tool_cache_load(path, &got, &back), 1);
    assert_int_equal(got.status, CASE_OK);
    assert_string_equal(got.kind, "ok");
    assert_int_equal(got.loads_counted, 1);
    assert_true(got.global_loads == c.global_loads && got.shared_loads == c.shared_loads);
    for (int i = 0; i < report.n; i++)
        assert_string_equal(kv_get(&back, report.key[i]), report.value[i]);
    kv_free(&back);
    kv_free(&report);
}

static void test_other_programs_case_or_tool_miss(void **state)
{
    cache_fixture *x = *state;
    char path[PATH_MAX + 64], other[PATH_MAX + 64];
    lab_case bigger = x->spec;
    bigger.nx++;
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &x->spec, x->list, path, sizeof(path)), 0);
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &bigger, x->list, other, sizeof(other)), 0);
    assert_string_not_equal(path, other);
    assert_int_equal(tool_cache_path(x->dir, "strict", &x->conf, &x->spec, x->list, other, sizeof(other)), 0);
    assert_string_not_equal(path, other);
    x->conf.rtol *= 2;  // another lab.conf tolerance
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &x->spec, x->list, other, sizeof(other)), 0);
    assert_string_not_equal(path, other);
    x->conf.rtol /= 2;
    // One byte of the student's program changed: a rebuilt program misses.
    FILE *f = fopen(x->programs[1], "r+b");
    assert_non_null(f);
    long at = (long)(rng_next(&x->r) % 1000);
    fseek(f, at, SEEK_SET);
    int byte = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(byte ^ 0x5a, f);
    fclose(f);
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &x->spec, x->list, other, sizeof(other)), 0);
    assert_string_not_equal(path, other);
    // A program that cannot be read: nothing is remembered.
    unlink(x->programs[0]);
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &x->spec, x->list, other, sizeof(other)), -1);
}

static void test_failure_never_remembered(void **state)
{
    cache_fixture *x = *state;
    char path[PATH_MAX + 64];
    case_result c, got;
    kv_list report, back;
    random_outcome(&x->r, &c, &report);
    c.status = CASE_FAIL;
    snprintf(c.kind, sizeof(c.kind), "wrong");
    assert_int_equal(tool_cache_path(x->dir, "racecheck", &x->conf, &x->spec, x->list, path, sizeof(path)), 0);
    assert_int_equal(tool_cache_save(path, &c, &report), 0);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(tool_cache_load(path, &got, &back), 0);
    kv_free(&report);
}

static void test_foreign_file_not_believed(void **state)
{
    cache_fixture *x = *state;
    char path[PATH_MAX + 64];
    case_result got;
    kv_list back;
    assert_int_equal(tool_cache_path(x->dir, "loads", &x->conf, &x->spec, x->list, path, sizeof(path)), 0);
    FILE *f = fopen(path, "w");  // a report-like file the cache did not write
    assert_non_null(f);
    fprintf(f, "status=ok\nlaunches=1\n");
    fclose(f);
    memset(&got, 0, sizeof(got));
    got.status = CASE_FAIL;
    assert_int_equal(tool_cache_load(path, &got, &back), 0);
    assert_int_equal(got.status, CASE_FAIL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clean_outcome_comes_back, fixture_up, fixture_down),
        cmocka_unit_test_setup_teardown(test_other_programs_case_or_tool_miss, fixture_up, fixture_down),
        cmocka_unit_test_setup_teardown(test_failure_never_remembered, fixture_up, fixture_down),
        cmocka_unit_test_setup_teardown(test_foreign_file_not_believed, fixture_up, fixture_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
