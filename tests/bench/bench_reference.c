// tests/bench/bench_reference.c — how fast is the CPU reference sweep the
// judge trusts? Times reference_sweep (the seven-point star) on an N×N×N grid (median of 3) and
// prints seconds and points per second. A benchmark: it prints figures and
// asserts nothing about time.
//
//   bench_reference [N]      (default 512)
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rng.h"
#include "stencil_ref.h"

// Seconds on a monotonic clock.
static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 512;
    uint64_t seed = rng_fresh_seed() % 1000000000ull;
    rng r;
    float *in = malloc(n * n * n * sizeof(float));
    double *out = malloc(n * n * n * sizeof(double));
    double coef[7], t[3];
    float c[7];
    if (!in || !out || n < 3) {
        fprintf(stderr, "bench_reference: need N >= 3 and %zu MB of memory\n", n * n * n * 12 >> 20);
        return 2;
    }
    rng_init(&r, seed);
    rng_fill(&r, in, n * n * n);
    rng_coefficients(&r, c, 7);
    for (int q = 0; q < 7; q++)
        coef[q] = c[q];
    for (int rep = 0; rep < 3; rep++) {
        double start = bench_now();
        reference_sweep(in, out, n, n, n, coef, 1);
        t[rep] = bench_now() - start;
    }
    for (int a = 0; a < 3; a++)  // sort the three times
        for (int b = a + 1; b < 3; b++)
            if (t[b] < t[a]) {
                double x = t[a];
                t[a] = t[b];
                t[b] = x;
            }
    printf("reference_sweep N=%zu (seed %llu): median %.3f s of 3 (min %.3f, max %.3f), %.0f Mpoints/s, checksum %.6g\n",
           n, (unsigned long long)seed, t[1], t[0], t[2], (double)(n * n * n) / t[1] / 1e6, out[(n / 2 * n + n / 2) * n + n / 2]);
    free(in);
    free(out);
    return 0;
}
