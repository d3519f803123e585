// MUTANT: a branch-free float4 kernel: each thread loads its aligned float4 and the ones above and below, the west cell (guarded: x > 0) and the EAST neighbour of its last lane from the next float4 of the STORED row (x + 4 < pitch: "padding may be read"), computes all four lanes and keeps the boundary lanes by multiplying the update by a 0/1 mask, out = c + m * r * (w + e + n + s - 4c). For the boundary column nx-1 the east neighbour is padding (the kit's NaN) and 0 * NaN = NaN: whenever nx is a multiple of 4 (its float4 stored whole) and the row is padded (nx not a multiple of 32), cell nx-1 of every interior row becomes NaN.
// expect-hint: boundary-overwritten
#include "heat2d.h"

#ifndef TILE_X
#define TILE_X 64
#endif
#ifndef TILE_Y
#define TILE_Y 8
#endif

__global__ void heat_step(const float *u, float *v, unsigned int nx, unsigned int ny, unsigned int pitch, float r)
{
    int x = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= (int)nx || y < 1 || y > (int)ny - 2)
        return;
    size_t p = HEAT_INDEX(y, x, pitch);
    float4 c = *reinterpret_cast<const float4 *>(&u[p]);
    float4 n = *reinterpret_cast<const float4 *>(&u[p - pitch]);
    float4 s = *reinterpret_cast<const float4 *>(&u[p + pitch]);
    float w = x > 0 ? u[p - 1] : 0.0f;                       // nothing left of the row
    float e = x + 4 < (int)pitch ? u[p + 4] : 0.0f;          // inside the stored row: safe to read
    float cv[4] = {c.x, c.y, c.z, c.w}, nv[4] = {n.x, n.y, n.z, n.w}, sv[4] = {s.x, s.y, s.z, s.w}, out[4];
    for (int d = 0; d < 4; d++) {
        float west = d == 0 ? w : cv[d - 1], east = d == 3 ? e : cv[d + 1];
        float m = (x + d >= 1 && x + d <= (int)nx - 2) ? 1.0f : 0.0f;  // 0 keeps a boundary lane
        out[d] = cv[d] + m * r * (west + east + nv[d] + sv[d] - 4.0f * cv[d]);
    }
    if (x + 3 < (int)nx) {
        *reinterpret_cast<float4 *>(&v[p]) = make_float4(out[0], out[1], out[2], out[3]);
    } else {
        for (int d = 0; d < 4 && x + d <= (int)nx - 2; d++)
            v[p + d] = out[d];
    }
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    dim3 block(TILE_X / 4, TILE_Y), grid((p->nx + TILE_X - 1) / TILE_X, (p->ny + TILE_Y - 1) / TILE_Y);
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_step<<<grid, block>>>(cur, next, p->nx, p->ny, p->pitch, p->r);
        float *tmp = cur;
        cur = next;
        next = tmp;
    }
    return cur == d_b;
}
