// grader/judge/case_schedule.c — running a run's cases, side by side and
// alone, and counting them in lab.conf's order (case_schedule.h).
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "barrier_checks.h"
#include "case_schedule.h"
#include "gpu_turns.h"
#include "judge_jacobi.h"
#include "lab_kind.h"
#include "pictures.h"
#include "protocol.h"
#include "rng.h"
#include "sandbox.h"
#include "tool_runs.h"
#include "verdict.h"

#define SCHEDULE_SIDE_BY_SIDE_MAX_BYTES (256.0 * 1024 * 1024) // a grid larger than this runs alone
#define SCHEDULE_SIZED_MAX 4  // cases sized from the kernel's launch, at most (lab_kind_sized_cases)

// Where each case of the run goes, and what came back (slots in the order
// of run->cases, which is lab.conf's order).
typedef struct case_plan {
    judge_session *s;                   // the run
    const judge_case_env *env;          // the environment every case runs in
    int ran[CONF_MAX_CASES];            // 1: the slot's case ran, or needs no run (skipped, too large)
    int counted[CONF_MAX_CASES];        // 1: counted already (too large: failed without running)
    int shared[CONF_MAX_CASES];         // the slots run side by side
    int nshared;                        // how many
    int alone[CONF_MAX_CASES];          // the slots run one at a time, after them
    int nalone;                         // how many
    int conf_index[CONF_MAX_CASES];     // each slot's case in the run's order: lab.conf's, then the sized ones
    kv_list reports[CONF_MAX_CASES];    // each slot's runner report
} case_plan;

// gpu_turns_take for judge_case_env's gpu_turn, which returns nothing: a lock
// that cannot be opened there ends the run (judge_fail).
static void schedule_gpu_turn(int exclusive)
{
    judge_error err;
    if (gpu_turns_take(exclusive ? GPU_TURN_ALONE : GPU_TURN_SHARED, &err) != 0)
        judge_fail(&err);  // the callback returns nothing: no caller could recover
}

judge_case_env schedule_case_env(const judge_session *s, const char *runner, const char *student)
{
    const judge_args *a = &s->args;
    const judge_run *run = &s->run;
    judge_case_env env = {&run->conf, runner, !strcmp(run->backend, "emu"), a->sanitize, a->keep, 0,
                          technique_find(run->conf.technique)->marches_z,
                          a->profile, student[0] ? student : NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL};
    if (!strcmp(run->backend, "gpu"))
        env.gpu_turn = schedule_gpu_turn, env.gpu_turn_end = gpu_turns_give,
        env.gpu_locks = gpu_turns_lock_spec, env.gpu_relay_skip = gpu_turns_relay_skip;
    env.emu_memory_bytes = (unsigned long long)a->emu_memory_mb << 20;
    return env;
}

int schedule_run_kind(const judge_case_env *env, const judge_run *run, const lab_case *spec, uint64_t seed, case_result *r,
                      kv_list *report)
{
    return lab_kind_of(&run->conf)->runner->run_case(env, spec, seed, r, report);
}

// The executor the cases of the judge process itself use: a GPU run's, not
// under the sanitizer (every case a process of its own there), never in a
// forked worker (its pipes are the judge's).
static judge_executor *schedule_executor_for(judge_session *s)
{
    return !strcmp(s->run.backend, "gpu") && !s->args.sanitize && !worker_pool_in_worker(&s->pool) ? &s->exec : NULL;
}

// Fails case r without running it when its grids cannot fit in device memory
// (two guarded grids) or in this machine's memory (the judge holds the input
// and maps the outputs). Returns 1 if it did.
static int schedule_case_too_large(judge_run *run, const lab_case *spec, case_result *r)
{
    double cells = (double)spec->nx * spec->ny * spec->nz;
    double grid = (cells + 2.0 * (double)protocol_guard_cells((unsigned long long)spec->nx * spec->ny)) * 4.0;
    double host = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    const char *where = NULL;
    double have = 0;
    if (run->device_mem_bytes > 0 && 2.0 * grid > run->device_mem_bytes)
        where = run->device, have = run->device_mem_bytes;
    else if (host > 0 && 3.0 * grid > host)
        where = "this machine", have = host;
    if (!where)
        return 0;
    r->status = CASE_FAIL;
    snprintf(r->kind, sizeof(r->kind), "memory");
    r->hint_key = HINT_NO_MEMORY;
    char name[48], place[256];
    snprintf(name, sizeof(name), "%s", r->name);
    snprintf(place, sizeof(place), "%s", where);
    snprintf(r->reason, sizeof(r->reason), "%s is too large: its grids need %.1f GiB and %s has %.1f GiB", name,
             (where == run->device ? 2.0 : 3.0) * grid / 1073741824.0, place, have / 1073741824.0);
    snprintf(r->hint, sizeof(r->hint), "grade this case on a machine with more memory, or take it out of lab.conf.");
    run->failed++;
    return 1;
}

// 1 if case r, run, has barrier checks to come: a `sync` case on a GPU that
// passed (the hardware may forgive a barrier mistake) or whose values are
// wrong (a race shows as wrong values: name the race rather than the pattern).
static int schedule_case_barriers_due(const judge_session *s, const judge_case_env *env, const case_result *r)
{
    return r->spec.sync && !env->emu && !s->args.sanitize && (r->status == CASE_OK || !strcmp(r->kind, "wrong"));
}

// A case's runner; *due says whether its barrier checks are still to come
// (a `sync` case on a GPU). Returns 0, or -1 with err (r incomplete).
static int schedule_case_run(judge_session *s, const judge_case_env *env, case_result *r, kv_list *report, int *due, judge_error *err)
{
    *due = 0;
    if (schedule_run_kind(env, &s->run, &r->spec, r->seed, r, report) != 0)
        return errno == EPROTO ? judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not run case %s: %s", r->name, JUDGE_DRAWN_INPUT_DIFFERS)
                               : judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not run case %s: %s (temporary folder, memory or the runner)", r->name, strerror(errno));
    *due = schedule_case_barriers_due(s, env, r);
    return 0;
}

// One case from start to end: its runner and its barrier checks. Returns 0, or -1 with err.
static int schedule_case_whole(judge_session *s, const judge_case_env *env, case_result *r, kv_list *report, judge_error *err)
{
    int due;
    if (schedule_case_run(s, env, r, report, &due, err) != 0)
        return -1;
    return due ? barrier_checks_case(s, &r->spec, r, err) : 0;
}

// The barrier checks of the cases in slots (n of them), whose runs are over. Returns 0, or -1 with err.
static int schedule_barriers_of(judge_session *s, const int *slots, int n, judge_error *err)
{
    for (int k = 0; k < n; k++)
        if (barrier_checks_case(s, &s->run.cases[slots[k]].spec, &s->run.cases[slots[k]], err) != 0)
            return -1;
    return 0;
}

// 1 if a case runs on its own, after the cases run side by side: a timed one
// (alone on its GPU), one whose grids are large (memory for one at a time),
// or a manufactured-solution case (lab 5: two in a row make the convergence
// check, so they run in the judge itself, in lab.conf's order).
static int schedule_case_alone(const lab_case *spec)
{
    double cells = (double)spec->nx * spec->ny * spec->nz;
    const char *mms = conf_case_opt(spec, "mms");  // lab 5's convergence pair: the second reads the first's error
    return spec->timed || cells * 4.0 > SCHEDULE_SIDE_BY_SIDE_MAX_BYTES || (mms && strcmp(mms, "0") != 0);
}

// 1 if case x should start before case y when run side by side: a sync case
// first (its barrier checks make it the longest), then the larger grid.
static int schedule_case_before(const lab_case *x, const lab_case *y)
{
    double cx = (double)x->nx * x->ny * x->nz, cy = (double)y->nx * y->ny * y->nz;
    return x->sync != y->sync ? x->sync > y->sync : cx > cy;
}

// A progress line on stderr, overwritten by the next (\r): only on a terminal and
// never with --json, so logs and pipes get the report alone.
static void schedule_progress(const judge_args *a, const char *fmt, ...)
{
    if (a->json || !isatty(STDERR_FILENO))
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\r', stderr);
    fflush(stderr);
}

// In a case's worker (worker_jobs.work): runs slot i and leaves its result,
// report and heat-map plane for the judge. Returns 0, or -1 with err.
static int schedule_work(void *ctx, int i, judge_error *err)
{
    case_plan *plan = ctx;
    judge_session *s = plan->s;
    char path[PATH_MAX + 32];
    pictures_forget_offer();           // offer this case's plane only; the judge merges in case order
    gpu_turns_worker_inside();         // (the judge holds its shared turn until every worker ends)
#ifdef _OPENMP
    omp_set_num_threads(s->args.cpus > s->args.jobs ? s->args.cpus / s->args.jobs : 1);  // the reference's threads: a share of the CPUs
#endif
    case_result *r = &s->run.cases[i];
    if (schedule_case_whole(s, plan->env, r, &plan->reports[i], err) != 0)
        return -1;
    // hint_key points into the judge's static tables: the same address in the judge, forked from it.
    worker_pool_path(&s->pool, i, "result", path, sizeof(path));
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(r, sizeof(*r), 1, f) == 1;
    ok = f && fclose(f) == 0 && ok;
    worker_pool_path(&s->pool, i, "report", path, sizeof(path));
    ok = ok && kv_save(path, &plan->reports[i]) == 0;
    worker_pool_path(&s->pool, i, "picture", path, sizeof(path));
    ok = ok && pictures_save_offer(path) == 0;
    if (!ok)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "could not hand case %s's result to the judge: %s (temporary folder)", r->name, strerror(errno));
    return 0;
}

// In the judge (worker_jobs.collect): reads back what slot i's worker left
// but its heat-map plane (merged in lab.conf's order after all ran).
// Returns 0, or -1 with err.
static int schedule_collect(void *ctx, int i, int status, judge_error *err)
{
    case_plan *plan = ctx;
    judge_session *s = plan->s;
    char path[PATH_MAX + 32];
    case_result got;
    worker_pool_path(&s->pool, i, "result", path, sizeof(path));
    FILE *f = fopen(path, "rb");
    int ok = f && fread(&got, sizeof(got), 1, f) == 1;
    if (f)
        fclose(f);
    worker_pool_path(&s->pool, i, "report", path, sizeof(path));
    ok = ok && kv_load(path, &plan->reports[i]) == 0;
    if (!ok)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the worker of case %s ended (status %d) without its result: %s", s->run.cases[i].name, status, strerror(errno));
    s->run.cases[i] = got;
    plan->ran[i] = 1;
    return 0;
}

// worker_jobs.progress: how many of the cases side by side are done.
static void schedule_done(void *ctx, int done, int total)
{
    case_plan *plan = ctx;
    schedule_progress(&plan->s->args, "  %d of %d cases done ...", done, total);
}

// worker_jobs.name: slot i's case name.
static const char *schedule_slot_name(void *ctx, int i)
{
    case_plan *plan = ctx;
    return plan->s->run.cases[i].name;
}

// What case r (with its runner's report) adds to the run: the tiles the
// kernel declared, the technique line (judged on the largest case every
// backend runs, so the verdict is the same under emulation and on a GPU; a
// `noemu` case only when there is no other), the case counts.
static void schedule_count_case(judge_run *run, const case_result *r, const kv_list *report, size_t *technique_cells)
{
    const lab_case *spec = &r->spec;
    run->in_tile = (int)kv_number(report, "in_tile_dim", run->in_tile);
    run->out_tile = (int)kv_number(report, "out_tile_dim", run->out_tile);
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    size_t rank = spec->noemu ? cells : cells + ((size_t)1 << 48);
    const unsigned int size[3] = {spec->nx, spec->ny, spec->nz};
    // Judged on the largest case that passed with points to compute: a grid with no interior (N=1, 2)
    // says nothing of how the work is spread (schedule_technique_evidence fails the line when no other passed).
    if (r->status == CASE_OK && r->interior > 0 && rank >= *technique_cells && kv_get(report, "launches")) {
        *technique_cells = rank;
        run->technique = technique_check_grid(run->conf.technique, report, size, run->conf.star_radius);
        snprintf(run->technique_case, sizeof(run->technique_case), "%s", r->name);
        technique_launches_of(report, run->technique_launches, sizeof(run->technique_launches));
        launch_info li;
        if (technique_launch(report, 0, &li) == 0)
            memcpy(run->sized_block, li.block, sizeof(run->sized_block));
        // Under emulation the emulator counted the loads of this very call (grader/emu/runtime/loads.cpp).
        run->emu_loads_counted = kv_get(report, PROTOCOL_EMU_GLOBAL_LOAD_BYTES) != NULL;
        if (run->emu_loads_counted && run->technique.status == TECHNIQUE_OK && technique_counts_loads(run->conf.technique))
            technique_loads_grid(run->conf.technique, report, size, run->conf.star_radius, TECHNIQUE_LOADS_EMU,
                                 kv_number(report, PROTOCOL_EMU_GLOBAL_LOAD_BYTES, 0) / sizeof(float),
                                 kv_number(report, PROTOCOL_EMU_SHARED_LOAD_BYTES, 0) / sizeof(float), NULL, &run->technique);
    }
    // A timed case (a GPU's): the kernels timed must use the technique too, or a
    // file could use it on the small grids and time another kernel.
    if (r->status == CASE_OK && spec->timed && !strcmp(run->backend, "gpu") && kv_get(report, "launches")) {
        technique_result t = technique_check_grid(run->conf.technique, report, size, run->conf.star_radius);
        if (t.status == TECHNIQUE_FAIL && run->technique_timed.status != TECHNIQUE_FAIL) {
            run->technique_timed = t;
            snprintf(run->technique_timed.detail, sizeof(run->technique_timed.detail), "on the timed case %s: %s", r->name, t.detail);
        }
        if (!run->timed_case[0] || cells > run->timed_cells) {
            snprintf(run->timed_case, sizeof(run->timed_case), "%s", r->name);
            run->timed_cells = cells;
            technique_launches_of(report, run->timed_launches, sizeof(run->timed_launches));
        }
    }
    if (r->status == CASE_OK)
        run->passed++;
    else
        run->failed++;
}

// Appends to run->cases the cases of specs (nspecs, the index of the first
// in the run's case order first_index: lab.conf's cases from 0, the cases
// sized from the kernel's launch after them) that the options select, in
// that order, and plans each: skipped (a `noemu` case under emulation),
// failed at once (too large), side by side (jobs > 1) or alone.
static void schedule_plan(judge_session *s, int jobs, case_plan *plan, const lab_case *specs, int nspecs, int first_index)
{
    judge_run *run = &s->run;
    for (int n = 0; n < nspecs; n++) {
        int i = first_index + n;
        case_result *r = &run->cases[run->ncases];
        const lab_case *spec = &specs[n];
        memset(r, 0, sizeof(*r));
        r->spec = *spec;
        conf_case_name(spec, r->name, sizeof(r->name));
        if (!judge_options_case_selected(&s->args, spec, r->name))
            continue;
        int slot = run->ncases++;
        plan->conf_index[slot] = i;
        r->seed = rng_case_seed(run->seed, spec->sized_tile ? lab_kind_sized_seed_index(spec) : i);
        plan->ran[slot] = 1;  // until it is known to need running
        if (plan->env->emu && spec->noemu) {
            r->status = CASE_SKIPPED;
            snprintf(r->kind, sizeof(r->kind), "skipped");
            snprintf(r->reason, sizeof(r->reason), "%s", spec->timed ? "timing case: timing is n/a on CPU emulation" : "too large for CPU emulation");
            run->skipped++;
            continue;
        }
        if (schedule_case_too_large(run, spec, r)) {
            plan->counted[slot] = 1;  // schedule_case_too_large counted it failed
            continue;
        }
        plan->ran[slot] = 0;
        if (jobs > 1 && !schedule_case_alone(spec))
            plan->shared[plan->nshared++] = slot;
        else
            plan->alone[plan->nalone++] = slot;
    }
    // Alone, the timed cases last: each waits for the runs under a tool started ahead (tool_runs.h),
    // which the untimed cases before it leave time to end.
    int order[CONF_MAX_CASES], n = 0;
    for (int timed = 0; timed < 2; timed++)
        for (int k = 0; k < plan->nalone; k++)
            if (run->cases[plan->alone[k]].spec.timed == timed)
                order[n++] = plan->alone[k];
    memcpy(plan->alone, order, sizeof(int) * (size_t)n);
    // The longest first: a sync case (its barrier checks follow), then the larger grids.
    for (int x = 1; x < plan->nshared; x++)
        for (int y = x; y > 0 && schedule_case_before(&run->cases[plan->shared[y]].spec, &run->cases[plan->shared[y - 1]].spec); y--) {
            int t = plan->shared[y];
            plan->shared[y] = plan->shared[y - 1], plan->shared[y - 1] = t;
        }
}

// Runs the planned side-by-side cases, jobs at a time in one shared GPU
// turn, then merges their heat-map planes in lab.conf's order, as one at a
// time would. Returns 0, or -1 with err.
static int schedule_run_shared(judge_session *s, int jobs, case_plan *plan, judge_error *err)
{
    worker_jobs w = {schedule_work, schedule_collect, schedule_done, schedule_slot_name, plan};
    if (!plan->nshared)
        return 0;
    schedule_progress(&s->args, "  running %d cases, %d at a time ...", plan->nshared, jobs < plan->nshared ? jobs : plan->nshared);
    // One shared turn for all of them: long under SANITIZE=1 (their memcheck runs inside it take seconds; a
    // timer waits for it without the gate, the other judges' short turns going on meanwhile).
    if (!plan->env->emu && gpu_turns_take(s->args.sanitize ? GPU_TURN_LONG : GPU_TURN_SHARED, err) != 0)
        return -1;
    if (worker_pool_run(&s->pool, jobs, plan->shared, plan->nshared, &w, err) != 0)
        return -1;
    gpu_turns_give();
    for (int slot = 0; slot < s->run.ncases; slot++) {
        char path[PATH_MAX + 32];
        worker_pool_path(&s->pool, slot, "picture", path, sizeof(path));
        if (plan->ran[slot] && pictures_merge_offer(path) != 0)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot read case %s's heat-map plane: %s", s->run.cases[slot].name, strerror(errno));
    }
    return 0;
}

// Runs the planned cases one at a time, in the judge itself, the timed ones
// last: their runners take their turns on the GPU (alone for a timed one,
// once every shared turn, the helpers' runs included, has ended; shared
// otherwise; judge_spawn_runner).
// The barrier checks of the untimed sync cases (racecheck and the strict
// barriers, runs under tools started ahead in helpers) are taken after every
// case, the timed ones included, so that the cases run while the tools do.
// Before the first timed case, racecheck's helpers are waited for to their
// end (its start-up makes a CUDA context outside any turn: nothing of it runs
// while a case is timed); the strict barriers' emulation, on the CPU, goes on
// beside the timed case, nicer than the executor (SPAWN_NICE_BESIDE). With
// --fail-fast, each right after its case, and a case that failed earlier in
// lab.conf's order ends the run here. Returns 0, or -1 with err.
static int schedule_run_alone(judge_session *s, case_plan *plan, judge_error *err)
{
    judge_case_env env = *plan->env;
    int due[CONF_MAX_CASES], ndue = 0;
    for (int k = 0; k < plan->nalone; k++) {
        int slot = plan->alone[k], index = plan->conf_index[slot], failed_before = 0, barriers = 0;
        case_result *r = &s->run.cases[slot];
        if (r->spec.timed && ndue)
            tool_runs_wait_for(s, TOOL_RACECHECK);
        for (int before = 0; before < slot; before++)
            failed_before |= plan->ran[before] && s->run.cases[before].status == CASE_FAIL;
        if (s->args.fail_fast && failed_before)
            break;
        schedule_progress(&s->args, "  running %s ...%20s", r->name, "");
        env.early = s->bg.early[index].mem ? &s->bg.early[index] : NULL;
        if (schedule_case_run(s, &env, r, &plan->reports[slot], &barriers, err) != 0)
            return -1;
        // (a timed case's at once; with --fail-fast too: a sync case failing them ends the run there)
        if (barriers && !r->spec.timed && !s->args.fail_fast)
            due[ndue++] = slot;
        else if (barriers && barrier_checks_case(s, &r->spec, r, err) != 0)
            return -1;
        plan->ran[slot] = 1;
    }
    return schedule_barriers_of(s, due, ndue, err);
}

// Counts the cases in lab.conf's order. With --fail-fast the run ends at the
// first case that failed in that order, as one case at a time would: the
// cases after it are left out, run or not.
static void schedule_count_in_order(judge_session *s, case_plan *plan, int first_slot)
{
    judge_run *run = &s->run;
    size_t technique_cells = run->technique_cells;
    int kept = first_slot, ncases = run->ncases;
    for (int slot = first_slot; slot < ncases; slot++) {
        case_result *r = &run->cases[slot];
        if (!plan->ran[slot] || (s->args.fail_fast && kept > 0 && run->cases[kept - 1].status == CASE_FAIL)) {
            if (plan->ran[slot] && plan->counted[slot])
                run->failed--;  // a too-large case after the end: not counted after all
            if (plan->ran[slot] && r->status == CASE_SKIPPED)
                run->skipped--;
            kv_free(&plan->reports[slot]);
            continue;
        }
        if (r->status != CASE_SKIPPED && !plan->counted[slot])
            schedule_count_case(run, r, &plan->reports[slot], &technique_cells);
        kv_free(&plan->reports[slot]);
        if (kept != slot)
            run->cases[kept] = *r;
        kept++;
    }
    run->ncases = kept;
    run->technique_cells = technique_cells;
}

// The technique line once every case is counted: failed when only cases
// with nothing to compute passed (no evidence of the idea), or when a timed
// case's kernels broke the rule the small grids kept.
static void schedule_technique_evidence(judge_run *run)
{
    if (run->technique.status == TECHNIQUE_NA && run->passed > 0) {
        run->technique.status = TECHNIQUE_FAIL;
        snprintf(run->technique.detail, sizeof(run->technique.detail),
                 "not judged: no case with interior points passed (the line is judged on the largest case the kernel gets right)");
    }
    if (run->technique.status == TECHNIQUE_OK && run->technique_timed.status == TECHNIQUE_FAIL)
        run->technique = run->technique_timed;  // the technique on the small grids, another kernel timed
}

// Plans, runs and counts the cases of specs (nspecs, the first first_index
// in the run's order), appended to run->cases. Returns 0, or -1 with err.
static int schedule_round(judge_session *s, const judge_case_env *env, int jobs, const lab_case *specs, int nspecs, int first_index,
                          judge_error *err)
{
    case_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.s = s, plan.env = env;
    int first_slot = s->run.ncases;
    schedule_plan(s, jobs, &plan, specs, nspecs, first_index);
    if (schedule_run_shared(s, jobs, &plan, err) != 0 || schedule_run_alone(s, &plan, err) != 0 ||
        barrier_checks_second_look(s, env, plan.ran, plan.reports, err) != 0)
        return -1;
    schedule_progress(&s->args, "%60s", "");
    schedule_count_in_order(s, &plan, first_slot);
    return 0;
}

// After lab.conf's cases, in a whole run (no --case) that a failure has not
// ended (--fail-fast): the cases sized from the kernel's own launch
// (lab_kind_sized_cases, from the block of the case the technique was judged
// on), run and counted as lab.conf's after them, SCHEDULE_SIZED_MAX at most.
// They run whether or not a case of lab.conf failed: a kernel must not earn
// more by failing one (the sizes it would then escape may fail more). One
// at a time in the judge itself, never in workers forked now: the judge may
// have run OpenMP regions since the first round's workers (a timed case's
// verdict), and a worker forked after that deadlocks in its own (libgomp).
// Returns 0, or -1 with err.
static int schedule_sized_round(judge_session *s, const judge_case_env *env, judge_error *err)
{
    judge_run *run = &s->run;
    lab_case sized[SCHEDULE_SIZED_MAX];
    int room = CONF_MAX_CASES - run->conf.ncases < SCHEDULE_SIZED_MAX ? CONF_MAX_CASES - run->conf.ncases : SCHEDULE_SIZED_MAX;
    if (s->replay_sized.nx)  // CASE= named one (a report's replay line): it alone
        return room > 0 ? schedule_round(s, env, 1, &s->replay_sized, 1, run->conf.ncases, err) : 0;
    if ((s->args.fail_fast && run->failed) || s->args.case_name || !run->sized_block[0] || room <= 0)
        return 0;
    int n = lab_kind_sized_cases(&run->conf, run->sized_block, sized, room);
    if (n <= 0)
        return 0;
    judge_trace_note("cases sized from the launch's block %llux%llux%llu: %d", run->sized_block[0], run->sized_block[1], run->sized_block[2], n);
    return schedule_round(s, env, 1, sized, n, run->conf.ncases, err);
}

int schedule_run_cases(judge_session *s, judge_error *err)
{
    judge_run *run = &s->run;
    judge_case_env env = schedule_case_env(s, s->runner, s->student);
    env.executor = schedule_executor_for(s);
    // An emulation runner holds student code (every case under emulation, the barrier checks on a
    // GPU); without Landlock it could write another case's hand-off files beside its own folder:
    // one case at a time there. On a GPU one executor serves the cases, one after another: a case's
    // GPU work is milliseconds, and the processes and contexts side by side cost more than they save.
    int jobs = !sandbox_confines_writes() || env.executor ? 1 : s->args.jobs;
    snprintf(run->technique.detail, sizeof(run->technique.detail), "no case ran to the end");
    run->technique_timed.status = TECHNIQUE_NA;
    run->timed_case[0] = '\0';
    run->timed_cells = 0;
    run->technique.status = TECHNIQUE_NA;
    run->technique_cells = 0;
    memset(run->sized_block, 0, sizeof(run->sized_block));
    if (schedule_round(s, &env, jobs, run->conf.cases, run->conf.ncases, 0, err) != 0 || schedule_sized_round(s, &env, err) != 0)
        return -1;
    schedule_technique_evidence(run);
    return 0;
}
