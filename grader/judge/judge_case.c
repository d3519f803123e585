// grader/judge/judge_case.c — runs one sweep case: draws the input, starts the
// runner under limits, reads back what it wrote and decides.
#include "judge_case.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_locks.h"
#include "grid_memory.h"
#include "kv.h"
#include "lab_kind.h"
#include "ncu.h"
#include "pictures.h"
#include "protocol.h"
#include "rng.h"
#include "spawn.h"
#include "judge_files.h"
#include "sanitizer_log.h"
#include "technique.h"
#include "verdict.h"

// ---------------------------------------------------------------------------
// Files of one case
// ---------------------------------------------------------------------------

typedef struct mapped_grid {
    const float *data;   // the mapped floats, or NULL
    size_t bytes;        // mapping length (0: data is the judge's own, not mapped)
} mapped_grid;

// Maps dir/name read-only if it holds exactly floats floats. Returns 0 or -1.
static int case_map(const char *dir, const char *name, size_t floats, mapped_grid *m)
{
    char path[1024];
    struct stat st;
    m->data = NULL;
    m->bytes = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size != floats * sizeof(float)) {
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return -1;
    m->data = p;
    m->bytes = (size_t)st.st_size;
    return 0;
}

// Unmaps m if mapped (the judge's own data stays).
static void case_unmap(mapped_grid *m)
{
    if (m->data && m->bytes)
        munmap((void *)m->data, m->bytes);
    m->data = NULL;
}

// A buffer of guard | cells | guard floats, its guards GUARD_BITS (the
// cells left for the caller); NULL when out of memory. free() it.
static float *case_guarded(size_t cells, size_t guard)
{
    float *g = protocol_grid_alloc((cells + 2 * guard) * sizeof(float)), bits;
    uint32_t guard_bits = GUARD_BITS;
    memcpy(&bits, &guard_bits, sizeof(bits));
    for (size_t q = 0; g && q < guard; q++)
        g[q] = g[guard + cells + q] = bits;
    return g;
}

// 1 if the runner's report says the kit's GPU check found the input buffer
// as drawn (GPU_CHECK_INPUT_KEPT_KEY: no file of it); report may be NULL.
static int case_input_kept(const kv_list *report)
{
    const char *kept = report ? kv_get(report, GPU_CHECK_INPUT_KEPT_KEY) : NULL;
    return kept && !strcmp(kept, "1");
}

// The input buffer after the run (guard | grid | guard, total floats): the
// runner's file, or, where the kit's GPU check found it as drawn
// (GPU_CHECK_INPUT_KEPT_KEY in report; no file then), the judge's own input
// in, the interior of its guarded buffer (judge_run_case: case_guarded).
// Returns 0 or -1.
static int case_input_after(const char *dir, const kv_list *report, const float *in, size_t total, size_t guard, mapped_grid *m)
{
    if (!case_input_kept(report))
        return case_map(dir, CASE_INPUT_AFTER, total, m);
    m->data = in - guard, m->bytes = 0;
    return 0;
}

// Writes n floats to dir/name. Returns 0 or -1.
static int case_write_grid(const char *dir, const char *name, const float *g, size_t n)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(g, sizeof(float), n, f);
    return (fclose(f) == 0 && put == n) ? 0 : -1;
}

// Makes a fresh case directory under the system's temporary folder.
static int case_make_dir(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/stencil-case-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

// ---------------------------------------------------------------------------
// Running the runner
// ---------------------------------------------------------------------------

// Copies the report's key into buf ("" if absent).
static const char *case_key(const kv_list *report, const char *key)
{
    const char *v = kv_get(report, key);
    return v ? v : "";
}

// Sets r's kind, hint key and hint.
static void case_set_hint(case_result *r, const char *kind, const char *key, const char *hint)
{
    snprintf(r->kind, sizeof(r->kind), "%s", kind);
    r->hint_key = key;
    snprintf(r->hint, sizeof(r->hint), "%s", hint);
}

// The reason and hint of a timed repetition that came out wrong (RUNNER_REP_WRONG).
static void case_explain_rep(const kv_list *report, const judge_hint_words *words, case_result *r)
{
    char hint[512];
    if (kv_get(report, "timed_rep_launch")) {  // a launch the checked call did not make: the kernel timed is not the one judged
        snprintf(r->reason, sizeof(r->reason), "a later call launched otherwise than the checked one: %s", case_key(report, "timed_rep_launch"));
        snprintf(hint, sizeof(hint), "every call of %s must make the same launches as the first (checked) one: the same kernels, as many times, with the same grid, block and dynamic shared memory (a whole solve: every solve of as many iterations); the kernel that is timed must be the one whose result and technique were judged. Tune the launch at build time or within one call; a set-up launch on the first call only must be a single launch of a shape used nowhere else.", words->function);
        case_set_hint(r, "wrong", HINT_TIMED_REP_WRONG, hint);
        return;
    }
    snprintf(r->reason, sizeof(r->reason), "timed repetition %s gave a wrong output: %s wrong, %s never written, %s boundary cells changed, %s guard cells changed%s%s",
             case_key(report, "timed_rep_failed"), case_key(report, "timed_rep_wrong"), case_key(report, "timed_rep_unwritten"),
             case_key(report, "timed_rep_boundary"), case_key(report, "timed_rep_guards"),
             kv_number(report, "timed_rep_input_changed", 0) ? ", the input changed" : "",
             kv_get(report, "timed_rep_iterations") ? ", iterations differ" : "");
    if (kv_get(report, "timed_rep_first"))
        snprintf(r->detail, sizeof(r->detail), "first wrong cell (i,j,k) = (%s); every timed repetition gets a fresh random input", case_key(report, "timed_rep_first"));
    snprintf(hint, sizeof(hint), "the checked call was right, a later call of %s was not: it must compute the whole answer from the input it is given on every call (no work done once and kept, no copy of an earlier answer, no state carried between calls); a race, whose outcome changes from call to call, shows so too.", words->function);
    case_set_hint(r, "wrong", HINT_TIMED_REP_WRONG, hint);
}

// A case's time limit: lab.conf's, in CPU seconds under emulation, and
// JUDGE_EMU_LOAD_COUNT_FACTOR times that where emulation counts the loads.
static double judge_case_limit_s(const judge_case_env *env)
{
    int counted = env->emu && technique_counts_loads(env->conf->technique);
    return env->conf->timeout_s * (counted ? JUDGE_EMU_LOAD_COUNT_FACTOR : 1);
}

// The program's last words, from the end of its log at log_path, into tail
// (len bytes, at least 241): one line, each run of blanks one space, at most 240 bytes.
static void case_last_words(const char *log_path, char *tail, size_t len)
{
    spawn_log_tail(log_path, 4, tail, len);
    char *w = tail;
    for (const char *p = tail; *p && w - tail < 240; p++)
        if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') {
            if (w > tail && w[-1] != ' ')
                *w++ = ' ';
        } else {
            *w++ = *p;
        }
    *w = '\0';
}

// A launch that failed (the runner's error err, the program's last words
// tail): r's reason and hint, naming a grid and block swapped, a launch call
// the emulator refused, or a configuration no GPU takes.
static void case_explain_launch(const judge_case_env *env, const kv_list *report, const char *err, const char *tail,
                                const judge_hint_words *words, case_result *r)
{
    char hint[512];
    snprintf(r->reason, sizeof(r->reason), "the launch failed: %s", err ? err : "(no message)");
    launch_info li;
    int recorded = technique_launch(report, (int)kv_number(report, "launches", 1) - 1, &li) == 0;
    unsigned long long block = li.block[0] * li.block[1] * li.block[2], grid = li.grid[0] * li.grid[1] * li.grid[2];
    // Swapped when the "block" has the shape a grid would have for this case: each side of it
    // (above 1) is the case's size over the matching side of the "grid" (or of its output tile).
    const unsigned int size[3] = {r->spec.nx, r->spec.ny, r->spec.nz};
    int grid_shaped = recorded && block > 1024 && grid <= 1024;
    for (int d = 0; d < 3 && grid_shaped; d++) {
        unsigned long long b = li.block[d], g = li.grid[d], n = size[d];
        grid_shaped = b == 1 || (g > 0 && b == (n + g - 1) / g) || (g > 2 && b == (n + g - 3) / (g - 2)) ||
                      (g > 0 && n > 2 && b == (n - 2 + g - 1) / g);
    }
    if (err && strstr(err, "cudaErrorInvalidConfiguration") && grid_shaped) {
        snprintf(hint, sizeof(hint), "the launch asked for blocks of %llux%llux%llu = %llu threads in a grid of only %llux%llux%llu blocks: are the two swapped? The grid comes first: kernel<<<grid, block>>>.",
                 li.block[0], li.block[1], li.block[2], block, li.grid[0], li.grid[1], li.grid[2]);
        case_set_hint(r, "launch", HINT_LAUNCH_SWAPPED, hint);
    } else if (env->emu && strstr(tail, "stencil-emu: cudaLaunch")) {  // the emulator's refusals of a launch call (launch.cpp)
        snprintf(hint, sizeof(hint), "a call was refused, as it is on a GPU: the last output says which and why (%s may launch its kernels with <<<...>>> or cudaLaunchKernel, once per step that needs the whole grid in step).", words->function);
        case_set_hint(r, "refused", HINT_REFUSED_CALL, hint);
    } else if (err && strstr(err, "cudaErrorInvalidConfiguration"))
        case_set_hint(r, "launch", HINT_LAUNCH_CONFIG, "a block may hold at most 1024 threads (and blockDim.z at most 64), a grid at most 65535 blocks along y and along z, no dimension may be 0, and dynamic shared memory over 48 KB needs cudaFuncSetAttribute: check the dim3 values of every launch.");
    else
        case_set_hint(r, "launch", HINT_LAUNCH_CONFIG, words->launch);
}

void judge_explain_runner(const judge_case_env *env, const spawn_result *s, const kv_list *report,
                          const char *log_path, const judge_hint_words *words, case_result *r)
{
    char tail[700], hint[512];
    const char *err = kv_get(report, "error");
    const char *stage = kv_get(report, "error_stage");
    int code = s->exited ? s->exit_code : -1;
    case_last_words(log_path, tail, sizeof(tail));
    r->status = CASE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "last output: %s", tail[0] ? tail : "(none)");
    if (s->timed_out) {
        snprintf(r->reason, sizeof(r->reason), "TIMEOUT: killed after %.0f s%s, the lab's limit per case", judge_case_limit_s(env),
                 env->emu ? " of CPU time (emulation)" : "");
        case_set_hint(r, "timeout", HINT_TIMEOUT, words->timeout);
    } else if (s->over_memory) {
        snprintf(r->reason, sizeof(r->reason), "the program held more than the %.2f GiB of memory it may and was stopped (emulation counts its host memory and its cudaMalloc alike)",
                 (double)judge_emu_student_memory(env) / (1ull << 30));
        snprintf(hint, sizeof(hint), "%s must allocate only what the lab needs (a few grids at most) and free what it allocates: a student's program may hold %.0f GiB of host memory on a GPU, and under emulation, where its cudaMalloc is host memory too, %.2f GiB in this run (at most a quarter of the machine's memory unless the grader sets it).",
                 words->function, (double)STUDENT_MEMORY_BYTES / (1ull << 30), (double)judge_emu_student_memory(env) / (1ull << 30));
        case_set_hint(r, "memory", HINT_HOST_MEMORY, hint);
    } else if (code == RUNNER_LAUNCH_FAILED) {
        case_explain_launch(env, report, err, tail, words, r);
    } else if (code == RUNNER_KERNEL_FAULT) {
        snprintf(r->reason, sizeof(r->reason), "the kernel crashed: %s", err ? err : tail);
        case_set_hint(r, "fault", HINT_KERNEL_FAULT, env->emu ? "an access outside an allocation or a barrier problem: the message names the CUDA thread; fix the index or guard it uses."
                      : env->sanitize ? "compute-sanitizer's report above names the access, the source line and the thread: fix the index or the guard there."
                      : words->fault);
    } else if (code == RUNNER_NO_MEMORY) {
        snprintf(r->reason, sizeof(r->reason), "the case does not fit in memory: %s", err ? err : tail);
        case_set_hint(r, "memory", HINT_NO_MEMORY, "this grid is too large for this device's memory: grade on a larger GPU, or remove the case from lab.conf.");
    } else if (code == RUNNER_REFUSED) {
        snprintf(r->reason, sizeof(r->reason), "refused: %s", err ? err : "a call the lab does not allow");
        snprintf(hint, sizeof(hint), "%s may launch kernels on the default stream, and use cudaMalloc/cudaFree, cudaMemset and device-to-device copies; streams, events and host copies of the kit's grids are not allowed (the kit times and checks the work itself).", words->function);
        case_set_hint(r, "refused", HINT_REFUSED_CALL, hint);
    } else if (code == RUNNER_VIOLATION && !strcmp(case_key(report, "violation_kind"), PROTOCOL_VIOLATION_RECORDS)) {
        snprintf(r->reason, sizeof(r->reason), "the kit's launch records were tampered with: %s", err ? err : "?");
        snprintf(hint, sizeof(hint), "the kit records every launch %s makes itself, and the technique is judged on those records: launch your kernels with <<<...>>> and leave the records alone.", words->function);
        case_set_hint(r, "forged", HINT_FORGED_RECORDS, hint);
    } else if (code == RUNNER_VIOLATION && !strcmp(case_key(report, "violation_kind"), "late-call")) {
        snprintf(r->reason, sizeof(r->reason), "late call: %s", err ? err : "?");
        snprintf(hint, sizeof(hint), "every CUDA call must be made before %s returns: no threads that launch later, no calls from atexit handlers, static constructors or destructors.", words->function);
        case_set_hint(r, "late", HINT_LATE_CALL, hint);
    } else if (code == RUNNER_REP_WRONG) {
        case_explain_rep(report, words, r);
    } else if (code == RUNNER_VIOLATION || s->signaled) {
        snprintf(r->reason, sizeof(r->reason), "%s", err ? err : "the program crashed");
        if (s->signaled && !err)
            snprintf(r->reason, sizeof(r->reason), "the program crashed (signal %d: %s)", s->signal, strsignal(s->signal));
        snprintf(hint, sizeof(hint), "the program ended during the case: host code in the kernel file crashed or called exit(); it must only define its kernels and %s, and return from it.", words->function);
        case_set_hint(r, s->signaled ? "crash" : "exited", s->signaled ? HINT_KERNEL_FAULT : HINT_RUNNER_FAILED, hint);
    } else {
        snprintf(r->reason, sizeof(r->reason), "the runner ended without its results (exit %d, stage %s)", s->exit_code, stage ? stage : "?");
        snprintf(hint, sizeof(hint), "does the kernel file call exit() or print to the grader's files? It must only define its kernels and %s.", words->function);
        case_set_hint(r, code == RUNNER_OK ? "exited" : "kit", HINT_RUNNER_FAILED, hint);
    }
    if (env->sanitize == 1)
        sanitizer_memcheck_summary(log_path, r->detail, sizeof(r->detail));
    char race[800];
    if (env->sanitize == JUDGE_RACECHECK && sanitizer_racecheck_summary(log_path, race, sizeof(race))) {
        snprintf(r->reason, sizeof(r->reason), "a race on shared memory: two threads of a block touch the same cell with no __syncthreads() between them");
        snprintf(r->detail, sizeof(r->detail), "%s", race);
        case_set_hint(r, "race", HINT_MISSING_BARRIER, "put a __syncthreads() between the writes to the shared tile and the reads of it (after loading a tile or plane, and before overwriting one that others still read); the lines above are the two accesses.");
    }
    if (env->emu && err && strstr(err, "divergence in")) {  // the emulator's strict barriers
        snprintf(r->reason, sizeof(r->reason), "a barrier not reached by every thread of a block: %s", err);
        case_set_hint(r, "barrier", HINT_DIVERGENT_BARRIER, "every thread of a block must reach every __syncthreads(): take it out of the branch some threads skip, and replace an early return by an if around the work (a GPU may forgive this today; CUDA's rules do not, and the next GPU may hang).");
    }
}

void judge_guard_read(const kv_list *report, case_result *r)
{
    static const char words[] = "; a read past the grid: ";
    const char *read = kv_get(report, PROTOCOL_EMU_GUARD_READ);
    char seen[sizeof(r->detail)];
    if (!read || (r->status != CASE_OK && r->status != CASE_FAIL))
        return;
    if (r->status == CASE_FAIL) {  // the output's own hint stays: the read joins its detail, which gives way
        snprintf(seen, sizeof(seen), "%s", r->detail);
        int room = (int)(sizeof(r->detail) - sizeof(words)) - (int)strlen(read);
        snprintf(r->detail, sizeof(r->detail), "%.*s%s%s", room > 0 ? room : 0, seen, seen[0] && room > 0 ? words : words + 2, read);
        return;
    }
    r->status = CASE_FAIL;
    snprintf(r->reason, sizeof(r->reason), "out-of-bounds read: %s", read);
    case_set_hint(r, "fault", HINT_OUT_OF_BOUNDS, "a kernel read a cell outside the grid (the reason names the thread and the line): the output is right, yet in CUDA that read is out of bounds even when its value goes unused (a GPU reads the kit's guard cells around the grid unseen; compute-sanitizer reports such a read past an allocation of its own); test the index before the load (a ghost or halo cell outside the grid is set to 0, not loaded).");
}

// The wording of env's lab (its kind's).
static const judge_hint_words *case_words(const judge_case_env *env)
{
    return lab_kind_of(env->conf)->words;
}

// The filter radius of case spec in env's lab: its r= for a convolution,
// 0 (a sweep of the lab's star) otherwise.
static int case_filter_radius(const judge_case_env *env, const lab_case *spec)
{
    return lab_kind_of(env->conf)->filter_radius(spec);
}

// The weights a case of env's lab draws and hands the runner on --coef: the
// star's c0..c(6r) (the runner reads the star's radius from their number),
// or a filter of radius filter_radius, (2R+1)^2 weights row by row.
static int case_weights(const judge_case_env *env, int filter_radius)
{
    return filter_radius ? FILTER_NWEIGHTS(filter_radius) : STENCIL_NCOEF(env->conf->star_radius);
}

int judge_runner_argv(const judge_case_env *env, char **argv)
{
    static char accuracy[64], budget[32];
    int a = 0;
    argv[a++] = (char *)env->runner;
    if (!env->student)
        return a;
    snprintf(accuracy, sizeof(accuracy), "%.9g,%.9g", env->conf->rtol, env->conf->atol);
    argv[a++] = "--kind";
    argv[a++] = (char *)env->conf->runner;
    argv[a++] = "--student";
    argv[a++] = (char *)env->student;
    argv[a++] = "--accuracy";
    argv[a++] = accuracy;
    // A timed case's repetitions stop once they have taken JUDGE_TIME_BUDGET_S,
    // or a quarter of the case's time limit when that is less (one at least):
    // a correct kernel too slow for all of them is timed on fewer, not killed,
    // and holds the GPU alone no longer than a few of its calls.
    snprintf(budget, sizeof(budget), "%.3f", judge_time_budget_s(env->conf->timeout_s));
    argv[a++] = "--time-budget";
    argv[a++] = budget;
    if (env->yardstick)
        argv[a++] = "--yardstick";
    return a;
}

// The GPU's module loading for every executor: eager, so no kernel of the
// kit's is loaded (and timed) on its first launch.
static char judge_loading_env[] = "CUDA_MODULE_LOADING=EAGER";

// Puts the tool a runner runs under at the start of argv: Nsight Compute
// when env->ncu_metrics names counters (its table written to ncu_table,
// which argv points to), compute-sanitizer when env->sanitize asks, nothing
// otherwise. Returns how many it put.
static int judge_tool_argv(const judge_case_env *env, const char *ncu_table, char **argv)
{
    int a = 0;
    if (env->ncu_metrics) {
        argv[a++] = "ncu";
        argv[a++] = "--csv";
        argv[a++] = "--print-units";
        argv[a++] = "base";
        argv[a++] = "--log-file";
        argv[a++] = (char *)ncu_table;
        argv[a++] = "--metrics";
        argv[a++] = (char *)env->ncu_metrics;
        argv[a++] = "--clock-control";  // counts, not times: the GPU's clocks left as they are
        argv[a++] = "none";
        argv[a++] = "--kernel-name";    // the student's kernels only: the kit's fills and checks run unprofiled
        argv[a++] = JUDGE_NCU_STUDENT_KERNELS;
        argv[a++] = "--target-processes";  // the executor, not the student's program (a child with no GPU)
        argv[a++] = "application-only";
        if (!strcmp(env->ncu_metrics, JUDGE_NCU_LOADS)) {  // loads executed: no cache to flush before each pass
            argv[a++] = "--cache-control";                // (DRAM traffic, PROFILE=1, is measured from cold caches)
            argv[a++] = "none";
        }
    } else if (env->sanitize) {
        argv[a++] = "compute-sanitizer";
        argv[a++] = "--error-exitcode=4";
        argv[a++] = "--print-limit=5";
        if (env->sanitize == JUDGE_RACECHECK) {
            argv[a++] = "--tool=racecheck";
            argv[a++] = "--racecheck-report=hazard";
        }
    }
    return a;
}

// Starts ex's executor serving, after the tool of tools (tools[0..ntools),
// none when ntools is 0), with outdir when not NULL; as judge_executor_start,
// or as judge_executor_begin when wait is 0.
static spawn_result judge_executor_launch(judge_executor *ex, char *const tools[], int ntools, const char *outdir, int wait)
{
    char *argv[48];
    int a = 0;
    while (a < ntools)
        argv[a] = tools[a], a++;
    argv[a++] = ex->program, argv[a++] = "--serve";
    if (ex->counts_loads)
        argv[a++] = LOADS_OPTION;
    if (outdir)
        argv[a++] = "--outdir", argv[a++] = (char *)outdir;
    argv[a] = NULL;
    char *envp[] = {judge_loading_env, NULL};
    spawn_result s = spawn_server_launch(&ex->server, argv, envp, ex->log);
    ex->started += s.started;
    return s.started && wait ? judge_executor_ready(ex) : s;
}

spawn_result judge_executor_start(judge_executor *ex, const char *outdir)
{
    spawn_result s = judge_executor_begin(ex, outdir);
    return s.started ? judge_executor_ready(ex) : s;
}

spawn_result judge_executor_begin(judge_executor *ex, const char *outdir)
{
    ex->ncu_table[0] = '\0';
    return judge_executor_launch(ex, NULL, 0, outdir, 0);
}

spawn_result judge_executor_ready(judge_executor *ex)
{
    return spawn_server_ready(&ex->server, 60.0);
}

spawn_result judge_profiler_start(judge_executor *ex, const judge_case_env *env, const char *table)
{
    char *tools[24];
    snprintf(ex->ncu_table, sizeof(ex->ncu_table), "%s", table);
    return judge_executor_launch(ex, tools, judge_tool_argv(env, ex->ncu_table, tools), NULL, 1);
}

// Ends ex, an executor under Nsight Compute that served its case: the end of
// its input ends the executor, then Nsight Compute writes its table (within
// timeout_s), which is moved to table, the case's own.
static void judge_profiler_finish(judge_executor *ex, const char *table, double timeout_s)
{
    spawn_server_end(&ex->server, timeout_s);
    if (rename(ex->ncu_table, table) != 0)
        unlink(table);  // no table: the loads go uncounted, as when ncu fails
}

// Runs argv (the executor's, argv[0] its program) as one request to env's
// executor, starting one when none runs (a failed case ended the last).
// Returns the outcome as spawn_run does; started 0 when no executor could
// take it (the caller then starts a process of its own).
static spawn_result judge_serve_case(const judge_case_env *env, char *const argv[], const char *log_path,
                                     const spawn_limits *lim)
{
    judge_executor *ex = env->executor;
    spawn_result s;
    memset(&s, 0, sizeof(s));
    for (int attempt = 0; attempt < 2; attempt++) {
        if (ex->server.pid <= 0 && (ex->ncu_table[0] || !judge_executor_start(ex, NULL).exited))
            return s;  // (started 0; an executor under a profiler is not started again: one case a process there)
        s = spawn_server_run(&ex->server, argv + 1, log_path, lim);
        if (s.started) {
            ex->cases++;
            return s;
        }  // it ended between two cases: once more, with a new one
    }
    return s;
}

unsigned long long judge_emu_student_memory(const judge_case_env *env)
{
    if (env->emu_memory_bytes)
        return env->emu_memory_bytes;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    unsigned long long machine = pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0;
    return machine && machine / 4 < STUDENT_MEMORY_BYTES ? machine / 4 : STUDENT_MEMORY_BYTES;
}

unsigned long long judge_emu_resident_limit(const judge_case_env *env, size_t buffer_floats)
{
    // The kit's grids in the runner (input, output, a second copy, and the sanitizer's shadow of them), and its own code.
    return judge_emu_student_memory(env) + 4ull * buffer_floats * sizeof(float) + (256ull << 20);
}

// The runner's environment into envp (NULL-ended): under emulation the
// thread order, its seed and the block order (their text in text), on a GPU
// the executor's module loading.
static void judge_runner_envp(const judge_case_env *env, const char *order, uint64_t seed, char text[3][64], char *envp[4])
{
    envp[0] = envp[1] = envp[2] = envp[3] = NULL;
    if (!env->emu) {
        envp[0] = judge_loading_env;
        return;
    }
    snprintf(text[0], sizeof(text[0]), "STENCIL_EMU_ORDER=%s", order);
    snprintf(text[1], sizeof(text[1]), "STENCIL_EMU_SEED=%llu", (unsigned long long)seed);
    // The second order runs the blocks in that order too: a block that reads what another block
    // of the same launch wrote (no order between blocks on a GPU) gets another answer.
    snprintf(text[2], sizeof(text[2]), "STENCIL_EMU_BLOCK_ORDER=%s", order);
    envp[0] = text[0], envp[1] = text[1], envp[2] = text[2];
}

// The turn a runner takes (GPU_TURN_*): alone when timed, when Nsight Compute
// reads the GPU's traffic counters, or when the executor counts the loads;
// long under compute-sanitizer (seconds in its turn, tens when racecheck finds
// a race: no timer waits for it at the gate, gpu_locks.h); else shared.
static int judge_runner_turn(const judge_case_env *env, int timed)
{
    if (timed || env->count_loads || (env->ncu_metrics != NULL && strcmp(env->ncu_metrics, JUDGE_NCU_LOADS) != 0))
        return GPU_TURN_ALONE;
    return env->sanitize ? GPU_TURN_LONG : GPU_TURN_SHARED;
}

spawn_result judge_spawn_runner(const judge_case_env *env, char *const args[], const char *dir,
                                size_t buffer_floats, const char *order, uint64_t seed, int timed, kv_list *report)
{
    char log_path[1024], report_path[1024], env_text[3][64];
    char *argv[48], *envp[4];
    char ncu_table[1024];
    snprintf(ncu_table, sizeof(ncu_table), "%s/%s", dir, JUDGE_NCU_TABLE);
    int tools = judge_tool_argv(env, ncu_table, argv), a = tools;
    a += judge_runner_argv(env, argv + a);
    for (int i = 0; args[i] && a < 46; i++)
        argv[a++] = args[i];
    if (env->count_loads && !env->emu)
        argv[a++] = LOADS_OPTION;
    argv[a] = NULL;
    judge_runner_envp(env, order, seed, env_text, envp);
    snprintf(log_path, sizeof(log_path), "%s/runner.log", dir);
    snprintf(report_path, sizeof(report_path), "%s/%s", dir, CASE_REPORT);
    // Emulation runs on the CPU alone: its limit is CPU time (a loaded machine's waits do not count), with
    // a wall-clock backstop JUDGE_EMU_WALL_FACTOR times longer for a runner that blocks; where it counts
    // the loads (every access a call), JUDGE_EMU_LOAD_COUNT_FACTOR times more of both.
    double emu_s = judge_case_limit_s(env);
    double tool_s = env->sanitize == JUDGE_RACECHECK ? JUDGE_RACECHECK_LIMIT_S : env->conf->timeout_s * 20;
    // An executor taking the GPU's locks itself (a tool's, a load count's) waits inside its limit: a tool's.
    spawn_limits lim = {env->sanitize || env->ncu_metrics || env->count_loads ? tool_s : env->emu ? emu_s * JUDGE_EMU_WALL_FACTOR : env->conf->timeout_s,
                        env->ncu_metrics ? 0 : (unsigned long long)buffer_floats * 4 + (1 << 20), 0,  // ncu keeps files of its own
                        env->emu ? dir : NULL,  // the emulation runner holds student code: confined to its case folder
                        env->emu ? emu_s : 0,
                        env->emu ? judge_emu_resident_limit(env, buffer_floats) : 0,
                        env->emu ? SPAWN_NICE_BESIDE : 0, 0, NULL,  // a tool's run holds GPU locks others wait on: not nicer
                        env->sanitize == JUDGE_RACECHECK ? sanitizer_racecheck_whole : NULL, NULL};  // a race found: ended there
    spawn_result s = {0};
    // A turn on the GPU for the runner: alone when timed or when Nsight Compute reads the GPU's traffic
    // counters (PROFILE=1: another context's traffic would count), or when the executor counts the
    // loads itself (count_loads: CUPTI's range profiler starts fast on an idle GPU, but waits on other
    // judges' work: 24 judges on two H200s spent 40 s a lab-2 file counting in a shared turn). ncu's
    // load counts, the student's own instructions, no other work changes. Counting (the profiler's
    // lock, one profiling session a GPU, then the turn) and under compute-sanitizer (the turn) the
    // executor takes the locks itself around its GPU work alone: a tool's start-up and end keep no
    // judge beside waiting, nor this run's timed case.
    // (the input drawn already: the run starts the moment the judge lets it, inside its turn or asking for its own)
    int inside = env->gpu_relay_await && !env->emu && env->gpu_relay_await();
    int turn = env->gpu_turn && !env->emu && !inside;
    int mode = judge_runner_turn(env, timed), alone = mode == GPU_TURN_ALONE;
    char locks[GPU_LOCKS_FILES * PATH_MAX + 16];
    if (turn && (env->ncu_metrics || env->sanitize || env->count_loads) && env->gpu_locks &&
        env->gpu_locks(mode, env->ncu_metrics || env->count_loads ? GPU_LOCK_PROFILER : NULL, locks, sizeof(locks)) && a < 45) {
        argv[a++] = GPU_LOCKS_OPTION;
        argv[a++] = locks;
        argv[a] = NULL;
        turn = 0;
    }
    if (turn)
        env->gpu_turn(alone);
    // The turn ends (a count inside another's turn says done) at the executor's word that the case's GPU
    // work is over (PROTOCOL_SERVE_GPU_IDLE), not after its host work: a timed case's wait for a late call
    // and its files, the count's; a case that never says so (it hung, crashed) ends it below.
    lim.gpu_idle = turn ? env->gpu_turn_end : inside ? env->gpu_relay_done : NULL;
    lim.gpu_wrong = turn && alone ? env->gpu_relay_skip : NULL;  // (before the turn ends: no count follows a wrong output)
    judge_trace_runner_began();
    // The run's executor serves the case; under Nsight Compute, only one started under it ahead (tool_runs.h).
    int profiled = env->executor && env->executor->ncu_table[0];
    if (env->executor && !env->emu && !env->sanitize && (!env->ncu_metrics || profiled))
        s = judge_serve_case(env, argv + tools, log_path, &lim);
    if (profiled && s.started)
        judge_profiler_finish(env->executor, ncu_table, tool_s);
    if (!s.started)
        s = spawn_run(argv, envp, log_path, &lim);
    int ended = lim.gpu_idle && s.gpu_idle;  // (its GPU work ended: a count may follow inside the turn)
    if (turn && !ended && alone && env->gpu_relay_skip && !(s.started && s.exited && s.exit_code == RUNNER_OK))
        env->gpu_relay_skip();  // hung (it would hang again there), crashed or never started: the case fails, no count of it
    if (turn && !ended)
        env->gpu_turn_end();
    if (inside && !ended)
        env->gpu_relay_done();
    kv_load(report_path, report);
    char race[800];
    if (env->sanitize == JUDGE_RACECHECK && s.exited && s.exit_code == RUNNER_OK && sanitizer_racecheck_summary(log_path, race, sizeof(race)))
        s.exit_code = RUNNER_KERNEL_FAULT;  // a hazard reported as a warning: still a race, explained by judge_explain_runner
    return s;
}

// The units of a GPU-checked case's output the judge checks itself
// (protocol_sample_unit_of: z-planes, or rows of a 2D grid).
typedef struct case_sample {
    protocol_sample_unit shape;          // what a unit is: its cells, how many the grid has
    unsigned unit[GPU_CHECK_MAX_UNITS];  // unit indices (z, or y for rows), each once
    int n;                               // how many (0: the case is not checked on the GPU)
} case_sample;

// Chooses whether case spec is checked on the GPU (a large grid, on the
// executor, neither the profiler's run nor the sanitizer's nor a yardstick)
// and, if so, the units the judge checks itself: the first and last, those
// at the stencil's reach from them (the star's radius, or a convolution's
// filter radius: where the boundary or the ghost cells end), and three at
// random from a seed no one else knows (so no file can tell which are
// looked at).
static void case_choose_sample(const judge_case_env *env, const lab_case *spec, case_sample *sample)
{
    sample->n = 0;
    sample->shape = protocol_sample_unit_of(spec->nx, spec->ny, spec->nz);
    double cells = (double)spec->nx * spec->ny * spec->nz;
    int loads = env->ncu_metrics && !strcmp(env->ncu_metrics, JUDGE_NCU_LOADS);  // its check kernels run unprofiled
    if (env->emu || !env->student || env->yardstick || (env->ncu_metrics && !loads) || env->sanitize || cells < JUDGE_GPU_CHECK_MIN_CELLS)
        return;
    int filter_radius = case_filter_radius(env, spec);
    unsigned count = (unsigned)sample->shape.count;
    unsigned r = (unsigned)(filter_radius > 0 ? filter_radius : env->conf->star_radius > 0 ? env->conf->star_radius : 1);
    unsigned want[GPU_CHECK_MAX_UNITS] = {0, count - 1, r < count ? r : 0, count > r ? count - 1 - r : 0};
    rng g;
    rng_init(&g, rng_fresh_seed());
    for (int q = 4; q < 7; q++)
        want[q] = (unsigned)((rng_unit(&g) + 1.0f) * 0.5f * (float)count) % count;
    for (int q = 0; q < 7; q++) {
        int seen = 0;
        for (int p = 0; p < sample->n; p++)
            seen |= sample->unit[p] == want[q];
        if (!seen)
            sample->unit[sample->n++] = want[q];
    }
}

// A GPU-checked case whose output the kit's kernels found right: the judge
// checks the sample's units in dir (CASE_SAMPLE) against its own reference;
// fills r (OK, or FAIL naming the first wrong cell).
static void case_judge_sample(const judge_case_env *env, const lab_case *spec, const float *in, const float *coef,
                              const char *dir, const case_sample *sample, case_result *r)
{
    mapped_grid got;
    int filter_radius = case_filter_radius(env, spec);
    r->interior = protocol_cells_written(filter_radius > 0, env->conf->star_radius, spec->nx, spec->ny, spec->nz);
    r->wrong = 0;
    if (case_map(dir, CASE_SAMPLE, (size_t)sample->shape.cells * (size_t)sample->n, &got) != 0) {
        r->status = CASE_FAIL;
        snprintf(r->kind, sizeof(r->kind), "exited");
        r->hint_key = HINT_RUNNER_FAILED;
        snprintf(r->reason, sizeof(r->reason), "the runner said the output was right on the GPU but left no sample of it");
        return;
    }
    sweep_case c = {in, spec->nx, spec->ny, spec->nz, {0}, env->conf->rtol, env->conf->atol, 0, 0, VERDICT_WORDS_CUBE,
                    env->conf->star_radius, filter_radius};
    memcpy(c.coef, coef, sizeof(float) * (size_t)case_weights(env, filter_radius));
    long first[3];
    double want = 0;
    float value = 0;
    size_t bad = verdict_sweep_sample(&c, got.data, sample->unit, sample->n, first, &want, &value);
    case_unmap(&got);
    if (bad == 0) {
        r->status = CASE_OK;
        snprintf(r->kind, sizeof(r->kind), "ok");
        return;
    }
    char text[48];
    r->status = CASE_FAIL;
    r->wrong = bad;
    snprintf(r->kind, sizeof(r->kind), "wrong");
    r->hint_key = HINT_WRONG_VALUES;
    snprintf(r->reason, sizeof(r->reason), "%zu cells wrong in the %d %s the judge checked itself, though the GPU's check of the whole grid found none",
             bad, sample->n, sample->shape.axis == 2 ? "planes" : "rows");
    snprintf(r->detail, sizeof(r->detail), "first wrong cell (i,j,k) = (%ld,%ld,%ld): expected %.9g, got %s", first[0], first[1], first[2],
             want, verdict_value_text(value, text, sizeof(text)));
}

// Draws into in what the judge reads of a case's input on the GPU backend
// (the executor drew the grid there from fill; emulation drew it whole
// already): with sample, the units the judge checks itself and the units
// within the stencil's reach of them; else the whole grid. The rest of in
// stays untouched (never read, never paged in).
static void case_draw_input(const judge_case_env *env, const lab_case *spec, uint64_t fill, float *in, const case_sample *sample)
{
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    if (env->emu)
        return;
    if (!sample) {
        rng_fill_range(fill, in, 0, cells);
        return;
    }
    int filter_radius = case_filter_radius(env, spec);
    size_t reach = (size_t)(filter_radius > 0 ? filter_radius : env->conf->star_radius) * (size_t)sample->shape.stride;
    for (int q = 0; q < sample->n; q++) {
        size_t start = (size_t)sample->unit[q] * (size_t)sample->shape.stride, end = start + (size_t)sample->shape.cells + reach;
        rng_fill_range(fill, in, start > reach ? start - reach : 0, end < cells ? end : cells);
    }
}

// Starts the sweep runner once for the case in dir. Returns its outcome;
// report receives its report file (empty if none).
static spawn_result case_start_runner(const judge_case_env *env, const lab_case *spec, const float *coef,
                                      const char *dir, int timed, const char *order, uint64_t seed, uint64_t fill,
                                      const case_sample *sample, kv_list *report)
{
    char n_text[48], coef_text[VERDICT_MAX_WEIGHTS * 18], reps_text[16], radius_text[16], units_text[GPU_CHECK_MAX_UNITS * 12] = "";
    char fill_text[24];
    int filter_radius = case_filter_radius(env, spec), used = 0;
    snprintf(n_text, sizeof(n_text), "%u,%u,%u", spec->nx, spec->ny, spec->nz);
    for (int n = 0; n < case_weights(env, filter_radius); n++)  // the star's c0..c(6r), or the filter row by row
        used += snprintf(coef_text + used, sizeof(coef_text) - (size_t)used, "%s%.9g", n ? "," : "", coef[n]);
    snprintf(reps_text, sizeof(reps_text), "%d", env->conf->time_reps);
    snprintf(radius_text, sizeof(radius_text), "%d", filter_radius);
    char *args[] = {"--outdir", (char *)dir, "--size", n_text, "--coef", coef_text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    int a = 6;
    if (!env->emu) {  // the executor draws the input on the GPU from its seed (no file: CASE_INPUT is the emulation's)
        snprintf(fill_text, sizeof(fill_text), "%llx", (unsigned long long)fill);
        args[a++] = FILL_OPTION, args[a++] = fill_text;
    }
    if (filter_radius)
        args[a++] = "--radius", args[a++] = radius_text;
    if (timed)
        args[a++] = "--time", args[a++] = reps_text;
    for (int q = 0, used = 0; sample && q < sample->n; q++)
        used += snprintf(units_text + used, sizeof(units_text) - (size_t)used, "%s%u", q ? "," : "", sample->unit[q]);
    if (sample && sample->n)
        args[a++] = "--gpu-check", args[a++] = units_text;
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)spec->nx * spec->ny);
    return judge_spawn_runner(env, args, dir, cells + 2 * guard, order, seed, timed, report);
}

void judge_read_timed(const kv_list *report, double median_ms, case_result *r)
{
    const char *by = kv_get(report, "bandwidth_by");
    r->timed = 1;
    r->time_ms = median_ms;
    r->time_min_ms = kv_number(report, "time_ms_min", median_ms);
    r->time_max_ms = kv_number(report, "time_ms_max", median_ms);
    r->time_reps = (int)kv_number(report, "time_reps", 0);
    r->time_reps_cut_s = kv_number(report, "time_reps_cut_at_s", 0);
    r->bandwidth_gbs = kv_number(report, "bandwidth_gbs", 0);
    r->bandwidth_kernel_gbs = kv_number(report, "bandwidth_kernel_gbs", 0);
    r->bandwidth_memcpy_gbs = kv_number(report, "bandwidth_memcpy_gbs", 0);
    snprintf(r->bandwidth_by, sizeof(r->bandwidth_by), "%s", by && (!strcmp(by, COPY_LIMIT_BY_KERNEL) || !strcmp(by, COPY_LIMIT_BY_MEMCPY)) ? by : "");
}

// Copies the timing figures of a timed run into r.
static void case_read_timing(const kv_list *report, case_result *r)
{
    double t = kv_number(report, "time_ms_median", -1);
    if (t <= 0)
        return;
    judge_read_timed(report, t, r);
    r->gpoints = (double)r->interior / (t * 1e-3) / 1e9;
    r->gbs = 8.0 * (double)r->interior / (t * 1e-3) / 1e9;
}

// Maps what a successful runner wrote and judges it; fills r. in is the
// interior of the judge's guarded input (case_guarded), which stands for the
// input buffer where report says the GPU check found it as drawn.
static void case_judge_outputs(const judge_case_env *env, const lab_case *spec, const float *in,
                               const float *coef, const char *dir, const char *dir2, int timed,
                               int out_tile, const kv_list *report, case_result *r)
{
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)spec->nx * spec->ny);
    size_t total = cells + 2 * guard;
    mapped_grid out = {0}, in_after = {0}, out_timed = {0}, out2 = {0};
    if (case_map(dir, CASE_OUTPUT, total, &out) != 0 || case_input_after(dir, report, in, total, guard, &in_after) != 0 ||
        (timed && case_map(dir, CASE_TIMED, total, &out_timed) != 0) ||
        (dir2 && case_map(dir2, CASE_OUTPUT, total, &out2) != 0)) {
        r->status = CASE_FAIL;
        snprintf(r->kind, sizeof(r->kind), "exited");
        r->hint_key = HINT_RUNNER_FAILED;
        snprintf(r->reason, sizeof(r->reason), "the runner said it finished but its output files are missing or the wrong size");
        snprintf(r->hint, sizeof(r->hint), "does the kernel file call exit() or write files? It must only define the kernel and %s.", case_words(env)->function);
        goto unmap;
    }
    int filter_radius = case_filter_radius(env, spec);
    sweep_case c = {in, spec->nx, spec->ny, spec->nz, {0}, env->conf->rtol, env->conf->atol,
                    out_tile, env->planes_first,
                    lab_kind_of(env->conf)->verdict_words,
                    env->conf->star_radius, filter_radius};
    memcpy(c.coef, coef, sizeof(float) * (size_t)case_weights(env, filter_radius));
    sweep_buffers b = {out.data, in_after.data, out_timed.data, out2.data, guard};
    sweep_verdict v;
    verdict_sweep(&c, &b, &v);
    if (!v.passed && (v.wrong || v.boundary_changed))  // the heat map, from the grid judged here
        pictures_offer_sweep(r->name, &c, out.data + guard);
    r->wrong = v.wrong;
    r->interior = v.interior;
    if (v.passed) {
        r->status = CASE_OK;
        snprintf(r->kind, sizeof(r->kind), "ok");
        goto unmap;
    }
    r->status = CASE_FAIL;
    snprintf(r->kind, sizeof(r->kind), "wrong");
    r->hint_key = v.hint_key;
    snprintf(r->reason, sizeof(r->reason), "%s", v.reason);
    snprintf(r->hint, sizeof(r->hint), "%s", v.hint);
    if (v.first[0] >= 0 && filter_radius) {
        char got[48];
        snprintf(r->detail, sizeof(r->detail), "first wrong pixel (row,col) = (%ld,%ld): expected %.9g, got %s",
                 v.first[1], v.first[2], v.first_want, verdict_value_text(v.first_got, got, sizeof(got)));
    } else if (v.first[0] >= 0) {
        char got[48];
        snprintf(r->detail, sizeof(r->detail), "first wrong cell (i,j,k) = (%ld,%ld,%ld): expected %.9g, got %s",
                 v.first[0], v.first[1], v.first[2], v.first_want,
                 verdict_value_text(v.first_got, got, sizeof(got)));
    }
unmap:
    case_unmap(&out);
    case_unmap(&in_after);
    case_unmap(&out_timed);
    case_unmap(&out2);
}

// Runs the case once more under Nsight Compute and fills r's traffic figures;
// leaves r->profiled 0 (with a note) when ncu is missing or fails.
static void case_profile(const judge_case_env *env, const lab_case *spec, const float *coef,
                         const char *dir, uint64_t seed, uint64_t fill, case_result *r)
{
    char table[1024];
    kv_list report;
    judge_case_env ncu_env = *env;
    ncu_env.ncu_metrics = JUDGE_NCU_TRAFFIC, ncu_env.sanitize = 0;
    spawn_result s = case_start_runner(&ncu_env, spec, coef, dir, 0, "forward", seed, fill, NULL, &report);
    kv_free(&report);
    snprintf(table, sizeof(table), "%s/%s", dir, JUDGE_NCU_TABLE);
    r->load_bytes = ncu_metric_sum(table, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum");
    r->dram_bytes = ncu_metric_sum(table, "dram__bytes_read.sum") + ncu_metric_sum(table, "dram__bytes_write.sum");
    r->flops = lab_kind_of(env->conf)->case_flops(env->conf, spec) * (double)r->interior;
    r->profiled = s.exited && s.exit_code == RUNNER_OK && r->load_bytes > 0 && r->dram_bytes > 0;
    if (!r->profiled)
        snprintf(r->note, sizeof(r->note), "OP/B not measured: Nsight Compute (ncu) %s", s.started ? "could not read the counters (see its log with --keep)" : "is not installed or not on PATH");
    else
        snprintf(r->note, sizeof(r->note), "OP/B measured with ncu: %.2f over bytes requested by global loads (%.0f MB), %.2f over DRAM traffic (%.0f MB)",
                 r->flops / r->load_bytes, r->load_bytes / 1e6, r->flops / r->dram_bytes, r->dram_bytes / 1e6);
}

// Reads the load counts the executor took itself (env->count_loads:
// LOADS_*_KEY, in bytes) into r; r->loads_counted stays 0 when the report
// says why they are missing (LOADS_MISSING_KEY, kept in r->loads_why).
static void case_read_counted_loads(const kv_list *report, const spawn_result *s, case_result *r)
{
    const char *missing = kv_get(report, LOADS_MISSING_KEY);
    r->loads_counted = s->exited && s->exit_code == RUNNER_OK && !missing && kv_get(report, LOADS_GLOBAL_KEY) &&
                       kv_get(report, LOADS_SHARED_KEY);
    r->global_loads = (kv_number(report, LOADS_GLOBAL_KEY, 0) + kv_number(report, LOADS_ASYNC_KEY, 0)) / sizeof(float);
    r->shared_loads = kv_number(report, LOADS_SHARED_KEY, 0) / sizeof(float);
    r->loads_missing = r->loads_counted ? LOADS_MISSING_NONE : loads_missing_kind_of(kv_get(report, LOADS_MISSING_KIND_KEY));
    if (missing)
        snprintf(r->loads_why, sizeof(r->loads_why), "%.*s", (int)sizeof(r->loads_why) - 1, missing);
}

// Why Nsight Compute's table (path) has no count: its first error line in
// r->loads_why, and its kind in r->loads_missing, the machine's only when
// that line begins by saying so (the counters need a permission,
// ERR_NVGPUCTRPERM, or the device cannot be profiled): only its start, which
// no kernel name reaches (a line that names the kernel names it later).
static void case_ncu_missing(const char *path, case_result *r)
{
    static const char *const cannot[] = {"ERR_NVGPUCTRPERM", "Profiling is not supported"};
    char line[512];
    FILE *f = fopen(path, "r");
    r->loads_missing = LOADS_MISSING_FAULT;
    snprintf(r->loads_why, sizeof(r->loads_why), "Nsight Compute's table has none of the kernel's loads");
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "==ERROR==", 9) != 0)
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        const char *said = line + 9 + (line[9] == ' ');
        snprintf(r->loads_why, sizeof(r->loads_why), "Nsight Compute said: %.200s", said);
        for (size_t k = 0; k < sizeof(cannot) / sizeof(cannot[0]); k++)
            if (!strncmp(said, cannot[k], strlen(cannot[k])))
                r->loads_missing = LOADS_MISSING_CANNOT;
        break;
    }
    if (f)
        fclose(f);
}

// Reads the load counts of a run under ncu (env->ncu_metrics JUDGE_NCU_LOADS),
// or of the executor's own (env->count_loads, from its report), into r;
// r->loads_counted stays 0 when the table lacks them.
static void case_read_loads(const judge_case_env *env, const char *dir, const kv_list *report, const spawn_result *s, case_result *r)
{
    char table[1024];
    if (env->count_loads) {
        case_read_counted_loads(report, s, r);
        return;
    }
    int global_rows = 0, shared_rows = 0;
    snprintf(table, sizeof(table), "%s/%s", dir, JUDGE_NCU_TABLE);
    r->global_loads = (ncu_metric_sum_rows(table, JUDGE_NCU_GLOBAL_LOADS, &global_rows) + ncu_metric_sum(table, JUDGE_NCU_GLOBAL_ASYNC)) / sizeof(float);
    r->shared_loads = ncu_metric_sum_rows(table, JUDGE_NCU_SHARED_LOADS, &shared_rows) / sizeof(float);
    // Counted when the student's kernels have rows; also when only the kit's have (ncu counted, and
    // nothing of the student's showed: zero loads, so the floors fail rather than go unchecked).
    r->loads_counted = s->exited && s->exit_code == RUNNER_OK &&
                       ((global_rows > 0 && shared_rows > 0) || (global_rows == 0 && ncu_metric_kit_rows(table, JUDGE_NCU_GLOBAL_LOADS) > 0));
    if (!r->loads_counted)
        case_ncu_missing(table, r);
}

// The launch's shape against the tile the kernel declares (IN_TILE_DIM, or
// OUT_TILE_DIM for a block that is the output tile), when case r failed with
// a symptom of it (nothing or part written, tile edges, NaN, seams): a grid
// with the tile's shape and a block without it is <<<block, grid>>>; a block
// one or two threads off the tile in some axis while another axis matches
// leaves part of each tile never loaded or computed. Without OUT_TILE_DIM the
// output tile is IN_TILE_DIM less the halo, halo cells a side: a star's
// radius r, or a convolution's filter radius R.
static void case_launch_shape(const kv_list *report, int halo, case_result *r)
{
    static const char *symptoms[] = {HINT_TILE_EDGES, HINT_THREAD_ORDER, HINT_NAN, HINT_WRONG_VALUES, HINT_UNWRITTEN,
                                     HINT_TILE_SEAM, HINT_OFF_BY_ONE, HINT_NOTHING_WRITTEN, HINT_TIMED_REP_WRONG, NULL};
    static const char axis[3] = {'x', 'y', 'z'};
    long t = (long)kv_number(report, "in_tile_dim", 0), o = (long)kv_number(report, "out_tile_dim", 0);
    launch_info li;
    int symptom = 0, match = 0, off = -1;
    for (int i = 0; r->hint_key && symptoms[i]; i++)
        symptom |= !strcmp(r->hint_key, symptoms[i]);
    if (r->status != CASE_FAIL || !symptom || t < 3 || technique_launch(report, 0, &li) != 0)
        return;
    if (o <= 0)
        o = t - 2L * halo;
    for (int d = 0; d < 3; d++) {
        long b = (long)li.block[d];
        if (b == t || b == o)
            match++;
        else if (b > 1 && (labs(b - t) <= 2 || labs(b - o) <= 2) && off < 0)
            off = d;
    }
    char seen[sizeof(r->reason)], kind[sizeof(r->kind)];
    int grid_tile = 0, grid_other = 0;  // grid axes (above 1) sized like the tile, and otherwise
    for (int d = 0; d < 3; d++)
        if (li.grid[d] > 1) {
            grid_tile += (long)li.grid[d] == t || (long)li.grid[d] == o;
            grid_other += (long)li.grid[d] != t && (long)li.grid[d] != o;
        }
    if (!match && grid_tile >= 2 && !grid_other) {  // <<<block, grid>>>: the grid has the tile's shape, the block not
        snprintf(seen, sizeof(seen), "%s", r->reason);
        snprintf(kind, sizeof(kind), "%s", r->kind);
        snprintf(r->reason, sizeof(r->reason), "%.300s; the launch's grid is %llux%llux%llu, the tile's shape (IN_TILE_DIM = %ld), and its block %llux%llux%llu",
                 seen, li.grid[0], li.grid[1], li.grid[2], t, li.block[0], li.block[1], li.block[2]);
        case_set_hint(r, kind, HINT_LAUNCH_SWAPPED, "grid and block look swapped: the grid comes first, kernel<<<grid, block>>>, with the block sized from the tile and the grid from the grid's size over the output tile.");
        return;
    }
    if (!match || off < 0)
        return;
    snprintf(seen, sizeof(seen), "%s", r->reason);
    snprintf(kind, sizeof(kind), "%s", r->kind);
    snprintf(r->reason, sizeof(r->reason), "%.300s; the block is %llux%llux%llu threads while the tile is IN_TILE_DIM = %ld (OUT_TILE_DIM = %ld): its %c axis has %llu",
             seen, li.block[0], li.block[1], li.block[2], t, o, axis[off], li.block[off]);
    case_set_hint(r, kind, HINT_BLOCK_SHAPE, "size the block from the tile: IN_TILE_DIM threads in each tiled axis when the block is the input tile (OUT_TILE_DIM when it is the output tile); a row or plane of threads short leaves part of every tile unloaded or uncomputed.");
}

// ---------------------------------------------------------------------------
// One case
// ---------------------------------------------------------------------------

double judge_case_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// 1 when STENCIL_TRACE=1 asks for the trace lines.
static int judge_tracing(void)
{
    const char *on = getenv("STENCIL_TRACE");
    return on && !strcmp(on, "1");
}

// The wall clock's seconds within the hour, for the trace lines: judges side
// by side (a class) laid on one timeline.
static double judge_trace_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)(t.tv_sec % 3600) + 1e-9 * (double)t.tv_nsec;
}

// When this process's last runner began (the trace clock): its case's trace line says so.
static double judge_trace_runner_start;

void judge_trace_runner_began(void)
{
    judge_trace_runner_start = judge_trace_clock();
}

void judge_trace_note(const char *fmt, ...)
{
    char line[400];
    va_list ap;
    if (!judge_tracing())
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "trace: %.3f %s\n", judge_trace_clock(), line);
}

void judge_case_trace(const char *name, const kv_list *report, double input_s, double runner_s, double judged_s)
{
    static const char *const phases[] = {"trace_device",       "trace_prepared", "trace_locked",      "trace_ready",
                                         "trace_count_begun",  "trace_count_called", "trace_called",  "trace_saved",
                                         "trace_copy_limit",   "trace_timed",    "trace_timed_checks", "trace_idle",
                                         "trace_timed_saved",  "trace_end",      "trace_prepared_ahead"};
    if (!judge_tracing())
        return;
    char line[600];
    int used = snprintf(line, sizeof(line), "trace: %.3f %s: input %.2f s, runner %.2f s from %.3f (", judge_trace_clock(), name, input_s,
                        runner_s, judge_trace_runner_start);
    for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++)
        if (kv_get(report, phases[p]) && used < (int)sizeof(line))
            used += snprintf(line + used, sizeof(line) - (size_t)used, " %s %.2f", phases[p] + 6, kv_number(report, phases[p], 0));
    if (used < (int)sizeof(line))
        snprintf(line + used, sizeof(line) - (size_t)used, " ), judged %.2f s", judged_s);
    fprintf(stderr, "%s\n", line);
    const char *ahead = kv_get(report, LOADS_AHEAD_WHY_KEY);
    char why[300];
    if (ahead)  // (prepared in the judge's turn instead: 0.15 s and more inside it)
        judge_trace_note("%s: the count's preparation at its executor's start failed: %s", name, protocol_printable_copy(why, sizeof(why), ahead));
}

// 1 when dir holds the checked call's output and the input after it (unless
// the GPU check found that as drawn: report), both whole.
static int case_checked_output_saved(const char *dir, const lab_case *spec, const kv_list *report)
{
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    size_t total = (cells + 2 * (size_t)protocol_guard_cells((unsigned long long)spec->nx * spec->ny)) * sizeof(float);
    static const char *names[] = {CASE_OUTPUT, CASE_INPUT_AFTER};
    for (int i = 0; i < (case_input_kept(report) ? 1 : 2); i++) {
        char path[600];
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (stat(path, &st) != 0 || (size_t)st.st_size != total)
            return 0;
    }
    return 1;
}

// Under emulation, a case wrong with no pattern whose two thread orders agreed
// (a race can give the same wrong values twice, on a small grid above all):
// the threads and blocks in reverse order once more. When that run differs
// from the first, the case is a thread-order failure; otherwise it stays as it was.
static void case_third_order(const judge_case_env *env, const lab_case *spec, const float *in, const float *coef,
                             const char *dir, uint64_t seed, int out_tile, case_result *r)
{
    char dir3[512];
    kv_list report3 = {0};
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    if (case_make_dir(dir3, sizeof(dir3)) != 0)
        return;
    if (case_write_grid(dir3, CASE_INPUT, in, cells) == 0) {
        spawn_result s3 = case_start_runner(env, spec, coef, dir3, 0, "reverse", seed, 0, NULL, &report3);
        const char *status = kv_get(&report3, "status");
        r->wall_s += s3.seconds;
        if (s3.exited && s3.exit_code == RUNNER_OK && status && !strcmp(status, "ok")) {
            case_result before = *r;
            case_judge_outputs(env, spec, in, coef, dir, dir3, 0, out_tile, NULL, r);
            if (!r->hint_key || strcmp(r->hint_key, HINT_THREAD_ORDER) != 0)
                *r = before;  // the third order agreed too: the case keeps its own verdict
        }
    }
    kv_free(&report3);
    if (!env->keep)
        judge_remove_tree(dir3);
}

// The output tile the hints measure tile edges by: OUT_TILE_DIM as declared; a
// convolution's input-tile block without one computes IN_TILE_DIM - 2r a tile.
static int case_out_tile(const judge_case_env *env, const kv_list *report, int filter_radius)
{
    int out_tile = (int)kv_number(report, "out_tile_dim", env->out_tile), in_tile = (int)kv_number(report, "in_tile_dim", 0);
    if (filter_radius)
        out_tile = kv_get(report, "out_tile_dim") ? (int)kv_number(report, "out_tile_dim", 0)
                                                  : in_tile > 2 * filter_radius ? in_tile - 2 * filter_radius : 0;
    return out_tile;
}

// Starts g from the case's seed and draws its weights into coef: a
// convolution's filter of filter_radius, else the star's coefficients.
static void case_draw_weights(const judge_case_env *env, int filter_radius, uint64_t seed, rng *g, float *coef)
{
    rng_init(g, seed);
    if (filter_radius)
        rng_filter(g, coef, case_weights(env, filter_radius));
    else
        rng_coefficients(g, coef, case_weights(env, 0));
}

// The same case under a second thread order (emulation), in a folder of
// its own (dir2) with the same input: returns 1 when it ran to its end, -1
// when it did not (r explains it), -2 when the kit failed.
static int case_second_order(const judge_case_env *env, const lab_case *spec, const float *coef, const float *in,
                             size_t cells, uint64_t seed, char *dir2, size_t len, kv_list *report2, case_result *r)
{
    if (case_make_dir(dir2, len) != 0 || case_write_grid(dir2, CASE_INPUT, in, cells) != 0)
        return -2;
    spawn_result s2 = case_start_runner(env, spec, coef, dir2, 0, "shuffle", seed, 0, NULL, report2);
    r->wall_s += s2.seconds;
    const char *status = kv_get(report2, "status");
    if (!(s2.exited && s2.exit_code == RUNNER_OK && status && !strcmp(status, "ok"))) {
        char log2[600];
        snprintf(log2, sizeof(log2), "%s/runner.log", dir2);
        judge_explain_runner(env, &s2, report2, log2, case_words(env), r);
        return -1;
    }
    return 1;
}

// A runner that did not finish normally (outcome s) on the case folder dir:
// fills r. When a timed repetition was wrong and the checked call's output
// came back (it was wrong on the GPU's check, or the case is not checked
// there), that output is judged first, so a kernel wrong on every call gets
// its own mistake's hint; a right one, the timed repetition's.
static void case_runner_failed(const judge_case_env *env, const lab_case *spec, const float *in, const float *coef,
                               const char *dir, const spawn_result *s, int filter_radius, const kv_list *report,
                               case_result *r)
{
    char log[600];
    snprintf(log, sizeof(log), "%s/runner.log", dir);
    if (s->exited && s->exit_code == RUNNER_REP_WRONG && case_checked_output_saved(dir, spec, report)) {
        int out_tile = (int)kv_number(report, "out_tile_dim", env->out_tile);
        case_judge_outputs(env, spec, in, coef, dir, NULL, 0, out_tile, report, r);
        case_launch_shape(report, filter_radius ? filter_radius : env->conf->star_radius, r);
        if (r->status != CASE_OK)
            return;
        r->status = CASE_FAIL;
    }
    judge_explain_runner(env, s, report, log, case_words(env), r);
}

// Judges the grids of a run that ended well: the sample the judge checks
// itself when the GPU checked the whole grid (gpu_check=pass), else every
// grid that came back (dir2: the second thread order's, or NULL).
static void case_judge_grids(const judge_case_env *env, const lab_case *spec, uint64_t fill, float *in, const float *coef,
                             const char *dir, const char *dir2, int timed, int out_tile, const kv_list *report,
                             const case_sample *sample, case_result *r)
{
    const char *gpu_check = kv_get(report, GPU_CHECK_KEY);
    int sampled = sample->n && gpu_check && !strcmp(gpu_check, GPU_CHECK_PASS);
    if (env->count_loads && sample->n && gpu_check && !strcmp(gpu_check, GPU_CHECK_FAIL)) {
        // A count's run the kit's GPU check found wrong keeps no grids (the executor's
        // exec_sweep_save_checked): wrong, the check's word (load_count.c: the technique fails).
        r->status = CASE_FAIL;
        snprintf(r->kind, sizeof(r->kind), "wrong");
        r->hint_key = HINT_WRONG_VALUES;
        snprintf(r->reason, sizeof(r->reason), "the kit's check on the GPU found the counted run's output wrong");
        return;
    }
    case_draw_input(env, spec, fill, in, sampled ? sample : NULL);
    if (sampled)
        case_judge_sample(env, spec, in, coef, dir, sample, r);
    else
        case_judge_outputs(env, spec, in, coef, dir, dir2, timed, out_tile, report, r);
}

int judge_drawn_input_differs(const kv_list *report, uint64_t want)
{
    const char *sum = kv_get(report, INPUT_SUM_KEY);
    char *end = NULL;
    unsigned long long got = sum ? strtoull(sum, &end, 10) : 0;
    if (sum && end != sum && *end == '\0' && got == want)
        return 0;
    errno = EPROTO;  // (the run ends saying so: JUDGE_DRAWN_INPUT_DIFFERS)
    return 1;
}

int judge_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report_out)
{
    char dir[512], dir2[512] = "";
    size_t cells = (size_t)spec->nx * spec->ny * spec->nz;
    float coef[VERDICT_MAX_WEIGHTS];
    int filter_radius = case_filter_radius(env, spec);
    rng g;
    int timed = spec->timed && !env->emu, rc = 0;
    kv_list report2 = {0};
    memset(report_out, 0, sizeof(*report_out));
    r->seed = seed;
    r->launch_ms = -1;
    case_draw_weights(env, filter_radius, seed, &g, coef);
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)spec->nx * spec->ny);  // (guarded: case_input_after)
    float *in_base = case_guarded(cells, guard), *in = in_base ? in_base + guard : NULL;
    if (!in || case_make_dir(dir, sizeof(dir)) != 0) {
        free(in_base);
        return -1;
    }
    double t_start = judge_case_clock();
    uint64_t fill = env->emu ? rng_fill(&g, in, cells) : rng_fill_seed(&g);  // (the executor draws it on the GPU from fill)
    if (env->emu && case_write_grid(dir, CASE_INPUT, in, cells) != 0)
        goto fail_dir;
    double t_input = judge_case_clock();
    case_sample sample;
    case_choose_sample(env, spec, &sample);
    spawn_result s = case_start_runner(env, spec, coef, dir, timed, "forward", seed, fill, &sample, report_out);
    if (!s.started)
        goto fail_dir;
    r->wall_s = s.seconds;
    const char *status = kv_get(report_out, "status");
    int ok = s.exited && s.exit_code == RUNNER_OK && status && !strcmp(status, "ok");
    if (ok && !env->emu && judge_drawn_input_differs(report_out, rng_fill_sum(fill, cells, 0)))
        goto fail_dir;
    if (ok && env->emu) {  // the same case under a second thread order
        ok = case_second_order(env, spec, coef, in, cells, seed, dir2, sizeof(dir2), &report2, r);
        if (ok < -1)
            goto fail_dir;
    }
    if (ok == 1 && env->yardstick) {  // the kit's solution: its times only (no grid came back)
        r->status = CASE_OK;
        r->interior = protocol_cells_written(filter_radius > 0, env->conf->star_radius, spec->nx, spec->ny, spec->nz);
        case_read_timing(report_out, r);
    } else if (ok == 1) {
        r->launch_ms = env->emu ? -1 : kv_number(report_out, "launch_ms", -1);
        int out_tile = case_out_tile(env, report_out, filter_radius);
        case_judge_grids(env, spec, fill, in, coef, dir, dir2[0] ? dir2 : NULL, timed, out_tile, report_out, &sample, r);
        if (env->emu && dir2[0] && r->status == CASE_FAIL && r->hint_key && !strcmp(r->hint_key, HINT_WRONG_VALUES))
            case_third_order(env, spec, in, coef, dir, seed, out_tile, r);
        case_launch_shape(report_out, filter_radius ? filter_radius : env->conf->star_radius, r);
        if (r->status == CASE_OK && timed)
            case_read_timing(report_out, r);
        if (r->status == CASE_OK && timed && env->profile)
            case_profile(env, spec, coef, dir, seed, fill, r);
        if (env->ncu_metrics || env->count_loads)
            case_read_loads(env, dir, report_out, &s, r);
        judge_case_trace(r->name, report_out, t_input - t_start, s.seconds, judge_case_clock() - t_input - s.seconds);
    } else if (ok == 0) {
        case_draw_input(env, spec, fill, in, NULL);
        case_runner_failed(env, spec, in, coef, dir, &s, filter_radius, report_out, r);
        // (traced too: a failed run's turn, a racecheck's that found a race, held the GPU as long as any)
        judge_case_trace(r->name, report_out, t_input - t_start, s.seconds, judge_case_clock() - t_input - s.seconds);
    }
    judge_guard_read(report_out, r);
    goto done;
fail_dir:
    rc = -1;  // (the case's folders go, --keep or not)
done:
    kv_free(&report2);
    int why = errno;  // what failed, past the clean-up's own calls
    if (dir2[0] && (rc || !env->keep))
        judge_remove_tree(dir2);
    if (rc || !env->keep)
        judge_remove_tree(dir);
    free(in_base);
    errno = why;
    return rc;
}
