// tests/unit/test_sandbox.c — grader/sandbox/ from the caller's side: a forked
// child confines itself with sandbox_enter() and reports, through its exit
// status, what it could still do (random limits, random file names; the seed
// is printed). tests/sandbox.sh attacks the sandbox from a program it execs;
// this file holds the calls' own contracts: the limits set, the one writable
// folder, no new process, no signal to the parent, and each refusal's reason,
// the kernel's own refusals included (a child fails one call of sandbox_enter's
// with a seccomp filter of its own before it calls it: each step's reason).
//
// Under the coverage build (-DSTENCIL_COVERAGE) a child writes its line counts
// before it ends: in Landlock mode it may write only beside this program, which
// is where the counts live, so the child is confined to that folder.
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "sandbox.h"

// What a confined child found wrong: one bit a broken promise, its exit status.
enum child_fault {
    FAULT_ENTER = 1 << 0,        // sandbox_enter refused
    FAULT_LIMITS = 1 << 1,       // an rlimit differs from the one asked for
    FAULT_WRITE_INSIDE = 1 << 2, // the writable folder could not be written
    FAULT_WRITE_OUTSIDE = 1 << 3,// a file outside the writable folder could be created
    FAULT_FORK = 1 << 4,         // a new process could be started
    FAULT_SIGNAL = 1 << 5,       // the parent could be signalled
    FAULT_OPEN = 1 << 6,         // no-files mode: a file could be opened
};

// Ends a forked child with status: writes its line counts first under the coverage build.
static void child_exit(int status)
{
#ifdef STENCIL_COVERAGE
    extern void __gcov_dump(void);
    __gcov_dump();
#endif
    _exit(status);
}

// Runs body(arg) in a forked child and returns its exit status (-1 if it was killed).
static int run_child(int (*body)(void *), void *arg)
{
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        child_exit(body(arg));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The folder this program lives in (where the coverage build keeps its counts), into dir.
static void program_folder(char *dir, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    assert_true(n > 0);
    exe[n] = '\0';
    snprintf(dir, len, "%s", dirname(exe));
}

// 1 if a new file can be created at path (it is removed again), 0 if not.
static int can_create(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return 0;
    close(fd);
    unlink(path);
    return 1;
}

// 1 if the resource's soft and hard limits are both value.
static int limit_is(int resource, unsigned long long value)
{
    struct rlimit now;
    return getrlimit(resource, &now) == 0 && now.rlim_cur == value && now.rlim_max == value;
}

typedef struct landlock_plan {
    sandbox_limits lim;      // what the child asks for
    char inside[PATH_MAX];   // a fresh name in the writable folder
    char outside[PATH_MAX];  // a fresh name outside it
} landlock_plan;

// The child of test_landlock_mode: confines itself and checks each promise; returns the faults found.
static int landlock_child(void *arg)
{
    landlock_plan *plan = arg;
    char why[256] = "";
    if (sandbox_enter(&plan->lim, "/bin/true", why, sizeof(why)) != 0)
        return FAULT_ENTER;
    int faults = 0;
    if (!limit_is(RLIMIT_CPU, plan->lim.cpu_seconds) || !limit_is(RLIMIT_NOFILE, plan->lim.open_files) ||
        !limit_is(RLIMIT_FSIZE, plan->lim.file_bytes) || !limit_is(RLIMIT_CORE, 0))
        faults |= FAULT_LIMITS;
    if (!can_create(plan->inside))
        faults |= FAULT_WRITE_INSIDE;
    if (sandbox_confines_writes() && can_create(plan->outside))
        faults |= FAULT_WRITE_OUTSIDE;
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    if (pid > 0)
        faults |= FAULT_FORK;
    if (kill(getppid(), 0) == 0 || errno != EPERM)
        faults |= FAULT_SIGNAL;
    return faults;
}

// Landlock mode with random limits: the limits hold, the one folder is writable, nothing else is, no fork, no signal out.
static void test_landlock_mode(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x5a11d);
    static landlock_plan plan;
    static char folder[PATH_MAX];
    program_folder(folder, sizeof(folder));
    memset(&plan, 0, sizeof(plan));
    plan.lim.cpu_seconds = 5 + rng_next(&r) % 60;
    plan.lim.open_files = 32 + rng_next(&r) % 200;
    plan.lim.file_bytes = (1ull << 20) + rng_next(&r) % (1ull << 24);
    plan.lim.writable_dir = folder;
    unsigned long long name = rng_next(&r);
    snprintf(plan.inside, sizeof(plan.inside), "%s/sandbox-inside-%llx", folder, name);
    snprintf(plan.outside, sizeof(plan.outside), "/tmp/stencil-sandbox-outside-%llx", name);
    printf("# landlock mode: cpu %u s, %u files, %llu bytes a file, writable %s\n", plan.lim.cpu_seconds,
           plan.lim.open_files, plan.lim.file_bytes, folder);
    assert_int_equal(run_child(landlock_child, &plan), 0);
    assert_int_equal(access(plan.inside, F_OK), -1);  // the child removed what it made
}

// The thread of no_files_child: confines itself with no files; returns the faults found (as a pointer).
static void *no_files_thread(void *arg)
{
    const char *target = arg;
    sandbox_limits lim = {.cpu_seconds = 10, .no_files = 1};
    char why[256] = "";
    if (sandbox_enter(&lim, "/bin/true", why, sizeof(why)) != 0)
        return (void *)(intptr_t)FAULT_ENTER;
    int fd = open(target, O_RDONLY);
    return (void *)(intptr_t)(fd >= 0 ? FAULT_OPEN : 0);
}

// The child of test_no_files_mode: confines one thread of its own with no
// files (Landlock and seccomp hold the calling thread), so that the child's
// unconfined first thread can still write the line counts; returns the faults found.
static int no_files_child(void *arg)
{
    pthread_t thread;
    void *faults = NULL;
    if (pthread_create(&thread, NULL, no_files_thread, arg) != 0 || pthread_join(thread, &faults) != 0)
        return FAULT_ENTER;
    return (int)(intptr_t)faults;
}

// No-files mode: a file that exists and is readable cannot be opened once confined.
static void test_no_files_mode(void **state)
{
    (void)state;
    char path[64];
    test_write_file(path, sizeof(path), "readable before the sandbox, not after\n");
    assert_int_equal(run_child(no_files_child, path), 0);
    unlink(path);
}

typedef struct refusal_plan {
    sandbox_limits lim;  // what the child asks for
    const char *program; // the exec path given (NULL: none)
    int pipe_fd;         // where the child writes sandbox_enter's reason
} refusal_plan;

// The child of the refusal tests: writes sandbox_enter's reason to the pipe; returns 0 if it refused, 1 if not.
static int refusal_child(void *arg)
{
    refusal_plan *plan = arg;
    char why[256] = "";
    int refused = sandbox_enter(&plan->lim, plan->program, why, sizeof(why)) != 0;
    ssize_t n = write(plan->pipe_fd, why, strlen(why));
    (void)n;
    return refused ? 0 : 1;
}

// Runs refusal_child for plan; asserts it refused, and returns its reason in why.
static void expect_refusal(refusal_plan *plan, char *why, size_t len)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    plan->pipe_fd = fds[1];
    assert_int_equal(run_child(refusal_child, plan), 0);
    close(fds[1]);
    ssize_t n = read(fds[0], why, len - 1);
    close(fds[0]);
    why[n > 0 ? n : 0] = '\0';
}

// No limits or no program: refused at once, with a reason that says so.
static void test_refuses_missing_arguments(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(sandbox_enter(NULL, "/bin/true", why, sizeof(why)), -1);
    assert_non_null(strstr(why, "no limits or no program"));
    refusal_plan plan = {.lim = {.cpu_seconds = 1}, .program = NULL};
    expect_refusal(&plan, why, sizeof(why));
    assert_non_null(strstr(why, "no limits or no program"));
}

// A writable folder that does not exist (a random name): refused, the reason naming the folder.
static void test_refuses_missing_folder(void **state)
{
    (void)state;
    if (!sandbox_confines_writes())
        skip();  // without Landlock the folder is never opened
    rng r;
    rng_init(&r, test_seed() ^ 0xf01de5);
    char missing[64], why[256];
    snprintf(missing, sizeof(missing), "/tmp/stencil-no-such-folder-%llx", (unsigned long long)rng_next(&r));
    refusal_plan plan = {.lim = {.writable_dir = missing}, .program = "/bin/true"};
    expect_refusal(&plan, why, sizeof(why));
    assert_non_null(strstr(why, "landlock: cannot open"));
    assert_non_null(strstr(why, missing));
}

// A readable path that does not exist: refused the same way, naming it.
static void test_refuses_missing_readable(void **state)
{
    (void)state;
    if (!sandbox_confines_writes())
        skip();
    char why[256];
    static const char *readable[] = {"/usr", "/no/such/readable/path", NULL};
    refusal_plan plan = {.lim = {.readable_paths = readable}, .program = "/bin/true"};
    expect_refusal(&plan, why, sizeof(why));
    assert_non_null(strstr(why, "/no/such/readable/path"));
}

// A program that does not exist (a random name): refused, the reason naming it (Landlock opens it to allow its exec).
static void test_refuses_missing_program(void **state)
{
    (void)state;
    if (!sandbox_confines_writes())
        skip();
    rng r;
    rng_init(&r, test_seed() ^ 0x9e0);
    char missing[64], why[256];
    snprintf(missing, sizeof(missing), "/tmp/stencil-no-such-program-%llx", (unsigned long long)rng_next(&r));
    refusal_plan plan = {.lim = {.cpu_seconds = 1}, .program = missing};
    expect_refusal(&plan, why, sizeof(why));
    assert_non_null(strstr(why, "landlock: cannot open"));
    assert_non_null(strstr(why, missing));
}

#ifndef SYS_landlock_create_ruleset  // C libraries older than the kernel: the numbers are the same on every architecture
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

// A value of injected_fault's arg: the descriptor sandbox_enter opens for the program's Landlock rule.
#define INJECT_RULE_FD 0xffffffffu

// One call of sandbox_enter's that a child makes fail with EPERM, and what sandbox_enter must then say.
typedef struct injected_fault {
    const char *name;    // the call and the step, for the test's output
    long nr;             // the system call that fails
    long nr_also;        // a second number that fails the same way (0: none)
    int arg;             // the argument compared (-1: every call of nr fails)
    uint32_t value;      // the low 32 bits that fail (INJECT_RULE_FD: the rule's descriptor)
    int needs_landlock;  // 1: the step exists only where the kernel has Landlock
    int needs_setpcap;   // 1: the step runs only where the process holds CAP_SETPCAP
    int refused;         // 1: sandbox_enter must refuse; 0: it must confine the child
    const char *text;    // what its reason (refused) or sandbox_describe (confined) must contain
} injected_fault;

static const injected_fault injected_faults[] = {
    {"prlimit64: the rlimits", SYS_prlimit64, 0, -1, 0, 0, 0, 1, "setrlimit: Operation not permitted"},
    {"capget: CAP_SETPCAP unknown", SYS_capget, 0, -1, 0, 0, 0, 0, "none held"},
    {"prctl PR_CAPBSET_DROP", SYS_prctl, 0, 0, PR_CAPBSET_DROP, 0, 1, 1, "PR_CAPBSET_DROP: Operation not permitted"},
    {"prctl PR_CAP_AMBIENT", SYS_prctl, 0, 0, PR_CAP_AMBIENT, 0, 0, 1, "clearing the ambient capabilities"},
    {"capset", SYS_capset, 0, -1, 0, 0, 0, 1, "capset: Operation not permitted"},
    {"prctl PR_SET_NO_NEW_PRIVS", SYS_prctl, 0, 0, PR_SET_NO_NEW_PRIVS, 0, 0, 1, "no_new_privs: Operation not permitted"},
    {"landlock ABI probe: no Landlock", SYS_landlock_create_ruleset, 0, 2, 1, 1, 0, 0, "no landlock"},
    {"landlock_create_ruleset", SYS_landlock_create_ruleset, 0, 2, 0, 1, 0, 1, "landlock_create_ruleset (ABI"},
    {"fstat of the rule's path", SYS_newfstatat, SYS_fstat, 0, INJECT_RULE_FD, 1, 0, 1, "landlock: rule for /bin/true"},
    {"landlock_add_rule", SYS_landlock_add_rule, 0, -1, 0, 1, 0, 1, "landlock: rule for /bin/true"},
    {"landlock_restrict_self", SYS_landlock_restrict_self, 0, -1, 0, 1, 0, 1, "landlock_restrict_self: Operation not permitted"},
    {"prctl PR_SET_SECCOMP", SYS_prctl, 0, 0, PR_SET_SECCOMP, 0, 0, 1, "seccomp: Operation not permitted"},
};

// Installs a filter on the calling process that fails fault's call with EPERM (no_new_privs first). Returns 0 or -1.
static int inject_fault(const injected_fault *fault, uint32_t value)
{
    uint32_t low = (uint32_t)offsetof(struct seccomp_data, args) + 8u * (uint32_t)(fault->arg < 0 ? 0 : fault->arg);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    low += 4;
#endif
    struct sock_filter insn[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)fault->nr, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(fault->nr_also ? fault->nr_also : fault->nr), 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low),
        fault->arg < 0 ? (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0)
                       : (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog = {sizeof(insn) / sizeof(insn[0]), insn};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

// The lowest descriptor but one that is free: the one the program's Landlock rule opens (the ruleset takes the lowest).
static uint32_t rule_descriptor(void)
{
    int ruleset = open("/dev/null", O_RDONLY);
    int rule = open("/dev/null", O_RDONLY);
    close(ruleset);
    close(rule);
    return (uint32_t)rule;
}

static char folder_for_faults[PATH_MAX]; // the children's writable folder, where the line counts live

typedef struct fault_plan {
    const injected_fault *fault; // the call that fails
    sandbox_limits lim;          // what the child asks for
    int pipe_fd;                 // where the child writes the reason, or the description once confined
} fault_plan;

// The child of test_kernel_refusals: fails one call, describes, confines itself; returns 0 if refused, 1 if confined, 2 if the fault could not be set.
static int fault_child(void *arg)
{
    fault_plan *plan = arg;
    uint32_t value = plan->fault->value == INJECT_RULE_FD ? rule_descriptor() : plan->fault->value;
    if (inject_fault(plan->fault, value) != 0)
        return 2;
    char described[256], why[256] = "";
    snprintf(described, sizeof(described), "%s", sandbox_describe());
    int refused = sandbox_enter(&plan->lim, "/bin/true", why, sizeof(why)) != 0;
    const char *text = refused ? why : described;
    ssize_t n = write(plan->pipe_fd, text, strlen(text));
    (void)n;
    return refused ? 0 : 1;
}

// 1 if this process holds CAP_SETPCAP (sandbox_enter then empties the bounding set).
static int holds_setpcap(void)
{
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3];
    return syscall(SYS_capget, &head, held) == 0 && ((held[0].effective >> CAP_SETPCAP) & 1);
}

// Each call sandbox_enter makes, failed by the kernel (a filter of the child's
// own): refused with the step and the error named, or (a probe failing) the
// child confined all the same and described as the kernel then looks (random limits).
static void test_kernel_refusals(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0xfa017);
    static fault_plan plan;
    program_folder(folder_for_faults, sizeof(folder_for_faults));
    for (size_t i = 0; i < sizeof(injected_faults) / sizeof(injected_faults[0]); i++) {
        const injected_fault *fault = &injected_faults[i];
        if ((fault->needs_landlock && !sandbox_confines_writes()) || (fault->needs_setpcap && !holds_setpcap())) {
            printf("# %s: not a step here (no Landlock or no CAP_SETPCAP)\n", fault->name);
            continue;
        }
        memset(&plan, 0, sizeof(plan));
        plan.fault = fault;
        plan.lim.cpu_seconds = 5 + rng_next(&r) % 60;
        plan.lim.open_files = 32 + rng_next(&r) % 200;
        plan.lim.writable_dir = folder_for_faults;
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        plan.pipe_fd = fds[1];
        int status = run_child(fault_child, &plan);
        close(fds[1]);
        char text[256];
        ssize_t n = read(fds[0], text, sizeof(text) - 1);
        close(fds[0]);
        text[n > 0 ? n : 0] = '\0';
        printf("# %s fails: %s: %s\n", fault->name, status == 0 ? "refused" : "confined", text);
        assert_int_equal(status, fault->refused ? 0 : 1);
        assert_non_null(strstr(text, fault->text));
    }
}

typedef struct clamp_plan {
    unsigned hard_files;     // the hard RLIMIT_NOFILE the child sets before it confines itself
    unsigned asked_files;    // the open files it then asks sandbox_enter for, more than hard_files
    char folder[PATH_MAX];   // its writable folder
} clamp_plan;

// The child of test_limits_never_raised: returns 0 if the limit stayed at the hard limit.
static int clamp_child(void *arg)
{
    clamp_plan *plan = arg;
    struct rlimit hard = {plan->hard_files, plan->hard_files};
    if (setrlimit(RLIMIT_NOFILE, &hard) != 0)
        return FAULT_LIMITS;
    sandbox_limits lim = {.open_files = plan->asked_files, .writable_dir = plan->folder};
    char why[256] = "";
    if (sandbox_enter(&lim, "/bin/true", why, sizeof(why)) != 0)
        return FAULT_ENTER;
    return limit_is(RLIMIT_NOFILE, plan->hard_files) ? 0 : FAULT_LIMITS;
}

// A limit above the current hard limit is lowered to it, never raised (random limits).
static void test_limits_never_raised(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0xc1a3);
    static clamp_plan plan;
    program_folder(plan.folder, sizeof(plan.folder));
    plan.hard_files = 64 + rng_next(&r) % 512;
    plan.asked_files = plan.hard_files + 1 + rng_next(&r) % 4096;
    printf("# hard limit %u files, %u asked\n", plan.hard_files, plan.asked_files);
    assert_int_equal(run_child(clamp_child, &plan), 0);
}

// The child of test_without_setpcap: gives up CAP_SETPCAP, then confines itself; returns the faults found.
static int without_setpcap_child(void *arg)
{
    const char *folder = arg;
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &head, held) != 0)
        return FAULT_ENTER;
    held[0].effective &= ~(1u << CAP_SETPCAP);
    held[0].permitted &= ~(1u << CAP_SETPCAP);
    if (syscall(SYS_capset, &head, held) != 0)
        return FAULT_ENTER;
    int described = strstr(sandbox_describe(), "none held") != NULL;
    sandbox_limits lim = {.cpu_seconds = 20, .writable_dir = folder};
    char why[256] = "";
    if (sandbox_enter(&lim, "/bin/true", why, sizeof(why)) != 0)
        return FAULT_ENTER;
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    return (pid > 0 ? FAULT_FORK : 0) | (described ? 0 : FAULT_LIMITS);
}

// Without CAP_SETPCAP (the bounding set cannot be emptied) the process is still confined, and the description says so.
static void test_without_setpcap(void **state)
{
    (void)state;
    static char folder[PATH_MAX];
    program_folder(folder, sizeof(folder));
    assert_int_equal(run_child(without_setpcap_child, folder), 0);
}

// The child of test_protect_self: returns 0 if the process is no longer dumpable.
static int protect_child(void *arg)
{
    (void)arg;
    return sandbox_protect_self() == 0 && prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : 1;
}

// sandbox_protect_self makes the caller non-dumpable; sandbox_describe names seccomp, Landlock's state and the capabilities.
static void test_protect_and_describe(void **state)
{
    (void)state;
    assert_int_equal(run_child(protect_child, NULL), 0);
    const char *text = sandbox_describe();
    printf("# sandbox here: %s\n", text);
    assert_non_null(strstr(text, "seccomp"));
    assert_non_null(strstr(text, sandbox_confines_writes() ? "landlock ABI" : "no landlock"));
    assert_non_null(strstr(text, "rlimits, no capabilities"));
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_landlock_mode),
        cmocka_unit_test(test_no_files_mode),
        cmocka_unit_test(test_refuses_missing_arguments),
        cmocka_unit_test(test_refuses_missing_folder),
        cmocka_unit_test(test_refuses_missing_readable),
        cmocka_unit_test(test_refuses_missing_program),
        cmocka_unit_test(test_limits_never_raised),
        cmocka_unit_test(test_without_setpcap),
        cmocka_unit_test(test_kernel_refusals),
        cmocka_unit_test(test_protect_and_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
