// VARIANT: register tiling with two ADJACENT rows a thread: a 32x16 block
// (512 threads) covers the book's 32x32 input tile, thread (tx, ty) owning
// the tile's columns at rows 2ty and 2ty+1, each with its own three z values
// in registers (named, not arrays: lo_* and hi_*); one 32x32 plane (4 KB) in
// shared memory; the block marches OUT_TILE_DIM planes. Correct: the pairs
// of rows of the 16 threads of a column cover the tile's 32 rows exactly
// once; both cells of plane i are in the shared plane before step i's first
// barrier and are replaced only after its second; the loop bound is the
// block's. It uses the lab's technique: z neighbours in registers, one T^2
// plane in shared memory, a 2D block marching in z.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    const int n = (int)N, x = (int)threadIdx.x;
    const int ylo = 2 * (int)threadIdx.y, yhi = ylo + 1;  // this thread's two tile rows
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const int jlo = (int)blockIdx.y * OUT_TILE_DIM + ylo - 1, jhi = jlo + 1;
    const bool col = k >= 0 && k < n, col_inner = x >= 1 && x <= OUT_TILE_DIM && k >= 1 && k <= n - 2;
    const bool load_lo = col && jlo >= 0 && jlo < n, load_hi = col && jhi >= 0 && jhi < n;
    const bool comp_lo = col_inner && ylo >= 1 && jlo >= 1 && jlo <= n - 2;
    const bool comp_hi = col_inner && yhi <= OUT_TILE_DIM && jhi >= 1 && jhi <= n - 2;

    float lo_prev = load_lo && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, jlo, k, N)] : 0.0f;
    float hi_prev = load_hi && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, jhi, k, N)] : 0.0f;
    float lo_curr = load_lo && iStart < n ? in[LAB_INDEX(iStart, jlo, k, N)] : 0.0f;
    float hi_curr = load_hi && iStart < n ? in[LAB_INDEX(iStart, jhi, k, N)] : 0.0f;
    inCurr_s[ylo][x] = lo_curr;
    inCurr_s[yhi][x] = hi_curr;
    for (int i = iStart; i < iStart + OUT_TILE_DIM && i <= n - 2; i++) {
        float lo_next = load_lo ? in[LAB_INDEX(i + 1, jlo, k, N)] : 0.0f;
        float hi_next = load_hi ? in[LAB_INDEX(i + 1, jhi, k, N)] : 0.0f;
        __syncthreads();  // the plane is complete
        if (i >= 1 && comp_lo)
            out[LAB_INDEX(i, jlo, k, N)] = c0 * lo_curr
                                         + c1 * inCurr_s[ylo][x - 1] + c2 * inCurr_s[ylo][x + 1]
                                         + c3 * inCurr_s[ylo - 1][x] + c4 * hi_curr
                                         + c5 * lo_prev + c6 * lo_next;
        if (i >= 1 && comp_hi)
            out[LAB_INDEX(i, jhi, k, N)] = c0 * hi_curr
                                         + c1 * inCurr_s[yhi][x - 1] + c2 * inCurr_s[yhi][x + 1]
                                         + c3 * lo_curr + c4 * inCurr_s[yhi + 1][x]
                                         + c5 * hi_prev + c6 * hi_next;
        __syncthreads();  // nobody still reads the plane
        lo_prev = lo_curr, lo_curr = lo_next;
        hi_prev = hi_curr, hi_curr = hi_next;
        inCurr_s[ylo][x] = lo_curr;
        inCurr_s[yhi][x] = hi_curr;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    dim3 block(IN_TILE_DIM, IN_TILE_DIM / 2, 1);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
