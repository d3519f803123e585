// grader/judge/load_count.h — the technique floors a launch record cannot
// show: the loads the student's kernel executed, counted by Nsight Compute
// on the GPU (the technique's case once more) or by the emulator. With
// STENCIL_LOADS=cupti (LOAD_COUNT_ENV) the executor counts them itself, in
// its own process with CUPTI's range profiler (LOADS_OPTION), no second
// process under Nsight Compute: not yet the default, for it is not yet held
// to Nsight Compute's counts on every test file on a GPU.
#ifndef STENCIL_LOAD_COUNT_H
#define STENCIL_LOAD_COUNT_H

#include "judge_error.h"
#include "judge_session.h"

// Checks the load floors of a technique line that passed, on the largest
// timed case (what is timed is what is judged), else the technique's case;
// a file that fails under the profiler fails the line. Returns 0, or -1 with
// err (the kit could not run the case).
int load_count_check(judge_session *s, judge_error *err);

#define LOAD_COUNT_ENV "STENCIL_LOADS"  // "cupti": the executor counts the loads itself

// 1 when the executor counts the loads itself (LOAD_COUNT_ENV is "cupti").
int load_count_in_process(void);

// 0 when LOAD_COUNT_ENV is unset, empty, "ncu" or "cupti"; else -1 with err
// naming the value and the two it may take.
int load_count_choice_check(judge_error *err);

#endif // STENCIL_LOAD_COUNT_H
