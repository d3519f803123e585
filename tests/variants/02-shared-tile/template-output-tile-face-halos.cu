// VARIANT: block = OUTPUT tile, written as a template on the tile edge
// (template <int OUT> __global__ void stencil_kernel, launched as
// stencil_kernel<OUT_TILE_DIM> with OUT_TILE_DIM = 8: 512 threads, a 10^3
// input tile of 4000 B). Each thread loads its own point into the tile's
// centre; the threads on a face of the block also load the halo cell just
// beyond that face (the way lab 4's and the Jacobi solution's edge threads
// load their plane's halo). The seven-point star never reads the tile's 12
// edges and 8 corners, so they are never loaded. Correct: every cell a
// computing thread reads (its own, and the six face neighbours) is either
// some thread's own point or a face halo cell loaded by the thread next to
// it, all before the one barrier; loads are guarded by the grid's bounds
// (ghost cells 0); tiles start at multiples of OUT_TILE_DIM. It is the
// lab's technique (the input tile with its halo in shared memory, block =
// output tile).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define OUT_TILE_DIM 8
#define IN_TILE_DIM (OUT_TILE_DIM + 2)

// in[i][j][k] if (i, j, k) lies in the grid, else 0 (a ghost cell).
__device__ __forceinline__ float load_or_zero(const float *in, int i, int j, int k, int n)
{
    return i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n ? in[LAB_INDEX(i, j, k, n)] : 0.0f;
}

template <int OUT>
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float in_s[OUT + 2][OUT + 2][OUT + 2];
    int n = (int)N;
    int x = threadIdx.x + 1, y = threadIdx.y + 1, z = threadIdx.z + 1;  // position in the input tile
    int k = (int)blockIdx.x * OUT + x, j = (int)blockIdx.y * OUT + y, i = (int)blockIdx.z * OUT + z;
    in_s[z][y][x] = load_or_zero(in, i, j, k, n);
    if (x == 1)
        in_s[z][y][0] = load_or_zero(in, i, j, k - 1, n);
    if (x == OUT)
        in_s[z][y][OUT + 1] = load_or_zero(in, i, j, k + 1, n);
    if (y == 1)
        in_s[z][0][x] = load_or_zero(in, i, j - 1, k, n);
    if (y == OUT)
        in_s[z][OUT + 1][x] = load_or_zero(in, i, j + 1, k, n);
    if (z == 1)
        in_s[0][y][x] = load_or_zero(in, i - 1, j, k, n);
    if (z == OUT)
        in_s[OUT + 1][y][x] = load_or_zero(in, i + 1, j, k, n);
    __syncthreads();
    if (i <= n - 2 && j <= n - 2 && k <= n - 2)
        out[LAB_INDEX(i, j, k, N)] = c0 * in_s[z][y][x]
                                   + c1 * in_s[z][y][x - 1] + c2 * in_s[z][y][x + 1]
                                   + c3 * in_s[z][y - 1][x] + c4 * in_s[z][y + 1][x]
                                   + c5 * in_s[z - 1][y][x] + c6 * in_s[z + 1][y][x];
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = N > 2 ? (N - 2 + OUT_TILE_DIM - 1) / OUT_TILE_DIM : 1;
    dim3 block(OUT_TILE_DIM, OUT_TILE_DIM, OUT_TILE_DIM);
    dim3 grid(tiles, tiles, tiles);
    stencil_kernel<OUT_TILE_DIM><<<grid, block>>>(d_in, d_out, N);
}
