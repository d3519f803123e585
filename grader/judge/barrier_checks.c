// grader/judge/barrier_checks.c — racecheck and the emulator's strict
// barriers on a GPU run's cases (barrier_checks.h).
#include <stdio.h>
#include <string.h>

#include "barrier_checks.h"
#include "case_schedule.h"
#include "judge_files.h"
#include "technique.h"
#include "tool_runs.h"
#include "verdict.h"

#define BARRIER_SECOND_LOOK_MAX_CELLS (80.0 * 80 * 80)   // the second look: cases up to this size

// Runs case spec once more under tool into found (its seed r's; tool_runs.h:
// started ahead, remembered for the same programs); 0, or -1 if the kit failed.
static int barrier_run(judge_session *s, tool_kind tool, const lab_case *spec, const case_result *r, case_result *found)
{
    kv_list report;
    memset(found, 0, sizeof(*found));
    found->spec = *spec;
    found->seed = r->seed;
    conf_case_name(spec, found->name, sizeof(found->name));
    int rc = tool_runs_case(s, tool, spec, r->seed, found, &report);
    if (rc == 0)
        kv_free(&report);
    return rc;
}

// A race on shared memory: compute-sanitizer's racecheck names the two
// accesses and their lines. Returns 1 if it found one (r now its verdict),
// else 0 (a note in r when the check said nothing of races or could not run).
static int barrier_racecheck(judge_session *s, const lab_case *spec, case_result *r, int passed)
{
    case_result found;
    if (!judge_on_path("compute-sanitizer")) {
        snprintf(r->note, sizeof(r->note), "race check skipped: compute-sanitizer is not on PATH (it comes with the CUDA Toolkit)");
        return 0;
    }
    int rc = barrier_run(s, TOOL_RACECHECK, spec, r, &found);
    if (rc == 0 && found.status == CASE_FAIL && found.hint_key && !strcmp(found.hint_key, HINT_MISSING_BARRIER)) {
        *r = found;
        snprintf(r->note, sizeof(r->note), "found by compute-sanitizer's racecheck on this case%s",
                 passed ? " (the GPU's own run passed: the race did not show in the values)" : " (the wrong values come from this race)");
        return 1;
    }
    if (rc == 0 && found.status == CASE_FAIL && !strcmp(found.kind, "timeout"))  // many hazards: the emulator's check below decides
        snprintf(r->note, sizeof(r->note), "race check inconclusive: compute-sanitizer's racecheck did not end within %.0f s on this case "
                 "(a kernel with many hazards slows it down; the CPU emulation's strict barriers check the barriers instead)", JUDGE_RACECHECK_LIMIT_S);
    else if (rc == 0 && found.status == CASE_FAIL)  // no verdict on races: say so (the emulator's check below may still find one)
        snprintf(r->note, sizeof(r->note), "race check inconclusive: under compute-sanitizer's racecheck this case failed otherwise (%.300s)",
                 found.reason[0] ? found.reason : found.kind);
    return 0;
}

// A barrier not every thread reaches, which the hardware may forgive: the
// emulator's strict barriers, on the CPU (no turn on the GPU). Returns 0, or -1 with err.
static int barrier_strict(judge_session *s, const lab_case *spec, case_result *r, int passed,
                          judge_error *err)
{
    case_result found;
    int built = background_emu_runner(s, err);
    if (built < 0)
        return -1;
    if (!built) {
        snprintf(r->note, sizeof(r->note), "barrier check skipped: the CPU emulation could not build this file (%s)", s->bg.emu_runner);
        return 0;
    }
    int rc = barrier_run(s, TOOL_STRICT, spec, r, &found);
    if (rc == 0 && found.status == CASE_FAIL && found.hint_key &&
        (!strcmp(found.hint_key, HINT_DIVERGENT_BARRIER) || !strcmp(found.hint_key, HINT_THREAD_ORDER))) {
        *r = found;
        snprintf(r->note, sizeof(r->note), "found by the CPU emulation's strict barriers on this case%s",
                 passed ? " (the GPU's own run passed: the hardware forgave it)" : "");
    }
    return 0;
}

int barrier_checks_case(judge_session *s, const lab_case *spec, case_result *r,
                        judge_error *err)
{
    int passed = r->status == CASE_OK;
    if (barrier_racecheck(s, spec, r, passed))
        return 0;
    return barrier_strict(s, spec, r, passed, err);
}

// 1 if hint key names a barrier mistake (racecheck's or the emulator's).
static int barrier_hint(const char *key)
{
    return key && (!strcmp(key, HINT_MISSING_BARRIER) || !strcmp(key, HINT_DIVERGENT_BARRIER) || !strcmp(key, HINT_THREAD_ORDER));
}

// 1 if a launch the case's report records used shared memory (or none is
// recorded): a race on shared memory needs some.
static int barrier_case_shares(const kv_list *report)
{
    launch_info li;
    int idx = 0;
    for (; technique_launch(report, idx, &li) == 0; idx++)
        if (li.smem > 0)
            return 1;
    return idx == 0;
}

// 1 if hint key names wrong values a race on shared memory can leave (the
// case's runner report: its launches): no pattern, or, where a launch used
// shared memory, whole z planes (a plane rotated or overwritten while
// neighbours still read it) or cells along the tiles' edges (a halo read
// before it was stored). The values alone cannot tell these from a wrong
// loop or index. (A pattern's look is the emulator's alone, on the CPU:
// racecheck's runs hold long turns every timed case waits for, and the
// many failing files of a class or a suite would queue behind them.)
static int barrier_race_may_show(const char *key, const kv_list *report)
{
    if (key && !strcmp(key, HINT_WRONG_VALUES))
        return 1;
    return key && (!strcmp(key, HINT_WHOLE_PLANES) || !strcmp(key, HINT_TILE_EDGES)) && barrier_case_shares(report);
}

int barrier_checks_second_look(judge_session *s, const judge_case_env *env, const int *ran, const kv_list *reports,
                               judge_error *err)
{
    judge_run *run = &s->run;
    int pick = -1;
    double pick_cells = 0;
    if (env->emu || s->args.sanitize)
        return 0;
    for (int slot = 0; slot < run->ncases; slot++) {
        const case_result *r = &run->cases[slot];
        double cells = (double)r->spec.nx * r->spec.ny * r->spec.nz;
        if (!ran[slot])
            continue;
        if (barrier_hint(r->hint_key))
            return 0;
        if (r->status == CASE_FAIL && barrier_race_may_show(r->hint_key, &reports[slot]) && !r->spec.timed && !r->spec.sync &&
            cells <= BARRIER_SECOND_LOOK_MAX_CELLS && (pick < 0 || cells < pick_cells))
            pick = slot, pick_cells = cells;
    }
    if (pick < 0)
        return 0;
    case_result *r = &run->cases[pick];
    if (strcmp(r->hint_key, HINT_WRONG_VALUES) != 0)  // a pattern: the emulator's orders alone, no GPU turn
        return barrier_strict(s, &r->spec, r, 0, err);
    return barrier_checks_case(s, &r->spec, r, err);
}
