// VARIANT: the book's Fig 8.12 kernel almost verbatim (its inNext_s typo in
// the last line fixed to inNext), with a small tile, T = IN_TILE_DIM = 8:
// 64-thread blocks marching 6 planes, the z neighbours in the registers
// inPrev/inCurr/inNext, one 8x8 shared plane (256 B). As in the book, the
// registers of threads whose column lies outside the grid and the plane's
// ghost cells are left unset (never read for an interior point), and the z
// loop runs all OUT_TILE_DIM steps (guards skip loads and stores past the
// grid; every thread runs the same steps, so all reach every barrier).
// Correct: as the book's. It uses the lab's technique: register tiling,
// one T^2 plane in shared memory, a T x T block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int iStart = blockIdx.z * OUT_TILE_DIM;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    float inPrev;
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    float inCurr;
    float inNext;
    if (iStart - 1 >= 0 && iStart - 1 < N && j >= 0 && j < N && k >= 0 && k < N) {
        inPrev = in[(iStart - 1) * N * N + j * N + k];
    }
    if (iStart >= 0 && iStart < N && j >= 0 && j < N && k >= 0 && k < N) {
        inCurr = in[iStart * N * N + j * N + k];
        inCurr_s[threadIdx.y][threadIdx.x] = inCurr;
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM; ++i) {
        if (i + 1 >= 0 && i + 1 < N && j >= 0 && j < N && k >= 0 && k < N) {
            inNext = in[(i + 1) * N * N + j * N + k];
        }
        __syncthreads();
        if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
            if (threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
                out[i * N * N + j * N + k] = c0 * inCurr
                                           + c1 * inCurr_s[threadIdx.y][threadIdx.x - 1]
                                           + c2 * inCurr_s[threadIdx.y][threadIdx.x + 1]
                                           + c3 * inCurr_s[threadIdx.y - 1][threadIdx.x]
                                           + c4 * inCurr_s[threadIdx.y + 1][threadIdx.x]
                                           + c5 * inPrev
                                           + c6 * inNext;
            }
        }
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[threadIdx.y][threadIdx.x] = inNext;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 dimBlock(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 dimGrid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
                 (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    stencil_kernel<<<dimGrid, dimBlock>>>(d_in, d_out, N);
}
