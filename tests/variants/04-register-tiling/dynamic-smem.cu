// VARIANT: the shared plane in DYNAMIC shared memory: `extern __shared__
// float plane_s[]` of T*T floats (4 KB at T = 32), the size passed as the
// third launch parameter, indexed by hand. Otherwise Fig 8.12: a 32x32
// block marching 30 planes, z neighbours in registers. Correct: as the
// book's, with ghost cells and unused registers set to 0 and the loop
// bounded by the block's last interior plane. It uses the lab's technique:
// one T^2 plane in shared memory (dynamic: the launch record must count it).
// Expected: every case passes and the technique line too.
#include "lab.h"

#define IN_TILE_DIM 32                     // the grader reads this (OP/B model, technique)
#define OUT_TILE_DIM (IN_TILE_DIM - 2)     // and this

__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    extern __shared__ float plane_s[];
    int n = (int)N;
    int x = (int)threadIdx.x, y = (int)threadIdx.y, s = y * IN_TILE_DIM + x;
    int j = (int)blockIdx.y * OUT_TILE_DIM + y - 1, k = (int)blockIdx.x * OUT_TILE_DIM + x - 1;
    int iStart = (int)blockIdx.z * OUT_TILE_DIM;
    bool loads = j >= 0 && j < n && k >= 0 && k < n;
    bool computes = loads && x > 0 && x < IN_TILE_DIM - 1 && y > 0 && y < IN_TILE_DIM - 1 && j > 0 && j < n - 1 && k > 0 && k < n - 1;

    float prev = (loads && iStart > 0 && iStart - 1 < n) ? in[LAB_INDEX(iStart - 1, j, k, N)] : 0.0f;
    float curr = (loads && iStart < n) ? in[LAB_INDEX(iStart, j, k, N)] : 0.0f;
    plane_s[s] = curr;
    int iEnd = min(iStart + OUT_TILE_DIM, n - 1);
    for (int i = iStart; i < iEnd; i++) {
        float next = loads ? in[LAB_INDEX(i + 1, j, k, N)] : 0.0f;
        __syncthreads();
        if (computes && i > 0)
            out[LAB_INDEX(i, j, k, N)] = c0 * curr + c1 * plane_s[s - 1] + c2 * plane_s[s + 1]
                                       + c3 * plane_s[s - IN_TILE_DIM] + c4 * plane_s[s + IN_TILE_DIM]
                                       + c5 * prev + c6 * next;
        __syncthreads();
        prev = curr;
        curr = next;
        plane_s[s] = next;
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    unsigned int tiles = (N + OUT_TILE_DIM - 1) / OUT_TILE_DIM;
    size_t bytes = IN_TILE_DIM * IN_TILE_DIM * sizeof(float);
    stencil_kernel<<<dim3(tiles, tiles, tiles), dim3(IN_TILE_DIM, IN_TILE_DIM), bytes>>>(d_in, d_out, N);
}
