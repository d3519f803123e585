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

// Decides the backend: builds the executor and starts it in ex as the probe
// (its log in tmp_root), keeping the architecture it reports beside the
// detected executor. Fills run->backend, run->fallback, run->arch and the
// device lines. Returns 0, or -1 with err (JUDGE_EXIT_NO_GPU when --backend
// gpu finds none).
int backend_pick(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, judge_error *err);

// --sanitize runs each case under compute-sanitizer on the GPU: asked for
// where it cannot run, it is the kit's setup that is wrong, never the
// student's file. Returns 0 when it can run (or is not asked for), else -1
// with err saying what to do.
int backend_check_sanitizer(const judge_args *a, const judge_run *run, judge_error *err);

#endif // STENCIL_BACKEND_H
