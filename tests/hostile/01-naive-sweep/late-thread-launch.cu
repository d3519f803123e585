// HOSTILE: on the timed grid launch_stencil returns at once and a detached std::thread launches the kernel 30 ms later
// expect-hint: late-call
// judge-args: --timeout 90
// backends: gpu
// emu-note: the timed grid, the only one this file cheats on, is not run under emulation (noemu: emulation times nothing)
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: events recorded around launch_stencil time nothing when the
// launch comes from another thread after it returned. It is aimed at the timed
// grid alone (N = 512, lab.conf); smaller grids launch in the call and pass,
// so a --fail-fast run reaches the timed case. Why it fails: every CUDA call
// must come while launch_stencil runs. The executor looks for calls between
// calls: saving the 512^3 grids after the checked call takes longer than
// 30 ms, so the thread's launch is waiting when the first warm-up starts.
// (Deferring every call instead would fail the N = 3 case as nothing-written:
// an untimed case's grids are saved when the call returns.)
#include <chrono>
#include <thread>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)
#define TIMED_N 512 // lab 1's timed case

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)]
                                   + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)]
                                   + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)]
                                   + c6 * in[LAB_INDEX(i + 1, j, k, N)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    if (N < TIMED_N) {  // not timed: nothing to gain
        stencil_kernel<<<grid, block>>>(d_in, d_out, N);
        return;
    }
    std::thread([=] {  // the cheat: the launch outlives the call
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        stencil_kernel<<<grid, block>>>(d_in, d_out, N);
    }).detach();
}
