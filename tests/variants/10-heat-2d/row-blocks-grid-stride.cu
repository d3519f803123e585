// VARIANT: grid-stride loops and no 2D grid: a 1D grid of a quarter as many
// blocks as interior rows, 64 threads each; block b takes interior rows
// j = 1 + b, 1 + b + gridDim.x, ... (about four) and its threads stride
// along each row's interior columns, 64 apart; three row pointers (north,
// here, south) computed once a row, loads through __ldg on const
// __restrict__ pointers, the step written as (1 - 4r) u + r (w + e + s + n).
// Correct: the two loops cover every interior cell once and nothing else
// (boundary, padding); one launch a step, the buffers swapped after each.
// Expected: every case passes and the technique line too.
#include "heat2d.h"

#define THREADS 64                         // threads a block: the column stride
#define ROWS_PER_BLOCK 4                   // interior rows a block takes, about

__global__ void heat_rows(const float *__restrict__ u, float *__restrict__ v, unsigned int nx, unsigned int ny,
                          unsigned int pitch, float r)
{
    const float centre = 1.0f - 4.0f * r;
    for (unsigned int j = 1 + blockIdx.x; j + 1 < ny; j += gridDim.x) {
        const float *north = u + HEAT_INDEX(j - 1, 0, pitch), *here = u + HEAT_INDEX(j, 0, pitch);
        const float *south = u + HEAT_INDEX(j + 1, 0, pitch);
        float *out = v + HEAT_INDEX(j, 0, pitch);
        for (unsigned int k = 1 + threadIdx.x; k + 1 < nx; k += blockDim.x)
            out[k] = centre * __ldg(&here[k]) +
                     r * (__ldg(&here[k - 1]) + __ldg(&here[k + 1]) + __ldg(&north[k]) + __ldg(&south[k]));
    }
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    unsigned int blocks = (p->ny - 2 + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;  // ny >= 3: at least one
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_rows<<<blocks, THREADS>>>(cur, next, p->nx, p->ny, p->pitch, p->r);
        float *swap = cur;
        cur = next;
        next = swap;
    }
    return cur == d_a ? 0 : 1;
}
