// tests/unit/test_util.h — what the unit tests share: cmocka, a printed seed,
// and temporary files.
#ifndef STENCIL_TEST_UTIL_H
#define STENCIL_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rng.h"

// The seed of this test program: STENCIL_TEST_SEED if set, else fresh. Printed
// once, so a failure can be replayed with STENCIL_TEST_SEED=<seed>.
__attribute__((unused)) static uint64_t test_seed(void)
{
    static uint64_t seed;
    static int have;
    if (!have) {
        const char *env = getenv("STENCIL_TEST_SEED");
        seed = env ? strtoull(env, NULL, 10) : rng_fresh_seed() % 1000000000ull;
        have = 1;
        printf("# seed: %llu (replay with STENCIL_TEST_SEED=%llu)\n", (unsigned long long)seed,
               (unsigned long long)seed);
    }
    return seed;
}

// Writes text to a new temporary file; returns its path (static buffer per call site is the caller's).
__attribute__((unused)) static void test_write_file(char *path, size_t len, const char *text)
{
    snprintf(path, len, "/tmp/stencil-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}

#endif // STENCIL_TEST_UTIL_H
