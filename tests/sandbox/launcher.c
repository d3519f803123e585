// tests/sandbox/launcher.c — starts tests/sandbox/attack.c confined by
// grader/sandbox/, the way the judge and the executor start untrusted code:
// makes itself non-dumpable, forks, confines the child with sandbox_enter()
// and execs the attack program, then waits (30 s at most) and reports.
// It holds a secret in memory that the attack program tries to read.
//
// usage: launcher no-files ATTACK_PROGRAM [READ_TARGET]
//        launcher landlock ATTACK_PROGRAM WRITABLE_DIR OUTSIDE_FILE [READ_TARGET]
// Prints "launcher: sandbox: <what is applied>" and "launcher: the attack
// program exited with status N"; exits with N (1 if it was killed, 2 on bad
// usage or a failed fork).

#include "sandbox.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { LAUNCHER_TIMEOUT_MS = 30000 }; // the attack program needs well under a second

// What the attack program must not be able to read: it is passed its address.
static char launcher_secret[64] = "launcher secret: if you can read this, the sandbox leaks";

typedef struct launch_plan {
    int landlock_mode;        // 1: Landlock mode (writable folder); 0: no-files mode
    const char *program;      // the attack program
    const char *dir;          // the writable folder (Landlock mode)
    const char *outside;      // a file outside it (Landlock mode)
    const char *read_target;  // a file that exists, to try reading (NULL: the attack's default)
} launch_plan;

// Fills plan from the command line. Returns 0, or -1 after printing the usage.
static int parse_plan(int argc, char **argv, launch_plan *plan)
{
    memset(plan, 0, sizeof(*plan));
    if (argc >= 3 && strcmp(argv[1], "no-files") == 0) {
        plan->program = argv[2];
        plan->read_target = argc > 3 ? argv[3] : NULL;
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "landlock") == 0) {
        plan->landlock_mode = 1;
        plan->program = argv[2];
        plan->dir = argv[3];
        plan->outside = argv[4];
        plan->read_target = argc > 5 ? argv[5] : NULL;
        return 0;
    }
    fprintf(stderr, "usage: launcher no-files ATTACK_PROGRAM [READ_TARGET]\n"
                    "       launcher landlock ATTACK_PROGRAM WRITABLE_DIR OUTSIDE_FILE [READ_TARGET]\n");
    return -1;
}

// In the forked child: confines itself for plan and execs the attack program; never returns.
static void launch_child(const launch_plan *plan, int have_landlock)
{
    static char args[6][4200];
    char why[256] = "";
    const char *exec_path = plan->program; // the very pointer given to sandbox_enter and execve
    sandbox_limits lim = {
        .cpu_seconds = 10,
        .address_space_bytes = 1ull << 30,
        .file_bytes = 1 << 20,
        .open_files = 32,
        .no_files = !plan->landlock_mode,
        .writable_dir = plan->dir,
        .readable_paths = NULL,
    };
    snprintf(args[0], sizeof(args[0]), "--mode=%s", plan->landlock_mode ? "landlock" : "no-files");
    snprintf(args[1], sizeof(args[1]), "--landlock=%d", have_landlock);
    snprintf(args[2], sizeof(args[2]), "--secret-at=%p", (void *)launcher_secret);
    snprintf(args[3], sizeof(args[3]), "--exec-path-at=%p", (const void *)exec_path);
    snprintf(args[4], sizeof(args[4]), "--dir=%s", plan->dir ? plan->dir : "");
    snprintf(args[5], sizeof(args[5]), "--outside=%s", plan->outside ? plan->outside : "");
    char read_arg[4200];
    snprintf(read_arg, sizeof(read_arg), "--read=%s", plan->read_target ? plan->read_target : "/etc/hostname");
    char *argv[] = {(char *)exec_path, args[0], args[1], args[2], args[3], args[4], args[5], read_arg, NULL};
    char *envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"LC_ALL=C", NULL};
    if (sandbox_enter(&lim, exec_path, why, sizeof(why)) != 0) {
        fprintf(stderr, "launcher: cannot confine the attack program: %s\n", why);
        _exit(126);
    }
    execve(exec_path, argv, envp);
    fprintf(stderr, "launcher: cannot start %s: %s\n", exec_path, strerror(errno));
    _exit(127);
}

// Waits for pid at most LAUNCHER_TIMEOUT_MS, killing it then. Returns its wait status, or -1 if waitpid failed.
static int launch_wait(pid_t pid)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 10) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return status;
        if (done < 0 && errno != EINTR)
            return -1;
        if (waited_ms == LAUNCHER_TIMEOUT_MS) {
            fprintf(stderr, "launcher: the attack program ran past %d ms: killed\n", LAUNCHER_TIMEOUT_MS);
            kill(pid, SIGKILL);
        }
        nanosleep(&tick, NULL);
    }
}

// Prints how the child ended and whether the secret is intact. Returns the exit status to pass on.
static int launch_report(int status)
{
    int intact = strncmp(launcher_secret, "launcher secret:", 16) == 0;
    printf("launcher: secret in the launcher's memory intact: %s\n", intact ? "yes" : "NO");
    if (status >= 0 && WIFEXITED(status)) {
        printf("launcher: the attack program exited with status %d\n", WEXITSTATUS(status));
        return intact ? WEXITSTATUS(status) : 1;
    }
    if (status >= 0 && WIFSIGNALED(status))
        printf("launcher: the attack program was killed by signal %d (%s)\n", WTERMSIG(status),
               strsignal(WTERMSIG(status)));
    else
        printf("launcher: waiting for the attack program failed\n");
    return 1;
}

// Runs the attack program confined as the command line says and reports how it ended.
int main(int argc, char **argv)
{
    launch_plan plan;
    if (parse_plan(argc, argv, &plan) != 0)
        return 2;
    const char *applied = sandbox_describe();
    int have_landlock = strstr(applied, "landlock ABI") != NULL;
    printf("launcher: sandbox: %s\n", applied);
    // before the fork: no moment where the child is ours and we are readable
    if (sandbox_protect_self() != 0) {
        fprintf(stderr, "launcher: PR_SET_DUMPABLE failed: %s\n", strerror(errno));
        return 2;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "launcher: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0)
        launch_child(&plan, have_landlock);
    return launch_report(launch_wait(pid));
}
