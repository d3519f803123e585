// MUTANT: the rows taken as nx floats apart, HEAT_INDEX(y, x, nx) and u[p -+ nx], not pitch: the padded layout ignored, as if the grid were packed
// expect-hint: row-pitch
// judge-args: --case 61x45
// (variant one-thread-a-point-no-shared with this one mistake; the kit's tests check it fails as expected)
#include "heat2d.h"

// One time step: the thread at (x, y) updates that point if it is interior.
__global__ void heat_point(const float *__restrict__ u, float *__restrict__ v, unsigned int nx, unsigned int ny,
                           unsigned int pitch, float r)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x + 1 >= nx || y + 1 >= ny)
        return;
    size_t p = HEAT_INDEX(y, x, nx);  // MUTANT: rows taken nx floats apart, not pitch
    float c = u[p];
    v[p] = c + r * (u[p - 1] + u[p + 1] + u[p - nx] + u[p + nx] - 4.0f * c);
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    dim3 block(32, 8), grid((p->nx + 31) / 32, (p->ny + 7) / 8);
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_point<<<grid, block>>>(cur, next, p->nx, p->ny, p->pitch, p->r);
        float *swap = cur;
        cur = next;
        next = swap;
    }
    return cur == d_a ? 0 : 1;
}
