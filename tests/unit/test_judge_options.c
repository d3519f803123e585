// tests/unit/test_judge_options.c — the judge's command line
// (grader/judge/judge_options.c), whose table says where each option lands:
// every option given a random value comes back in its own field and no
// other (the fields named here one by one, not through the table), every
// flag sets its own field alone, numbers are read in their ranges, and an
// unknown option, a missing value, a number out of range, no lab and an
// unknown backend are refused with a message naming the problem.
#include "test_util.h"

#include "judge_options.h"

static rng draws;

// Parses the NULL-ended arguments after the program's name into a; returns
// judge_options_parse's status, its message in err.
static int parse(judge_args *a, judge_error *err, ...)
{
    static char *argv[64];
    int argc = 0;
    argv[argc++] = "judge";
    va_list ap;
    va_start(ap, err);
    for (char *arg; (arg = va_arg(ap, char *)) != NULL && argc < 63;)
        argv[argc++] = arg;
    va_end(ap);
    memset(err, 0, sizeof(*err));
    return judge_options_parse(argc, argv, a, err);
}

// The text options and their fields, written out here (not read from the judge's table).
static const char **text_field(judge_args *a, const char *name)
{
    return !strcmp(name, "--lab") ? &a->lab : !strcmp(name, "--kernel") ? &a->kernel : !strcmp(name, "--backend") ? &a->backend
         : !strcmp(name, "--case") ? &a->case_name : !strcmp(name, "--json-out") ? &a->json_out
         : !strcmp(name, "--summary-out") ? &a->summary_out : !strcmp(name, "--gradescope-out") ? &a->gradescope_out
         : !strcmp(name, "--prairielearn-out") ? &a->prairielearn_out : !strcmp(name, "--pictures") ? &a->pictures
         : !strcmp(name, "--html-out") ? &a->html_out : !strcmp(name, "--gpu-lock-dir") ? &a->gpu_lock_dir
         : !strcmp(name, "--arch") ? &a->arch : !strcmp(name, "--conf-get") ? &a->conf_get : NULL;
}
static const char *const text_options[] = {"--lab", "--kernel", "--case", "--json-out", "--summary-out", "--gradescope-out",
                                           "--prairielearn-out", "--pictures", "--html-out", "--gpu-lock-dir", "--arch", "--conf-get"};
#define NTEXT (sizeof(text_options) / sizeof(text_options[0]))

// The flags and their fields.
static int *flag_field(judge_args *a, int k)
{
    int *fields[] = {&a->json, &a->sanitize, &a->keep, &a->fail_fast, &a->solution, &a->profile};
    return fields[k];
}
static const char *const flags[] = {"--json", "--sanitize", "--keep", "--fail-fast", "--solution", "--profile"};
#define NFLAGS (sizeof(flags) / sizeof(flags[0]))

static int setup(void **state)
{
    (void)state;
    rng_init(&draws, test_seed());
    return 0;
}

// Every text option at once, each with a value of its own, in a random order:
// each lands in its own field, and the flags stay unset.
static void test_text_options_land_in_their_fields(void **state)
{
    (void)state;
    char values[NTEXT][32], *argv[2 * NTEXT + 2] = {"judge"};
    int order[NTEXT];
    for (size_t k = 0; k < NTEXT; k++)
        order[k] = (int)k;
    for (size_t k = NTEXT - 1; k > 0; k--) {  // shuffled
        size_t j = rng_next(&draws) % (k + 1);
        int t = order[k];
        order[k] = order[j], order[j] = t;
    }
    int argc = 1;
    for (size_t k = 0; k < NTEXT; k++) {
        snprintf(values[order[k]], sizeof(values[0]), "v%llu", (unsigned long long)(rng_next(&draws) % 1000000000ull));
        argv[argc++] = (char *)text_options[order[k]];
        argv[argc++] = values[order[k]];
    }
    judge_args a;
    judge_error err = {0};
    assert_int_equal(judge_options_parse(argc, argv, &a, &err), 0);
    for (size_t k = 0; k < NTEXT; k++) {
        const char *got = *text_field(&a, text_options[k]);
        if (!got || strcmp(got, values[k]))
            fail_msg("%s %s came back as %s", text_options[k], values[k], got ? got : "(unset)");
    }
    for (size_t k = 0; k < NFLAGS; k++)
        assert_int_equal(*flag_field(&a, (int)k), 0);
    assert_string_equal(a.backend, "auto");
}

// Each flag alone sets its own field and no other.
static void test_each_flag_sets_its_own_field(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFLAGS; k++) {
        judge_args a;
        judge_error err;
        assert_int_equal(parse(&a, &err, "--lab", "3", flags[k], NULL), 0);
        for (size_t q = 0; q < NFLAGS; q++)
            if (*flag_field(&a, (int)q) != (q == k))
                fail_msg("%s left %s at %d", flags[k], flags[q], *flag_field(&a, (int)q));
    }
}

// Numbers in their ranges land; out of range, or not numbers, they are refused, naming the option.
static void test_numbers_in_and_out_of_range(void **state)
{
    (void)state;
    char jobs[16], slots[16], memory[24], seed[24], timeout[24];
    int want_jobs = 1 + (int)(rng_next(&draws) % JUDGE_MAX_JOBS), want_slots = 1 + (int)(rng_next(&draws) % 64);
    unsigned long long want_memory = 16 + rng_next(&draws) % 100000, want_seed = rng_next(&draws);
    double want_timeout = 0.5 + (double)(rng_next(&draws) % 1000);
    snprintf(jobs, sizeof(jobs), "%d", want_jobs);
    snprintf(slots, sizeof(slots), "%d", want_slots);
    snprintf(memory, sizeof(memory), "%llu", want_memory);
    snprintf(seed, sizeof(seed), "%llu", want_seed);
    snprintf(timeout, sizeof(timeout), "%.1f", want_timeout);
    judge_args a;
    judge_error err;
    assert_int_equal(parse(&a, &err, "--lab", "2", "--jobs", jobs, "--gpu-lock-dir", "/tmp/x", "--gpu-slots", slots,
                           "--emu-memory", memory, "--seed", seed, "--timeout", timeout, "--kit", "/some/kit", NULL), 0);
    assert_int_equal(a.jobs, want_jobs);
    assert_int_equal(a.cpus, want_jobs);
    assert_int_equal(a.gpu_slots, want_slots);
    assert_true(a.emu_memory_mb == want_memory);
    assert_true(a.seed == want_seed && a.have_seed == 1);
    assert_true(a.timeout_s == want_timeout);
    assert_string_equal(a.kit, "/some/kit");
    const struct {
        const char *option, *value, *said;
    } refused[] = {
        {"--jobs", "0", "--jobs takes"},          {"--jobs", "17", "--jobs takes"},     {"--jobs", "4x", "--jobs takes"},
        {"--gpu-slots", "65", "--gpu-slots takes"}, {"--emu-memory", "15", "--emu-memory takes"},
        {"--seed", "-3", "SEED must be"},         {"--seed", "12a", "SEED must be"},    {"--timeout", "0", "TIMEOUT must be"},
    };
    for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
        assert_int_equal(parse(&a, &err, "--lab", "2", refused[k].option, refused[k].value, NULL), -1);
        if (!strstr(err.message, refused[k].said) || !strstr(err.message, refused[k].value))
            fail_msg("%s %s: \"%s\" does not say \"%s\"", refused[k].option, refused[k].value, err.message, refused[k].said);
    }
}

// What is refused as a whole: an unknown option (the list given), a value
// missing, no lab, an unknown backend; --help ends the parse with 1.
static void test_refused_and_help(void **state)
{
    (void)state;
    judge_args a;
    judge_error err;
    assert_int_equal(parse(&a, &err, "--lab", "1", "--bogus", NULL), -1);
    assert_non_null(strstr(err.message, "unknown option '--bogus'"));
    assert_non_null(strstr(err.message, "--prairielearn-out"));
    assert_int_equal(parse(&a, &err, "--lab", "1", "--kernel", NULL), -1);
    assert_non_null(strstr(err.message, "--kernel needs a value"));
    assert_int_equal(parse(&a, &err, "--json", NULL), -1);
    assert_non_null(strstr(err.message, "which lab?"));
    assert_int_equal(parse(&a, &err, "--lab", "1", "--backend", "fpga", NULL), -1);
    assert_non_null(strstr(err.message, "not 'fpga'"));
    assert_int_equal(parse(&a, &err, "--help", NULL), 1);
}

int main(void)
{
    test_seed();  // printed first: the line tests/run.sh shows for this program
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_text_options_land_in_their_fields, setup),
        cmocka_unit_test_setup(test_each_flag_sets_its_own_field, setup),
        cmocka_unit_test_setup(test_numbers_in_and_out_of_range, setup),
        cmocka_unit_test_setup(test_refused_and_help, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
