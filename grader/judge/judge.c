// grader/judge/judge.c — the judge: grades one kernel file for one lab.
//
//   judge --lab N|DIR [--kernel FILE] [--backend auto|gpu|emu] [--seed S]
//         [--case NAME] [--json] [--json-out FILE] [--summary-out FILE]
//         [--gradescope-out FILE] [--prairielearn-out FILE]
//         [--pictures DIR] [--html-out FILE]
//         [--sanitize] [--profile] [--keep] [--fail-fast] [--timeout S]
//         [--gpu-lock-dir DIR --gpu-slots N] [--jobs N] [--arch sm_XX] [--kit DIR]
//
// --json-out, --summary-out and the autograder platforms' results files
// (--gradescope-out, --prairielearn-out) are written on every exit path once the
// options are read (a compile error, a refused include, no GPU, a stop by
// SIGTERM/SIGINT included). --gpu-lock-dir makes judges running side by side
// take turns on each GPU: the GPU work of a run holds one of the files
// DIR/gpu-K.lock (K < N) and sees only GPU K. --pictures draws the report's
// pictures into DIR (grader/judge/pictures.h); --html-out writes the report
// as one self-contained HTML page, on every exit path too.
//
// It never links student code: it builds a runner (grader/build.mk) from the
// kernel file, starts it once per case as a child process with a time limit,
// and judges only the grids the runner leaves behind. Exit status: 0 every
// case passed, 1 a case failed, 2 the kit could not run (with a one-line
// reason), 77 no usable GPU when one was demanded.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sched.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build_check.h"
#include "judge.h"
#include "judge_case.h"
#include "yardstick_cache.h"
#include "judge_jacobi.h"
#include "technique.h"
#include "kv.h"
#include "pictures.h"
#include "protocol.h"
#include "report_html.h"
#include "report_platform.h"
#include "rng.h"
#include "sandbox.h"
#include "spawn.h"
#include "verdict.h"

typedef struct judge_args {
    const char *lab;            // lab number or folder
    const char *kernel;         // kernel file (default: the lab's skeleton)
    const char *backend;        // auto, gpu or emu
    const char *case_name;      // only this case ("33", "N=33", "64x32x16")
    const char *arch;           // sm_XX, or NULL to detect
    unsigned long long emu_memory_mb; // --emu-memory: what a student's program may hold under emulation (0: the default)
    char kit[PATH_MAX];         // the kit's root
    uint64_t seed;              // master seed
    int have_seed;              // 1 if --seed was given
    int json;                   // 1: JSON report
    int sanitize;               // 1: runs under compute-sanitizer
    int keep;                   // 1: keep case directories
    int fail_fast;              // 1: stop after the first failing case (the kit's mutant tests)
    int jobs;                   // cases run side by side (--jobs; default: the CPUs, at most JUDGE_DEFAULT_JOBS)
    int cpus;                   // the CPUs this process may use (0: not counted, --jobs given)
    double timeout_s;           // per-case time limit overriding lab.conf's (0: lab.conf's)
    const char *json_out;       // also write the JSON report to this file
    const char *summary_out;    // also write the one-line summary (summary_keys.h) to this file
    const char *conf_get;       // print this lab.conf value and exit (--conf-get)
    int solution;               // 1: grade lab.conf's solution (--solution)
    const char *gradescope_out; // also write a Gradescope results.json to this file
    const char *prairielearn_out; // also write a PrairieLearn results.json to this file
    const char *gpu_lock_dir;   // judges side by side: take turns on the GPUs through lock files here
    int gpu_slots;              // GPUs to share (with gpu_lock_dir)
    int profile;                // 1: measure the timed case's traffic with ncu
    const char *pictures;       // draw the report's pictures into this folder (made if missing)
    const char *html_out;       // also write the report as an HTML page to this file
} judge_args;

static int judge_json;              // 1 while the report is JSON, for judge_die
static judge_run judge_the_run;     // this run: judge_die reports it
static judge_args judge_the_args;   // its options: judge_die writes the files they name
static char judge_tmp_root[PATH_MAX]; // this run's temporary folder ("" until made); removed at exit
static int judge_gpu_slot = -1;     // the GPU of --gpu-slots this run uses, -1 until chosen
static int judge_gpu_lock_fd = -1;  // its lock: shared for untimed work, exclusive for timing
static int judge_gpu_gate_fd = -1;  // its gate: held while taking the lock (a waiting timer keeps new turns out)
static int judge_gpu_held;          // 1 while this run holds a turn

// Cases side by side: each in a worker process forked from the judge (kit
// code, like the judge), which runs one case and leaves its result in the
// run's temporary folder. A case's runner is single-threaded on the CPU and
// its GPU work small; the timed cases still run one at a time, alone.
#define JUDGE_MAX_JOBS 16            // workers at most (--jobs)
#define JUDGE_DEFAULT_JOBS 8         // workers when --jobs is not given: this or the CPUs, the fewer (12 was slower on an H100: CUDA contexts made at once wait on each other)
#define JUDGE_SIDE_BY_SIDE_MAX_BYTES (256.0 * 1024 * 1024) // a grid larger than this runs alone
#define JUDGE_SECOND_LOOK_MAX_CELLS (80.0 * 80 * 80)          // the barrier checks' second look: cases up to this size
static pid_t judge_worker_pids[JUDGE_MAX_JOBS];  // the workers running (0: a free place)
static int judge_worker_slots[JUDGE_MAX_JOBS];   // the case slot each one runs
static char judge_worker_error[PATH_MAX + 32];   // in a worker: the file judge_die writes ("" in the judge)

// The executor serving this run's cases on a GPU (judge_pick_backend starts
// it as the probe; judge_run_cases and judge_time_solution use it).
static judge_executor judge_exec;


// The worker of slot i's files in the run's temporary folder: its case
// result, report, heat-map plane and (on a kit failure) error.
static void judge_worker_path(int i, const char *what, char *path, size_t len)
{
    snprintf(path, len, "%s/case-%d.%s", judge_tmp_root, i, what);  // -1: the early yardstick
}

// In a worker just forked from the judge (pid judge): ends it when the judge
// ends, even by SIGKILL (taking its runner along: SIGTERM kills the runner's
// group), and at once if the judge is gone already. The workers are forked
// before the judge runs any OpenMP region (the side-by-side cases come first,
// the references of the timed ones after): libgomp's threads do not survive
// a fork, and a worker's own OpenMP regions start its own pool.
static void judge_worker_tied(pid_t judge)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != judge)
        _exit(JUDGE_EXIT_KIT);
}

// Forks a process of the judge's own (a case's worker, slot >= 0; a helper,
// slot < 0: -1 the early yardstick, -2 the emulation prebuild, -3 the
// references made ahead): nothing buffered is written twice, and in the child
// judge_die writes slot's error file and the child ends with the judge.
// Returns the child's pid in the judge, 0 in the child, -1 if none started.
static pid_t judge_fork(int slot)
{
    fflush(NULL);
    pid_t judge = getpid(), pid = fork();
    if (pid == 0) {
        judge_worker_path(slot, "error", judge_worker_error, sizeof(judge_worker_error));
        judge_worker_tied(judge);
    }
    return pid;
}

// Waits for a helper worker (the early yardstick, slot 0; the emulation
// prebuild, slot 1) through stop signals, frees its slot; returns its wait
// status, or -1 if it could not be waited for.
static int judge_wait_helper(pid_t pid, int slot)
{
    int status = -1;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            status = -1;
            break;
        }
        spawn_check_stop();
    }
    judge_worker_pids[slot] = 0;
    return status;
}

// The lab's rendered handout (build/handouts/<lab>.html, from make handouts)
// as a path relative to the folder of page, into buf; NULL when it is not
// rendered (or the page's folder cannot be resolved).
static const char *judge_handout_from(const char *page, const judge_run *run, char *buf, size_t len)
{
    char target[PATH_MAX + 64], dir[PATH_MAX], here[PATH_MAX];
    snprintf(target, sizeof(target), "%s/build/handouts/%s.html", judge_the_args.kit, run->lab_name);
    snprintf(dir, sizeof(dir), "%s", page);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), ".");
    if (!run->lab_name[0] || access(target, R_OK) != 0 || !realpath(dir, here))
        return NULL;
    char real[PATH_MAX];
    if (!realpath(target, real))
        return NULL;
    // The folders here and real share, then a "../" for each folder of here past them, then the rest of real.
    char *h[PATH_MAX / 2], *r[PATH_MAX / 2], *save = NULL;
    int nh = 0, nr = 0, common = 0;
    for (char *t = strtok_r(here, "/", &save); t && nh < PATH_MAX / 2; t = strtok_r(NULL, "/", &save))
        h[nh++] = t;
    for (char *t = strtok_r(real, "/", &save); t && nr < PATH_MAX / 2; t = strtok_r(NULL, "/", &save))
        r[nr++] = t;
    while (common < nh && common < nr - 1 && !strcmp(h[common], r[common]))
        common++;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = common; i < nh && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "../");
    for (int i = common; i < nr && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", r[i], i + 1 < nr ? "/" : "");
    return used < len ? buf : NULL;
}

static char *judge_read_file(const char *path, size_t *len);

// The rendered handout's page (build/handouts/<lab>.html), read whole; NULL if it cannot be.
static char *judge_handout_text(const judge_run *run)
{
    char path[PATH_MAX + 64];
    size_t len = 0;
    snprintf(path, sizeof(path), "%s/build/handouts/%s.html", judge_the_args.kit, run->lab_name);
    return judge_read_file(path, &len);
}

// Writes the report files the options name (--json-out, --summary-out,
// --gradescope-out, --prairielearn-out) for the run as it stands. Returns 0,
// or -1 naming the file in err.
static int judge_write_files(judge_run *run, char *err, size_t len)
{
    static const char *what[5] = {"JSON report", "summary", "Gradescope results", "PrairieLearn results", "HTML report"};
    const char *paths[5] = {judge_the_args.json_out, judge_the_args.summary_out, judge_the_args.gradescope_out,
                            judge_the_args.prairielearn_out, judge_the_args.html_out};
    report_score(run);
    for (int i = 0; i < 5; i++) {
        if (!paths[i])
            continue;
        FILE *f = fopen(paths[i], "w");
        if (!f) {
            snprintf(err, len, "cannot write the %s %s: %s", what[i], paths[i], strerror(errno));
            return -1;
        }
        if (i == 0)
            report_json(run, f);
        else if (i == 1)
            report_summary(run, f);
        else if (i == 2)
            report_gradescope(run, f);
        else if (i == 3)
            report_prairielearn(run, f);
        else {
            char href[PATH_MAX];
            report_handout handout = {judge_handout_from(paths[i], run, href, sizeof(href)), NULL};
            handout.text = handout.href ? judge_handout_text(run) : NULL;
            report_html(run, &handout, f);
            free((char *)handout.text);
        }
        if (fclose(f) != 0) {
            snprintf(err, len, "cannot write the %s %s: %s", what[i], paths[i], strerror(errno));
            return -1;
        }
    }
    return 0;
}

// Reports a kit-level problem at the current stage in one line, writes the
// JSON report and summary the options ask for, and exits with code (2 or 77).
static void judge_stop_workers(void);
static void judge_early_stop(void);

static void judge_die(int code, const char *fmt, ...)
{
    char msg[2048], err[PATH_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    protocol_printable(msg, 0);  // it may name the student's file, or quote its words
    if (judge_worker_error[0]) {  // a case's worker: the judge reads this and reports it
        FILE *f = fopen(judge_worker_error, "w");
        if (f)
            fprintf(f, "%s\n", msg), fclose(f);
        _exit(code);  // no atexit handler: the temporary folder is the judge's
    }
    judge_stop_workers();
    judge_early_stop();
    judge_run *run = &judge_the_run;
    run->exit_code = code;
    snprintf(run->message, sizeof(run->message), "%s", msg);
    if (!run->stage[0])
        snprintf(run->stage, sizeof(run->stage), "kit");
    if (judge_json)
        report_score(run), report_json(run, stdout);
    if (judge_write_files(run, err, sizeof(err)) != 0)
        fprintf(stderr, "stencil-labs: %s\n", err);
    fprintf(stderr, "stencil-labs: %s\n", msg);
    exit(code);
}

// Names the stage the run is at, for the report of a kit-level exit.
static void judge_stage(const char *stage)
{
    snprintf(judge_the_run.stage, sizeof(judge_the_run.stage), "%s", stage);
}

// A stop signal arrived (the running child is already killed): report and exit.
static void judge_stopped(int sig)
{
    judge_stage("interrupted");
    judge_die(JUDGE_EXIT_KIT, "stopped by signal %d (%s) before grading finished; nothing was graded", sig, strsignal(sig));
}

// Removes one entry of the temporary folder (nftw callback).
static int judge_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

// At exit: removes this run's temporary folder (case folders and all) unless --keep.
static void judge_remove_tmp(void)
{
    if (judge_tmp_root[0] && !judge_the_args.keep)
        nftw(judge_tmp_root, judge_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

// Makes this run's temporary folder under $TMPDIR and points TMPDIR at it,
// so every case folder lives inside and is removed at exit, whatever ends the run.
static void judge_make_tmp(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(judge_tmp_root, sizeof(judge_tmp_root), "%s/stencil-judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(judge_tmp_root)) {
        char why[PATH_MAX + 64];
        snprintf(why, sizeof(why), "%s", judge_tmp_root);
        judge_tmp_root[0] = '\0';
        judge_die(JUDGE_EXIT_KIT, "cannot create a temporary folder %s: %s (set TMPDIR to a writable folder)", why, strerror(errno));
    }
    atexit(judge_remove_tmp);
    setenv("TMPDIR", judge_tmp_root, 1);
}

// Seconds since the epoch (the GPU turns of judges side by side are compared).
static double judge_wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Opens (creating) the lock file DIR/gpu-K.NAME; exits 2 if it cannot.
static int judge_open_lock(const judge_args *a, int k, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/gpu-%d.%s", a->gpu_lock_dir, k, name);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        judge_die(JUDGE_EXIT_KIT, "cannot open the GPU lock %s: %s", path, strerror(errno));
    return fd;
}

// flock that goes on after a signal's interruption (and stops the run on a stop signal).
static void judge_flock(int fd, int op)
{
    while (flock(fd, op) != 0 && errno == EINTR)
        spawn_check_stop();
}

// Picks this run's GPU among --gpu-slots (an idle one if any, else by pid)
// and shows the run only that GPU; done once, before the first turn.
static void judge_pick_gpu_slot(const judge_args *a)
{
    char visible[256] = "";
    const char *given = getenv("CUDA_VISIBLE_DEVICES");
    int slot = (int)(getpid() % a->gpu_slots);
    for (int k = 0; k < a->gpu_slots; k++) {
        int fd = judge_open_lock(a, k, "lock");
        int idle = flock(fd, LOCK_EX | LOCK_NB) == 0;
        close(fd);
        if (idle) {
            slot = k;
            break;
        }
    }
    if (given && *given) {  // slot k is the k-th GPU the caller made visible
        char list[256], *save = NULL, *tok;
        snprintf(list, sizeof(list), "%s", given);
        tok = strtok_r(list, ",", &save);
        for (int i = 0; tok && i < slot; i++)
            tok = strtok_r(NULL, ",", &save);
        snprintf(visible, sizeof(visible), "%s", tok ? tok : given);
    } else {
        snprintf(visible, sizeof(visible), "%d", slot);
    }
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    judge_gpu_slot = slot;
    judge_gpu_gate_fd = judge_open_lock(a, slot, "gate");
    judge_gpu_lock_fd = judge_open_lock(a, slot, "lock");
}

// Takes a turn on this run's GPU (nothing without --gpu-lock-dir): shared
// with other judges' untimed work, or alone (exclusive) for a timed case. A
// judge waiting to time holds the gate, so no new shared turn starts before it.
static void judge_take_gpu(const judge_args *a, int exclusive)
{
    if (!a->gpu_lock_dir || judge_gpu_held || judge_worker_error[0])  // a worker runs in the judge's turn
        return;
    if (judge_gpu_slot < 0)
        judge_pick_gpu_slot(a);
    judge_flock(judge_gpu_gate_fd, LOCK_EX);
    judge_flock(judge_gpu_lock_fd, exclusive ? LOCK_EX : LOCK_SH);
    judge_flock(judge_gpu_gate_fd, LOCK_UN);
    judge_gpu_held = 1;
    if (judge_the_run.ngpu_turns < JUDGE_MAX_GPU_TURNS) {
        judge_the_run.gpu_turns[judge_the_run.ngpu_turns][0] = judge_wall_clock();
        judge_the_run.gpu_turns[judge_the_run.ngpu_turns][2] = exclusive;
    }
}

// Ends the turn (judges waiting for the GPU go on).
static void judge_give_gpu(void)
{
    if (!judge_gpu_held || judge_worker_error[0])  // the lock is the judge's (a worker shares its file)
        return;
    if (judge_the_run.ngpu_turns < JUDGE_MAX_GPU_TURNS)
        judge_the_run.gpu_turns[judge_the_run.ngpu_turns++][1] = judge_wall_clock();
    judge_flock(judge_gpu_lock_fd, LOCK_UN);
    judge_gpu_held = 0;
}

// ---------------------------------------------------------------------------
// Arguments and the lab
// ---------------------------------------------------------------------------

// Parses argv; exits 2 with a one-line reason on anything unexpected.
// The judge's options, each once: its name, whether it takes a value, and
// what it does (--help prints this table; an unknown option is named with
// the list).
static const struct judge_option {
    const char *name;           // "--lab"
    const char *value;          // what it takes ("N|DIR"), or NULL for a flag
    const char *help;           // one line for --help
} judge_options[] = {
    {"--lab", "N|DIR", "the lab: its number or its folder (required)"},
    {"--kernel", "FILE", "the kernel file to grade (default: the lab's skeleton in kernels/)"},
    {"--backend", "auto|gpu|emu", "the GPU, CPU emulation, or the GPU when one is usable (default auto)"},
    {"--seed", "S", "replay a run: the seed its report printed"},
    {"--case", "NAME", "one case only, by its size as lab.conf writes it (33, 64x32x16)"},
    {"--json", NULL, "the report as JSON on standard output"},
    {"--json-out", "FILE", "the JSON report into FILE as well (on every exit path)"},
    {"--summary-out", "FILE", "one summary line (make status, the class grader)"},
    {"--gradescope-out", "FILE", "a Gradescope results.json"},
    {"--prairielearn-out", "FILE", "a PrairieLearn results.json"},
    {"--pictures", "DIR", "the report's pictures into DIR (gnuplot)"},
    {"--html-out", "FILE", "the report as one self-contained HTML page"},
    {"--sanitize", NULL, "every case under compute-sanitizer's memcheck (GPU)"},
    {"--profile", NULL, "the timed case's traffic measured with Nsight Compute (OP/B)"},
    {"--keep", NULL, "keep each case's folder (grids, report, log) and print where"},
    {"--fail-fast", NULL, "stop at the first case that fails"},
    {"--timeout", "S", "each case's time limit in seconds (default: lab.conf's)"},
    {"--gpu-lock-dir", "DIR", "judges side by side take turns on the GPUs through lock files in DIR"},
    {"--gpu-slots", "N", "the GPUs those judges share (with --gpu-lock-dir)"},
    {"--jobs", "N", "cases side by side under emulation (default: the CPUs, at most 8)"},
    {"--arch", "sm_XX", "the GPU architecture to build for (default: detected)"},
    {"--emu-memory", "MB", "the memory a student's program may hold under emulation (default: 8192, at most a quarter of the machine's)"},
    {"--kit", "DIR", "the kit's root (default .)"},
    {"--solution", NULL, "grade the lab's instructor solution (lab.conf's solution) instead of --kernel"},
    {"--conf-get", "KEY", "print the lab.conf value of KEY (title, kernel, solution, timed, points, ...) and exit"},
    {"--help", NULL, "this list"},
};
#define JUDGE_NOPTIONS (sizeof(judge_options) / sizeof(judge_options[0]))

// Prints the options (--help) and exits 0.
static void judge_print_help(void)
{
    printf("usage: judge --lab N [--kernel FILE] [options]   (make check LAB=N runs it for you)\n");
    for (size_t k = 0; k < JUDGE_NOPTIONS; k++) {
        char left[48];
        snprintf(left, sizeof(left), "%s%s%s", judge_options[k].name, judge_options[k].value ? " " : "",
                 judge_options[k].value ? judge_options[k].value : "");
        printf("  %-30s %s\n", left, judge_options[k].help);
    }
    printf("exit status: 0 every case passed, 1 a case failed, 2 the kit could not run, 77 no usable GPU\n");
    exit(0);
}

static judge_args judge_parse(int argc, char **argv)
{
    judge_args a;
    memset(&a, 0, sizeof(a));
    a.backend = "auto";
    snprintf(a.kit, sizeof(a.kit), ".");
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const struct judge_option *known = NULL;
        for (size_t k = 0; k < JUDGE_NOPTIONS; k++)
            if (!strcmp(opt, judge_options[k].name))
                known = &judge_options[k];
        if (!known) {
            char list[600] = "";
            for (size_t k = 0; k < JUDGE_NOPTIONS; k++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof(list) - used, "%s%s", k ? " " : "", judge_options[k].name);
            }
            judge_die(JUDGE_EXIT_KIT, "unknown option '%s' (options: %s; judge --help says what each does)", opt, list);
        }
        if (!strcmp(opt, "--help"))
            judge_print_help();
        int takes = known->value != NULL;
        if (takes && !v)
            judge_die(JUDGE_EXIT_KIT, "option %s needs a value (%s: %s)", opt, known->value, known->help);
        if (!strcmp(opt, "--lab")) a.lab = v;
        else if (!strcmp(opt, "--kernel")) a.kernel = v;
        else if (!strcmp(opt, "--backend")) a.backend = v;
        else if (!strcmp(opt, "--case")) a.case_name = v;
        else if (!strcmp(opt, "--arch")) a.arch = v;
        else if (!strcmp(opt, "--json-out")) a.json_out = v;
        else if (!strcmp(opt, "--summary-out")) a.summary_out = v;
        else if (!strcmp(opt, "--conf-get")) a.conf_get = v;
        else if (!strcmp(opt, "--solution")) a.solution = 1, takes = 0;
        else if (!strcmp(opt, "--gradescope-out")) a.gradescope_out = v;
        else if (!strcmp(opt, "--prairielearn-out")) a.prairielearn_out = v;
        else if (!strcmp(opt, "--gpu-lock-dir")) a.gpu_lock_dir = v;
        else if (!strcmp(opt, "--pictures")) a.pictures = v;
        else if (!strcmp(opt, "--html-out")) a.html_out = v;
        else if (!strcmp(opt, "--gpu-slots")) {
            char *end = NULL;
            a.gpu_slots = (int)strtol(v, &end, 10);
            if (!end || *end || a.gpu_slots < 1 || a.gpu_slots > 64)
                judge_die(JUDGE_EXIT_KIT, "--gpu-slots takes the number of GPUs to share (1 to 64), got '%s'", v);
        }
        else if (!strcmp(opt, "--emu-memory")) {
            char *end = NULL;
            a.emu_memory_mb = strtoull(v, &end, 10);
            if (!end || *end || a.emu_memory_mb < 16 || a.emu_memory_mb > (1ull << 24))
                judge_die(JUDGE_EXIT_KIT, "--emu-memory takes megabytes (16 to 16777216), got '%s'", v);
        }
        else if (!strcmp(opt, "--jobs")) {
            char *end = NULL;
            a.jobs = (int)strtol(v, &end, 10);
            if (!end || *end || a.jobs < 1 || a.jobs > JUDGE_MAX_JOBS)
                judge_die(JUDGE_EXIT_KIT, "--jobs takes how many cases run side by side (1 to %d), got '%s'", JUDGE_MAX_JOBS, v);
        }
        else if (!strcmp(opt, "--kit")) snprintf(a.kit, sizeof(a.kit), "%s", v);
        else if (!strcmp(opt, "--timeout")) {
            a.timeout_s = strtod(v, NULL);
            if (!(a.timeout_s > 0))
                judge_die(JUDGE_EXIT_KIT, "TIMEOUT must be a positive number of seconds, got '%s'", v);
        }
        else if (!strcmp(opt, "--seed")) {
            char *end = NULL;
            errno = 0;
            a.seed = strtoull(v, &end, 10);
            if (errno || !end || *end || !isdigit((unsigned char)*v))
                judge_die(JUDGE_EXIT_KIT, "SEED must be a whole number (as printed by an earlier run), got '%s'", v);
            a.have_seed = 1;
        } else if (!strcmp(opt, "--json")) a.json = 1, takes = 0;
        else if (!strcmp(opt, "--sanitize")) a.sanitize = 1, takes = 0;
        else if (!strcmp(opt, "--keep")) a.keep = 1, takes = 0;
        else if (!strcmp(opt, "--fail-fast")) a.fail_fast = 1, takes = 0;
        else if (!strcmp(opt, "--profile")) a.profile = 1, takes = 0;
        i += takes;
    }
    if (!a.lab)
        judge_die(JUDGE_EXIT_KIT, "which lab? give LAB=<number> (e.g. make check LAB=1)");
    if (strcmp(a.backend, "auto") && strcmp(a.backend, "gpu") && strcmp(a.backend, "emu"))
        judge_die(JUDGE_EXIT_KIT, "backend must be auto, gpu or emu, not '%s'", a.backend);
    if (a.gpu_lock_dir && !a.gpu_slots)
        a.gpu_slots = 1;
    if (!a.jobs) {  // the CPUs this process may run on (a Slurm task's or a container's share)
        cpu_set_t set;
        long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
        a.jobs = cpus < 1 ? 1 : cpus < JUDGE_DEFAULT_JOBS ? (int)cpus : JUDGE_DEFAULT_JOBS;
        a.cpus = cpus < 1 ? 1 : (int)cpus;
    }
    return a;
}

// Finds the lab folder for a number or a path; fills run->lab_dir, lab_name
// and lab_number, or exits 2 naming the labs that exist.
static void judge_find_lab(const judge_args *a, judge_run *run)
{
    char labs[PATH_MAX], known[1024] = "";
    struct stat st;
    char *end = NULL;
    long want = strtol(a->lab, &end, 10);
    int by_number = end && *end == '\0' && end != a->lab;
    snprintf(labs, sizeof(labs), "%s/labs", a->kit);
    struct dirent **entries = NULL;
    int count = scandir(labs, &entries, NULL, alphasort);
    if (count < 0)
        judge_die(JUDGE_EXIT_KIT, "cannot open %s: %s (run make from the kit's root)", labs, strerror(errno));
    for (int i = 0; i < count; i++) {
        const char *name = entries[i]->d_name;
        if (isdigit((unsigned char)name[0]) && isdigit((unsigned char)name[1]) && name[2] == '-') {
            size_t used = strlen(known);
            snprintf(known + used, sizeof(known) - used, "%s%ld (%s)", used ? ", " : "", strtol(name, NULL, 10), name);
            int match = by_number ? strtol(name, NULL, 10) == want
                                  : (!strcmp(name, a->lab) || strstr(a->lab, name) != NULL);
            if (match && !run->lab_dir[0]) {
                snprintf(run->lab_dir, sizeof(run->lab_dir), "%s/%s", labs, name);
                snprintf(run->lab_name, sizeof(run->lab_name), "%s", name);
                run->lab_number = (int)strtol(name, NULL, 10);
            }
        }
        free(entries[i]);
    }
    free(entries);
    if (!run->lab_dir[0] || stat(run->lab_dir, &st) != 0)
        judge_die(JUDGE_EXIT_KIT, "unknown lab '%s': the labs are %s", a->lab, known[0] ? known : "(none found)");
}

// ---------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------

// A 64-bit FNV-1a hash of s, naming a kernel's build folder.
static uint64_t judge_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

// Reads a whole file into a new buffer; returns NULL if it cannot.
static char *judge_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

// Appended to a kernel file built for the GPU: its tile macros as device
// variables the executor can read (names shared with grader/executor/executor.cu).
#define JUDGE_TILES_TRAILER "\n#ifdef IN_TILE_DIM\n__device__ int stencil_kit_in_tile_dim = (int)(IN_TILE_DIM);\n#endif\n" \
    "#ifdef OUT_TILE_DIM\n__device__ int stencil_kit_out_tile_dim = (int)(OUT_TILE_DIM);\n#endif\n" \
    "#ifdef BLOCK_DIM\n__device__ int stencil_kit_block_dim = (int)(BLOCK_DIM);\n#endif\n"

// Copies the student's file into the build folder behind a #line directive
// (compiler messages still name the student's file and lines), so the build
// never writes next to it and a lab.h lying beside it is not picked up.
// Rewrites the copy only when it changed, so make can skip rebuilding.
static void judge_stage_kernel(const char *src_abs, const char *copy, int tiles_trailer)
{
    size_t len = 0, old_len = 0;
    struct stat st;
    if (stat(src_abs, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)KERNEL_FILE_MAX_BYTES)
        judge_die(JUDGE_EXIT_KIT, "the kernel file %s is %lld bytes: a kernel file is at most %u bytes; submit the kernel's source alone",
                  src_abs, (long long)st.st_size, KERNEL_FILE_MAX_BYTES);
    char *text = judge_read_file(src_abs, &len);
    if (!text)
        judge_die(JUDGE_EXIT_KIT, "cannot read the kernel file %s: %s", src_abs, strerror(errno));
    size_t cap = len + strlen(src_abs) * 4 + 64 + sizeof(JUDGE_TILES_TRAILER);
    char *staged = malloc(cap);
    if (!staged)
        judge_die(JUDGE_EXIT_KIT, "out of memory");
    size_t n = (size_t)snprintf(staged, cap, "#line 1 \"");
    for (const char *p = src_abs; *p; p++) {  // a C string: quotes, backslashes and control characters escaped
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            n += (size_t)snprintf(staged + n, cap - n, "\\%03o", (unsigned char)*p);
            continue;
        }
        if (*p == '"' || *p == '\\')
            staged[n++] = '\\';
        staged[n++] = *p;
    }
    n += (size_t)snprintf(staged + n, cap - n, "\"\n");
    memcpy(staged + n, text, len);
    n += len;
    if (tiles_trailer)  // the declared tile sizes, for the OP/B model: the executor reads them from the device code
        n += (size_t)snprintf(staged + n, cap - n, "%s", JUDGE_TILES_TRAILER);
    char *old = judge_read_file(copy, &old_len);
    if (!old || old_len != n || memcmp(old, staged, n) != 0) {
        FILE *f = fopen(copy, "wb");
        if (!f || fwrite(staged, 1, n, f) != n || fclose(f) != 0)
            judge_die(JUDGE_EXIT_KIT, "cannot write %s: %s", copy, strerror(errno));
    }
    free(old);
    free(staged);
    free(text);
}

// Creates every folder of path (like mkdir -p); exits 2 on failure.
static void judge_mkdirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        judge_die(JUDGE_EXIT_KIT, "cannot create %s: %s", buf, strerror(errno));
}

// path relative to the kit's root when it lies inside it (make runs there):
// the kit's own path, which may hold spaces, never reaches the emulation's
// makefile. (The GPU build still gets absolute paths: a kit path with spaces
// is not supported there yet.)
static const char *judge_in_kit(const judge_args *a, const char *path)
{
    size_t n = strlen(a->kit);
    if (n && !strncmp(path, a->kit, n) && path[n] == '/')
        return path + n + 1;
    return path;
}

// Runs `make -f grader/build.mk` with the given variables; the log goes to
// log_path. Returns 1 if the build succeeded.
static int judge_make(const judge_args *a, const char *backend, const char *const vars[], const char *log_path)
{
    char *argv[20];
    char backend_var[32], arch_var[64];
    int n = 0;
    argv[n++] = "make";
    argv[n++] = "-s";
    argv[n++] = "--no-print-directory";
    argv[n++] = "-C";
    argv[n++] = (char *)a->kit;
    argv[n++] = "-f";
    argv[n++] = "grader/build.mk";
    snprintf(backend_var, sizeof(backend_var), "BACKEND=%s", backend);
    argv[n++] = backend_var;
    const char *arch = a->arch ? a->arch : judge_the_run.arch;
    if (arch[0]) {
        snprintf(arch_var, sizeof(arch_var), "ARCH=%s", arch);
        argv[n++] = arch_var;
    }
    int student_file = 0;
    for (int i = 0; vars[i] && n < 19; i++) {
        argv[n++] = (char *)vars[i];
        student_file |= !strncmp(vars[i], "KERNEL=", 7);
    }
    argv[n] = NULL;
    // A student's file gets 5 minutes and 8 GiB of address space (nvcc's cicc needs a few GiB).
    spawn_limits lim = {student_file ? 300.0 : 600.0, 0, student_file ? 8ull << 30 : 0, NULL, 0, 0};
    // Judges side by side (make grade JOBS=n) may build the same thing (the
    // executor, the lab's solution): one at a time per build folder.
    char lock_path[PATH_MAX + 16];
    snprintf(lock_path, sizeof(lock_path), "%s", log_path);
    char *slash = strrchr(lock_path, '/');
    snprintf(slash ? slash + 1 : lock_path, sizeof(lock_path) - (size_t)(slash ? slash + 1 - lock_path : 0), ".build.lock");
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    while (lock >= 0 && flock(lock, LOCK_EX) != 0 && errno == EINTR)
        spawn_check_stop();
    spawn_result s = spawn_run(argv, NULL, log_path, &lim);
    if (lock >= 0)
        close(lock);
    if (!s.started)
        judge_die(JUDGE_EXIT_KIT, "cannot run make: %s (GNU Make is required)", strerror(errno));
    FILE *log = s.timed_out ? fopen(log_path, "a") : NULL;
    if (log) {  // judge_build_failed shows the lines that say "error"
        fprintf(log, "error: the build took longer than %.0f s and was stopped\n", lim.timeout_s);
        fclose(log);
    }
    return s.exited && s.exit_code == 0;
}

static void judge_kit_builds_or_die(const judge_args *a, judge_run *run, const char *backend, const char *log_path);

// Keeps the first compiler error lines of a failed build in run (for the
// JSON report) and prints them unless the report is JSON; exits 2.
static void judge_build_failed(const char *kernel, const char *log_path)
{
    char line[1024];
    int total = 0, defines_main = 0;
    judge_run *run = &judge_the_run;
    FILE *f = fopen(log_path, "r");
    while (f && fgets(line, sizeof(line), f))  // the linker's or compiler's word for a second main()
        defines_main |= strstr(line, "multiple definition of `main'") || strstr(line, "redefinition of 'int main") ||
                        strstr(line, "declaration of C function ‘int main") || strstr(line, "redefinition of ‘int main") ||
                        strstr(line, "multiple definition of 'main'");
    if (f)
        rewind(f);
    if (defines_main) {
        judge_stage("defines-main");
        judge_die(JUDGE_EXIT_KIT, "%s defines main(): the kit provides the program's main() and calls your host function itself; remove your main (full log: %s)", kernel, log_path);
    }
    judge_stage("compile");
    while (f && fgets(line, sizeof(line), f))
        if ((strstr(line, "error") || strstr(line, "Error")) && strncmp(line, "make", 4) != 0) {  // (make's own "Error 1" names the kit's files)
            total++;
            if (run->ncompiler < JUDGE_COMPILER_LINES) {
                line[strcspn(line, "\n")] = '\0';
                protocol_printable(line, 0);  // the compiler quotes the student's lines
                snprintf(run->compiler[run->ncompiler++], sizeof(run->compiler[0]), "%s", line);
            }
        }
    if (!total && f) {  // no line says "error": keep the start of the log
        rewind(f);
        while (run->ncompiler < JUDGE_COMPILER_LINES && fgets(line, sizeof(line), f)) {
            line[strcspn(line, "\n")] = '\0';
            protocol_printable(line, 0);
            snprintf(run->compiler[run->ncompiler++], sizeof(run->compiler[0]), "%s", line);
        }
    }
    if (f)
        fclose(f);
    if (!judge_json) {
        char shown[PATH_MAX];
        fprintf(stderr, "stencil-labs: %s does not compile; the compiler's first errors:\n",
                protocol_printable_copy(shown, sizeof(shown), kernel));
        for (int i = 0; i < run->ncompiler; i++)
            fprintf(stderr, "  %s\n", run->compiler[i]);
        fprintf(stderr, "hint: fix the first error first (later ones often follow from it); the file must define the kernel and the host function the lab's skeleton declares, with the same names. Full log: %s\n", log_path);
    }
    judge_die(JUDGE_EXIT_KIT, "compile error in %s (full log: %s)", kernel, log_path);
}

// The trusted executor's path for this run (one per architecture asked for).
static void judge_executor_path(const judge_args *a, char *path, size_t len)
{
    snprintf(path, len, "%s/build/gpu/%s/executor", a->kit, a->arch ? a->arch : "detected");
}

static int judge_on_path(const char *program);

// --sanitize runs each case under compute-sanitizer on the GPU: asked for
// where it cannot run, it is the kit's setup that is wrong, never the
// student's file, so the run ends here with what to do (exit 2).
static void judge_check_sanitizer(const judge_args *a, const judge_run *run)
{
    if (!a->sanitize)
        return;
    if (strcmp(run->backend, "gpu") != 0)
        judge_die(JUDGE_EXIT_KIT, "SANITIZE=1 runs the cases under compute-sanitizer on a GPU, and this run is emulated%s: drop SANITIZE=1 (emulation checks every memory access and barrier itself)",
                  run->fallback[0] ? " (no usable GPU here)" : "");
    if (!judge_on_path("compute-sanitizer"))
        judge_die(JUDGE_EXIT_KIT, "SANITIZE=1 needs compute-sanitizer, which is not on PATH: it comes with the CUDA Toolkit (put the toolkit's bin/ on PATH), or check without SANITIZE=1");
}

// The architecture the last device probe reported, kept beside the detected
// executor (build/gpu/detected/arch), so builds need not ask the toolkit's
// query tool, which starts the driver; when the probe reports another GPU the
// executor is built again for it.
static void judge_arch_cache_path(const judge_args *a, char *path, size_t len)
{
    snprintf(path, len, "%s/build/gpu/detected/arch", a->kit);
}

static void judge_arch_cache_read(const judge_args *a, char *arch, size_t len)
{
    char path[PATH_MAX + 32];
    judge_arch_cache_path(a, path, sizeof(path));
    arch[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(arch, (int)len, f))
        arch[0] = '\0';
    fclose(f);
    arch[strcspn(arch, "\n")] = '\0';
    if (strncmp(arch, "sm_", 3) != 0 || strspn(arch + 3, "0123456789") != strlen(arch + 3) || !arch[3])
        arch[0] = '\0';  // not an architecture: ask the toolkit instead
}

// "9.0" (the probe's compute_capability) as "sm_90"; "" when it is not one.
static void judge_arch_of_capability(const char *capability, char *arch, size_t len)
{
    unsigned major = 0, minor = 0;
    arch[0] = '\0';
    if (capability && sscanf(capability, "%u.%u", &major, &minor) == 2 && major > 0 && major < 100 && minor < 10)
        snprintf(arch, len, "sm_%u%u", major, minor);
}

static void judge_pick_backend_once(const judge_args *a, judge_run *run, int again);

// Decides the backend: a usable GPU when asked or available, else emulation.
// Builds the executor and asks it to probe the device. Fills run->backend,
// run->fallback, run->arch and the device lines.
static void judge_pick_backend(const judge_args *a, judge_run *run)
{
    judge_pick_backend_once(a, run, 0);
}

static void judge_pick_backend_once(const judge_args *a, judge_run *run, int again)
{
    char executor[PATH_MAX], exec_var[PATH_MAX + 16], log_path[PATH_MAX + 32], dir[PATH_MAX];
    char why[512] = "";
    snprintf(run->backend, sizeof(run->backend), "emu");
    if (!strcmp(a->backend, "emu"))
        return;
    if (!a->arch)
        judge_arch_cache_read(a, run->arch, sizeof(run->arch));
    judge_executor_path(a, executor, sizeof(executor));
    snprintf(exec_var, sizeof(exec_var), "EXECUTOR=%s", executor);
    snprintf(log_path, sizeof(log_path), "%s.log", executor);
    *strrchr(executor, '/') = '\0';
    judge_mkdirs(executor);
    executor[strlen(executor)] = '/';
    const char *vars[] = {exec_var, NULL};
    if (!judge_make(a, "gpu", vars, log_path)) {
        char tail[400];
        spawn_log_tail(log_path, 1, tail, sizeof(tail));
        tail[strcspn(tail, "\n")] = '\0';
        snprintf(why, sizeof(why), "the GPU executor did not build: %s", tail);
    } else {
        // The probe is the executor that will serve the run's cases: its context is made once, now.
        kv_list rep;
        judge_executor *ex = &judge_exec;
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/stencil-probe-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))  // a folder of its own: judges running side by side must not share it
            judge_die(JUDGE_EXIT_KIT, "cannot create a temporary folder %s: %s", dir, strerror(errno));
        snprintf(ex->program, sizeof(ex->program), "%s", executor);
        snprintf(ex->log, sizeof(ex->log), "%s/executor.log", judge_tmp_root);
        spawn_result s = judge_executor_start(ex, dir);
        char report[PATH_MAX + 16], tail[400] = "";
        snprintf(report, sizeof(report), "%s/report.txt", dir);
        kv_load(report, &rep);
        spawn_log_tail(ex->log, 1, tail, sizeof(tail));
        tail[strcspn(tail, "\n")] = '\0';
        unlink(report);
        rmdir(dir);
        char probed[16];
        judge_arch_of_capability(kv_get(&rep, "compute_capability"), probed, sizeof(probed));
        if (!a->arch && probed[0] && strcmp(probed, run->arch) != 0) {
            // The first probe here, or another GPU than the last (a cluster's nodes
            // sharing one home folder): keep its architecture; an executor built for
            // another GPU is built again for this one and probes again.
            int other_gpu = run->arch[0] != '\0';
            char path[PATH_MAX + 32];
            judge_arch_cache_path(a, path, sizeof(path));
            FILE *f = fopen(path, "w");
            if (f)
                fprintf(f, "%s\n", probed), fclose(f);
            snprintf(run->arch, sizeof(run->arch), "%s", probed);
            if (other_gpu && !again) {
                kv_free(&rep);
                spawn_server_stop(&ex->server);
                unlink(executor);
                judge_pick_backend_once(a, run, 1);
                return;
            }
        } else if (!a->arch && !probed[0] && run->arch[0] && !again && !(s.exited && (s.exit_code == 0 || s.exit_code == 127))) {
            // A failed probe with the kept architecture (it may be another GPU's, the
            // probe unable to say): once more as on a first run, the toolkit asked.
            char path[PATH_MAX + 32];
            judge_arch_cache_path(a, path, sizeof(path));
            unlink(path);
            run->arch[0] = '\0';
            kv_free(&rep);
            spawn_server_stop(&ex->server);
            unlink(executor);
            judge_pick_backend_once(a, run, 1);
            return;
        }
        if (s.exited && s.exit_code == 0) {
            snprintf(run->backend, sizeof(run->backend), "gpu");
            snprintf(run->device, sizeof(run->device), "%s", kv_get(&rep, "device") ? kv_get(&rep, "device") : "?");
            run->device_mem_bytes = kv_number(&rep, "global_mem_bytes", 0);
            snprintf(run->device_info, sizeof(run->device_info), "%s SMs, compute capability %s, driver %s, runtime %s",
                     kv_get(&rep, "sm_count"), kv_get(&rep, "compute_capability"),
                     kv_get(&rep, "driver_version"), kv_get(&rep, "runtime_version"));
        } else if (s.exited && s.exit_code == 127) {
            snprintf(why, sizeof(why), "the NVIDIA driver library (libcuda.so.1) is not installed");  // (the loader's words are in the executor's log)
        } else {
            snprintf(why, sizeof(why), "%s", kv_get(&rep, "error") ? kv_get(&rep, "error") : "the GPU probe failed");
        }
        kv_free(&rep);
    }
    if (!strcmp(run->backend, "gpu"))
        return;
    if (!strcmp(a->backend, "gpu"))
        judge_die(JUDGE_EXIT_NO_GPU, "no usable GPU: %s. Without an NVIDIA GPU, grade on the CPU with EMU=1 (correctness only).", why);
    snprintf(run->fallback, sizeof(run->fallback), "%s", why);
}

// Builds what runs kernel_abs: on the GPU the student's program (the file
// alone, linked with the kit's CUDA runtime shim; the executor is runner),
// under emulation the runner with the file included. Returns the paths in
// runner and student ("" under emulation); exits 2 on a compile error.
static int judge_build_runner_as(const judge_args *a, judge_run *run, const char *backend, int fatal, const char *kernel_abs,
                                 char *runner, size_t len, char *student, size_t student_len);

static void judge_build_runner(const judge_args *a, judge_run *run, const char *kernel_abs, char *runner, size_t len,
                               char *student, size_t student_len)
{
    judge_build_runner_as(a, run, run->backend, 1, kernel_abs, runner, len, student, student_len);
}

// As judge_build_runner, for backend; when not fatal, a failed build returns
// -1 (its log path in runner) instead of ending the run. Returns 0 on success.
static int judge_build_runner_as(const judge_args *a, judge_run *run, const char *backend, int fatal, const char *kernel_abs,
                                 char *runner, size_t len, char *student, size_t student_len)
{
    char dir[PATH_MAX], copy[PATH_MAX + 16], log_path[PATH_MAX + 16], why[1024];
    char kvar[PATH_MAX + 16], rvar[PATH_MAX + 16], svar[256], nvar[PATH_MAX + 16], evar[PATH_MAX + 16], ivar[64], radvar[32], uvar[32];
    int gpu = !strcmp(backend, "gpu");
    // One build folder per file, interface, star and update (a lab.conf whose interface, stencil or update changed builds afresh).
    uint64_t hash = judge_hash(kernel_abs);
    if (strcmp(run->conf.interface, INTERFACE_CUBE) != 0)
        hash = hash * 1099511628211ull ^ judge_hash(run->conf.interface);
    if (run->conf.star_radius != 1)
        hash = hash * 1099511628211ull ^ judge_hash(run->conf.stencil);
    if (strcmp(run->conf.update, UPDATE_JACOBI) != 0)
        hash = hash * 1099511628211ull ^ judge_hash(run->conf.update);
    snprintf(dir, sizeof(dir), "%s/build/%s/%s/k-%016llx", a->kit, backend, run->lab_name, (unsigned long long)hash);
    judge_mkdirs(dir);
    snprintf(copy, sizeof(copy), "%s/kernel.cu", dir);
    judge_stage_kernel(kernel_abs, copy, gpu);
    judge_stage("include");
    if (build_check_source(a->kit, backend, copy, run->kernel, why, sizeof(why)) != 0) {
        if (!fatal)
            return snprintf(runner, len, "%s", why), -1;
        judge_die(JUDGE_EXIT_KIT, "%s", why);  // why ends with what a kernel file may include
    }
    judge_stage("compile");
    snprintf(log_path, sizeof(log_path), "%s/build.log", dir);
    snprintf(kvar, sizeof(kvar), "KERNEL=%s", gpu ? copy : judge_in_kit(a, copy));
    snprintf(nvar, sizeof(nvar), "KERNEL_NAME=%s", kernel_abs);
    student[0] = '\0';
    if (gpu) {
        judge_executor_path(a, runner, len);
        snprintf(student, student_len, "%s/student", dir);
        snprintf(evar, sizeof(evar), "EXECUTOR=%s", runner);
        snprintf(rvar, sizeof(rvar), "STUDENT=%s", student);
        snprintf(svar, sizeof(svar), "KIND=%s", run->conf.runner);
    } else {
        snprintf(runner, len, "%s/runner", dir);
        snprintf(evar, sizeof(evar), "KERNEL_NAME=%s", kernel_abs);
        snprintf(rvar, sizeof(rvar), "RUNNER=%s", judge_in_kit(a, runner));
        snprintf(svar, sizeof(svar), "RUNNER_SRC=grader/emu/runner_%s.cu", run->conf.runner);
    }
    snprintf(ivar, sizeof(ivar), "INTERFACE=%s", run->conf.interface);
    snprintf(radvar, sizeof(radvar), "STAR_RADIUS=%d", run->conf.star_radius);
    snprintf(uvar, sizeof(uvar), "UPDATE=%s", run->conf.update);
    // Emulation counts the kernels' loads where the technique has load floors (it costs time).
    const char *loads = !gpu && technique_counts_loads(run->conf.technique) ? "LOAD_COUNTS=1" : NULL;
    const char *vars[] = {kvar, nvar, rvar, svar, evar, ivar, radvar, uvar, loads, NULL};
    if (!judge_make(a, backend, vars, log_path)) {
        if (!fatal)
            return snprintf(runner, len, "%s", log_path), -1;
        judge_kit_builds_or_die(a, run, backend, log_path);
        judge_build_failed(run->kernel, log_path);
    }
    return 0;
}

// The smallest kernel file of lab run's kind that builds: its header and its
// host function doing nothing (what a kit that builds at all must build).
static const char *judge_probe_source(const judge_run *run)
{
    if (strcmp(run->conf.runner, "jacobi") == 0)
        return strcmp(run->conf.update, UPDATE_HEAT2D) == 0
                   ? "#include \"heat2d.h\"\nint heat_solve(float *a, float *b, const heat_problem *p) { (void)a; (void)b; (void)p; return 0; }\n"
                   : "#include \"jacobi.h\"\nint jacobi_solve(float *a, float *b, const float *f, const jacobi_problem *p, int *iters, float *residual)\n"
                     "{ (void)a; (void)b; (void)f; (void)p; (void)iters; (void)residual; return 0; }\n";
    if (strcmp(run->conf.interface, INTERFACE_GRID) == 0)
        return "#include \"grid.h\"\nvoid launch_sweep(float *i, float *o, unsigned int x, unsigned int y, unsigned int z) { (void)i; (void)o; (void)x; (void)y; (void)z; }\n";
    if (strcmp(run->conf.interface, INTERFACE_IMAGE) == 0)
        return "#include \"conv.h\"\nvoid launch_convolution(const float *i, float *o, unsigned int w, unsigned int h, int r) { (void)i; (void)o; (void)w; (void)h; (void)r; }\n";
    return run->conf.star_radius == 2 ? "#include \"star13.h\"\nvoid launch_stencil(float *i, float *o, unsigned int n) { (void)i; (void)o; (void)n; }\n"
                                      : "#include \"lab.h\"\nvoid launch_stencil(float *i, float *o, unsigned int n) { (void)i; (void)o; (void)n; }\n";
}

// A build that failed with no error in the student's own file may be the
// kit's fault (a toolchain the kit does not build with, a kit file broken):
// the smallest file of the lab's kind is built the same way, and when it
// fails too the run ends as a kit-level error (stage kit-build), not as the
// student's compile error.
static void judge_kit_builds_or_die(const judge_args *a, judge_run *run, const char *backend, const char *log_path)
{
    char line[1024], probe[PATH_MAX + 64], dir[PATH_MAX + 32], runner[PATH_MAX + 32], student[PATH_MAX + 32];
    const char *base = strrchr(run->kernel, '/') ? strrchr(run->kernel, '/') + 1 : run->kernel;
    int theirs = 0;
    FILE *f = fopen(log_path, "r");
    while (f && fgets(line, sizeof(line), f))  // an error the compiler places in the student's file
        theirs |= (strstr(line, base) || strstr(line, "kernel.cu")) && (strstr(line, "error") || strstr(line, "Error"));
    if (f)
        fclose(f);
    if (theirs)
        return;
    snprintf(dir, sizeof(dir), "%s/build/%s/%s", a->kit, backend, run->lab_name);
    judge_mkdirs(dir);
    snprintf(probe, sizeof(probe), "%s/kit-probe.cu", dir);
    FILE *p = fopen(probe, "w");
    if (!p || fputs(judge_probe_source(run), p) < 0) {
        if (p)
            fclose(p);
        return;
    }
    fclose(p);
    char kernel[sizeof(run->kernel)];
    snprintf(kernel, sizeof(kernel), "%s", run->kernel);
    int probe_builds = judge_build_runner_as(a, run, backend, 0, probe, runner, sizeof(runner), student, sizeof(student)) == 0;
    snprintf(run->kernel, sizeof(run->kernel), "%s", kernel);
    if (probe_builds)
        return;  // the kit builds: the failure is the file's (a macro of its own breaking a kit header, say)
    char first[400] = "";
    f = fopen(runner, "r");  // (the probe's log)
    while (f && fgets(line, sizeof(line), f) && !first[0])
        if ((strstr(line, "error") || strstr(line, "Error")) && strncmp(line, "make", 4) != 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(first, sizeof(first), "%s", line);
        }
    if (f)
        fclose(f);
    judge_stage("kit-build");
    judge_die(JUDGE_EXIT_KIT, "the kit itself does not build here on the %s backend: the smallest kernel file of this lab fails too (%s; full log: %s). This is no fault of %s: check the toolchain (the kit's own make test says more) or tell your instructor",
              backend, first[0] ? first : "no error line", runner, kernel);
}

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

// 1 if case spec (named name) is the one --case names (or no case was
// named): by its name ("N=33", "64x32x16"), or by its size however written
// ("33", "3x3x3" for the case named N=3).
static int judge_case_selected(const judge_args *a, const lab_case *spec, const char *name)
{
    lab_case want;
    char err[256];
    if (!a->case_name)
        return 1;
    if (!strcmp(a->case_name, name) || (name[0] == 'N' && !strcmp(a->case_name, name + 2)))
        return 1;
    return !strchr(a->case_name, ' ') && conf_parse_case(a->case_name, &want, err, sizeof(err)) == 0 &&
           want.nx == spec->nx && want.ny == spec->ny && want.nz == spec->nz;
}

// Fails case r without running it when its grids cannot fit in device memory
// (two guarded grids) or in this machine's memory (the judge holds the input
// and maps the outputs). Returns 1 if it did.
static int judge_case_too_large(judge_run *run, const lab_case *spec, case_result *r)
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
    r->hint_key = "no-memory";
    char name[48], place[256];
    snprintf(name, sizeof(name), "%s", r->name);
    snprintf(place, sizeof(place), "%s", where);
    snprintf(r->reason, sizeof(r->reason), "%s is too large: its grids need %.1f GiB and %s has %.1f GiB", name,
             (where == run->device ? 2.0 : 3.0) * grid / 1073741824.0, place, have / 1073741824.0);
    snprintf(r->hint, sizeof(r->hint), "grade this case on a machine with more memory, or take it out of lab.conf.");
    run->failed++;
    return 1;
}

// Runs every case; fills run->cases and the technique line.
// The environment the case functions run a built kernel in.
// The executor the cases of the judge process itself use: a GPU run's, not
// under the sanitizer (every case a process of its own there), never in a
// forked worker (its pipes are the judge's).
static judge_executor *judge_executor_for(const judge_args *a, const judge_run *run)
{
    return !strcmp(run->backend, "gpu") && !a->sanitize && !judge_worker_error[0] ? &judge_exec : NULL;
}

// The turns judge_spawn_runner takes around each runner (judge_case_env's gpu_turn).
static void judge_gpu_turn(int exclusive)
{
    judge_take_gpu(&judge_the_args, exclusive);
}

static void judge_gpu_turn_end(void)
{
    judge_give_gpu();
}

static judge_case_env judge_case_env_for(const judge_args *a, judge_run *run, const char *runner, const char *student)
{
    judge_case_env env = {&run->conf, runner, !strcmp(run->backend, "emu"), a->sanitize, a->keep, 0,
                          strcmp(run->conf.technique, "z-coarsening") == 0 || strcmp(run->conf.technique, "register-tiling") == 0,
                          a->profile, student[0] ? student : NULL, 0, NULL, NULL, NULL, NULL, NULL, 0};
    if (!strcmp(run->backend, "gpu"))
        env.gpu_turn = judge_gpu_turn, env.gpu_turn_end = judge_gpu_turn_end;
    env.emu_memory_bytes = (unsigned long long)a->emu_memory_mb << 20;
    return env;
}

// 1 if the rubric scores speed against the lab's solution timed in the same run.
static int judge_speed_against_solution(const judge_run *run)
{
    for (int i = 0; i < run->conf.nparts; i++)
        if (run->conf.parts[i].kind == RUBRIC_SPEED && run->conf.parts[i].against_solution)
            return 1;
    return 0;
}

// Builds the lab's solution (GPU, when the rubric times speed against it)
// into runner/student; returns 1 if there is one to time, 0 if not (not in
// this kit, or the file graded is the solution itself).
static int judge_build_solution(const judge_args *a, judge_run *run, const char *kernel_abs, char *runner, size_t len,
                                char *student, size_t student_len)
{
    char path[PATH_MAX + CONF_TEXT], sol[PATH_MAX];
    if (strcmp(run->backend, "gpu") || !judge_speed_against_solution(run))
        return 0;
    snprintf(path, sizeof(path), "%s/%s", a->kit, run->conf.solution);
    if (!realpath(path, sol) || !strcmp(sol, kernel_abs))
        return 0;
    char stage[sizeof(run->stage)];
    snprintf(stage, sizeof(stage), "%s", run->stage);
    judge_build_runner(a, run, sol, runner, len, student, student_len);
    snprintf(run->stage, sizeof(run->stage), "%s", stage);
    return 1;
}

// The lab's solution timed early: while the student's file builds (CPU
// work), a worker process times the solution on every timed case selected,
// alone on the GPU, and leaves its GB/s a case in the temporary folder; the
// cases wait for it. Not with --gpu-lock-dir (judges side by side take their
// GPU turns one case at a time) nor with --jobs 1.
static pid_t judge_yardstick_pid;                  // the worker, 0 if none
static int judge_yardstick_have;                   // 1: judge_yardstick_gbs holds its figures
static double judge_yardstick_gbs[CONF_MAX_CASES]; // the solution's GB/s on lab.conf's case k (0: not timed, or failed)

static void judge_yardstick_start(const judge_args *a, judge_run *run, const char *runner, const char *student)
{
    char path[PATH_MAX + 32];
    if (a->gpu_lock_dir || a->jobs < 2)
        return;
    pid_t pid = judge_fork(-1);
    if (pid < 0)
        return;  // timed later, as with --jobs 1
    if (pid > 0) {
        judge_yardstick_pid = judge_worker_pids[0] = pid;  // stopped with the case workers on a kit failure
        return;
    }
    judge_case_env env = judge_case_env_for(a, run, runner, student);
    env.sanitize = env.profile = 0, env.yardstick = 1;  // timed as it is, its grids not judged (the kit's own solution)
    judge_worker_path(-1, "yardstick", path, sizeof(path));
    FILE *f = fopen(path, "w");
    for (int k = 0; f && k < run->conf.ncases; k++) {
        static case_result r;
        char name[48];
        kv_list report;
        const lab_case *spec = &run->conf.cases[k];
        if (!spec->timed || !judge_case_selected(a, spec, conf_case_name(spec, name, sizeof(name))))
            continue;
        memset(&r, 0, sizeof(r));
        r.spec = *spec;
        int rc = !strcmp(run->conf.runner, "jacobi") ? jacobi_run_case(&env, spec, rng_case_seed(run->seed, k), &r, &report)
                                                     : judge_run_case(&env, spec, rng_case_seed(run->seed, k), &r, &report);
        if (rc == 0)
            kv_free(&report);
        fprintf(f, "%d %.6f\n", k, rc == 0 && r.status == CASE_OK && r.timed ? r.gbs : 0.0);
    }
    _exit(f && fclose(f) == 0 ? 0 : 3);
}

// Where the solution's figures for this lab, kit and GPU are kept
// (yardstick_cache.h): build/yardstick/<lab>-<key>.txt, the key made of the
// solution, lab.conf, the executor and the build rules, and the GPU's name,
// SMs, compute capability, driver and runtime.
static void judge_yardstick_path(const judge_args *a, const judge_run *run, char *path, size_t len)
{
    char sol[PATH_MAX + CONF_TEXT], conf[PATH_MAX + 16], executor[PATH_MAX], rules[PATH_MAX + 32];
    snprintf(sol, sizeof(sol), "%s/%s", a->kit, run->conf.solution);
    snprintf(conf, sizeof(conf), "%s/lab.conf", run->lab_dir);
    judge_executor_path(a, executor, sizeof(executor));
    snprintf(rules, sizeof(rules), "%s/grader/build.mk", a->kit);
    const char *files[] = {sol, conf, executor, rules, NULL};
    const char *texts[] = {run->device, run->device_info, NULL};
    snprintf(path, len, "%s/build/yardstick/%s-%016llx.txt", a->kit, run->lab_name,
             (unsigned long long)yardstick_cache_key(files, texts));
}

// 1 when the kept figures hold every timed case this run selects (they are
// then the yardstick: judge_yardstick_gbs, judge_yardstick_have).
static int judge_yardstick_kept(const judge_args *a, judge_run *run, const char *kernel_abs)
{
    char path[PATH_MAX + 64], sol[PATH_MAX];
    double gbs[CONF_MAX_CASES];
    snprintf(path, sizeof(path), "%s/%s", a->kit, run->conf.solution);
    if (realpath(path, sol) && !strcmp(sol, kernel_abs))
        return 0;  // the solution graded: its own times are the yardstick
    judge_yardstick_path(a, run, path, sizeof(path));
    if (yardstick_cache_load(path, gbs, run->conf.ncases) <= 0)
        return 0;
    for (int k = 0; k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        if (spec->timed && judge_case_selected(a, spec, conf_case_name(spec, name, sizeof(name))) && gbs[k] <= 0)
            return 0;
    }
    memcpy(judge_yardstick_gbs, gbs, sizeof(gbs[0]) * (size_t)run->conf.ncases);
    judge_yardstick_have = 1;
    judge_trace_note("yardstick: the solution's figures kept in %s", path);
    return 1;
}

// Keeps the figures measured (gbs[k] for lab.conf's case k, 0: none) with
// those kept before for this key; a kit whose build folder is read-only keeps none.
static void judge_yardstick_keep(const judge_args *a, const judge_run *run, const double *gbs)
{
    char path[PATH_MAX + 64], dir[PATH_MAX + 16];
    double all[CONF_MAX_CASES];
    judge_yardstick_path(a, run, path, sizeof(path));
    yardstick_cache_load(path, all, run->conf.ncases);
    int any = 0;
    for (int k = 0; k < run->conf.ncases; k++)
        if (gbs[k] > 0)
            all[k] = gbs[k], any = 1;
    if (!any)
        return;
    snprintf(dir, sizeof(dir), "%s/build/yardstick", a->kit);
    mkdir(dir, 0755);
    yardstick_cache_save(path, all, run->conf.ncases);
}

// Waits for the early yardstick (if one was started) and reads its figures.
static void judge_yardstick_wait(const judge_args *a, const judge_run *run)
{
    char path[PATH_MAX + 32];
    int status = -1, k;
    double gbs;
    if (!judge_yardstick_pid)
        return;
    status = judge_wait_helper(judge_yardstick_pid, 0);
    judge_yardstick_pid = 0;
    judge_worker_path(-1, "yardstick", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (!f || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (f)
            fclose(f);
        return;  // timed later, the usual way
    }
    while (fscanf(f, "%d %lf", &k, &gbs) == 2)
        if (k >= 0 && k < CONF_MAX_CASES)
            judge_yardstick_gbs[k] = gbs;
    fclose(f);
    judge_yardstick_have = 1;
    judge_yardstick_keep(a, run, judge_yardstick_gbs);
}

// Times the lab's solution on every timed case that passed, with the same
// seed, for the speed score; fills each one's solution_gbs (0 if the
// solution did not run through). When the file graded is the solution
// itself, its own times are the yardstick.
static void judge_time_solution(const judge_args *a, judge_run *run, int have_solution, const char *runner, const char *student)
{
    if (judge_yardstick_have) {  // measured while the student's file was built (judge_yardstick_start)
        for (int i = 0; i < run->ncases; i++)
            for (int k = 0; k < run->conf.ncases; k++) {
                char name[48];
                if (run->cases[i].timed && run->cases[i].status == CASE_OK && run->conf.cases[k].timed &&
                    !strcmp(conf_case_name(&run->conf.cases[k], name, sizeof(name)), run->cases[i].name))
                    run->cases[i].solution_gbs = judge_yardstick_gbs[k];
            }
        return;
    }
    double measured[CONF_MAX_CASES] = {0};
    for (int i = 0; i < run->ncases; i++) {
        case_result *c = &run->cases[i];
        if (!c->timed || c->status != CASE_OK)
            continue;
        if (!have_solution) {  // the solution graded itself (or none to time: solution_gbs stays 0)
            char path[PATH_MAX + CONF_TEXT], sol[PATH_MAX], mine[PATH_MAX];
            snprintf(path, sizeof(path), "%s/%s", a->kit, run->conf.solution);
            if (realpath(path, sol) && realpath(run->kernel, mine) && !strcmp(sol, mine))
                c->solution_gbs = c->gbs;
            continue;
        }
        judge_case_env env = judge_case_env_for(a, run, runner, student);
        env.sanitize = env.profile = 0;  // a yardstick: timed as it is, its grids not judged (the kit's own solution)
        env.yardstick = 1;
        env.executor = !strcmp(run->backend, "gpu") ? &judge_exec : NULL;
        static case_result r;
        kv_list report;
        memset(&r, 0, sizeof(r));
        r.spec = c->spec;
        int rc = !strcmp(run->conf.runner, "jacobi") ? jacobi_run_case(&env, &c->spec, c->seed, &r, &report)
                                                     : judge_run_case(&env, &c->spec, c->seed, &r, &report);
        if (rc == 0) {
            if (r.status == CASE_OK && r.timed)
                c->solution_gbs = r.gbs;
            kv_free(&report);
        }
        for (int k = 0; k < run->conf.ncases; k++) {  // kept for the next run, by lab.conf's index
            char name[48];
            if (run->conf.cases[k].timed && !strcmp(conf_case_name(&run->conf.cases[k], name, sizeof(name)), c->name))
                measured[k] = c->solution_gbs;
        }
    }
    if (have_solution)
        judge_yardstick_keep(a, run, measured);
}

// 1 if program is on PATH.
static int judge_on_path(const char *program)
{
    char path[PATH_MAX + 64];
    const char *dirs = getenv("PATH");
    for (const char *p = dirs ? dirs : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, program);
        if (n && access(path, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

// The timed whole solves' references, made ahead (judge_jacobi.h): one
// helper process solves them in lab.conf's order, into memory shared with
// the judge, from the build on. On a GPU with --jobs 2 or more (the CPUs are
// free while the student's file builds and the cases' runners wait on the GPU).
static jacobi_early judge_early[CONF_MAX_CASES];  // lab.conf's case k's (mem NULL: none)
static pid_t judge_early_pid;                      // the helper, 0 if none

static void judge_early_start(const judge_args *a, judge_run *run)
{
    int any = 0;
    if (strcmp(run->backend, "gpu") || strcmp(run->conf.runner, "jacobi") || a->jobs < 2)
        return;
    for (int k = 0; k < run->conf.ncases; k++) {
        char name[48];
        const lab_case *spec = &run->conf.cases[k];
        size_t bytes = jacobi_early_bytes(&run->conf, spec);
        if (!bytes || !judge_case_selected(a, spec, conf_case_name(spec, name, sizeof(name))))
            continue;
        void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED)
            continue;  // solved when judged, as without
        judge_early[k].mem = mem, judge_early[k].bytes = bytes;
        any = 1;
    }
    if (!any)
        return;
    pid_t pid = judge_fork(-3);
    if (pid < 0) {
        judge_early_stop();  // solved when judged, as without
        return;
    }
    if (pid > 0) {
        judge_early_pid = pid;
        for (int k = 0; k < run->conf.ncases; k++)
            judge_early[k].pid = pid;
        return;
    }
#ifdef _OPENMP
    omp_set_num_threads(a->cpus);
#endif
    for (int k = 0; k < run->conf.ncases; k++)
        if (judge_early[k].mem)
            jacobi_early_make(&run->conf, &run->conf.cases[k], rng_case_seed(run->seed, k), judge_early[k].mem, judge_early[k].bytes);
    _exit(0);
}

// Ends the helper (its work done or no longer needed) and frees the memory.
static void judge_early_stop(void)
{
    if (judge_early_pid > 0) {
        kill(judge_early_pid, SIGKILL);
        waitpid(judge_early_pid, NULL, 0);  // -1 if the side-by-side cases' wait took it already
        judge_early_pid = 0;
    }
    for (int k = 0; k < CONF_MAX_CASES; k++)
        if (judge_early[k].mem) {
            munmap(judge_early[k].mem, judge_early[k].bytes);
            memset(&judge_early[k], 0, sizeof(judge_early[k]));
        }
}

// Runs one case of spec with env; 0, or -1 if the kit failed (r incomplete).
static int judge_run_one(const judge_case_env *env, const judge_run *run, const lab_case *spec, uint64_t seed, case_result *r)
{
    kv_list report;
    memset(r, 0, sizeof(*r));
    r->spec = *spec;
    conf_case_name(spec, r->name, sizeof(r->name));
    int rc = !strcmp(run->conf.runner, "jacobi") ? jacobi_run_case(env, spec, seed, r, &report)
                                                 : judge_run_case(env, spec, seed, r, &report);
    if (rc == 0)
        kv_free(&report);
    return rc;
}

// The emulation runner the barrier checks of a GPU run use (judge_sync_checks):
// when the lab has a sync case it is built in a worker beside the GPU build
// (judge_emu_prebuild_start, _wait), else on first use.
static char judge_emu_runner[PATH_MAX];  // its path, or why it could not be built
static int judge_emu_built;              // 0 not tried, 1 built, -1 failed
static pid_t judge_emu_pid;              // the worker building it, 0 if none

static void judge_emu_prebuild_start(const judge_args *a, judge_run *run, const char *kernel_abs)
{
    int sync = 0;
    for (int k = 0; k < run->conf.ncases; k++)
        sync |= run->conf.cases[k].sync;
    if (strcmp(run->backend, "gpu") || a->sanitize || a->jobs < 2 || !sync)
        return;
    pid_t pid = judge_fork(-2);
    if (pid < 0)
        return;  // built on first use
    if (pid > 0) {
        judge_emu_pid = judge_worker_pids[1] = pid;
        return;
    }
    char path[PATH_MAX + 32], none[8] = "";
    int rc = judge_build_runner_as(a, run, "emu", 0, kernel_abs, judge_emu_runner, sizeof(judge_emu_runner), none, sizeof(none));
    judge_worker_path(-2, "emu", path, sizeof(path));
    FILE *f = fopen(path, "w");
    _exit(f && fprintf(f, "%d\n%s\n", rc, judge_emu_runner) > 0 && fclose(f) == 0 ? 0 : 3);
}

static void judge_emu_prebuild_wait(void)
{
    char path[PATH_MAX + 32], line[PATH_MAX + 8];
    int status = -1, rc;
    if (!judge_emu_pid)
        return;
    status = judge_wait_helper(judge_emu_pid, 1);
    judge_emu_pid = 0;
    judge_worker_path(-2, "emu", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (f && WIFEXITED(status) && WEXITSTATUS(status) == 0 && fscanf(f, "%d\n", &rc) == 1 && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(judge_emu_runner, sizeof(judge_emu_runner), "%s", line);
        judge_emu_built = rc == 0 ? 1 : -1;
    }  // else built on first use
    if (f)
        fclose(f);
}

// The barrier checks of a `sync` case that passed on the GPU, where the
// hardware may forgive a barrier mistake: the emulator's strict barriers in
// two thread orders (a barrier some threads never reach, a missing one), then
// compute-sanitizer's racecheck (a race on shared memory). A finding fails
// case r with its hint; a check that cannot run here adds a note instead.
static void judge_sync_checks(const judge_args *a, judge_run *run, const char *kernel_abs, const judge_case_env *gpu_env,
                              const lab_case *spec, case_result *r)
{
    static case_result found;
    char none[8] = "";
    int passed = r->status == CASE_OK;
    // A race on shared memory: racecheck names the two accesses and their lines.
    if (judge_on_path("compute-sanitizer")) {
        judge_case_env env = *gpu_env;
        env.sanitize = JUDGE_RACECHECK, env.profile = 0;
        int rc = judge_run_one(&env, run, spec, r->seed, &found);
        if (rc == 0 && found.status == CASE_FAIL && found.hint_key && !strcmp(found.hint_key, HINT_MISSING_BARRIER)) {
            *r = found;
            snprintf(r->note, sizeof(r->note), "found by compute-sanitizer's racecheck on this case%s",
                     passed ? " (the GPU's own run passed: the race did not show in the values)" : " (the wrong values come from this race)");
            return;
        }
        if (rc == 0 && found.status == CASE_FAIL)  // no verdict on races: say so (the emulator's check below may still find one)
            snprintf(r->note, sizeof(r->note), "race check inconclusive: under compute-sanitizer's racecheck this case failed otherwise (%.300s)",
                     found.reason[0] ? found.reason : found.kind);
    } else {
        snprintf(r->note, sizeof(r->note), "race check skipped: compute-sanitizer is not on PATH (it comes with the CUDA Toolkit)");
    }
    // A barrier not every thread reaches, which the hardware may forgive: the emulator's strict barriers.
    if (!judge_emu_built) {
        judge_emu_built = judge_build_runner_as(a, run, "emu", 0, kernel_abs, judge_emu_runner, sizeof(judge_emu_runner), none, sizeof(none)) == 0 ? 1 : -1;
        judge_stage("cases");
    }
    if (judge_emu_built != 1) {
        snprintf(r->note, sizeof(r->note), "barrier check skipped: the CPU emulation could not build this file (%s)", judge_emu_runner);
        return;
    }
    judge_case_env env = *gpu_env;
    env.runner = judge_emu_runner, env.emu = 1, env.student = NULL, env.sanitize = 0, env.profile = 0;
    int rc = judge_run_one(&env, run, spec, r->seed, &found);  // on the CPU: no turn on the GPU
    if (rc == 0 && found.status == CASE_FAIL && found.hint_key &&
        (!strcmp(found.hint_key, HINT_DIVERGENT_BARRIER) || !strcmp(found.hint_key, HINT_THREAD_ORDER))) {
        *r = found;
        snprintf(r->note, sizeof(r->note), "found by the CPU emulation's strict barriers on this case%s",
                 passed ? " (the GPU's own run passed: the hardware forgave it)" : "");
    }
}

// One case from start to end: its runner and, for a `sync` case on a GPU,
// the barrier checks. Returns 0, or -1 if the kit failed (r incomplete).
static int judge_case_whole(const judge_args *a, judge_run *run, const char *kernel_abs, const judge_case_env *env,
                            const lab_case *spec, case_result *r, kv_list *report)
{
    int rc = !strcmp(run->conf.runner, "jacobi") ? jacobi_run_case(env, spec, r->seed, r, report)
                                                 : judge_run_case(env, spec, r->seed, r, report);
    // The barrier checks: on a passing sync case (the hardware may forgive a barrier mistake), and on
    // one whose values are wrong (a race shows as wrong values: name the race rather than the pattern).
    if (rc == 0 && spec->sync && !env->emu && !a->sanitize && (r->status == CASE_OK || !strcmp(r->kind, "wrong")))
        judge_sync_checks(a, run, kernel_abs, env, spec, r);
    return rc;
}

// 1 if a case runs on its own, after the cases run side by side: a timed one
// (alone on its GPU), one whose grids are large (memory for one at a time),
// or a manufactured-solution case (lab 5: two in a row make the convergence
// check, so they run in the judge itself, in lab.conf's order).
static int judge_case_alone(const lab_case *spec)
{
    double cells = (double)spec->nx * spec->ny * spec->nz;
    const char *mms = conf_case_opt(spec, "mms");  // lab 5's convergence pair: the second reads the first's error
    return spec->timed || cells * 4.0 > JUDGE_SIDE_BY_SIDE_MAX_BYTES || (mms && strcmp(mms, "0") != 0);
}

// In a worker process (forked by judge_run_side_by_side): runs case slot i
// and leaves its result files for the judge; never returns. judge_die here
// writes the error file and ends only the worker.
static void judge_worker(const judge_args *a, judge_run *run, const char *kernel_abs, const judge_case_env *env, int i)
{
    char path[PATH_MAX + 32];
    kv_list report;
    pictures_forget_offer();           // offer this case's plane only; the judge merges in case order
#ifdef _OPENMP
    omp_set_num_threads(a->cpus > a->jobs ? a->cpus / a->jobs : 1);  // the reference's threads: a share of the CPUs
#endif
    case_result *r = &run->cases[i];
    if (judge_case_whole(a, run, kernel_abs, env, &r->spec, r, &report) != 0)
        judge_die(JUDGE_EXIT_KIT, "could not run case %s: %s (temporary folder, memory or the runner)", r->name, strerror(errno));
    // hint_key points into the judge's static tables: the same address in the judge, forked from it.
    judge_worker_path(i, "result", path, sizeof(path));
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(r, sizeof(*r), 1, f) == 1;
    ok = f && fclose(f) == 0 && ok;
    judge_worker_path(i, "report", path, sizeof(path));
    ok = ok && kv_save(path, &report) == 0;
    judge_worker_path(i, "picture", path, sizeof(path));
    ok = ok && pictures_save_offer(path) == 0;
    if (!ok)
        judge_die(JUDGE_EXIT_KIT, "could not hand case %s's result to the judge: %s (temporary folder)", r->name, strerror(errno));
    _exit(0);
}

// A progress line on stderr, overwritten by the next (\r): only on a terminal and
// never with --json, so logs and pipes get the report alone.
static void judge_progress(const judge_args *a, const char *fmt, ...)
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

// Reads back what worker slot i left (judge_worker) but its heat-map plane
// (merged in lab.conf's order after all ran); dies with its error if it failed.
static void judge_worker_collect(judge_run *run, int i, int status, kv_list *report)
{
    char path[PATH_MAX + 32], msg[1200] = "";
    judge_worker_path(i, "error", path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(msg, sizeof(msg), f))
            msg[0] = '\0';
        fclose(f);
        msg[strcspn(msg, "\n")] = '\0';
        judge_die(JUDGE_EXIT_KIT, "%s", msg[0] ? msg : "a case's worker failed");
    }
    case_result got;
    judge_worker_path(i, "result", path, sizeof(path));
    f = fopen(path, "rb");
    int ok = f && fread(&got, sizeof(got), 1, f) == 1;
    if (f)
        fclose(f);
    judge_worker_path(i, "report", path, sizeof(path));
    ok = ok && kv_load(path, report) == 0;
    if (!ok)
        judge_die(JUDGE_EXIT_KIT, "the worker of case %s ended (status %d) without its result: %s", run->cases[i].name, status, strerror(errno));
    run->cases[i] = got;
}

// Stops the case workers still running (a kit failure or a stop signal in
// the judge): SIGTERM, which kills each one's runner, then SIGKILL.
static void judge_stop_workers(void)
{
    int left = 0;
    for (int w = 0; w < JUDGE_MAX_JOBS; w++)
        if (judge_worker_pids[w] > 0)
            kill(judge_worker_pids[w], SIGTERM), left++;
    for (int tries = 0; left && tries < 200; tries++) {  // 2 s for them to kill their runners
        struct timespec pause = {0, 10 * 1000 * 1000};
        left = 0;
        for (int w = 0; w < JUDGE_MAX_JOBS; w++)
            if (judge_worker_pids[w] > 0 && waitpid(judge_worker_pids[w], NULL, WNOHANG) == 0)
                left++;
            else
                judge_worker_pids[w] = 0;
        if (left)
            nanosleep(&pause, NULL);
    }
    for (int w = 0; w < JUDGE_MAX_JOBS; w++)
        if (judge_worker_pids[w] > 0) {
            kill(judge_worker_pids[w], SIGKILL);
            waitpid(judge_worker_pids[w], NULL, 0);
            judge_worker_pids[w] = 0;
        }
}

// Runs the cases of slots[0..n) side by side, at most jobs at a time, each
// in a worker process; a case's report goes into reports[slot].
static void judge_run_side_by_side(const judge_args *a, int jobs, judge_run *run, const char *kernel_abs,
                                  const judge_case_env *env, const int *slots, int n, int *ran, kv_list *reports)
{
    int next = 0, running = 0;
    while (next < n || running) {
        while (running < jobs && next < n) {  // all of them, --fail-fast too: the run ends in lab.conf's order
            int i = slots[next++], w = 0;
            while (judge_worker_pids[w] > 0)
                w++;
            pid_t pid = judge_fork(i);
            if (pid < 0)
                judge_die(JUDGE_EXIT_KIT, "cannot start a process for case %s: %s", run->cases[i].name, strerror(errno));
            if (pid == 0)
                judge_worker(a, run, kernel_abs, env, i);
            judge_worker_pids[w] = pid, judge_worker_slots[w] = i;
            running++;
        }
        if (!running)
            break;
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno != EINTR)
                judge_die(JUDGE_EXIT_KIT, "waiting for the case workers: %s", strerror(errno));
            spawn_check_stop();
            continue;
        }
        for (int w = 0; w < JUDGE_MAX_JOBS; w++)
            if (judge_worker_pids[w] == pid) {
                judge_worker_pids[w] = 0, running--;
                int i = judge_worker_slots[w];
                judge_worker_collect(run, i, status, &reports[i]);
                ran[i] = 1;
                judge_progress(a, "  %d of %d cases done ...", next - running, n);
            }
    }
}

// What case r (with its runner's report) adds to the run: the tiles the
// kernel declared, the technique line (judged on the largest case every
// backend runs, so the verdict is the same under emulation and on a GPU; a
// `noemu` case only when there is no other), the case counts.
static void judge_count_case(judge_run *run, const case_result *r, const kv_list *report, size_t *technique_cells)
{
    const lab_case *spec = &r->spec;
    run->in_tile = (int)kv_number(report, "in_tile_dim", run->in_tile);
    run->out_tile = (int)kv_number(report, "out_tile_dim", run->out_tile);
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    size_t rank = spec->noemu ? cells : cells + ((size_t)1 << 48);
    const unsigned int size[3] = {spec->nx, spec->ny, spec->nz};
    // Judged on the largest case that passed with points to compute: a grid with no interior (N=1, 2)
    // says nothing of how the work is spread (judge_run_cases fails the line when no other passed).
    if (r->status == CASE_OK && r->interior > 0 && rank >= *technique_cells && kv_get(report, "launches")) {
        *technique_cells = rank;
        run->technique = technique_check_grid(run->conf.technique, report, size, run->conf.star_radius);
        snprintf(run->technique_case, sizeof(run->technique_case), "%s", r->name);
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
        }
    }
    if (r->status == CASE_OK)
        run->passed++;
    else
        run->failed++;
}

// 1 if hint key names a barrier mistake (racecheck's or the emulator's).
static int judge_barrier_hint(const char *key)
{
    return key && (!strcmp(key, HINT_MISSING_BARRIER) || !strcmp(key, HINT_DIVERGENT_BARRIER) || !strcmp(key, HINT_THREAD_ORDER));
}

// A second look at wrong values with no pattern, on a GPU: a race often
// shows so on a case that is not the sync one (whose run the hardware
// forgave). When no case named a barrier mistake already, the barrier checks
// run on the smallest such case, untimed and small, and may name the race.
static void judge_barrier_second_look(const judge_args *a, judge_run *run, const char *kernel_abs, const judge_case_env *env,
                                      const int *ran)
{
    int pick = -1;
    double pick_cells = 0;
    if (env->emu || a->sanitize)
        return;
    for (int slot = 0; slot < run->ncases; slot++) {
        const case_result *r = &run->cases[slot];
        double cells = (double)r->spec.nx * r->spec.ny * r->spec.nz;
        if (!ran[slot])
            continue;
        if (judge_barrier_hint(r->hint_key))
            return;
        if (r->status == CASE_FAIL && r->hint_key && !strcmp(r->hint_key, HINT_WRONG_VALUES) && !r->spec.timed &&
            cells <= JUDGE_SECOND_LOOK_MAX_CELLS && (pick < 0 || cells < pick_cells))
            pick = slot, pick_cells = cells;
    }
    if (pick < 0)
        return;
    judge_sync_checks(a, run, kernel_abs, env, &run->cases[pick].spec, &run->cases[pick]);
}

// 1 if case x should start before case y when run side by side: a sync case
// first (its barrier checks make it the longest), then the larger grid.
static int judge_case_before(const lab_case *x, const lab_case *y)
{
    double cx = (double)x->nx * x->ny * x->nz, cy = (double)y->nx * y->ny * y->nz;
    return x->sync != y->sync ? x->sync > y->sync : cx > cy;
}

// Runs every case; fills run->cases and the technique line. The cases that
// may share the GPU run side by side first (a->jobs at a time, in a shared
// turn), then each timed or large one alone; the results are counted in
// lab.conf's order whatever order they finished in.
static void judge_run_cases(const judge_args *a, judge_run *run, const char *kernel_abs, const char *runner, const char *student)
{
    judge_case_env env = judge_case_env_for(a, run, runner, student);
    static kv_list reports[CONF_MAX_CASES];
    env.executor = judge_executor_for(a, run);
    // An emulation runner holds student code (every case under emulation, the barrier checks on a
    // GPU); without Landlock it could write another case's hand-off files beside its own folder:
    // one case at a time there. On a GPU one executor serves the cases, one after another: a case's
    // GPU work is milliseconds, and the processes and contexts side by side cost more than they save.
    int jobs = !sandbox_confines_writes() || env.executor ? 1 : a->jobs;
    int ran[CONF_MAX_CASES] = {0}, counted[CONF_MAX_CASES] = {0}, shared[CONF_MAX_CASES], nshared = 0;
    int alone[CONF_MAX_CASES], nalone = 0, conf_index[CONF_MAX_CASES];
    size_t technique_cells = 0;
    snprintf(run->technique.detail, sizeof(run->technique.detail), "no case ran to the end");
    run->technique_timed.status = TECHNIQUE_NA;
    run->timed_case[0] = '\0';
    run->timed_cells = 0;
    run->technique.status = TECHNIQUE_NA;
    for (int i = 0; i < run->conf.ncases; i++) {
        case_result *r = &run->cases[run->ncases];
        const lab_case *spec = &run->conf.cases[i];
        memset(r, 0, sizeof(*r));
        r->spec = *spec;
        conf_case_name(spec, r->name, sizeof(r->name));
        if (!judge_case_selected(a, spec, r->name))
            continue;
        int slot = run->ncases++;
        conf_index[slot] = i;
        r->seed = rng_case_seed(run->seed, i);
        ran[slot] = 1;  // until it is known to need running
        if (env.emu && spec->noemu) {
            r->status = CASE_SKIPPED;
            snprintf(r->kind, sizeof(r->kind), "skipped");
            snprintf(r->reason, sizeof(r->reason), "%s", spec->timed ? "timing case: timing is n/a on CPU emulation" : "too large for CPU emulation");
            run->skipped++;
            continue;
        }
        if (judge_case_too_large(run, spec, r)) {
            counted[slot] = 1;  // judge_case_too_large counted it failed
            continue;
        }
        ran[slot] = 0;
        if (jobs > 1 && !judge_case_alone(spec))
            shared[nshared++] = slot;
        else
            alone[nalone++] = slot;
    }
    // The longest first: a sync case (its barrier checks follow), then the larger grids.
    for (int x = 1; x < nshared; x++)
        for (int y = x; y > 0 && judge_case_before(&run->cases[shared[y]].spec, &run->cases[shared[y - 1]].spec); y--) {
            int t = shared[y];
            shared[y] = shared[y - 1], shared[y - 1] = t;
        }
    if (nshared) {
        judge_progress(a, "  running %d cases, %d at a time ...", nshared, jobs < nshared ? jobs : nshared);
        if (!env.emu)
            judge_take_gpu(a, 0);  // one shared turn for all of them
        judge_run_side_by_side(a, jobs, run, kernel_abs, &env, shared, nshared, ran, reports);
        judge_give_gpu();
        for (int slot = 0; slot < run->ncases; slot++) {  // the heat-map planes in lab.conf's order, as one at a time
            char path[PATH_MAX + 32];
            judge_worker_path(slot, "picture", path, sizeof(path));
            if (ran[slot] && pictures_merge_offer(path) != 0)
                judge_die(JUDGE_EXIT_KIT, "cannot read case %s's heat-map plane: %s", run->cases[slot].name, strerror(errno));
        }
    }
    for (int k = 0; k < nalone; k++) {
        case_result *r = &run->cases[alone[k]];
        int failed_before = 0;  // --fail-fast: a case that failed earlier in lab.conf's order ends the run here
        for (int slot = 0; slot < alone[k]; slot++)
            failed_before |= ran[slot] && run->cases[slot].status == CASE_FAIL;
        if (a->fail_fast && failed_before)
            break;
        judge_progress(a, "  running %s ...%20s", r->name, "");
        // (its runners take their turns on the GPU: alone for a timed one, shared otherwise; judge_spawn_runner)
        env.early = judge_early[conf_index[alone[k]]].mem ? &judge_early[conf_index[alone[k]]] : NULL;
        int rc = judge_case_whole(a, run, kernel_abs, &env, &r->spec, r, &reports[alone[k]]);
        env.early = NULL;
        if (rc != 0)
            judge_die(JUDGE_EXIT_KIT, "could not run case %s: %s (temporary folder, memory or the runner)", r->name, strerror(errno));
        ran[alone[k]] = 1;
    }
    judge_barrier_second_look(a, run, kernel_abs, &env, ran);
    judge_progress(a, "%60s", "");
    // Counted in lab.conf's order. With --fail-fast the run ends at the first case that failed in
    // that order, as one case at a time would: the cases after it are left out, run or not.
    int kept = 0, ncases = run->ncases;
    for (int slot = 0; slot < ncases; slot++) {
        case_result *r = &run->cases[slot];
        if (!ran[slot] || (a->fail_fast && kept > 0 && run->cases[kept - 1].status == CASE_FAIL)) {
            if (ran[slot] && counted[slot])
                run->failed--;  // a too-large case after the end: not counted after all
            if (ran[slot] && r->status == CASE_SKIPPED)
                run->skipped--;
            kv_free(&reports[slot]);
            continue;
        }
        if (r->status != CASE_SKIPPED && !counted[slot])
            judge_count_case(run, r, &reports[slot], &technique_cells);
        kv_free(&reports[slot]);
        if (kept != slot)
            run->cases[kept] = *r;
        kept++;
    }
    run->ncases = kept;
    if (run->technique.status == TECHNIQUE_NA && run->passed > 0 && strcmp(run->conf.technique, "none") != 0) {
        run->technique.status = TECHNIQUE_FAIL;  // only cases with nothing to compute passed: no evidence of the idea
        snprintf(run->technique.detail, sizeof(run->technique.detail),
                 "not judged: no case with interior points passed (the line is judged on the largest case the kernel gets right)");
    }
    if (run->technique.status == TECHNIQUE_OK && run->technique_timed.status == TECHNIQUE_FAIL)
        run->technique = run->technique_timed;  // the technique on the small grids, another kernel timed
}

// The technique floors a launch record cannot show (technique_loads): the
// technique's case once more under Nsight Compute, counting the loads the
// student's kernel executed. Only a technique line that passed can change.
static void judge_count_loads(const judge_args *a, judge_run *run, const char *runner, const char *student)
{
    static case_result counted;
    const case_result *c = NULL;
    // The loads are counted on the largest timed case (what is timed is what is judged), else the technique's.
    const char *on = run->timed_case[0] ? run->timed_case : run->technique_case;
    for (int i = 0; i < run->ncases; i++)
        if (!strcmp(run->cases[i].name, on))
            c = &run->cases[i];
    if (run->technique.status != TECHNIQUE_OK || !c || !technique_counts_loads(run->conf.technique))
        return;  // no floors to check (lab 1's, the whole solves', the speed lab's): no second run
    const unsigned int size[3] = {c->spec.nx, c->spec.ny, c->spec.nz};
    if (strcmp(run->backend, "gpu") != 0) {
        if (!run->emu_loads_counted)  // (counted, they were judged with the technique's case: judge_count_case)
            technique_loads_grid(run->conf.technique, NULL, size, run->conf.star_radius, 0, 0, 0,
                                 "the emulation was built without its load counts (they need GCC's sanitizer; EMU_CXX is another compiler)", &run->technique);
        return;
    }
    if (!judge_on_path("ncu")) {
        technique_loads_grid(run->conf.technique, NULL, size, run->conf.star_radius, 0, 0, 0,
                             "Nsight Compute (ncu), which counts the loads, is not on PATH (it comes with the CUDA Toolkit)", &run->technique);
        return;
    }
    judge_case_env env = judge_case_env_for(a, run, runner, student);
    env.ncu_metrics = JUDGE_NCU_LOADS, env.sanitize = 0, env.profile = 0;
    kv_list report;
    memset(&counted, 0, sizeof(counted));
    counted.spec = c->spec;
    counted.spec.timed = 0;  // one checked call, untimed: the student's launches alone are profiled
    int rc = judge_run_case(&env, &counted.spec, c->seed, &counted, &report);  // alone on the GPU: a profiler shares it with nobody
    if (rc != 0)
        judge_die(JUDGE_EXIT_KIT, "could not count the loads of case %s: %s (temporary folder, memory or the runner)", c->name, strerror(errno));
    // It passed unprofiled: a file that fails under the profiler (its values wrong, or the executor saw its
    // launch, kernel or a call fail) gets no unchecked pass. A failure of the profiler's own (no report, the
    // kit's stages) leaves the floors not counted, as below.
    const char *stage = kv_get(&report, "error_stage"), *status = kv_get(&report, "status");
    int student_failed = counted.status != CASE_OK &&
                         ((status && !strcmp(status, "ok") && !strcmp(counted.kind, "wrong")) ||
                          (stage && (!strcmp(stage, "launch") || !strcmp(stage, "execute") || !strcmp(stage, "refused") || !strcmp(stage, "program"))));
    if (student_failed) {
        size_t used = strlen(run->technique.detail);
        run->technique.status = TECHNIQUE_FAIL;
        snprintf(run->technique.detail + used, sizeof(run->technique.detail) - used,
                 "; under Nsight Compute, which counts the loads, case %s did not pass (%s): the kernel must compute the same way when profiled",
                 c->name, counted.reason[0] ? counted.reason : counted.kind);
        kv_free(&report);
        return;
    }
    technique_loads_grid(run->conf.technique, &report, size, run->conf.star_radius, counted.loads_counted ? TECHNIQUE_LOADS_NCU : 0, counted.global_loads, counted.shared_loads,
                         "Nsight Compute (ncu) could not count the loads here (another profiler on the GPU, or performance counters that need permission: ERR_NVGPUCTRPERM)",
                         &run->technique);
    kv_free(&report);
}

// The filter radius the OP/B model of a convolution lab is evaluated at: the
// first timed case's (the one whose speed the report shows), else the first case's.
static int judge_model_filter_radius(const lab_conf *conf)
{
    for (int i = 0; i < conf->ncases; i++)
        if (conf->cases[i].timed)
            return conf_case_radius(&conf->cases[i]);
    return conf->ncases ? conf_case_radius(&conf->cases[0]) : 0;
}

// Writes run's JSON report to build/status/<lab>.json and its summary to <lab>.summary, which `make status` reads.
static void judge_save_status(const judge_args *a, const judge_run *run)
{
    char dir[PATH_MAX], path[PATH_MAX + 160];
    snprintf(dir, sizeof(dir), "%s/build/status", a->kit);
    judge_mkdirs(dir);
    snprintf(path, sizeof(path), "%s/%s.json", dir, run->lab_name);
    FILE *f = fopen(path, "w");
    if (!f)
        return;  // status is a convenience: a check is never failed for it
    report_json(run, f);
    fclose(f);
    // and as key=value lines (summary_keys.h), which make status reads with the shell alone
    snprintf(path, sizeof(path), "%s/%s.summary", dir, run->lab_name);
    if ((f = fopen(path, "w"))) {
        report_summary(run, f);
        fclose(f);
    }
}

// Seconds on a monotonic clock.
static double judge_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    double t_start = judge_now(), t_mark;
    judge_run *run = &judge_the_run;
    char err[1024], conf_path[PATH_MAX + 16], kernel_abs[PATH_MAX], runner[PATH_MAX], student[PATH_MAX];
    char sol_runner[PATH_MAX] = "", sol_student[PATH_MAX] = "";
    run->technique.status = TECHNIQUE_NA;
    judge_stage("options");
    judge_the_args = judge_parse(argc, argv);
    judge_args *a = &judge_the_args;
    judge_json = a->json;
    prctl(PR_SET_DUMPABLE, 0);  // no process of this user (a runner included) may read or write the judge's memory
    spawn_stop_on_signals(judge_stopped);
    judge_make_tmp();
    if (a->pictures) {  // the folder first: the report files the options name may go into it
        judge_mkdirs(a->pictures);
        pictures_enable(a->pictures, a->kit);
    }
    judge_stage("lab");
    judge_find_lab(a, run);
    judge_stage("config");
    snprintf(conf_path, sizeof(conf_path), "%s/lab.conf", run->lab_dir);
    if (conf_load(conf_path, &run->conf, err, sizeof(err)) != 0)
        judge_die(JUDGE_EXIT_KIT, "%s", err);
    if (a->conf_get) {  // a script's question about lab.conf: the judge reads it, nobody else
        char value[CONF_TEXT * 4];
        if (conf_get(&run->conf, a->conf_get, value, sizeof(value)) != 0)
            judge_die(JUDGE_EXIT_KIT, "--conf-get: lab.conf has no key '%s' (the keys: %s)", a->conf_get, value);
        printf("%s\n", value);
        exit(0);
    }
    if (a->timeout_s > 0)
        run->conf.timeout_s = a->timeout_s;
    if (a->solution && a->kernel)
        judge_die(JUDGE_EXIT_KIT, "--solution grades lab.conf's solution: give it or --kernel, not both");
    if (a->kernel)
        snprintf(run->kernel, sizeof(run->kernel), "%s", a->kernel);
    else if (a->solution)
        snprintf(run->kernel, sizeof(run->kernel), "%s/%s", a->kit, run->conf.solution);
    else
        snprintf(run->kernel, sizeof(run->kernel), "%s/%s", a->kit, run->conf.kernel);
    judge_stage("kernel-file");
    if (!realpath(run->kernel, kernel_abs))
        judge_die(JUDGE_EXIT_KIT, "kernel file not found: %s (this lab's skeleton is %s; pass KERNEL=path/to/file.cu to grade another file)", run->kernel, run->conf.kernel);
    if (access(kernel_abs, R_OK) != 0)
        judge_die(JUDGE_EXIT_KIT, "cannot read the kernel file %s: %s", run->kernel, strerror(errno));
    judge_stage("config");
    int named = 0;
    for (int i = 0; i < run->conf.ncases; i++) {
        char name[48];
        named |= judge_case_selected(a, &run->conf.cases[i], conf_case_name(&run->conf.cases[i], name, sizeof(name)));
    }
    if (!named)
        judge_die(JUDGE_EXIT_KIT, "no case of %s is named '%s' (CASE= takes a size as lab.conf writes it, e.g. 33)", conf_path, a->case_name);
    run->seed = a->have_seed ? a->seed : rng_fresh_seed() % 1000000000ull;
    judge_stage("backend");
    t_mark = judge_now();
    if (strcmp(a->backend, "emu"))
        judge_take_gpu(a, 0);
    judge_pick_backend(a, run);
    judge_give_gpu();  // compiling needs no GPU: others may time meanwhile
    judge_check_sanitizer(a, run);
    judge_early_start(a, run);  // the timed whole solves' references, while the file builds and the cases run
    int have_solution = 0;
    if (!strcmp(run->backend, "gpu") && judge_speed_against_solution(run) && !judge_yardstick_kept(a, run, kernel_abs))
        have_solution = judge_build_solution(a, run, kernel_abs, sol_runner, sizeof(sol_runner), sol_student, sizeof(sol_student));
    if (have_solution)
        judge_yardstick_start(a, run, sol_runner, sol_student);  // the GPU is idle while the student's file builds
    judge_emu_prebuild_start(a, run, kernel_abs);                // the barrier checks' runner, beside the GPU build
    double t_student = judge_now();
    judge_build_runner(a, run, kernel_abs, runner, sizeof(runner), student, sizeof(student));
    run->seconds.build_student = judge_now() - t_student, t_student = judge_now();
    judge_yardstick_wait(a, run);
    judge_emu_prebuild_wait();
    run->seconds.build_waits = judge_now() - t_student;
    run->seconds.build = judge_now() - t_mark, t_mark = judge_now();
    judge_stage("cases");
    judge_run_cases(a, run, kernel_abs, runner, student);
    judge_early_stop();
    pictures_close_offers();  // what follows is no case of the student's
    run->seconds.cases = judge_now() - t_mark, t_mark = judge_now();
    judge_count_loads(a, run, runner, student);
    run->seconds.loads = judge_now() - t_mark, t_mark = judge_now();
    if (!strcmp(run->backend, "gpu") && judge_speed_against_solution(run)) {
        judge_time_solution(a, run, have_solution, sol_runner, sol_student);  // its runs alone on the GPU, when it times
    }
    run->seconds.solution = judge_now() - t_mark, t_mark = judge_now();
    spawn_server_stop(&judge_exec.server);
    judge_trace_note("executor: %d started, %d cases served", judge_exec.started, judge_exec.cases);
    spawn_check_stop();
    judge_stage("report");
    if (!strcmp(run->conf.opb_model, "convolution"))  // at the filter radius of the first timed case (else the first case)
        run->opb_valid = opb_conv_model(run->in_tile, run->out_tile, judge_model_filter_radius(&run->conf), &run->opb) == 0;
    else
        run->opb_valid = opb_book_model(run->conf.opb_model, run->in_tile, run->out_tile, run->conf.star_radius, &run->opb) == 0;
    pictures_draw(run);
    run->seconds.report = judge_now() - t_mark;
    run->seconds.total = judge_now() - t_start;
    run->exit_code = (run->failed == 0 && run->technique.status != TECHNIQUE_FAIL) ? JUDGE_EXIT_PASS : JUDGE_EXIT_FAIL;
    run->stage[0] = '\0';
    report_score(run);
    if (a->json)
        report_json(run, stdout);
    else
        report_text(run);
    if (!a->kernel && !a->solution && !a->case_name)  // the student's own full check: remember it for make status
        judge_save_status(a, run);
    if (judge_write_files(run, err, sizeof(err)) != 0) {
        judge_stage("report");
        judge_die(JUDGE_EXIT_KIT, "%s", err);
    }
    if (!a->json && (a->html_out || a->json_out))  // where the other forms of this report are (on stderr: stdout is the report)
        fprintf(stderr, "report also in: %s%s%s\n", a->html_out ? a->html_out : "", a->html_out && a->json_out ? ", " : "",
                a->json_out ? a->json_out : "");
    if (a->keep)
        fprintf(stderr, "kept: every case's folder (its grids, report.txt and runner.log) is under %s\n", judge_tmp_root);
    return run->exit_code;
}
