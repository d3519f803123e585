// grader/judge/background.c — the helpers beside the build and the cases:
// the references made ahead, the barrier checks' emulation runner (background.h).
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "background.h"
#include "judge_session.h"
#include "lab_kind.h"
#include "rng.h"
#include "runner_build.h"
#include "spawn.h"

// Maps shared memory for every selected case whose reference is made ahead;
// returns 1 if there is any.
static int background_early_map(judge_session *s)
{
    judge_run *run = &s->run;
    int any = 0;
    for (int k = 0; k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        size_t bytes = lab_kind_of(&run->conf)->runner->early_bytes(&run->conf, spec);
        if (!bytes || !judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name))))
            continue;
        void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED)
            continue;  // solved when judged, as without
        s->bg.early[k].mem = mem, s->bg.early[k].bytes = bytes;
        any = 1;
    }
    return any;
}

void background_early_start(judge_session *s)
{
    judge_run *run = &s->run;
    background *bg = &s->bg;
    if (strcmp(run->backend, "gpu") || s->args.jobs < 2 || !background_early_map(s))  // a kind with none asks for 0 bytes
        return;
    pid_t pid = worker_pool_fork(&s->pool, -3);
    if (pid < 0) {
        background_early_stop(bg);  // solved when judged, as without
        return;
    }
    if (pid > 0) {
        bg->early_pid = pid;
        for (int k = 0; k < run->conf.ncases; k++)
            bg->early[k].pid = pid;
        return;
    }
#ifdef _OPENMP
    omp_set_num_threads(s->args.cpus);
#endif
    for (int k = 0; k < run->conf.ncases; k++)
        if (bg->early[k].mem)
            lab_kind_of(&run->conf)->runner->early_make(&run->conf, &run->conf.cases[k], rng_case_seed(run->seed, k), bg->early[k].mem, bg->early[k].bytes);
    spawn_child_exit(0);
}

void background_early_stop(background *bg)
{
    if (bg->early_pid > 0) {
        kill(bg->early_pid, SIGKILL);
        waitpid(bg->early_pid, NULL, 0);  // -1 if the side-by-side cases' wait took it already
        bg->early_pid = 0;
    }
    for (int k = 0; k < CONF_MAX_CASES; k++)
        if (bg->early[k].mem) {
            munmap(bg->early[k].mem, bg->early[k].bytes);
            memset(&bg->early[k], 0, sizeof(bg->early[k]));
        }
}

void background_emu_start(judge_session *s)
{
    judge_run *run = &s->run;
    int sync = 0;
    for (int k = 0; k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        sync |= spec->sync && judge_options_case_selected(&s->args, spec, conf_case_name(spec, name, sizeof(name)));
    }
    if (strcmp(run->backend, "gpu") || s->args.sanitize || s->args.jobs < 2 || !sync)
        return;
    pid_t pid = worker_pool_fork(&s->pool, -2);
    if (pid < 0)
        return;  // built on first use
    if (pid > 0) {
        s->bg.emu_pid = pid;
        worker_pool_track(&s->pool, pid, -2);
        return;
    }
    char path[PATH_MAX + 32], none[8] = "";
    judge_error err;
    int rc = runner_build(&s->args, run, "emu", 0, s->kernel_abs, s->bg.emu_runner, sizeof(s->bg.emu_runner), none, sizeof(none), &err);
    if (rc < 0)
        judge_fail(&err);
    char tmp[PATH_MAX + 40];
    worker_pool_path(&s->pool, -2, "emu", path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);  // written, then renamed: present means whole (background_emu_take)
    FILE *f = fopen(tmp, "w");
    int ok = f && fprintf(f, "%d\n%s\n", rc == 0 ? 0 : -1, s->bg.emu_runner) > 0;
    ok = f && fclose(f) == 0 && ok;
    spawn_child_exit(ok && rename(tmp, path) == 0 ? 0 : 3);
}

// Takes the building helper's runner from its file into s->bg; 1 if the
// file was there, whole.
static int background_emu_take(judge_session *s)
{
    char path[PATH_MAX + 32], line[PATH_MAX + 8];
    int rc, taken = 0;
    worker_pool_path(&s->pool, -2, "emu", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (f && fscanf(f, "%d\n", &rc) == 1 && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(s->bg.emu_runner, sizeof(s->bg.emu_runner), "%s", line);
        s->bg.emu_built = rc == 0 ? 1 : -1;
        taken = 1;
    }
    if (f)
        fclose(f);
    return taken;
}

void background_emu_wait(judge_session *s)
{
    if (!s->bg.emu_pid)
        return;
    int status = worker_pool_wait(&s->pool, s->bg.emu_pid);
    s->bg.emu_pid = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        background_emu_take(s);  // else built on first use
}

int background_emu_await(judge_session *s)
{
    if (s->bg.emu_built)
        return s->bg.emu_built == 1;
    if (!s->bg.emu_pid)
        return 0;
    for (;;) {
        if (background_emu_take(s))
            return s->bg.emu_built == 1;
        if (spawn_pid_ended(s->bg.emu_pid))  // ended without its file (a kit error): left to the judge
            return background_emu_take(s) && s->bg.emu_built == 1;
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
        spawn_check_stop();
    }
}

int background_emu_runner(judge_session *s, judge_error *err)
{
    char none[8] = "";
    background_emu_wait(s);  // the helper building it, if still unwaited for
    if (!s->bg.emu_built) {
        int rc = runner_build(&s->args, &s->run, "emu", 0, s->kernel_abs, s->bg.emu_runner, sizeof(s->bg.emu_runner), none, sizeof(none), err);
        if (rc < 0)
            return -1;
        s->bg.emu_built = rc == 0 ? 1 : -1;
    }
    return s->bg.emu_built == 1;
}
