// VARIANT: a large 3D tile in DYNAMIC shared memory above the default 48 KiB:
// the output tile is 32 x 32 x 12 points, its input tile 34 x 34 x 14 floats
// = 64736 B, so the launch function first raises the kernel's limit with
// cudaFuncSetAttribute(stencil_kernel,
// cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) (what the CUDA
// programming guide says a kernel needs for more than 48 KiB on Volta and
// later), then launches with that dynamic size. The block is one 32x32
// plane of the output tile (1024 threads): it loads the whole input tile,
// halo included, in a strided loop over the tile's cells, waits once, then
// each thread loops over the 12 output planes of its column. OP/B
// 13*32*32*12/(4*34*34*14) = 2.47. Correct: tiles start at multiples of the
// output tile per axis (tile 0 at the boundary layer 0, which is skipped),
// the grid rounds up per axis, every tile cell is written (ghost cells 0)
// before the barrier, and each thread computes its column's interior
// points from shared memory only. It is the lab's technique (a 3D input
// tile with its halo in shared memory); the block is a plane of the output
// tile.
// Expected: every case passes and the technique line too.
#include "lab.h"

#define OUT_X 32                            // output tile: 32 x 32 x 12
#define OUT_Z 12
#define IN_TILE_DIM (OUT_X + 2)             // input tile: 34 x 34 x 14 (the OP/B model reads it as a cube)
#define OUT_TILE_DIM OUT_X
#define IN_Z (OUT_Z + 2)
#define TILE_FLOATS (IN_TILE_DIM * IN_TILE_DIM * IN_Z)
#define TILE(z, y, x) tile[((z) * IN_TILE_DIM + (y)) * IN_TILE_DIM + (x)]

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    extern __shared__ float tile[];
    int n = (int)N;
    int k0 = (int)blockIdx.x * OUT_X - 1, j0 = (int)blockIdx.y * OUT_X - 1, i0 = (int)blockIdx.z * OUT_Z - 1;
    int t = (int)(threadIdx.y * blockDim.x + threadIdx.x), threads = (int)(blockDim.x * blockDim.y);
    for (int c = t; c < TILE_FLOATS; c += threads) {
        int x = c % IN_TILE_DIM, y = (c / IN_TILE_DIM) % IN_TILE_DIM, z = c / (IN_TILE_DIM * IN_TILE_DIM);
        int i = i0 + z, j = j0 + y, k = k0 + x;
        tile[c] = i >= 0 && i < n && j >= 0 && j < n && k >= 0 && k < n ? in[LAB_INDEX(i, j, k, N)] : 0.0f;
    }
    __syncthreads();
    int x = (int)threadIdx.x + 1, y = (int)threadIdx.y + 1;
    int j = j0 + y, k = k0 + x;
    if (j < 1 || j > n - 2 || k < 1 || k > n - 2)
        return;  // after the only barrier
    for (int z = 1; z <= OUT_Z; z++) {
        int i = i0 + z;
        if (i < 1)
            continue;  // plane 0 of the first tile is the grid's boundary
        if (i > n - 2)
            break;
        out[LAB_INDEX(i, j, k, N)] = c0 * TILE(z, y, x)
                                   + c1 * TILE(z, y, x - 1) + c2 * TILE(z, y, x + 1)
                                   + c3 * TILE(z, y - 1, x) + c4 * TILE(z, y + 1, x)
                                   + c5 * TILE(z - 1, y, x) + c6 * TILE(z + 1, y, x);
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    size_t bytes = TILE_FLOATS * sizeof(float);
    cudaFuncSetAttribute(stencil_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    dim3 block(OUT_X, OUT_X, 1);
    dim3 grid((N + OUT_X - 1) / OUT_X, (N + OUT_X - 1) / OUT_X, (N + OUT_Z - 1) / OUT_Z);
    stencil_kernel<<<grid, block, bytes>>>(d_in, d_out, N);
}
