// VARIANT: the block shape as template parameters, `template <int BX, int
// BY, int BZ> __global__ void __launch_bounds__(BX * BY * BZ)
// stencil_kernel(...)`, launched as stencil_kernel<64, 2, 2>; the input
// taken as `const float *__restrict__` and read through the read-only path
// with __ldg, the output as `float *__restrict__`; a 64x2x2 block (two
// warps on each row segment). Students who read the "CUDA C++ Best
// Practices" chapter on the read-only cache write this. Correct: every
// point of the N^3 grid has one thread (the grid rounds up per axis) and
// only interior points are written; in[] is never written, so __ldg is
// legal. It is the lab's technique (Fig 8.6: one thread per output point,
// one launch).
// Expected: every case passes and the technique line too.
#include "lab.h"

template <int BX, int BY, int BZ>
__global__ void __launch_bounds__(BX * BY * BZ)
    stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int N)
{
    unsigned int k = blockIdx.x * BX + threadIdx.x;
    unsigned int j = blockIdx.y * BY + threadIdx.y;
    unsigned int i = blockIdx.z * BZ + threadIdx.z;
    if (i < 1 || i + 1 >= N || j < 1 || j + 1 >= N || k < 1 || k + 1 >= N)
        return;
    size_t p = LAB_INDEX(i, j, k, N), plane = (size_t)N * N;
    out[p] = c0 * __ldg(&in[p])
           + c1 * __ldg(&in[p - 1]) + c2 * __ldg(&in[p + 1])
           + c3 * __ldg(&in[p - N]) + c4 * __ldg(&in[p + N])
           + c5 * __ldg(&in[p - plane]) + c6 * __ldg(&in[p + plane]);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    const int bx = 64, by = 2, bz = 2;
    dim3 block(bx, by, bz);
    dim3 grid((N + bx - 1) / bx, (N + by - 1) / by, (N + bz - 1) / bz);
    stencil_kernel<bx, by, bz><<<grid, block>>>(d_in, d_out, N);
}
