// tests/fakes/no_landlock.c — runs a program as on a kernel without Landlock,
// for tests/fake_gpu.sh: a seccomp filter makes landlock_create_ruleset fail
// with ENOSYS (what such a kernel answers) for the program and everything it
// starts; every other call is allowed. (The Landlock calls have the same
// numbers on every architecture, 444 to 446.)
//
// usage: no_landlock PROGRAM [ARG...]
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#define NO_LANDLOCK_CREATE_RULESET 444

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_landlock PROGRAM [ARG...]\n");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NO_LANDLOCK_CREATE_RULESET, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {(unsigned short)(sizeof(filter) / sizeof(filter[0])), filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        perror("no_landlock: the seccomp filter");
        return 2;
    }
    execvp(argv[1], argv + 1);
    perror("no_landlock: exec");
    return 127;
}
