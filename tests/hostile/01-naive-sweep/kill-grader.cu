// HOSTILE: a kernel that is never launched, plus kill(getppid(), SIGSTOP) and a kill(-1, 0) probe, from a constructor and from launch_stencil, to take the grader down before it can say FAIL
// expect-hint: nothing-written
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: a grader that is stopped or killed (its parent, or with
// kill(-1, SIGKILL) every process of the grading account) writes no verdict,
// and a class script may count a missing verdict as no failure. This file
// stays harmless should the sandbox fail: the parent gets SIGSTOP and at once
// SIGCONT, and kill(-1, 0) only asks whether some other process could be
// signalled. Should either get through, launch_stencil launches the (right)
// kernel: the case then passes and the test fails loudly. Why it fails: the
// student's code may signal no process but its own.
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

static int escaped = 0;  // 1 once a signal reached another process

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

// Stops the parent (and lets it go at once), and probes kill(-1).
static void try_kill(void)
{
    pid_t parent = getppid();
    if (parent > 1 && kill(parent, SIGSTOP) == 0) {
        kill(parent, SIGCONT);
        escaped = 1;
        fprintf(stderr, "hostile: stopped process %d (and let it go)\n", (int)parent);
    }
    if (kill(-1, 0) == 0) {
        escaped = 1;
        fprintf(stderr, "hostile: kill(-1, SIGKILL) would have reached other processes\n");
    }
}

__attribute__((constructor)) static void kill_early(void)
{
    try_kill();
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    try_kill();
    if (!escaped)  // the cheat computes nothing
        return;
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
