// grader/judge/load_count.h — the technique floors a launch record cannot
// show: the loads the student's kernel executed, counted by Nsight Compute
// on the GPU (the technique's case once more) or by the emulator. On the
// GPU the executor counts them itself, in its own process with CUPTI's range
// profiler (LOADS_OPTION), no second process; where it cannot (no CUPTI, a
// toolkit before 12.6) Nsight Compute counts them, as it does for every
// file under STENCIL_LOADS=ncu (LOAD_COUNT_ENV). The two gave the same counts
// on every technique test file of labs 0, 2-4 and 8 on an H200.
#ifndef STENCIL_LOAD_COUNT_H
#define STENCIL_LOAD_COUNT_H

#include "judge_error.h"
#include "judge_session.h"

// Checks the load floors of a technique line that passed, on the largest
// timed case (what is timed is what is judged), else the technique's case;
// a file that fails under the profiler fails the line. A count missing
// leaves the floors unchecked only where the machine cannot count (the
// line says why); counters that stayed busy, a fault or a counting run the
// kit itself failed end the run as the kit's error, never as a pass.
// Returns 0, or -1 with err (the kit could not run or count the case).
int load_count_check(judge_session *s, judge_error *err);

#define LOAD_COUNT_ENV "STENCIL_LOADS"  // "ncu": Nsight Compute counts the loads; "cupti" (the default): the executor

// 1 when the executor counts the loads itself (LOAD_COUNT_ENV unset, empty or "cupti").
int load_count_in_process(void);

// 0 when LOAD_COUNT_ENV is unset, empty, "ncu" or "cupti"; else -1 with err
// naming the value and the two it may take.
int load_count_choice_check(judge_error *err);

#endif // STENCIL_LOAD_COUNT_H
