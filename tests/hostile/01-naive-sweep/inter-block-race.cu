// HOSTILE: a race between blocks: each block copies its input cells into a scratch grid, then reads its x-1 neighbour from that scratch, which at a block's left edge the previous block wrote
// expect-hint: thread-order
// backends: emu
// (a lab 1 submission with a real bug; the kit's tests check the grader catches it)
//
// On a GPU the blocks of a launch run in no set order: at a block's left
// edge the neighbour may not have been copied yet, and the kernel reads the
// zeros of the cleared scratch. The emulator runs a grid's blocks one after
// another, so in increasing order the answer comes out right. Why it fails:
// the judge's second run of every case shuffles the blocks as well as the
// threads of a block (STENCIL_EMU_BLOCK_ORDER), and the two runs disagree.
// Not run on a GPU, where the race shows only when the blocks happen to run
// out of order.
#include "lab.h"

#define BX 32
#define BY 4
#define BZ 4

static float *scratch;         // a copy of the input, filled block by block
static unsigned int scratch_n;

__global__ void stencil_kernel(const float *in, float *s, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && j < N && k < N)
        s[LAB_INDEX(i, j, k, N)] = in[LAB_INDEX(i, j, k, N)];
    __syncthreads();  // this block's copies are done; the previous block's were done "before"
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * s[LAB_INDEX(i, j, k - 1, N)]   // written by block bx-1 at the left edge: a race
                                   + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)]
                                   + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)]
                                   + c6 * in[LAB_INDEX(i + 1, j, k, N)];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (scratch_n != N) {
        if (scratch) cudaFree(scratch);
        cudaMalloc((void **)&scratch, (size_t)N * N * N * sizeof(float));
        scratch_n = N;
    }
    cudaMemset(scratch, 0, (size_t)N * N * N * sizeof(float));  // what a block that ran too early reads
    dim3 block(BX, BY, BZ);
    dim3 grid((N + BX - 1) / BX, (N + BY - 1) / BY, (N + BZ - 1) / BZ);
    stencil_kernel<<<grid, block>>>(d_in, scratch, d_out, N);
}
