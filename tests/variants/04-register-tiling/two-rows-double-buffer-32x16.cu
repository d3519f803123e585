// VARIANT: with two adjacent rows a thread (32x16 block on the 32x32 tile, grid laid out (tiles x, tiles y, z chunks) as the contract asks) and a DOUBLE-BUFFERED shared plane (2 x 32x32 floats, 8 KB) so each step needs one barrier: step s reads buffer s&1 and stores plane i+1 into buffer (s+1)&1, which nobody reads before the next barrier. All four in-plane neighbours from shared memory, z neighbours in registers.
#include "lab.h"

#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 2)

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float buf_s[2][IN_TILE_DIM][IN_TILE_DIM];
    const int n = (int)N;
    const int x = threadIdx.x;
    const int k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    const int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    float prev[2], cur[2], next[2];
    int row[2], jj[2];
    bool col[2], comp[2];
    for (int r = 0; r < 2; r++) {
        row[r] = 2 * (int)threadIdx.y + r;
        jj[r] = (int)blockIdx.y * OUT_TILE_DIM + row[r] - 1;
        col[r] = k >= 0 && k < n && jj[r] >= 0 && jj[r] < n;
        comp[r] = x >= 1 && x <= IN_TILE_DIM - 2 && row[r] >= 1 && row[r] <= IN_TILE_DIM - 2 &&
                  k >= 1 && k <= n - 2 && jj[r] >= 1 && jj[r] <= n - 2;
        prev[r] = col[r] && iStart >= 1 && iStart - 1 < n ? in[LAB_INDEX(iStart - 1, jj[r], k, N)] : 0.0f;
        cur[r] = col[r] && iStart < n ? in[LAB_INDEX(iStart, jj[r], k, N)] : 0.0f;
        buf_s[0][row[r]][x] = cur[r];
    }
    int b = 0;
    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - 1; i++, b ^= 1) {
        for (int r = 0; r < 2; r++)
            next[r] = col[r] && i + 1 < n ? in[LAB_INDEX(i + 1, jj[r], k, N)] : 0.0f;
        __syncthreads();   // buffer b holds plane i; nobody reads buffer b^1 any more
        for (int r = 0; r < 2; r++) {
            const int y = row[r];
            if (comp[r] && i >= 1)
                out[LAB_INDEX(i, jj[r], k, N)] = c0 * cur[r]
                                               + c1 * buf_s[b][y][x - 1] + c2 * buf_s[b][y][x + 1]
                                               + c3 * buf_s[b][y - 1][x] + c4 * buf_s[b][y + 1][x]
                                               + c5 * prev[r] + c6 * next[r];
        }
        for (int r = 0; r < 2; r++) {
            prev[r] = cur[r];
            cur[r] = next[r];
            buf_s[b ^ 1][row[r]][x] = cur[r];
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM / 2)>>>(d_in, d_out, N);
}
