// grader/judge_case.h — runs one case of a sweep lab through a built runner.
#ifndef STENCIL_JUDGE_CASE_H
#define STENCIL_JUDGE_CASE_H

#include <stdint.h>

#include "judge.h"
#include "kv.h"

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

// Runs the case spec with its seed; fills r (status, reason, hint, timing).
// report_out receives the runner's report of the first run (free it with
// kv_free). Returns 0, or -1 if the kit itself failed (temporary files,
// memory, starting the runner) — r is then incomplete.
int judge_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report_out);

#endif // STENCIL_JUDGE_CASE_H
