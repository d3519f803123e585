// grader/judge/spawn.h — runs a child process under a time limit and resource limits.
#ifndef STENCIL_SPAWN_H
#define STENCIL_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct spawn_result {
    int started;        // 1 if the program could be started
    int exited;         // 1 if it exited by itself (exit_code is valid)
    int exit_code;      // its exit status
    int signaled;       // 1 if a signal ended it (signal is valid)
    int signal;         // the signal
    int timed_out;      // 1 if it was killed at the time limit
    int over_memory;    // 1 if it was killed at the resident-memory limit
    int gpu_idle;       // a server's case: 1 if it said its GPU work was over (gpu_idle was called)
    int gpu_wrong;      // and 1 if it said so adding that the kit's GPU check found the output wrong
    int settled;        // 1 if it was ended early, its log saying all the caller needs (spawn_limits's settled)
    double seconds;     // wall-clock time it ran
} spawn_result;

typedef struct spawn_limits {
    double timeout_s;           // wall-clock limit; the whole process group is killed then
    unsigned long long max_file_bytes; // largest file it may write (RLIMIT_FSIZE); 0: no limit
    unsigned long long address_space_bytes; // RLIMIT_AS for the child (0: none)
    const char *confine_dir;    // non-NULL: an untrusted child, confined (grader/sandbox/) with a clean environment, writing only here
    double cpu_s;               // > 0: a CPU-time limit (RLIMIT_CPU, whole seconds up) as well; reaching it counts as timed out,
                                // so a busy machine's waits do not (timeout_s is then the backstop for a child that blocks)
    unsigned long long resident_bytes; // > 0: the child is killed when its resident memory passes this (checked every 20 ms)
    int nice;                   // > 0: added to the child's niceness (SPAWN_NICE_BESIDE: work beside the GPU's cases)
    int stop_gently;            // 1: a stop signal sends the group SIGTERM, SIGKILL SPAWN_STOP_GRACE_S later (make
                                // then removes the files it was writing: a build stopped leaves none half-made)
    void (*gpu_idle)(void);     // a server's case: called when it says its GPU work is over (PROTOCOL_SERVE_GPU_IDLE),
                                // before its host work ends the case; NULL: that word is only noted
    int (*settled)(const char *log_path); // spawn_run: asked every 100 ms; 1: the log says all the caller needs
                                // (a race racecheck found), and the run is ended there, its group killed; NULL: never
    void (*gpu_wrong)(void);    // called just before gpu_idle when the word adds that the kit's GPU check found the
                                // case's output wrong (PROTOCOL_SERVE_GPU_IDLE_WRONG); NULL: only noted
} spawn_limits;

#define SPAWN_STOP_GRACE_S 3.0  // how long a child stopped gently has to end

// The niceness added to what a check runs on the CPU beside the executor and
// holding no GPU lock (the builds, the build check, the emulation, gnuplot), so
// that a timed case's executor and the program it serves, left at the judge's
// own, are not kept waiting for a CPU by other checks' builds: the judges of a
// class run or a suite side by side would otherwise slow each other's timed
// launches (a whole solve's hundreds of them) by as much as half. Nsight
// Compute's and compute-sanitizer's runs are left at the judge's own: their
// executors hold a GPU lock (the profiler's, a turn) that other judges wait on.
#define SPAWN_NICE_BESIDE 10

// Runs argv[0] with argv in its own process group, optional extra environment
// entries env ("NAME=value", NULL-terminated, may be NULL), stdout and stderr
// both to log_path. Returns the outcome; started = 0 (with errno set) if the
// program could not be run at all.
spawn_result spawn_run(char *const argv[], char *const env[], const char *log_path,
                       const spawn_limits *limits);

// Makes SIGTERM, SIGINT and SIGHUP stop the run cleanly: the running child's
// whole process group is killed at once, and on_stop(signal) is called in
// the normal flow of the program as soon as that child is reaped (or at the
// next spawn_run, or at spawn_check_stop). on_stop must not return.
void spawn_stop_on_signals(void (*on_stop)(int signal));

// In a process just forked from the judge (a worker, a helper): the judge's
// running child and serving child are not its own, so a stop signal there
// (tool_runs_stop's SIGTERM to a helper) kills only what it started itself.
void spawn_forget_parents_children(void);

// Calls the on_stop of spawn_stop_on_signals if a stop signal has arrived.
void spawn_check_stop(void);

// 1 if process pid has ended (gone, or a zombie its parent has not waited
// for): for a process watching a sibling it cannot wait for itself.
int spawn_pid_ended(pid_t pid);

// Ends a process forked from the judge (a worker, a background helper) with
// code, running no atexit handler: the temporary folder and the reports are
// the judge's. The coverage build (-DSTENCIL_COVERAGE) writes the child's line
// counts first, which _exit would lose.
__attribute__((noreturn)) void spawn_child_exit(int code);

// A child that serves many requests, one at a time: the executor serving
// every case of a run (protocol.h's PROTOCOL_SERVE_*), one process and one
// CUDA context instead of one a case.
typedef struct spawn_server {
    int pid;            // the serving process (its own process group), 0 when none runs
    int requests;       // the write end of its standard input
    int replies;        // the read end of its PROTOCOL_SERVE_REPLY_FD
    int cases;          // requests it has answered or is answering
} spawn_server;

// Starts argv as a server (stdout and stderr to log_path until a request
// names a log of its own; killed if the judge dies) and waits up to
// timeout_s for its first answer. Returns the outcome as spawn_run does:
// exited with RUNNER_OK when it answered (srv->pid then set), else how it
// ended (srv->pid 0); started 0 (errno set) if it could not be started.
spawn_result spawn_server_start(spawn_server *srv, char *const argv[], char *const env[], const char *log_path,
                                double timeout_s);

// spawn_server_start in two steps, for work to do while the server starts:
// spawn_server_launch starts it and returns at once (started 1, or 0 with
// errno set); spawn_server_ready then waits for its first answer and returns
// the outcome as spawn_server_start does (started 0 when none runs).
spawn_result spawn_server_launch(spawn_server *srv, char *const argv[], char *const env[], const char *log_path);
spawn_result spawn_server_ready(spawn_server *srv, double timeout_s);

// Sends one request (args, NULL-terminated, with "--log log_path" and the
// limits' largest file as "--file-bytes" added) and waits for its answer
// under limits->timeout_s. Returns the outcome as spawn_run does for a child
// that ran the request alone: a server that ended, timed out or was stopped
// is reaped (srv->pid 0). started 0 when no server runs or it could not take
// the request (errno set).
spawn_result spawn_server_run(spawn_server *srv, char *const args[], const char *log_path, const spawn_limits *limits);

// Ends the server (end of its input, then SIGKILL after a second); nothing if none runs.
void spawn_server_stop(spawn_server *srv);

// As spawn_server_stop, waiting up to timeout_s for it to end by itself.
void spawn_server_end(spawn_server *srv, double timeout_s);

// Reads at most max_lines lines of the end of the file at path into buf.
const char *spawn_log_tail(const char *path, int max_lines, char *buf, size_t len);

#endif // STENCIL_SPAWN_H
