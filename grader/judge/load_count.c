// grader/judge/load_count.c — the technique's load floors, counted (load_count.h).
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case_schedule.h"
#include "judge_files.h"
#include "load_count.h"
#include "tool_runs.h"

// 1 if the profiled run (counted, its report) failed by the student's
// kernel: its values wrong, or the executor saw its launch, kernel or a call
// fail. The same case passed unprofiled: a kernel that fails when counted
// has no count to pass on. Any other run that did not pass (a time limit
// that waits for locks count against, the kit's memory or files, a signal,
// the kit's own stages) is the kit's error, neither a failure of the
// student's nor a pass without a count (load_count_kit_failed).
static int load_count_student_failed(const case_result *counted, const kv_list *report)
{
    const char *stage = kv_get(report, "error_stage"), *status = kv_get(report, "status");
    return counted->status != CASE_OK &&
           ((status && !strcmp(status, "ok") && !strcmp(counted->kind, "wrong")) ||
            (stage && (!strcmp(stage, "launch") || !strcmp(stage, "execute") || !strcmp(stage, "refused") || !strcmp(stage, "program"))));
}

// Fails the technique line, adding to its detail what fmt says.
static void load_count_fail(judge_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void load_count_fail(judge_run *run, const char *fmt, ...)
{
    size_t used = strlen(run->technique.detail);
    va_list ap;
    run->technique.status = TECHNIQUE_FAIL;
    va_start(ap, fmt);
    vsnprintf(run->technique.detail + used, sizeof(run->technique.detail) - used, fmt, ap);
    va_end(ap);
}

// A count whose counters stayed busy through the executor's wait
// (LOADS_BUSY_WAIT_S) is asked again this many times, this many seconds
// apart, before the check ends as the kit's error.
#define LOAD_COUNT_BUSY_AGAIN 2
#define LOAD_COUNT_BUSY_PAUSE_S 1

// A count run that did not pass by the kit's own failure: no verdict. -1 with err.
static int load_count_kit_failed(const case_result *c, const case_result *counted, judge_error *err)
{
    return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the run that counts the loads of case %s failed in the kit's own part (%s): run the check again, and report it if it stays",
                           c->name, counted->reason[0] ? counted->reason : counted->kind);
}

// A count missing from a run that passed (counted: its launches the judged
// ones), by its kind: only a machine that cannot count (the executor's
// LOADS_MISSING_CANNOT, ncu's ERR_NVGPUCTRPERM) leaves the floors unchecked,
// saying why (who: the counter's words); more launches than the count
// follows fail the technique; counters busy past the executor's wait, or a
// fault, leave no verdict (a kit error: run the check again). The kind comes
// from the kit's own process (the executor, ncu's log), never the program's.
// Returns 0, or -1 with err.
static int load_count_missing(judge_run *run, const case_result *c, const case_result *counted, const kv_list *report, const char *who,
                              judge_error *err)
{
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    char why[sizeof(counted->loads_why) + 128];
    switch (counted->loads_missing) {
    case LOADS_MISSING_CANNOT:
        snprintf(why, sizeof(why), "%s could not count the loads here (%s)", who, counted->loads_why[0] ? counted->loads_why : "it did not say why");
        technique_loads_grid(run->conf.technique, report, size, run->conf.star_radius, 0, 0, 0, why, &run->technique);
        return 0;
    case LOADS_MISSING_LAUNCHES:
        load_count_fail(run, "; counting its loads, case %s launched more kernels in one call than the count follows (%s): no count of part of a call is taken; launch fewer kernels a call",
                        c->name, counted->loads_why);
        return 0;
    case LOADS_MISSING_BUSY:
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the loads of case %s could not be counted: %s: another profiler (Nsight Compute, Nsight Systems, DCGM's profiling, a second grader's count) held this GPU's counters; run the check again once it has ended",
                               c->name, counted->loads_why);
    default:
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the loads of case %s could not be counted (%s): run the check again, and report it if it stays",
                               c->name, counted->loads_why[0] ? counted->loads_why : "no count and no reason in the executor's report");
    }
}

// 1 if the run that counted case c's loads (counted_run, its report) launched as c did
// when it was judged (the launches and the first launch record); else the
// technique fails, saying how: the kernel counted must be the kernel judged
// and timed, however a program might tell a counted run from another.
static int load_count_same_launches(judge_run *run, const case_result *c, const case_result *counted_run, const kv_list *report)
{
    char counted[sizeof(run->timed_launches)];
    const char *judged = !strcmp(c->name, run->timed_case) ? run->timed_launches : run->technique_launches;
    technique_launches_of(report, counted, sizeof(counted));
    if (counted_run->status != CASE_OK || !judged[0] || !strcmp(counted, judged))
        return 1;  // (a count run that failed is judged as such)
    load_count_fail(run, "; counting its loads, case %s launched %.200s where it had launched %.200s: the kernel whose loads are counted must be the kernel judged and timed",
                    c->name, counted[0] ? counted : "nothing", judged);
    return 0;
}

// The case the loads are counted on: the largest timed case (what is timed
// is what is judged), else the technique's; NULL if neither ran.
static const case_result *load_count_case(const judge_run *run)
{
    const case_result *c = NULL;
    const char *on = run->timed_case[0] ? run->timed_case : run->technique_case;
    for (int i = 0; i < run->ncases; i++)
        if (!strcmp(run->cases[i].name, on))
            c = &run->cases[i];
    return c;
}

// A blank outcome for the untimed count of case c (r), and its case (spec).
static void load_count_blank(const case_result *c, case_result *r, lab_case *spec)
{
    *spec = c->spec;
    spec->timed = 0;
    memset(r, 0, sizeof(*r));
    r->spec = *spec, r->seed = c->seed;
    snprintf(r->name, sizeof(r->name), "%s", c->name);
}

// Runs case c's count under tool (tool_runs_case: remembered, a helper's,
// or now) into counted and report, its untimed case in spec; 0, or -1.
static int load_count_run(judge_session *s, const case_result *c, tool_kind tool, case_result *counted, kv_list *report, lab_case *spec)
{
    load_count_blank(c, counted, spec);
    return tool_runs_case(s, tool, spec, c->seed, counted, report);
}

// The count run could not be made at all (a folder, memory, the runner): the kit's error.
static int load_count_not_run(const case_result *c, judge_error *err)
{
    return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not count the loads of case %s: %s (temporary folder, memory or the runner)", c->name, strerror(errno));
}

// Judges the count of case c (counted, its report) that counter
// (TECHNIQUE_LOADS_NCU or _CUPTI) took: a run that did not pass fails the
// technique (the kit's own stages: its error), another launch than judged
// fails it, a count missing goes by its kind (load_count_missing), else the
// floors. Returns 0; 1, doing nothing, for a count missing that Nsight
// Compute may take (ncu: on PATH; any kind but busy counters); or -1 with err.
static int load_count_judge(judge_run *run, const case_result *c, const case_result *counted, const kv_list *report, int counter, int ncu,
                            judge_error *err)
{
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    int by_ncu = counter == TECHNIQUE_LOADS_NCU;
    if (load_count_student_failed(counted, report)) {  // it passed unprofiled: no unchecked pass for one that fails counted
        load_count_fail(run, "; %s, case %s did not pass (%s): the kernel must compute the same way %s",
                        by_ncu ? "under Nsight Compute, which counts the loads" : "counting its loads", c->name,
                        counted->reason[0] ? counted->reason : counted->kind, by_ncu ? "when profiled" : "every time");
        return 0;
    }
    if (counted->status != CASE_OK)
        return load_count_kit_failed(c, counted, err);
    if (!load_count_same_launches(run, c, counted, report))
        return 0;  // (the technique failed, saying how)
    if (!counted->loads_counted && ncu && counted->loads_missing != LOADS_MISSING_BUSY)
        return 1;
    if (!counted->loads_counted)
        return load_count_missing(run, c, counted, report, by_ncu ? "Nsight Compute (ncu)" : "the executor", err);
    technique_loads_grid(run->conf.technique, report, size, run->conf.star_radius, counter, counted->global_loads, counted->shared_loads, "", &run->technique);
    return 0;
}

// Counts the loads of case c under Nsight Compute (one checked call,
// untimed, its kernels instrumented; tool_runs.h: started ahead, remembered
// for the same programs) and judges the floors with them. Returns 0, or -1 with err.
static int load_count_ncu(judge_session *s, const case_result *c, judge_error *err)
{
    case_result counted;
    kv_list report;
    lab_case spec;
    if (load_count_run(s, c, TOOL_LOADS, &counted, &report, &spec) != 0)
        return load_count_not_run(c, err);
    int rc = load_count_judge(&s->run, c, &counted, &report, TECHNIQUE_LOADS_NCU, 0, err);
    kv_free(&report);
    return rc;
}

int load_count_choice_check(judge_error *err)
{
    const char *how = getenv(LOAD_COUNT_ENV);
    if (!how || !*how || !strcmp(how, "ncu") || !strcmp(how, "cupti"))
        return 0;
    return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "%s=%s is no way to count the loads: use cupti (the executor itself, the default) or ncu (Nsight Compute)",
                           LOAD_COUNT_ENV, how);
}

int load_count_in_process(void)
{
    const char *how = getenv(LOAD_COUNT_ENV);
    return !how || strcmp(how, "ncu") != 0;
}

// Counts the loads of case c in an executor of its own (LOADS_OPTION:
// CUPTI's range profiler around its checked call, untimed; tool_runs.h:
// started ahead beside the cases, remembered for the same programs) and
// judges the floors with them. Returns 0, or -1 with err.
static int load_count_cupti(judge_session *s, const case_result *c, judge_error *err)
{
    case_result counted;
    kv_list report;
    lab_case spec;
    if (load_count_run(s, c, TOOL_COUNT, &counted, &report, &spec) != 0)  // (started ahead, or remembered)
        return load_count_not_run(c, err);
    // Counters busy past the executor's own wait: counted again, in a turn alone of its own, a few times.
    for (int again = 0; again < LOAD_COUNT_BUSY_AGAIN && counted.status == CASE_OK && counted.loads_missing == LOADS_MISSING_BUSY; again++) {
        judge_trace_note("load count: the GPU's counters were busy (%s); counting again in %d s", counted.loads_why, LOAD_COUNT_BUSY_PAUSE_S);
        kv_free(&report);
        sleep(LOAD_COUNT_BUSY_PAUSE_S);
        load_count_blank(c, &counted, &spec);
        if (tool_runs_again(s, TOOL_COUNT, &spec, c->seed, &counted, &report) != 0)
            return load_count_not_run(c, err);
    }
    int rc = load_count_judge(&s->run, c, &counted, &report, TECHNIQUE_LOADS_CUPTI, judge_on_path("ncu"), err);
    if (rc == 1) {  // the executor cannot count here, or not this call: Nsight Compute counts (busy counters would be busy for it too)
        judge_trace_note("load count: the executor could not count the loads (%s); Nsight Compute counts them", counted.loads_why);
        kv_free(&report);
        return load_count_ncu(s, c, err);
    }
    kv_free(&report);
    return rc;
}

int load_count_check(judge_session *s, judge_error *err)
{
    judge_run *run = &s->run;
    const case_result *c = load_count_case(run);
    if (run->technique.status != TECHNIQUE_OK || !c || !technique_counts_loads(run->conf.technique))
        return 0;  // no floors to check (lab 1's, the whole solves', the speed lab's): no second run
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    if (strcmp(run->backend, "gpu") != 0) {
        if (!run->emu_loads_counted)  // (counted, they were judged with the technique's case: schedule_count_case)
            technique_loads_grid(run->conf.technique, NULL, size, run->conf.star_radius, 0, 0, 0,
                                 "the emulation was built without its load counts (they need GCC's sanitizer; EMU_CXX is another compiler)", &run->technique);
        return 0;
    }
    if (load_count_in_process())
        return load_count_cupti(s, c, err);  // (Nsight Compute then, when the executor cannot)
    if (!judge_on_path("ncu")) {
        technique_loads_grid(run->conf.technique, NULL, size, run->conf.star_radius, 0, 0, 0,
                             "Nsight Compute (ncu), which counts the loads, is not on PATH (it comes with the CUDA Toolkit)", &run->technique);
        return 0;
    }
    return load_count_ncu(s, c, err);
}
