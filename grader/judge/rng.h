// grader/judge/rng.h — reproducible random numbers for cases: one master seed
// (printed, replayed with SEED=) gives every case its own seed.
#ifndef STENCIL_RNG_H
#define STENCIL_RNG_H

#include <stddef.h>
#include <stdint.h>

// RNG_WIDE before a function that draws or sums a grid's cells: built
// twice with GCC on x86-64, for any such CPU and for those with AVX-512
// (x86-64-v4: 64-bit multiplies in vectors, the grid hash's whole cost; 8
// cells an instruction, about 8x on one thread), the CPU picking one when
// the program starts. Both give the same bits: integers mod 2^64, and float
// steps rounded alike in vectors (an exact product, a division; a fused
// multiply-add only where the product is exact).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define RNG_WIDE __attribute__((target_clones("arch=x86-64-v4", "default"), optimize("vect-cost-model=dynamic")))
#else
#define RNG_WIDE
#endif

typedef struct rng {
    uint64_t s[4];  // xoshiro256** state
} rng;

// Mixes x into a well-spread 64-bit value (splitmix64's finaliser).
uint64_t rng_mix(uint64_t x);

// The seed of case number index under the master seed.
uint64_t rng_case_seed(uint64_t master, int index);

// Starts a generator from seed.
void rng_init(rng *r, uint64_t seed);

// Next 64 random bits.
uint64_t rng_next(rng *r);

// A float uniform in [-1, 1), a multiple of 2^-23 (exact in float).
float rng_unit(rng *r);

// Fills grid[0..n) with the grid grid_fill.h draws from a seed taken from
// r's next value (each cell from the seed and its index: the same grid
// whatever the number of threads filling it, and on the executor's GPU);
// returns that seed.
uint64_t rng_fill(rng *r, float *grid, size_t n);

// The seed rng_fill would draw its grid from, taken from r the same way (r
// moves on as rng_fill moves it), no cell drawn: a grid drawn on the GPU is
// drawn here only where the judge reads it (rng_fill_range).
uint64_t rng_fill_seed(rng *r);

// Cells from .. to-1 of the grid drawn from seed, into grid[from .. to).
void rng_fill_range(uint64_t seed, float *grid, size_t from, size_t to);

// rng_grid_sum of the n-cell grid drawn from seed, with no grid in memory.
uint64_t rng_fill_sum(uint64_t seed, size_t n, uint64_t key);

// The order-free sum of grid[0..n) under key (grid_fill_term), which the
// executor reports of a grid it drew: equal sums, the same grid (a whole
// solve's: u0 under key 0 plus f under key 1).
uint64_t rng_grid_sum(const float *grid, size_t n, uint64_t key);

// Draws k coefficients with |c| in [0.1, 1], random signs, no two closer than
// 0.05 in value or in magnitude (0.025 when k > 7: the thirteen of a star of
// radius 2 need the room): a kernel that swaps two neighbours or drops a term
// cannot match by symmetry.
void rng_coefficients(rng *r, float *c, int k);

// Draws a filter of k weights (k up to 81: a 9x9 filter) with |w| in [0.1, 1],
// random signs and magnitudes all different (k levels 0.9/k apart, each
// jittered within its level, shuffled): no two weights are equal, so a
// transposed or flipped filter cannot match by symmetry.
void rng_filter(rng *r, float *w, int k);

// A master seed from the clock and the process id, for when SEED= is not given.
uint64_t rng_fresh_seed(void);

#endif // STENCIL_RNG_H
