// grader/judge/worker_pool.c — processes forked from the judge: the cases
// side by side and the helpers beside the build (worker_pool.h).
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "judge_case.h"
#include "protocol.h"
#include "spawn.h"
#include "worker_pool.h"

void worker_pool_path(const worker_pool *p, int slot, const char *what, char *path, size_t len)
{
    snprintf(path, len, "%s/case-%d.%s", p->dir, slot, what);
}

// In a worker just forked from the judge (pid judge): ends it when the judge
// ends, even by SIGKILL (taking its runner along: SIGTERM kills the runner's
// group), and at once if the judge is gone already. The workers are forked
// before the judge runs any OpenMP region (the side-by-side cases come first,
// the references of the timed ones after): libgomp's threads do not survive
// a fork, and a worker's own OpenMP regions start its own pool.
static void worker_pool_tied(pid_t judge)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != judge)
        spawn_child_exit(JUDGE_EXIT_KIT);
}

pid_t worker_pool_fork(worker_pool *p, int slot)
{
    fflush(NULL);
    pid_t judge = getpid(), pid = fork();
    if (pid == 0) {
        spawn_forget_parents_children();
        worker_pool_path(p, slot, "error", p->error_path, sizeof(p->error_path));
        worker_pool_tied(judge);
    }
    return pid;
}

void worker_pool_track(worker_pool *p, pid_t pid, int slot)
{
    int w = 0;
    while (w < JUDGE_MAX_JOBS - 1 && p->pids[w] > 0)
        w++;
    p->pids[w] = pid, p->slots[w] = slot;
}

// The place of worker pid, or -1 if it is none of the pool's.
static int worker_pool_place(const worker_pool *p, pid_t pid)
{
    for (int w = 0; w < JUDGE_MAX_JOBS; w++)
        if (p->pids[w] == pid)
            return w;
    return -1;
}

int worker_pool_wait(worker_pool *p, pid_t pid)
{
    int status = -1, w = worker_pool_place(p, pid);
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            status = -1;
            break;
        }
        spawn_check_stop();
    }
    if (w >= 0)
        p->pids[w] = 0;
    return status;
}

int worker_pool_in_worker(const worker_pool *p)
{
    return p->error_path[0] != '\0';
}

void worker_pool_hand_over(const worker_pool *p, const char *message, int code)
{
    FILE *f = fopen(p->error_path, "w");
    if (f)
        fprintf(f, "%s\n", message), fclose(f);
    spawn_child_exit(code);  // no atexit handler: the temporary folder is the judge's
}

// In the judge: the error slot's worker left, if any, into err; returns -1 if it left one.
static int worker_pool_left_error(const worker_pool *p, int slot, judge_error *err)
{
    char path[PATH_MAX + 32], msg[1200] = "";
    worker_pool_path(p, slot, "error", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(msg, sizeof(msg), f))
        msg[0] = '\0';
    fclose(f);
    msg[strcspn(msg, "\n")] = '\0';
    return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "%s", msg[0] ? msg : "a case's worker failed");
}

// Starts the worker of slot running w->work; returns 0, or -1 with err.
static int worker_pool_start(worker_pool *p, int slot, const worker_jobs *w, judge_error *err)
{
    pid_t pid = worker_pool_fork(p, slot);
    if (pid < 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot start a process for case %s: %s", w->name(w->ctx, slot), strerror(errno));
    if (pid == 0) {
        if (w->work(w->ctx, slot, err) != 0) {
            protocol_printable(err->message, 0);  // it may name the student's file, or quote its words
            worker_pool_hand_over(p, err->message, err->code);
        }
        spawn_child_exit(0);
    }
    worker_pool_track(p, pid, slot);
    return 0;
}

// Waits for the next worker to end and collects it; returns 1 if one of the
// pool's case workers ended, 0 if another child (a helper beside the cases:
// a negative slot, forgotten here, its wait status lost as an untracked
// child's is) or a signal woke the wait, -1 with err.
static int worker_pool_reap(worker_pool *p, const worker_jobs *w, judge_error *err)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
        if (errno != EINTR)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "waiting for the case workers: %s", strerror(errno));
        spawn_check_stop();
        return 0;
    }
    int place = worker_pool_place(p, pid);
    if (place < 0)
        return 0;
    int slot = p->slots[place];
    p->pids[place] = 0;
    if (slot < 0)
        return 0;
    if (worker_pool_left_error(p, slot, err) != 0 || w->collect(w->ctx, slot, status, err) != 0)
        return -1;
    return 1;
}

int worker_pool_run(worker_pool *p, int jobs, const int *slots, int n, const worker_jobs *w, judge_error *err)
{
    int next = 0, running = 0;
    while (next < n || running) {
        for (; running < jobs && next < n; next++, running++)  // all of them, --fail-fast too: the run ends in lab.conf's order
            if (worker_pool_start(p, slots[next], w, err) != 0)
                return -1;
        int ended = worker_pool_reap(p, w, err);
        if (ended < 0)
            return -1;
        running -= ended;
        if (ended && w->progress)
            w->progress(w->ctx, next - running, n);
    }
    return 0;
}

void worker_pool_stop(worker_pool *p)
{
    int left = 0;
    for (int w = 0; w < JUDGE_MAX_JOBS; w++)
        if (p->pids[w] > 0)
            kill(p->pids[w], SIGTERM), left++;
    for (int tries = 0; left && tries < 200; tries++) {  // 2 s for them to kill their runners
        struct timespec pause = {0, 10 * 1000 * 1000};
        left = 0;
        for (int w = 0; w < JUDGE_MAX_JOBS; w++)
            if (p->pids[w] > 0 && waitpid(p->pids[w], NULL, WNOHANG) == 0)
                left++;
            else
                p->pids[w] = 0;
        if (left)
            nanosleep(&pause, NULL);
    }
    if (left)  // (every worker and helper ends on SIGTERM at once: one left is a bug, and costs the run 2 s)
        judge_trace_note("worker pool: %d worker(s) or helper(s) still running 2 s after SIGTERM, killed", left);
    for (int w = 0; w < JUDGE_MAX_JOBS; w++)
        if (p->pids[w] > 0) {
            kill(p->pids[w], SIGKILL);
            waitpid(p->pids[w], NULL, 0);
            p->pids[w] = 0;
        }
}
