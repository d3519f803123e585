// grader/executor/executor.cu — the trusted executor: owns the GPU, the grids
// and the timer; runs one case of a lab against a student's program.
//
//   executor --probe --outdir DIR
//   executor --kind sweep  --student PROG --outdir DIR --size NX,NY,NZ --coef c0,...,c6 [--time REPS --accuracy RTOL,ATOL]
//            (--n N: the cube N×N×N; the student's program calls the host function of its lab's interface;
//             thirteen coefficients c0,...,c12 for the star of radius 2, whose boundary is two layers thick;
//             --radius R with --coef f0,...: a convolution of a W×H×1 image with a (2R+1)^2 filter, row by row)
//   executor --kind jacobi --student PROG --outdir DIR --size NX,NY,NZ --h H --bc NAME --iters K --check C
//            --tol T [--update heat2d --rate R --pitch P] [--time REPS --accuracy RTOL,ATOL]
//            (--update heat2d: the student's program calls heat_solve, K steps of the heat update with r = R,
//             rows stored P floats apart, their padding the kit's)
//
// The student's program (its kernel file linked with grader/shim/) runs as a
// confined child with no GPU; its CUDA calls arrive here over a pipe
// (serve.cu). This process contains no student host code: the device code is
// loaded as a module, every call is checked, every launch recorded. It writes
// the case files and report of grader/protocol/protocol.h for the judge.
//
// Timing: each timed repetition gets a fresh input drawn from a seed made
// after the program started, a re-poisoned output, an L2 flush, and a check
// of its whole output by the kit's own kernels (trusted.cu) before the next
// one. Last, the judge's own input once more (saved for the judge's check),
// and a grace period in which any further call is a late call.
//
// --yardstick (the lab's own solution timed for the speed score): the timed
// repetitions only, each checked as always; no grid is saved for the judge,
// which believes the times of the kit's solution and checks nothing more.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>

#include "case_io.h"
#include "exec_args.h"
#include "executor.h"
#include "gpu_locks.h"
#include "jacobi.h"
#include "pipe_io.h"
#include "sandbox.h"

#define EXEC_WARMUPS  3     // untimed repetitions before the timed ones (checked too)
#define EXEC_GRACE_MS 150   // how long a late call is waited for after a timed case's last call
#define EXEC_GRACE_UNTIMED_MS 5    // and after an untimed case's one call: its grids are saved already, and the
                                   // program is stopped next, so a call later still changes nothing (each case waits it)
#define EXEC_PROGRAM_BYTES (8ull << 30)  // the device memory a student's program may allocate itself

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

// The LAB_BC_* value called name, or -1.
static int exec_bc(const char *name)
{
    return !strcmp(name, "dirichlet") ? LAB_BC_DIRICHLET : !strcmp(name, "neumann") ? LAB_BC_NEUMANN
         : !strcmp(name, "periodic") ? LAB_BC_PERIODIC : -1;
}

// Reads argv (exec_args.c); exits RUNNER_USAGE on anything unexpected.
static exec_args exec_parse(int argc, char **argv)
{
    exec_args a;
    char why[300];
    if (exec_args_parse(argc, argv, exec_bc, &a, why, sizeof(why)) != 0) {
        fprintf(stderr, "executor: %s\n", why);
        exit(RUNNER_USAGE);
    }
    return a;
}

// ---------------------------------------------------------------------------
// What both kinds share
// ---------------------------------------------------------------------------

static exec_state exec;  // the student's program, as served

static int exec_replies = -1;        // --serve: where the judge's answers go (PROTOCOL_SERVE_REPLY_FD's copy); -1 otherwise
static int exec_locks[GPU_LOCKS_FILES] = {-1, -1, -1, -1, -1};  // the GPU locks the case took itself (GPU_LOCKS_OPTION)
static int exec_idle_told;           // 1 once the case's GPU work was said over (exec_gpu_idle)
static int exec_idle_wrong;          // 1 once the kit's GPU check found the case's output wrong: said with it
static int exec_count_ready;         // --serve --count-loads: 1 if the count's host side was prepared at the start, -1 if that failed
static char exec_count_ahead_why[300];  // and then why
static void exec_trace(const char *phase);

// A case's grids left for the judge, copied off the GPU and written only once
// its GPU work is said over (exec_gpu_idle): on an H200 the files of a wrong
// 512^3 output took 0.5-1.2 s to write, inside the judge's turn alone twice a
// wrong file (its timed case, its count), while every other judge waited.
#define EXEC_SAVES_MAX 4
#define EXEC_SAVE_LATER_MAX_BYTES ((size_t)3 << 29)  // kept a case at most (1.5 GiB: a 512^3 output and its input); more written at once
static struct exec_save {
    float *grid;            // the whole guarded buffer, on the host
    size_t floats;
    char path[4096];
} exec_saves[EXEC_SAVES_MAX];
static int exec_nsaves;

// Writes the grids exec_save_later kept, and frees them. Returns the path
// of the first that could not be written, NULL if all were.
static const char *exec_saves_write(void)
{
    const char *failed = NULL;
    int why = 0;
    for (int k = 0; k < exec_nsaves; k++) {
        struct exec_save *save = &exec_saves[k];
        FILE *f = fopen(save->path, "wb");
        int ok = f && fwrite(save->grid, sizeof(float), save->floats, f) == save->floats;
        if ((!f || fclose(f) != 0 || !ok) && !failed)
            failed = save->path, why = errno;
        free(save->grid);
        save->grid = NULL;
    }
    exec_nsaves = 0;
    errno = why;
    return failed;
}

// runner_fail_hook: a case that fails after its grids were kept still leaves
// them (a timed repetition found wrong: the judge judges the checked call's
// grids), written quietly (the failure reported is the case's own).
static void exec_saves_write_on_failure(void)
{
    exec_saves_write();
}

// Copies b (guards and grid) to the host, to be written to dir/name once the
// case's GPU work is over; written now (through runner_buffer_save's small
// buffer) when the case's grids kept would pass EXEC_SAVE_LATER_MAX_BYTES or
// the host has no room for the copy. A save after that work is the kit's error.
static void exec_save_later(const runner_buffer *b, const char *dir, const char *name)
{
    size_t floats = b->cells + 2 * b->guard;
    if (exec_idle_told)  // (its grids freed: no case saves after it)
        runner_fail(RUNNER_USAGE, "kit", "%s saved after the case's GPU work was over", name);
    size_t kept = 0;
    for (int k = 0; k < exec_nsaves; k++)
        kept += exec_saves[k].floats * sizeof(float);
    int later = exec_nsaves < EXEC_SAVES_MAX && kept + floats * sizeof(float) <= EXEC_SAVE_LATER_MAX_BYTES;
    float *grid = later ? (float *)malloc(floats * sizeof(float)) : NULL;
    if (!grid) {
        runner_buffer_save(b, dir, name);
        return;
    }
    runner_check(cudaMemcpy(grid, b->d_base, floats * sizeof(float), cudaMemcpyDeviceToHost), "download a grid");
    struct exec_save *save = &exec_saves[exec_nsaves++];
    save->grid = grid, save->floats = floats;
    snprintf(save->path, sizeof(save->path), "%s/%s", dir, name);
    runner_fail_hook = exec_saves_write_on_failure;
}

// Takes the GPU's locks named by spec (GPU_LOCKS_OPTION: the profiler's,
// then a turn, shared, long or alone) for the case's GPU work, so
// that a profiler's start-up and end (seconds) hold neither. fds gets what to
// give back (-1 each when spec is NULL); a lock that cannot be taken ends the
// run (the kit's fault, exit RUNNER_USAGE).
static void exec_gpu_locks_take(const char *spec, int fds[GPU_LOCKS_FILES])
{
    for (int i = 0; i < GPU_LOCKS_FILES; i++)
        fds[i] = -1;
    if (spec && gpu_locks_take(spec, fds) != 0)
        runner_fail(RUNNER_USAGE, "kit", "cannot take the GPU locks %s: %s", spec, strerror(errno));
}


// The case's work on the GPU is over: every kernel and copy of it ended, its
// device memory and module freed, its own GPU locks given back and (served)
// the judge told with PROTOCOL_SERVE_GPU_IDLE, so that the case's GPU turn
// ends here, before its host work (the wait for a late call, which the
// program's process answers with no GPU work, and the files). Once a case;
// a kernel's fault surfacing here ends the run as it would later. A case a
// timed repetition fails says it too before it ends, its kept grids then
// written as it fails (runner_fail_hook), outside the judge's turn.
static void exec_gpu_idle_say(void)
{
    if (exec_idle_told)
        return;
    exec_idle_told = 1;
    runner_check(cudaDeviceSynchronize(), "finish the case");
    exec_release_gpu(&exec);
    gpu_locks_give(exec_locks);  // (unlocked, not only closed: the student's program, forked inside the turn, shares them)
    exec_trace("trace_idle");
    const char idle = exec_idle_wrong ? PROTOCOL_SERVE_GPU_IDLE_WRONG : PROTOCOL_SERVE_GPU_IDLE;
    if (exec_replies >= 0 && write(exec_replies, &idle, 1) != 1)
        exec_replies = -1;  // the judge is gone: its next request's read says so
}

// exec_gpu_idle_say, then the grids kept for the judge written (exec_save_later).
static void exec_gpu_idle(void)
{
    if (exec_idle_told)
        return;
    exec_gpu_idle_say();
    runner_fail_hook = NULL;
    const char *unwritten = exec_saves_write();  // (the judge reads them after the case's answer)
    if (unwritten)
        runner_fail(RUNNER_USAGE, "files", "cannot write %s: %s", unwritten, strerror(errno));
}

// Reports why the program could not be served and exits: a refused call
// (RUNNER_REFUSED) or a violation of the protocol (RUNNER_VIOLATION).
static void exec_fail_program(void)
{
    if (exec.violation[0]) {
        runner_report("violation_kind", "%s", exec.violation_kind);
        exec_stop(&exec);
        runner_fail(RUNNER_VIOLATION, "program", "%s", exec.violation);
    }
    exec_stop(&exec);
    runner_fail(RUNNER_REFUSED, "refused", "%s", exec.refusal);
}

// The most bytes one call may copy from the host into device memory
// (serve.cu): an eighth of a grid of grid_bytes, and 16 KiB at least (a
// table, a scratch value; never an answer brought back from the host).
static uint64_t exec_host_in_limit(uint64_t grid_bytes)
{
    uint64_t eighth = grid_bytes / 8;
    return eighth > (16u << 10) ? eighth : (16u << 10);
}

// Starts the program and loads its device code; exits on failure.
static void exec_begin(const exec_args *a, double timeout_hint)
{
    char why[256] = "";
    exec.program_limit = EXEC_PROGRAM_BYTES;
    runner_report("confinement", "%s", sandbox_describe());
    if (exec_start(&exec, a->student, (unsigned)timeout_hint, why, sizeof(why)) != 0) {
        if (why[0])
            runner_fail(RUNNER_USAGE, "kit", "cannot start the student's program: %s", why);
        exec_fail_program();
    }
}

// The weights the kit set in the program's constant memory (a star's
// c0..c(6r), or a convolution's filter F), kept to check after every call that they are
// still there: they are the kit's, read-only for the program.
typedef struct exec_weights {
    CUdeviceptr d;                        // the variable's device address, 0 when none was set
    size_t bytes;                         // its length
    char name[8];                         // its name, for the message
    float value[PROTOCOL_MAX_WEIGHTS];    // what the kit wrote
} exec_weights;
#define EXEC_MAX_WEIGHT_VARS STENCIL_MAX_NCOEF  // the most variables set: c0..c12 (a filter is one, F)
static exec_weights exec_set[EXEC_MAX_WEIGHT_VARS];
static int exec_nset;

// Writes bytes of value into the program's variable name and remembers them;
// a variable the file does not have (or of another size) is skipped.
static void exec_set_weights(const char *name, const float *value, size_t bytes)
{
    size_t have = 0;
    CUdeviceptr d = exec_symbol(&exec, name, &have);
    if (!d || have != bytes || exec_nset == EXEC_MAX_WEIGHT_VARS || bytes > sizeof(exec_set[0].value))
        return;
    runner_check((cudaError_t)cuMemcpyHtoD(d, value, bytes), "set the weights in constant memory");
    exec_weights *w = &exec_set[exec_nset++];
    w->d = d, w->bytes = bytes;
    snprintf(w->name, sizeof(w->name), "%s", name);
    memcpy(w->value, value, bytes);
}

int exec_is_kit_weight(CUdeviceptr d, size_t bytes)
{
    for (int i = 0; i < exec_nset; i++)
        if (d < exec_set[i].d + exec_set[i].bytes && exec_set[i].d < d + (bytes ? bytes : 1))
            return 1;
    return 0;
}

// Refuses the case (RUNNER_REFUSED) when a weight the kit set changed
// during the program's call (a cudaMemcpyToSymbol, or a kernel storing
// through the variable's address).
static void exec_check_weights(void)
{
    float now[PROTOCOL_MAX_WEIGHTS];
    for (int i = 0; i < exec_nset; i++) {
        exec_weights *w = &exec_set[i];
        if (cuMemcpyDtoH(now, w->d, w->bytes) != CUDA_SUCCESS || memcmp(now, w->value, w->bytes) != 0) {
            exec_stop(&exec);
            runner_fail(RUNNER_REFUSED, "refused", "%s in constant memory changed during the call: the kit sets it before the host function runs, and it is read-only for the program", w->name);
        }
    }
}

// Calls the student's function once; exits if the program broke the
// protocol, a call was refused, a launch failed, a kernel faulted or the
// kit's weights changed.
static void exec_call_checked(const void *payload, size_t len, exec_call_result *res)
{
    if (exec_call(&exec, payload, len, res) != 0)
        exec_fail_program();
    if (exec.refusal[0])
        exec_fail_program();
    cudaError_t sync = exec.sticky != cudaSuccess ? exec.sticky : cudaDeviceSynchronize();
    runner_check_student(res->launch_error, sync);
    exec_check_weights();
}

// The timed calls' gate (trusted_gate), made once an executor.
static trusted_gate exec_timed_gate;
static int exec_timed_gate_made;

// Calls the student's function once as a timed repetition: as
// exec_call_checked, with the call's first launch queued behind the gate, so
// that its span starts when the launch reaches the GPU, not when the host
// began to submit it.
static void exec_call_timed(const void *payload, size_t len, exec_call_result *res)
{
    if (!exec_timed_gate_made) {
        exec_timed_gate_made = 1;
        if (trusted_gate_init(&exec_timed_gate) != 0)
            fprintf(stderr, "executor: no gate for the timed calls (no mapped host memory): their spans count the first launch's submission\n");
    }
    exec.gate = &exec_timed_gate;
    exec_call_checked(payload, len, res);
    exec.gate = NULL;
}

// Reports the declared tile sizes the judge appended to the kernel file.
static void exec_report_tiles(void)
{
    static const char *names[][2] = {{"stencil_kit_in_tile_dim", "in_tile_dim"}, {"stencil_kit_out_tile_dim", "out_tile_dim"},
                                     {"stencil_kit_block_dim", "block_dim"}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t bytes = 0;
        int v = 0;
        CUdeviceptr d = exec_symbol(&exec, names[i][0], &bytes);
        if (d && bytes == sizeof(int) && cuMemcpyDtoH(&v, d, sizeof(v)) == CUDA_SUCCESS)
            runner_report(names[i][1], "%d", v);
    }
}

// Reports the registers and static shared memory of the kernel whose name contains want.
static void exec_report_kernel(const char *want)
{
    for (int i = 0; i < exec.nfns; i++) {
        CUfunction f = NULL;
        int v = 0;
        if (!strstr(exec.fns[i].name, want) || cuModuleGetFunction(&f, exec.module, exec.fns[i].name) != CUDA_SUCCESS)
            continue;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS)
            runner_report("kernel_static_smem", "%d", v);
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS)
            runner_report("kernel_regs", "%d", v);
        return;
    }
}

// A 64-bit secret from the kernel's random source (never leaves this process).
static uint64_t exec_secret(void)
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
        v = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
    return v;
}

// Describes a failed check of a timed repetition in the report; exits with
// RUNNER_REP_WRONG.
static void exec_rep_failed(int rep, const check_counts *c, uint64_t want_hash, const unsigned n[3])
{
    unsigned long long p = c->first;
    runner_report("timed_rep_failed", "%d", rep);
    runner_report("timed_rep_wrong", "%llu", c->wrong);
    runner_report("timed_rep_unwritten", "%llu", c->unwritten);
    runner_report("timed_rep_boundary", "%llu", c->boundary);
    runner_report("timed_rep_guards", "%llu", c->guards);
    runner_report("timed_rep_input_changed", "%d", c->input_hash != want_hash);
    if (p != ~0ull)
        runner_report("timed_rep_first", "%llu,%llu,%llu", p / ((unsigned long long)n[0] * n[1]), (p / n[0]) % n[1], p % n[0]);
    exec_stop(&exec);
    exec_idle_wrong = 1;
    exec_gpu_idle_say();  // (the checked call's grids, kept, written as it fails: after the turn)
    runner_fail(RUNNER_REP_WRONG, "timed", "repetition %d of the timed launches gave a wrong output", rep);
}

// The checked call's launches: every warm-up and timed repetition must make
// the same ones, by shape (function, grid, block, dynamic shared memory) and
// by count (a shape the checked call launched once may be left out: a set-up
// launch on the first call only), so the kernel timed is the kernel whose
// launches and loads were judged. Every launch is watched, past the records'
// cap too (serve.cu). A whole solve is held to it when it ran as many
// iterations as the checked solve (another count may end otherwise).
static long exec_learnt_counts[EXEC_MAX_SHAPES];
static int exec_checked_iters;  // a whole solve's: the checked solve's iterations
static float exec_checked_ms;   // the checked call's GPU time (0: none measured)

// The warm-ups before the timed repetitions: none when the checked call took
// longer than EXEC_WARMUP_MAX_MS on the GPU (a warm-up leaves out costs of
// microseconds to milliseconds: the first launches, the clocks' ramp, cold
// caches and TLBs, which a call that long has paid and made negligible);
// else want. A correct but very slow kernel is so timed within its limit.
#define EXEC_WARMUP_MAX_MS 1000.0f
static int exec_warmups(int want)
{
    if (exec_checked_ms <= EXEC_WARMUP_MAX_MS)
        return want;
    runner_report("warmups_left_out", "%d (the checked call took %.0f ms)", want, exec_checked_ms);
    return 0;
}

// After the checked call, watched with EXEC_WATCH_LEARN: keeps each shape's count.
static void exec_keep_checked_launches(void)
{
    int n, overflow;
    const exec_launch_shape *shapes = exec_launch_shapes(&n, &overflow);
    for (int i = 0; i < n; i++)
        exec_learnt_counts[i] = shapes[i].count;
    exec_launch_watch(EXEC_WATCH_OFF);
}

// After call number of what ("warm-up", "timed repetition", ...), watched with
// EXEC_WATCH_CHECK: fails the case when its launches differ from the checked call's.
static void exec_check_rep_launches(const char *what, int number, int rep)
{
    int n, overflow;
    const exec_launch_shape *shapes = exec_launch_shapes(&n, &overflow), *odd = exec_launch_stranger(), *same = NULL;
    char why[700] = "";
    if (overflow) {  // no correct program comes near: comparing nothing would let any later call pass
        snprintf(why, sizeof(why), "the checked call made launches of more than %d different shapes (kernel, grid, block, dynamic_smem), so later calls cannot be held to them",
                 EXEC_MAX_SHAPES);
    } else if (odd) {
        for (int i = 0; i < n && !same; i++)
            if (shapes[i].fn == odd->fn)
                same = &shapes[i];
        char had[300] = "never launched that kernel";
        if (same)
            snprintf(had, sizeof(had), "launched it with grid %u,%u,%u block %u,%u,%u dynamic_smem %zu", same->grid[0], same->grid[1],
                     same->grid[2], same->block[0], same->block[1], same->block[2], same->dynamic_smem);
        snprintf(why, sizeof(why), "%s %d launched %s with grid %u,%u,%u block %u,%u,%u dynamic_smem %zu; the checked call %s", what,
                 number, odd->kernel, odd->grid[0], odd->grid[1], odd->grid[2], odd->block[0], odd->block[1], odd->block[2],
                 odd->dynamic_smem, had);
    } else {
        for (int i = 0; i < n && !why[0]; i++) {
            long want = exec_learnt_counts[i], got = shapes[i].count;
            if (got != want && !(want == 1 && got == 0))
                snprintf(why, sizeof(why), "%s %d launched %s (grid %u,%u,%u block %u,%u,%u dynamic_smem %zu) %ld times; the checked call, %ld times",
                         what, number, shapes[i].kernel, shapes[i].grid[0], shapes[i].grid[1], shapes[i].grid[2], shapes[i].block[0],
                         shapes[i].block[1], shapes[i].block[2], shapes[i].dynamic_smem, got, want);
        }
    }
    exec_launch_watch(EXEC_WATCH_OFF);
    if (!why[0])
        return;
    runner_report("timed_rep_failed", "%d", rep);
    runner_report("timed_rep_launch", "%s", why);
    exec_stop(&exec);
    exec_idle_wrong = 1;
    exec_gpu_idle_say();
    runner_fail(RUNNER_REP_WRONG, "timed", "%s", why);
}

// 1 if check c of a repetition found nothing wrong and the input hash held.
static int exec_rep_ok(const check_counts *c, uint64_t want_hash)
{
    return c->wrong == 0 && c->unwritten == 0 && c->boundary == 0 && c->guards == 0 && c->input_hash == want_hash;
}

// Seconds since the executor started, reported at each phase as trace_<phase>
// (read only by the judge's STENCIL_TRACE=1 lines: where a case's time goes).
static double exec_t0;
static void exec_trace(const char *phase)
{
    runner_report(phase, "%.3f", exec_clock() - exec_t0);
}

// 1 when a timed repetition r (not a warm-up, nor the last of reps) ends past
// a->time_budget_s seconds after start: the repetitions stop there, and the
// report says so.
static int exec_budget_spent(const exec_args *a, double start, int r, int reps)
{
    if (r < 0 || r + 1 >= reps || a->time_budget_s <= 0 || exec_clock() - start <= a->time_budget_s)
        return 0;
    runner_report("time_reps_cut_at_s", "%.3f", a->time_budget_s);
    return 1;
}

// The end of warm-up or timed repetition r (of *reps, after warm warm-ups,
// started at start): its check c against the input's hash want (a wrong one
// ends the run), its time into ms, and 1 when the repetitions stop here
// (*reps cut to r + 1: the budget spent).
static int exec_rep_end(const exec_args *a, const check_counts *c, uint64_t want, const exec_call_result *res, int r, int warm,
                        double start, float *ms, int *reps)
{
    if (!exec_rep_ok(c, want))
        exec_rep_failed(r + warm + 1, c, want, a->n);
    if (r >= 0)
        ms[r] = res->started ? res->ms : 0.0f;
    if (!exec_budget_spent(a, start, r, *reps))
        return 0;
    *reps = r + 1;
    return 1;
}

// Reports the median, fastest and slowest of reps times.
static void exec_report_times(float *ms, int reps)
{
    std::sort(ms, ms + reps);
    float median = reps % 2 ? ms[reps / 2] : 0.5f * (ms[reps / 2 - 1] + ms[reps / 2]);
    runner_report("time_reps", "%d", reps);
    runner_report("time_ms_median", "%.6f", median);
    runner_report("time_ms_min", "%.6f", ms[0]);
    runner_report("time_ms_max", "%.6f", ms[reps - 1]);
}

// Reports the copy limit, measured once per executor (the same buffers,
// the same GPU: a served run's timed cases share the figure).
static void exec_report_copy_limit(void)
{
    static double gbs = -1, kernel_gbs = 0, memcpy_gbs = 0;
    static const char *by = "none";
    if (gbs < 0)
        gbs = trusted_copy_limit(20, &kernel_gbs, &memcpy_gbs, &by);
    runner_report("bandwidth_gbs", "%.1f", gbs);
    runner_report("bandwidth_kernel_gbs", "%.1f", kernel_gbs);
    runner_report("bandwidth_memcpy_gbs", "%.1f", memcpy_gbs);
    runner_report("bandwidth_by", "%s", by);
}

// Flushes L2 by writing a buffer twice its size.
static void exec_flush_l2(void *flush, size_t bytes, int r)
{
    runner_check(cudaMemsetAsync(flush, r & 0xff, bytes), "flush L2");
}

// ---------------------------------------------------------------------------
// Sweeps (labs 1-4)
// ---------------------------------------------------------------------------

typedef struct exec_sweep {
    runner_buffer in, out;   // the guarded grids
    float *h_in;             // the judge's input
    unsigned n[3];           // nx, ny, nz
    int filter_radius;       // a convolution's filter radius (every cell written); 0: a star's sweep
    int star_radius;         // a star's radius (a boundary that many layers thick); 0 for a convolution
    char payload[64];        // the host function's WIRE_CALL payload (exec_sweep_payload), set by the checked call
    size_t payload_len;      // its bytes
    int gpu_check;           // 1: --gpu-check applies, the input's keyed hash taken before the program ran
    int gpu_ok;              // 1: the checked call's output found right on the GPU by the kit's kernels
    uint64_t check_key;      // the keyed hash's key (--gpu-check)
    uint64_t input_hash;     // the input's keyed hash before the program ran (--gpu-check)
    int input_kept;          // the last GPU check found the input buffer as drawn (hash, guards)
    int checked;             // the last GPU check ran to a verdict (0: it could not run, trusted_take)
    runner_buffer kept;      // the checked call's output: a copy on a timed case right on the GPU, else out itself
} exec_sweep;

// The WIRE_CALL payload of the sweep lab's host function (wire_sweep_call):
// launch_stencil(in, out, N) or launch_sweep(in, out, nx, ny, nz), as the
// student's program was built.
static size_t exec_sweep_payload(const exec_sweep *s, char *buf)
{
    wire_sweep_call w;
    memset(&w, 0, sizeof(w));
    w.d_in = (uint64_t)(uintptr_t)s->in.d_grid;
    w.d_out = (uint64_t)(uintptr_t)s->out.d_grid;
    w.nx = s->n[0], w.ny = s->n[1], w.nz = s->n[2];
    w.radius = (uint32_t)s->filter_radius;  // the wire's radius is the filter's (the star's is in the module's c0..c(6r))
    memcpy(buf, &w, sizeof(w));
    return sizeof(w);
}

// Times the host function: warm-ups and reps, each on a fresh input, each checked.
static void exec_sweep_time(const exec_args *a, exec_sweep *s)
{
    uint64_t base = exec_secret(), key = exec_secret();
    int reps = std::min(std::max(a->time_reps, 1), 1000), l2 = 0;
    float *ms = (float *)malloc(sizeof(float) * (size_t)reps);
    void *flush = NULL;
    char payload[64];
    size_t len = exec_sweep_payload(s, payload);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    runner_check(cudaMalloc(&flush, (size_t)l2 * 2), "allocate the L2 flush buffer");
    runner_report("timed_input_nonce", "%016llx", (unsigned long long)base);
    double start = exec_clock();
    int warm = exec_warmups(EXEC_WARMUPS);
    for (int r = -warm; r < reps; r++) {
        uint64_t seed = grid_fill_mix(base + (uint64_t)(r + warm));
        uint64_t want = trusted_sweep_prepare(s->in.d_base, s->out.d_base, s->in.guard, s->n, s->filter_radius > 0,
                                              s->star_radius, seed, key);
        exec_flush_l2(flush, (size_t)l2 * 2, r);
        runner_check(cudaDeviceSynchronize(), "prepare a timed repetition");
        exec_call_result res;
        exec_launch_watch(EXEC_WATCH_CHECK);
        exec_call_timed(payload, len, &res);
        exec_check_rep_launches(r < 0 ? "warm-up" : "timed repetition", r < 0 ? r + warm + 1 : r + 1, r + warm + 1);
        check_counts c;
        trusted_sweep_check(s->in.d_base, s->out.d_base, s->in.guard, s->n, a->coef, s->star_radius, s->filter_radius,
                            a->rtol, a->atol, key, &c);
        if (exec_rep_end(a, &c, want, &res, r, warm, start, ms, &reps))
            break;
    }
    runner_report("timed_reps_checked", "%d", reps + warm);
    exec_report_times(ms, reps);
    cudaFree(flush);
    free(ms);
}

// 1 when every cell of s's output is right (checked by the kit's kernels
// against the star or filter of the input, in double, within the case's
// tolerance), the kept cells and both grids' guards intact, and the input as
// it was (its keyed hash under key equal to want).
static int exec_gpu_check(const exec_args *a, exec_sweep *s, uint64_t key, uint64_t want)
{
    check_counts c;
    trusted_sweep_check(s->in.d_base, s->out.d_base, s->in.guard, s->n, a->coef, s->star_radius, s->filter_radius,
                        a->rtol, a->atol, key, &c);
    s->checked = c.wrong != ~0ull;  // (~0: the check could not run, no verdict: the judge's CPU decides)
    s->input_kept = s->checked && c.guards == 0 && c.input_hash == want;
    return c.wrong == 0 && c.unwritten == 0 && c.boundary == 0 && c.guards == 0 && c.input_hash == want;
}

// Leaves the input buffer after a call the kit's GPU check found wrong for
// the judge, unless that check found it as drawn (GPU_CHECK_INPUT_KEPT_KEY:
// the judge's own input stands for it; half the bytes of a wrong case copied
// off the GPU inside the judge's turn).
static void exec_save_input_after(const exec_args *a, const exec_sweep *s)
{
    if (s->input_kept)
        runner_report(GPU_CHECK_INPUT_KEPT_KEY, "1");
    else
        exec_save_later(&s->in, a->outdir, CASE_INPUT_AFTER);
}

// Saves the units a->sample of out's grid (protocol_sample_unit_of: z-planes,
// or rows of a 2D grid), in that order, as CASE_SAMPLE.
static void exec_save_sample(const exec_args *a, const runner_buffer *out)
{
    protocol_sample_unit unit = protocol_sample_unit_of(a->n[0], a->n[1], a->n[2]);
    float *h = (float *)malloc(unit.cells * sizeof(float));
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", a->outdir, CASE_SAMPLE);
    FILE *f = fopen(path, "wb");
    if (!h || !f)
        runner_fail(RUNNER_USAGE, "files", "cannot write %s: %s", path, strerror(errno));
    for (int q = 0; q < a->nsample; q++) {
        runner_check(cudaMemcpy(h, out->d_grid + a->sample[q] * unit.stride, unit.cells * sizeof(float), cudaMemcpyDeviceToHost),
                     "read a sample unit");
        if (fwrite(h, sizeof(float), unit.cells, f) != unit.cells)
            runner_fail(RUNNER_USAGE, "files", "cannot write %s: %s", path, strerror(errno));
    }
    if (fclose(f) != 0)
        runner_fail(RUNNER_USAGE, "files", "cannot write %s: %s", path, strerror(errno));
    free(h);
}

// Puts the judge's input into s->in, with its guards: drawn on the GPU from
// a->fill (no file), or uploaded from s->h_in; then makes s->out from it
// (its boundary = the input, the cells to write poisoned, its guards).
// Returns the drawn input's plain sum (grid_fill_term, key 0); 0 when uploaded.
static uint64_t exec_sweep_judge_input(const exec_args *a, exec_sweep *s)
{
    uint64_t sum = 0;
    if (!s->h_in) {
        sum = trusted_sweep_prepare(s->in.d_base, s->out.d_base, s->in.guard, s->n, s->filter_radius > 0, s->star_radius,
                                    a->fill, 0);
        runner_check(cudaGetLastError(), "draw the input on the GPU");
        return sum;
    }
    runner_buffer_upload(&s->in, s->h_in);
    runner_check(trusted_sweep_output(s->in.d_base, s->out.d_base, s->in.guard, s->n, s->filter_radius > 0, s->star_radius),
                 "prepare the output grid");
    return sum;
}

// Makes s's guarded grids from the judge's input (exec_sweep_judge_input),
// tracked as the program's to use.
static void exec_sweep_grids(const exec_args *a, exec_sweep *s)
{
    size_t nx = a->n[0], ny = a->n[1], nz = a->n[2], cells = nx * ny * nz;
    memcpy(s->n, a->n, sizeof(s->n));
    s->filter_radius = a->filter_radius;
    s->star_radius = a->star_radius;
    s->h_in = a->fill_given ? NULL : runner_read_grid(a->outdir, CASE_INPUT, cells);
    size_t guard = (size_t)protocol_guard_cells(nx * ny);
    runner_report("guard_cells", "%zu", guard);
    s->in = runner_buffer_create(NULL, cells, guard);
    s->out = runner_buffer_create(NULL, cells, guard);
    uint64_t sum = exec_sweep_judge_input(a, s);
    if (!s->h_in)
        runner_report(INPUT_SUM_KEY, "%llu", (unsigned long long)sum);
    exec_track(&exec, (uint64_t)(uintptr_t)s->in.d_base, (cells + 2 * guard) * 4, 1);
    exec_track(&exec, (uint64_t)(uintptr_t)s->out.d_base, (cells + 2 * guard) * 4, 1);
    exec.host_in_limit = exec_host_in_limit((uint64_t)cells * 4);
}

// Sets the kit's weights by name in the program's module: lab 0's filter F,
// or the star's c0..c(6r).
static void exec_sweep_weights(const exec_args *a, const exec_sweep *s)
{
    if (s->filter_radius) {  // kernels/conv.h's F: the (2r+1)^2 filter in its top-left corner, 0 elsewhere
        float all[CONV_MAX_WIDTH * CONV_MAX_WIDTH] = {0};
        int w = 2 * s->filter_radius + 1;
        for (int i = 0; i < w; i++)
            for (int j = 0; j < w; j++)
                all[i * CONV_MAX_WIDTH + j] = a->coef[i * w + j];
        exec_set_weights(CONV_FILTER_SYMBOL, all, sizeof(all));
        runner_report("filter_radius", "%d", s->filter_radius);
    } else {
        for (int c = 0; c < STENCIL_NCOEF(s->star_radius); c++) {  // c0..c6, and c7..c12 for the star of radius 2 (kernels/coefficients.h)
            char name[8];
            snprintf(name, sizeof(name), "c%d", c);
            exec_set_weights(name, &a->coef[c], sizeof(float));
        }
    }
}

// --gpu-check: takes the input's keyed hash before the program runs, so that
// a change to it shows. Sets s->gpu_check (0 without the option, for the
// yardstick, or when the kit's kernels could not count: the grids then go to
// the judge as without the option), s->check_key and s->input_hash.
static void exec_sweep_hash_input(const exec_args *a, exec_sweep *s)
{
    s->check_key = 0, s->input_hash = 0;
    s->gpu_check = a->gpu_check && !a->yardstick;
    if (!s->gpu_check)
        return;
    check_counts before;
    s->check_key = exec_secret();
    trusted_sweep_check(s->in.d_base, s->out.d_base, s->in.guard, s->n, a->coef, s->star_radius, s->filter_radius, a->rtol,
                        a->atol, s->check_key, &before);
    s->input_hash = before.input_hash;
    s->gpu_check = before.wrong != ~0ull;
}

// Ends the load count started before the checked call (when counting) and
// reports its bytes, or why there are none (why: the start's reason).
static void exec_loads_report(int counting, long launches, char *why, size_t len)
{
    double bytes[3];
    if (counting && exec_loads_end(bytes, launches, why, len) == 0) {
        runner_report(LOADS_GLOBAL_KEY, "%.0f", bytes[0]);
        runner_report(LOADS_ASYNC_KEY, "%.0f", bytes[1]);
        runner_report(LOADS_SHARED_KEY, "%.0f", bytes[2]);
        return;
    }
    runner_report(LOADS_MISSING_KEY, "%s", why);
    runner_report(LOADS_MISSING_KIND_KEY, "%s", loads_missing_kind_names[exec_loads_missing_kind()]);
}

// The checked call: the host function once, its launches recorded, kept as
// the ones the timed calls must repeat and reported, with its time and the
// kernel's attributes (with LOADS_OPTION, its loads counted). Leaves the call's payload in s for the later calls.
static void exec_sweep_checked_call(exec_sweep *s, int count_loads)
{
    s->payload_len = exec_sweep_payload(s, s->payload);
    exec_call_result res;
    char why[300] = "";
    int counting = count_loads && exec_loads_begin(why, sizeof(why)) == 0;
    if (counting)
        exec_trace("trace_count_begun");  // (the range profiler on; then the call under it, then the count's end)
    launch_log_begin(NULL, 0);
    exec_launch_watch(EXEC_WATCH_LEARN);
    exec_call_checked(s->payload, s->payload_len, &res);
    long launches = launch_log_end();  // (the call's kernels: each must be a range of the count)
    if (counting)
        exec_trace("trace_count_called");
    if (count_loads)
        exec_loads_report(counting, launches, why, sizeof(why));
    exec_keep_checked_launches();
    runner_report_launches(launches);
    if (res.started)
        runner_report("launch_ms", "%.6f", res.ms), exec_checked_ms = res.ms;
    exec_report_kernel("stencil_kernel");
    exec_trace("trace_called");
}

// Sets s->kept, the checked call's output: on a timed case right on the GPU
// a copy of it, to compare the timed output with bit for bit (without room
// for the copy s->gpu_ok drops to 0: the grids go to the judge); otherwise
// s->out itself.
static void exec_sweep_keep_output(const exec_args *a, exec_sweep *s)
{
    size_t total = s->out.cells + 2 * s->out.guard;
    s->kept = s->out;
    if (!s->gpu_ok || a->time_reps <= 0)
        return;
    s->kept.d_base = NULL;
    if (cudaMalloc((void **)&s->kept.d_base, total * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(s->kept.d_base, s->out.d_base, total * sizeof(float), cudaMemcpyDeviceToDevice) != cudaSuccess) {
        cudaGetLastError();
        cudaFree(s->kept.d_base);
        s->kept = s->out;
        s->gpu_ok = 0;
    }
    s->kept.d_grid = s->kept.d_base + s->out.guard;
}

// Leaves the checked call's result for the judge: every grid unless the kit
// found it right on the GPU, then (untimed) only the sample's units; reports
// the GPU check's outcome where it ran.
static void exec_sweep_save_checked(const exec_args *a, const exec_sweep *s)
{
    // A count's run found wrong on the GPU: its outcome is all the judge uses (the case's own run
    // was judged before), so no grid comes back (a wrong 512^3 output and its input took 0.33 s to
    // copy to the host inside the judge's turn alone).
    int count_wrong = a->count_loads && s->gpu_check && s->checked && !s->gpu_ok;
    if (!a->yardstick && !s->gpu_ok && !count_wrong) {
        exec_save_later(&s->out, a->outdir, CASE_OUTPUT);
        exec_save_input_after(a, s);  // (input_kept only where the GPU check ran)
    }
    if (s->gpu_ok && a->time_reps == 0) {
        exec_save_sample(a, &s->out);
        runner_report(GPU_CHECK_KEY, "%s", GPU_CHECK_PASS);
    } else if (s->gpu_check && !s->gpu_ok) {
        runner_report(GPU_CHECK_KEY, "%s", GPU_CHECK_FAIL);
        exec_idle_wrong = s->checked;
    }
}

// Leaves the last timed call's result for the judge: only the sample when
// the kit finds it right on the GPU and bit for bit the checked call's
// output; else its output, with every grid of the checked call when that one
// had passed on the GPU.
static void exec_sweep_save_timed(const exec_args *a, exec_sweep *s)
{
    size_t total = s->out.cells + 2 * s->out.guard;
    if (s->gpu_ok && exec_gpu_check(a, s, s->check_key, s->input_hash) &&
        trusted_count_differ(s->kept.d_base, s->out.d_base, total) == 0) {
        exec_save_sample(a, &s->out);  // the same bits as the checked output
        runner_report(GPU_CHECK_KEY, "%s", GPU_CHECK_PASS);
        return;
    }
    if (s->gpu_ok) {  // right on the checked call, not on this one: the judge gets every grid
        exec_save_later(&s->kept, a->outdir, CASE_OUTPUT);
        exec_save_input_after(a, s);
        runner_report(GPU_CHECK_KEY, "%s", GPU_CHECK_FAIL);
        exec_idle_wrong = s->checked;
    }
    exec_save_later(&s->out, a->outdir, CASE_TIMED);
}

// --time: the copy limit and the timed repetitions; then, unless timing the
// yardstick, the judge's input once more and one last call, whose output the
// judge (or the kit, on the GPU) checks; then the GPU's work said over and
// the wait for a late call. Frees s->kept when it is a copy.
static void exec_sweep_timed(const exec_args *a, exec_sweep *s)
{
    exec_report_copy_limit();
    exec_trace("trace_copy_limit");
    exec_sweep_time(a, s);
    exec_trace("trace_timed");
    if (!a->yardstick) {
        exec_sweep_judge_input(a, s);  // the judge's input once more: the judge checks this output itself
        exec_call_result res;
        exec_call_checked(s->payload, s->payload_len, &res);
        exec_sweep_save_timed(a, s);
        if (s->kept.d_base != s->out.d_base)
            cudaFree(s->kept.d_base);
    }
    exec_gpu_idle();  // the turn ends; a late call (no GPU work: refused) still fails the program
    if (exec_check_late(&exec, EXEC_GRACE_MS))
        exec_fail_program();
    exec_trace("trace_timed_saved");
}

// One sweep case: the grids and weights, the checked call and what it leaves
// for the judge, then (with --time) the timing.
static void exec_sweep_case(const exec_args *a)
{
    exec_sweep s;
    memset(&s, 0, sizeof(s));
    exec_sweep_grids(a, &s);
    exec_begin(a, 60);
    exec_sweep_weights(a, &s);
    exec_report_tiles();
    runner_check(cudaDeviceSynchronize(), "prepare the case");
    exec_sweep_hash_input(a, &s);
    exec_trace("trace_ready");
    exec_sweep_checked_call(&s, a->count_loads);
    // Right on the GPU: nothing but the sample leaves it (a timed case keeps the output here, to
    // compare the timed output with it bit for bit). Anything wrong: every grid goes to the judge.
    s.gpu_ok = s.gpu_check && exec_gpu_check(a, &s, s.check_key, s.input_hash);
    exec_sweep_keep_output(a, &s);
    exec_sweep_save_checked(a, &s);
    exec_trace("trace_saved");
    if (a->time_reps > 0) {
        exec_sweep_timed(a, &s);
    } else {
        exec_gpu_idle();
        if (exec_check_late(&exec, EXEC_GRACE_UNTIMED_MS))
            exec_fail_program();
    }
    free(s.h_in);
}

// ---------------------------------------------------------------------------
// Jacobi (lab 5)
// ---------------------------------------------------------------------------

typedef struct exec_jacobi {
    runner_buffer a, b, f;   // the two grids and f
    float *h_u0, *h_f;       // the judge's initial grid and f; NULL when drawn on the GPU (FILL_OPTION)
    double *d_scratch;       // the program's scratch
    uint64_t check_key;      // --gpu-check: the key of f's hash
    uint64_t f_hash;         // --gpu-check: f's keyed hash as drawn
    int gpu_ok;              // 1: the checked solve found right on the GPU (exec_jacobi_gpu_verdict)
    runner_buffer kept[3];   // a timed case right on the GPU: copies of a, b and f after the checked solve
} exec_jacobi;

// The problem as the kit's kernels take it.
static trusted_solve exec_solve_of(const exec_args *a)
{
    trusted_solve t = {{a->n[0], a->n[1], a->n[2]}, a->pitch, a->h, a->bc, a->heat, a->rate};
    return t;
}

// The stopping rule and tolerance of a's checks; scale 0: the kit's bound.
static trusted_stop exec_stop_of(const exec_args *a, double scale)
{
    trusted_stop t = {a->iters, a->check_every, a->tol, a->rtol, a->atol, scale};
    return t;
}

// The WIRE_CALL payload of jacobi_solve (heat_solve: the same, d_f unused).
static size_t exec_jacobi_payload(const exec_args *a, const exec_jacobi *s, char *buf)
{
    uint64_t ptr[3] = {(uint64_t)(uintptr_t)s->a.d_grid, (uint64_t)(uintptr_t)s->b.d_grid, (uint64_t)(uintptr_t)s->f.d_grid};
    wire_jacobi_problem p = {a->n[0], a->n[1], a->n[2], a->h, a->bc, a->iters, a->check_every, a->tol,
                             (uint64_t)(uintptr_t)s->d_scratch, a->rate, a->pitch};
    memcpy(buf, ptr, sizeof(ptr));
    memcpy(buf + sizeof(ptr), &p, sizeof(p));
    return sizeof(ptr) + sizeof(p);
}

typedef struct exec_jacobi_answer {
    int32_t result, iters;   // which buffer is newest, iterations done
    float residual;          // the last check's residual
} exec_jacobi_answer;

// The program's three answers of the last call. A heat solve's only answer
// is its buffer: its steps are the call's and it makes no checks, whatever
// the program said.
static exec_jacobi_answer exec_jacobi_read(const exec_args *a, const exec_call_result *res)
{
    exec_jacobi_answer ans = {0, -1, -2.0f};
    if (res->answer_len == sizeof(ans))
        memcpy(&ans, res->answer, sizeof(ans));
    if (a->heat)
        ans.iters = a->iters, ans.residual = -1.0f;
    return ans;
}

// Times whole solves, each from a fresh initial grid and f, each checked
// against the kit's double-precision solve.
static void exec_jacobi_time(const exec_args *a, exec_jacobi *s)
{
    uint64_t base = exec_secret(), key = exec_secret();
    int reps = std::min(std::max(a->time_reps, 1), 1000), iters = 0, unchecked = 0;
    float *ms = (float *)malloc(sizeof(float) * (size_t)reps);
    double checks_s = 0;  // seconds of the kit's solves that checked them (STENCIL_TRACE's timed_checks)
    char payload[128];
    size_t len = exec_jacobi_payload(a, s, payload);
    runner_report("timed_input_nonce", "%016llx", (unsigned long long)base);
    double start = exec_clock();
    int warm = exec_warmups(1);
    for (int r = -warm; r < reps; r++) {  // one warm-up solve (exec_warmups)
        uint64_t seed = grid_fill_mix(base + (uint64_t)(r + 1)) & ~1ull;  // f uses seed + 1
        trusted_solve problem = exec_solve_of(a);
        uint64_t want = trusted_jacobi_prepare(s->a.d_base, s->b.d_base, s->f.d_base, s->a.guard, &problem, seed, key, NULL);
        runner_check(cudaDeviceSynchronize(), "prepare a timed solve");
        exec_call_result res;
        exec_launch_watch(EXEC_WATCH_CHECK);
        exec_call_timed(payload, len, &res);
        exec_jacobi_answer ans = exec_jacobi_read(a, &res);
        if (ans.iters == exec_checked_iters)
            exec_check_rep_launches(r < 0 ? "warm-up solve" : "timed solve", r < 0 ? 1 : r + 1, r + warm + 1);
        else
            exec_launch_watch(EXEC_WATCH_OFF), unchecked++;  // another iteration count: its values are checked, not its launches
        check_counts c;
        trusted_ref_end end;
        trusted_stop stop = exec_stop_of(a, 0);
        const runner_buffer *got = ans.result == 1 ? &s->b : &s->a;
        double checking = exec_clock();
        trusted_jacobi_check(got->d_grid, s->f.d_base, s->a.guard, &problem, &stop, seed, key, &c, &end);
        checks_s += exec_clock() - checking;
        if ((ans.result != 0 && ans.result != 1) || ans.iters != end.iters) {
            runner_report("timed_rep_iterations", "%d (the kit's solve: %d)", ans.iters, end.iters);
            c.wrong += 1;
        }
        iters = ans.iters;
        if (exec_rep_end(a, &c, want, &res, r, warm, start, ms, &reps))
            break;
    }
    runner_report("timed_reps_checked", "%d", reps + warm);
    runner_report("trace_timed_checks", "%.3f", checks_s);
    if (unchecked)
        runner_report("timed_launches_unchecked", "%d", unchecked);  // solves whose launches were not compared
    runner_report("timed_iterations", "%d", iters);
    exec_report_times(ms, reps);
    if (iters > 0)
        runner_report("time_per_iter_ms", "%.6f", ms[reps / 2] / iters);
    free(ms);
}

// Puts the judge's problem into s's grids: drawn on the GPU from a->fill
// (its plain sum reported when report is 1; f's hash under s->check_key
// kept), or uploaded from the judge's files.
static void exec_jacobi_judge_problem(const exec_args *a, exec_jacobi *s, int report)
{
    if (s->h_u0) {
        runner_buffer_upload(&s->a, s->h_u0);
        runner_buffer_upload(&s->b, s->h_u0);
        runner_buffer_upload(&s->f, s->h_f);
        return;
    }
    trusted_solve problem = exec_solve_of(a);
    uint64_t plain = 0;
    s->f_hash = trusted_jacobi_prepare(s->a.d_base, s->b.d_base, s->f.d_base, s->a.guard, &problem, a->fill, s->check_key, &plain);
    runner_check(cudaGetLastError(), "draw the problem on the GPU");
    if (report)
        runner_report(INPUT_SUM_KEY, "%llu", (unsigned long long)plain);
}

// Makes s's grids (the judge's problem in them) and the program's scratch,
// tracked as the program's to use.
static void exec_jacobi_grids(const exec_args *a, exec_jacobi *s)
{
    size_t cells = (size_t)a->pitch * a->n[1] * a->n[2];  // padded rows, as stored
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)a->pitch * a->n[1]);
    memset(s, 0, sizeof(*s));
    runner_report("guard_cells", "%zu", guard);
    s->check_key = exec_secret();
    s->h_u0 = a->fill_given ? NULL : runner_read_grid(a->outdir, CASE_INPUT, cells);
    s->h_f = a->fill_given ? NULL : runner_read_grid(a->outdir, CASE_JACOBI_F, cells);
    s->a = runner_buffer_create(NULL, cells, guard);
    s->b = runner_buffer_create(NULL, cells, guard);
    s->f = runner_buffer_create(NULL, cells, guard);
    exec_jacobi_judge_problem(a, s, 1);
    runner_check(cudaMalloc((void **)&s->d_scratch, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "allocate the scratch");
    runner_check(cudaMemset(s->d_scratch, 0, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "clear the scratch");
    const runner_buffer *grids[3] = {&s->a, &s->b, &s->f};
    for (int g = 0; g < 3; g++)
        exec_track(&exec, (uint64_t)(uintptr_t)grids[g]->d_base, (cells + 2 * guard) * 4, 1);
    exec_track(&exec, (uint64_t)(uintptr_t)s->d_scratch, JACOBI_SCRATCH_DOUBLES * sizeof(double), 0);
    exec.program_bytes += JACOBI_SCRATCH_DOUBLES * sizeof(double);  // the program's to use and free: counted as its own
    exec.host_in_limit = exec_host_in_limit((uint64_t)cells * 4);
}

// --gpu-check GPU_CHECK_SOLVE on a drawn problem: the checked solve judged
// where it lies against the kit's double-precision solve of the same problem
// (trusted_jacobi_check), by rules no looser than the judge's
// (grader/judge/jacobi_verdict.c): returned buffer 0 or 1, the newest grid
// within the tolerance at the reference's own iteration count, f, every
// guard and the padding untouched, the other buffer written (or, d_b
// returned, d_a untouched), the residual within 1e-3 of the reference's
// last check (-1 without one). Returns 1 when all hold; 0 sends every grid
// to the judge, whose verdict and hints decide. Reports the reference's residual.
static int exec_jacobi_gpu_verdict(const exec_args *a, const exec_jacobi *s, const exec_jacobi_answer *ans)
{
    if (!a->gpu_check || s->h_u0 || a->yardstick || (ans->result != 0 && ans->result != 1) || ans->iters < 0 || ans->iters > a->iters)
        return 0;
    trusted_solve problem = exec_solve_of(a);
    trusted_stop stop = exec_stop_of(a, a->scale);
    trusted_ref_end end;
    check_counts c;
    const runner_buffer *got = ans->result == 1 ? &s->b : &s->a, *other = ans->result == 1 ? &s->a : &s->b;
    trusted_jacobi_check(got->d_grid, s->f.d_base, s->a.guard, &problem, &stop, a->fill, s->check_key, &c, &end);
    if (end.residual >= 0)
        runner_report(GPU_REF_RESIDUAL_KEY, "%.9g", end.residual);
    int checks = a->check_every > 0 ? ans->iters / a->check_every : 0;
    if (c.wrong || c.guards || c.input_hash != s->f_hash || ans->iters != end.iters ||
        (checks == 0 ? ans->residual != -1.0f : !(fabs((double)ans->residual - end.residual) <= 1e-3 * end.residual)))
        return 0;
    trusted_damage d_got = trusted_solve_damage(got->d_base, s->a.guard, &problem, a->fill);
    trusted_damage d_other = trusted_solve_damage(other->d_base, s->a.guard, &problem, a->fill);
    if (d_got.damaged || d_other.damaged)
        return 0;  // (also ~0 when it could not count)
    size_t interior = (size_t)(a->n[0] - 2) * (a->n[1] - 2) * (a->heat ? a->n[2] : a->n[2] - 2);
    if (a->iters < 1 || interior == 0)
        return 1;
    return (d_got.unlike || d_other.unlike) && ans->iters > 0 && (d_other.unlike || ans->result == 1);
}

// A timed case right on the GPU: copies of the checked solve's grids, which
// go to the judge only if the timed case's last solve differs; without
// memory for them the grids are saved now and the GPU's verdict is dropped.
static void exec_jacobi_keep(const exec_args *a, exec_jacobi *s)
{
    const runner_buffer *grids[3] = {&s->a, &s->b, &s->f};
    size_t total = s->a.cells + 2 * s->a.guard;
    for (int g = 0; s->gpu_ok && a->time_reps > 0 && g < 3; g++) {
        s->kept[g] = *grids[g];
        if (cudaMalloc((void **)&s->kept[g].d_base, total * sizeof(float)) != cudaSuccess ||
            cudaMemcpy(s->kept[g].d_base, grids[g]->d_base, total * sizeof(float), cudaMemcpyDeviceToDevice) != cudaSuccess) {
            cudaGetLastError();
            s->kept[g].d_base = NULL;
            s->gpu_ok = 0;
        }
        s->kept[g].d_grid = s->kept[g].d_base ? s->kept[g].d_base + s->a.guard : NULL;
    }
}

// Saves the checked solve's three grids for the judge (from the kept copies when given).
static void exec_jacobi_save(const exec_args *a, const runner_buffer *grids)
{
    exec_save_later(&grids[0], a->outdir, CASE_JACOBI_A);
    exec_save_later(&grids[1], a->outdir, CASE_JACOBI_B);
    exec_save_later(&grids[2], a->outdir, CASE_JACOBI_F_AFTER);
}

// The checked solve: the host function once on the judge's problem, its
// launches recorded and kept as the ones the timed solves must repeat; its
// answers reported. Returns them.
static exec_jacobi_answer exec_jacobi_checked_call(const exec_args *a, const exec_jacobi *s, const char *payload, size_t len)
{
    exec_call_result res;
    launch_log_begin(NULL, 0);
    exec_launch_watch(EXEC_WATCH_LEARN);
    exec_call_checked(payload, len, &res);
    exec_keep_checked_launches();
    long launches = launch_log_end();
    exec_jacobi_answer ans = exec_jacobi_read(a, &res);
    runner_report_launches(launches);
    exec_checked_iters = ans.iters;
    runner_report_kernel_counts(launches, ans.iters);
    if (res.started)
        runner_report("launch_ms", "%.6f", res.ms), exec_checked_ms = res.ms;
    runner_report("result", "%d", ans.result);
    runner_report("iterations", "%d", ans.iters);
    runner_report("residual", "%.9g", ans.residual);
    exec_trace("trace_called");
    return ans;
}

// After the timed solves: the judge's problem once more and one last solve,
// which the judge checks itself, or (right on the GPU) the kit bit for bit
// against the checked solve's newest grid.
static void exec_jacobi_last_solve(const exec_args *a, exec_jacobi *s, const char *payload, size_t len,
                                   const exec_jacobi_answer *checked)
{
    exec_call_result res;
    exec_jacobi_judge_problem(a, s, 0);
    exec_call_checked(payload, len, &res);
    exec_jacobi_answer ans = exec_jacobi_read(a, &res);
    runner_report("timed_result", "%d", ans.result);
    const runner_buffer *got = ans.result == 1 ? &s->b : &s->a;
    if (s->gpu_ok) {
        size_t total = s->a.cells + 2 * s->a.guard;
        int same = ans.result == checked->result &&
                   trusted_count_differ(s->kept[checked->result == 1 ? 1 : 0].d_base, got->d_base, total) == 0;
        runner_report(GPU_CHECK_KEY, "%s", same ? GPU_CHECK_PASS : GPU_CHECK_FAIL);
        if (same)
            return;
        exec_jacobi_save(a, s->kept);  // right on the checked solve, not on this one: the judge gets every grid
    }
    exec_save_later(got, a->outdir, CASE_TIMED);
}

// One whole-solve case: the checked solve, its verdict on the GPU or its
// grids for the judge, then (with --time) the timing and a last solve.
static void exec_jacobi_case(const exec_args *a)
{
    exec_jacobi s;
    runner_report("bc", "%s", a->bc == LAB_BC_DIRICHLET ? "dirichlet" : a->bc == LAB_BC_NEUMANN ? "neumann" : "periodic");
    if (a->heat)
        runner_report("pitch", "%u", a->pitch);
    exec_jacobi_grids(a, &s);
    exec_begin(a, 120);
    exec_report_tiles();
    runner_check(cudaDeviceSynchronize(), "prepare the case");
    exec_trace("trace_ready");
    char payload[128];
    size_t len = exec_jacobi_payload(a, &s, payload);
    exec_jacobi_answer ans = exec_jacobi_checked_call(a, &s, payload, len);
    s.gpu_ok = exec_jacobi_gpu_verdict(a, &s, &ans);
    exec_jacobi_keep(a, &s);
    const runner_buffer grids[3] = {s.a, s.b, s.f};
    if (!a->yardstick && !s.gpu_ok)
        exec_jacobi_save(a, grids);
    if (a->gpu_check && !a->yardstick && (!s.gpu_ok || a->time_reps <= 0))
        runner_report(GPU_CHECK_KEY, "%s", s.gpu_ok ? GPU_CHECK_PASS : GPU_CHECK_FAIL);
    exec_idle_wrong = a->gpu_check && !a->yardstick && !s.gpu_ok;
    exec_trace("trace_saved");
    if (a->time_reps > 0) {
        exec_report_copy_limit();
        exec_trace("trace_copy_limit");
        exec_jacobi_time(a, &s);
        exec_trace("trace_timed");
        if (!a->yardstick)
            exec_jacobi_last_solve(a, &s, payload, len, &ans);
    }
    for (int g = 0; g < 3; g++)
        cudaFree(s.kept[g].d_base);
    trusted_ref_release();
    exec_gpu_idle();  // the turn ends; a late call (no GPU work: refused) still fails the program
    if (exec_check_late(&exec, a->time_reps > 0 ? EXEC_GRACE_MS : EXEC_GRACE_UNTIMED_MS))
        exec_fail_program();
    if (a->time_reps > 0)
        exec_trace("trace_timed_saved");
    free(s.h_u0);
    free(s.h_f);
}

// Runs case a in this process: its report, the device lines, the case.
// A failure ends the process (runner_fail) with its exit code.
static void exec_run_case(const exec_args *a)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", a->outdir, CASE_REPORT);
    runner_report_file = fopen(path, "w");
    if (!runner_report_file) {
        fprintf(stderr, "executor: cannot write %s: %s\n", path, strerror(errno));
        _exit(RUNNER_USAGE);
    }
    runner_report("backend", "gpu");
    cudaDeviceProp prop = runner_open_device();
    exec_trace("trace_device");
    snprintf(exec.device_name, sizeof(exec.device_name), "%s", prop.name);
    if (a->probe) {
        runner_report("status", "ok");
        fclose(runner_report_file);
        runner_report_file = NULL;
        return;
    }
    char why[300];
    if (a->count_loads) {  // the count's host part before the locks (exec_loads_begin tries again, and says why, on failure)
        if (exec_count_ready)
            runner_report("trace_prepared_ahead", "%d", exec_count_ready);  // (STENCIL_TRACE=1: whether the start prepared it)
        if (exec_count_ready < 0 && exec_count_ahead_why[0])
            runner_report(LOADS_AHEAD_WHY_KEY, "%s", exec_count_ahead_why);  // (and why not: a diagnosis for the kit's bench)
        exec_loads_prepare(why, sizeof(why));
        exec_trace("trace_prepared");
    }
    exec_idle_told = exec_idle_wrong = 0, exec_checked_ms = 0;
    exec_gpu_locks_take(a->gpu_locks, exec_locks);
    if (a->gpu_locks)
        exec_trace("trace_locked");  // under a tool: when its locks were taken (the wait for the profiler's shows here)
    if (a->kind == RUNNER_KIND_JACOBI)
        exec_jacobi_case(a);
    else
        exec_sweep_case(a);
    exec_stop(&exec);
    exec_gpu_idle();  // (most cases said so already, before their wait for a late call)
    exec_trace("trace_end");
    runner_report("status", "ok");
    fclose(runner_report_file);
    runner_report_file = NULL;
}

// Reads one request (protocol.h: its length, a newline, its NUL-ended
// arguments) into block and argv (argv[0] the executor's name). Returns the
// argument count with argv[0], 0 at end of input; exits on a malformed one.
static int exec_read_request(int fd, char *block, char **argv)
{
    int argc = exec_args_read_request(fd, block, argv);
    if (argc < 0) {
        fprintf(stderr, "executor: a malformed request from the judge\n");
        _exit(RUNNER_USAGE);
    }
    return argc;
}

// Points this process's output at path (a served case's log) under a file
// size limit of bytes (0: none); exits if it cannot.
static void exec_redirect_output(const char *path, unsigned long long bytes)
{
    fflush(NULL);
    struct rlimit fsize;
    getrlimit(RLIMIT_FSIZE, &fsize);
    fsize.rlim_cur = bytes ? (rlim_t)bytes : fsize.rlim_max;  // soft only: the next case may need more
    if (bytes && fsize.rlim_max != RLIM_INFINITY && fsize.rlim_cur > fsize.rlim_max)
        fsize.rlim_cur = fsize.rlim_max;
    setrlimit(RLIMIT_FSIZE, &fsize);
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    if (path && fd < 0) {
        fprintf(stderr, "executor: cannot write %s: %s\n", path, strerror(errno));
        _exit(RUNNER_USAGE);
    }
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
}

// --serve: the device once (the probe's answer first, its report in
// --outdir when given), then every case the judge sends, one at a time,
// each answered PROTOCOL_SERVE_DONE. A case that fails ends the process
// with its code; end of input ends it with RUNNER_OK.
static int exec_serve(const exec_args *first)
{
    static char block[PROTOCOL_SERVE_MAX_BYTES];
    char *argv[PROTOCOL_SERVE_MAX_ARGS + 2] = {(char *)"executor"};
    const char done = PROTOCOL_SERVE_DONE;
    int requests = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10), replies = fcntl(PROTOCOL_SERVE_REPLY_FD, F_DUPFD_CLOEXEC, 10);
    int devnull = open("/dev/null", O_RDONLY);
    if (requests < 0 || replies < 0 || devnull < 0) {
        fprintf(stderr, "executor: --serve needs its requests on stdin and fd %d for its answers\n", PROTOCOL_SERVE_REPLY_FD);
        return RUNNER_USAGE;
    }
    dup2(devnull, STDIN_FILENO);  // the program it serves must not read the judge's requests
    close(devnull);
    close(PROTOCOL_SERVE_REPLY_FD);
    signal(SIGPIPE, SIG_IGN);
    exec_args probe = *first;
    probe.probe = 1;
    if (probe.outdir) {
        exec_run_case(&probe);
    } else {
        runner_open_device();  // the context, made now (the judge builds meanwhile); failures come with the first case
        cudaGetLastError();
        char why[300];
        if (first->count_loads)  // an executor that will count: the count's host side now too (the first count says why on failure)
            exec_count_ready = exec_loads_prepare(why, sizeof(why)) == 0 ? 1 : -1;
        if (exec_count_ready < 0) {
            snprintf(exec_count_ahead_why, sizeof(exec_count_ahead_why), "%s", why);
            for (char *c = exec_count_ahead_why; *c; c++)
                *c = *c == '\n' || *c == '\r' ? ' ' : *c;  // one report line
        }
    }
    exec.child = -1, exec.to_child = exec.from_child = -1;
    if (write(replies, &done, 1) != 1)
        return RUNNER_OK;
    exec_replies = replies;  // a case's PROTOCOL_SERVE_GPU_IDLE goes there too (exec_gpu_idle)
    for (;;) {
        int argc = exec_read_request(requests, block, argv);
        if (argc == 0)
            return RUNNER_OK;
        exec_args a = exec_parse(argc, argv);
        exec_redirect_output(a.log, a.file_bytes);
        exec_t0 = exec_clock();
        exec_nset = 0;
        exec_run_case(&a);
        exec_release(&exec);
        fflush(NULL);
        if (write(replies, &done, 1) != 1)
            return RUNNER_OK;  // the judge is gone
    }
}

int main(int argc, char **argv)
{
    exec_t0 = exec_clock();
    exec_args a = exec_parse(argc, argv);
    sandbox_protect_self();
    if (a.serve)
        return exec_serve(&a);
    exec_run_case(&a);
    return RUNNER_OK;
}
