// Lab 6 solution — a seven-point sweep at the copy limit. Instructors only.
//
// What it does, in the order the handout teaches it:
//   1. One thread owns FOUR consecutive x points of one row (a float4), so a
//      warp's loads and stores are 512-byte coalesced vector accesses and the
//      GPU issues a quarter of the load instructions of one point a thread.
//   2. The thread marches in z through a chunk of planes. The z neighbours
//      live in registers: each step loads only the next plane's float4 and
//      slides the previous and current ones down (PMPP §8.5's register
//      tiling, with no shared memory at all: the in-plane neighbours, the rows
//      j-1 and j+1 and the single floats at k-1 and k+4, are loaded through
//      the read-only path (__ldg) and mostly hit L1, since the warps of a
//      block load those rows for themselves anyway).
//   3. Results go out with streaming stores (__stcs): written once, never
//      read again, so they should not displace the input in L2.
//   4. __launch_bounds__(128) keeps the registers per thread low enough for
//      full occupancy; 32x4 threads = 128 float4 columns x 4 rows per block.
//   5. The z chunk follows the grid: 4 planes when a plane is small (1 MiB at
//      N = 512: many short chunks keep every SM busy, and the two extra
//      planes a chunk re-reads come from L2), 32 when a plane is large (64
//      MiB at 4096 x 4096: L2 cannot hold the re-read planes, so chunks are
//      made long).
// Measured on an H100 (tests/bench.sh): 93% of the copy limit at 512^3, 90%
// at 4096 x 4096 x 32 (standalone figures; the report prints the kit's own).
//
// Grids whose rows are not a multiple of 4 floats, or whose buffers are not
// 16-byte aligned, take a scalar kernel with the same z march.
#include <stdint.h>

#include "grid.h"

#define BLOCK_X 32        // float4 columns a block covers along x (128 points)
#define BLOCK_Y 4         // rows a block covers along y
#define SMALL_CHUNK 4     // planes a thread marches when a plane is small
#define LARGE_CHUNK 32    // ... and when it is large
#define LARGE_PLANE (4u << 20)  // points in a plane from which a plane counts as large (16 MiB)

static __device__ __forceinline__ float seven(float m, float xm, float xp, float ym, float yp, float zm, float zp)
{
    return c0 * m + c1 * xm + c2 * xp + c3 * ym + c4 * yp + c5 * zm + c6 * zp;
}

// Four points (k0 .. k0+3) of row j, planes i0 .. i0+chunk-1 (interior only).
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
sweep_vec4(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk)
{
    unsigned int k0 = 4 * (blockIdx.x * BLOCK_X + threadIdx.x);
    unsigned int j = blockIdx.y * BLOCK_Y + threadIdx.y + 1;
    unsigned int i0 = blockIdx.z * chunk + 1;
    if (k0 >= nx || j >= ny - 1 || i0 >= nz - 1)
        return;
    unsigned int iend = min(i0 + chunk, nz - 1);
    size_t plane = (size_t)nx * ny;
    const float *p = in + GRID_INDEX(i0, j, k0, ny, nx);
    float4 below = __ldg((const float4 *)(p - plane)), here = __ldg((const float4 *)p);
    bool inner = k0 >= 1 && k0 + 4 <= nx - 1;  // all four points interior: one vector store
    for (unsigned int i = i0; i < iend; i++, p += plane) {
        float4 above = __ldg((const float4 *)(p + plane));
        float4 up = __ldg((const float4 *)(p - nx)), down = __ldg((const float4 *)(p + nx));
        float left = k0 > 0 ? __ldg(p - 1) : 0.0f, right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
        float4 v;
        v.x = seven(here.x, left, here.y, up.x, down.x, below.x, above.x);
        v.y = seven(here.y, here.x, here.z, up.y, down.y, below.y, above.y);
        v.z = seven(here.z, here.y, here.w, up.z, down.z, below.z, above.z);
        v.w = seven(here.w, here.z, right, up.w, down.w, below.w, above.w);
        float *q = out + GRID_INDEX(i, j, k0, ny, nx);
        if (inner) {
            __stcs((float4 *)q, v);
        } else {  // the first and last column of a row are boundary: write only interior points
            float w[4] = {v.x, v.y, v.z, v.w};
            for (unsigned int t = 0; t < 4; t++)
                if (k0 + t >= 1 && k0 + t + 1 < nx)
                    __stcs(q + t, w[t]);
        }
        below = here;
        here = above;
    }
}

// The same march, one point a thread: for rows that are not whole float4s.
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
sweep_scalar(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk)
{
    unsigned int k = blockIdx.x * (4 * BLOCK_X) + threadIdx.y * BLOCK_X + threadIdx.x + 1;
    unsigned int i0 = blockIdx.z * chunk + 1;
    if (k >= nx - 1 || i0 >= nz - 1)
        return;
    unsigned int iend = min(i0 + chunk, nz - 1);
    size_t plane = (size_t)nx * ny;
    for (unsigned int j = blockIdx.y + 1; j < ny - 1; j += gridDim.y) {  // rows beyond a grid's 65535 limit
        const float *p = in + GRID_INDEX(i0, j, k, ny, nx);
        float below = __ldg(p - plane), here = __ldg(p);
        for (unsigned int i = i0; i < iend; i++, p += plane) {
            float above = __ldg(p + plane);
            __stcs(out + GRID_INDEX(i, j, k, ny, nx), seven(here, __ldg(p - 1), __ldg(p + 1), __ldg(p - nx), __ldg(p + nx), below, above));
            below = here;
            here = above;
        }
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    if (nx < 3 || ny < 3 || nz < 3)
        return;  // no interior point
    unsigned int chunk = (size_t)nx * ny >= LARGE_PLANE ? LARGE_CHUNK : SMALL_CHUNK;
    dim3 block(BLOCK_X, BLOCK_Y);
    bool vec = nx % 4 == 0 && ((uintptr_t)d_in % 16) == 0 && ((uintptr_t)d_out % 16) == 0;
    if (vec) {
        dim3 grid((nx / 4 + BLOCK_X - 1) / BLOCK_X, (ny - 2 + BLOCK_Y - 1) / BLOCK_Y, (nz - 2 + chunk - 1) / chunk);  // ny up to 262,000
        sweep_vec4<<<grid, block>>>(d_in, d_out, nx, ny, nz, chunk);
    } else {
        dim3 grid((nx - 2 + 4 * BLOCK_X - 1) / (4 * BLOCK_X), ny - 2 < 65535 ? ny - 2 : 65535, (nz - 2 + chunk - 1) / chunk);
        sweep_scalar<<<grid, block>>>(d_in, d_out, nx, ny, nz, chunk);
    }
}
