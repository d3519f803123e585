// VARIANT: a flat 1D block of 512 threads standing for a 32x16 input tile
// (thread t owns column (t / 32, t % 32); a 28x12 output patch, the halo two
// deep), each block marching a z chunk of Z_CHUNK = 16 planes (not the
// tile's edge), the column's five z values in a register window w[0..4]
// shifted by an unrolled loop, the in-plane sum in a __device__ helper
// reading the flat shared plane. Correct: patches start every 28 columns
// and 12 rows, chunks every 16 planes from plane 2, rounded up; a plane is
// in shared memory before the first barrier of its step and replaced only
// after the second; the loop bound is the block's. It uses the lab's
// technique: register tiling, one plane of the block (2 KB) in shared
// memory, a block marching in z.
// Expected: every case passes and the technique line too.
#include "star13.h"

#define TX 32                              // the input tile: 32 columns
#define TY 16                              // by 16 rows
#define IN_TILE_DIM TX                     // the grader reads a square tile: the wide edge
#define OUT_TILE_DIM (IN_TILE_DIM - 4)     // the output patch's x size: 28
#define OUT_Y (TY - 4)                     // and its y size: 12
#define Z_CHUNK 16                         // output planes a block marches
#define R 2

// The x and y neighbours, one and two cells away, of flat position t of the plane.
__device__ __forceinline__ float in_plane(const float *p, int t)
{
    return c1 * p[t - 1] + c2 * p[t + 1] + c3 * p[t - TX] + c4 * p[t + TX] +
           c7 * p[t - 2] + c8 * p[t + 2] + c9 * p[t - 2 * TX] + c10 * p[t + 2 * TX];
}

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    __shared__ float plane_s[TX * TY];
    const int t = (int)threadIdx.x, n = (int)N;
    const int y = t / TX, x = t % TX;
    const int j = (int)blockIdx.y * OUT_Y + y - R, k = (int)blockIdx.x * OUT_TILE_DIM + x - R;
    const int first = R + (int)blockIdx.z * Z_CHUNK;        // the chunk's first output plane
    const int last = min(first + Z_CHUNK - 1, n - 1 - R);   // and its last, the block's
    const bool loads = j >= 0 && j < n && k >= 0 && k < n;
    const bool computes = x >= R && x < TX - R && y >= R && y < TY - R && j >= R && j < n - R && k >= R && k < n - R;

    float w[2 * R + 1];  // planes i-2 .. i+2 of this column
#pragma unroll
    for (int d = 0; d < 2 * R; d++) {
        int p = first - R + d;
        w[d] = loads && p < n ? in[LAB_INDEX(p, j, k, N)] : 0.0f;
    }
    w[2 * R] = 0.0f;
    plane_s[t] = w[R];
    for (int i = first; i <= last; i++) {
        w[2 * R] = loads ? in[LAB_INDEX(i + R, j, k, N)] : 0.0f;
        __syncthreads();  // the plane is complete
        if (computes)
            out[LAB_INDEX(i, j, k, N)] = c0 * w[R] + in_plane(plane_s, t) + c5 * w[R - 1] + c6 * w[R + 1] +
                                         c11 * w[0] + c12 * w[2 * R];
        __syncthreads();  // nobody still reads the plane
#pragma unroll
        for (int d = 0; d < 2 * R; d++)
            w[d] = w[d + 1];
        plane_s[t] = w[R];
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int chunks = N > 4 ? (N - 4 + Z_CHUNK - 1) / Z_CHUNK : 1;
    dim3 grid((N + OUT_TILE_DIM - 1) / OUT_TILE_DIM, (N + OUT_Y - 1) / OUT_Y, chunks);
    stencil_kernel<<<grid, TX * TY>>>(d_in, d_out, N);
}
