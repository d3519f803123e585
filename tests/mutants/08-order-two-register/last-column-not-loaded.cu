// MUTANT: the load guard stops one column short (k < n - 1): column N-1 is never loaded into inCurr_s (0 there)
// expect-hint: tile-edges
// judge-args: --case 13
// (lab 8 solution with this one mistake.) Only the points of the last interior
// column (k = N-3) read column N-1, as their x+2 neighbour: those points lack
// their c8 term and all others are right. Before, the verdict named
// term-missing ("the stencil without its c8 term"), which sends a student to
// a sum that is right; now tile-edges names the load at the grid's face. On
// N = 5 every point's x+2 cell is a boundary cell: term-missing there, with a
// note that a load stopping short of the face leaves the same values.
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

    bool loads = j >= 0 && j < n && k >= 0 && k < n - 1;  // MUTANT: n - 1
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

        zm2 = zm1;
        zm1 = cur;
        cur = zp1;
        zp1 = zp2;
        inCurr_s[y][x] = cur;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
