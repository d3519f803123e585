// grader/judge/judge_case.h — runs one case of a sweep lab through a built runner.
#ifndef STENCIL_JUDGE_CASE_H
#define STENCIL_JUDGE_CASE_H

#include <stdint.h>

#include "judge.h"
#include "kv.h"
#include "spawn.h"

typedef struct judge_case_env {
    const lab_conf *conf;       // the lab (tolerances, time limit, timed repetitions)
    const char *runner;         // the built runner executable
    int emu;                    // 1: CPU emulation (two thread orders, no timing)
    int sanitize;               // 1: run under compute-sanitizer
    int keep;                   // 1: keep the case directories (for debugging)
    int out_tile;               // OUT_TILE_DIM the kernel declared, for the tile-edge hint
    int planes_first;           // 1: prefer the whole-planes hint (z-marching labs)
    int profile;                // 1: measure the timed case's traffic with Nsight Compute (ncu)
} judge_case_env;

// Starts env's runner once with args (NULL-terminated, after the program's
// name) on the case folder dir: under compute-sanitizer when asked, with the
// emulation's thread order and seed or the GPU's eager module loading, the
// lab's time limit, and files capped near buffer_floats floats. report
// receives the runner's report. Returns the outcome.
spawn_result judge_spawn_runner(const judge_case_env *env, char *const args[], const char *dir,
                                size_t buffer_floats, const char *order, uint64_t seed, kv_list *report);

// Runs the case spec with its seed; fills r (status, reason, hint, timing).
// report_out receives the runner's report of the first run (free it with
// kv_free). Returns 0, or -1 if the kit itself failed (temporary files,
// memory, starting the runner) — r is then incomplete.
int judge_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report_out);

#endif // STENCIL_JUDGE_CASE_H
