// MUTANT: TILE_X = 256 (the sweep's widest shape) and ceil((nx-2)/TILE_X) blocks in x ("the interior has nx-2 columns") while the tiles start at column 0, not 1: when nx - 2 is a multiple of 256 (nx = 258, 514, ...) the last interior column, nx-2, lies in a block that is never launched. No emulated width reaches 258 and 8192 - 2 is no multiple of 256
// expect-hint: row-tail
// Lab 10 solution — the 2D heat equation, time stepped. Instructors only.
//
// One kernel and a host loop:
//   heat_step   one time step from u into v. A block owns a TILE_X × TILE_Y
//               output tile; its threads stand TILE_X/4 wide and TILE_Y tall,
//               each computing the four points of one aligned float4 of a row.
//               The block loads its tile and a halo into shared memory with
//               aligned float4 loads only: the rows y0-1 .. y0+TILE_Y and, in
//               each, the float4s from the one left of the tile to the one
//               right of it (a float4 of halo for the one cell each side
//               needs). Rows are padded to a multiple of 32 floats, so every
//               float4 that starts inside a row lies inside the stored row;
//               its cells past nx are padding, loaded but never used. A
//               thread then stores its four results as one float4 when all
//               four lie in the row, and the row's tail (nx mod 4 cells) one
//               float at a time: no store reaches the padding. The boundary
//               columns inside a float4 are stored with the value they hold
//               (both buffers hold the boundary); boundary rows are never stored.
//   heat_solve  ping-pongs between the two buffers, one launch a step.
// TILE_X and TILE_Y can be set from outside (-DTILE_X=128 -DTILE_Y=4):
// tests/bench/heat_tile_sweep.sh times the shapes on a GPU.
#include "heat2d.h"

#ifndef TILE_X
#define TILE_X 256                     // the widest shape of the sweep
#endif
#ifndef TILE_Y
#define TILE_Y 4                       // output rows a block owns (64 x 4: the fastest shape measured, handout section 7)
#endif
#define GROUPS_X (TILE_X / 4)          // float4s a tile row holds: a thread each
#define HALO_GROUPS (GROUPS_X + 2)     // and one more each side, for the halo
#define SHARED_X (4 * HALO_GROUPS)     // floats a shared row holds

// ---------------------------------------------------------------------------
// The step
// ---------------------------------------------------------------------------

// Loads the block's tile and halo into s: shared column c holds grid column
// x0 - 4 + c, shared row q grid row y0 - 1 + q. float4s outside the grid are
// left unloaded; no point inside the grid reads them.
__device__ void load_tile(float (*s)[SHARED_X], const float *u, int x0, int y0, unsigned int nx, unsigned int ny,
                          unsigned int pitch)
{
    int tid = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
    for (int idx = tid; idx < HALO_GROUPS * (TILE_Y + 2); idx += threads) {
        int g = idx % HALO_GROUPS, q = idx / HALO_GROUPS;
        int x = x0 - 4 + 4 * g, y = y0 - 1 + q;
        if (x < 0 || x >= (int)nx || y < 0 || y >= (int)ny)
            continue;
        float4 v = *reinterpret_cast<const float4 *>(&u[HEAT_INDEX(y, x, pitch)]);
        *reinterpret_cast<float4 *>(&s[q][4 * g]) = v;
    }
}

// One time step from u into v (heat2d.h): v = u + r(w + e + s + n - 4u) at
// every interior point, nothing else written.
__global__ void heat_step(const float *u, float *v, unsigned int nx, unsigned int ny, unsigned int pitch, float r)
{
    __shared__ __align__(16) float s[TILE_Y + 2][SHARED_X];
    int x0 = blockIdx.x * TILE_X, y0 = blockIdx.y * TILE_Y;
    load_tile(s, u, x0, y0, nx, ny, pitch);
    __syncthreads();

    int x = x0 + 4 * threadIdx.x, y = y0 + threadIdx.y, q = threadIdx.y + 1, c = 4 * threadIdx.x + 4;
    if (y < 1 || y > (int)ny - 2 || x >= (int)nx)
        return;  // a boundary row, or a float4 past the row's end: nothing to store (no barrier follows)
    float out[4];
    for (int d = 0; d < 4; d++) {
        float centre = s[q][c + d];
        bool interior = x + d >= 1 && x + d <= (int)nx - 2;
        out[d] = interior ? centre + r * (s[q][c + d - 1] + s[q][c + d + 1] + s[q - 1][c + d] + s[q + 1][c + d] - 4.0f * centre)
                          : centre;  // a boundary column keeps its value
    }
    if (x + 3 < (int)nx) {  // the whole float4 lies in the row
        *reinterpret_cast<float4 *>(&v[HEAT_INDEX(y, x, pitch)]) = make_float4(out[0], out[1], out[2], out[3]);
        return;
    }
    for (int d = 0; d < 4 && x + d <= (int)nx - 2; d++)  // the row's tail: interior cells one at a time
        v[HEAT_INDEX(y, x + d, pitch)] = out[d];
}

// ---------------------------------------------------------------------------
// The host loop
// ---------------------------------------------------------------------------

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    dim3 block(GROUPS_X, TILE_Y);
    dim3 grid((p->nx - 2 + TILE_X - 1) / TILE_X, (p->ny + TILE_Y - 1) / TILE_Y);  // BUG: "nx - 2 interior columns", but the tiles start at column 0
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_step<<<grid, block>>>(cur, next, p->nx, p->ny, p->pitch, p->r);
        float *swap = cur;
        cur = next;
        next = swap;
    }
    return cur == d_a ? 0 : 1;
}
