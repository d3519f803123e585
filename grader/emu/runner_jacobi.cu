// grader/emu/runner_jacobi.cu — the runner of lab 5 (Jacobi iteration).
//
// Built once per student kernel file: the build includes that file into this
// translation unit (LAB_KERNEL_FILE), so the runner calls the student's
// jacobi_solve(). The judge (grader/judge/judge_jacobi.c) starts it as a child:
//
//   runner --probe --outdir DIR
//   runner --outdir DIR --size NX,NY,NZ --h H --bc NAME --iters K --check C --tol T [--time REPS]
//
// DIR holds the case: in.bin (the initial grid) and f.bin (f), nx*ny*nz
// floats each. The runner uploads the initial grid into two guarded buffers
// d_a and d_b and f into a third, calls jacobi_solve once with launch
// recording on, checks the launch and synchronisation errors, and saves the
// three buffers with their guards (u_a.bin, u_b.bin, f_after.bin) and a
// report: which buffer was returned, the iterations, the residual, the
// launches and launches per iteration. With --time it then measures the
// device bandwidth and times whole solves (both buffers restored before each,
// outside the timed region), reports the time per iteration, and saves the
// returned buffer once more (out_timed.bin). File names are shared with
// grader/judge/judge_jacobi.c.
#include "runner_common.h"
#include "../kernels/jacobi.h"  // the kit's header first: a student's own copy cannot replace it

#ifndef LAB_KERNEL_FILE
#error "build the runner with -DLAB_KERNEL_FILE='\"path/to/kernel.cu\"' (grader/build.mk does)"
#endif
#include LAB_KERNEL_FILE

#define JACOBI_CASE_F       "f.bin"        // f, written by the judge
#define JACOBI_CASE_A       "u_a.bin"      // guard | d_a | guard after the checked solve
#define JACOBI_CASE_B       "u_b.bin"      // guard | d_b | guard after it
#define JACOBI_CASE_F_AFTER "f_after.bin"  // guard | d_f | guard after it

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

typedef struct runner_args {
    const char *outdir;      // the case directory
    int probe;               // 1: only report the device
    unsigned int n[3];       // nx, ny, nz
    float h;                 // grid spacing
    int bc;                  // LAB_BC_*, or -1 until --bc
    int iters;               // max_iters
    int check_every;         // check_every
    float tol;               // tol
    int time_reps;           // timed repetitions; 0: no timing
} runner_args;

// The LAB_BC_* constant called name, or -1.
static int runner_bc(const char *name)
{
    if (!strcmp(name, "dirichlet"))
        return LAB_BC_DIRICHLET;
    if (!strcmp(name, "neumann"))
        return LAB_BC_NEUMANN;
    if (!strcmp(name, "periodic"))
        return LAB_BC_PERIODIC;
    return -1;
}

// Parses argv into a; exits with RUNNER_USAGE on anything unexpected.
static runner_args runner_parse(int argc, char **argv)
{
    runner_args a;
    memset(&a, 0, sizeof(a));
    a.bc = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(argv[i], "--probe")) {
            a.probe = 1;
            continue;
        }
        if (!v)
            ok = 0;
        else if (!strcmp(argv[i], "--outdir"))
            a.outdir = v;
        else if (!strcmp(argv[i], "--size"))
            ok = sscanf(v, "%u,%u,%u", &a.n[0], &a.n[1], &a.n[2]) == 3;
        else if (!strcmp(argv[i], "--h"))
            ok = sscanf(v, "%g", &a.h) == 1;
        else if (!strcmp(argv[i], "--bc"))
            ok = (a.bc = runner_bc(v)) >= 0;
        else if (!strcmp(argv[i], "--iters"))
            a.iters = atoi(v);
        else if (!strcmp(argv[i], "--check"))
            a.check_every = atoi(v);
        else if (!strcmp(argv[i], "--tol"))
            ok = sscanf(v, "%g", &a.tol) == 1;
        else if (!strcmp(argv[i], "--time"))
            a.time_reps = atoi(v);
        else
            ok = 0;
        if (!ok) {
            fprintf(stderr, "runner: unexpected argument '%s' (the judge starts this program; run make check)\n", argv[i]);
            exit(RUNNER_USAGE);
        }
        i++;
    }
    if (!a.outdir || (!a.probe && (a.n[0] < 1 || a.n[1] < 1 || a.n[2] < 1 || a.bc < 0 || a.iters < 0))) {
        fprintf(stderr, "runner: usage: runner --outdir DIR (--probe | --size NX,NY,NZ --h H --bc dirichlet|neumann|periodic --iters K --check C --tol T [--time REPS])\n");
        exit(RUNNER_USAGE);
    }
    return a;
}

// ---------------------------------------------------------------------------
// Reporting what the solve did
// ---------------------------------------------------------------------------

// Reports the tile sizes the kernel file declares, for the OP/B model.
static void runner_report_tiles(void)
{
#ifdef IN_TILE_DIM
    runner_report("in_tile_dim", "%d", (int)(IN_TILE_DIM));
#endif
#ifdef OUT_TILE_DIM
    runner_report("out_tile_dim", "%d", (int)(OUT_TILE_DIM));
#endif
}

// Writes the plain name of a kernel into out: "_Z12jacobi_sweepPKf..." (a
// mangled C++ name) becomes "jacobi_sweep"; any other name is kept.
static void runner_plain_name(const char *name, char *out, size_t len)
{
    char *end = NULL;
    unsigned long n = name[0] == '_' && name[1] == 'Z' ? strtoul(name + 2, &end, 10) : 0;
    if (n > 0 && end && strlen(end) >= n)
        snprintf(out, len, "%.*s", (int)n, end);
    else
        snprintf(out, len, "%s", name);
}

// Reports how often each kernel was launched ("kernel.<n>=<count> <name>",
// from the records kept: the first LAUNCH_LOG_MAX) and the launches per iteration.
static void runner_report_kernel_counts(long launches, int iters)
{
    char names[16][128];
    long counts[16];
    int kinds = 0;
    for (long n = 0; n < launches && n < LAUNCH_LOG_MAX; n++) {
        const launch_record *r = launch_log_record(n);
        char plain[128];
        int found = -1;
        if (!r)
            break;
        runner_plain_name(r->kernel, plain, sizeof(plain));
        for (int q = 0; q < kinds; q++)
            if (!strcmp(names[q], plain))
                found = q;
        if (found < 0 && kinds < 16) {
            snprintf(names[kinds], sizeof(names[0]), "%s", plain);
            counts[kinds] = 0;
            found = kinds++;
        }
        if (found >= 0)
            counts[found]++;
    }
    runner_report("kernels", "%d", kinds);
    for (int q = 0; q < kinds; q++) {
        char key[32];
        snprintf(key, sizeof(key), "kernel.%d", q);
        runner_report(key, "%ld %s", counts[q], names[q]);
    }
    if (iters > 0)
        runner_report("launches_per_iteration", "%.3f", (double)launches / iters);
}

// ---------------------------------------------------------------------------
// The solve
// ---------------------------------------------------------------------------

typedef struct runner_solve {
    float *d_a, *d_b;        // the two grids
    const float *d_f;        // f
    jacobi_problem p;        // what the student gets
    int result;              // what jacobi_solve returned
    int iters;               // *iters_done
    float residual;          // *residual
} runner_solve;

// Calls the student's jacobi_solve: the thing that is timed.
static void runner_call_student(void *arg)
{
    runner_solve *s = (runner_solve *)arg;
    s->iters = -1;
    s->residual = -2.0f;
    s->result = jacobi_solve(s->d_a, s->d_b, s->d_f, &s->p, &s->iters, &s->residual);
}

// Runs the checked solve with launch recording; reports its results and
// exits through runner_fail if the student's code raised a CUDA error.
static void runner_checked_solve(runner_solve *s)
{
    char why[256] = "";
    cudaEvent_t start, stop;
    if (launch_log_begin(why, sizeof(why)) != 0)
        runner_report("launch_log_error", "%s", why);
    runner_check(cudaEventCreate(&start), "create an event");
    runner_check(cudaEventCreate(&stop), "create an event");
    cudaEventRecord(start);
    runner_call_student(s);
    cudaEventRecord(stop);
    cudaError_t launch_err = cudaGetLastError();
    cudaError_t sync_err = cudaDeviceSynchronize();
    float ms = 0;
    if (launch_err == cudaSuccess && sync_err == cudaSuccess && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess)
        runner_report("launch_ms", "%.6f", ms);
    long launches = why[0] == '\0' ? launch_log_end() : -1;
    if (launches >= 0) {
        runner_report_launches(launches);
        runner_report_kernel_counts(launches, s->iters);
    }
    runner_report("result", "%d", s->result);
    runner_report("iterations", "%d", s->iters);
    runner_report("residual", "%.9g", s->residual);
    runner_check_student(launch_err, sync_err);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

#ifndef LAB_EMU
// Restores both grids from the initial one before a timed solve.
static const float *runner_timing_init;  // the initial grid on the device, for runner_restore_grids
static size_t runner_timing_cells;       // its cells
static void runner_restore_grids(void *arg)
{
    runner_solve *s = (runner_solve *)arg;
    size_t bytes = runner_timing_cells * sizeof(float);
    runner_check(cudaMemcpy(s->d_a, runner_timing_init, bytes, cudaMemcpyDeviceToDevice), "restore d_a");
    runner_check(cudaMemcpy(s->d_b, runner_timing_init, bytes, cudaMemcpyDeviceToDevice), "restore d_b");
    runner_check(cudaDeviceSynchronize(), "restore the grids");
}

// Times reps whole solves, each from the initial grid (restored from d_init
// before each, outside the timed region); reports the median, min and max and
// the time per iteration.
static void runner_time_solves(const cudaDeviceProp *prop, runner_solve *s, const float *d_init, size_t cells, int reps)
{
    runner_timing t = {reps, 1, 0, runner_restore_grids};  // one warm-up solve; restoring two grids already evicts L2
    runner_timing_init = d_init;
    runner_timing_cells = cells;
    float median = runner_time_launches(prop, &t, runner_call_student, s);
    runner_report("timed_iterations", "%d", s->iters);
    runner_report("timed_result", "%d", s->result);
    if (s->iters > 0)
        runner_report("time_per_iter_ms", "%.6f", median / s->iters);
}
#endif // LAB_EMU

// Opens the report file in dir (under emulation, also where a kernel fault is
// reported); exits with RUNNER_USAGE if it cannot.
static void runner_open_report(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, CASE_REPORT);
    runner_report_file = fopen(path, "w");
    if (!runner_report_file) {
        fprintf(stderr, "runner: cannot write %s: %s\n", path, strerror(errno));
        exit(RUNNER_USAGE);
    }
#ifdef LAB_EMU
    emu_set_fault_report(path);  // a fault inside a kernel is reported here, naming the CUDA thread
#endif
}

int main(int argc, char **argv)
{
    runner_args a = runner_parse(argc, argv);
    runner_open_report(a.outdir);
#ifdef LAB_EMU
    runner_report("backend", "emu");
#else
    runner_report("backend", "gpu");
#endif
    cudaDeviceProp prop = runner_open_device();
    (void)prop;
    if (a.probe) {
        runner_report("status", "ok");
        fclose(runner_report_file);
        return RUNNER_OK;
    }
    runner_report_tiles();
    runner_report("bc", "%s", a.bc == LAB_BC_DIRICHLET ? "dirichlet" : a.bc == LAB_BC_NEUMANN ? "neumann" : "periodic");

    size_t cells = (size_t)a.n[0] * a.n[1] * a.n[2];
    float *h_u0 = runner_read_grid(a.outdir, CASE_INPUT, cells);
    float *h_f = runner_read_grid(a.outdir, JACOBI_CASE_F, cells);
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)a.n[0] * a.n[1]);
    runner_report("guard_cells", "%zu", guard);
    runner_buffer ua = runner_buffer_create(h_u0, cells, guard);
    runner_buffer ub = runner_buffer_create(h_u0, cells, guard);
    runner_buffer uf = runner_buffer_create(h_f, cells, guard);
    runner_solve s;
    memset(&s, 0, sizeof(s));
    s.d_a = ua.d_grid;
    s.d_b = ub.d_grid;
    s.d_f = uf.d_grid;
    jacobi_problem p = {a.n[0], a.n[1], a.n[2], a.h, a.bc, a.iters, a.check_every, a.tol, NULL};
    runner_check(cudaMalloc((void **)&p.d_scratch, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "allocate the scratch");
    runner_check(cudaMemset(p.d_scratch, 0, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "clear the scratch");
    s.p = p;
    runner_check(cudaDeviceSynchronize(), "prepare the case");

    runner_checked_solve(&s);
    runner_buffer_save(&ua, a.outdir, JACOBI_CASE_A);
    runner_buffer_save(&ub, a.outdir, JACOBI_CASE_B);
    runner_buffer_save(&uf, a.outdir, JACOBI_CASE_F_AFTER);

#ifndef LAB_EMU
    if (a.time_reps > 0) {
        float *d_init = NULL;
        runner_check(cudaMalloc((void **)&d_init, cells * sizeof(float)), "allocate the initial grid's copy");
        runner_check(cudaMemcpy(d_init, h_u0, cells * sizeof(float), cudaMemcpyHostToDevice), "upload the initial grid");
        runner_measure_bandwidth(&prop, 20);
        runner_time_solves(&prop, &s, d_init, cells, a.time_reps);
        runner_buffer_save(s.result == 1 ? &ub : &ua, a.outdir, CASE_TIMED);
        cudaFree(d_init);
    }
#endif
    runner_report("status", "ok");
    fclose(runner_report_file);
    free(h_u0);
    free(h_f);
    return RUNNER_OK;
}
