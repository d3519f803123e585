// tests/bench/bench_reference.c — how fast is the CPU reference sweep the
// judge trusts? Times reference_sweep (the seven-point star) on an N×N×N grid (median of 3) and
// prints seconds and points per second; then the judge's grid hash
// (rng_fill_sum: the input sum it checks of every grid drawn on a GPU) over
// the same cells against the plain loop of this file, one thread each, as a
// ratio (RNG_WIDE's vector code where the CPU has AVX-512). A benchmark: it
// prints figures and asserts nothing about time.
//
//   bench_reference [N]      (default 512)
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <string.h>

#include "grid_fill.h"
#include "rng.h"
#include "stencil_ref.h"

// Seconds on a monotonic clock.
static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Sorts three times; returns the median.
static double bench_median3(double *t)
{
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (t[b] < t[a]) {
                double x = t[a];
                t[a] = t[b];
                t[b] = x;
            }
    return t[1];
}

// rng_fill_sum's work written plainly (this file's own build: no vectors of 64-bit multiplies).
static uint64_t bench_plain_fill_sum(uint64_t seed, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        float v = grid_fill_value(seed, i);
        uint32_t bits;
        memcpy(&bits, &v, sizeof(bits));
        sum += grid_fill_term(0, i, bits);
    }
    return sum;
}

// The grid hash on one thread, the judge's and the plain loop's, median of 3 each.
static void bench_grid_hash(size_t cells, uint64_t seed)
{
    double wide[3], plain[3];
    uint64_t got = 0, want = 0;
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    for (int rep = 0; rep < 3; rep++) {
        double start = bench_now();
        got = rng_fill_sum(seed, cells, 0);
        wide[rep] = bench_now() - start;
        start = bench_now();
        want = bench_plain_fill_sum(seed, cells);
        plain[rep] = bench_now() - start;
    }
    double w = bench_median3(wide), p = bench_median3(plain);
    printf("grid hash (rng_fill_sum) of %zu cells, one thread: %.2f ns a cell, the plain loop %.2f: %.1fx (AVX-512: %s)%s\n",
           cells, w * 1e9 / (double)cells, p * 1e9 / (double)cells, p / w,
           __builtin_cpu_supports("avx512dq") ? "yes" : "no", got == want ? "" : "  DIFFERENT SUMS");
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
    bench_median3(t);
    printf("reference_sweep N=%zu (seed %llu): median %.3f s of 3 (min %.3f, max %.3f), %.0f Mpoints/s, checksum %.6g\n",
           n, (unsigned long long)seed, t[1], t[0], t[2], (double)(n * n * n) / t[1] / 1e6, out[(n / 2 * n + n / 2) * n + n / 2]);
    bench_grid_hash(n * n * n, seed);
    free(in);
    free(out);
    return 0;
}
