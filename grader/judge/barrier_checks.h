// grader/judge/barrier_checks.h — the barrier checks of a GPU run, where the
// hardware may forgive a barrier mistake: compute-sanitizer's racecheck (a
// race on shared memory) and the CPU emulation's strict barriers in two
// thread orders (a barrier some threads never reach, a missing one).
#ifndef STENCIL_BARRIER_CHECKS_H
#define STENCIL_BARRIER_CHECKS_H

#include "judge_case.h"
#include "judge_error.h"
#include "judge_session.h"

// Runs the barrier checks on case spec, which ran on the GPU into r (each
// check a run under a tool: tool_runs.h): a finding fails r with its hint; a check that cannot run here adds a note
// instead. Returns 0, or -1 with err (the emulation runner's build failed
// for the kit's own reasons).
int barrier_checks_case(judge_session *s, const lab_case *spec, case_result *r,
                        judge_error *err);

// A second look at wrong values a race can leave (no pattern: racecheck,
// then the emulator's strict barriers and thread orders; whole planes or
// tile edges where a launch used shared memory, reports[slot] being each
// case's runner report: the emulator's alone), on a GPU: a race often shows
// so on a case that is not the sync one (whose run the hardware forgave), or
// on the only case asked. When no case that ran (ran[slot]) named a barrier mistake already,
// the checks run on the smallest such case, untimed, small and not a sync
// case (whose checks ran with it). Returns 0, or -1 with err.
int barrier_checks_second_look(judge_session *s, const judge_case_env *env, const int *ran, const kv_list *reports,
                               judge_error *err);

#endif // STENCIL_BARRIER_CHECKS_H
