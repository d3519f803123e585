// MUTANT: whose z loop runs a step count taken from the remainder: every block marches OUT_TILE_DIM planes except the last one in z, which marches (N - 2) % OUT_TILE_DIM + 1 planes ('the last block holds what is left'), and the compute test trusts that count (no i < N-1 test). Right whenever ceil(N/30) blocks end exactly at plane N-2, i.e. for every N except N = 30m + 1 (31, 61, 91, 121, 151, ...): there the last block starts at plane N-1 and marches 30 planes, writing the boundary plane N-1 and 29 planes past the end of out[].
// expect-hint: kernel-fault
// expect-hint: out-of-bounds
// parity: hints kernel-fault out-of-bounds — emulation stops the kernel at its first write past the output grid (kernel-fault); on a GPU the write lands in the kit's guard cells, found after the run (out-of-bounds)
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
                    y >= 1 && y < IN_TILE_DIM - 1 && x >= 1 && x < IN_TILE_DIM - 1;

    // Cells outside the grid (ghost cells) get 0: never used, but defined.
    if (loads && iStart - 1 >= 0 && iStart - 1 < n)
        inPrev_s[y][x] = in[LAB_INDEX(iStart - 1, j, k, N)];
    else
        inPrev_s[y][x] = 0.0f;
    if (loads && iStart < n)
        inCurr_s[y][x] = in[LAB_INDEX(iStart, j, k, N)];
    else
        inCurr_s[y][x] = 0.0f;

    int steps = blockIdx.z == gridDim.z - 1 ? (n - 2) % OUT_TILE_DIM + 1 : OUT_TILE_DIM;   // the last block: what is left
    for (int i = iStart; i < iStart + steps; i++) {
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
