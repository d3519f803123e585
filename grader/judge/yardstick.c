// grader/judge/yardstick.c — the lab's solution timed for the speed score (yardstick.h).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case_schedule.h"
#include "rng.h"
#include "runner_build.h"
#include "spawn.h"
#include "yardstick.h"
#include "yardstick_cache.h"

// 1 if the rubric scores speed against the lab's solution timed on the same GPU.
static int yardstick_wanted(const judge_run *run)
{
    if (strcmp(run->backend, "gpu") != 0)
        return 0;
    for (int i = 0; i < run->conf.nparts; i++)
        if (run->conf.parts[i].kind == RUBRIC_SPEED && run->conf.parts[i].against_solution)
            return 1;
    return 0;
}

// 1 if the file graded (kernel_abs, or run->kernel resolved when NULL) is lab.conf's solution.
static int yardstick_grades_solution(const judge_session *s, const char *kernel_abs)
{
    char path[PATH_MAX + CONF_TEXT], sol[PATH_MAX], mine[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", s->args.kit, s->run.conf.solution);
    if (!kernel_abs)
        kernel_abs = realpath(s->run.kernel, mine);
    return realpath(path, sol) && kernel_abs && !strcmp(sol, kernel_abs);
}

// Where the solution's figures for this lab, kit and GPU are kept
// (yardstick_cache.h): build/yardstick/<lab>-<key>.txt, the key made of the
// solution, lab.conf, the executor and the build rules, and the GPU's name,
// SMs, compute capability, driver and runtime.
static void yardstick_path(const judge_session *s, char *path, size_t len)
{
    const judge_run *run = &s->run;
    char sol[PATH_MAX + CONF_TEXT], conf[PATH_MAX + 16], executor[PATH_MAX], rules[PATH_MAX + 32];
    snprintf(sol, sizeof(sol), "%s/%s", s->args.kit, run->conf.solution);
    snprintf(conf, sizeof(conf), "%s/lab.conf", run->lab_dir);
    runner_executor_path(&s->args, executor, sizeof(executor));
    snprintf(rules, sizeof(rules), "%s/grader/build.mk", s->args.kit);
    const char *files[] = {sol, conf, executor, rules, NULL};
    const char *texts[] = {run->device, run->device_info, NULL};
    snprintf(path, len, "%s/build/yardstick/%s-%016llx.txt", s->args.kit, run->lab_name,
             (unsigned long long)yardstick_cache_key(files, texts));
}

// 1 when the kept figures hold every timed case this run selects (they are
// then the yardstick: s->yard.gbs, have).
static int yardstick_kept(judge_session *s)
{
    judge_run *run = &s->run;
    char path[PATH_MAX + 64];
    double gbs[CONF_MAX_CASES];
    if (yardstick_grades_solution(s, s->kernel_abs))
        return 0;  // the solution graded: its own times are the yardstick
    yardstick_path(s, path, sizeof(path));
    if (yardstick_cache_load(path, gbs, run->conf.ncases) <= 0)
        return 0;
    for (int k = 0; k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        if (spec->timed && judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name))) && gbs[k] <= 0)
            return 0;
    }
    memcpy(s->yard.gbs, gbs, sizeof(gbs[0]) * (size_t)run->conf.ncases);
    s->yard.have = 1;
    judge_trace_note("yardstick: the solution's figures kept in %s", path);
    return 1;
}

// Keeps the figures measured (gbs[k] for lab.conf's case k, 0: none) with
// those kept before for this key; a kit whose build folder is read-only keeps none.
static void yardstick_keep(const judge_session *s, const double *gbs)
{
    char path[PATH_MAX + 64], dir[PATH_MAX + 16];
    double all[CONF_MAX_CASES];
    int any = 0, n = s->run.conf.ncases;
    yardstick_path(s, path, sizeof(path));
    yardstick_cache_load(path, all, n);
    for (int k = 0; k < n; k++)
        if (gbs[k] > 0)
            all[k] = gbs[k], any = 1;
    if (!any)
        return;
    snprintf(dir, sizeof(dir), "%s/build/yardstick", s->args.kit);
    mkdir(dir, 0755);
    yardstick_cache_save(path, all, n);
}

// Times the solution once on case spec with seed (its grids not judged: the
// kit's own solution); its GB/s, or 0 when it did not run through.
static double yardstick_time_case(const judge_session *s, const judge_case_env *env, const lab_case *spec, uint64_t seed)
{
    case_result r;
    kv_list report;
    double gbs = 0;
    memset(&r, 0, sizeof(r));
    r.spec = *spec;
    if (schedule_run_kind(env, &s->run, spec, seed, &r, &report) == 0) {
        if (r.status == CASE_OK && r.timed)
            gbs = r.gbs;
        kv_free(&report);
    }
    return gbs;
}

// The environment the solution is timed in: timed as it is, its grids not judged.
static judge_case_env yardstick_env(const judge_session *s)
{
    judge_case_env env = schedule_case_env(s, s->yard.runner, s->yard.student);
    env.sanitize = env.profile = 0, env.yardstick = 1;
    return env;
}

// In the early helper: times the solution on every timed case selected and
// leaves its GB/s a case in the temporary folder; never returns.
static void yardstick_early(judge_session *s)
{
    char path[PATH_MAX + 32];
    const judge_run *run = &s->run;
    judge_case_env env = yardstick_env(s);
    worker_pool_path(&s->pool, -1, "yardstick", path, sizeof(path));
    FILE *f = fopen(path, "w");
    for (int k = 0; f && k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        if (spec->timed && judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name))))
            fprintf(f, "%d %.6f\n", k, yardstick_time_case(s, &env, spec, rng_case_seed(run->seed, k)));
    }
    spawn_child_exit(f && fclose(f) == 0 ? 0 : 3);
}

int yardstick_prepare(judge_session *s, judge_error *err)
{
    yardstick *y = &s->yard;
    judge_run *run = &s->run;
    char path[PATH_MAX + CONF_TEXT], sol[PATH_MAX];
    if (!yardstick_wanted(run) || yardstick_kept(s))
        return 0;
    snprintf(path, sizeof(path), "%s/%s", s->args.kit, run->conf.solution);
    if (!realpath(path, sol) || !strcmp(sol, s->kernel_abs))
        return 0;  // none in this kit, or the file graded is the solution itself
    if (runner_build(&s->args, run, "gpu", 1, sol, y->runner, sizeof(y->runner), y->student, sizeof(y->student), err) != 0)
        return -1;
    y->have_solution = 1;
    if (s->args.gpu_lock_dir || s->args.jobs < 2)
        return 0;  // timed after the cases
    pid_t pid = worker_pool_fork(&s->pool, -1);
    if (pid == 0)
        yardstick_early(s);
    if (pid > 0)  // (else timed later, as with --jobs 1)
        y->pid = pid, worker_pool_track(&s->pool, pid, -1);  // stopped with the case workers on a kit failure
    return 0;
}

void yardstick_wait(judge_session *s)
{
    yardstick *y = &s->yard;
    char path[PATH_MAX + 32];
    int k;
    double gbs;
    if (!y->pid)
        return;
    int status = worker_pool_wait(&s->pool, y->pid);
    y->pid = 0;
    worker_pool_path(&s->pool, -1, "yardstick", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (!f || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (f)
            fclose(f);
        return;  // timed later, the usual way
    }
    while (fscanf(f, "%d %lf", &k, &gbs) == 2)
        if (k >= 0 && k < CONF_MAX_CASES)
            y->gbs[k] = gbs;
    fclose(f);
    y->have = 1;
    yardstick_keep(s, y->gbs);
}

// 1 if lab.conf's case k is timed and named name.
static int yardstick_is_case(const judge_run *run, int k, const char *name)
{
    char it[48];
    return run->conf.cases[k].timed && !strcmp(conf_case_name(&run->conf.cases[k], it, sizeof(it)), name);
}

// Waits until no other judge times this solution for the same key (judges
// side by side, a class's first ones: one times, the others then read what
// it kept) and holds that turn: its descriptor (close it to give the turn
// back), or -1 when none can be made (a kit whose build folder is read-only).
static int yardstick_timing_lock(const judge_session *s)
{
    char path[PATH_MAX + 64], lock[PATH_MAX + 80], dir[PATH_MAX + 16];
    snprintf(dir, sizeof(dir), "%s/build/yardstick", s->args.kit);
    mkdir(dir, 0755);
    yardstick_path(s, path, sizeof(path));
    snprintf(lock, sizeof(lock), "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        spawn_check_stop();
    return fd;
}

void yardstick_time(judge_session *s)
{
    judge_run *run = &s->run;
    double measured[CONF_MAX_CASES] = {0};
    int lock = -1;
    if (!yardstick_wanted(run))
        return;
    if (!s->yard.have && s->yard.have_solution) {  // timed here unless a judge beside kept it meanwhile
        lock = yardstick_timing_lock(s);
        yardstick_kept(s);
    }
    judge_case_env env = yardstick_env(s);
    env.executor = &s->exec;
    for (int i = 0; i < run->ncases; i++) {
        case_result *c = &run->cases[i];
        if (!c->timed || c->status != CASE_OK)
            continue;
        if (s->yard.have) {  // measured while the student's file was built, or kept
            for (int k = 0; k < run->conf.ncases; k++)
                if (yardstick_is_case(run, k, c->name))
                    c->solution_gbs = s->yard.gbs[k];
            continue;
        }
        if (!s->yard.have_solution) {  // the solution graded itself (or none to time: solution_gbs stays 0)
            if (yardstick_grades_solution(s, NULL))
                c->solution_gbs = c->gbs;
            continue;
        }
        c->solution_gbs = yardstick_time_case(s, &env, &c->spec, c->seed);
        for (int k = 0; k < run->conf.ncases; k++)  // kept for the next run, by lab.conf's index
            if (yardstick_is_case(run, k, c->name))
                measured[k] = c->solution_gbs;
    }
    if (!s->yard.have && s->yard.have_solution)
        yardstick_keep(s, measured);
    if (lock >= 0)
        close(lock);
}
