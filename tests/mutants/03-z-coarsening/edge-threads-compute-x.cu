// MUTANT: the edge threads in x compute too: the compute test checks y against the output tile but not x.
// expect-hint: tile-edges
// expect-hint: thread-order
// parity: hints tile-edges thread-order — two blocks write the same edge cells: a GPU runs one order and the wrong edge values show as the tile's edges (tile-edges); emulation's two block orders disagree (thread-order)
//
// Lab 3 mutant: the instructor solution with the mistake above (marked MUTANT).
// Thread x=0 of tile b computes k = 30b-1 and thread x=31 computes k = 30b+30,
// each with an x neighbour read from the wrong row of inCurr_s; the
// neighbouring tile computes the same cells right. From N=32 on, both of
// the columns two neighbouring tiles share are interior, and whichever tile
// writes last leaves one of them wrong (one warp writes both columns of a
// row in one store), so the failure does not depend on timing: on a GPU the
// wrong cells lie on the x edges of the tiles (tile-edges). Which of the two
// is wrong depends on the order of the blocks, so under CPU emulation, whose
// second run shuffles the blocks, the judge reports the order dependence
// first (thread-order).
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - 1;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - 1;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;

    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];

    // This thread's column lies in the grid: it may load. It lies inside the
    // output tile and the grid's interior: it computes (once the plane does too).
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= 1 && j < n - 1 && k >= 1 && k < n - 1 &&
                    y >= 1 && y < IN_TILE_DIM - 1;  // MUTANT: x not checked

    // Cells outside the grid (ghost cells) get 0: never used, but defined.
    if (loads && iStart - 1 >= 0 && iStart - 1 < n)
        inPrev_s[y][x] = in[LAB_INDEX(iStart - 1, j, k, N)];
    else
        inPrev_s[y][x] = 0.0f;
    if (loads && iStart < n)
        inCurr_s[y][x] = in[LAB_INDEX(iStart, j, k, N)];
    else
        inCurr_s[y][x] = 0.0f;

    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - 1; i++) {
        if (loads && i + 1 < n)
            inNext_s[y][x] = in[LAB_INDEX(i + 1, j, k, N)];
        else
            inNext_s[y][x] = 0.0f;
        __syncthreads();  // the three planes are complete (and last step's rotation done)

        if (computes && i >= 1)
            out[LAB_INDEX(i, j, k, N)] = c0 * inCurr_s[y][x]
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * inPrev_s[y][x] + c6 * inNext_s[y][x];
        __syncthreads();  // nobody still reads inCurr_s before it is overwritten

        inPrev_s[y][x] = inCurr_s[y][x];
        inCurr_s[y][x] = inNext_s[y][x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
