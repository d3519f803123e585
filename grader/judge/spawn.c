// grader/judge/spawn.c — see spawn.h.
#include "spawn.h"
#include "pipe_io.h"
#include "protocol.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t spawn_active_group; // the running child's process group, 0 if none
static volatile sig_atomic_t spawn_server_group; // a serving child's process group (spawn_server), 0 if none
static volatile sig_atomic_t spawn_stop_signal;  // a stop signal that arrived, 0 if none
static volatile sig_atomic_t spawn_active_gentle; // 1: the running child is stopped with SIGTERM first (spawn_limits)
static void (*spawn_on_stop)(int);               // called once a stop signal is seen in the normal flow

// The stop signals' handler: note it, and kill the running child's group now.
static void spawn_signal_handler(int sig)
{
    spawn_stop_signal = sig;
    if (spawn_active_group > 0)
        kill(-spawn_active_group, spawn_active_gentle ? SIGTERM : SIGKILL);
    if (spawn_server_group > 0)
        kill(-spawn_server_group, SIGKILL);
}

void spawn_stop_on_signals(void (*on_stop)(int signal))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = spawn_signal_handler;
    sigemptyset(&sa.sa_mask);
    spawn_on_stop = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);  // a server gone between two cases: its pipe's EPIPE is handled, not a signal that ends the judge
}

void spawn_forget_parents_children(void)
{
    spawn_active_group = 0;
    spawn_server_group = 0;
}

void spawn_check_stop(void)
{
    if (spawn_stop_signal && spawn_on_stop) {
        void (*on_stop)(int) = spawn_on_stop;
        spawn_on_stop = NULL;  // once: on_stop may itself run children
        on_stop(spawn_stop_signal);
    }
}

int spawn_pid_ended(pid_t pid)
{
    char path[64], state = '?';
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    // "pid (comm) state ...": the name may hold spaces and parentheses, so the state follows the last ')'.
    char line[512];
    size_t n = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    line[n] = '\0';
    char *close = strrchr(line, ')');
    if (close && close[1] == ' ')
        state = close[2];
    return state == 'Z' || state == 'X';
}

// Seconds on a monotonic clock.
static double spawn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// What a confined child may read: the system's folders (its loader, libraries,
// /proc, /dev), those of them that exist, and the folders listed in the
// judge's STENCIL_EMU_READABLE (colon-separated: a toolchain installed
// elsewhere); never the rest of the file system, where a class's other
// submissions and results lie. Fills paths (NULL-terminated) from store.
#define SPAWN_READABLE_MAX 32
static void spawn_readable_paths(const char *paths[SPAWN_READABLE_MAX + 1], char *store, size_t store_len)
{
    static const char *const system_dirs[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr",
                                              "/etc", "/proc", "/sys", "/dev", NULL};
    int n = 0;
    struct stat st;
    for (int i = 0; system_dirs[i]; i++)
        if (stat(system_dirs[i], &st) == 0)
            paths[n++] = system_dirs[i];
    const char *extra = getenv("STENCIL_EMU_READABLE");
    snprintf(store, store_len, "%s", extra ? extra : "");
    for (char *save = NULL, *dir = strtok_r(store, ":", &save); dir && n < SPAWN_READABLE_MAX; dir = strtok_r(NULL, ":", &save))
        if (dir[0] == '/' && stat(dir, &st) == 0)
            paths[n++] = dir;
    paths[n] = NULL;
}

// Writes this process's line counts under the coverage build (-DSTENCIL_COVERAGE); does nothing otherwise.
static void spawn_coverage_dump(void)
{
#ifdef STENCIL_COVERAGE
    extern void __gcov_dump(void);
    __gcov_dump();
#endif
}

void spawn_child_exit(int code)
{
    spawn_coverage_dump();
    _exit(code);
}

// In the child: limits, output redirection, environment, then exec. Never
// returns. A serving child (request_fd >= 0) reads its requests on its
// standard input and answers on PROTOCOL_SERVE_REPLY_FD (reply_fd), and dies
// with the judge.
static void spawn_child(char *const argv[], char *const env[], const char *log_path,
                        const spawn_limits *limits, int report_fd, int request_fd, int reply_fd)
{
    struct rlimit no_core = {0, 0};
    setpgid(0, 0);
    setrlimit(RLIMIT_CORE, &no_core);
    if (limits->max_file_bytes) {
        struct rlimit fsize = {limits->max_file_bytes, limits->max_file_bytes};
        setrlimit(RLIMIT_FSIZE, &fsize);
    }
    if (limits->address_space_bytes) {
        struct rlimit as = {limits->address_space_bytes, limits->address_space_bytes};
        setrlimit(RLIMIT_AS, &as);
    }
    if (limits->cpu_s > 0) {
        rlim_t seconds = (rlim_t)ceil(limits->cpu_s);
        struct rlimit cpu = {seconds, seconds + 1};  // SIGXCPU, then SIGKILL a second later
        setrlimit(RLIMIT_CPU, &cpu);
    }
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    if (request_fd >= 0) {
        int in = fcntl(request_fd, F_DUPFD, 64), out = fcntl(reply_fd, F_DUPFD, 64);  // out of the way of 0 and 3
        if (in < 0 || out < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, PROTOCOL_SERVE_REPLY_FD) < 0)
            _exit(127);
        close(in);
        close(out);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
    } else {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            close(devnull);
        }
    }
    static const char *readable[SPAWN_READABLE_MAX + 1];
    static char readable_store[4096];
    if (limits->confine_dir) {  // an untrusted child: nothing of the judge's environment, a home of its own
        static char home[4200], tmp[4200];
        spawn_readable_paths(readable, readable_store, sizeof(readable_store));
        clearenv();
        snprintf(home, sizeof(home), "HOME=%s", limits->confine_dir);
        snprintf(tmp, sizeof(tmp), "TMPDIR=%s", limits->confine_dir);
        putenv("PATH=/usr/bin:/bin");
        putenv(home);
        putenv(tmp);
    }
    for (int i = 0; env && env[i]; i++)
        putenv(env[i]);
    if (limits->nice > 0 && nice(limits->nice) == -1)
        errno = 0;  // at the ceiling already (19): it runs as it is
    spawn_coverage_dump();  // exec replaces this image: the child's counts are written first
    if (limits->confine_dir) {
        char why[256] = "";
        sandbox_limits box;
        memset(&box, 0, sizeof(box));
        box.open_files = 256;
        box.writable_dir = limits->confine_dir;
        box.readable_paths = readable;
        if (sandbox_enter(&box, argv[0], why, sizeof(why)) != 0) {
            fprintf(stderr, "stencil-labs: cannot confine %s: %s\n", argv[0], why);
            _exit(126);
        }
    }
    execvp(argv[0], argv);
    int err = errno;
    if (write(report_fd, &err, sizeof(err)) < 0)
        _exit(127);
    _exit(127);
}

// Fills r's exited, exit_code, signaled and signal from a child's wait
// status; with a CPU-time limit (cpu_s > 0) its kill counts as timed out.
static void spawn_read_status(spawn_result *r, int status, double cpu_s)
{
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->signal = WTERMSIG(status);
        if (cpu_s > 0 && (r->signal == SIGXCPU || r->signal == SIGKILL))
            r->timed_out = 1, r->signaled = 0;  // the CPU-time limit (SIGKILL: its hard limit, SIGXCPU ignored)
    }
}

// The resident memory of process pid (/proc/<pid>/statm), 0 if unknown.
static unsigned long long spawn_resident_bytes(pid_t pid)
{
    char path[64];
    unsigned long long size = 0, resident = 0;
    snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int got = fscanf(f, "%llu %llu", &size, &resident);
    fclose(f);
    return got == 2 ? resident * (unsigned long long)sysconf(_SC_PAGESIZE) : 0;
}

// Ends a child spawn_run stopped early (its time, its memory, its log
// settled): its process group, then it, waited for.
static void spawn_kill_group(pid_t pid, int *status)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, status, 0);
}

spawn_result spawn_run(char *const argv[], char *const env[], const char *log_path,
                       const spawn_limits *limits)
{
    spawn_result r;
    int pipefd[2], status = 0, child_errno = 0;
    memset(&r, 0, sizeof(r));
    spawn_check_stop();
    if (pipe(pipefd) != 0)
        return r;
    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
    double start = spawn_now();
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return r;
    }
    if (pid == 0)
        spawn_child(argv, env, log_path, limits, pipefd[1], -1, -1);
    setpgid(pid, pid);
    spawn_active_gentle = limits->stop_gently;
    spawn_active_group = pid;
    if (spawn_stop_signal)  // arrived between fork and here
        kill(-pid, SIGKILL);
    close(pipefd[1]);
    ssize_t got = read(pipefd[0], &child_errno, sizeof(child_errno));
    close(pipefd[0]);
    if (got == (ssize_t)sizeof(child_errno)) {  // exec failed
        waitpid(pid, &status, 0);
        spawn_active_group = 0;
        errno = child_errno;
        return r;
    }
    r.started = 1;
    unsigned polls = 0;
    double stop_seen = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            break;
        if (spawn_stop_signal && limits->stop_gently && !stop_seen)
            stop_seen = spawn_now();
        if (stop_seen > 0 && spawn_now() - stop_seen > SPAWN_STOP_GRACE_S)
            kill(-pid, SIGKILL);  // stopped gently, and not ended in time
        if (limits->timeout_s > 0 && spawn_now() - start > limits->timeout_s) {
            spawn_kill_group(pid, &status);
            r.timed_out = 1;
            break;
        }
        ++polls;
        if (limits->resident_bytes && polls % 4 == 0 && spawn_resident_bytes(pid) > limits->resident_bytes) {
            spawn_kill_group(pid, &status);
            r.over_memory = 1;
            break;
        }
        if (limits->settled && polls % 20 == 0 && limits->settled(log_path)) {  // (every 100 ms)
            spawn_kill_group(pid, &status);
            r.settled = 1;
            break;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL);  // anything the child left behind in its group
    spawn_active_group = 0;
    spawn_active_gentle = 0;
    r.seconds = spawn_now() - start;
    if (!r.timed_out && !r.over_memory && !r.settled)
        spawn_read_status(&r, status, limits->cpu_s);
    spawn_check_stop();
    return r;
}

const char *spawn_log_tail(const char *path, int max_lines, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    buf[0] = '\0';
    if (!f || len < 2)
        return f ? (fclose(f), buf) : buf;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)len - 1 ? size - ((long)len - 1) : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    int lines = 0;
    for (size_t i = n; i > 0; i--)
        if (buf[i - 1] == '\n' && i != n && ++lines == max_lines)
            return memmove(buf, buf + i, n - i + 1);
    return buf;
}

// ---------------------------------------------------------------------------
// A child that serves many requests (the executor of a whole run)
// ---------------------------------------------------------------------------

// Ends the serving child now (its whole group) and reaps it into status;
// the server is then free to start again.
static void spawn_server_kill(spawn_server *srv, int *status)
{
    kill(-srv->pid, SIGKILL);
    kill(srv->pid, SIGKILL);
    waitpid(srv->pid, status, 0);
    close(srv->requests);
    close(srv->replies);
    srv->pid = 0;
    spawn_server_group = 0;
}

// Waits up to timeout_s (0: no limit) for the server's one-byte answer,
// calling limits' gpu_wrong and gpu_idle (limits, either NULL: none) on its
// word that the case's GPU work is over. Returns the outcome: exited 1 with exit_code RUNNER_OK when it
// answered (and lives on); else how it ended (it is reaped, and gone).
static spawn_result spawn_server_wait(spawn_server *srv, double timeout_s, const spawn_limits *limits)
{
    spawn_result r;
    int status = 0;
    memset(&r, 0, sizeof(r));
    r.started = 1;
    double start = spawn_now();
    for (;;) {
        struct pollfd p = {srv->replies, POLLIN, 0};
        int ready = poll(&p, 1, 5);
        if (ready > 0) {
            char answer = 0;
            ssize_t n = read(srv->replies, &answer, 1);
            if (n == 1 && answer == PROTOCOL_SERVE_DONE) {
                r.exited = 1, r.exit_code = RUNNER_OK;
                break;
            }
            if (n == 1 && (answer == PROTOCOL_SERVE_GPU_IDLE || answer == PROTOCOL_SERVE_GPU_IDLE_WRONG)) {
                if (!r.gpu_idle) {  // once a case; the time it takes (a count inside the turn) is not the case's
                    double called = spawn_now();
                    r.gpu_wrong = answer == PROTOCOL_SERVE_GPU_IDLE_WRONG;
                    if (r.gpu_wrong && limits && limits->gpu_wrong)
                        limits->gpu_wrong();
                    if (limits && limits->gpu_idle)
                        limits->gpu_idle();
                    start += spawn_now() - called;
                }
                r.gpu_idle = 1;
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            // End of file (or a byte it never sends): the server ended; its status says how.
            double left = 2.0;
            pid_t w;
            while ((w = waitpid(srv->pid, &status, WNOHANG)) == 0 && left > 0) {
                struct timespec nap = {0, 5 * 1000 * 1000};
                nanosleep(&nap, NULL);
                left -= 0.005;
            }
            if (w == srv->pid) {
                kill(-srv->pid, SIGKILL);  // anything it left behind in its group
                close(srv->requests);
                close(srv->replies);
                srv->pid = 0;
                spawn_server_group = 0;
            } else {
                spawn_server_kill(srv, &status);
            }
            spawn_read_status(&r, status, 0);
            break;
        }
        if (ready < 0 && errno != EINTR)
            break;
        if (spawn_stop_signal) {
            spawn_server_kill(srv, &status);
            r.signaled = 1, r.signal = SIGKILL;
            break;
        }
        if (timeout_s > 0 && spawn_now() - start > timeout_s) {
            spawn_server_kill(srv, &status);
            r.timed_out = 1;
            break;
        }
    }
    r.seconds = spawn_now() - start;
    spawn_check_stop();
    return r;
}

spawn_result spawn_server_launch(spawn_server *srv, char *const argv[], char *const env[], const char *log_path)
{
    spawn_result r;
    int requests[2], replies[2], errs[2], child_errno = 0;
    memset(&r, 0, sizeof(r));
    srv->pid = 0;
    spawn_check_stop();
    if (pipe2(requests, O_CLOEXEC) != 0)
        return r;
    if (pipe2(replies, O_CLOEXEC) != 0) {
        close(requests[0]), close(requests[1]);
        return r;
    }
    if (pipe2(errs, O_CLOEXEC) != 0) {
        close(requests[0]), close(requests[1]), close(replies[0]), close(replies[1]);
        return r;
    }
    spawn_limits none;
    memset(&none, 0, sizeof(none));
    pid_t pid = fork();
    if (pid == 0)
        spawn_child(argv, env, log_path, &none, errs[1], requests[0], replies[1]);
    close(requests[0]);
    close(replies[1]);
    close(errs[1]);
    if (pid < 0) {
        close(requests[1]), close(replies[0]), close(errs[0]);
        return r;
    }
    setpgid(pid, pid);
    ssize_t got = read(errs[0], &child_errno, sizeof(child_errno));
    close(errs[0]);
    if (got == (ssize_t)sizeof(child_errno)) {  // exec failed
        waitpid(pid, NULL, 0);
        close(requests[1]), close(replies[0]);
        errno = child_errno;
        return r;
    }
    srv->pid = pid;
    srv->requests = requests[1];
    srv->replies = replies[0];
    srv->cases = 0;
    spawn_server_group = pid;
    r.started = 1;
    return r;
}

spawn_result spawn_server_ready(spawn_server *srv, double timeout_s)
{
    spawn_result r;
    memset(&r, 0, sizeof(r));
    return srv->pid > 0 ? spawn_server_wait(srv, timeout_s, NULL) : r;
}

spawn_result spawn_server_start(spawn_server *srv, char *const argv[], char *const env[], const char *log_path,
                                double timeout_s)
{
    spawn_result r = spawn_server_launch(srv, argv, env, log_path);
    return r.started ? spawn_server_ready(srv, timeout_s) : r;
}

spawn_result spawn_server_run(spawn_server *srv, char *const args[], const char *log_path, const spawn_limits *limits)
{
    spawn_result r;
    char block[PROTOCOL_SERVE_MAX_BYTES], head[32];
    size_t used = 0;
    int count = 0;
    memset(&r, 0, sizeof(r));
    char file_bytes[32];
    snprintf(file_bytes, sizeof(file_bytes), "%llu", limits->max_file_bytes);
    const char *extra[] = {"--log", log_path, limits->max_file_bytes ? "--file-bytes" : NULL, file_bytes, NULL};
    for (int part = 0; part < 2; part++)
        for (int i = 0; part == 0 ? args[i] != NULL : extra[i] != NULL; i++) {
            const char *arg = part == 0 ? args[i] : extra[i];
            size_t len = strlen(arg) + 1;
            if (used + len > sizeof(block) || ++count > PROTOCOL_SERVE_MAX_ARGS) {
                errno = E2BIG;
                return r;  // not started: the judge reports a kit failure
            }
            memcpy(block + used, arg, len);
            used += len;
        }
    if (srv->pid <= 0)
        return r;
    int head_len = snprintf(head, sizeof(head), "%zu\n", used);
    if (pipe_write_all(srv->requests, head, (size_t)head_len) != 0 || pipe_write_all(srv->requests, block, used) != 0) {
        int status = 0;  // it ended between two cases: that case's end says how
        spawn_server_kill(srv, &status);
        errno = EPIPE;
        return r;
    }
    srv->cases++;
    return spawn_server_wait(srv, limits->timeout_s, limits);
}

void spawn_server_stop(spawn_server *srv)
{
    spawn_server_end(srv, 1.0);
}

void spawn_server_end(spawn_server *srv, double timeout_s)
{
    if (srv->pid <= 0)
        return;
    close(srv->requests);  // end of input: it ends by itself
    for (int tries = 0; tries < timeout_s * 200; tries++) {
        if (waitpid(srv->pid, NULL, WNOHANG) == srv->pid) {
            kill(-srv->pid, SIGKILL);
            close(srv->replies);
            srv->pid = 0;
            spawn_server_group = 0;
            return;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    srv->requests = open("/dev/null", O_RDONLY);  // spawn_server_kill closes it again
    int status;
    spawn_server_kill(srv, &status);
}
