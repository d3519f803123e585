// tests/fakes/gpu_executor.c — a test double of grader/executor/ as the
// judge sees it, for tests/fake_gpu.sh on a machine without a GPU. Built by
// tests/fakes/gpu_build.mk into a throw-away kit's build/gpu/, never into
// the kit's own. It speaks the executor's side of grader/protocol/protocol.h
// (`--serve`: the probe's answer, then one request a case; or one case on
// its command line, as under Nsight Compute or compute-sanitizer), gets the
// case's grids by running the "student's program" that gpu_build.mk built
// (the emulation runner of the student's file, which writes the case files
// and launch records as a runner does), and adds what only a GPU gives:
// the timed repetitions' figures and output, the GPU check's sample.
//
// STENCIL_FAKE_GPU chooses what the run shows the judge (default ok):
//   ok         the emulation's grids, timed at STENCIL_FAKE_GPU_GBS (default 1000) GB/s
//   wrong      one interior cell of the checked output off by one
//   wrong-plane  the middle z plane's interior (radius 1) off by one: wrong
//              values in one whole plane, as a race can leave them
//   rep-wrong  a timed repetition's output wrong (RUNNER_REP_WRONG)
//   rep-launch a timed repetition launched otherwise than the checked call
//   crash      the student's program killed by a signal (RUNNER_VIOLATION)
//   fault      an illegal address in the kernel (RUNNER_KERNEL_FAULT)
//   refused    a call the lab forbids (RUNNER_REFUSED)
//   late-call  a call after the host function returned (RUNNER_VIOLATION)
//   no-memory  the grids do not fit (RUNNER_NO_MEMORY)
//   hang       never answers (the judge's time limit ends it)
//   killed     the executor itself killed by a signal, nothing reported
//   no-output  the case said finished, its output grid missing
//   gpu-check  --gpu-check said right: only the sample's units come back
//   gpu-wrong  a wrong output; with --gpu-check (a large case), as the executor
//              leaves one its check found wrong: reported so, the input found
//              as drawn (GPU_CHECK_INPUT_KEPT_KEY: no in_after file), and its
//              GPU work ending with that word (PROTOCOL_SERVE_GPU_IDLE_WRONG)
//   fill-differs  the input drawn from --fill reported with another sum
//   no-gpu     the probe finds no device (RUNNER_NO_GPU)
// STENCIL_FAKE_LONG_TURN_MS holds a sanitizer's long turn that long after its
// run (its GPU work); STENCIL_FAKE_LOCKS_GAVE_LOG logs when each case's own
// locks were given back ("gave=<wall clock> <locks>").
// STENCIL_FAKE_PROBE_MS delays the probe's answer (a CUDA context's making);
// STENCIL_FAKE_PROBE_LOG logs its start and its answer, with the time.
// STENCIL_FAKE_GPU_SIZE=NX,NY,NZ limits the mode to cases of that size; a
// yardstick run (--yardstick, the lab's solution timed) is always ok.
// Served, a case that ended well says its GPU work is over
// (PROTOCOL_SERVE_GPU_IDLE), then does STENCIL_FAKE_HOST_MS (default 0) of
// host work before it answers done, as a timed case's wait for a late call;
// with STENCIL_FAKE_LOCKS_LOG, both moments are logged there ("idle", "done").
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu_locks.h"
#include "grid_fill.h"
#include "pipe_io.h"
#include "protocol.h"

#define FAKE_COPY_LIMIT_GBS 3000.0   // the copy limit every timed case reports
#define FAKE_DEFAULT_GBS 1000.0      // the student's and the solution's speed unless STENCIL_FAKE_GPU_GBS says
#define FAKE_MAX_ARGS (PROTOCOL_SERVE_MAX_ARGS + 2)

typedef struct fake_case {
    const char *outdir;              // --outdir: the case folder
    const char *student;             // --student: the program built from the student's file
    const char *size;                // --size as given ("NX,NY,NZ")
    unsigned n[3];                   // nx, ny, nz
    unsigned pitch;                  // --pitch (a heat grid's row), else nx
    int time_reps;                   // --time: timed repetitions, 0 untimed
    int yardstick;                   // --yardstick: the solution, its times only
    int gpu_check;                   // --gpu-check given
    unsigned units[GPU_CHECK_MAX_UNITS]; // its units (protocol_sample_unit_of: z-planes, or rows of a 2D grid)
    int nunits;                      // how many
    int jacobi;                      // --kind jacobi: a whole solve
    const char *log;                 // --log: a served case's output
    const char *gpu_locks;           // GPU_LOCKS_OPTION: the locks taken around the case's GPU work, NULL: none
    const char *fill;                // FILL_OPTION: the seed (hexadecimal) the input is drawn from, NULL: none
    int bc;                          // --bc as LAB_BC_* (0 dirichlet, 1 neumann, 2 periodic)
    float h;                         // --h
    int heat;                        // --update heat2d
    int gpu_check_solve;             // --gpu-check GPU_CHECK_SOLVE: the solve judged here
    int count_loads;                 // LOADS_OPTION: the loads counted here
    char *pass[FAKE_MAX_ARGS];       // the student's program and the arguments it takes, NULL-ended
} fake_case;

// The mode this case runs in: STENCIL_FAKE_GPU, unless the case is a
// yardstick or STENCIL_FAKE_GPU_SIZE names another size.
static const char *fake_mode(const fake_case *c)
{
    const char *mode = getenv("STENCIL_FAKE_GPU"), *only = getenv("STENCIL_FAKE_GPU_SIZE");
    if (!mode || !*mode || c->yardstick || (only && *only && c->size && strcmp(only, c->size) != 0))
        return "ok";
    return mode;
}

// Appends one key=value line to the case's report (the last line of a key is the one read).
static void fake_report(const fake_case *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fake_report(const fake_case *c, const char *key, const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_REPORT);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    fprintf(f, "%s=", key);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fprintf(f, "\n");
    fclose(f);
}

// Ends the case as the executor ends a failed one: its stage and error, exit code.
static void fake_fail(const fake_case *c, int code, const char *stage, const char *error)
{
    fake_report(c, "error_stage", "%s", stage);
    fake_report(c, "error", "%s", error);
    fprintf(stderr, "runner: %s: %s\n", stage, error);
    fflush(NULL);
    _exit(code);
}

// Takes what c needs of option o, whose value is v ("" when it has none).
static void fake_take_option(fake_case *c, const char *o, const char *v)
{
    if (!strcmp(o, "--outdir")) c->outdir = v;
    else if (!strcmp(o, "--student")) c->student = v;
    else if (!strcmp(o, "--kind")) c->jacobi = runner_kind_of(v) == RUNNER_KIND_JACOBI;
    else if (!strcmp(o, "--size")) c->size = v, sscanf(v, "%u,%u,%u", &c->n[0], &c->n[1], &c->n[2]);
    else if (!strcmp(o, "--pitch")) c->pitch = (unsigned)atoi(v);
    else if (!strcmp(o, "--time")) c->time_reps = atoi(v);
    else if (!strcmp(o, "--log")) c->log = v;
    else if (!strcmp(o, "--yardstick")) c->yardstick = 1;
    else if (!strcmp(o, GPU_LOCKS_OPTION)) c->gpu_locks = v;
    else if (!strcmp(o, FILL_OPTION)) c->fill = v;
    else if (!strcmp(o, LOADS_OPTION)) c->count_loads = 1;
    else if (!strcmp(o, "--bc")) c->bc = !strcmp(v, "neumann") ? 1 : !strcmp(v, "periodic") ? 2 : 0;
    else if (!strcmp(o, "--h")) c->h = strtof(v, NULL);
    else if (!strcmp(o, "--update")) c->heat = !strcmp(v, UPDATE_HEAT2D);
    else if (!strcmp(o, "--gpu-check") && !strcmp(v, GPU_CHECK_SOLVE)) c->gpu_check_solve = 1;
    else if (!strcmp(o, "--gpu-check")) {
        c->gpu_check = 1;
        for (const char *p = v; *p && c->nunits < GPU_CHECK_MAX_UNITS; p += strcspn(p, ","), p += *p == ',')
            c->units[c->nunits++] = (unsigned)atoi(p);
    }
}

// 1 if option o is the executor's own, which the student's program does not take.
static int fake_executor_only(const char *o)
{
    static const char *const own[] = {"--kind", "--student", "--accuracy", "--time-budget", "--time", "--gpu-check",
                                      "--log", "--file-bytes", "--yardstick", "--serve", GPU_LOCKS_OPTION, FILL_OPTION, "--scale", LOADS_OPTION, NULL};
    for (int k = 0; own[k]; k++)
        if (!strcmp(o, own[k]))
            return 1;
    return 0;
}

// Parses the case's arguments (argv[0] the executor's name) into c; the
// student's arguments are the case's own, less the executor's options.
// Returns 0, or -1 when the case folder or the student's program is missing.
static int fake_parse(int argc, char **argv, fake_case *c)
{
    int np = 1;
    memset(c, 0, sizeof(*c));
    for (int i = 1; i < argc; i++) {
        int valued = i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0;
        fake_take_option(c, argv[i], valued ? argv[i + 1] : "");
        if (!fake_executor_only(argv[i]) && np + 2 < FAKE_MAX_ARGS) {
            c->pass[np++] = argv[i];
            if (valued)
                c->pass[np++] = argv[i + 1];
        }
        i += valued;
    }
    c->pass[0] = (char *)c->student;
    c->pass[np] = NULL;
    if (!c->pitch)
        c->pitch = c->n[0];
    return c->outdir && c->student ? 0 : -1;
}

// Runs the student's program (the emulation runner) on the case; returns its exit code, -1 if it could not run.
static int fake_run_student(const fake_case *c)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execv(c->pass[0], c->pass);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The cells a grid of c holds as stored (rows of pitch floats), without its guards.
static size_t fake_cells(const fake_case *c)
{
    return (size_t)c->pitch * c->n[1] * c->n[2];
}

// The guard cells on each side of c's grids.
static size_t fake_guard(const fake_case *c)
{
    return (size_t)protocol_guard_cells((unsigned long long)c->pitch * c->n[1]);
}

// The number the case's report (as the student's program left it) gives key, or fallback.
static double fake_report_number(const fake_case *c, const char *key, double fallback)
{
    char path[4096], line[256];
    size_t n = strlen(key);
    double value = fallback;
    snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_REPORT);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, key, n) && line[n] == '=')
            value = atof(line + n + 1);
    if (f)
        fclose(f);
    return value;
}

// The file of the case's checked output: out.bin, or the newest buffer of a whole solve (its report's result=).
static const char *fake_output_name(const fake_case *c)
{
    if (!c->jacobi)
        return CASE_OUTPUT;
    return fake_report_number(c, "result", 0) == 1 ? CASE_JACOBI_B : CASE_JACOBI_A;
}

// Adds delta to the middle cell of dir's grid name (guarded, as the runner saved it).
static void fake_change_cell(const fake_case *c, FILE *f, size_t j, size_t k, float delta)
{
    float v = 0;
    long at = (long)(fake_guard(c) + ((size_t)c->n[2] / 2 * c->n[1] + j) * c->pitch + k) * (long)sizeof(float);
    if (fseek(f, at, SEEK_SET) != 0 || fread(&v, sizeof(v), 1, f) != 1)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not change the output grid");
    v += delta;
    fseek(f, at, SEEK_SET);
    fwrite(&v, sizeof(v), 1, f);
}

// Adds delta to the middle cell of the output grid, or with plane to every
// interior cell (radius 1) of the middle z plane.
static void fake_change_middle(const fake_case *c, const char *name, float delta, int plane)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", c->outdir, name);
    FILE *f = fopen(path, "r+b");
    if (!f)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not open the output grid");
    for (size_t j = plane ? 1 : c->n[1] / 2; j <= (plane ? c->n[1] - 2 : c->n[1] / 2); j++)
        for (size_t k = plane ? 1 : c->n[0] / 2; k <= (plane ? c->n[0] - 2 : c->n[0] / 2); k++)
            fake_change_cell(c, f, j, k, delta);
    fclose(f);
}

// Copies dir/from to dir/to; exits RUNNER_USAGE if it cannot.
static void fake_copy(const fake_case *c, const char *from, const char *to)
{
    char src[4096], dst[4096], buf[1 << 16];
    size_t n;
    snprintf(src, sizeof(src), "%s/%s", c->outdir, from);
    snprintf(dst, sizeof(dst), "%s/%s", c->outdir, to);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        fwrite(buf, 1, n, out);
    if (!in || !out || (out && fclose(out) != 0))
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not copy a grid");
    fclose(in);
}

// --gpu-check said right: the sample's units alone come back, as the executor leaves them.
static void fake_sample(const fake_case *c)
{
    char path[4096], sample[4096];
    protocol_sample_unit unit = protocol_sample_unit_of(c->n[0], c->n[1], c->n[2]);
    float *h = malloc(unit.cells * sizeof(float));
    snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_OUTPUT);
    snprintf(sample, sizeof(sample), "%s/%s", c->outdir, CASE_SAMPLE);
    FILE *in = fopen(path, "rb"), *out = fopen(sample, "wb");
    for (int q = 0; h && in && out && q < c->nunits; q++)
        if (fseek(in, (long)((fake_guard(c) + c->units[q] * unit.stride) * sizeof(float)), SEEK_SET) != 0 ||
            fread(h, sizeof(float), unit.cells, in) != unit.cells || fwrite(h, sizeof(float), unit.cells, out) != unit.cells)
            fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the sample");
    if (!h || !in || !out || fclose(out) != 0)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the sample");
    fclose(in);
    free(h);
    unlink(path);
    snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_INPUT_AFTER);
    unlink(path);
    fake_report(c, GPU_CHECK_KEY, "%s", GPU_CHECK_PASS);
}

// A count's run the GPU check found wrong (STENCIL_FAKE_LOADS=gpu-check-wrong):
// as the executor leaves it, no grid comes back, the check's word alone.
static void fake_count_wrong_on_gpu(const fake_case *c)
{
    static const char *const grids[] = {CASE_OUTPUT, CASE_INPUT_AFTER};
    char path[4096];
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof(path), "%s/%s", c->outdir, grids[k]);
        unlink(path);
    }
    fake_report(c, GPU_CHECK_KEY, "%s", GPU_CHECK_FAIL);
}

// The timed repetitions: their figures at the mode's speed and the last call's output.
static void fake_timed(const fake_case *c, const char *mode)
{
    const char *gbs_text = getenv("STENCIL_FAKE_GPU_GBS");
    double gbs = gbs_text && !c->yardstick ? atof(gbs_text) : FAKE_DEFAULT_GBS;
    double iters = 1;
    if (!strcmp(mode, "rep-wrong")) {
        fake_report(c, "timed_rep_failed", "%d", 3);
        fake_report(c, "timed_rep_wrong", "%d", 1);
        fake_report(c, "timed_rep_unwritten", "0"), fake_report(c, "timed_rep_boundary", "0");
        fake_report(c, "timed_rep_guards", "0"), fake_report(c, "timed_rep_input_changed", "0");
        fake_report(c, "timed_rep_first", "%u,%u,%u", c->n[2] / 2, c->n[1] / 2, c->n[0] / 2);
        fake_fail(c, RUNNER_REP_WRONG, "timed", "repetition 3 of the timed launches gave a wrong output");
    }
    if (!strcmp(mode, "rep-launch")) {
        fake_report(c, "timed_rep_launch", "timed repetition 2 launched stencil_kernel with another grid than the checked call");
        fake_fail(c, RUNNER_REP_WRONG, "timed", "repetition 2 of the timed launches launched otherwise");
    }
    if (c->jacobi) {
        char line[64];
        const char *newest = fake_output_name(c);
        snprintf(line, sizeof(line), "%d", strcmp(newest, CASE_JACOBI_B) == 0);
        fake_copy(c, newest, CASE_TIMED);
        fake_report(c, "timed_result", "%s", line);
    } else if (!c->gpu_check || strcmp(mode, "gpu-check") != 0) {
        fake_copy(c, CASE_OUTPUT, CASE_TIMED);
    }
    fake_report(c, "bandwidth_gbs", "%.1f", FAKE_COPY_LIMIT_GBS);
    fake_report(c, "bandwidth_kernel_gbs", "%.1f", FAKE_COPY_LIMIT_GBS);
    fake_report(c, "bandwidth_memcpy_gbs", "%.1f", FAKE_COPY_LIMIT_GBS * 0.9);
    fake_report(c, "bandwidth_by", "%s", COPY_LIMIT_BY_KERNEL);
    double ms = 8.0 * (double)fake_cells(c) / (gbs * 1e9) * 1e3;
    if (c->jacobi) {
        iters = fake_report_number(c, "iterations", 1);
        fake_report(c, "timed_iterations", "%.0f", iters);
        fake_report(c, "time_per_iter_ms", "%.6f", ms);
    }
    fake_report(c, "timed_reps_checked", "%d", c->time_reps + 3);
    fake_report(c, "time_reps", "%d", c->time_reps);
    fake_report(c, "time_ms_median", "%.6f", ms * iters);
    fake_report(c, "time_ms_min", "%.6f", ms * iters * 0.97);
    fake_report(c, "time_ms_max", "%.6f", ms * iters * 1.05);
}

// The modes that end a case before its grids: each as the executor reports it.
static void fake_fail_by_mode(const fake_case *c, const char *mode)
{
    if (!strcmp(mode, "hang"))
        for (;;)
            pause();
    if (!strcmp(mode, "killed"))
        kill(getpid(), SIGKILL);
    if (!strcmp(mode, "crash")) {
        fake_report(c, "violation_kind", "program-ended");
        fake_fail(c, RUNNER_VIOLATION, "program", "the program was killed by signal 11 (Segmentation fault) during the call");
    }
    if (!strcmp(mode, "late-call")) {
        fake_report(c, "violation_kind", "late-call");
        fake_fail(c, RUNNER_VIOLATION, "program", "cudaLaunchKernel after the host function returned");
    }
    if (!strcmp(mode, "fault"))
        fake_fail(c, RUNNER_KERNEL_FAULT, "execute", "an illegal memory access was encountered (cudaErrorIllegalAddress)");
    if (!strcmp(mode, "refused"))
        fake_fail(c, RUNNER_REFUSED, "refused", "cudaStreamCreate: streams are not allowed in this lab");
    if (!strcmp(mode, "no-memory"))
        fake_fail(c, RUNNER_NO_MEMORY, "memory", "cannot allocate 9.00 GiB on the device (8.00 GiB free of 8.00 GiB)");
}

// Writes n floats to f, adding their terms under key (grid_fill_term, from
// index *at on) to *sum; returns 0, or -1 when it cannot.
static int fake_write_cells(FILE *f, const float *v, size_t n, uint64_t key, uint64_t *at, uint64_t *sum)
{
    for (size_t q = 0; q < n; q++) {
        uint32_t bits;
        memcpy(&bits, &v[q], sizeof(bits));
        *sum += grid_fill_term(key, (*at)++, bits);
    }
    return fwrite(v, sizeof(float), n, f) == n ? 0 : -1;
}

// FILL_OPTION for a whole solve: writes u0 and f as the executor draws them
// (grid_fill.h) into CASE_INPUT and CASE_JACOBI_F, rows padded to the pitch;
// returns their plain sum (u0 under key 0, f under key 1).
static uint64_t fake_draw_solve(const fake_case *c)
{
    char upath[4096], fpath[4096];
    uint64_t seed = strtoull(c->fill, NULL, 16), sum = 0, at_u = 0, at_f = 0;
    unsigned nx = c->n[0], ny = c->n[1], nz = c->n[2], pitch = c->pitch ? c->pitch : nx;
    float *urow = malloc(pitch * sizeof(float)), *frow = malloc(pitch * sizeof(float));
    snprintf(upath, sizeof(upath), "%s/%s", c->outdir, CASE_INPUT);
    snprintf(fpath, sizeof(fpath), "%s/%s", c->outdir, CASE_JACOBI_F);
    FILE *uf = fopen(upath, "wb"), *ff = fopen(fpath, "wb");
    int bad = !urow || !frow || !uf || !ff;
    uint32_t pad = PAD_BITS;
    for (unsigned i = 0; i < nz && !bad; i++)
        for (unsigned j = 0; j < ny && !bad; j++) {
            for (unsigned k = 0; k < pitch; k++)
                memcpy(&urow[k], &pad, sizeof(pad)), memcpy(&frow[k], &pad, sizeof(pad));
            for (unsigned k = 0; k < nx; k++) {
                uint64_t at = ((uint64_t)i * ny + j) * nx + k;
                int e = c->heat ? protocol_heat_edge(j, k, nx, ny) : -1;
                uint64_t src = ((uint64_t)grid_fill_source(i, nz, c->bc) * ny + grid_fill_source(j, ny, c->bc)) * nx +
                               grid_fill_source(k, nx, c->bc);
                urow[k] = c->heat ? (e >= 0 ? grid_fill_heat_edge(seed, e) : grid_fill_solve_u0(seed, at))
                                  : grid_fill_solve_u0(seed, src);
                frow[k] = c->heat ? 0.0f : grid_fill_solve_f(seed, at, c->h);
            }
            bad = fake_write_cells(uf, urow, nx, 0, &at_u, &sum) != 0 || fake_write_cells(ff, frow, nx, 1, &at_f, &sum) != 0 ||
                  fwrite(urow + nx, sizeof(float), pitch - nx, uf) != pitch - nx ||
                  fwrite(frow + nx, sizeof(float), pitch - nx, ff) != pitch - nx;
        }
    bad |= (uf && fclose(uf) != 0) | (ff && fclose(ff) != 0);
    free(urow);
    free(frow);
    if (bad)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the problem");
    return sum;
}

// FILL_OPTION: writes the input the executor draws on the GPU (grid_fill.h)
// as CASE_INPUT, the file the student's program (an emulation runner) reads;
// returns its plain sum.
static uint64_t fake_draw_input(const fake_case *c)
{
    if (c->jacobi)
        return fake_draw_solve(c);
    char path[4096];
    uint64_t seed = strtoull(c->fill, NULL, 16), sum = 0;
    size_t cells = fake_cells(c);
    snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_INPUT);
    FILE *f = fopen(path, "wb");
    if (!f)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the input");
    for (size_t i = 0; i < cells; i++) {
        float v = grid_fill_value(seed, i);
        uint32_t bits;
        memcpy(&bits, &v, sizeof(bits));
        sum += grid_fill_term(0, i, bits);
        if (fwrite(&v, sizeof(v), 1, f) != 1)
            fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the input");
    }
    if (fclose(f) != 0)
        fake_fail(c, RUNNER_USAGE, "files", "the fake executor could not write the input");
    return sum;
}

// --gpu-check GPU_CHECK_SOLVE: under the gpu-check mode the solve is right on
// the GPU (gpu_check=pass, the student's residual as the reference's, no
// grid left for the judge); otherwise it is not, and every grid stays.
static void fake_judge_solve(const fake_case *c, const char *mode)
{
    static const char *const grids[] = {CASE_JACOBI_A, CASE_JACOBI_B, CASE_JACOBI_F_AFTER, CASE_TIMED};
    char path[4096];
    if (strcmp(mode, "gpu-check") != 0) {
        fake_report(c, GPU_CHECK_KEY, "%s", GPU_CHECK_FAIL);
        return;
    }
    if (fake_report_number(c, "residual", -1) >= 0)
        fake_report(c, GPU_REF_RESIDUAL_KEY, "%.9g", fake_report_number(c, "residual", -1));
    fake_report(c, GPU_CHECK_KEY, "%s", GPU_CHECK_PASS);
    for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
        snprintf(path, sizeof(path), "%s/%s", c->outdir, grids[g]);
        unlink(path);
    }
}

// Runs one case; returns its exit code (RUNNER_OK when the judge's files are all there).
// The loads LOADS_OPTION asks for, as the fake ncu counts them
// (STENCIL_FAKE_NCU_LOADS=G,S floats from global and shared memory a cell,
// 2,7 when unset); STENCIL_FAKE_LOADS=missing: why there are none instead
// (no CUPTI: the machine cannot count), busy: the counters another
// profiler's all the while, launches: more launches than the profiler's
// ranges, fault: CUPTI failed after the call, unnamed: a reason without its kind,
// crash: the count's run killed by a signal; gpu-check-wrong: a count's run
// with a GPU check found wrong there (no grids); busy-once: busy the first time
// (STENCIL_FAKE_LOADS_STATE names the file that remembers it), counted after;
// other-launch: the counted run's first launch another kernel's; late: the
// counts, though its preparation at the executor's start had failed (and why).
static void fake_count_loads(const fake_case *c)
{
    static const struct { const char *how, *why; int kind; } missing[] = {
        {"missing", "CUPTI (libcupti, part of the CUDA Toolkit) could not be opened: a fake's", LOADS_MISSING_CANNOT},
        {"busy", "cuptiRangeProfilerStart failed: CUPTI_ERROR_HARDWARE_BUSY (a fake's)", LOADS_MISSING_BUSY},
        {"launches", "the profiler counted 64 of the call's 65 launches (it holds 64; 1 dropped) (a fake's)", LOADS_MISSING_LAUNCHES},
        {"fault", "cuptiRangeProfilerDecodeData failed: CUPTI_ERROR_UNKNOWN (a fake's)", LOADS_MISSING_FAULT},
        {"unnamed", "a reason without its kind (a fake's)", -1}};
    const char *how = getenv("STENCIL_FAKE_LOADS"), *per = getenv("STENCIL_FAKE_NCU_LOADS");
    double global = 2, shared = 7, cells = (double)c->n[0] * c->n[1] * c->n[2];
    if (how && !strcmp(how, "crash"))  // the count's run ends by a signal: no stage, no report of its own
        kill(getpid(), SIGKILL);
    const char *once = getenv("STENCIL_FAKE_LOADS_STATE");
    if (how && !strcmp(how, "busy-once") && once) {  // busy the first time (the file made), counted after
        int fd = open(once, O_WRONLY | O_CREAT | O_EXCL, 0644);
        how = fd >= 0 ? "busy" : "counted";
        if (fd >= 0)
            close(fd);
    }
    for (size_t k = 0; how && k < sizeof(missing) / sizeof(missing[0]); k++)
        if (!strcmp(how, missing[k].how)) {
            fake_report(c, LOADS_MISSING_KEY, "%s", missing[k].why);
            if (missing[k].kind >= 0)
                fake_report(c, LOADS_MISSING_KIND_KEY, "%s", loads_missing_kind_names[missing[k].kind]);
            return;
        }
    if (how && !strcmp(how, "late"))  // as the executor says it when its start could not prepare the count
        fake_report(c, LOADS_AHEAD_WHY_KEY, "%s", "CUPTI_ERROR_NOT_READY: a fake's, with a\033[31m control");
    if (how && !strcmp(how, "other-launch"))  // a program that launches another kernel when counted (the last value counts)
        fake_report(c, "launch.0", "kernel=counted_kernel grid=1,1,1 block=32,1,1 dynamic_smem=0 static_smem=0 regs=8");
    if (per && sscanf(per, "%lf,%lf", &global, &shared) != 2)
        global = 2, shared = 7;
    fake_report(c, LOADS_GLOBAL_KEY, "%.0f", cells * global * 4);
    fake_report(c, LOADS_ASYNC_KEY, "0");
    fake_report(c, LOADS_SHARED_KEY, "%.0f", cells * shared * 4);
}

static int fake_case_run(const fake_case *c)
{
    const char *mode = fake_mode(c);
    int locks[GPU_LOCKS_FILES] = {-1, -1, -1, -1, -1};
    if (c->gpu_locks && gpu_locks_take(c->gpu_locks, locks) != 0)  // as the executor does, around the GPU work
        fake_fail(c, RUNNER_USAGE, "kit", "the fake executor could not take the GPU locks");
    const char *locks_log = getenv("STENCIL_FAKE_LOCKS_LOG");  // the locks each case took, for tests/fake_gpu.sh
    FILE *log = locks_log ? fopen(locks_log, "a") : NULL;
    if (log) {  // each case, led by the wall clock when its locks were held (the judge's gpu_turns' clock);
                // "-": it took none of its own (it runs inside a judge's turn)
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(log, "at=%.6f %s%s%s%s\n", (double)now.tv_sec + now.tv_nsec * 1e-9, c->gpu_locks ? c->gpu_locks : "-",
                c->yardstick ? " yardstick" : "", c->time_reps > 0 ? " timed" : "", c->count_loads ? " count-loads" : "");
        fclose(log);
    }
    fake_fail_by_mode(c, mode);
    uint64_t sum = c->fill ? fake_draw_input(c) : 0;
    int code = fake_run_student(c);
    const char *hold = getenv("STENCIL_FAKE_LONG_TURN_MS"), *kind = c->gpu_locks ? strrchr(c->gpu_locks, ',') : NULL;
    if (hold && kind && !strcmp(kind, ",long")) {  // a sanitizer's run on the GPU, as long as the real one's can be
        struct timespec nap = {atoi(hold) / 1000, (atoi(hold) % 1000) * 1000000L};
        nanosleep(&nap, NULL);
    }
    gpu_locks_give(locks);  // as the executor does
    const char *gave_log = getenv("STENCIL_FAKE_LOCKS_GAVE_LOG");
    FILE *gave = gave_log && c->gpu_locks ? fopen(gave_log, "a") : NULL;
    if (gave) {  // when the locks taken above were given back, with the same words
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(gave, "gave=%.6f %s\n", (double)now.tv_sec + now.tv_nsec * 1e-9, c->gpu_locks);
        fclose(gave);
    }
    fake_report(c, "backend", "gpu");
    if (c->fill)
        fake_report(c, INPUT_SUM_KEY, "%llu", (unsigned long long)(sum + !strcmp(mode, "fill-differs")));
    if (code != RUNNER_OK)
        return code < 0 ? RUNNER_USAGE : code;
    if (!strcmp(mode, "wrong") || !strcmp(mode, "gpu-wrong") || !strcmp(mode, "wrong-plane"))
        fake_change_middle(c, fake_output_name(c), 1.0f, !strcmp(mode, "wrong-plane"));
    if (!strcmp(mode, "gpu-wrong") && c->gpu_check && !c->gpu_check_solve) {  // as the executor leaves it
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", c->outdir, CASE_INPUT_AFTER);
        unlink(path);
        fake_report(c, GPU_CHECK_KEY, "%s", GPU_CHECK_FAIL);
        fake_report(c, GPU_CHECK_INPUT_KEPT_KEY, "1");
    }
    if (!strcmp(mode, "no-output")) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", c->outdir, fake_output_name(c));
        unlink(path);
    }
    if (c->count_loads)
        fake_count_loads(c);
    const char *loads_how = getenv("STENCIL_FAKE_LOADS");
    if (c->count_loads && c->gpu_check && loads_how && !strcmp(loads_how, "gpu-check-wrong")) {
        fake_count_wrong_on_gpu(c);
        return RUNNER_OK;
    }
    if (c->time_reps > 0)
        fake_timed(c, mode);
    if (c->gpu_check && !c->gpu_check_solve && !strcmp(mode, "gpu-check"))
        fake_sample(c);
    if (c->gpu_check_solve)
        fake_judge_solve(c, mode);
    return RUNNER_OK;
}

// With STENCIL_FAKE_PROBE_LOG, appends "what nanoseconds" (the real-time clock) there.
static void fake_probe_moment(const char *what)
{
    const char *path = getenv("STENCIL_FAKE_PROBE_LOG");
    FILE *log = path ? fopen(path, "a") : NULL;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (log)
        fprintf(log, "%s %lld\n", what, (long long)now.tv_sec * 1000000000ll + now.tv_nsec), fclose(log);
}

// The device probe's report into dir (a fake GPU, or none under the no-gpu mode),
// after STENCIL_FAKE_PROBE_MS milliseconds (default 0: a context's making);
// its start and its answer logged (fake_probe_moment).
static int fake_probe(const char *dir)
{
    char path[4096];
    const char *mode = getenv("STENCIL_FAKE_GPU"), *ms = getenv("STENCIL_FAKE_PROBE_MS");
    fake_probe_moment("probe-start");
    if (ms) {
        struct timespec nap = {atoi(ms) / 1000, (atoi(ms) % 1000) * 1000000L};
        nanosleep(&nap, NULL);
    }
    int no_gpu = mode && !strcmp(mode, "no-gpu");
    snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", CASE_REPORT);
    FILE *f = dir ? fopen(path, "w") : NULL;
    if (f && no_gpu)
        fprintf(f, "backend=gpu\nerror_stage=device\nerror=no CUDA-capable device is detected (cudaErrorNoDevice)\n");
    else if (f)
        fprintf(f, "backend=gpu\ndevice=Fake GPU (tests/fakes)\ncompute_capability=9.0\nsm_count=4\nl2_bytes=1048576\n"
                   "global_mem_bytes=8589934592\ndriver_version=0.0\nruntime_version=0.0\nstatus=ok\n");
    if (f)
        fclose(f);
    fake_probe_moment("probe-answer");
    return no_gpu ? RUNNER_NO_GPU : RUNNER_OK;
}

// Reads one request (protocol.h's: length, newline, NUL-ended arguments) into argv; 0 at the end of input.
static int fake_read_request(char *block, char **argv)
{
    char head[24];
    size_t used = 0, len = 0;
    while (used + 1 < sizeof(head) && pipe_read_all(STDIN_FILENO, head + used, 1) == 0 && head[used] != '\n')
        used++;
    head[used] = '\0';
    if (!used || sscanf(head, "%zu", &len) != 1 || len == 0 || len > PROTOCOL_SERVE_MAX_BYTES ||
        pipe_read_all(STDIN_FILENO, block, len) != 0)
        return 0;
    int argc = 1;
    for (size_t at = 0; at < len && argc < FAKE_MAX_ARGS - 1; at += strlen(block + at) + 1)
        argv[argc++] = block + at;
    argv[argc] = NULL;
    return argc;
}

// Under the fake Nsight Compute (tests/fakes/tools/ncu), which cannot see a
// served case's arguments: appends the case's size to the file it names.
static void fake_tell_ncu(const fake_case *c)
{
    const char *path = getenv("STENCIL_FAKE_NCU_SIZES");
    FILE *f = path && c->size ? fopen(path, "a") : NULL;
    if (f)
        fprintf(f, "%s\n", c->size), fclose(f);
}

// Logs "at=<wall clock> what" to STENCIL_FAKE_LOCKS_LOG when STENCIL_FAKE_HOST_MS is set.
static void fake_log_moment(const char *what)
{
    const char *path = getenv("STENCIL_FAKE_LOCKS_LOG");
    FILE *log = path && getenv("STENCIL_FAKE_HOST_MS") ? fopen(path, "a") : NULL;
    if (!log)
        return;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    fprintf(log, "at=%.6f %s\n", (double)now.tv_sec + now.tv_nsec * 1e-9, what);
    fclose(log);
}

// A served case that ended well: its word that the GPU work is over (that it
// was found wrong, under gpu-wrong), then STENCIL_FAKE_HOST_MS of host work.
// 0, or -1 when the judge is gone.
static int fake_after_gpu(const fake_case *c)
{
    const char idle = !strcmp(fake_mode(c), "gpu-wrong") && c->gpu_check ? PROTOCOL_SERVE_GPU_IDLE_WRONG : PROTOCOL_SERVE_GPU_IDLE;
    const char *ms = getenv("STENCIL_FAKE_HOST_MS");
    fake_log_moment("idle");  // (before the word: the judge may end its turn the moment it reads it)
    if (pipe_write_all(PROTOCOL_SERVE_REPLY_FD, &idle, 1) != 0)
        return -1;
    if (ms && atoi(ms) > 0) {
        struct timespec nap = {atoi(ms) / 1000, (long)(atoi(ms) % 1000) * 1000000L};
        nanosleep(&nap, NULL);
    }
    fake_log_moment("done");
    return 0;
}

// --serve: the probe's answer, then each request a case, answered PROTOCOL_SERVE_DONE; a failed case ends it.
static int fake_serve(const char *probe_dir)
{
    static char block[PROTOCOL_SERVE_MAX_BYTES];
    char *argv[FAKE_MAX_ARGS] = {"executor"};
    const char done = PROTOCOL_SERVE_DONE;
    int code = fake_probe(probe_dir);
    if (code != RUNNER_OK)
        return code;
    signal(SIGPIPE, SIG_IGN);
    if (pipe_write_all(PROTOCOL_SERVE_REPLY_FD, &done, 1) != 0)
        return RUNNER_OK;
    for (int argc; (argc = fake_read_request(block, argv)) > 0;) {
        fake_case c;
        if (fake_parse(argc, argv, &c) != 0)
            return RUNNER_USAGE;
        fake_tell_ncu(&c);
        if (c.log && freopen(c.log, "w", stdout) && dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
            return RUNNER_USAGE;
        code = fake_case_run(&c);
        fflush(NULL);
        if (code != RUNNER_OK)
            return code;
        if (fake_after_gpu(&c) != 0 || pipe_write_all(PROTOCOL_SERVE_REPLY_FD, &done, 1) != 0)
            return RUNNER_OK;
    }
    return RUNNER_OK;
}

int main(int argc, char **argv)
{
    const char *outdir = NULL, *nice_log = getenv("STENCIL_FAKE_NICE_LOG");
    FILE *log = nice_log ? fopen(nice_log, "a") : NULL;
    if (log) {  // the niceness it runs at, for tests/fake_gpu.sh (SPAWN_NICE_BESIDE is for the builds, not here)
        fprintf(log, "executor %d\n", getpriority(PRIO_PROCESS, 0));
        fclose(log);
    }
    const char *env_log = getenv("STENCIL_FAKE_ENV_LOG");  // the GPUs it was shown, for tests/fake_gpu.sh
    FILE *envf = env_log ? fopen(env_log, "a") : NULL;
    if (envf) {
        const char *visible = getenv("CUDA_VISIBLE_DEVICES");
        fprintf(envf, "executor CUDA_VISIBLE_DEVICES=%s\n", visible ? visible : "(unset)");
        fclose(envf);
    }
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--outdir"))
            outdir = argv[i + 1];
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--serve"))
            return fake_serve(outdir);
    fake_case c;
    if (fake_parse(argc, argv, &c) != 0) {
        fprintf(stderr, "fake executor: usage: executor --serve [--outdir DIR] | --student PROGRAM --outdir DIR ... (the judge starts it)\n");
        return RUNNER_USAGE;
    }
    return fake_case_run(&c);
}
