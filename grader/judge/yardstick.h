// grader/judge/yardstick.h — the lab's solution timed for the speed score
// (rubric `against=solution`, GPU): its figures kept per GPU and kit version
// (yardstick_cache.h) and reused; else the solution is built and timed while
// the student's file builds (a helper, alone on the GPU), or after the
// cases; when the file graded is the solution, its own times are the yardstick.
#ifndef STENCIL_YARDSTICK_H
#define STENCIL_YARDSTICK_H

#include <limits.h>
#include <sys/types.h>

#include "conf.h"
#include "judge_error.h"

struct judge_session;

typedef struct yardstick {
    int have_solution;              // 1: the solution is built to be timed (runner, student)
    char runner[PATH_MAX];          // its runner (the executor)
    char student[PATH_MAX];         // its program
    pid_t pid;                      // the helper timing it early, 0 if none
    int have;                       // 1: gbs holds the figures (kept, or timed early)
    double gbs[CONF_MAX_CASES];     // the solution's GB/s on lab.conf's case k (0: not timed, or failed)
} yardstick;

// Before the student's file builds: takes the kept figures, or builds the
// solution and starts timing it early (not with --gpu-lock-dir, whose judges
// take their GPU turns one case at a time, nor with --jobs 1). Returns 0, or
// -1 with err (the solution does not build).
int yardstick_prepare(struct judge_session *s, judge_error *err);

// Waits for the early timing (if one was started), reads and keeps its figures.
void yardstick_wait(struct judge_session *s);

// After the cases: fills each timed case's solution_gbs (0 if the solution
// did not run through), timing the solution now when it was not timed early.
void yardstick_time(struct judge_session *s);

#endif // STENCIL_YARDSTICK_H
