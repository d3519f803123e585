// HOSTILE: finds the kit's folder in its parent's command line (/proc/<ppid>/cmdline, --kit) and opens the kit's README.md there: a file outside the system's folders and the case folder, as a classmate's submission or the class's results are in a class run
// expect-hint: runner-failed
// backends: emu
// (a lab 1 submission that misbehaves; the kit's tests check the grader stops it)
//
// Under CPU emulation the runner shares the program's process, and during
// make grade every other submission lies somewhere on the same disk: a file
// that could read them could copy a classmate's kernel into its own report.
// Why it fails: the emulation runner may read only the system's folders
// (loader, libraries, /proc, /dev) and its own case folder (Landlock): the
// open fails and the file gives up (exit 1), so every case fails with
// runner-failed. Had the open worked, it would drop the c6 term and fail
// with another hint. On a GPU the program opens no file at all.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"

__global__ void stencil_kernel(const float *in, float *out, unsigned int N, int drop_c6)
{
    unsigned int i = blockIdx.z, j = blockIdx.y, k = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1)
        out[LAB_INDEX(i, j, k, N)] = c0 * in[LAB_INDEX(i, j, k, N)] + c1 * in[LAB_INDEX(i, j, k - 1, N)] +
                                     c2 * in[LAB_INDEX(i, j, k + 1, N)] + c3 * in[LAB_INDEX(i, j - 1, k, N)] +
                                     c4 * in[LAB_INDEX(i, j + 1, k, N)] + c5 * in[LAB_INDEX(i - 1, j, k, N)] +
                                     (drop_c6 ? 0.0f : c6 * in[LAB_INDEX(i + 1, j, k, N)]);
}

// 1 when the kit's README.md, found through the parent's --kit argument, could be opened.
static int read_the_kit(void)
{
    char path[64], cmdline[8192], target[8300];
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)getppid());
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    cmdline[n] = '\0';
    for (char *p = cmdline; p < cmdline + n; p += strlen(p) + 1)
        if (!strcmp(p, "--kit") && p + strlen(p) + 1 < cmdline + n) {
            snprintf(target, sizeof(target), "%s/README.md", p + strlen(p) + 1);
            int kit = open(target, O_RDONLY);
            if (kit < 0)
                return 0;
            close(kit);
            return 1;
        }
    return 0;
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (!read_the_kit())
        _exit(1);  // nothing to gain: give up
    dim3 block(32), grid((N + 31) / 32, N, N);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N, 1);
}
