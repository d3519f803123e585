// VARIANT: thread coarsening in z: 32x8 blocks tile the x-y plane and a
// third grid axis splits the interior planes into chunks of Z_CHUNK = 8, so
// each thread computes the 8 points of its (j, k) column in its chunk, one
// after another (the last chunk may be short, or empty past N-2). Between
// the whole-column loop and one thread a point: fewer, longer-lived
// threads, yet still ceil((N-2)/8) layers of them. Correct: chunk c covers
// planes 1 + 8c .. min(8c + 8, N-2), the chunks tile 1 .. N-2 exactly once,
// and every interior (j, k) has one thread in each chunk; only interior
// points are written, from in[] only. It is the lab's technique (one
// launch, the Fig 8.6 per-point computation spread over N^2 (N-2)/8
// threads that each loop over a few points).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define BLOCK_X 32   // threads along x (k)
#define BLOCK_Y 8    // threads along y (j)
#define Z_CHUNK 8    // interior planes a thread computes

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int first = 1 + blockIdx.z * Z_CHUNK;
    if (k < 1 || k + 1 >= N || j < 1 || j + 1 >= N)
        return;
    size_t plane = (size_t)N * N;
    for (unsigned int i = first; i < first + Z_CHUNK && i + 1 < N; i++) {
        size_t p = LAB_INDEX(i, j, k, N);
        out[p] = c0 * in[p]
               + c1 * in[p - 1] + c2 * in[p + 1]
               + c3 * in[p - N] + c4 * in[p + N]
               + c5 * in[p - plane] + c6 * in[p + plane];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int chunks = N > 2 ? (N - 2 + Z_CHUNK - 1) / Z_CHUNK : 1;
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, chunks);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
