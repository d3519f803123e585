// grader/judge/judge_session.h — one grading run as the driver (judge.c)
// holds it: the options, the run the report prints, and what the run's
// steps share (the executor, the workers, the helpers, the built runners).
#ifndef STENCIL_JUDGE_SESSION_H
#define STENCIL_JUDGE_SESSION_H

#include <limits.h>

#include "background.h"
#include "judge.h"
#include "judge_case.h"
#include "judge_options.h"
#include "tool_runs.h"
#include "worker_pool.h"
#include "yardstick.h"

typedef struct judge_session {
    judge_args args;            // the options
    judge_run run;              // the run: what the report prints
    judge_executor exec;        // GPU: the executor serving the cases (started as the device probe)
    worker_pool pool;           // the processes forked from the judge: cases side by side, helpers
    background bg;              // the references made ahead, the barrier checks' emulation runner
    yardstick yard;             // the lab's solution timed for the speed score
    tool_runs tools;            // the cases' runs under a tool (load count, barrier checks), started ahead
    char tmp_root[PATH_MAX];    // this run's temporary folder ("" until made); removed at exit
    char kernel_abs[PATH_MAX];  // the graded file, resolved
    char runner[PATH_MAX];      // its runner (the executor on a GPU)
    char student[PATH_MAX];     // GPU: the student's program the executor serves ("" under emulation)
    lab_case replay_sized;      // --case naming no case of lab.conf: a case sized from a launch, replayed (nx 0: none)
} judge_session;

#endif // STENCIL_JUDGE_SESSION_H
