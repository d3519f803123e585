// HOSTILE: a kernel that drops c6, plus a constructor that tries to overwrite the kit's built programs (build/judge, build/gpu/*, build/emu/**/runner) and to create files in build/
// expect-hint: term-missing
// backends: gpu emu
// (a lab 1 submission that cheats; the kit's tests check the grader catches it)
//
// The attack: the kit's build/ folder holds the judge, the executor, the shim
// and the runners that later submissions (a whole class under make grade)
// are graded with; whoever can write there replaces them. The folder is found
// from this program's own path (/proc/self/exe) or the working directory.
// This file only proves the access, harmlessly: it opens files for writing
// without truncating or writing, and creates and removes a marker file.
// Should any of it work, launch_stencil switches to the right kernel: the
// case then passes and the test fails loudly. Why it fails: the student's
// code may write nowhere but (under emulation) its own case folder.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string>
#include "lab.h"

#define BLOCK_X 32  // threads along x (k): a whole warp on one row
#define BLOCK_Y 4   // threads along y (j)
#define BLOCK_Z 4   // threads along z (i)

static int escaped = 0;  // 1 once a file under build/ was open for writing

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

// Opens every file under dir (depth levels deep) for writing, until one opens.
static void try_files(const std::string &dir, int depth)
{
    DIR *d = opendir(dir.c_str());
    for (struct dirent *e; d && !escaped && (e = readdir(d));) {
        std::string path = dir + "/" + e->d_name;
        struct stat st;
        if (e->d_name[0] == '.' || lstat(path.c_str(), &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth > 0) {
            try_files(path, depth - 1);
        } else if (S_ISREG(st.st_mode)) {
            int fd = open(path.c_str(), O_WRONLY);  // no O_TRUNC: nothing changes
            if (fd >= 0) {
                escaped = 1;
                fprintf(stderr, "hostile: %s is open for writing\n", path.c_str());
                close(fd);
            }
        }
    }
    if (d)
        closedir(d);
}

// Tries the build/ folder that holds this program, and the one in the working directory.
__attribute__((constructor)) static void tamper(void)
{
    char exe[4096] = "", cwd[4096] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *at = strstr(exe, "/build/");
    std::string roots[2] = {at ? std::string(exe, at + 6) : "", getcwd(cwd, sizeof(cwd)) ? std::string(cwd) + "/build" : ""};
    for (const std::string &build : roots) {
        if (build.empty())
            continue;
        try_files(build, 4);
        std::string marker = build + "/hostile-tamper-build.marker";
        int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            escaped = 1;
            fprintf(stderr, "hostile: created %s\n", marker.c_str());
            close(fd);
            unlink(marker.c_str());
        }
    }
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    dim3 block(BLOCK_X, BLOCK_Y, BLOCK_Z);
    dim3 grid((N + BLOCK_X - 1) / BLOCK_X, (N + BLOCK_Y - 1) / BLOCK_Y, (N + BLOCK_Z - 1) / BLOCK_Z);
    stencil_kernel<<<grid, block>>>(d_in, d_out, N, escaped);
}
