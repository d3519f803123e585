// grader/protocol/grid_fill.h — a case's random grid and the order-free sums
// of grids, computed the same way by the judge (C, on the CPU), the executor
// (CUDA, on the GPU: a grid drawn there from its seed needs no file) and the
// fake executor of the kit's tests.
//
// Each cell's value comes from the grid's seed and the cell's index alone
// (a counter-based generator: any thread order gives the same grid), a
// multiple of 2^-23 in [-1, 1), exact in float.
#ifndef STENCIL_GRID_FILL_H
#define STENCIL_GRID_FILL_H

#include <stdint.h>

#ifdef __CUDACC__
#define GRID_FILL_FN static inline __host__ __device__
#else
#define GRID_FILL_FN static inline
#endif

// Mixes x into a well-spread 64-bit value (splitmix64's finaliser).
GRID_FILL_FN uint64_t grid_fill_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// The value of cell index of the grid drawn from seed, in [-1, 1).
GRID_FILL_FN float grid_fill_value(uint64_t seed, uint64_t index)
{
    uint64_t x = grid_fill_mix(seed ^ grid_fill_mix(index));
    return (float)(x >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

// Cell index's term, holding bits, of a grid's sum under key; the terms are
// added (mod 2^64), so the sum does not depend on the order cells are
// visited, and a value moved to another cell changes it. The executor keys
// the input's hash with a secret; key 0 gives the plain sum both sides
// compute of a grid drawn on the GPU.
GRID_FILL_FN uint64_t grid_fill_term(uint64_t key, uint64_t index, uint32_t bits)
{
    return grid_fill_mix(key ^ grid_fill_mix(index * 0x100000001B3ull + (uint64_t)bits));
}

// A whole solve's starting grids (labs 5, 9, 10), drawn from one seed S; each
// index is the cell's unpadded one, (i * ny + j) * nx + k.
// The point a boundary cell copies along an axis of m points (jacobi.h's
// s(x); bc as LAB_BC_*: 0 Dirichlet, 1 Neumann, 2 periodic): x itself for an
// interior point or under Dirichlet.
GRID_FILL_FN unsigned grid_fill_source(unsigned x, unsigned m, int bc)
{
    if (bc == 0 || (x > 0 && x < m - 1))
        return x;
    if (x == 0)
        return bc == 2 ? m - 2 : 1;
    return bc == 2 ? 1 : m - 2;
}

// u0 of a Jacobi cell: the value of its source cell src (itself for an
// interior or Dirichlet cell; for a Neumann or periodic boundary cell, the
// cell the boundary step copies, so u0 already obeys the boundary).
GRID_FILL_FN float grid_fill_solve_u0(uint64_t seed, uint64_t src)
{
    return grid_fill_value(seed, src);
}

// u0 on edge e (protocol_heat_edge) of a heat grid: one temperature an edge;
// an interior heat cell draws grid_fill_solve_u0 of its own index.
GRID_FILL_FN float grid_fill_heat_edge(uint64_t seed, int e)
{
    return grid_fill_value(seed + 2, (uint64_t)e);
}

// f of a Jacobi cell: g / h^2 in float, g uniform in [-1, 1) (0 for the heat update).
GRID_FILL_FN float grid_fill_solve_f(uint64_t seed, uint64_t index, float h)
{
    float h2 = h * h;
    return grid_fill_value(seed + 1, index) / h2;
}

#endif // STENCIL_GRID_FILL_H
