// HOSTILE: a naive sweep whose kernel is named like the kit's own (trusted_*), so that Nsight Compute's rows for it would be left out and the load floors never applied
// expect-hint: refused-call
// backends: gpu
// emu-note: emulation counts no loads (the technique line says so): the unused shared memory satisfies the launch-record rule there
// (a lab 2 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: the judge leaves out the rows of the kit's kernels (named
// trusted_*) when it sums what the student's kernels loaded; a student kernel
// named so would have no rows, and the floors would go unchecked. It asks for
// a tile's worth of dynamic shared memory and never touches it. Why it fails:
// the executor refuses a kernel named like the kit's; and a table with rows of
// the kit's kernels and none of the student's counts as zero loads, not as
// loads not counted.
#include "lab.h"

#define IN_TILE_DIM 8

__global__ void trusted_stencil(float *in, float *out, unsigned int N)
{
    extern __shared__ float never_used[];
    (void)never_used;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    if (i < 1 || j < 1 || k < 1 || i + 1 >= N || j + 1 >= N || k + 1 >= N)
        return;
    out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                               + c1 * in[LAB_INDEX(i, j, k - 1, N)] + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                               + c3 * in[LAB_INDEX(i, j - 1, k, N)] + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                               + c5 * in[LAB_INDEX(i - 1, j, k, N)] + c6 * in[LAB_INDEX(i + 1, j, k, N)];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(IN_TILE_DIM, IN_TILE_DIM, IN_TILE_DIM);
    dim3 grid((N + 7) / 8, (N + 7) / 8, (N + 7) / 8);
    trusted_stencil<<<grid, block, IN_TILE_DIM * IN_TILE_DIM * IN_TILE_DIM * sizeof(float)>>>(d_in, d_out, N);
}
