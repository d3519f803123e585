// grader/judge/case_schedule.h — running a run's cases: the ones that may
// share the GPU side by side first (each in a worker, worker_pool.h), then
// each timed or large one alone, with the barrier checks of a GPU's sync
// cases (barrier_checks.h); the results counted in lab.conf's order whatever
// order they finished in, so the report is the one a run of one case at a
// time gives.
#ifndef STENCIL_CASE_SCHEDULE_H
#define STENCIL_CASE_SCHEDULE_H

#include <stdint.h>

#include "judge_case.h"
#include "judge_error.h"
#include "judge_session.h"
#include "kv.h"

// The environment the case functions run runner (and, on a GPU, the
// program student, "" for none) in, from the options and the run: its GPU
// turns (judge_case_env's gpu_turn), no executor (the caller sets it).
judge_case_env schedule_case_env(const judge_session *s, const char *runner, const char *student);

// Runs case spec with seed through the lab's kind of runner, filling r;
// report receives the runner's report (free it with kv_free). Returns 0, or
// -1 if the kit failed (r incomplete).
int schedule_run_kind(const judge_case_env *env, const judge_run *run, const lab_case *spec, uint64_t seed, case_result *r,
                      kv_list *report);

// Runs every case the options select; fills run->cases, the counts and the
// technique line. Returns 0, or -1 with err (a case the kit could not run).
int schedule_run_cases(judge_session *s, judge_error *err);

#endif // STENCIL_CASE_SCHEDULE_H
