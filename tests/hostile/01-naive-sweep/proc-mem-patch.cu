// HOSTILE: a kernel that drops c6, plus host code (a constructor and launch_stencil) that opens its parent's and grandparent's /proc/<pid>/mem for writing, writes, and tries PTRACE_ATTACH
// expect-hint: term-missing
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: whoever can write into the grader's memory (the executor or the
// judge, the parent and grandparent) can patch its verdict. This file only
// proves the access, harmlessly: it writes back the byte it read at the start
// of the first mapping (read-only, so nothing else changes it) and detaches at
// once. Should any of it work, launch_stencil switches to the right kernel:
// the case then passes and the test fails loudly. Why it fails: the student's
// code runs confined (no ptrace, no /proc/<pid>/mem of another process).
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

static int escaped = 0;  // 1 once another process's memory was open to us

// The wrong kernel, unless the sandbox let us out: the c6 term (z+1 neighbour) is missing.
__global__ void stencil_kernel(float *in, float *out, unsigned int N, int whole)
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
                                   + c5 * in[LAB_INDEX(i - 1, j, k, N)]
                                   + (whole ? c6 * in[LAB_INDEX(i + 1, j, k, N)] : 0.0f);
    }
}

// The parent of pid, from /proc/<pid>/stat (0 if unreadable).
static pid_t parent_of(pid_t pid)
{
    char path[64], line[1024] = "";
    int ppid = 0;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f && fgets(line, sizeof(line), f) && strrchr(line, ')'))
        sscanf(strrchr(line, ')'), ") %*c %d", &ppid);
    if (f)
        fclose(f);
    return ppid;
}

// Tries to write into pid's memory and to trace it; sets escaped if either works.
static void try_patch(pid_t pid)
{
    char path[64], line[256] = "";
    unsigned long at = 0;
    unsigned char byte;
    if (pid <= 1)
        return;
    snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(path, "r");
    if (maps && fgets(line, sizeof(line), maps))
        sscanf(line, "%lx", &at);
    if (maps)
        fclose(maps);
    snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
    int fd = open(path, O_RDWR);
    if (fd >= 0) {
        escaped = 1;
        if (at && pread(fd, &byte, 1, (off_t)at) == 1 && pwrite(fd, &byte, 1, (off_t)at) == 1)
            fprintf(stderr, "hostile: wrote into the memory of process %d\n", (int)pid);
        close(fd);
    }
    if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) {
        escaped = 1;
        waitpid(pid, NULL, __WALL);
        ptrace(PTRACE_DETACH, pid, NULL, NULL);
        fprintf(stderr, "hostile: attached to process %d\n", (int)pid);
    }
}

__attribute__((constructor)) static void patch_early(void)
{
    try_patch(getppid());
    try_patch(parent_of(getppid()));
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    try_patch(getppid());
    try_patch(parent_of(getppid()));
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N, escaped);
}
