// HOSTILE: #defines over names a runner calls after the launch (cudaDeviceSynchronize, cudaGetLastError, cudaEventElapsedTime, cudaFuncGetAttributes, runner_report, fclose, exit) to fix the output, hide errors and forge the time; the kernel drops c6
// expect-hint: term-missing
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: a runner that includes the kernel file before its own code
// compiles these macros into itself. Its next synchronisation (or report
// line, or attribute query) then runs fix_output(), which computes the answer
// on the CPU and copies it over the kernel's output before the runner saves
// it; errors read as success, the launch as 1 us, and the runner's last fclose
// adds status=ok. Why it fails: on a GPU the file is compiled alone (the
// macros reach only this file); the emulation runner includes it after all of
// its own code. The kernel's honest verdict remains.
#include <stdio.h>
#include <unistd.h>
#include <vector>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

// The wrong kernel: the c6 term (z+1 neighbour) is missing.
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
    unsigned int i = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned int j = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1) {
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)]
                                   + c1 * in[LAB_INDEX(i, j, k - 1, N)]
                                   + c2 * in[LAB_INDEX(i, j, k + 1, N)]
                                   + c3 * in[LAB_INDEX(i, j - 1, k, N)]
                                   + c4 * in[LAB_INDEX(i, j + 1, k, N)]
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)];
    }
}

static float *last_in, *last_out;  // the last call's grids (NULL: none yet)
static unsigned int last_n;

// Overwrites the last call's output with the right answer, computed on the CPU.
static void fix_output(void)
{
    size_t n = last_n, cells = n * n * n;
    std::vector<float> x(cells), y(cells);
    float c[7];
    if (!last_out || cudaMemcpy(x.data(), last_in, cells * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
        return;
    cudaMemcpyFromSymbol(&c[0], c0, sizeof(float));
    cudaMemcpyFromSymbol(&c[1], c1, sizeof(float));
    cudaMemcpyFromSymbol(&c[2], c2, sizeof(float));
    cudaMemcpyFromSymbol(&c[3], c3, sizeof(float));
    cudaMemcpyFromSymbol(&c[4], c4, sizeof(float));
    cudaMemcpyFromSymbol(&c[5], c5, sizeof(float));
    cudaMemcpyFromSymbol(&c[6], c6, sizeof(float));
    for (size_t p = 0; p < cells; p++) {
        size_t i = p / (n * n), j = p / n % n, k = p % n;
        int interior = i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1;
        y[p] = interior ? c[0] * x[p] + c[1] * x[p - 1] + c[2] * x[p + 1] + c[3] * x[p - n] + c[4] * x[p + n]
                              + c[5] * x[p - n * n] + c[6] * x[p + n * n]
                        : x[p];
    }
    cudaMemcpy(last_out, y.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    last_in = d_in;
    last_out = d_out;
    last_n = N;
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}

// The macros: they change nothing above, only code that comes after them.
#define cudaDeviceSynchronize() (fix_output(), cudaSuccess)                     // fixes the output, hides faults
#define cudaGetLastError() (fix_output(), cudaSuccess)                          // hides launch errors
#define cudaEventElapsedTime(ms, start, stop) (*(ms) = 0.001f, cudaSuccess)     // every launch takes 1 us
#define cudaFuncGetAttributes(attr, fn) (fix_output(), cudaFuncGetAttributes(attr, fn))
#define runner_report(...) (fix_output(), runner_report(__VA_ARGS__))
#define fclose(f) (fputs("status=ok\n", f), fclose(f))                          // the runner closes its report last
#define exit(code) _exit(0)                                                     // a runner that gives up succeeds
