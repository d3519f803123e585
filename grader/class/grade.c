// grader/class/grade.c — `make grade`: grades every submission of a folder.
//
//   grade --kit DIR --lab N --submissions DIR [--out DIR] [--jobs N] [--gpus N]
//         [--wall S] [--backend auto|gpu|emu] [--seed S] [--fail-fast]
//         [--fresh] [--slurm]
//   grade --task K --out DIR        one Slurm array task: entry K of the saved plan
//
// Each entry of the folder (a .cu file, or a folder holding the lab's kernel
// file or exactly one .cu) is judged by build/judge in a process of its own,
// all with one seed. Up to --jobs judges run at once; on the GPU they take
// turns through lock files (one timed run per GPU at a time), so only
// compiling and CPU work overlap. Every entry gets a result: its report, or a
// row saying why it could not be graded. Results are written per submission
// and renamed into place whole, so a stopped run resumes with only the
// missing ones; SIGINT/SIGTERM stop every judge, which remove their
// temporary files. Exit: 0 every submission graded, 1 some could not be
// (listed), 2 the class could not be graded, 130 stopped.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "gpu_locks.h"
#include "grade.h"
#include "judge_files.h"
#include "kv.h"
#include "spawn.h"
#include "summary_keys.h"

#define GRADE_TERM_GRACE_S 10.0   // a judge asked to stop gets this long before SIGKILL

static volatile sig_atomic_t grade_stop_signal;  // SIGINT/SIGTERM/SIGHUP received

// Notes a stop signal; the main loop stops the judges.
static void grade_on_signal(int sig)
{
    grade_stop_signal = sig;
}

// Seconds on a monotonic clock.
static double grade_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Prints a one-line problem and exits 2.
static void grade_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void grade_die(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "stencil-labs: %s\n", msg);
    exit(GRADE_EXIT_KIT);
}

// ---------------------------------------------------------------------------
// One judge
// ---------------------------------------------------------------------------

// A judge running for one entry.
typedef struct grade_slot {
    pid_t pid;                  // the judge (its own process group), 0 if the slot is free
    int entry;                  // which entry
    double started;             // when
    int term_sent;              // 1 once asked to stop (wall limit or a stop signal)
    double term_at;             // when it was asked
    int over_wall;              // 1 if it ran past the wall limit
} grade_slot;

// Starts the judge for entry e, output to its temporary text file. Returns
// its pid (its own process group), or -1.
static pid_t grade_start_judge(const grade_run *run, const grade_entry *e, const char *lock_dir)
{
    char judge[PATH_MAX], seed[32], json[PATH_MAX], summary[PATH_MAX], txt[PATH_MAX], html[PATH_MAX], slots[16];
    snprintf(judge, sizeof(judge), "%s/build/judge", run->kit);
    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)run->seed);
    snprintf(slots, sizeof(slots), "%d", run->gpus);
    grade_result_path(run, e, "json", 1, json, sizeof(json));
    grade_result_path(run, e, "summary", 1, summary, sizeof(summary));
    grade_result_path(run, e, "txt", 1, txt, sizeof(txt));
    grade_result_path(run, e, "html", 1, html, sizeof(html));
    unlink(json), unlink(summary), unlink(html);
    char *argv[26], judge_jobs[16];
    int n = 0;
    snprintf(judge_jobs, sizeof(judge_jobs), "%d", run->judge_jobs);
    argv[n++] = judge;
    argv[n++] = "--kit", argv[n++] = (char *)run->kit;
    argv[n++] = "--lab", argv[n++] = (char *)run->lab;
    argv[n++] = "--kernel", argv[n++] = (char *)e->kernel;
    argv[n++] = "--backend", argv[n++] = (char *)run->backend;
    argv[n++] = "--seed", argv[n++] = seed;
    argv[n++] = "--json-out", argv[n++] = json;
    argv[n++] = "--summary-out", argv[n++] = summary;
    argv[n++] = "--html-out", argv[n++] = html;  // the submission's own report, linked from class.html
    if (run->judge_jobs > 0)  // else (a Slurm task) the judge's default: the CPUs it was given
        argv[n++] = "--jobs", argv[n++] = judge_jobs;
    if (lock_dir && strcmp(run->backend, "emu")) {
        argv[n++] = "--gpu-lock-dir", argv[n++] = (char *)lock_dir;
        argv[n++] = "--gpu-slots", argv[n++] = slots;
    }
    if (run->fail_fast)
        argv[n++] = "--fail-fast";
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);  // a terminal's Ctrl-C reaches this program only; it stops the judges itself
    signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL);
    int fd = open(txt, O_WRONLY | O_CREAT | O_TRUNC, 0644), devnull = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        dup2(fd, STDOUT_FILENO), dup2(fd, STDERR_FILENO), close(fd);
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO), close(devnull);
    execv(judge, argv);
    fprintf(stderr, "cannot run %s: %s\n", judge, strerror(errno));
    spawn_child_exit(127);
}

// The last line of a file (a judge's last words), into buf.
static void grade_last_line(const char *path, char *buf, size_t len)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    while (f && fgets(line, sizeof(line), f))
        if (line[0] != '\n' && line[0] != '\r')
            snprintf(buf, len, "%s", line);
    if (f)
        fclose(f);
    buf[strcspn(buf, "\r\n")] = '\0';
}

// Keeps what a finished judge left: its report, or a row saying why there
// is none. Returns 0, or -1 if the result could not be written.
static int grade_finish(const grade_run *run, const grade_entry *e, int status, double wall_s, int over_wall)
{
    char summary[PATH_MAX], txt[PATH_MAX], last[600], msg[1024];
    struct stat st;
    grade_result_path(run, e, "summary", 1, summary, sizeof(summary));
    grade_result_path(run, e, "txt", 1, txt, sizeof(txt));
    if (!over_wall && stat(summary, &st) == 0 && st.st_size > 0)
        return grade_commit_result(run, e, wall_s);
    grade_last_line(txt, last, sizeof(last));
    if (over_wall)
        snprintf(msg, sizeof(msg), "stopped after the wall limit of %.0f s for one submission (make grade WALL=seconds raises it)", run->wall_s);
    else if (WIFSIGNALED(status))
        snprintf(msg, sizeof(msg), "the judge was killed by signal %d without a report (%s)", WTERMSIG(status), last);
    else
        snprintf(msg, sizeof(msg), "the judge exited %d without a report: %s", WIFEXITED(status) ? WEXITSTATUS(status) : -1, last);
    unlink(summary);
    char path[PATH_MAX];
    grade_result_path(run, e, "json", 1, path, sizeof(path));
    unlink(path);
    unlink(txt);
    return grade_write_own_result(run, e, SUMMARY_ERROR, over_wall ? GRADE_STAGE_WALL : GRADE_STAGE_JUDGE, msg, wall_s);
}

// Removes entry e's temporary files (a judge stopped before it finished).
static void grade_drop_tmp(const grade_run *run, const grade_entry *e)
{
    static const char *exts[] = {"json", "summary", "txt", "kv", "html"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        grade_result_path(run, e, exts[i], 1, path, sizeof(path));
        unlink(path);
    }
}

// Asks a running judge to stop (it kills its child and cleans up).
static void grade_stop_slot(grade_slot *s)
{
    if (s->pid > 0 && !s->term_sent) {
        kill(s->pid, SIGTERM);
        s->term_sent = 1;
        s->term_at = grade_now();
    }
}

int grade_judge_entry(const grade_run *run, const grade_entry *e, const char *lock_dir)
{
    double start = grade_now(), term_at = 0;
    int status = 0, over_wall = 0;
    pid_t pid = grade_start_judge(run, e, lock_dir);
    if (pid < 0)
        return -1;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        double now = grade_now();
        if ((grade_stop_signal || now - start > run->wall_s) && !term_at) {
            over_wall = !grade_stop_signal;
            kill(pid, SIGTERM);
            term_at = now;
        }
        if (term_at && now - term_at > GRADE_TERM_GRACE_S)
            kill(-pid, SIGKILL), kill(pid, SIGKILL);
        struct timespec nap = {0, 50 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (grade_stop_signal && !over_wall) {  // no result: the next run grades it
        grade_drop_tmp(run, e);
        return -1;
    }
    return grade_finish(run, e, status, grade_now() - start, over_wall);
}

// ---------------------------------------------------------------------------
// The class
// ---------------------------------------------------------------------------

// Prints the progress line on stderr: done / total, not graded, running, time left.
static void grade_progress(int done, int total, int ungraded, int running, double spent, int jobs)
{
    double left = done ? spent / done * (total - done) / (jobs > 0 ? jobs : 1) : 0;
    fprintf(stderr, "%sgraded %d/%d, %d not graded, %d running, about %dm%02ds left%s",
            isatty(STDERR_FILENO) ? "\r" : "", done, total, ungraded, running, (int)left / 60, (int)left % 60,
            isatty(STDERR_FILENO) ? "   " : "\n");
    fflush(stderr);
}

// 1 if entry e's committed result is not "graded".
static int grade_result_ungraded(const grade_run *run, const grade_entry *e)
{
    char path[PATH_MAX];
    kv_list kv;
    grade_result_path(run, e, "kv", 0, path, sizeof(path));
    if (kv_load(path, &kv) != 0)
        return 1;
    const char *status = kv_get(&kv, "status");
    int bad = !status || strcmp(status, SUMMARY_GRADED) != 0;
    kv_free(&kv);
    return bad;
}

// Runs the judge on every entry in todo (up to run->jobs at once). Returns
// 0, or -1 if stopped by a signal.
static int grade_schedule(const grade_run *run, const int *todo, int ntodo)
{
    char lock_dir[PATH_MAX];
    grade_slot slots[GRADE_MAX_JOBS];
    int next = 0, running = 0, done = 0, ungraded = 0;
    double judged_s = 0;
    memset(slots, 0, sizeof(slots));
    snprintf(lock_dir, sizeof(lock_dir), "%s/locks", run->out);
    mkdir(lock_dir, 0755);
    while ((next < ntodo && !grade_stop_signal) || running > 0) {
        for (int s = 0; s < run->jobs && next < ntodo && !grade_stop_signal; s++) {
            if (slots[s].pid)
                continue;
            slots[s].entry = todo[next++];
            slots[s].pid = grade_start_judge(run, &run->entries[slots[s].entry], lock_dir);
            slots[s].started = grade_now();
            slots[s].term_sent = slots[s].over_wall = 0;
            if (slots[s].pid < 0)
                grade_die("cannot start the judge: %s", strerror(errno));
            running++;
        }
        int status = 0;
        pid_t w = waitpid(-1, &status, WNOHANG);
        double now = grade_now();
        for (int s = 0; s < run->jobs; s++) {
            grade_slot *sl = &slots[s];
            if (!sl->pid)
                continue;
            const grade_entry *e = &run->entries[sl->entry];
            if (w == sl->pid) {
                double wall = now - sl->started;
                if (grade_stop_signal && !sl->over_wall) {
                    grade_drop_tmp(run, e);
                } else {
                    if (grade_finish(run, e, status, sl->over_wall ? run->wall_s : wall, sl->over_wall) != 0)
                        fprintf(stderr, "\nstencil-labs: cannot write the result of %s in %s/results: %s\n", e->name, run->out, strerror(errno));
                    done++;
                    judged_s += sl->over_wall ? run->wall_s : wall;
                    ungraded += grade_result_ungraded(run, e);
                    grade_progress(done, ntodo, ungraded, running - 1, judged_s, run->jobs);
                }
                sl->pid = 0;
                running--;
                continue;
            }
            if (!sl->term_sent && (grade_stop_signal || now - sl->started > run->wall_s)) {
                sl->over_wall = !grade_stop_signal;
                grade_stop_slot(sl);
            } else if (sl->term_sent && now - sl->term_at > GRADE_TERM_GRACE_S) {
                kill(-sl->pid, SIGKILL), kill(sl->pid, SIGKILL);
            }
        }
        if (w <= 0) {
            struct timespec nap = {0, 50 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    if (ntodo && isatty(STDERR_FILENO))
        fprintf(stderr, "\n");
    return grade_stop_signal ? -1 : 0;
}

// Finds the lab folder for a number or a folder name; fills lab_name.
static void grade_find_lab(grade_run *run)
{
    char labs[PATH_MAX];
    struct dirent **names = NULL;
    char *end = NULL;
    long want = strtol(run->lab, &end, 10);
    int by_number = end && *end == '\0' && end != run->lab;
    snprintf(labs, sizeof(labs), "%s/labs", run->kit);
    int n = scandir(labs, &names, NULL, alphasort);
    if (n < 0)
        grade_die("cannot open %s: %s (run make from the kit's root)", labs, strerror(errno));
    run->lab_name[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (!run->lab_name[0] && isdigit((unsigned char)name[0]) && isdigit((unsigned char)name[1]) && name[2] == '-' &&
            (by_number ? strtol(name, NULL, 10) == want : !strcmp(name, run->lab)))
            snprintf(run->lab_name, sizeof(run->lab_name), "%s", name);
        free(names[i]);
    }
    free(names);
    if (!run->lab_name[0])
        grade_die("unknown lab '%s' (see make help for the labs)", run->lab);
}

// Reads the lab's lab.conf: the skeleton's file name and the rubric's worth.
static void grade_read_lab(grade_run *run)
{
    static lab_conf conf;
    char path[PATH_MAX + 32], err[1024];
    snprintf(path, sizeof(path), "%s/labs/%s/lab.conf", run->kit, run->lab_name);
    if (conf_load(path, &conf, err, sizeof(err)) != 0)
        grade_die("%s", err);
    const char *slash = strrchr(conf.kernel, '/');
    snprintf(run->skeleton, sizeof(run->skeleton), "%s", slash ? slash + 1 : conf.kernel);
    run->lab_max = conf_total_points(&conf);
}

// Picks the results folder: --out, or build/grades/<lab>-<folder>-<hash>
// (the same folder for the same lab and submissions, so a second run resumes).
static void grade_pick_out(grade_run *run, const char *out)
{
    if (out) {
        snprintf(run->out, sizeof(run->out), "%s", out);
        return;
    }
    const char *base = strrchr(run->submissions, '/');
    base = base && base[1] ? base + 1 : run->submissions;
    char safe[64];
    size_t n = 0;
    for (const char *p = base; *p && n + 1 < sizeof(safe); p++)
        safe[n++] = isalnum((unsigned char)*p) || *p == '-' || *p == '_' ? *p : '_';
    safe[n] = '\0';
    uint64_t h = 1469598103934665603ull;
    for (const char *p = run->submissions; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(run->out, sizeof(run->out), "%s/build/grades/%s-%s-%06x", run->kit, run->lab_name, safe, (unsigned)(h & 0xffffff));
}

// Creates every folder of path (mkdir -p, judge_files.h); exits 2 on failure.
static void grade_mkdirs(const char *path)
{
    judge_error err;
    if (judge_mkdirs(path, &err) != 0)
        grade_die("%s", err.message);
}

// Resumes from a results folder that exists: the same lab, folder, backend
// and seed, or a one-line refusal. --fresh moves the old folder aside instead.
static void grade_resume(grade_run *run, int have_seed, int fresh)
{
    grade_run old;
    char err[1024], meta[PATH_MAX + 16];
    snprintf(meta, sizeof(meta), "%s/grade.meta", run->out);
    if (access(meta, F_OK) != 0)
        return;
    if (fresh) {
        char aside[PATH_MAX + 64];
        snprintf(aside, sizeof(aside), "%s.replaced-%ld", run->out, (long)time(NULL));
        if (rename(run->out, aside) != 0)
            grade_die("cannot move %s aside: %s", run->out, strerror(errno));
        fprintf(stderr, "the earlier results are kept in %s\n", aside);
        return;
    }
    memset(&old, 0, sizeof(old));
    old.entries = NULL;  // the parameters only, not the plan
    if (grade_load_plan(run->out, &old, err, sizeof(err)) != 0)
        grade_die("%s", err);
    if (strcmp(old.lab_name, run->lab_name) || strcmp(old.submissions, run->submissions))
        grade_die("%s holds results of %s for %s, not of this class: pass OUT=another/folder", run->out, old.lab_name, old.submissions);
    if (strcmp(old.backend, run->backend))
        grade_die("%s was graded with backend %s, not %s: pass FRESH=1 to start again (the old results are kept aside), or OUT=another/folder", run->out, old.backend, run->backend);
    if (have_seed && old.seed != run->seed)
        grade_die("%s was graded with SEED=%llu: resume without SEED, or pass FRESH=1 to start again with the new seed", run->out, (unsigned long long)old.seed);
    run->seed = old.seed;
    fprintf(stderr, "resuming %s (seed %llu): only submissions without a result are graded\n", run->out, (unsigned long long)run->seed);
}

// Parses a positive whole number option; exits 2 naming it otherwise.
static long grade_whole(const char *opt, const char *v, long max)
{
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (!end || *end || n < 1 || n > max)
        grade_die("%s takes a whole number from 1 to %ld, got '%s'", opt, max, v);
    return n;
}

// What the command line asks besides the fields of grade_run it fills.
typedef struct grade_options {
    const char *out;   // --out: the results folder; NULL: the default one
    const char *subs;  // --submissions: the folder as given
    int have_seed;     // 1 if --seed was given
    int fresh;         // 1: --fresh, earlier results moved aside
    int slurm;         // 1: --slurm, the judging runs as one Slurm job array
    int task;          // --task K: grade entry K of the saved plan; -1 when not a task
} grade_options;

// Fills run's defaults: the judges grade_default_jobs picks once the GPUs
// are known, one GPU, 900 s a submission, backend auto.
static void grade_defaults(grade_run *run)
{
    run->jobs = 0;
    run->gpus = 1, run->wall_s = 900;
    snprintf(run->backend, sizeof(run->backend), "auto");
    snprintf(run->kit, sizeof(run->kit), ".");
}

// The judges at once without --jobs: half the CPUs (an emulated case uses
// several threads), at most 8 a GPU of --gpus (8 in all over two H200s
// graded lab 4 at 2.68 s a submission on a 32-CPU host).
static int grade_default_jobs(long cpus, int gpus)
{
    long most = 8L * (gpus > 0 ? gpus : 1) < GRADE_MAX_JOBS ? 8L * (gpus > 0 ? gpus : 1) : GRADE_MAX_JOBS;
    return cpus > 1 ? (int)(cpus / 2 < most ? cpus / 2 : most) : 1;
}

// Parses argv into run and o; exits 2 naming an option that is unknown or
// lacks a valid value.
static void grade_parse(int argc, char **argv, grade_run *run, grade_options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int flag = !strcmp(opt, "--fail-fast") || !strcmp(opt, "--fresh") || !strcmp(opt, "--slurm");
        if (!flag && !v)
            grade_die("option %s needs a value (grade --kit DIR --lab N --submissions DIR [--out DIR] [--jobs N] [--gpus N] [--wall S] [--backend B] [--seed S] [--fail-fast] [--fresh] [--slurm])", opt);
        if (!strcmp(opt, "--kit")) snprintf(run->kit, sizeof(run->kit), "%s", v);
        else if (!strcmp(opt, "--lab")) snprintf(run->lab, sizeof(run->lab), "%s", v);
        else if (!strcmp(opt, "--submissions")) o->subs = v;
        else if (!strcmp(opt, "--out")) o->out = v;
        else if (!strcmp(opt, "--jobs")) run->jobs = (int)grade_whole("JOBS", v, GRADE_MAX_JOBS);
        else if (!strcmp(opt, "--gpus")) run->gpus = (int)grade_whole("GPUS", v, 64);
        else if (!strcmp(opt, "--wall")) run->wall_s = (double)grade_whole("WALL", v, 86400);
        else if (!strcmp(opt, "--task")) {  // SLURM_ARRAY_TASK_ID: from 0
            char *end = NULL;
            o->task = (int)strtol(v, &end, 10);
            if (!end || *end || !isdigit((unsigned char)*v) || o->task >= GRADE_MAX_ENTRIES)
                grade_die("--task takes an entry number of the saved plan (0 to %d), got '%s'", GRADE_MAX_ENTRIES - 1, v);
        }
        else if (!strcmp(opt, "--backend")) {
            if (strcmp(v, "auto") && strcmp(v, "gpu") && strcmp(v, "emu"))
                grade_die("backend must be auto, gpu or emu, not '%s'", v);
            snprintf(run->backend, sizeof(run->backend), "%s", v);
        } else if (!strcmp(opt, "--seed")) {
            char *end = NULL;
            run->seed = strtoull(v, &end, 10);
            if (!end || *end || !isdigit((unsigned char)*v))
                grade_die("SEED must be a whole number, got '%s'", v);
            o->have_seed = 1;
        } else if (!strcmp(opt, "--fail-fast")) { run->fail_fast = 1; continue; }
        else if (!strcmp(opt, "--fresh")) { o->fresh = 1; continue; }
        else if (!strcmp(opt, "--slurm")) { o->slurm = 1; continue; }
        else
            grade_die("unknown option '%s' (grade --kit DIR --lab N --submissions DIR [--out DIR] [--jobs N] [--gpus N] [--wall S] [--backend B] [--seed S] [--fail-fast] [--fresh] [--slurm])", opt);
        i++;
    }
}

// Routes SIGINT, SIGTERM and SIGHUP to grade_on_signal (the judges are
// stopped by the loop that watches them).
static void grade_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = grade_on_signal;
    sigaction(SIGINT, &sa, NULL), sigaction(SIGTERM, &sa, NULL), sigaction(SIGHUP, &sa, NULL);
}

// Draws the class's seed unless --seed gave one: from getrandom, else the clock.
static void grade_draw_seed(grade_run *run, int have_seed)
{
    if (have_seed)
        return;
    uint64_t r = 0;
    if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
        r = (uint64_t)time(NULL) * 2654435761u;
    run->seed = r % 1000000000ull;
}

// Makes run ready to grade: checks the lab and folders, reads lab.conf,
// picks the seed and the results folder (resuming an earlier run), finds the
// entries and saves the plan. Exits 2 with a one-line reason on any problem.
static void grade_prepare(grade_run *run, const grade_options *o)
{
    char err[2048], kit_abs[PATH_MAX], results[PATH_MAX + 16];
    struct stat st;
    if (!run->lab[0])
        grade_die("which lab? make grade LAB=<n> SUBMISSIONS=<folder>");
    if (!o->subs)
        grade_die("which submissions? make grade LAB=%s SUBMISSIONS=<folder of .cu files or student folders>", run->lab);
    if (stat(o->subs, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(o->subs, run->submissions))
        grade_die("SUBMISSIONS=%s is not a folder (give the folder holding one .cu or one folder per student)", o->subs);
    if (!realpath(run->kit, kit_abs))
        grade_die("the kit folder %s cannot be found", run->kit);
    snprintf(run->kit, sizeof(run->kit), "%s", kit_abs);
    grade_find_lab(run);
    grade_read_lab(run);
    grade_draw_seed(run, o->have_seed);
    grade_pick_out(run, o->out);
    grade_resume(run, o->have_seed, o->fresh);
    snprintf(results, sizeof(results), "%s/results", run->out);
    grade_mkdirs(results);
    if (grade_find_entries(run, err, sizeof(err)) != 0)
        grade_die("%s", err);
    if (grade_save_plan(run, err, sizeof(err)) != 0)
        grade_die("%s", err);
}

// Writes the row of every entry that cannot be judged, counts those already
// graded into *kept, and lists the rest in todo. Returns how many it listed.
static int grade_list_todo(const grade_run *run, int *todo, int *kept)
{
    int ntodo = 0;
    *kept = 0;
    for (int i = 0; i < run->nentries; i++) {
        const grade_entry *e = &run->entries[i];
        if (e->reject[0]) {
            if (grade_write_own_result(run, e, SUMMARY_REJECTED, "submission", e->reject, 0) != 0)
                grade_die("cannot write in %s/results: %s", run->out, strerror(errno));
        } else if (grade_has_result(run, e)) {
            (*kept)++;
        } else {
            todo[ntodo++] = i;
        }
    }
    return ntodo;
}

// Writes the class's tables and page, prints the class table and how the run
// ended; returns the exit status (stopped: the run was stopped by a signal).
static int grade_conclude(const grade_run *run, int stopped)
{
    char err[2048];
    if (grade_write_tables(run, err, sizeof(err)) != 0 || grade_write_dashboard(run, err, sizeof(err)) != 0)
        grade_die("%s", err);
    int ungraded = grade_print_table(run);
    printf("summary: %s/summary.csv and %s/results.jsonl; the class at a glance: %s/class.html\n", run->out, run->out, run->out);
    if (stopped) {
        fprintf(stderr, "stencil-labs: stopped by signal %d; what finished is kept: run the same make grade again to grade only the rest\n", (int)grade_stop_signal);
        return GRADE_EXIT_STOPPED;
    }
    return ungraded ? GRADE_EXIT_UNGRADED : GRADE_EXIT_ALL_GRADED;
}

// Exits 2 when the judges are to share more GPUs (--gpus) than the
// caller's CUDA_VISIBLE_DEVICES names: two of them would run on one GPU under
// different locks, timing beside each other.
static void grade_check_gpus(const grade_run *run)
{
    const char *given = getenv("CUDA_VISIBLE_DEVICES");
    int named = gpu_visible_names(given, NULL, 0);
    if (strcmp(run->backend, "emu") && given && *given && named < run->gpus)
        grade_die("GPUS=%d, but CUDA_VISIBLE_DEVICES=%s names %d GPU(s): give GPUS=%d at most, or show the judges more GPUs",
                  run->gpus, given, named, named);
}

int main(int argc, char **argv)
{
    static grade_entry entries[GRADE_MAX_ENTRIES];
    static int todo[GRADE_MAX_ENTRIES];
    grade_run run;
    grade_options o = {NULL, NULL, 0, 0, 0, -1};
    char err[2048];
    memset(&run, 0, sizeof(run));
    run.entries = entries;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    grade_defaults(&run);
    grade_parse(argc, argv, &run, &o);
    grade_check_gpus(&run);
    if (!run.jobs)
        run.jobs = grade_default_jobs(cpus, run.gpus);
    grade_catch_signals();
    run.judge_jobs = cpus / run.jobs < 1 ? 1 : cpus / run.jobs > 16 ? 16 : (int)(cpus / run.jobs);
    if (o.task >= 0) {
        if (!o.out)
            grade_die("--task needs --out, the results folder it belongs to");
        return grade_task(o.out, o.task);
    }
    grade_prepare(&run, &o);
    // Entries that cannot be judged get their row now; the rest are judged unless a result is already there.
    int kept = 0, ntodo = grade_list_todo(&run, todo, &kept);
    printf("grading %s for %d submissions of %s, seed %llu, results in %s\n", run.lab_name, run.nentries, run.submissions,
           (unsigned long long)run.seed, run.out);
    if (kept)
        printf("%d already graded with this seed and unchanged: kept\n", kept);
    fflush(stdout);
    int stopped = 0;
    if (o.slurm && ntodo) {
        if (grade_slurm(&run, err, sizeof(err)) != 0)
            grade_die("%s", err);
    } else {
        stopped = grade_schedule(&run, todo, ntodo) != 0;
    }
    return grade_conclude(&run, stopped);
}

int grade_task(const char *out, int index)
{
    static grade_entry entries[GRADE_MAX_ENTRIES];
    grade_run run;
    char err[1024];
    memset(&run, 0, sizeof(run));
    run.entries = entries;
    if (grade_load_plan(out, &run, err, sizeof(err)) != 0)
        grade_die("%s", err);
    if (index < 0 || index >= run.nentries)
        grade_die("--task %d: the plan in %s has entries 0 to %d", index, out, run.nentries - 1);
    run.jobs = 1, run.gpus = 1;
    const grade_entry *e = &run.entries[index];
    if (e->reject[0])
        return grade_write_own_result(&run, e, SUMMARY_REJECTED, "submission", e->reject, 0) == 0 ? 0 : GRADE_EXIT_KIT;
    printf("task %d: %s\n", index, e->name);
    return grade_judge_entry(&run, e, NULL) == 0 ? 0 : GRADE_EXIT_KIT;
}
