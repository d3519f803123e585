// grader/judge/tool_runs.h — a GPU run's cases once more under a tool:
// the load count (load_count.h: the executor's own, or Nsight Compute's), compute-sanitizer's
// racecheck and the emulator's strict barriers (barrier_checks.h). As soon as
// the student's program is built, a helper forked from the judge starts each
// run the judge will need (the load count of the largest timed case, the
// barrier checks of every sync case), beside the cases and in a GPU turn of
// its own; the judge takes the outcome when it gets there, and every timed
// case waits until racecheck's helpers are done (the strict barriers'
// emulation, on the CPU, may go on; the load count takes its GPU turn after
// the judge's, under the locks), so nothing else runs on the GPU while it is
// timed. A clean outcome is remembered for the same built
// programs (tool_cache.h): an unchanged file runs none of them again.
#ifndef STENCIL_TOOL_RUNS_H
#define STENCIL_TOOL_RUNS_H

#include <stdint.h>
#include <sys/types.h>

#include "judge_case.h"
#include "kv.h"

struct judge_session;

// The tools a case runs under once more.
typedef enum tool_kind {
    TOOL_LOADS,                 // Nsight Compute counting the student's loads (JUDGE_NCU_LOADS), untimed
    TOOL_COUNT,                 // the executor counting them itself (LOADS_OPTION: CUPTI), untimed
    TOOL_RACECHECK,             // compute-sanitizer's racecheck
    TOOL_STRICT,                // the CPU emulation's strict barriers
    TOOL_KINDS                  // how many
} tool_kind;

#define TOOL_RUNS_MAX 8         // helpers a run starts at most

// One run started ahead in a helper.
typedef struct tool_helper {
    tool_kind tool;             // under which tool
    lab_case spec;              // the case as it runs there (untimed for the load count)
    uint64_t seed;              // its seed (the case's own)
    pid_t pid;                  // the helper while it runs, 0 once ended (or none started)
    int slot;                   // its files in the run's folder (worker_pool_path)
} tool_helper;

typedef struct tool_runs {
    tool_helper helper[TOOL_RUNS_MAX]; // the runs started ahead
    int n;                      // how many
    int ran, remembered, ahead; // runs done in the judge, taken from tool_cache, taken from a helper (the trace)
    int early_fd;               // the pipe to the load count's helper started before the build (-1: none waits)
} tool_runs;

// Before the student's file builds: starts the load count's helper (as
// tool_runs_start would, and when it would) with its executor under Nsight
// Compute, whose start-up (seconds: the profiler's own, then a CUDA context)
// then overlaps the build; tool_runs_start sends it the built programs, or
// ends it when the count is remembered. Not while the lab's solution is
// timed early (nothing beside it on the GPU then).
void tool_runs_early_start(struct judge_session *s);

// Starts the helpers of a GPU run whose student's program is built (with
// --jobs 2 or more, as the other helpers): the load count of the largest
// timed case where the technique has load floors (the executor's own, or
// Nsight Compute's when STENCIL_LOADS=ncu and it is on PATH), racecheck and the strict barriers of every untimed sync case. A run
// that a cache entry already holds starts none.
void tool_runs_start(struct judge_session *s);

// Waits until every helper running under tool has ended (their outcomes
// stay for the taking): before a timed case, the GPU's tools (racecheck),
// whose start-up makes a CUDA context outside any turn; the strict barriers'
// emulation, on the CPU, goes on. TOOL_KINDS: every helper.
void tool_runs_wait_for(struct judge_session *s, tool_kind tool);

// Ends the helpers still running (their outcomes no longer needed).
void tool_runs_stop(struct judge_session *s);

// Runs case spec (r's name, spec and seed set) with seed under tool: the
// outcome remembered for these programs, else the one its helper left, else
// run now. r and report (kv_free it) then hold the outcome. Returns 0, or -1
// if the kit failed (r incomplete).
int tool_runs_case(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report);

// Runs case spec under tool now, in the judge (neither remembered nor a
// helper's: a count asked again after its counters were busy), keeping a
// count that counted. A count (TOOL_LOADS, TOOL_COUNT) first ends every
// helper still running: called after the cases, when no other outcome is
// read. As tool_runs_case otherwise.
int tool_runs_again(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report);

#endif // STENCIL_TOOL_RUNS_H
