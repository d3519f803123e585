// grader/judge/judge_jacobi.h — runs one case of lab 5 (Jacobi iteration with
// boundary conditions) through a built runner_jacobi.
#ifndef STENCIL_JUDGE_JACOBI_H
#define STENCIL_JUDGE_JACOBI_H

#include <stdint.h>
#include <sys/types.h>

#include "judge.h"
#include "judge_case.h"
#include "kv.h"

// Runs the Jacobi case spec (its options: bc=, iters=, ... from lab.conf) with
// its seed; fills r like judge_run_case does. report_out receives the
// runner's report (free with kv_free). Returns 0, or -1 if the kit failed.
int jacobi_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report_out);

// A timed case's reference solve, made ahead: while the student's file builds
// and the other cases run, a process of the judge's own (forked before any
// runner starts; it reads nothing a runner wrote) solves the case from its
// seed into memory it shares with the judge, which takes the result when it
// judges that case (if the solver ran the case's full iteration count, as a
// correct one does; else the judge solves it itself, as without).
typedef struct jacobi_early {
    void *mem;                  // the shared memory: a header, then the grids (NULL: none)
    size_t bytes;               // its size (jacobi_early_bytes)
    pid_t pid;                  // the process making it
} jacobi_early;

// The shared memory case spec's reference takes, or 0 if it is made in the
// usual way (an untimed case, a manufactured solution, a bad spec).
size_t jacobi_early_bytes(const lab_conf *conf, const lab_case *spec);

// In the helper: draws case spec from seed and solves it into mem (bytes as
// jacobi_early_bytes said); marks it done or failed last.
void jacobi_early_make(const lab_conf *conf, const lab_case *spec, uint64_t seed, void *mem, size_t bytes);

#endif // STENCIL_JUDGE_JACOBI_H
