// HOSTILE: a decoy launch of the tile's shape with 2048 B of dynamic shared memory that computes nothing, then the host function ends the kit's launch recording under emulation and does the work with an unrecorded naive kernel, for the technique's points
// expect-hint: forged-records
// backends: emu
// judge-args: --case 13
// (a lab 2 submission that misbehaves; the kit's tests check the grader catches it)
//
// launch_log_end() inside the launch function stops the recording: the
// runner would see one record, the decoy's. The emulation's launch log
// notices that its bracket was ended before the runner ended it (and that
// the runtime counted launches it never recorded), so the case fails with
// forged-records (grader/emu/launch_log_emu.cpp). On a GPU the records live
// in the executor: this file does not link there.
#include "lab.h"

#define IN_TILE_DIM 8
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void decoy_kernel(float *in, float *out, unsigned int N)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = 0.0f;
}

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
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    decoy_kernel<<<dim3(tiles, tiles, tiles), dim3(8, 8, 8), IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM * sizeof(float)>>>(d_in, d_out, N);
    launch_log_end();
    stencil_kernel<<<dim3((N + 31) / 32, (N + 3) / 4, (N + 3) / 4), dim3(32, 4, 4)>>>(d_in, d_out, N);
}
