// grader/sandbox/sandbox.c — confines an untrusted process between fork() and
// execve(): rlimits, no capabilities, no_new_privs, Landlock, seccomp-BPF.
// Linux x86_64 and aarch64; libc and kernel headers only (no libseccomp).
// Build: cc -std=c11 -D_GNU_SOURCE -c sandbox.c. The contract is in sandbox.h,
// the room's place in the grader in README.md.
//
// The order is fixed: rlimits (setting them needs nothing we are about to
// lose), capabilities, no_new_privs (Landlock and an unprivileged seccomp
// filter need it), Landlock (its syscalls must still be allowed), seccomp last.

#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_X86_64
#define SANDBOX_X32_SYSCALL_BIT 0x40000000u
#elif defined(__aarch64__)
#define SANDBOX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "grader/sandbox supports Linux x86_64 and aarch64 only"
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SANDBOX_ARG_LO 0 // offset of an argument's low 32 bits in seccomp_data.args[i]
#else
#define SANDBOX_ARG_LO 4
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000u
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_faccessat2
#define __NR_faccessat2 439
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

// Landlock's uapi, spelled out here: distributions ship older kernel headers
// than the kernels they run (Debian 12: 6.1 headers, no ABI 3 and later).
#define SANDBOX_LL_CREATE_RULESET_VERSION 1u
#define SANDBOX_LL_RULE_PATH_BENEATH 1
#define SANDBOX_LL_FS_EXECUTE (1ull << 0)
#define SANDBOX_LL_FS_WRITE_FILE (1ull << 1)
#define SANDBOX_LL_FS_READ_FILE (1ull << 2)
#define SANDBOX_LL_FS_READ_DIR (1ull << 3)
#define SANDBOX_LL_FS_ABI1 ((1ull << 13) - 1)    // EXECUTE .. MAKE_SYM, the rights of ABI 1
#define SANDBOX_LL_FS_REFER (1ull << 13)         // ABI 2
#define SANDBOX_LL_FS_TRUNCATE (1ull << 14)      // ABI 3
#define SANDBOX_LL_FS_IOCTL_DEV (1ull << 15)     // ABI 5
#define SANDBOX_LL_NET_TCP_ALL (3ull)            // BIND_TCP, CONNECT_TCP: ABI 4
#define SANDBOX_LL_SCOPE_ALL (3ull)              // ABSTRACT_UNIX_SOCKET, SIGNAL: ABI 6
#define SANDBOX_LL_FS_FILE_RIGHTS                                                          \
    (SANDBOX_LL_FS_EXECUTE | SANDBOX_LL_FS_WRITE_FILE | SANDBOX_LL_FS_READ_FILE |          \
     SANDBOX_LL_FS_TRUNCATE | SANDBOX_LL_FS_IOCTL_DEV)
#define SANDBOX_LL_KNOWN_ABI 7 // the newest ABI whose rights this file knows (7 added none)

typedef struct sandbox_ll_ruleset_attr {
    uint64_t handled_access_fs;  // filesystem rights the ruleset handles (ABI 1)
    uint64_t handled_access_net; // TCP bind/connect rights it handles (ABI 4)
    uint64_t scoped;             // IPC it scopes: abstract UNIX sockets, signals (ABI 6)
} sandbox_ll_ruleset_attr;

typedef struct __attribute__((packed)) sandbox_ll_path_beneath {
    uint64_t allowed_access; // rights granted on the path and beneath it
    int32_t parent_fd;       // an O_PATH descriptor of the folder or file
} sandbox_ll_path_beneath;

enum { SANDBOX_MAX_INSNS = 400 }; // the filter needs about 230 on x86_64, 200 on aarch64

typedef struct sandbox_bpf {
    struct sock_filter insn[SANDBOX_MAX_INSNS]; // the program so far
    unsigned len;                               // instructions used
    int overflow;                               // 1 if an instruction did not fit
} sandbox_bpf;

// ---------------------------------------------------------------- reasons

// Writes a printf-style reason into why (when there is room) and returns -1.
static int sandbox_fail(char *why, size_t why_len, const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

// ---------------------------------------------------------------- rlimits

// Lowers resource to value (soft and hard; never above the current hard limit), unless value is 0. Returns 0 or -1.
static int sandbox_limit(int resource, unsigned long long value)
{
    struct rlimit now;
    if (value == 0)
        return 0;
    if (getrlimit(resource, &now) != 0)
        return -1;
    if (now.rlim_max != RLIM_INFINITY && value > now.rlim_max)
        value = now.rlim_max;
    struct rlimit to = {(rlim_t)value, (rlim_t)value};
    return setrlimit(resource, &to);
}

// Applies lim's rlimits and RLIMIT_CORE 0 (no core file of a student's memory). Returns 0, or -1 with why.
static int sandbox_apply_rlimits(const sandbox_limits *lim, char *why, size_t why_len)
{
    struct rlimit no_core = {0, 0};
    if (sandbox_limit(RLIMIT_CPU, lim->cpu_seconds) != 0 ||
        sandbox_limit(RLIMIT_AS, lim->address_space_bytes) != 0 ||
        sandbox_limit(RLIMIT_FSIZE, lim->file_bytes) != 0 ||
        sandbox_limit(RLIMIT_NOFILE, lim->open_files) != 0 || setrlimit(RLIMIT_CORE, &no_core) != 0)
        return sandbox_fail(why, why_len, "setrlimit: %s", strerror(errno));
    return 0;
}

// ---------------------------------------------------------------- capabilities

// Returns 1 if the calling process holds CAP_SETPCAP (it may empty its bounding set), 0 if not.
static int sandbox_has_setpcap(void)
{
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &head, held) != 0)
        return 0;
    return (held[0].effective >> CAP_SETPCAP) & 1;
}

// Empties the bounding set. Without CAP_SETPCAP (an unprivileged user) it
// cannot and need not: with no_new_privs and an empty permitted set no exec
// gains a capability. Returns 0, or -1 if a drop that should work failed.
static int sandbox_drop_bounding_set(void)
{
    if (!sandbox_has_setpcap())
        return 0;
    for (int cap = 0; cap < 64; cap++) // up to 63: newer kernels than our headers know more
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return -1; // EINVAL: past the kernel's last capability
    return 0;
}

// Empties the bounding, ambient, effective, permitted and inheritable sets. Returns 0, or -1 with why.
static int sandbox_drop_capabilities(char *why, size_t why_len)
{
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
    memset(none, 0, sizeof(none));
    if (sandbox_drop_bounding_set() != 0)
        return sandbox_fail(why, why_len, "PR_CAPBSET_DROP: %s", strerror(errno));
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return sandbox_fail(why, why_len, "clearing the ambient capabilities: %s", strerror(errno));
    if (syscall(SYS_capset, &head, none) != 0)
        return sandbox_fail(why, why_len, "capset: %s", strerror(errno));
    return 0;
}

// ---------------------------------------------------------------- Landlock

// Returns the kernel's Landlock ABI version, or 0 where the kernel lacks Landlock or it is disabled.
static int sandbox_landlock_abi(void)
{
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, SANDBOX_LL_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

int sandbox_confines_writes(void)
{
    return sandbox_landlock_abi() > 0;
}

// Fills attr with every right ABI abi has (capped at the newest this file knows) and returns attr's size for that ABI.
static size_t sandbox_landlock_handled(int abi, sandbox_ll_ruleset_attr *attr)
{
    memset(attr, 0, sizeof(*attr));
    attr->handled_access_fs = SANDBOX_LL_FS_ABI1;
    if (abi >= 2)
        attr->handled_access_fs |= SANDBOX_LL_FS_REFER;
    if (abi >= 3)
        attr->handled_access_fs |= SANDBOX_LL_FS_TRUNCATE;
    if (abi >= 4)
        attr->handled_access_net = SANDBOX_LL_NET_TCP_ALL;
    if (abi >= 5)
        attr->handled_access_fs |= SANDBOX_LL_FS_IOCTL_DEV;
    if (abi >= 6)
        attr->scoped = SANDBOX_LL_SCOPE_ALL;
    if (abi >= 6)
        return sizeof(*attr);
    return abi >= 4 ? offsetof(sandbox_ll_ruleset_attr, scoped)
                    : offsetof(sandbox_ll_ruleset_attr, handled_access_net);
}

// Grants rights (within handled; file-only rights when path is not a folder) on path and beneath it. Returns 0, or -1 with why.
static int sandbox_landlock_allow(int ruleset, const char *path, uint64_t rights, uint64_t handled,
                                  char *why, size_t why_len)
{
    struct stat st;
    sandbox_ll_path_beneath rule;
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return sandbox_fail(why, why_len, "landlock: cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0)
        goto fail_close_fd;
    rule.allowed_access = rights & handled;
    if (!S_ISDIR(st.st_mode))
        rule.allowed_access &= SANDBOX_LL_FS_FILE_RIGHTS;
    rule.parent_fd = fd;
    if (syscall(__NR_landlock_add_rule, ruleset, SANDBOX_LL_RULE_PATH_BENEATH, &rule, 0) != 0)
        goto fail_close_fd;
    close(fd);
    return 0;
fail_close_fd:
    sandbox_fail(why, why_len, "landlock: rule for %s: %s", path, strerror(errno));
    close(fd);
    return -1;
}

// Adds lim's rules: exec_path executable; unless no_files, the readable paths (or "/") and writable_dir. Returns 0, or -1 with why.
static int sandbox_landlock_rules(int ruleset, uint64_t handled, const sandbox_limits *lim,
                                  const char *exec_path, char *why, size_t why_len)
{
    const uint64_t run = SANDBOX_LL_FS_READ_FILE | SANDBOX_LL_FS_EXECUTE;
    const uint64_t readable = run | SANDBOX_LL_FS_READ_DIR;
    // the kernel opens the program itself for execve: without this rule even that one execve fails
    if (sandbox_landlock_allow(ruleset, exec_path, run, handled, why, why_len) != 0)
        return -1;
    if (lim->no_files)
        return 0; // nothing else: after exec no file may be opened (seccomp refuses open too)
    if (!lim->readable_paths &&
        sandbox_landlock_allow(ruleset, "/", readable, handled, why, why_len) != 0)
        return -1;
    for (const char *const *p = lim->readable_paths; p && *p; p++)
        if (sandbox_landlock_allow(ruleset, *p, readable, handled, why, why_len) != 0)
            return -1;
    if (lim->writable_dir &&
        sandbox_landlock_allow(ruleset, lim->writable_dir, handled, handled, why, why_len) != 0)
        return -1;
    return 0;
}

// Restricts the process with a ruleset handling every right of the kernel's best ABI; carries on where there is no Landlock. Returns 0, or -1 with why.
static int sandbox_apply_landlock(const sandbox_limits *lim, const char *exec_path, char *why,
                                  size_t why_len)
{
    sandbox_ll_ruleset_attr attr;
    int abi = sandbox_landlock_abi();
    if (abi == 0)
        return 0; // kernel before 5.13 or Landlock not enabled: sandbox_describe says so
    size_t size = sandbox_landlock_handled(abi, &attr);
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0)
        return sandbox_fail(why, why_len, "landlock_create_ruleset (ABI %d): %s", abi, strerror(errno));
    if (sandbox_landlock_rules(ruleset, attr.handled_access_fs, lim, exec_path, why, why_len) != 0)
        goto fail_close_ruleset;
    if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) {
        sandbox_fail(why, why_len, "landlock_restrict_self: %s", strerror(errno));
        goto fail_close_ruleset;
    }
    close(ruleset);
    return 0;
fail_close_ruleset:
    close(ruleset);
    return -1;
}

// ---------------------------------------------------------------- seccomp: a tiny BPF assembler

// Appends one instruction to p (or marks p overflowed).
static void bpf_emit(sandbox_bpf *p, unsigned short code, uint32_t k, uint8_t jt, uint8_t jf)
{
    if (p->len == SANDBOX_MAX_INSNS) {
        p->overflow = 1;
        return;
    }
    p->insn[p->len++] = (struct sock_filter){code, jt, jf, k};
}

// Appends "return action".
static void bpf_ret(sandbox_bpf *p, uint32_t action)
{
    bpf_emit(p, BPF_RET | BPF_K, action, 0, 0);
}

// Appends "load the 32-bit word at offset of seccomp_data".
static void bpf_load(sandbox_bpf *p, uint32_t offset)
{
    bpf_emit(p, BPF_LD | BPF_W | BPF_ABS, offset, 0, 0);
}

// Returns the offset in seccomp_data of argument arg's low (hi = 0) or high (hi = 1) 32 bits.
static uint32_t bpf_arg(unsigned arg, int hi)
{
    return (uint32_t)(offsetof(struct seccomp_data, args) + 8u * arg +
                      (hi ? 4 - SANDBOX_ARG_LO : SANDBOX_ARG_LO));
}

// Appends "if the syscall number (in the accumulator) is nr, allow".
static void bpf_allow(sandbox_bpf *p, long nr)
{
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1);
    bpf_ret(p, SECCOMP_RET_ALLOW);
}

// Appends "if the syscall is nr: allow when the low 32 bits of argument arg
// are one of values[0..n), else EPERM". For int-sized arguments (pids,
// commands, flags) the kernel itself looks at the low 32 bits only.
static void bpf_allow_arg_in(sandbox_bpf *p, long nr, unsigned arg, const uint32_t *values, unsigned n)
{
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)(n + 3));
    bpf_load(p, bpf_arg(arg, 0));
    for (unsigned i = 0; i < n; i++)
        bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, values[i], (uint8_t)(n - i), 0);
    bpf_ret(p, SECCOMP_RET_ERRNO | EPERM);
    bpf_ret(p, SECCOMP_RET_ALLOW);
}

// Appends "if the syscall is nr: allow when the whole 64-bit argument arg equals value (a pointer), else EPERM".
static void bpf_allow_arg_is_pointer(sandbox_bpf *p, long nr, unsigned arg, uint64_t value)
{
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 6);
    bpf_load(p, bpf_arg(arg, 0));
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)value, 0, 3);
    bpf_load(p, bpf_arg(arg, 1));
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(value >> 32), 0, 1);
    bpf_ret(p, SECCOMP_RET_ALLOW);
    bpf_ret(p, SECCOMP_RET_ERRNO | EPERM);
}

// Appends "if the syscall is clone: allow when its flags have CLONE_THREAD (a thread, never a process) and no new namespace, else EPERM".
static void bpf_allow_clone_thread(sandbox_bpf *p)
{
    const uint32_t namespaces = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                                CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 5);
    bpf_load(p, bpf_arg(0, 0)); // clone's flags are its first argument on x86_64 and aarch64
    bpf_emit(p, BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 2);
    bpf_emit(p, BPF_JMP | BPF_JSET | BPF_K, namespaces, 1, 0);
    bpf_ret(p, SECCOMP_RET_ALLOW);
    bpf_ret(p, SECCOMP_RET_ERRNO | EPERM);
}

// ---------------------------------------------------------------- seccomp: the allow-list

// What every program may call: its own memory, its own signals and threads,
// time, and the descriptors it already has (statically and dynamically linked
// glibc and libstdc++, threads included, need these and nothing more).
static const long sandbox_always[] = {
    // descriptors it already holds (stdout, stderr, the executor's pipes)
    __NR_read, __NR_write, __NR_readv, __NR_writev, __NR_pread64, __NR_pwrite64, __NR_close,
    __NR_lseek, __NR_dup, __NR_dup3, __NR_pipe2,
    // metadata and names only, never contents: stdio asks fstat, glibc and
    // libstdc++ ask readlink("/proc/self/exe") and access() now and then
    __NR_fstat, __NR_newfstatat, __NR_statx, __NR_getcwd, __NR_readlinkat, __NR_faccessat,
    __NR_faccessat2,
    // its own memory: malloc, thread stacks, the dynamic loader
    __NR_mmap, __NR_munmap, __NR_mprotect, __NR_mremap, __NR_madvise, __NR_brk, __NR_membarrier,
    // its own signal handling (sending a signal is checked below)
    __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_sigaltstack,
    // threads: locks, thread start-up and exit (creating one is checked below)
    __NR_futex, __NR_set_robust_list, __NR_rseq, __NR_set_tid_address, __NR_exit,
    __NR_exit_group,
    // read-only questions about a thread: pthread_getattr_np asks the CPU set
    // of each thread by its tid; another process's robust list needs ptrace
    // rights, which it lacks
    __NR_sched_getaffinity, __NR_get_robust_list,
    // who and where it is: harmless facts
    __NR_getpid, __NR_gettid, __NR_getppid, __NR_getuid, __NR_geteuid, __NR_getgid,
    __NR_getegid, __NR_uname, __NR_sysinfo, __NR_getrlimit,
    // time, sleeping, waiting on its descriptors; restart_syscall resumes an
    // interrupted sleep (without it a stopped and continued sleep fails)
    __NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_clock_nanosleep,
    __NR_nanosleep, __NR_sched_yield, __NR_ppoll, __NR_pselect6, __NR_restart_syscall,
    // randomness (malloc, std::random_device)
    __NR_getrandom,
#ifdef __x86_64__
    // the old x86_64 names of the calls above; arch_prctl sets the TLS register
    __NR_poll, __NR_select, __NR_pipe, __NR_dup2, __NR_readlink, __NR_access, __NR_arch_prctl,
#endif
};

// What a program that may use files calls on top (Landlock decides which paths).
static const long sandbox_file_calls[] = {
    __NR_openat, __NR_openat2, __NR_mkdirat, __NR_unlinkat, __NR_renameat, __NR_renameat2,
    __NR_ftruncate, __NR_getdents64,
#ifdef __x86_64__
    __NR_open, __NR_mkdir, __NR_unlink, __NR_rename, __NR_rmdir,
#endif
};

// Appends the checks of the calls allowed with some arguments only; pid is the confined process's own.
static void bpf_allow_checked(sandbox_bpf *p, uint32_t pid, const char *exec_path)
{
    // signals to itself only (raise, abort, pthread_kill): never to the judge,
    // the executor or anyone (kill(0) or kill(-1) reach the parent too)
    const uint32_t self[] = {pid};
    // its own limits (0 and its pid mean itself): prlimit64 on the parent
    // could lower the judge's limits
    const uint32_t zero_or_self[] = {0, pid};
    // isatty() and the terminal size; every other ioctl (a GPU driver's) fails
    const uint32_t ioctls[] = {TCGETS, TIOCGWINSZ};
    // descriptor flags, duplication, locks; not F_SETOWN/F_SETSIG/F_SETOWN_EX:
    // SIGIO sent on a pipe's I/O can kill another process of the same user
    const uint32_t fcntls[] = {F_DUPFD,  F_DUPFD_CLOEXEC, F_GETFD,    F_SETFD,     F_GETFL,
                               F_SETFL,  F_GETLK,         F_SETLK,    F_SETLKW,    F_OFD_GETLK,
                               F_OFD_SETLK, F_OFD_SETLKW, F_GETPIPE_SZ};
    bpf_allow_arg_in(p, __NR_kill, 0, self, 1);
    bpf_allow_arg_in(p, __NR_tkill, 0, self, 1);
    bpf_allow_arg_in(p, __NR_tgkill, 0, self, 1); // the thread group; the kernel checks the thread is in it
    bpf_allow_arg_in(p, __NR_prlimit64, 0, zero_or_self, 2);
    bpf_allow_arg_in(p, __NR_ioctl, 1, ioctls, sizeof(ioctls) / sizeof(ioctls[0]));
    bpf_allow_arg_in(p, __NR_fcntl, 1, fcntls, sizeof(fcntls) / sizeof(fcntls[0]));
    // threads yes, processes no (fork, vfork, posix_spawn are clone without CLONE_THREAD)
    bpf_allow_clone_thread(p);
    // the one execve the caller makes: the filename pointer is the caller's own
    bpf_allow_arg_is_pointer(p, __NR_execve, 0, (uint64_t)(uintptr_t)exec_path);
    bpf_allow_arg_is_pointer(p, __NR_execveat, 1, (uint64_t)(uintptr_t)exec_path);
}

// Builds the whole filter into p: architecture check, clone3, the allow-lists, the checked calls, EPERM.
static void sandbox_build_filter(sandbox_bpf *p, int no_files, uint32_t pid, const char *exec_path)
{
    bpf_load(p, offsetof(struct seccomp_data, arch));
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_AUDIT_ARCH, 1, 0);
    bpf_ret(p, SECCOMP_RET_KILL_PROCESS); // another ABI's numbers (i386 int 0x80): nothing to match
    bpf_load(p, offsetof(struct seccomp_data, nr));
#ifdef __x86_64__
    bpf_emit(p, BPF_JMP | BPF_JGE | BPF_K, SANDBOX_X32_SYSCALL_BIT, 0, 1);
    bpf_ret(p, SECCOMP_RET_ERRNO | EPERM); // x32 numbers alias the x86_64 ones: refused
#endif
    // clone3 cannot be checked (its flags are in memory): ENOSYS makes glibc fall back to clone
    bpf_emit(p, BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1);
    bpf_ret(p, SECCOMP_RET_ERRNO | ENOSYS);
    for (size_t i = 0; i < sizeof(sandbox_always) / sizeof(sandbox_always[0]); i++)
        bpf_allow(p, sandbox_always[i]);
    for (size_t i = 0; !no_files && i < sizeof(sandbox_file_calls) / sizeof(sandbox_file_calls[0]); i++)
        bpf_allow(p, sandbox_file_calls[i]);
    bpf_allow_checked(p, pid, exec_path);
    // everything else: ptrace, process_vm_*, socket, setsid, unshare, mount, bpf, perf_event_open, ...
    bpf_ret(p, SECCOMP_RET_ERRNO | EPERM);
}

// Installs the seccomp filter; the process must already have no_new_privs. Returns 0, or -1 with why.
static int sandbox_apply_seccomp(const sandbox_limits *lim, const char *exec_path, char *why,
                                 size_t why_len)
{
    static sandbox_bpf prog; // static: 3 KB off the stack of a freshly forked child
    memset(&prog, 0, sizeof(prog));
    sandbox_build_filter(&prog, lim->no_files, (uint32_t)getpid(), exec_path);
    if (prog.overflow)
        return sandbox_fail(why, why_len, "seccomp: the filter needs more than %d instructions", SANDBOX_MAX_INSNS);
    struct sock_fprog fprog = {(unsigned short)prog.len, prog.insn};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0)
        return sandbox_fail(why, why_len, "seccomp: %s", strerror(errno));
    return 0;
}

// ---------------------------------------------------------------- the API

// Confines the calling process (see sandbox.h). Returns 0, or -1 with a reason in why.
int sandbox_enter(const sandbox_limits *lim, const char *exec_path, char *why, size_t why_len)
{
    if (!lim || !exec_path)
        return sandbox_fail(why, why_len, "sandbox_enter: no limits or no program given");
    if (sandbox_apply_rlimits(lim, why, why_len) != 0 || sandbox_drop_capabilities(why, why_len) != 0)
        return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return sandbox_fail(why, why_len, "no_new_privs: %s", strerror(errno));
    if (sandbox_apply_landlock(lim, exec_path, why, why_len) != 0)
        return -1;
    return sandbox_apply_seccomp(lim, exec_path, why, why_len);
}

// Makes the calling process non-dumpable (see sandbox.h). Returns 0 or -1.
int sandbox_protect_self(void)
{
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}

// Describes what sandbox_enter applies here, probing the kernel (see sandbox.h); the text is in a static buffer.
const char *sandbox_describe(void)
{
    static char text[200];
    int abi = sandbox_landlock_abi();
    char landlock[48];
    if (abi > SANDBOX_LL_KNOWN_ABI)
        snprintf(landlock, sizeof(landlock), "landlock ABI %d (rights of ABI %d)", abi, SANDBOX_LL_KNOWN_ABI);
    else if (abi > 0)
        snprintf(landlock, sizeof(landlock), "landlock ABI %d", abi);
    else
        snprintf(landlock, sizeof(landlock), "no landlock (this kernel lacks it)");
    const char *seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0
                              ? "seccomp"
                              : "no seccomp (this kernel lacks it: sandbox_enter fails)";
    const char *caps = sandbox_has_setpcap()
                           ? "no capabilities"
                           : "no capabilities (none held; bounding set kept, unreachable under no_new_privs)";
    snprintf(text, sizeof(text), "%s, %s, rlimits, %s", seccomp, landlock, caps);
    return text;
}
