// grader/judge/judge_jacobi.h — runs one case of lab 5 (Jacobi iteration with
// boundary conditions) through a built runner_jacobi.
#ifndef STENCIL_JUDGE_JACOBI_H
#define STENCIL_JUDGE_JACOBI_H

#include <stdint.h>

#include "judge.h"
#include "judge_case.h"
#include "kv.h"

// Runs the Jacobi case spec (its options: bc=, iters=, ... from lab.conf) with
// its seed; fills r like judge_run_case does. report_out receives the
// runner's report (free with kv_free). Returns 0, or -1 if the kit failed.
int jacobi_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report_out);

#endif // STENCIL_JUDGE_JACOBI_H
