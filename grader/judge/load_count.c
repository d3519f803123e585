// grader/judge/load_count.c — the technique's load floors, counted (load_count.h).
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_schedule.h"
#include "judge_files.h"
#include "load_count.h"
#include "tool_runs.h"

// 1 if the profiled run (counted, its report) failed by the student's
// kernel (its values wrong, or the executor saw its launch, kernel or a call
// fail), not by the profiler's own failure (no report, the kit's stages).
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

// Counts the loads of case c under Nsight Compute (one checked call,
// untimed, its kernels instrumented; tool_runs.h: started ahead, remembered
// for the same programs) and judges the floors with them. Returns 0, or -1 with err.
static int load_count_ncu(judge_session *s, const case_result *c, judge_error *err)
{
    judge_run *run = &s->run;
    case_result counted;
    kv_list report;
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    memset(&counted, 0, sizeof(counted));
    counted.spec = c->spec;
    counted.spec.timed = 0;
    snprintf(counted.name, sizeof(counted.name), "%s", c->name);
    counted.seed = c->seed;
    if (tool_runs_case(s, TOOL_LOADS, &counted.spec, c->seed, &counted, &report) != 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not count the loads of case %s: %s (temporary folder, memory or the runner)", c->name, strerror(errno));
    if (load_count_student_failed(&counted, &report)) {  // it passed unprofiled: no unchecked pass for one that fails profiled
        load_count_fail(run, "; under Nsight Compute, which counts the loads, case %s did not pass (%s): the kernel must compute the same way when profiled",
                        c->name, counted.reason[0] ? counted.reason : counted.kind);
    } else if (!load_count_same_launches(run, c, &counted, &report)) {
        // (the technique failed, saying how)
    } else {  // a failure of the profiler's own leaves the floors not counted
        technique_loads_grid(run->conf.technique, &report, size, run->conf.star_radius, counted.loads_counted ? TECHNIQUE_LOADS_NCU : 0, counted.global_loads, counted.shared_loads,
                             "Nsight Compute (ncu) could not count the loads here (another profiler on the GPU, or performance counters that need permission: ERR_NVGPUCTRPERM)",
                             &run->technique);
    }
    kv_free(&report);
    return 0;
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
    judge_run *run = &s->run;
    case_result counted;
    kv_list report;
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    lab_case spec = c->spec;
    spec.timed = 0;
    memset(&counted, 0, sizeof(counted));
    counted.spec = spec, counted.seed = c->seed;
    snprintf(counted.name, sizeof(counted.name), "%s", c->name);
    if (tool_runs_case(s, TOOL_COUNT, &spec, c->seed, &counted, &report) != 0)  // (started ahead, or remembered)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not count the loads of case %s: %s (temporary folder, memory or the runner)", c->name, strerror(errno));
    if (load_count_student_failed(&counted, &report)) {
        load_count_fail(run, "; counting its loads, case %s did not pass (%s): the kernel must compute the same way every time",
                        c->name, counted.reason[0] ? counted.reason : counted.kind);
    } else if (!load_count_same_launches(run, c, &counted, &report)) {
        // (the technique failed, saying how)
    } else if (!counted.loads_counted && counted.loads_why[0] && judge_on_path("ncu")) {  // the executor said it cannot: Nsight Compute counts
        judge_trace_note("load count: the executor could not count the loads (%s); Nsight Compute counts them", counted.loads_why);
        kv_free(&report);
        return load_count_ncu(s, c, err);
    } else {
        char why[sizeof(counted.loads_why) + 64];
        snprintf(why, sizeof(why), "the executor could not count the loads here (%s)", counted.loads_why[0] ? counted.loads_why : "the case did not run through");
        technique_loads_grid(run->conf.technique, &report, size, run->conf.star_radius, counted.loads_counted ? TECHNIQUE_LOADS_CUPTI : 0,
                             counted.global_loads, counted.shared_loads, why, &run->technique);
    }
    kv_free(&report);
    return 0;
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
