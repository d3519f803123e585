// HOSTILE: a static constructor reads the judge's in.bin; launch_stencil computes the answer on the CPU and cudaMemcpys it into d_out, the kernel computes nothing
// expect-hint: refused-call
// backends: gpu emu
// (both backends refuse host copies into and out of the kit's grids while the host function runs: the same words, protocol.h)
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: the input is on disk before the program starts, so the answer
// needs no GPU work; an empty kernel with the lab's launch shape keeps the
// launch records looking right. Why it fails: the student's program can open
// no file (the constructor finds nothing), and the executor refuses any
// cudaMemcpy from the host into the kit's grids, which this file always makes.
#include <dirent.h>
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

static float *stolen = NULL;  // the judge's input grid, read before main()
static size_t stolen_cells = 0;

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

__attribute__((constructor)) static void steal_input(void)
{
    std::string path = case_dir() + "/in.bin";
    FILE *f = fopen(path.c_str(), "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !(stolen = (float *)malloc(st.st_size + 1))) {
        if (f)
            fclose(f);
        return;
    }
    stolen_cells = fread(stolen, sizeof(float), st.st_size / sizeof(float), f);
    fclose(f);
}

// Registered and launched so that the launch records show one thread per
// output point; it computes nothing.
__global__ void stencil_kernel(float *in, float *out, unsigned int N)
{
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    size_t cells = (size_t)N * N * N;
    std::vector<float> answer(cells, 0.0f);
    float c[7];
    cudaMemcpyFromSymbol(&c[0], c0, sizeof(float));
    cudaMemcpyFromSymbol(&c[1], c1, sizeof(float));
    cudaMemcpyFromSymbol(&c[2], c2, sizeof(float));
    cudaMemcpyFromSymbol(&c[3], c3, sizeof(float));
    cudaMemcpyFromSymbol(&c[4], c4, sizeof(float));
    cudaMemcpyFromSymbol(&c[5], c5, sizeof(float));
    cudaMemcpyFromSymbol(&c[6], c6, sizeof(float));
    for (size_t p = 0; stolen_cells == cells && p < cells; p++) {
        size_t i = p / ((size_t)N * N), j = p / N % N, k = p % N;
        int interior = i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1;
        const float *x = stolen;
        answer[p] = interior ? c[0] * x[p] + c[1] * x[p - 1] + c[2] * x[p + 1] + c[3] * x[p - N] + c[4] * x[p + N]
                                   + c[5] * x[p - (size_t)N * N] + c[6] * x[p + (size_t)N * N]
                             : x[p];
    }
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
    cudaMemcpy(d_out, answer.data(), cells * sizeof(float), cudaMemcpyHostToDevice);  // the cheat: made on every call
}
