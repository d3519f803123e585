// grader/judge/tool_runs.c — a GPU run's cases under a tool, started ahead
// in helpers and remembered for the same programs (tool_runs.h).
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "case_schedule.h"
#include "gpu_turns.h"
#include "judge_files.h"
#include "judge_session.h"
#include "load_count.h"
#include "pipe_io.h"
#include "rng.h"
#include "runner_build.h"
#include "sandbox.h"
#include "spawn.h"
#include "technique.h"
#include "tool_cache.h"
#include "tool_runs.h"

#define TOOL_RUNS_FIRST_SLOT (-10) // the helpers' files: case-(-10 - k).* in the run's folder

// Each tool's name in the cache's file names and the trace.
static const char *const tool_names[TOOL_KINDS] = {"loads", "count", "racecheck", "strict"};

// The environment case runs take under tool (never the executor: each is a
// process of its own under the tool).
static judge_case_env tool_env(const struct judge_session *s, tool_kind tool)
{
    judge_case_env env = schedule_case_env(s, s->runner, s->student);
    env.sanitize = 0, env.profile = 0;
    if (tool == TOOL_LOADS)
        env.ncu_metrics = JUDGE_NCU_LOADS;
    else if (tool == TOOL_COUNT)
        env.count_loads = 1;
    else if (tool == TOOL_RACECHECK)
        env.sanitize = JUDGE_RACECHECK;
    else
        env.runner = s->bg.emu_runner, env.emu = 1, env.student = NULL;
    return env;
}

// The file remembering tool's run of spec for the programs it runs, into
// path; 0, or -1 when nothing can be remembered (no student's program).
static int tool_cache_file(const struct judge_session *s, tool_kind tool, const lab_case *spec, char *path, size_t len)
{
    char dir[PATH_MAX];
    const char *gpu[] = {s->runner, s->student, NULL}, *emu[] = {s->bg.emu_runner, NULL};
    if (!s->student[0] || (tool == TOOL_STRICT && s->bg.emu_built != 1))
        return -1;
    snprintf(dir, sizeof(dir), "%s", s->student);
    return tool_cache_path(dirname(dir), tool_names[tool], &s->run.conf, spec, tool == TOOL_STRICT ? emu : gpu, path, len);
}

// 1 if a tool's run of spec is remembered (without reading it).
static int tool_remembered(const struct judge_session *s, tool_kind tool, const lab_case *spec)
{
    char path[PATH_MAX + 64];
    return tool_cache_file(s, tool, spec, path, sizeof(path)) == 0 && access(path, R_OK) == 0;
}

// In helper h's process: runs its case under its tool (on profiler, an
// executor started under it ahead, when not NULL), leaves the outcome and
// the report in its files (written, then renamed: present means whole), ends.
static void tool_helper_work(struct judge_session *s, const tool_helper *h, struct judge_executor *profiler)
{
    char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
    case_result r;
    kv_list report;
#ifdef _OPENMP
    omp_set_num_threads(s->args.cpus);  // the input and the check of a large case: the judge's own cases are small
#endif
    // The strict barriers' runner may still be building beside the cases: waited for here, the
    // judge going on with them; a runner that did not build, or a run remembered for it, is the judge's.
    if (h->tool == TOOL_STRICT && (!background_emu_await(s) || tool_remembered(s, h->tool, &h->spec)))
        spawn_child_exit(0);
    judge_case_env env = tool_env(s, h->tool);
    env.executor = profiler;
    if (h->tool == TOOL_COUNT && profiler)  // counted inside the judge's alone turn (gpu_turns.h): only an executor
        env.gpu_relay_await = gpu_turns_relay_await, env.gpu_relay_done = gpu_turns_relay_done;  // started ahead
    // No turn of the helper's own: counting, or under Nsight Compute or compute-sanitizer, the executor
    // takes the locks around its GPU work (judge_spawn_runner); the strict barriers' emulation has none.
    memset(&r, 0, sizeof(r));
    r.spec = h->spec, r.seed = h->seed;
    conf_case_name(&h->spec, r.name, sizeof(r.name));
    if (schedule_run_kind(&env, &s->run, &r.spec, h->seed, &r, &report) != 0)
        spawn_child_exit(3);
    worker_pool_path(&s->pool, h->slot, "report", path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    if (kv_save(tmp, &report) != 0 || rename(tmp, path) != 0)
        spawn_child_exit(3);
    worker_pool_path(&s->pool, h->slot, "result", path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");  // hint_key points into the judge's tables: the same address in the judge it was forked from
    int ok = f && fwrite(&r, sizeof(r), 1, f) == 1;
    ok = f && fclose(f) == 0 && ok;
    spawn_child_exit(ok && rename(tmp, path) == 0 ? 0 : 3);  // its line counts written first (coverage build)
}

// Before the load count's helper is forked with its executor started ahead
// (tool_runs_early_start: a count started after the build starts its
// executor when it runs, work the judge's timed turn must not see): where the
// judge will take a turn alone (a timed case counted: every run takes turns) and the
// executor counts in one, the relay that makes its turn follow the judge's at
// once (gpu_turns.h).
static void tool_relay_arm(struct judge_session *s, tool_kind tool, int loads)
{
    if (tool != TOOL_COUNT || loads < 0 || !s->run.conf.cases[loads].timed)
        return;
    gpu_turns_relay_arm();
}

// Starts a helper running spec (seed) under tool, unless remembered already.
static void tool_helper_start(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed)
{
    tool_runs *t = &s->tools;
    if (t->n >= TOOL_RUNS_MAX || tool_remembered(s, tool, spec))
        return;
    tool_helper *h = &t->helper[t->n];
    h->tool = tool, h->spec = *spec, h->seed = seed, h->slot = TOOL_RUNS_FIRST_SLOT - t->n;
    pid_t pid = worker_pool_fork(&s->pool, h->slot);
    if (pid < 0)
        return;  // run when needed, as without
    if (pid == 0)
        tool_helper_work(s, h, NULL);
    h->pid = pid;
    worker_pool_track(&s->pool, pid, h->slot);
    t->n++;
}

// The case whose loads are counted, as load_count.c picks it after the
// cases: the largest timed case the options select (the first of equals);
// -1 if none.
static int tool_loads_case(const struct judge_session *s)
{
    const judge_run *run = &s->run;
    int pick = -1;
    double pick_cells = 0;
    for (int k = 0; k < run->conf.ncases; k++) {
        const lab_case *spec = &run->conf.cases[k];
        char name[48];
        double cells = (double)spec->nx * spec->ny * spec->nz;
        if (spec->timed && judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name))) &&
            (pick < 0 || cells > pick_cells))
            pick = k, pick_cells = cells;
    }
    return pick;
}

// The tool that counts the loads: the executor itself (TOOL_COUNT, the
// default), else Nsight Compute where on PATH (TOOL_LOADS); -1: neither.
static int tool_counter(void)
{
    return load_count_in_process() ? TOOL_COUNT : judge_on_path("ncu") ? TOOL_LOADS : -1;
}

// Reads, in the early load count's helper, what the judge sends once the
// student's file is built (tool_runs_start): the runner's path and the
// student program's, each ending in a NUL byte, into s; a lone NUL byte (or
// nothing): no count needed. Returns 1 when the programs came.
static int tool_early_programs(struct judge_session *s, int fd)
{
    char got[2 * PATH_MAX + 2];
    size_t used = 0, nuls = 0;
    while (used < sizeof(got) && nuls < 2) {
        ssize_t n = read(fd, got + used, 1);
        if (n < 0 && errno == EINTR) {
            spawn_check_stop();  // the judge stopping (a build that failed): its executor killed, this helper ends now
            continue;
        }
        if (n <= 0 || (used == 0 && got[0] == '\0'))
            return 0;
        nuls += got[used++] == '\0';
    }
    if (nuls < 2)
        return 0;
    snprintf(s->runner, sizeof(s->runner), "%s", got);
    snprintf(s->student, sizeof(s->student), "%s", got + strlen(got) + 1);
    return 1;
}

// In the early load count's helper h: starts the executor that counts
// (the executor's own count: one serving, its CUDA context and the count's
// host side made now; else one under Nsight Compute, its table in h's
// files), waits for the built programs on fd, then counts as any helper
// does (tool_helper_work); ends.
static void tool_early_work(struct judge_session *s, const tool_helper *h, int fd)
{
    judge_executor counter;
    char table[PATH_MAX + 32];
    memset(&counter, 0, sizeof(counter));
    snprintf(counter.program, sizeof(counter.program), "%s", s->exec.program);
    worker_pool_path(&s->pool, h->slot, "counter.log", counter.log, sizeof(counter.log));
    worker_pool_path(&s->pool, h->slot, JUDGE_NCU_TABLE, table, sizeof(table));
    judge_case_env env = tool_env(s, h->tool);
    counter.counts_loads = h->tool == TOOL_COUNT;
    if (counter.counts_loads)
        judge_executor_start(&counter, NULL);
    else
        judge_profiler_start(&counter, &env, table);  // (not serving: the case starts Nsight Compute itself, as before)
    if (!tool_early_programs(s, fd)) {
        spawn_server_stop(&counter.server);
        spawn_child_exit(0);
    }
    close(fd);
    judge_trace_note("tool runs: the load count %s", counter.server.pid > 0 ? "served by the executor started beside the build"
                                                                        : "in an executor of its own (the one started beside the build did not serve)");
    tool_helper_work(s, h, counter.server.pid > 0 ? &counter : NULL);
}

void tool_runs_early_start(struct judge_session *s)
{
    tool_runs *t = &s->tools;
    int loads = tool_loads_case(s), counter = tool_counter(), go[2];
    t->early_fd = -1;
    // Not while an early yardstick times (nothing else on the GPU then), nor for a file built
    // unchanged already (its count remembered, most likely: one started after the build otherwise).
    if (strcmp(s->run.backend, "gpu") || s->args.jobs < 2 || s->yard.pid > 0 || loads < 0 || t->n > 0 || counter < 0 ||
        !technique_counts_loads(s->run.conf.technique) || runner_unchanged(&s->args, &s->run, "gpu", s->kernel_abs) ||
        pipe2(go, O_CLOEXEC) != 0)
        return;
    tool_helper *h = &t->helper[0];
    h->tool = (tool_kind)counter, h->spec = s->run.conf.cases[loads], h->spec.timed = 0;  // counted untimed (load_count.c)
    h->seed = rng_case_seed(s->run.seed, loads), h->slot = TOOL_RUNS_FIRST_SLOT;
    tool_relay_arm(s, h->tool, loads);
    pid_t pid = worker_pool_fork(&s->pool, h->slot);
    gpu_turns_relay_forked(pid);
    if (pid == 0) {
        close(go[1]);
        tool_early_work(s, h, go[0]);
    }
    close(go[0]);
    if (pid < 0) {
        close(go[1]);
        return;  // started after the build, as without
    }
    h->pid = pid;
    worker_pool_track(&s->pool, pid, h->slot);
    t->n = 1, t->early_fd = go[1];
    judge_trace_note("tool runs: the load count's %s starting beside the build", counter == TOOL_COUNT ? "executor" : "profiler");
}

// Sends the early load count's helper the built programs, or that no count
// is needed (the file remembered, or none built), and forgets the pipe.
static void tool_early_go(struct judge_session *s, int wanted)
{
    tool_runs *t = &s->tools;
    char msg[2 * PATH_MAX + 2];
    size_t len = 1;
    msg[0] = '\0';
    if (t->early_fd < 0)
        return;
    if (wanted) {
        int n = snprintf(msg, sizeof(msg), "%s%c%s", s->runner, '\0', s->student);
        len = n > 0 && (size_t)n < sizeof(msg) ? (size_t)n + 1 : 1;
    }
    if (pipe_write_all(t->early_fd, msg, len) != 0 || !wanted) {
        t->helper[0].spec.line = -1;  // its outcome is not this run's (tool_helper_of finds none)
        kill(t->helper[0].pid, SIGKILL);  // nothing of it is needed: not waited for (its profiler dies with it)
    }
    close(t->early_fd);
    t->early_fd = -1;
}

void tool_runs_start(struct judge_session *s)
{
    const judge_run *run = &s->run;
    int loads = tool_loads_case(s);
    if (s->tools.early_fd >= 0) {
        lab_case spec = s->tools.helper[0].spec;
        tool_early_go(s, s->student[0] && !tool_remembered(s, s->tools.helper[0].tool, &spec));
    }
    if (strcmp(run->backend, "gpu") || s->args.jobs < 2 || !s->student[0])
        return;
    int counter = tool_counter();
    if (loads >= 0 && technique_counts_loads(run->conf.technique) && counter >= 0 && s->tools.n == 0) {
        lab_case spec = run->conf.cases[loads];
        spec.timed = 0;  // counted untimed (load_count.c)
        tool_helper_start(s, (tool_kind)counter, &spec, rng_case_seed(run->seed, loads));
    }
    if (s->args.sanitize)
        return;  // no barrier checks under the sanitizer (case_schedule.c)
    for (int k = 0; k < run->conf.ncases; k++) {
        const lab_case *spec = &run->conf.cases[k];
        char name[48];
        if (!spec->sync || spec->timed || !judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name))))
            continue;
        if (judge_on_path("compute-sanitizer"))
            tool_helper_start(s, TOOL_RACECHECK, spec, rng_case_seed(run->seed, k));
        // The strict barriers' emulation runs the student's code on the CPU beside the GPU's cases (a
        // timed one too): only where its writes are confined to its own folder (Landlock), else it could
        // rewrite a case's hand-off files; there the judge runs it itself, after the cases.
        if ((s->bg.emu_built == 1 || s->bg.emu_pid > 0) && sandbox_confines_writes())  // (still building: the helper waits)
            tool_helper_start(s, TOOL_STRICT, spec, rng_case_seed(run->seed, k));
    }
    if (s->tools.n)
        judge_trace_note("tool runs: %d started beside the cases", s->tools.n);
}

// (tool_runs_wait_for with TOOL_KINDS: every helper, whatever its tool.)
void tool_runs_wait_for(struct judge_session *s, tool_kind tool)
{
    for (int i = 0; i < s->tools.n; i++)
        if (s->tools.helper[i].pid > 0 && (tool == TOOL_KINDS || s->tools.helper[i].tool == tool)) {
            worker_pool_wait(&s->pool, s->tools.helper[i].pid);  // (-1 if a wait for the case workers took it)
            s->tools.helper[i].pid = 0;
        }
}

// Waits until every helper has ended (their outcomes stay for the taking).
static void tool_runs_wait(struct judge_session *s)
{
    gpu_turns_relay_release();  // no helper waits for a turn the judge will not take now
    tool_runs_wait_for(s, TOOL_KINDS);
}

// Ends every helper still running (its runner goes with it, spawn.h) and
// waits for them: what they were running is needed no more.
static void tool_runs_end_helpers(struct judge_session *s)
{
    gpu_turns_relay_skip();  // (a count helper waiting for the judge's turn ends at once, counting nothing)
    for (int i = 0; i < s->tools.n; i++)
        if (s->tools.helper[i].pid > 0)
            kill(s->tools.helper[i].pid, SIGTERM);
    tool_runs_wait(s);
}

void tool_runs_stop(struct judge_session *s)
{
    tool_runs_end_helpers(s);
    if (s->tools.n || s->tools.remembered)
        judge_trace_note("tool runs: %d ahead in helpers, %d remembered, %d in the judge", s->tools.ahead, s->tools.remembered,
                         s->tools.ran);
}

// The outcome helper h left into r and report; 1 if it left a whole one.
static int tool_helper_take(struct judge_session *s, tool_helper *h, case_result *r, kv_list *report)
{
    char path[PATH_MAX + 32];
    case_result got;
    if (h->tool == TOOL_COUNT)
        gpu_turns_relay_release();  // taken before the judge's turn alone (no timed case ran): it asks now
    if (h->pid > 0) {
        worker_pool_wait(&s->pool, h->pid);
        h->pid = 0;
    }
    worker_pool_path(&s->pool, h->slot, "result", path, sizeof(path));
    FILE *f = fopen(path, "rb");
    int ok = f && fread(&got, sizeof(got), 1, f) == 1;
    if (f)
        fclose(f);
    worker_pool_path(&s->pool, h->slot, "report", path, sizeof(path));
    if (!ok || kv_load(path, report) != 0)
        return 0;
    *r = got;
    return 1;
}

// The helper that ran spec (seed) under tool, or NULL.
static tool_helper *tool_helper_of(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed)
{
    for (int i = 0; i < s->tools.n; i++) {
        tool_helper *h = &s->tools.helper[i];
        if (h->tool == tool && h->seed == seed && h->spec.line == spec->line && h->spec.timed == spec->timed)
            return h;
    }
    return NULL;
}

// Remembers tool's run of spec (r, report) for these programs, but for a count that failed (asked again next time).
static void tool_remember(const struct judge_session *s, tool_kind tool, const lab_case *spec, const case_result *r, const kv_list *report)
{
    char path[PATH_MAX + 64];
    if (tool_cache_file(s, tool, spec, path, sizeof(path)) == 0 && ((tool != TOOL_LOADS && tool != TOOL_COUNT) || r->loads_counted))
        tool_cache_save(path, r, report);
}

int tool_runs_case(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report)
{
    char path[PATH_MAX + 64];
    int cacheable = tool_cache_file(s, tool, spec, path, sizeof(path)) == 0;
    if (cacheable && tool_cache_load(path, r, report)) {
        s->tools.remembered++;
        return 0;
    }
    tool_helper *h = tool_helper_of(s, tool, spec, seed);
    if (h && tool_helper_take(s, h, r, report)) {
        s->tools.ahead++;
        tool_remember(s, tool, spec, r, report);
        return 0;
    }
    return tool_runs_again(s, tool, spec, seed, r, report);
}

int tool_runs_again(struct judge_session *s, tool_kind tool, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report)
{
    // No helper's profiler beside this one (two on a GPU: neither counts). A count runs after the
    // cases, whose tool runs were all taken: a helper still running counts another case (the timed
    // one, where the count is of the largest case that passed), never read, so it is ended, not
    // waited for (on an H200 with 24 judges, one waiting for a turn of its own kept lab 3's files 80 s).
    if (tool == TOOL_LOADS || tool == TOOL_COUNT)
        tool_runs_end_helpers(s);
    judge_case_env env = tool_env(s, tool);
    if (schedule_run_kind(&env, &s->run, spec, seed, r, report) != 0)
        return -1;
    s->tools.ran++;
    tool_remember(s, tool, spec, r, report);
    return 0;
}
