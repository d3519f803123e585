// grader/judge/rng.c — see rng.h.
#include "rng.h"

#include "grid_fill.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t rng_mix(uint64_t x)
{
    return grid_fill_mix(x);
}

uint64_t rng_case_seed(uint64_t master, int index)
{
    return rng_mix(master ^ rng_mix((uint64_t)index + 1));
}

void rng_init(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = seed = rng_mix(seed);
}

// Rotates x left by k bits.
static uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

float rng_unit(rng *r)
{
    return (float)(int32_t)(rng_next(r) >> 40) / 8388608.0f - 1.0f;
}

// Grids smaller than this are filled or summed on one thread.
#define RNG_PARALLEL_CELLS ((size_t)1 << 22)

uint64_t rng_fill_seed(rng *r)
{
    return rng_next(r);
}

RNG_WIDE void rng_fill_range(uint64_t seed, float *grid, size_t from, size_t to)
{
    long lo = (long)from, hi = (long)to;
#pragma omp parallel for schedule(static) if (to - from > RNG_PARALLEL_CELLS)
    for (long i = lo; i < hi; i++)
        grid[i] = grid_fill_value(seed, (uint64_t)i);
}

uint64_t rng_fill(rng *r, float *grid, size_t n)
{
    uint64_t seed = rng_fill_seed(r);
    rng_fill_range(seed, grid, 0, n);
    return seed;
}

// The sum term of cell i holding value.
static uint64_t rng_sum_term(uint64_t key, long i, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return grid_fill_term(key, (uint64_t)i, bits);
}

RNG_WIDE uint64_t rng_fill_sum(uint64_t seed, size_t n, uint64_t key)
{
    uint64_t sum = 0;
    long cells = (long)n;
#pragma omp parallel for schedule(static) reduction(+ : sum) if (n > RNG_PARALLEL_CELLS)
    for (long i = 0; i < cells; i++)
        sum += rng_sum_term(key, i, grid_fill_value(seed, (uint64_t)i));
    return sum;
}

RNG_WIDE uint64_t rng_grid_sum(const float *grid, size_t n, uint64_t key)
{
    uint64_t sum = 0;
    long cells = (long)n;
#pragma omp parallel for schedule(static) reduction(+ : sum) if (n > RNG_PARALLEL_CELLS)
    for (long i = 0; i < cells; i++)
        sum += rng_sum_term(key, i, grid[i]);
    return sum;
}

void rng_coefficients(rng *r, float *c, int k)
{
    // Magnitudes at least sep apart in [0.1, 1]: 0.05 for the seven-point
    // star; a wider star's 13 would not fit (each value bars 2 * sep of the
    // 0.9 range: 12 * 0.1 > 0.9), so 0.025 there (12 * 0.05 bars two thirds at
    // most), still 10^4 times the tolerance a swapped pair would have to hide in.
    const float sep = k <= 7 ? 0.05f : 0.025f;
    for (int i = 0; i < k; i++) {
        int clash;
        do {
            float mag = 0.1f + 0.9f * (float)(rng_next(r) >> 40) / 16777216.0f;
            c[i] = (rng_next(r) & 1) ? mag : -mag;
            clash = 0;
            for (int j = 0; j < i; j++)
                if (fabsf(c[i] - c[j]) < sep || fabsf(fabsf(c[i]) - fabsf(c[j])) < sep)
                    clash = 1;
        } while (clash);
    }
}

void rng_filter(rng *r, float *w, int k)
{
    double level = 0.9 / (k > 0 ? k : 1);
    for (int i = 0; i < k; i++) {  // level i, jittered within its middle half
        double u = 0.25 + 0.5 * (double)(rng_next(r) >> 40) / 16777216.0;
        float mag = (float)(0.1 + level * (i + u));
        w[i] = (rng_next(r) & 1) ? mag : -mag;
    }
    for (int i = k - 1; i > 0; i--) {  // Fisher-Yates: the levels in random places
        int j = (int)(rng_next(r) % (uint64_t)(i + 1));
        float t = w[i];
        w[i] = w[j];
        w[j] = t;
    }
}

uint64_t rng_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return rng_mix((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) ^ (uint64_t)getpid();
}
