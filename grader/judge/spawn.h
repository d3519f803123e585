// grader/judge/spawn.h — runs a child process under a time limit and resource limits.
#ifndef STENCIL_SPAWN_H
#define STENCIL_SPAWN_H

#include <stddef.h>

typedef struct spawn_result {
    int started;        // 1 if the program could be started
    int exited;         // 1 if it exited by itself (exit_code is valid)
    int exit_code;      // its exit status
    int signaled;       // 1 if a signal ended it (signal is valid)
    int signal;         // the signal
    int timed_out;      // 1 if it was killed at the time limit
    double seconds;     // wall-clock time it ran
} spawn_result;

typedef struct spawn_limits {
    double timeout_s;           // wall-clock limit; the whole process group is killed then
    unsigned long long max_file_bytes; // largest file it may write (RLIMIT_FSIZE); 0: no limit
    unsigned long long address_space_bytes; // RLIMIT_AS for the child (0: none)
    const char *confine_dir;    // non-NULL: an untrusted child, confined (grader/sandbox/) with a clean environment, writing only here
    double cpu_s;               // > 0: a CPU-time limit (RLIMIT_CPU, whole seconds up) as well; reaching it counts as timed out,
                                // so a busy machine's waits do not (timeout_s is then the backstop for a child that blocks)
} spawn_limits;

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

// Calls the on_stop of spawn_stop_on_signals if a stop signal has arrived.
void spawn_check_stop(void);

// Reads at most max_lines lines of the end of the file at path into buf.
const char *spawn_log_tail(const char *path, int max_lines, char *buf, size_t len);

#endif // STENCIL_SPAWN_H
