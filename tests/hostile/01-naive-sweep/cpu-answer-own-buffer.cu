// HOSTILE: the answer computed on the CPU, carried through a buffer of the program's own (kit grid -> own buffer -> host, and back)
// expect-hint: refused-call
// backends: gpu
// emu-note: the emulation runner shares the program's process: a CPU answer can pass correctness there (no time is claimed; threat table)
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: host copies of the kit's grids are refused, but a
// device-to-device copy from the kit's input into the program's own buffer
// and a copy of that buffer to the host are not; the answer goes back the
// same way. Why it fails: a call may copy at most an eighth of a grid (16 KiB
// at least) from the host into device memory (serve.cu's host budget), far
// less than an answer: from N = 20 on the copy back is refused.
#include <stdlib.h>
#include <string.h>
#include "lab.h"

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    (void)in, (void)out, (void)N;  // one thread per point, doing nothing
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    size_t cells = (size_t)N * N * N, bytes = cells * sizeof(float);
    float w[7];
    cudaMemcpyFromSymbol(&w[0], c0, 4); cudaMemcpyFromSymbol(&w[1], c1, 4); cudaMemcpyFromSymbol(&w[2], c2, 4);
    cudaMemcpyFromSymbol(&w[3], c3, 4); cudaMemcpyFromSymbol(&w[4], c4, 4); cudaMemcpyFromSymbol(&w[5], c5, 4);
    cudaMemcpyFromSymbol(&w[6], c6, 4);
    float *mine = NULL;
    cudaMalloc((void **)&mine, bytes);
    cudaMemcpy(mine, d_in, bytes, cudaMemcpyDeviceToDevice);     // kit grid -> own buffer: allowed
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    cudaMemcpy(in, mine, bytes, cudaMemcpyDeviceToHost);          // own buffer -> host: allowed
    memcpy(out, in, bytes);                                        // the boundary keeps the input
    for (size_t i = 1; i + 1 < N; i++)
        for (size_t j = 1; j + 1 < N; j++)
            for (size_t k = 1; k + 1 < N; k++)
                out[LAB_INDEX(i, j, k, N)] = w[0] * in[LAB_INDEX(i, j, k, N)]
                    + w[1] * in[LAB_INDEX(i, j, k - 1, N)] + w[2] * in[LAB_INDEX(i, j, k + 1, N)]
                    + w[3] * in[LAB_INDEX(i, j - 1, k, N)] + w[4] * in[LAB_INDEX(i, j + 1, k, N)]
                    + w[5] * in[LAB_INDEX(i - 1, j, k, N)] + w[6] * in[LAB_INDEX(i + 1, j, k, N)];
    cudaMemcpy(mine, out, bytes, cudaMemcpyHostToDevice);         // host -> own buffer: allowed
    cudaMemcpy(d_out, mine, bytes, cudaMemcpyDeviceToDevice);     // own buffer -> kit grid: allowed
    dim3 block(256), grid((unsigned)((cells + 255) / 256));
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);               // the launch record technique.c reads
    cudaFree(mine);
    free(in), free(out);
}
