// HOSTILE: a kernel that drops c6, plus an atexit handler and a static destructor that rewrite the case folder (a right out.bin, guards included, and status=ok)
// expect-hint: term-missing
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: a runner that saves its results and then returns from main()
// runs the student's atexit handlers and static destructors afterwards; these
// replace out.bin with the answer computed on the CPU before the judge reads
// it. Why it fails: the emulation runner ends with _exit() (no handler or
// destructor runs), and on a GPU the student's program is ended by _exit()
// or SIGKILL and can open no file. The honest verdict of the kernel remains.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <string>
#include <vector>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)
#define GUARD_BITS 0x7F8A11EDu  // grader/protocol/protocol.h's guard cells, copied (the kit is public)
#define GUARD_MIN_FLOATS 4096
#define GUARD_ALIGN_FLOATS 64

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

static float coef[7];          // the coefficients, read back in launch_stencil
static unsigned int last_n;    // N of the last call (0: none yet)

// The case folder: the runner's --outdir argument, else the newest
// stencil-case-* folder under $TMPDIR or /tmp; "" when none can be read.
static std::string case_dir(void)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(args, 1, sizeof(args) - 1, f) : 0;
    if (f)
        fclose(f);
    args[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--outdir") && i + 9 < n)
            return args + i + 9;
    std::string best;
    time_t newest = 0;
    const char *roots[] = {getenv("TMPDIR"), "/tmp"};
    for (const char *root : roots) {
        DIR *d = root ? opendir(root) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            std::string dir = std::string(root) + "/" + e->d_name;
            struct stat st;
            if (!strncmp(e->d_name, "stencil-case-", 13) && stat((dir + "/in.bin").c_str(), &st) == 0 &&
                st.st_mtime >= newest)
                best = dir, newest = st.st_mtime;
        }
        if (d)
            closedir(d);
    }
    return best;
}

// Writes the right answer over out.bin, laid out as the runner saves it
// (guard | grid | guard), and appends status=ok to report.txt.
static void rewrite_case(void)
{
    size_t n = last_n, cells = n * n * n, guard = n * n > GUARD_MIN_FLOATS ? n * n : GUARD_MIN_FLOATS;
    guard = (guard + GUARD_ALIGN_FLOATS - 1) / GUARD_ALIGN_FLOATS * GUARD_ALIGN_FLOATS;
    std::string dir = case_dir();
    std::vector<float> x(cells), out(cells + 2 * guard);
    FILE *f = fopen((dir + "/in.bin").c_str(), "rb");
    size_t got = f ? fread(x.data(), sizeof(float), cells, f) : 0;
    if (f)
        fclose(f);
    if (n == 0 || got != cells)
        return;
    uint32_t g = GUARD_BITS;
    for (size_t q = 0; q < guard; q++) {
        memcpy(&out[q], &g, sizeof(g));
        memcpy(&out[guard + cells + q], &g, sizeof(g));
    }
    for (size_t p = 0; p < cells; p++) {
        size_t i = p / (n * n), j = p / n % n, k = p % n;
        int interior = i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1;
        out[guard + p] = interior ? coef[0] * x[p] + coef[1] * x[p - 1] + coef[2] * x[p + 1] + coef[3] * x[p - n]
                                        + coef[4] * x[p + n] + coef[5] * x[p - n * n] + coef[6] * x[p + n * n]
                                  : x[p];
    }
    if ((f = fopen((dir + "/out.bin").c_str(), "wb"))) {
        fwrite(out.data(), sizeof(float), out.size(), f);
        fclose(f);
    }
    if ((f = fopen((dir + "/report.txt").c_str(), "a"))) {
        fputs("status=ok\n", f);
        fclose(f);
    }
}

// Both ways to run after main(): a static object's destructor and an atexit handler.
static struct rewrite_on_destruction {
    ~rewrite_on_destruction() { rewrite_case(); }
} rewriter;

__attribute__((constructor)) static void arm(void)
{
    atexit(rewrite_case);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    cudaMemcpyFromSymbol(&coef[0], c0, sizeof(float));
    cudaMemcpyFromSymbol(&coef[1], c1, sizeof(float));
    cudaMemcpyFromSymbol(&coef[2], c2, sizeof(float));
    cudaMemcpyFromSymbol(&coef[3], c3, sizeof(float));
    cudaMemcpyFromSymbol(&coef[4], c4, sizeof(float));
    cudaMemcpyFromSymbol(&coef[5], c5, sizeof(float));
    cudaMemcpyFromSymbol(&coef[6], c6, sizeof(float));
    last_n = N;
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
}
