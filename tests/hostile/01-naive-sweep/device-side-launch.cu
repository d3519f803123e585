// HOSTILE: the work done by a kernel the kernel launches itself (dynamic parallelism), out of the executor's sight
// expect-exit: 2
// backends: gpu
// (a lab 1 submission that tries to hide its launches; the kit's tests check the grader refuses it)
//
// The attack: the executor records the launches the program asks it for;
// a launch made from device code never passes through it, so the launch
// records (the technique line) would see one small kernel while another did
// the work. Why it fails: the kit builds the file without separate
// compilation (no -rdc, no device runtime), so nvcc refuses a launch from
// device code ("requires separate compilation mode"): the file does not
// compile. Under emulation the runner stops at the launch with "dynamic
// parallelism is not emulated" (every case fails).
#include "lab.h"

__global__ void child_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1 || j < 1 || k < 1 || i >= N - 1 || j >= N - 1 || k >= N - 1)
        return;
    out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                               + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                               + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                               + c5 * in[LAB_INDEX(i - 1, j, k, N)] + c6 * in[LAB_INDEX(i + 1, j, k, N)];
}

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        child_kernel<<<dim3((N + 31) / 32, (N + 7) / 8, N), dim3(32, 8, 1)>>>(in, out, N);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    stencil_kernel<<<1, 32>>>(d_in, d_out, N);
}
