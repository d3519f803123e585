// grader/emu/runner_jacobi.cu — the runner of the whole-solve labs: Jacobi
// iteration (labs 5 and 9) and the 2D heat equation (lab 10).
//
// The CPU emulation backend's runner of those labs (the GPU has the executor).
// Built once per student kernel file: the build includes that file at the END
// of this translation unit (LAB_KERNEL_FILE), so the runner calls the
// student's jacobi_solve() — heat_solve() when built with
// STENCIL_UPDATE_HEAT2D (grader/build.mk UPDATE=heat2d) — and no macro of the
// student's reaches its code. The judge (grader/judge/judge_jacobi.c) starts
// it, confined, as a child:
//
//   runner --probe --outdir DIR
//   runner --outdir DIR --size NX,NY,NZ --h H --bc NAME --iters K --check C --tol T
//          [--update heat2d --rate R --pitch P]
//
// DIR holds the case: in.bin (the initial grid) and f.bin (f), P*ny*nz floats
// each (rows of P floats: P = nx unless the heat update pads them; the
// padding cells are the judge's). The runner uploads the initial grid into
// two guarded buffers d_a and d_b and f into a third, calls the solve once
// with launch recording on, checks the launch and synchronisation errors, and
// saves the three buffers with their guards (protocol.h names the files) and a
// report: which buffer was returned, the iterations (a heat solve's are its
// steps), the residual, the launches and launches per iteration. Emulation
// does no timing.
#include "case_io.h"
#include "runner_steps.h"
#include "../kernels/jacobi.h"  // the kit's header first: a student's own copy cannot replace it
#ifdef STENCIL_UPDATE_HEAT2D
#include "../kernels/heat2d.h"
#endif




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
    int heat;                // 1: --update heat2d (the runner must be built for it)
    float rate;              // heat: r
    unsigned int pitch;      // floats a stored row takes (nx unless padded)
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
        else if (!strcmp(argv[i], "--update"))
            ok = a.heat = !strcmp(v, UPDATE_HEAT2D);
        else if (!strcmp(argv[i], "--rate"))
            ok = sscanf(v, "%g", &a.rate) == 1;
        else if (!strcmp(argv[i], "--pitch"))
            ok = sscanf(v, "%u", &a.pitch) == 1;
        else
            ok = 0;
        if (!ok) {
            fprintf(stderr, "runner: unexpected argument '%s' (the judge starts this program; run make check)\n", argv[i]);
            exit(RUNNER_USAGE);
        }
        i++;
    }
#ifdef STENCIL_UPDATE_HEAT2D
    int built_for_heat = 1;
#else
    int built_for_heat = 0;
#endif
    if (a.pitch == 0)
        a.pitch = a.n[0];
    if (!a.outdir || (!a.probe && (a.n[0] < 1 || a.n[1] < 1 || a.n[2] < 1 || a.bc < 0 || a.iters < 0 ||
                                   a.pitch < a.n[0] || a.heat != built_for_heat))) {
        fprintf(stderr, "runner: usage: runner --outdir DIR (--probe | --size NX,NY,NZ --h H --bc dirichlet|neumann|periodic --iters K --check C --tol T [--update heat2d --rate R --pitch P] [--time REPS]); a heat runner takes --update heat2d, a Jacobi runner does not\n");
        exit(RUNNER_USAGE);
    }
    return a;
}

// ---------------------------------------------------------------------------
// Reporting what the solve did
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// The solve
// ---------------------------------------------------------------------------

typedef struct runner_solve {
    float *d_a, *d_b;        // the two grids
    const float *d_f;        // f
    jacobi_problem p;        // what the student gets (Jacobi)
#ifdef STENCIL_UPDATE_HEAT2D
    heat_problem hp;         // what the student gets (heat)
#endif
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
#ifdef STENCIL_UPDATE_HEAT2D
    heat_problem hp = s->hp;  // the student's own copy: the steps asked for are the kit's
    s->result = heat_solve(s->d_a, s->d_b, &hp);
    s->iters = s->hp.steps;   // a heat solve does them all: the grid says whether it did
    s->residual = -1.0f;      // and checks nothing
#else
    s->result = jacobi_solve(s->d_a, s->d_b, s->d_f, &s->p, &s->iters, &s->residual);
#endif
}

// Runs the checked solve with launch recording; reports its results and
// exits through runner_fail if the student's code raised a CUDA error.
static void runner_checked_solve(runner_solve *s)
{
    cudaError_t launch_err, sync_err;
    long launches = runner_recorded_call(runner_call_student, s, &launch_err, &sync_err);
    if (launches >= 0) {
        runner_report_launches(launches);
        runner_report_kernel_counts(launches, s->iters);
    }
    runner_report("result", "%d", s->result);
    runner_report("iterations", "%d", s->iters);
    runner_report("residual", "%.9g", s->residual);
    runner_check_outcome(launch_err, sync_err);
}

int main(int argc, char **argv)
{
    runner_args a = runner_parse(argc, argv);
    runner_begin(a.outdir, a.probe);
    runner_report_tiles();
    runner_report("bc", "%s", a.bc == LAB_BC_DIRICHLET ? "dirichlet" : a.bc == LAB_BC_NEUMANN ? "neumann" : "periodic");

    size_t cells = (size_t)a.pitch * a.n[1] * a.n[2];  // padded rows, as stored
    float *h_u0 = runner_read_grid(a.outdir, CASE_INPUT, cells);
    float *h_f = runner_read_grid(a.outdir, CASE_JACOBI_F, cells);
    size_t guard = (size_t)protocol_guard_cells((unsigned long long)a.pitch * a.n[1]);
    runner_report("guard_cells", "%zu", guard);
    runner_buffer ua = runner_buffer_create(h_u0, cells, guard);
    runner_buffer ub = runner_buffer_create(h_u0, cells, guard);
    runner_buffer uf = runner_buffer_create(h_f, cells, guard);
    emu_kit_grid(ua.d_grid, cells * sizeof(float), "d_a");
    emu_kit_grid(ub.d_grid, cells * sizeof(float), "d_b");
    emu_kit_grid(uf.d_grid, cells * sizeof(float), "d_f");
    runner_solve s;
    memset(&s, 0, sizeof(s));
    s.d_a = ua.d_grid;
    s.d_b = ub.d_grid;
    s.d_f = uf.d_grid;
    jacobi_problem p = {a.n[0], a.n[1], a.n[2], a.h, a.bc, a.iters, a.check_every, a.tol, NULL};
    runner_check(cudaMalloc((void **)&p.d_scratch, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "allocate the scratch");
    runner_check(cudaMemset(p.d_scratch, 0, JACOBI_SCRATCH_DOUBLES * sizeof(double)), "clear the scratch");
    s.p = p;
#ifdef STENCIL_UPDATE_HEAT2D
    s.hp.nx = a.n[0], s.hp.ny = a.n[1], s.hp.pitch = a.pitch, s.hp.r = a.rate, s.hp.steps = a.iters;
    runner_report("pitch", "%u", a.pitch);
#endif
    runner_check(cudaDeviceSynchronize(), "prepare the case");

    runner_checked_solve(&s);
    runner_buffer_save(&ua, a.outdir, CASE_JACOBI_A);
    runner_buffer_save(&ub, a.outdir, CASE_JACOBI_B);
    runner_buffer_save(&uf, a.outdir, CASE_JACOBI_F_AFTER);

    free(h_u0);
    free(h_f);
    runner_end();
}

// ---------------------------------------------------------------------------
// The student's file, last: its macros reach none of the runner's code above
// ---------------------------------------------------------------------------

#ifndef LAB_KERNEL_FILE
#error "build the runner with -DLAB_KERNEL_FILE='\"path/to/kernel.cu\"' (grader/build.mk does)"
#endif
#include LAB_KERNEL_FILE

#include "runner_tail.h"
