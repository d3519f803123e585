// tests/unit/test_sanitizer_log.c — compute-sanitizer's logs as the report
// quotes them: racecheck's first hazard (the accesses, threads and lines, in
// the format compute-sanitizer 2025 prints on an H100) and memcheck's first
// error; a clean log says nothing.
#include "test_util.h"

#include "sanitizer_log.h"

// A racecheck hazard on a random block, threads and lines, as compute-sanitizer writes it.
static void test_racecheck(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed());
    char log[4096], path[64], where[800], want[400];
    for (int round = 0; round < 20; round++) {
        int bx = (int)(rng_next(&r) % 9), tx = (int)(rng_next(&r) % 32), wline = 10 + (int)(rng_next(&r) % 90), rline = wline + 1 + (int)(rng_next(&r) % 40);
        const char *kind = round % 2 ? "RAW" : "WAR";
        snprintf(log, sizeof(log),
                 "========= COMPUTE-SANITIZER\n"
                 "========= %s: %sPotential %s hazard detected at __shared__ 0x920 in block (%d,1,0) :\n"
                 "=========     Write Thread (%d,1,5) at stencil_kernel(float *, float *, unsigned int)+0x350 in my kernel.cu:%d\n"
                 "=========     Read Thread (1,%d,5) at stencil_kernel(float *, float *, unsigned int)+0x370 in my kernel.cu:%d\n"
                 "=========     Current Value : 16\n"
                 "=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1\n"
                 "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n",
                 round % 2 ? "Warning" : "Error", round % 2 ? "(Warp Level Programming) " : "", kind, bx, tx, wline, tx, rline);
        test_write_file(path, sizeof(path), log);
        assert_int_equal(sanitizer_racecheck_summary(path, where, sizeof(where)), 1);
        assert_int_equal(sanitizer_racecheck_whole(path), 1);
        snprintf(want, sizeof(want), "%s hazard on shared memory in block (%d,1,0): Write by thread (%d,1,5) at my kernel.cu:%d, Read by thread (1,%d,5) at my kernel.cu:%d",
                 kind, bx, tx, wline, tx, rline);
        if (!strstr(where, want))
            fail_msg("got '%s', want '%s'", where, want);
        unlink(path);
    }
    test_write_file(path, sizeof(path), "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
    assert_int_equal(sanitizer_racecheck_summary(path, where, sizeof(where)), 0);
    assert_int_equal(sanitizer_racecheck_whole(path), 0);
    unlink(path);
}

// A hazard whole in a log still being written: its line and both accesses',
// the last one ended; every shorter cut of the same log (at a random byte
// within each line, and at each line's end) is not whole yet.
static void test_racecheck_whole(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed());
    char log[2048], cut[2048], path[64];
    int tx = (int)(rng_next(&r) % 32), wline = 10 + (int)(rng_next(&r) % 90);
    int n = snprintf(log, sizeof(log),
                     "========= COMPUTE-SANITIZER\n"
                     "========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x504 in block (0,0,1) :\n"
                     "=========     Write Thread (%d,2,0) at stencil_kernel(float *, float *, unsigned int)+0x7b0 in k.cu:%d\n"
                     "=========     Read Thread (2,%d,0) at stencil_kernel(float *, float *, unsigned int)+0x7d0 in k.cu:%d\n",
                     tx, wline, tx, wline + 6);
    const char *third = strstr(log, "Read Thread");
    int whole_from = n;  // (the last access's line ended: the whole log)
    for (const char *line = log; *line; line = strchr(line, '\n') + 1) {
        int len = (int)(strchr(line, '\n') - line);
        int at[2] = {(int)(line - log) + 1 + (int)(rng_next(&r) % (unsigned)len), (int)(line - log) + len};
        for (int k = 0; k < 2; k++) {
            snprintf(cut, sizeof(cut), "%.*s", at[k], log);
            test_write_file(path, sizeof(path), cut);
            if (sanitizer_racecheck_whole(path) != (at[k] >= whole_from))
                fail_msg("cut at byte %d of %d (the last access from byte %d): taken as whole", at[k], n, (int)(third - log));
            unlink(path);
        }
    }
    test_write_file(path, sizeof(path), log);
    assert_int_equal(sanitizer_racecheck_whole(path), 1);
    unlink(path);
    assert_int_equal(sanitizer_racecheck_whole("/nonexistent/log"), 0);
}

static void test_memcheck(void **state)
{
    (void)state;
    char path[64], detail[600] = "unchanged";
    test_write_file(path, sizeof(path),
                    "========= Invalid __global__ write of size 4 bytes\n"
                    "=========     at stencil_kernel(float *, float *, unsigned int)+0x1d0 in k.cu:21\n"
                    "=========     by thread (7,0,0) in block (3,0,0)\n");
    sanitizer_memcheck_summary(path, detail, sizeof(detail));
    assert_non_null(strstr(detail, "Invalid __global__ write of size 4 bytes"));
    assert_non_null(strstr(detail, "k.cu:21"));
    assert_non_null(strstr(detail, "by thread (7,0,0)"));
    unlink(path);
    snprintf(detail, sizeof(detail), "unchanged");
    test_write_file(path, sizeof(path), "========= ERROR SUMMARY: 0 errors\n");
    sanitizer_memcheck_summary(path, detail, sizeof(detail));
    assert_string_equal(detail, "unchanged");
    unlink(path);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_racecheck),
        cmocka_unit_test(test_racecheck_whole),
        cmocka_unit_test(test_memcheck),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
