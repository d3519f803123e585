// tests/bench/bench_judge_sample.c — the judge's own CPU work on a large
// case the GPU checked (lab 6's 4096x4096x32 by default): holding the
// executor's input sum to its own, then checking the sample of planes it
// chose. Times the input two ways in one run, the whole grid drawn then
// summed (as the judge did) against the sum from the seed with only the
// sampled planes and their neighbours drawn (rng_fill_sum, rng_fill_range:
// as it does now, into memory of huge pages: protocol_grid_alloc), then
// verdict_sweep_sample over 7 planes; last the same planes drawn into memory
// of small pages, for the ratio. A benchmark: it
// prints figures and asserts nothing about time; it exits 1 only if the two
// sums differ or the sample of a right grid has a wrong cell.
//
//   bench_judge_sample [NX NY NZ]      (default 4096 4096 32)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grid_memory.h"
#include "protocol.h"
#include "rng.h"
#include "stencil_ref.h"
#include "verdict.h"

#define BENCH_UNITS 7  // the judge's sample: first, last, at the radius from each, three at random

// Seconds on a monotonic clock.
static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The sampled planes of an nz-plane grid, as case_choose_sample picks them (radius 1).
static void bench_units(rng *r, size_t nz, unsigned *which)
{
    which[0] = 0, which[1] = (unsigned)nz - 1, which[2] = 1, which[3] = (unsigned)nz - 2;
    for (int q = 4; q < BENCH_UNITS; q++)
        which[q] = (unsigned)(rng_next(r) % nz);
}

// The right output of the sampled planes (a kept cell: the input's value).
static void bench_right_sample(const sweep_case *c, const unsigned *which, float *units)
{
    size_t plane = c->nx * c->ny;
    double coef[7];
    for (int q = 0; q < 7; q++)
        coef[q] = c->coef[q];
    for (int q = 0; q < BENCH_UNITS; q++) {
        long rows = (long)c->ny;
#pragma omp parallel for schedule(static)
        for (long j = 0; j < rows; j++)
            for (size_t k = 0; k < c->nx; k++) {
                size_t i = which[q], at = i * plane + (size_t)j * c->nx + k;
                units[(size_t)q * plane + (size_t)j * c->nx + k] =
                    protocol_cell_written(0, 1, i, (size_t)j, k, c->nx, c->ny, c->nz) ? (float)reference_point(c->in, c->nx, c->ny, i, (size_t)j, k, coef, 1, NULL)
                                                                                     : c->in[at];
            }
    }
}

// Draws the sampled planes and their neighbours into grid, as the judge does.
static void bench_draw_units(uint64_t fill, float *grid, const unsigned *which, size_t plane, size_t cells)
{
    for (int q = 0; q < BENCH_UNITS; q++) {
        size_t start = (size_t)which[q] * plane, end = start + 2 * plane;
        rng_fill_range(fill, grid, start > plane ? start - plane : 0, end < cells ? end : cells);
    }
}

int main(int argc, char **argv)
{
    size_t nx = argc > 3 ? strtoul(argv[1], NULL, 10) : 4096, ny = argc > 3 ? strtoul(argv[2], NULL, 10) : 4096;
    size_t nz = argc > 3 ? strtoul(argv[3], NULL, 10) : 32, plane = nx * ny, cells = plane * nz;
    uint64_t seed = rng_fresh_seed() % 1000000000ull;
    unsigned which[BENCH_UNITS];
    rng r;
    float *whole = malloc(cells * sizeof(float)), *lazy = (float *)protocol_grid_alloc(cells * sizeof(float));
    float *units = malloc(BENCH_UNITS * plane * sizeof(float));
    if (!whole || !lazy || !units || nx < 3 || ny < 3 || nz < 3) {
        fprintf(stderr, "bench_judge_sample: need sizes of 3 or more and %zu MB of memory\n", (2 * cells + BENCH_UNITS * plane) * 4 >> 20);
        return 2;
    }
    rng_init(&r, seed);
    bench_units(&r, nz, which);
    rng a = r;
    double t0 = bench_now();
    uint64_t fill = rng_fill(&a, whole, cells), sum_whole = rng_grid_sum(whole, cells, 0);
    double t1 = bench_now();
    uint64_t sum_seed = rng_fill_sum(rng_fill_seed(&r), cells, 0);
    double t_huge = bench_now();
    bench_draw_units(fill, lazy, which, plane, cells);
    double t2 = bench_now();
    t_huge = t2 - t_huge;
    float *small = malloc(cells * sizeof(float));  // the same planes into fresh memory of 4 KiB pages
    double t_small = bench_now();
    if (small)
        bench_draw_units(fill, small, which, plane, cells);
    t_small = bench_now() - t_small;
    free(small);
    sweep_case c;
    memset(&c, 0, sizeof(c));
    c.in = whole, c.nx = nx, c.ny = ny, c.nz = nz, c.star_radius = 1, c.rtol = 1e-5, c.atol = 1e-6;
    rng_coefficients(&r, c.coef, 7);
    bench_right_sample(&c, which, units);
    c.in = lazy;
    long first[3];
    double want;
    float got;
    double t3 = bench_now();
    size_t bad = verdict_sweep_sample(&c, units, which, BENCH_UNITS, first, &want, &got);
    double t4 = bench_now();
    printf("the judge's input on a %zux%zux%zu case (seed %llu): drawn whole and summed %.3f s; summed from the seed, sampled planes drawn %.3f s (%.2fx)\n",
           nx, ny, nz, (unsigned long long)seed, t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1));
    printf("its sample of %d planes checked against the reference: %.3f s, %zu wrong cells\n", BENCH_UNITS, t4 - t3, bad);
    printf("the sampled planes drawn into fresh memory: %.3f s in huge pages asked for (protocol_grid_alloc), %.3f s in 4 KiB pages (malloc): %.2fx\n",
           t_huge, t_small, t_small / t_huge);
    free(whole);
    free(lazy);
    free(units);
    return sum_whole != sum_seed || bad ? 1 : 0;
}
