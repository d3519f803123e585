// VARIANT: two time steps a launch (the handout's "going further"): a 32x8
// block, one thread per cell of the 32x8 output tile, loads the tile with a
// halo two cells wide (36x12) into shared memory with a strided loop over
// its cells, computes the first step on the 34x10 cells that have their four
// neighbours in the tile, then the second on the output tile, the two levels
// ping-ponging between two shared tiles; an odd step count ends with a
// launch of one step. Cells outside the grid load as 0 and boundary cells
// keep their value at every level. Correct: an interior cell's first level
// reads cells of the grid only, and its second level reads first-level
// values of cells of the grid, interior ones computed and boundary ones
// kept; only interior cells are stored, so neither the padding nor the
// boundary is written. Fewer launches than steps: the technique line allows
// it.
// Expected: every case passes and the technique line too.
#include "heat2d.h"

#ifndef TILE_X
#define TILE_X 32
#endif
#ifndef TILE_Y
#define TILE_Y 8
#endif
#define STEPS 2                            // steps a launch at most
#define SX (TILE_X + 2 * STEPS)            // the shared tile, halo included: 36
#define SY (TILE_Y + 2 * STEPS)            // 12

// k (1 or 2) time steps from u into v over the block's tile.
__global__ void heat_steps(const float *u, float *v, int nx, int ny, unsigned int pitch, float r, int k)
{
    __shared__ float s[2][SY][SX];
    const int t = (int)(threadIdx.y * TILE_X + threadIdx.x);
    const int x0 = (int)blockIdx.x * TILE_X - STEPS, y0 = (int)blockIdx.y * TILE_Y - STEPS;  // shared (0, 0)
    for (int c = t; c < SX * SY; c += TILE_X * TILE_Y) {
        int a = c / SX, b = c % SX, x = x0 + b, y = y0 + a;
        s[0][a][b] = x >= 0 && x < nx && y >= 0 && y < ny ? u[HEAT_INDEX(y, x, pitch)] : 0.0f;
    }
    __syncthreads();
    for (int l = 1; l <= k; l++) {
        const int src = (l - 1) & 1, dst = l & 1;
        for (int c = t; c < SX * SY; c += TILE_X * TILE_Y) {
            int a = c / SX, b = c % SX, x = x0 + b, y = y0 + a;
            if (a < l || a >= SY - l || b < l || b >= SX - l)
                continue;  // not every neighbour in the tile at this level: never read
            float here = s[src][a][b];
            bool interior = x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2;
            s[dst][a][b] = interior ? here + r * (s[src][a][b - 1] + s[src][a][b + 1] + s[src][a - 1][b] +
                                                  s[src][a + 1][b] - 4.0f * here)
                                    : here;
        }
        __syncthreads();  // level l complete before level l + 1 reads it
    }
    const int a = (int)threadIdx.y + STEPS, b = (int)threadIdx.x + STEPS, x = x0 + b, y = y0 + a;
    if (x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2)
        v[HEAT_INDEX(y, x, pitch)] = s[k & 1][a][b];
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    dim3 block(TILE_X, TILE_Y), grid((p->nx + TILE_X - 1) / TILE_X, (p->ny + TILE_Y - 1) / TILE_Y);
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps;) {
        int k = p->steps - t >= STEPS ? STEPS : p->steps - t;
        heat_steps<<<grid, block>>>(cur, next, (int)p->nx, (int)p->ny, p->pitch, p->r, k);
        float *swap = cur;
        cur = next, next = swap;
        t += k;
    }
    return cur == d_a ? 0 : 1;
}
