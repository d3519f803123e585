// VARIANT: a block the size of the output tile, 16x16 threads, loading the
// 20x20 plane (halo two deep) in a strided loop into one of two shared
// buffers, alternately: one barrier a plane. The z values in registers.
#include "star13.h"

#define OUT_TILE_DIM 16
#define IN_TILE_DIM (OUT_TILE_DIM + 4)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    const int n = (int)N;
    const int i0 = (int)blockIdx.z * OUT_TILE_DIM;
    const int j0 = (int)blockIdx.y * OUT_TILE_DIM, k0 = (int)blockIdx.x * OUT_TILE_DIM;
    const int y = threadIdx.y, x = threadIdx.x, j = j0 + y, k = k0 + x;
    __shared__ float planes_s[2][IN_TILE_DIM][IN_TILE_DIM];  // double-buffered: one barrier a plane
    const bool mine = j < n && k < n;
    const bool computes = j >= 2 && j < n - 2 && k >= 2 && k < n - 2;
    float w[5];
    for (int d = -2; d <= 1; d++) {
        int p = i0 + d;
        w[d + 2] = mine && p >= 0 && p < n ? in[LAB_INDEX(p, j, k, N)] : 0.0f;
    }
    int b = 0;
    for (int i = i0; i < i0 + OUT_TILE_DIM && i < n - 2; i++, b ^= 1) {
        float (*plane_s)[IN_TILE_DIM] = planes_s[b];
        w[4] = mine && i + 2 < n ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        for (int t = y * OUT_TILE_DIM + x; t < IN_TILE_DIM * IN_TILE_DIM; t += OUT_TILE_DIM * OUT_TILE_DIM) {
            int ty = t / IN_TILE_DIM, tx = t % IN_TILE_DIM, jj = j0 + ty - 2, kk = k0 + tx - 2;
            bool own = ty >= 2 && ty < OUT_TILE_DIM + 2 && tx >= 2 && tx < OUT_TILE_DIM + 2;
            if (!own)  // the halo ring: from global memory
                plane_s[ty][tx] = jj >= 0 && jj < n && kk >= 0 && kk < n ? in[LAB_INDEX(i, jj, kk, N)] : 0.0f;
        }
        plane_s[y + 2][x + 2] = w[2];  // the patch itself: each thread's current value
        __syncthreads();
        if (computes && i >= 2) {
            const int sy = y + 2, sx = x + 2;
            out[LAB_INDEX(i, j, k, N)] = c0 * w[2] + c5 * w[1] + c6 * w[3] + c11 * w[0] + c12 * w[4]
                                       + c1 * plane_s[sy][sx - 1] + c2 * plane_s[sy][sx + 1] + c7 * plane_s[sy][sx - 2] + c8 * plane_s[sy][sx + 2]
                                       + c3 * plane_s[sy - 1][sx] + c4 * plane_s[sy + 1][sx] + c9 * plane_s[sy - 2][sx] + c10 * plane_s[sy + 2][sx];
        }
        for (int d = 0; d < 4; d++)
            w[d] = w[d + 1];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int t = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(t, t, t), dim3(OUT_TILE_DIM, OUT_TILE_DIM)>>>(d_in, d_out, N);
}
