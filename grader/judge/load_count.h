// grader/judge/load_count.h — the technique floors a launch record cannot
// show: the loads the student's kernel executed, counted by Nsight Compute
// on the GPU (the technique's case once more) or by the emulator.
#ifndef STENCIL_LOAD_COUNT_H
#define STENCIL_LOAD_COUNT_H

#include "judge_error.h"
#include "judge_session.h"

// Checks the load floors of a technique line that passed, on the largest
// timed case (what is timed is what is judged), else the technique's case;
// a file that fails under the profiler fails the line. Returns 0, or -1 with
// err (the kit could not run the case).
int load_count_check(judge_session *s, judge_error *err);

#endif // STENCIL_LOAD_COUNT_H
