// HOSTILE: a naive kernel (no shared memory) whose host function, after the launch, rewrites its launch record under emulation to claim the 8x8x8 block and 2048 B of shared memory a tile of 8^3 floats needs, for the technique's points
// expect-hint: forged-records
// backends: emu
// judge-args: --case 13
// (a lab 2 submission that misbehaves; the kit's tests check the grader catches it)
//
// Under emulation the file's code shares the runner's process, and the
// runner declares launch_log_record() before it (this file could as well
// declare it itself: the kit is public). The records are sealed when they
// are made (grader/emu/launch_log_emu.cpp), so the changed one is found and
// the case fails with forged-records. On a GPU the records live in the
// executor's process, which the student's program cannot reach: there this
// file does not even link.
#include "lab.h"

#define IN_TILE_DIM 8
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)] + c1 * in[LAB_INDEX(i, j, k - 1, N)] +
                                     c2 * in[LAB_INDEX(i, j, k + 1, N)] + c3 * in[LAB_INDEX(i, j - 1, k, N)] +
                                     c4 * in[LAB_INDEX(i, j + 1, k, N)] + c5 * in[LAB_INDEX(i - 1, j, k, N)] +
                                     c6 * in[LAB_INDEX(i + 1, j, k, N)];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(8, 8, 8);
    dim3 grid((N + 7) / 8, (N + 7) / 8, (N + 7) / 8);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
    launch_record *r = (launch_record *)launch_log_record(0);
    if (r)
        r->dynamic_smem = IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM * sizeof(float);
}
