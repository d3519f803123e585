// VARIANT: PMPP Fig 8.8 in two dimensions: a block is the 18x18 input tile,
// every thread loads one cell with a plain load, the inner 16x16 compute.
// Scalar only, a square tile. Correct; must pass.
#include "heat2d.h"

#define IN_TILE_DIM 18
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void heat_tile(const float *u, float *v, int nx, int ny, unsigned int pitch, float r)
{
    __shared__ float t[IN_TILE_DIM][IN_TILE_DIM];
    int x = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1, y = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    if (x >= 0 && x < nx && y >= 0 && y < ny)
        t[threadIdx.y][threadIdx.x] = u[HEAT_INDEX(y, x, pitch)];
    __syncthreads();
    bool inner = threadIdx.x >= 1 && threadIdx.x <= OUT_TILE_DIM && threadIdx.y >= 1 && threadIdx.y <= OUT_TILE_DIM;
    if (inner && x >= 1 && x <= nx - 2 && y >= 1 && y <= ny - 2) {
        int tx = threadIdx.x, ty = threadIdx.y;
        float c = t[ty][tx];
        v[HEAT_INDEX(y, x, pitch)] = c + r * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx] - 4.0f * c);
    }
}

int heat_solve(float *d_a, float *d_b, const heat_problem *p)
{
    dim3 block(IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid((p->nx + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (p->ny + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    float *cur = d_a, *next = d_b;
    for (int t = 0; t < p->steps; t++) {
        heat_tile<<<grid, block>>>(cur, next, (int)p->nx, (int)p->ny, p->pitch, p->r);
        float *swap = cur;
        cur = next;
        next = swap;
    }
    return cur == d_a ? 0 : 1;
}
