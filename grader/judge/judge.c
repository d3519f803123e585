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
// take turns on each GPU (gpu_turns.h). --pictures draws the report's
// pictures into DIR (grader/judge/pictures.h); --html-out writes the report
// as one self-contained HTML page, on every exit path too.
//
// It never links student code: it builds a runner (grader/build.mk) from the
// kernel file, starts it once per case as a child process with a time limit,
// and judges only the grids the runner leaves behind. Exit status: 0 every
// case passed, 1 a case failed, 2 the kit could not run (with a one-line
// reason), 77 no usable GPU when one was demanded.
//
// This file is the driver: the options, the run's steps in order, the report,
// and the one place a kit-level error ends the run (judge_fail). The steps
// live in files of their own: judge_options.c, backend.c, runner_build.c,
// gpu_turns.c, worker_pool.c, background.c, yardstick.c, case_schedule.c,
// barrier_checks.c, load_count.c, tool_runs.c, report_files.c.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "case_schedule.h"
#include "gpu_turns.h"
#include "judge_files.h"
#include "judge_session.h"
#include "lab_kind.h"
#include "load_count.h"
#include "tool_runs.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#include "pictures.h"
#include "protocol.h"
#include "report.h"
#include "report_files.h"
#include "rng.h"
#include "runner_build.h"
#include "spawn.h"

// The run. Static, and the judge's only mutable static: judge_fail reports
// it from wherever a step stops, the stop signals' handler (judge_stopped)
// and the temporary folder's atexit handler (judge_remove_tmp) included.
static judge_session judge_the_session;

// Names the stage the run is at, for the report of a kit-level exit.
static void judge_stage(judge_run *run, const char *stage)
{
    snprintf(run->stage, sizeof(run->stage), "%s", stage);
    judge_trace_note("stage: %s", stage);
}

void judge_fail(const judge_error *err)
{
    judge_session *s = &judge_the_session;
    judge_run *run = &s->run;
    judge_error files;
    char msg[sizeof(err->message)];
    snprintf(msg, sizeof(msg), "%s", err->message);
    protocol_printable(msg, 0);  // it may name the student's file, or quote its words
    if (worker_pool_in_worker(&s->pool))  // a case's worker: the judge reads this and reports it
        worker_pool_hand_over(&s->pool, msg, err->code);
    worker_pool_stop(&s->pool);
    background_early_stop(&s->bg);
    run->exit_code = err->code;
    snprintf(run->message, sizeof(run->message), "%s", msg);
    if (err->stage[0])
        judge_stage(run, err->stage);
    if (!run->stage[0])
        judge_stage(run, "kit");
    if (s->args.json)
        report_score(run), report_json(run, stdout);
    if (report_files_write(&s->args, run, &files) != 0)
        fprintf(stderr, "stencil-labs: %s\n", files.message);
    fprintf(stderr, "stencil-labs: %s\n", msg);
    exit(err->code);
}

void judge_die(int code, const char *fmt, ...)
{
    judge_error err = {code, "", ""};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.message, sizeof(err.message), fmt, ap);
    va_end(ap);
    judge_fail(&err);
}

// A stop signal arrived (the running child is already killed): report and exit.
static void judge_stopped(int sig)
{
    judge_stage(&judge_the_session.run, "interrupted");
    judge_die(JUDGE_EXIT_KIT, "stopped by signal %d (%s) before grading finished; nothing was graded", sig, strsignal(sig));
}

// At exit: removes this run's temporary folder (case folders and all) unless --keep.
static void judge_remove_tmp(void)
{
    judge_session *s = &judge_the_session;
    if (!s->args.keep)
        judge_remove_tree(s->tmp_root);
}

// Makes this run's temporary folder under $TMPDIR and points TMPDIR at it,
// so every case folder lives inside and is removed at exit, whatever ends
// the run. Returns 0, or -1 with err.
static int judge_make_tmp(judge_session *s, judge_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(s->tmp_root, sizeof(s->tmp_root), "%s/stencil-judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->tmp_root)) {
        char why[PATH_MAX + 64];
        snprintf(why, sizeof(why), "%s", s->tmp_root);
        s->tmp_root[0] = '\0';
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot create a temporary folder %s: %s (set TMPDIR to a writable folder)", why, strerror(errno));
    }
    atexit(judge_remove_tmp);
    setenv("TMPDIR", s->tmp_root, 1);
    s->pool.dir = s->tmp_root;
    return 0;
}

// Reads the options and readies the run: its temporary folder, the stop
// signals, the GPU turns, the pictures' folder. Returns 0, or -1 with err.
static int judge_start(judge_session *s, int argc, char **argv, judge_error *err)
{
    judge_args a;
    s->run.technique.status = TECHNIQUE_NA;
    judge_stage(&s->run, "options");
    int parsed = judge_options_parse(argc, argv, &a, err);
    if (parsed < 0)
        return -1;  // (the options are not the run's yet: no report file is written)
    if (parsed > 0)
        exit(0);  // --help
    s->args = a;
#ifdef _OPENMP
    omp_set_num_threads(a.cpus);  // the references and checks of large cases: this run's share of the CPUs
#endif
    prctl(PR_SET_DUMPABLE, 0);  // no process of this user (a runner included) may read or write the judge's memory
    spawn_stop_on_signals(judge_stopped);
    s->tools.early_fd = -1;
    if (judge_make_tmp(s, err) != 0)
        return -1;
    // Turns on the GPU in every run: judges side by side share --gpu-lock-dir's; a run alone takes
    // them in its own folder, so its timed cases wait for the GPU work of its runs under a tool
    // (the profiler's, the sanitizer's) and not for those tools' start-up and end.
    gpu_turns_init(a.gpu_lock_dir ? a.gpu_lock_dir : s->tmp_root, a.gpu_lock_dir ? a.gpu_slots : 1, &s->run);
    if (a.pictures) {  // the folder first: the report files the options name may go into it
        if (judge_mkdirs(a.pictures, err) != 0)
            return -1;
        pictures_enable(a.pictures, a.kit);
    }
    return 0;
}

// Finds the lab folder for a number or a path; fills run->lab_dir, lab_name
// and lab_number. Returns 0, or -1 with err naming the labs that exist.
static int judge_find_lab(const judge_args *a, judge_run *run, judge_error *err)
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
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot open %s: %s (run make from the kit's root)", labs, strerror(errno));
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
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "unknown lab '%s': the labs are %s", a->lab, known[0] ? known : "(none found)");
    return 0;
}

// Chooses the file graded (--kernel, --solution, else the lab's skeleton)
// and checks it can be read; then that --case names a case of lab.conf
// (conf_path). Returns 0, or -1 with err.
static int judge_choose_kernel(judge_session *s, const char *conf_path, judge_error *err)
{
    const judge_args *a = &s->args;
    judge_run *run = &s->run;
    if (a->solution && a->kernel)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "--solution grades lab.conf's solution: give it or --kernel, not both");
    if (a->kernel)
        snprintf(run->kernel, sizeof(run->kernel), "%s", a->kernel);
    else
        snprintf(run->kernel, sizeof(run->kernel), "%s/%s", a->kit, a->solution ? run->conf.solution : run->conf.kernel);
    judge_stage(run, "kernel-file");
    if (!realpath(run->kernel, s->kernel_abs))
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "kernel file not found: %s (this lab's skeleton is %s; pass KERNEL=path/to/file.cu to grade another file)", run->kernel, run->conf.kernel);
    if (access(s->kernel_abs, R_OK) != 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot read the kernel file %s: %s", run->kernel, strerror(errno));
    judge_stage(run, "config");
    int named = 0;
    for (int i = 0; i < run->conf.ncases; i++) {
        char name[48];
        named |= judge_options_case_selected(a, &run->conf.cases[i], conf_case_name(&run->conf.cases[i], name, sizeof(name)));
    }
    // A size no case of lab.conf has: a case sized from a kernel's launch (its report's replay line), when the lab sizes
    // cases so and the size is one it could have sized.
    const lab_case *largest = lab_kind_sized_cap(&run->conf);
    lab_case want;
    char why_not[256];
    if (!named && largest && run->conf.ncases < CONF_MAX_CASES && lab_kind_of(&run->conf)->sized_cases != lab_kind_no_sized_cases && !strchr(a->case_name, ' ') &&
        conf_parse_case(a->case_name, &want, why_not, sizeof(why_not)) == 0 && want.nx == want.ny && want.ny == want.nz &&
        want.nx >= 3 && want.nx <= largest->nx) {
        s->replay_sized = want;
        s->replay_sized.sized_tile = LAB_SIZED_TILE_UNKNOWN;
        snprintf(s->replay_sized.group, sizeof(s->replay_sized.group), "%s", largest->group);
        named = 1;
    }
    if (!named)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "no case of %s is named '%s' (CASE= takes a size as lab.conf writes it, e.g. 33, or one a report's replay line names)", conf_path, a->case_name);
    return 0;
}

// Finds the lab, reads its lab.conf (answering --conf-get and ending there),
// chooses the kernel file and the seed. Returns 0, or -1 with err.
static int judge_open_lab(judge_session *s, judge_error *err)
{
    const judge_args *a = &s->args;
    judge_run *run = &s->run;
    char conf_path[PATH_MAX + 16], why[1024];
    judge_stage(run, "lab");
    if (judge_find_lab(a, run, err) != 0)
        return -1;
    judge_stage(run, "config");
    snprintf(conf_path, sizeof(conf_path), "%s/lab.conf", run->lab_dir);
    if (conf_load(conf_path, &run->conf, why, sizeof(why)) != 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "%s", why);
    if (a->conf_get) {  // a script's question about lab.conf: the judge reads it, nobody else
        char value[CONF_TEXT * 4];
        if (conf_get(&run->conf, a->conf_get, value, sizeof(value)) != 0)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "--conf-get: lab.conf has no key '%s' (the keys: %s)", a->conf_get, value);
        printf("%s\n", value);
        exit(0);
    }
    if (a->timeout_s > 0)
        run->conf.timeout_s = a->timeout_s;
    if (judge_choose_kernel(s, conf_path, err) != 0)
        return -1;
    run->seed = a->have_seed ? a->seed : rng_fresh_seed() % 1000000000ull;
    return 0;
}

// Picks the backend (the GPU's probe, the executor making its CUDA context,
// taking a shared turn; the student's file staged and its includes checked
// meanwhile) and builds the student's file, with the helpers that
// work beside that build: the references made ahead, the solution's early
// timing, the barrier checks' emulation runner. The GPU is chosen first
// (gpu_turns_choose), before any executor or helper starts: they run on it
// and name its locks. The probe's turn keeps a context's making away from
// another judge's timed case, until measured harmless for a timed whole
// solve (tests/bench/context_noise.sh: lab 4's one launch did not move).
// Returns 0, or -1 with err.
static int judge_build(judge_session *s, judge_error *err)
{
    judge_run *run = &s->run;
    double mark = judge_case_clock();
    judge_stage(run, "backend");
    if (load_count_choice_check(err) != 0)
        return -1;
    if (strcmp(s->args.backend, "emu") && (gpu_turns_choose(err) != 0 || gpu_turns_take(GPU_TURN_SHARED, err) != 0))
        return -1;
    backend_probe probe;
    if (backend_pick_begin(&s->args, run, &s->exec, s->tmp_root, &probe, err) != 0)
        return -1;
    if (probe.dir[0])  // while the probe makes its context: the file's includes checked (nvcc's preprocessor)
        runner_check_early(&s->args, run, "gpu", s->kernel_abs);
    if (backend_pick_end(&s->args, run, &s->exec, s->tmp_root, &probe, err) != 0)
        return -1;
    gpu_turns_give();  // compiling needs no GPU: others may time meanwhile
    if (backend_check_sanitizer(&s->args, run, err) != 0)
        return -1;
    background_early_start(s);  // the timed whole solves' references, while the file builds and the cases run
    if (yardstick_prepare(s, err) != 0)  // the GPU is idle while the student's file builds
        return -1;
    background_emu_start(s);  // the barrier checks' runner, beside the GPU build
    tool_runs_early_start(s);  // the load count's profiler starting up, beside the build
    double student = judge_case_clock();
    if (runner_build(&s->args, run, run->backend, 1, s->kernel_abs, s->runner, sizeof(s->runner), s->student,
                     sizeof(s->student), err) != 0)
        return -1;
    run->seconds.build_student = judge_case_clock() - student, student = judge_case_clock();
    judge_trace_note("built the student's programs: %.2f s", run->seconds.build_student);
    yardstick_wait(s);  // (the barrier checks' runner is waited for when they need it: background_emu_runner)
    run->seconds.build_waits = judge_case_clock() - student;
    run->seconds.build = judge_case_clock() - mark;
    return 0;
}

// Runs the cases, counts the technique's loads, times the lab's solution.
// Returns 0, or -1 with err.
static int judge_grade(judge_session *s, judge_error *err)
{
    judge_run *run = &s->run;
    double mark = judge_case_clock();
    judge_stage(run, "cases");
    tool_runs_start(s);  // the load count and the barrier checks, beside the cases
    if (schedule_run_cases(s, err) != 0)
        return -1;
    background_emu_wait(s);  // a barrier checks' runner no check needed: built whole, never killed mid-link at the end
    background_early_stop(&s->bg);
    pictures_close_offers();  // what follows is no case of the student's
    run->seconds.cases = judge_case_clock() - mark, mark = judge_case_clock();
    if (load_count_check(s, err) != 0)
        return -1;
    tool_runs_stop(s);
    run->seconds.loads = judge_case_clock() - mark, mark = judge_case_clock();
    yardstick_time(s);  // its runs alone on the GPU, when it times
    run->seconds.solution = judge_case_clock() - mark;
    double stopping = judge_case_clock();
    spawn_server_stop(&s->exec.server);
    judge_trace_note("executor: %d started, %d cases served; its end waited %.2f s", s->exec.started, s->exec.cases,
                     judge_case_clock() - stopping);
    spawn_check_stop();
    return 0;
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

// The report: the OP/B model and the pictures, the verdict, the report on
// stdout (text or JSON), the status `make status` reads, the files the
// options name. Returns the run's exit status, or -1 with err.
static int judge_report(judge_session *s, double start, judge_error *err)
{
    const judge_args *a = &s->args;
    judge_run *run = &s->run;
    double mark = judge_case_clock();
    judge_stage(run, "report");
    const lab_technique *model = technique_find(run->conf.opb_model);  // a filter's at the first timed case's radius (else the first case's)
    run->opb_valid = model->model(model, run->in_tile, run->out_tile,
                                  model->filter_model ? judge_model_filter_radius(&run->conf) : run->conf.star_radius, &run->opb) == 0;
    pictures_draw(run);
    run->seconds.report = judge_case_clock() - mark;
    run->seconds.total = judge_case_clock() - start;
    run->exit_code = (run->failed == 0 && run->technique.status != TECHNIQUE_FAIL) ? JUDGE_EXIT_PASS : JUDGE_EXIT_FAIL;
    run->stage[0] = '\0';
    report_score(run);
    if (a->json)
        report_json(run, stdout);
    else
        report_text(run);
    if (!a->kernel && !a->solution && !a->case_name && report_files_save_status(a, run, err) != 0)
        return -1;  // (the student's own full check: remembered for make status)
    if (report_files_write(a, run, err) != 0)
        return snprintf(err->stage, sizeof(err->stage), "report"), -1;
    if (!a->json && (a->html_out || a->json_out))  // where the other forms of this report are (on stderr: stdout is the report)
        fprintf(stderr, "report also in: %s%s%s\n", a->html_out ? a->html_out : "", a->html_out && a->json_out ? ", " : "",
                a->json_out ? a->json_out : "");
    if (a->keep)
        fprintf(stderr, "kept: every case's folder (its grids, report.txt and runner.log) is under %s\n", s->tmp_root);
    return run->exit_code;
}

int main(int argc, char **argv)
{
    judge_session *s = &judge_the_session;
    judge_error err;
    double start = judge_case_clock();
    int status = 0;
    if (judge_start(s, argc, argv, &err) != 0 || judge_open_lab(s, &err) != 0 || judge_build(s, &err) != 0 ||
        judge_grade(s, &err) != 0 || (status = judge_report(s, start, &err)) < 0)
        judge_fail(&err);
    return status;
}
