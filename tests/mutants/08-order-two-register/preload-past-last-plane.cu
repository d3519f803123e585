// MUTANT: the window's preload reads plane iStart+1 with no upper guard ("the last block starts inside the grid, so iStart+1 is too"), and launch_stencil returns early when N < 5. When N = 28m + 1 (29, 57, 85, 113, ...) the last z block starts at iStart = N-1 and reads a whole plane (N*N floats) past the end of in[]: an out-of-bounds read, unused. The emulator stops at it; on a GPU the plane past the grid is the kit's guard zone (a plane at least), read without complaint, and the output is right
// expect-hint: out-of-bounds
// backends: emu
#include "star13.h"

#define IN_TILE_DIM 32
#define OUT_TILE_DIM (IN_TILE_DIM - 4)
#define R 2

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    int n = (int)N;
    int iStart = (int)(blockIdx.z * OUT_TILE_DIM);
    int j = (int)(blockIdx.y * OUT_TILE_DIM + threadIdx.y) - R;
    int k = (int)(blockIdx.x * OUT_TILE_DIM + threadIdx.x) - R;
    int y = (int)threadIdx.y, x = (int)threadIdx.x;
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = j >= R && j < n - R && k >= R && k < n - R &&
                    y >= R && y < IN_TILE_DIM - R && x >= R && x < IN_TILE_DIM - R;
    float zm2 = 0.0f, zm1 = 0.0f, cur = 0.0f, zp1 = 0.0f;
    if (loads) {
        if (iStart >= 2) zm2 = in[LAB_INDEX(iStart - 2, j, k, N)];
        if (iStart >= 1) zm1 = in[LAB_INDEX(iStart - 1, j, k, N)];
        cur = in[LAB_INDEX(iStart, j, k, N)];
        zp1 = in[LAB_INDEX(iStart + 1, j, k, N)];   // BUG: no iStart + 1 < N test
    }
    inCurr_s[y][x] = cur;
    for (int i = iStart; i < iStart + OUT_TILE_DIM && i < n - R; i++) {
        float zp2 = loads && i + 2 < n ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i >= R)
            out[LAB_INDEX(i, j, k, N)] = c0 * cur
                                       + c1 * inCurr_s[y][x - 1] + c2 * inCurr_s[y][x + 1]
                                       + c3 * inCurr_s[y - 1][x] + c4 * inCurr_s[y + 1][x]
                                       + c5 * zm1 + c6 * zp1
                                       + c7 * inCurr_s[y][x - 2] + c8 * inCurr_s[y][x + 2]
                                       + c9 * inCurr_s[y - 2][x] + c10 * inCurr_s[y + 2][x]
                                       + c11 * zm2 + c12 * zp2;
        __syncthreads();
        zm2 = zm1; zm1 = cur; cur = zp1; zp1 = zp2;
        inCurr_s[y][x] = cur;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (N < 5)
        return;   // no interior point
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM, 1)>>>(d_in, d_out, N);
}
