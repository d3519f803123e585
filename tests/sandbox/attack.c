// tests/sandbox/attack.c — a hostile program for grader/sandbox/: run
// confined by tests/sandbox/launcher.c, it first runs the positive controls a
// normal program needs (one line each, "CONTROL name: ok|BROKEN"), then tries
// every escape it knows (one line each, "ATTACK name: blocked|OPEN", the
// reason in parentheses), then a summary line "attack: done, ...".
// Exit status 0 only if every control worked and every attack was blocked.
//
// Built twice by tests/sandbox.sh: dynamically linked (run in Landlock mode,
// with a writable folder) and with -static (run in no-files mode, as the
// executor runs a student's program).
//
// usage: attack --mode=no-files|landlock [--landlock=0|1] [--secret-at=ADDR]
//               [--exec-path-at=ADDR] [--dir=PATH] [--outside=PATH] [--read=PATH]

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

extern char **environ;

typedef struct attack_env {
    int landlock_mode;        // 1: Landlock mode (files, one writable folder); 0: no-files mode
    int have_landlock;        // 1: the launcher says Landlock is in force on this kernel
    uintptr_t secret_at;      // address of a secret in the launcher's memory (0: unknown)
    uintptr_t exec_path_at;   // address of the launcher's exec_path string (0: unknown)
    const char *dir;          // the writable folder (Landlock mode)
    const char *outside;      // an existing file outside it, which must stay unwritable
    const char *read_target;  // a file that exists, to try reading in no-files mode
} attack_env;

enum { ATTACK_NOT_HERE = -1 }; // an attack's answer when this machine lacks what it needs

// Runs one attack; returns 1 if it was blocked, 0 if it got through, ATTACK_NOT_HERE, with what happened in detail.
typedef int (*attack_fn)(const attack_env *env, char *detail, size_t len);

enum { MODE_NO_FILES = 1, MODE_LANDLOCK = 2, MODE_BOTH = 3 };

typedef struct attack {
    const char *name;   // the name printed on its line
    int modes;          // MODE_* in which it is tried
    int needs_landlock; // 1: only Landlock can block it (skipped where the kernel has none)
    attack_fn run;      // the attempt
} attack;

// ---------------------------------------------------------------- helpers

// Returns 1 if rc is a refusal (-1 with err one of e1, e2), else 0; writes what happened into detail.
static int refused(long rc, int err, int e1, int e2, char *detail, size_t len)
{
    if (rc != -1) {
        snprintf(detail, len, "it succeeded, returned %ld", rc);
        return 0;
    }
    if (err == e1 || (e2 != 0 && err == e2)) {
        snprintf(detail, len, "%s", strerrorname_np(err));
        return 1;
    }
    snprintf(detail, len, "failed with %s, which is no refusal: the attack did not really run",
             strerrorname_np(err));
    return 0;
}

// Opens path (flags) and, if that works, reads from offset: returns 1 if the open was refused (EPERM/EACCES), else 0.
static int try_open_read(const char *path, int flags, off_t offset, char *detail, size_t len)
{
    char buf[32];
    int fd = open(path, flags);
    if (fd < 0)
        return refused(-1, errno, EPERM, EACCES, detail, len);
    ssize_t n = pread(fd, buf, sizeof(buf), offset);
    int err = errno;
    close(fd);
    if (n > 0)
        snprintf(detail, len, "opened %s and read %zd bytes", path, n);
    else
        snprintf(detail, len, "opened %s (the read then gave %s)", path, n < 0 ? strerrorname_np(err) : "nothing");
    return 0;
}

// ---------------------------------------------------------------- attacks: files

// Reads a file although no file may be opened (no-files mode).
static int attack_open_for_reading(const attack_env *env, char *detail, size_t len)
{
    return try_open_read(env->read_target, O_RDONLY, 0, detail, len);
}

// Opens an existing file outside the writable folder for writing (Landlock mode).
static int attack_write_outside(const attack_env *env, char *detail, size_t len)
{
    int fd = open(env->outside, O_WRONLY);
    int err = errno;
    if (fd >= 0)
        close(fd); // nothing written: the attack only shows that it could
    return refused(fd, err, EACCES, EPERM, detail, len);
}

// Creates a new file next to the outside file, outside the writable folder (Landlock mode).
static int attack_create_outside(const attack_env *env, char *detail, size_t len)
{
    char path[4096];
    const char *slash = strrchr(env->outside, '/');
    int dir_len = slash ? (int)(slash - env->outside) : 1;
    snprintf(path, sizeof(path), "%.*s/created-by-attack", dir_len, slash ? env->outside : ".");
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    int err = errno;
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    return refused(fd, err, EACCES, EPERM, detail, len);
}

// ---------------------------------------------------------------- attacks: the parent

// Reads the launcher's secret through /proc/<ppid>/mem.
static int attack_proc_mem(const attack_env *env, char *detail, size_t len)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/mem", (int)getppid());
    return try_open_read(path, O_RDONLY, (off_t)env->secret_at, detail, len);
}

// Reads the launcher's environment through /proc/<ppid>/environ.
static int attack_proc_environ(const attack_env *env, char *detail, size_t len)
{
    char path[64];
    (void)env;
    snprintf(path, sizeof(path), "/proc/%d/environ", (int)getppid());
    return try_open_read(path, O_RDONLY, 0, detail, len);
}

// Attaches to the launcher with ptrace (and lets it go again if that worked).
static int attack_ptrace(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    long rc = ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
    int err = errno;
    if (rc == 0) {
        ptrace(PTRACE_DETACH, getppid(), NULL, NULL);
        kill(getppid(), SIGCONT);
    }
    return refused(rc, err, EPERM, 0, detail, len);
}

// Copies the launcher's secret with process_vm_readv.
static int attack_process_vm_readv(const attack_env *env, char *detail, size_t len)
{
    char buf[32];
    struct iovec here = {buf, sizeof(buf)};
    struct iovec there = {(void *)env->secret_at, sizeof(buf)};
    long rc = process_vm_readv(getppid(), &here, 1, &there, 1, 0);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Signals the launcher (signal 0: nothing is delivered if it works).
static int attack_kill_parent(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    long rc = kill(getppid(), 0);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Signals every process it may (signal 0).
static int attack_kill_everyone(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    long rc = kill(-1, 0);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Asks for SIGIO to the launcher on a pipe (F_SETOWN): a signal that bypasses kill().
static int attack_fcntl_setown(const attack_env *env, char *detail, size_t len)
{
    int p[2];
    (void)env;
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(detail, len, "pipe2 failed (%s): the attack did not run", strerrorname_np(errno));
        return 0;
    }
    long rc = fcntl(p[0], F_SETOWN, (int)getppid());
    int err = errno;
    close(p[0]);
    close(p[1]);
    return refused(rc, err, EPERM, 0, detail, len);
}

// Reads the launcher's resource limits with prlimit (setting them could starve the judge).
static int attack_prlimit_parent(const attack_env *env, char *detail, size_t len)
{
    struct rlimit old;
    (void)env;
    long rc = prlimit(getppid(), RLIMIT_CPU, NULL, &old);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// ---------------------------------------------------------------- attacks: new processes, namespaces, privileges

// Forks a child (it would exit at once).
static int attack_fork(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    pid_t pid = fork();
    int err = errno;
    if (pid == 0)
        _exit(0);
    return refused(pid, err, EPERM, 0, detail, len);
}

// Starts a process with the raw clone3 syscall, whose flags seccomp cannot see.
static int attack_clone3(const attack_env *env, char *detail, size_t len)
{
    uint64_t args[8] = {0}; // struct clone_args, version 0: flags, pidfd, child_tid, parent_tid, exit_signal, ...
    (void)env;
    args[4] = SIGCHLD;
    long rc = syscall(SYS_clone3, args, sizeof(args));
    int err = errno;
    if (rc == 0)
        syscall(SYS_exit_group, 0);
    return refused(rc, err, ENOSYS, EPERM, detail, len);
}

// Starts a new session (a daemon's first step).
static int attack_setsid(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    long rc = setsid();
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Runs another program.
static int attack_execve(const attack_env *env, char *detail, size_t len)
{
    char *argv[] = {(char *)"/bin/true", NULL};
    (void)env;
    long rc = execve("/bin/true", argv, environ);
    return refused(rc, errno, EPERM, EACCES, detail, len); // EACCES: Landlock (no-files mode)
}

// Runs another program from a string placed at the very address the launcher's
// execve pointer had: seccomp compares pointers, so only Landlock (which lets
// only the launched program be executed) stops this one.
static int attack_execve_replayed_pointer(const attack_env *env, char *detail, size_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    void *base = (void *)(env->exec_path_at & ~(page - 1));
    if (env->exec_path_at == 0 ||
        mmap(base, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != base) {
        snprintf(detail, len, "could not map the address %#lx: the attack did not run", (unsigned long)env->exec_path_at);
        return 0;
    }
    char *path = (char *)env->exec_path_at;
    strcpy(path, "/bin/true");
    char *argv[] = {path, NULL};
    long rc = execve(path, argv, environ);
    int err = errno;
    munmap(base, 2 * page);
    return refused(rc, err, EACCES, EPERM, detail, len);
}

// Enters a new user namespace (the usual first step to capabilities).
static int attack_unshare_user(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    long rc = unshare(CLONE_NEWUSER);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Sends the NVIDIA driver's ioctl request 0xc020462a (RM control) to fd 0: reaching a GPU driver.
static int attack_gpu_ioctl(const attack_env *env, char *detail, size_t len)
{
    unsigned char arg[32] = {0};
    (void)env;
    long rc = ioctl(0, 0xc020462aUL, arg);
    return refused(rc, errno, EPERM, 0, detail, len); // unconfined, /dev/null answers ENOTTY
}

// Opens a GPU's device node (read-only: Landlock mode lets it read every file)
// and sends it the NVIDIA driver's RM-control ioctl; ATTACK_NOT_HERE without a GPU node.
static int attack_gpu_device(const attack_env *env, char *detail, size_t len)
{
    static const char *const nodes[] = {"/dev/nvidiactl", "/dev/nvidia0", "/dev/dri/renderD128", NULL};
    unsigned char arg[32] = {0};
    struct stat st;
    const char *const *node = nodes;
    (void)env;
    while (*node && stat(*node, &st) != 0)
        node++;
    if (!*node) {
        snprintf(detail, len, "no GPU device node here");
        return ATTACK_NOT_HERE;
    }
    int fd = open(*node, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return refused(-1, errno, EPERM, EACCES, detail, len);
    long rc = ioctl(fd, 0xc020462aUL, arg);
    int err = errno;
    close(fd);
    char what[256];
    int blocked = refused(rc, err, EPERM, EACCES, what, sizeof(what));
    snprintf(detail, len, "%s opened read-only; its ioctl: %s", *node, what);
    return blocked;
}

// Opens a socket of family (AF_UNIX or AF_INET).
static int attack_socket(int family, char *detail, size_t len)
{
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int err = errno;
    if (fd >= 0)
        close(fd);
    return refused(fd, err, EPERM, EACCES, detail, len);
}

// Opens a UNIX-domain socket.
static int attack_socket_unix(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    return attack_socket(AF_UNIX, detail, len);
}

// Opens an internet socket.
static int attack_socket_inet(const attack_env *env, char *detail, size_t len)
{
    (void)env;
    return attack_socket(AF_INET, detail, len);
}

// Raises RLIMIT_CORE's hard limit (0 in the sandbox): needs CAP_SYS_RESOURCE, which it must not have.
static int attack_raise_hard_rlimit(const attack_env *env, char *detail, size_t len)
{
    struct rlimit more = {1 << 20, 1 << 20};
    (void)env;
    long rc = setrlimit(RLIMIT_CORE, &more);
    return refused(rc, errno, EPERM, 0, detail, len);
}

// Maps 4 GiB although RLIMIT_AS is 1 GiB.
static int attack_exceed_rlimit_as(const attack_env *env, char *detail, size_t len)
{
    size_t size = (size_t)4 << 30;
    (void)env;
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    int err = errno;
    if (p != MAP_FAILED)
        munmap(p, size);
    return refused(p == MAP_FAILED ? -1 : 0, err, ENOMEM, 0, detail, len);
}

// Returns the hexadecimal value of the /proc/self/status field key (e.g. "CapEff:"), or -1 if absent.
static long long status_field(const char *status, const char *key, int base)
{
    const char *at = strstr(status, key);
    return at ? strtoll(at + strlen(key), NULL, base) : -1;
}

// Checks /proc/self/status: no capability held, no_new_privs set, seccomp filtering (Landlock mode: it may read files).
static int attack_capabilities_held(const attack_env *env, char *detail, size_t len)
{
    char status[8192];
    (void)env;
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, status, sizeof(status) - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0) {
        snprintf(detail, len, "cannot read /proc/self/status: the check did not run");
        return 0;
    }
    status[n] = '\0';
    long long eff = status_field(status, "CapEff:", 16), prm = status_field(status, "CapPrm:", 16);
    long long inh = status_field(status, "CapInh:", 16), amb = status_field(status, "CapAmb:", 16);
    long long bnd = status_field(status, "CapBnd:", 16), nnp = status_field(status, "NoNewPrivs:", 10);
    long long sec = status_field(status, "Seccomp:", 10);
    snprintf(detail, len, "CapEff %llx CapPrm %llx CapInh %llx CapAmb %llx CapBnd %llx NoNewPrivs %lld Seccomp %lld",
             eff, prm, inh, amb, bnd, nnp, sec);
    return eff == 0 && prm == 0 && inh == 0 && amb == 0 && nnp == 1 && sec == 2;
}

static const attack attacks[] = {
    {"open-file-for-reading", MODE_NO_FILES, 0, attack_open_for_reading},
    {"write-outside-writable-dir", MODE_LANDLOCK, 1, attack_write_outside},
    {"create-outside-writable-dir", MODE_LANDLOCK, 1, attack_create_outside},
    {"read-parent-proc-mem", MODE_BOTH, 0, attack_proc_mem},
    {"read-parent-proc-environ", MODE_BOTH, 0, attack_proc_environ},
    {"ptrace-attach-parent", MODE_BOTH, 0, attack_ptrace},
    {"process-vm-readv-parent", MODE_BOTH, 0, attack_process_vm_readv},
    {"kill-parent", MODE_BOTH, 0, attack_kill_parent},
    {"kill-everyone", MODE_BOTH, 0, attack_kill_everyone},
    {"fcntl-setown-parent", MODE_BOTH, 0, attack_fcntl_setown},
    {"prlimit-parent", MODE_BOTH, 0, attack_prlimit_parent},
    {"fork", MODE_BOTH, 0, attack_fork},
    {"clone3", MODE_BOTH, 0, attack_clone3},
    {"socket-unix", MODE_BOTH, 0, attack_socket_unix},
    {"socket-inet", MODE_BOTH, 0, attack_socket_inet},
    {"setsid", MODE_BOTH, 0, attack_setsid},
    {"execve-other-program", MODE_BOTH, 0, attack_execve},
    {"execve-replayed-pointer", MODE_NO_FILES, 1, attack_execve_replayed_pointer},
    {"gpu-ioctl", MODE_BOTH, 0, attack_gpu_ioctl},
    {"gpu-device", MODE_BOTH, 0, attack_gpu_device},
    {"unshare-user-namespace", MODE_BOTH, 0, attack_unshare_user},
    {"raise-hard-rlimit", MODE_BOTH, 0, attack_raise_hard_rlimit},
    {"exceed-rlimit-as", MODE_BOTH, 0, attack_exceed_rlimit_as},
    {"capabilities-held", MODE_LANDLOCK, 0, attack_capabilities_held},
};

// ---------------------------------------------------------------- controls

// Writes a line to stdout and flushes it.
static int control_write_stdout(const attack_env *env)
{
    (void)env;
    return printf("attack: stdout works\n") > 0 && fflush(stdout) == 0;
}

// Allocates and touches 100 MB.
static int control_malloc(const attack_env *env)
{
    size_t size = (size_t)100 << 20;
    (void)env;
    char *p = malloc(size);
    if (!p)
        return 0;
    memset(p, 1, size);
    int ok = p[size - 1] == 1;
    free(p);
    return ok;
}

// The thread's body: allocates (a thread arena) and returns its argument plus one.
static void *control_thread_body(void *arg)
{
    void *scratch = malloc(1 << 16);
    free(scratch);
    return (void *)((uintptr_t)arg + 1);
}

// Creates four threads and joins them.
static int control_threads(const attack_env *env)
{
    pthread_t t[4];
    int ok = 1;
    (void)env;
    for (uintptr_t i = 0; i < 4; i++)
        if (pthread_create(&t[i], NULL, control_thread_body, (void *)i) != 0)
            return 0;
    for (uintptr_t i = 0; i < 4; i++) {
        void *back = NULL;
        ok &= pthread_join(t[i], &back) == 0 && (uintptr_t)back == i + 1;
    }
    return ok;
}

// Sleeps one millisecond.
static int control_nanosleep(const attack_env *env)
{
    struct timespec ms = {0, 1000000};
    (void)env;
    return nanosleep(&ms, NULL) == 0;
}

// Draws 16 random bytes.
static int control_getrandom(const attack_env *env)
{
    unsigned char buf[16];
    (void)env;
    return getrandom(buf, sizeof(buf), 0) == (ssize_t)sizeof(buf);
}

static volatile sig_atomic_t control_signal_seen; // set by control_signal_handler

// Notes that the signal arrived.
static void control_signal_handler(int sig)
{
    control_signal_seen = sig;
}

// Sends itself SIGUSR1 (raise: tgkill to its own pid) and sees the handler run.
static int control_signal_self(const attack_env *env)
{
    struct sigaction sa;
    (void)env;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = control_signal_handler;
    if (sigaction(SIGUSR1, &sa, NULL) != 0 || raise(SIGUSR1) != 0)
        return 0;
    return control_signal_seen == SIGUSR1 && kill(getpid(), 0) == 0;
}

// Asks stdout whether it is a terminal (TCGETS): allowed, so the answer is a terminal's or ENOTTY, never EPERM.
static int control_isatty_ioctl(const attack_env *env)
{
    unsigned char termios[256];
    (void)env;
    return ioctl(1, TCGETS, termios) == 0 || errno == ENOTTY;
}

// Creates, writes, lists and removes a file in the writable folder (Landlock mode).
static int control_write_in_dir(const attack_env *env)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/written-by-attack", env->dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return 0;
    int ok = write(fd, "x", 1) == 1;
    close(fd);
    DIR *d = opendir(env->dir);
    int listed = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        listed |= strcmp(e->d_name, "written-by-attack") == 0;
    if (d)
        closedir(d);
    return ok && listed && unlink(path) == 0;
}

// Reads a file outside the writable folder (Landlock mode: everything is readable).
static int control_read_file(const attack_env *env)
{
    char buf[16];
    int fd = open(env->read_target, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof(buf));
    close(fd);
    return n > 0;
}

typedef struct control {
    const char *name;                   // the name printed on its line
    int modes;                          // MODE_* in which it runs
    int (*run)(const attack_env *env);  // returns 1 if it worked
} control;

static const control controls[] = {
    {"write-stdout", MODE_BOTH, control_write_stdout},
    {"malloc-100MB", MODE_BOTH, control_malloc},
    {"pthread-create-join", MODE_BOTH, control_threads},
    {"nanosleep", MODE_BOTH, control_nanosleep},
    {"getrandom", MODE_BOTH, control_getrandom},
    {"signal-to-self", MODE_BOTH, control_signal_self},
    {"isatty-ioctl", MODE_BOTH, control_isatty_ioctl},
    {"write-in-writable-dir", MODE_LANDLOCK, control_write_in_dir},
    {"read-a-file", MODE_LANDLOCK, control_read_file},
};

// ---------------------------------------------------------------- main

// Fills env from the command line. Returns 0, or -1 after printing a usage line.
static int parse_args(int argc, char **argv, attack_env *env)
{
    memset(env, 0, sizeof(*env));
    env->read_target = "/etc/hostname";
    env->landlock_mode = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--mode=no-files") == 0 || strcmp(a, "--mode=landlock") == 0)
            env->landlock_mode = strcmp(a, "--mode=landlock") == 0;
        else if (strncmp(a, "--landlock=", 11) == 0)
            env->have_landlock = atoi(a + 11);
        else if (strncmp(a, "--secret-at=", 12) == 0)
            env->secret_at = (uintptr_t)strtoull(a + 12, NULL, 0);
        else if (strncmp(a, "--exec-path-at=", 15) == 0)
            env->exec_path_at = (uintptr_t)strtoull(a + 15, NULL, 0);
        else if (strncmp(a, "--dir=", 6) == 0)
            env->dir = a + 6;
        else if (strncmp(a, "--outside=", 10) == 0)
            env->outside = a + 10;
        else if (strncmp(a, "--read=", 7) == 0)
            env->read_target = a + 7;
    }
    if (env->landlock_mode < 0 || (env->landlock_mode && (!env->dir || !env->outside))) {
        fprintf(stderr, "usage: attack --mode=no-files|landlock [--landlock=0|1] [--secret-at=ADDR] [--exec-path-at=ADDR] [--dir=PATH --outside=PATH] [--read=PATH]\n");
        return -1;
    }
    return 0;
}

// Runs the controls of env's mode, one line each. Returns how many broke.
static int run_controls(const attack_env *env)
{
    int mode = env->landlock_mode ? MODE_LANDLOCK : MODE_NO_FILES, broken = 0;
    for (size_t i = 0; i < sizeof(controls) / sizeof(controls[0]); i++) {
        if (!(controls[i].modes & mode))
            continue;
        int ok = controls[i].run(env);
        broken += !ok;
        printf("CONTROL %s: %s\n", controls[i].name, ok ? "ok" : "BROKEN");
        fflush(stdout);
    }
    return broken;
}

// Runs the attacks of env's mode, one line each. Returns how many got through.
static int run_attacks(const attack_env *env)
{
    int mode = env->landlock_mode ? MODE_LANDLOCK : MODE_NO_FILES, open_count = 0;
    for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++) {
        char detail[512] = "";
        if (!(attacks[i].modes & mode))
            continue;
        if (attacks[i].needs_landlock && !env->have_landlock) {
            printf("ATTACK %s: SKIPPED (only Landlock stops it, and this kernel has no Landlock)\n", attacks[i].name);
            continue;
        }
        int blocked = attacks[i].run(env, detail, sizeof(detail));
        if (blocked == ATTACK_NOT_HERE) {
            printf("ATTACK %s: SKIPPED (%s)\n", attacks[i].name, detail);
            continue;
        }
        open_count += !blocked;
        printf("ATTACK %s: %s (%s)\n", attacks[i].name, blocked ? "blocked" : "OPEN", detail);
        fflush(stdout);
    }
    return open_count;
}

// Runs the controls, then the attacks; exits 0 only if every control worked and every attack was blocked.
int main(int argc, char **argv)
{
    attack_env env;
    if (parse_args(argc, argv, &env) != 0)
        return 2;
    int broken = run_controls(&env);
    int open_count = run_attacks(&env);
    printf("attack: done, %d controls broken, %d attacks open\n", broken, open_count);
    return broken == 0 && open_count == 0 ? 0 : 1;
}
