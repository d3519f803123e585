// grader/judge/worker_pool.h — processes forked from the judge (kit code,
// like the judge): the cases run side by side, each in a worker that leaves
// its result in the run's temporary folder, and the helpers that work beside
// the build (background.h, yardstick.h). A worker ends when the judge ends,
// even by SIGKILL; one that fails hands its error to the judge in a file.
#ifndef STENCIL_WORKER_POOL_H
#define STENCIL_WORKER_POOL_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "judge_error.h"
#include "judge_options.h"

typedef struct worker_pool {
    const char *dir;                  // the run's temporary folder, where the workers leave their files
    pid_t pids[JUDGE_MAX_JOBS];       // the workers the judge waits for (0: a free place)
    int slots[JUDGE_MAX_JOBS];        // the slot each one runs
    char error_path[PATH_MAX + 32];   // in a worker: the file its error goes to ("" in the judge)
} worker_pool;

// What the cases run side by side do (worker_pool_run): the work of a slot in
// its worker, and reading its result back in the judge.
typedef struct worker_jobs {
    int (*work)(void *ctx, int slot, judge_error *err);               // in the worker: runs slot, leaves its files; 0 or -1
    int (*collect)(void *ctx, int slot, int status, judge_error *err); // in the judge: reads them back; 0 or -1
    void (*progress)(void *ctx, int done, int total);                 // after each slot collected, or NULL
    const char *(*name)(void *ctx, int slot);                         // the slot's name, for a message
    void *ctx;                                                        // handed to each
} worker_jobs;

// The file named what of slot's worker in the pool's folder: its case result,
// report, heat-map plane, error (slot < 0: a helper's, -1 the early yardstick,
// -2 the emulation prebuild).
void worker_pool_path(const worker_pool *p, int slot, const char *what, char *path, size_t len);

// Forks a worker for slot (>= 0 a case, < 0 a helper): nothing buffered is
// written twice, and in the child an error goes to slot's error file and the
// child ends with the judge. Returns the child's pid in the judge, 0 in the
// child, -1 if none started.
pid_t worker_pool_fork(worker_pool *p, int slot);

// Notes pid as a worker of slot, which worker_pool_stop stops and
// worker_pool_wait frees.
void worker_pool_track(worker_pool *p, pid_t pid, int slot);

// Waits for worker pid through stop signals and frees its place; returns
// its wait status, or -1 if it could not be waited for.
int worker_pool_wait(worker_pool *p, pid_t pid);

// 1 in a worker (its errors go to the judge through its error file).
int worker_pool_in_worker(const worker_pool *p);

// In a worker: writes message to its error file and ends the worker with code.
void worker_pool_hand_over(const worker_pool *p, const char *message, int code) __attribute__((noreturn));

// Runs slots[0..n) side by side, at most jobs at a time, each in a worker
// running w->work, and collects each as it ends. Returns 0, or -1 with err
// (a worker that failed, or none could start).
int worker_pool_run(worker_pool *p, int jobs, const int *slots, int n, const worker_jobs *w, judge_error *err);

// Stops the workers still running (a kit failure or a stop signal in the
// judge): SIGTERM, which kills each one's runner, then SIGKILL.
void worker_pool_stop(worker_pool *p);

#endif // STENCIL_WORKER_POOL_H
