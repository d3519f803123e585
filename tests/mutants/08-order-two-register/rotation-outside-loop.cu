// MUTANT: the window's shift (zm2 <- zm1 <- cur <- zp1, and the new cur into inCurr_s) sits after the z loop instead of at the end of each step
// expect-hint: whole-planes
// judge-args: --case 13
// (lab 8 solution with this one mistake.) Each block computes every plane from
// the planes it loaded before the loop (zp2 alone is loaded afresh each step).
// Block 0's own first planes 0 and 1 are never shifted out, so with one block
// in z (N <= 30) no interior plane is right: each is the stencil with its
// centre and in-plane neighbours from plane 0, z-2 and z-1 outside the grid,
// z+1 from plane 1 (the plane window, for a star of radius 2).
// N = 5 cannot tell this mistake apart: its one interior point is one value,
// and among the 7^6 = 117649 choices of planes a window may take there
// (planes -1 to 5) some choice matches an arbitrary wrong value within the
// lab's tolerance about one time in eight (grader/judge/verdict_window.c's
// VERDICT_WINDOW_MIN_CELLS). A window named from one cell would mislead that
// often, so N = 5 says wrong-values, with a note that one cell is too few to
// tell a window from another mistake; the test runs N = 13, where each plane
// has many wrong cells and the window is named.
#include "star13.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 4)     // and this: the halo is two cells deep on each side
#define R 2                                // the star's radius

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - R;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - R;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;

    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];

    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= R && j < n - R && k >= R && k < n - R &&
                    y >= R && y < IN_TILE_DIM - R && x >= R && x < IN_TILE_DIM - R;

    // This column at planes iStart-2 .. iStart+1; cells outside the grid stay 0 (never used, but defined).
    float zm2 = loads && iStart - 2 >= 0 && iStart - 2 < n ? in[LAB_INDEX(iStart - 2, j, k, N)] : 0.0f;
    float zm1 = loads && iStart - 1 >= 0 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float cur = loads && iStart < n ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    float zp1 = loads && iStart + 1 < n ? in[LAB_INDEX(iStart + 1, j, k, N)] : 0.0f;
    inCurr_s[y][x] = cur;

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - R; i++) {
        float zp2 = loads && i + 2 < n ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        __syncthreads();  // inCurr_s holds the whole current plane

        if (computes && i >= R)
            out[LAB_INDEX(i, j, k, N)] = c0 * cur
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * zm1 + c6 * zp1
                                       + c7 * inCurr_s[y][x - 2] + c8 * inCurr_s[y][x + 2]
                                       + c9 * inCurr_s[y - 2][x] + c10 * inCurr_s[y + 2][x]
                                       + c11 * zm2 + c12 * zp2;
        __syncthreads();  // nobody still reads inCurr_s before it is overwritten
    }
    zm2 = zm1;  // MUTANT: the shift, after the loop
    zm1 = cur;
    cur = zp1;
    inCurr_s[y][x] = cur;
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
