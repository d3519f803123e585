// tests/emu/emu_test.h — what the emulation backend's tests share: cmocka, a
// seeded random generator (the seed is printed; EMU_TEST_SEED=<n> replays a
// run), a check on CUDA calls, and running the test program again as a child
// process to watch a fatal fault from the outside.
//
// Each test program is a CUDA C file built by grader/emu/emu.mk (with ASan
// and UBSan) and run by tests/emu/run.sh.
#ifndef STENCIL_EMU_TEST_H
#define STENCIL_EMU_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" {
#include <cmocka.h>
}

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Random inputs
// ---------------------------------------------------------------------------

static uint64_t test_random_state;  // xorshift state, never 0

// Seeds the generator from EMU_TEST_SEED or the clock, and prints the seed.
static void test_seed(const char *suite)
{
    const char *text = getenv("EMU_TEST_SEED");
    uint64_t seed = text ? strtoull(text, NULL, 0) : (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    printf("# %s: seed %llu (EMU_TEST_SEED=%llu replays it)\n", suite, (unsigned long long)seed,
           (unsigned long long)seed);
    test_random_state = seed ? seed : 1;
}

// The next 64 random bits.
static uint64_t test_random_bits(void)
{
    uint64_t x = test_random_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    test_random_state = x;
    return x;
}

// A random float in [lo, hi).
static float test_random_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)((test_random_bits() >> 40) * (1.0 / 16777216.0));
}

// A random int in [lo, hi].
static int test_random_int(int lo, int hi)
{
    return lo + (int)(test_random_bits() % (uint64_t)(hi - lo + 1));
}

// Fills h[0..n) with random floats in [-1, 1), none of them zero.
static void test_fill_floats(float *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h[i] = test_random_float(-1.0f, 1.0f);
        if (h[i] == 0.0f)
            h[i] = 0.5f;
    }
}

// ---------------------------------------------------------------------------
// CUDA calls
// ---------------------------------------------------------------------------

// Fails the running test when a CUDA call did not succeed, naming it.
static void check_cuda(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fail_msg("%s: %s (%s)", what, cudaGetErrorString(err), cudaGetErrorName(err));
}

// Fails the running test unless text contains every one of the NULL-ended needles.
static void check_contains(const char *text, ...)
{
    va_list ap;
    va_start(ap, text);
    for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *))
        if (!strstr(text, needle)) {
            va_end(ap);
            fail_msg("expected \"%s\" in: %s", needle, text);
        }
    va_end(ap);
}

// "NAME:<line>" for the line of source file path (a test's __FILE__) that holds
// marker, NAME its base name: where the backend's messages name a site.
// A few results stay valid at once (ring of 8).
static const char *test_source_site(const char *path, const char *marker)
{
    static char sites[8][64];
    static int next;
    char line[512];
    int number = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    while (fgets(line, sizeof(line), f)) {
        number++;
        if (strstr(line, marker) && !strstr(line, "source_site"))
            break;
    }
    fclose(f);
    const char *base = strrchr(path, '/');
    char *site = sites[next++ % 8];
    snprintf(site, 64, "%s:%d", base ? base + 1 : path, number);
    return site;
}
#define source_site(marker) test_source_site(__FILE__, marker)

// Synchronises after a launch expected to fail while running: checks the
// launch itself succeeded, the error arrives at synchronisation and stays.
static const char *expect_execution_error(cudaError_t code)
{
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    cudaError_t err = cudaDeviceSynchronize();
    assert_int_equal(err, code);
    assert_int_equal(cudaGetLastError(), code);   // sticky
    assert_int_equal(cudaDeviceSynchronize(), code);
    return cudaGetErrorString(err);
}

// Group setup/teardown: a fresh device (no allocation, no sticky error) per test.
static int test_reset_device(void **state)
{
    (void)state;
    return cudaDeviceReset() == cudaSuccess ? 0 : -1;
}

// ---------------------------------------------------------------------------
// Child processes (fatal faults are watched from outside)
// ---------------------------------------------------------------------------

typedef struct child_result {
    int exited;            // 1 when it exited (rather than died of a signal)
    int exit_code;         // its exit status when it exited
    int signal;            // the signal that ended it, else 0
    char output[16384];    // the start of its stdout and stderr
    char report[4096];     // the fault report file it was given
} child_result;

// Reads at most len - 1 bytes of path into out (empty when unreadable).
static void test_read_file(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, len - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
}

// Runs this program again as `--child scenario`, with a fault report file;
// returns how it ended, what it printed and what it reported.
static child_result test_run_child(const char *scenario)
{
    static child_result r;
    char dir[] = "/tmp/emu-test-XXXXXX", out_path[64], report_path[64];
    memset(&r, 0, sizeof(r));
    if (!mkdtemp(dir))
        fail_msg("cannot make a temporary directory");
    snprintf(out_path, sizeof(out_path), "%s/output.txt", dir);
    snprintf(report_path, sizeof(report_path), "%s/report.txt", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        setenv("EMU_TEST_CHILD_REPORT", report_path, 1);
        execl("/proc/self/exe", "emu-test-child", "--child", scenario, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.exited = WIFEXITED(status);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    test_read_file(out_path, r.output, sizeof(r.output));
    test_read_file(report_path, r.report, sizeof(r.report));
    unlink(out_path);
    unlink(report_path);
    rmdir(dir);
    return r;
}

// In a child: names the report file the parent reads.
static void test_child_setup(void)
{
    emu_set_fault_report(getenv("EMU_TEST_CHILD_REPORT"));
}

#endif // STENCIL_EMU_TEST_H
