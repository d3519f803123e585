// VARIANT: the book's Fig 8.10 kernel almost verbatim, with a small tile,
// T = IN_TILE_DIM = 8 (64-thread blocks marching 6 planes each): int indices
// from unsigned blockIdx arithmetic, loads guarded against the unsigned N,
// ghost cells of the planes left unwritten (never read for an interior
// point), the z loop running all OUT_TILE_DIM steps even past the grid's
// end (the guards skip those steps' loads and stores, and every thread of
// the block runs the same number of steps, so all reach every barrier).
// Correct: as the book's; one block per 6x6x6 output tile, tiles rounded up
// per axis. It uses the lab's technique: a T x T block marching in z with
// three T^2 planes (768 B) in shared memory.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 8                      // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int iStart = blockIdx.z * OUT_TILE_DIM;
    int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];
    if (iStart - 1 >= 0 && iStart - 1 < N && j >= 0 && j < N && k >= 0 && k < N) {
        inPrev_s[threadIdx.y][threadIdx.x] = in[(iStart - 1) * N * N + j * N + k];
    }
    if (iStart >= 0 && iStart < N && j >= 0 && j < N && k >= 0 && k < N) {
        inCurr_s[threadIdx.y][threadIdx.x] = in[iStart * N * N + j * N + k];
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM; ++i) {
        if (i + 1 >= 0 && i + 1 < N && j >= 0 && j < N && k >= 0 && k < N) {
            inNext_s[threadIdx.y][threadIdx.x] = in[(i + 1) * N * N + j * N + k];
        }
        __syncthreads();
        if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
            if (threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
                out[i * N * N + j * N + k] = c0 * inCurr_s[threadIdx.y][threadIdx.x]
                                           + c1 * inCurr_s[threadIdx.y][threadIdx.x - 1]
                                           + c2 * inCurr_s[threadIdx.y][threadIdx.x + 1]
                                           + c3 * inCurr_s[threadIdx.y - 1][threadIdx.x]
                                           + c4 * inCurr_s[threadIdx.y + 1][threadIdx.x]
                                           + c5 * inPrev_s[threadIdx.y][threadIdx.x]
                                           + c6 * inNext_s[threadIdx.y][threadIdx.x];
            }
        }
        __syncthreads();
        inPrev_s[threadIdx.y][threadIdx.x] = inCurr_s[threadIdx.y][threadIdx.x];
        inCurr_s[threadIdx.y][threadIdx.x] = inNext_s[threadIdx.y][threadIdx.x];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 dimBlock(IN_TILE_DIM, IN_TILE_DIM, 1);
    dim3 dimGrid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM,
                 (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM);
    stencil_kernel<<<dimGrid, dimBlock>>>(d_in, d_out, N);
}
