// VARIANT: a grid-stride loop sized from the device, as NVIDIA's "CUDA Pro
// Tip: grid-stride loops" recommends: cudaDeviceGetAttribute gives the
// number of SMs and the launch uses 4 blocks of 256 threads per SM (528
// blocks, 135168 threads on an H100 or H200), each thread striding over the
// interior points only (a flat index over the (N-2)^3 interior, decomposed
// into i, j, k, each shifted by one). Correct: the stride loop covers every
// interior point exactly once for any grid size. It is the lab's technique
// (one launch, the Fig 8.6 per-point computation spread over as many threads
// as the GPU runs at once). The CPU emulation backend reports an H100's 132
// SMs, so the launch is the same there.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define THREADS 256
#define BLOCKS_PER_SM 4

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    if (N < 3)
        return;
    size_t m = N - 2;  // interior points per axis
    size_t count = m * m * m;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < count; q += (size_t)gridDim.x * blockDim.x) {
        size_t k = q % m + 1, j = (q / m) % m + 1, i = q / (m * m) + 1;
        size_t p = LAB_INDEX(i, j, k, N);
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - N] + c4 * in[p + N]
               + c5 * in[p - (size_t)N * N] + c6 * in[p + (size_t)N * N];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms < 1)
        sms = 80;
    stencil_kernel<<<BLOCKS_PER_SM * sms, THREADS>>>(d_in, d_out, N);
}
