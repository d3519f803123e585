// HOSTILE: the host function fills as much host memory as it can get (64 MiB at a time, up to 16 GiB) before it launches a correct kernel: a class graded with several judges at once could be pushed out of memory by a few such files
// expect-hint: host-memory
// backends: emu
// judge-args: --case 5 --emu-memory 256
// (a lab 1 submission that misbehaves; the kit's tests check the grader catches it)
//
// Under CPU emulation the file's host code shares the runner's process with
// the kit's grids, and the judge stops a runner whose resident memory passes
// STUDENT_MEMORY_BYTES (at most a quarter of the machine's memory) beyond
// them (grader/judge/spawn.c's resident_bytes). On a GPU the student's
// program runs in a sandbox whose address space is STUDENT_MEMORY_BYTES
// (RLIMIT_AS, tests/sandbox.sh): its malloc returns NULL there, and this file
// then ends before it launches anything.
#include <stdlib.h>
#include <string.h>

#include "lab.h"

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
    const size_t chunk = (size_t)64 << 20;
    for (int n = 0; n < 256; n++) {  // 16 GiB, kept (never freed)
        char *p = (char *)malloc(chunk);
        if (!p)
            exit(3);
        memset(p, n + 1, chunk);
    }
    dim3 block(32, 4, 4);
    dim3 grid((N + 31) / 32, (N + 3) / 4, (N + 3) / 4);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
