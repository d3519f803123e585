// grader/sandbox/sandbox.h — confines an untrusted process: rlimits, no
// capabilities, no_new_privs, Landlock, seccomp. Linux x86_64 and aarch64,
// libc and kernel headers only. See README.md in this folder.
//
// Use, in the trusted parent:
//     sandbox_protect_self();                 // before fork(): not dumpable
//     pid_t pid = fork();
//     if (pid == 0) {                         // the child, still kit code
//         if (sandbox_enter(&lim, path, why, sizeof why) != 0) _exit(126);
//         execve(path, argv, envp);           // the very pointer given above
//         _exit(127);
//     }
#ifndef STENCIL_SANDBOX_H
#define STENCIL_SANDBOX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sandbox_limits {
    unsigned cpu_seconds;                  // RLIMIT_CPU (0: leave as is)
    unsigned long long address_space_bytes;// RLIMIT_AS (0: leave as is)
    unsigned long long file_bytes;         // RLIMIT_FSIZE (0: leave as is)
    unsigned open_files;                   // RLIMIT_NOFILE (0: leave as is)
    int no_files;                          // 1: after exec the program may open no file at all (it is statically linked)
    const char *writable_dir;              // the one folder it may write in (Landlock), or NULL
    const char *const *readable_paths;     // NULL-terminated folders/files it may read (Landlock), or NULL: all
} sandbox_limits;

// Confines the calling process; call it in the child between fork() and execve(exec_path, ...).
// exec_path must be the very pointer later passed to execve. Returns 0, or -1 with a reason in why.
//
// In order: the rlimits of lim (never raised above the current hard limit)
// and RLIMIT_CORE 0; every capability dropped (bounding set where the process
// may, ambient, effective, permitted, inheritable); PR_SET_NO_NEW_PRIVS;
// Landlock where the kernel has it (no_files: nothing may be opened, only the
// file exec_path may be executed; otherwise readable_paths, or "/", readable
// and executable, writable_dir fully writable, exec_path executable); last a
// seccomp filter: an allow-list, everything else fails with EPERM (see
// sandbox.c for the list and why each entry is there). The caller must be
// single-threaded (it is, between fork and exec).
int sandbox_enter(const sandbox_limits *lim, const char *exec_path, char *why, size_t why_len);

// Makes the calling (trusted) process's memory unreadable to other processes of the same user:
// prctl(PR_SET_DUMPABLE, 0). Returns 0 or -1.
int sandbox_protect_self(void);

// 1 if sandbox_enter can confine a process's writes to the folder it names
// (Landlock is in this kernel and enabled), 0 if not.
int sandbox_confines_writes(void);

// A one-line description of what sandbox_enter applies on this machine (e.g. "seccomp, landlock ABI 7, rlimits, no capabilities"),
// for reports. Never fails. The text lives in a static buffer rewritten by each call.
const char *sandbox_describe(void);

#ifdef __cplusplus
}
#endif

#endif // STENCIL_SANDBOX_H
