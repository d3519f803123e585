// VARIANT: float4 loads straight from global memory, no shared memory: a
// thread owns one aligned float4 of a row, loads it and the float4s above and
// below, and takes its west and east neighbours as single floats. The row's
// tail is stored one float at a time. Correct; must pass.
#include "heat2d.h"

// The float4 at column x (a multiple of 4) of row y.
__device__ float4 load4(const float *u, unsigned int y, unsigned int x, unsigned int pitch)
{
    return *reinterpret_cast<const float4 *>(&u[HEAT_INDEX(y, x, pitch)]);
}

__global__ void heat_quad(const float *__restrict__ u, float *__restrict__ v, unsigned int nx, unsigned int ny,
                          unsigned int pitch, float r)
{
    unsigned int x = 4 * (blockIdx.x * blockDim.x + threadIdx.x), y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y < 1 || y + 1 >= ny)
        return;
    float4 c4 = load4(u, y, x, pitch), s4 = load4(u, y - 1, x, pitch), n4 = load4(u, y + 1, x, pitch);
    float c[6], s[4] = {s4.x, s4.y, s4.z, s4.w}, n[4] = {n4.x, n4.y, n4.z, n4.w}, out[4];
    c[0] = x > 0 ? u[HEAT_INDEX(y, x - 1, pitch)] : 0.0f;  // the west neighbour of the first point
    c[1] = c4.x, c[2] = c4.y, c[3] = c4.z, c[4] = c4.w;
    c[5] = x + 4 < nx ? u[HEAT_INDEX(y, x + 4, pitch)] : 0.0f;  // the east neighbour of the last one
    for (int d = 0; d < 4; d++) {
        bool interior = x + d >= 1 && x + d + 2 <= nx;
        out[d] = interior ? c[d + 1] + r * (c[d] + c[d + 2] + s[d] + n[d] - 4.0f * c[d + 1]) : c[d + 1];
    }
    if (x + 4 <= nx) {
        *reinterpret_cast<float4 *>(&v[HEAT_INDEX(y, x, pitch)]) = make_float4(out[0], out[1], out[2], out[3]);
        return;
    }
    for (int d = 0; d < 4; d++)
        if (x + d >= 1 && x + d + 2 <= nx)
            v[HEAT_INDEX(y, x + d, pitch)] = out[d];
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    unsigned int quads = (p->nx + 3) / 4;
    dim3 block(32, 4), grid((quads + 31) / 32, (p->ny + 3) / 4);
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_quad<<<grid, block>>>(cur, next, p->nx, p->ny, p->pitch, p->r);
        float *swap = cur;
        cur = next;
        next = swap;
    }
    return cur == d_a ? 0 : 1;
}
