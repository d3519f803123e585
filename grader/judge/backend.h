// grader/judge/backend.h — which backend grades the run: a usable GPU when
// one is asked for or present (its executor built, then started as the
// device probe, which goes on to serve the run's cases), else CPU
// emulation; and whether --sanitize can run on it.
#ifndef STENCIL_BACKEND_H
#define STENCIL_BACKEND_H

#include "judge.h"
#include "judge_case.h"
#include "judge_error.h"
#include "judge_options.h"

// A device probe under way (backend_pick_begin to backend_pick_end).
typedef struct backend_probe {
    char dir[4096];          // its own folder for its report; "" when none is under way
    int again;               // 1 on a second probe (the executor built afresh for another GPU)
    spawn_result launched;   // how its start went
} backend_probe;

// Decides the backend in two steps: backend_pick_begin builds the executor
// and starts it in ex as the probe (its log in tmp_root); when the build's
// architecture is known already (kept from an earlier probe, or given), it
// returns with the probe making its context, for work that needs no GPU
// meanwhile (the student's file staged and checked); backend_pick_end waits
// for the probe's answer, keeps the architecture it reports beside the
// detected executor (probing once more, the executor built again, when it is
// another GPU's), and fills run->backend, run->fallback, run->arch and the
// device lines. Each returns 0, or -1 with err (JUDGE_EXIT_NO_GPU when
// --backend gpu finds none).
int backend_pick_begin(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, backend_probe *p,
                       judge_error *err);
int backend_pick_end(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, backend_probe *p,
                     judge_error *err);

// --sanitize runs each case under compute-sanitizer on the GPU: asked for
// where it cannot run, it is the kit's setup that is wrong, never the
// student's file. Returns 0 when it can run (or is not asked for), else -1
// with err saying what to do.
int backend_check_sanitizer(const judge_args *a, const judge_run *run, judge_error *err);

#endif // STENCIL_BACKEND_H
