// grader/emu/runner_sweep.cu — the runner of the sweep labs (1 to 4, and the
// labs graded on nx×ny×nz grids).
//
// The CPU emulation backend's runner (the GPU has the executor instead). Built
// once per student kernel file: the build includes that file at the END of
// this translation unit (LAB_KERNEL_FILE), so the runner calls the student's
// host function and no macro of the student's reaches the runner's code. The
// host function is the lab's interface's (protocol.h): launch_stencil(d_in,
// d_out, N) of kernels/lab.h, or, built with STENCIL_INTERFACE_GRID,
// launch_sweep(d_in, d_out, nx, ny, nz) of kernels/grid.h, or, built with
// STENCIL_INTERFACE_IMAGE, launch_convolution(d_in, d_out, width, height, r)
// of kernels/conv.h; everything else is the same. Built with STENCIL_RADIUS=2
// (a lab whose stencil is star13) it includes kernels/star13.h and sets the
// thirteen coefficients c0..c12. The judge starts it, confined, as a child
// process:
//
//   runner --probe --outdir DIR                 report the device, exit 0 or 77
//   runner --outdir DIR --size NX,NY,NZ --coef c0,...,c6 [--time REPS]
//                                               (--n N: the cube N×N×N; c0,...,c12 for star13)
//   runner --outdir DIR --size W,H,1 --coef f0,...,f((2R+1)^2-1) --radius R
//                                               (a convolution: the filter row by row)
//
// Two radii meet here: the star's (1 or 2), which the number of --coef values
// gives and which must match the build's STENCIL_RADIUS, and the convolution
// filter's (1..CONV_MAX_RADIUS), which --radius R gives.
//
// DIR holds the case (protocol.h names the files). The runner uploads the
// input into a guarded buffer, prepares the output (protocol_cell_written:
// a sweep's boundary = input, the cells to write = poison, guards around),
// sets the coefficients or the filter, calls the host function once with
// launch recording on, checks the launch and synchronisation errors, checks
// that the filter it set is unchanged, and saves what it finds. Emulation
// does no timing.
#include "case_io.h"
#include "runner_steps.h"
#ifdef STENCIL_INTERFACE_GRID  // the kit's header first: a student's own copy cannot replace it
#include "../kernels/grid.h"
#define RUNNER_STAR_RADIUS STENCIL_RADIUS
#elif defined(STENCIL_INTERFACE_IMAGE)
#include "../kernels/conv.h"
#define RUNNER_STAR_RADIUS 0  // no star: --coef carries the filter
#elif defined(STENCIL_RADIUS) && STENCIL_RADIUS == 2
#include "../kernels/star13.h"
#define RUNNER_STAR_RADIUS STENCIL_RADIUS
#else
#include "../kernels/lab.h"
#define RUNNER_STAR_RADIUS STENCIL_RADIUS
#endif

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

typedef struct runner_args {
    const char *outdir;  // the case directory
    int probe;           // 1: only report the device
    unsigned int n[3];   // nx, ny, nz
    float coef[PROTOCOL_MAX_WEIGHTS]; // a star's c0..c(6r), or a convolution's filter row by row
    int ncoef;           // how many --coef gave
    int filter_radius;   // --radius R: a convolution's filter radius; 0: a star's sweep
    int star_radius;     // the star's radius, from the number of coefficients (runner_star_radius); 0 for a filter
    int time_reps;       // timed repetitions; 0: no timing
} runner_args;

// Parses argv into a; exits with RUNNER_USAGE on anything unexpected.
static runner_args runner_parse(int argc, char **argv)
{
    runner_args a;
    memset(&a, 0, sizeof(a));
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--probe")) {
            a.probe = 1;
        } else if (!strcmp(argv[i], "--outdir") && v) {
            a.outdir = v, i++;
        } else if (!strcmp(argv[i], "--n") && v) {
            a.n[0] = a.n[1] = a.n[2] = (unsigned int)strtoul(v, NULL, 10), i++;
        } else if (!strcmp(argv[i], "--size") && v) {
            if (sscanf(v, "%u,%u,%u", &a.n[0], &a.n[1], &a.n[2]) != 3)
                a.n[0] = 0;
            i++;
        } else if (!strcmp(argv[i], "--time") && v) {
            a.time_reps = atoi(v), i++;
        } else if (!strcmp(argv[i], "--coef") && v) {
            a.ncoef = runner_parse_floats(v, a.coef, PROTOCOL_MAX_WEIGHTS);
            i++;
        } else if (!strcmp(argv[i], "--radius") && v) {
            a.filter_radius = atoi(v), i++;
        } else {
            fprintf(stderr, "runner: unexpected argument '%s' (the judge starts this program; run make check)\n", argv[i]);
            exit(RUNNER_USAGE);
        }
    }
    a.star_radius = runner_star_radius(a.ncoef, a.filter_radius);
    if (!a.outdir || (!a.probe && (a.n[0] == 0 || a.n[1] == 0 || a.n[2] == 0 || a.star_radius != RUNNER_STAR_RADIUS))) {
#if RUNNER_STAR_RADIUS
        fprintf(stderr, "runner: usage: runner --outdir DIR (--probe | --size NX,NY,NZ --coef c0,...,c%d [--time REPS]): this runner was built for a star of radius %d\n",
                STENCIL_NCOEF(RUNNER_STAR_RADIUS) - 1, RUNNER_STAR_RADIUS);
#else
        fprintf(stderr, "runner: usage: runner --outdir DIR (--probe | --size W,H,1 --coef f0,...,f((2R+1)^2-1) --radius R [--time REPS]): this runner was built for a convolution, R 1..%d\n",
                CONV_MAX_RADIUS);
#endif
        exit(RUNNER_USAGE);
    }
    return a;
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

typedef struct runner_launch_arg {
    float *d_in;      // input grid
    float *d_out;     // output grid
    unsigned int n[3];// nx, ny, nz
    int filter_radius;// a convolution's filter radius (the image interface)
} runner_launch_arg;

// Sets what the kernel reads in constant memory: the filter of a
// convolution (--radius), or the star's c0..c(6r).
static void runner_set_weights(const runner_args *a)
{
#ifdef STENCIL_INTERFACE_IMAGE  // runner_parse checked R (1..CONV_MAX_RADIUS) and the filter's size
    runner_check(lab_set_filter(a->coef, a->filter_radius), "copy the filter to constant memory");
    runner_report("filter_radius", "%d", a->filter_radius);
#else  // runner_parse checked the star's radius against the build's
    runner_check(lab_set_coefficients(a->coef), "copy the coefficients to constant memory");
#endif
}

// Fails the case (RUNNER_REFUSED) when the filter the kit set is no longer
// in F after the student's function: the lab's weights are the kit's.
static void runner_check_weights(const runner_args *a)
{
#ifdef STENCIL_INTERFACE_IMAGE
    float now[CONV_MAX_WIDTH][CONV_MAX_WIDTH], want[CONV_MAX_WIDTH][CONV_MAX_WIDTH] = {{0}};
    int w = 2 * a->filter_radius + 1;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < w; j++)
            want[i][j] = a->coef[i * w + j];
    runner_check(cudaMemcpyFromSymbol(now, F, sizeof(now)), "read the filter back");
    if (memcmp(now, want, sizeof(now)) != 0)
        runner_fail(RUNNER_REFUSED, "refused", "the filter F in constant memory changed during the call: it is the kit's, set before %s runs, and read-only for it", INTERFACE_IMAGE_FUNCTION);
#else
    (void)a;
#endif
}

// Calls the student's host function, the one the lab's interface names.
static void runner_launch_student(void *p)
{
    runner_launch_arg *a = (runner_launch_arg *)p;
#ifdef STENCIL_INTERFACE_GRID
    launch_sweep(a->d_in, a->d_out, a->n[0], a->n[1], a->n[2]);
#elif defined(STENCIL_INTERFACE_IMAGE)
    launch_convolution(a->d_in, a->d_out, a->n[0], a->n[1], a->filter_radius);
#else
    launch_stencil(a->d_in, a->d_out, a->n[0]);
#endif
}

// The case's grids: the input and the prepared output, on the host and in
// guarded device buffers.
typedef struct runner_grids {
    float *h_in;        // the input, as read from the case
    float *h_out;       // the output before the call: boundary = input, the cells to write = poison
    runner_buffer in;   // the input on the device (d_in)
    runner_buffer out;  // the output on the device (d_out)
} runner_grids;

// Reads the case's input, prepares the output and uploads both into guarded
// device buffers named for the student's function; exits through runner_fail
// on a grid the interface cannot take or on missing memory.
static runner_grids runner_prepare_grids(const runner_args *a)
{
    runner_grids g;
    size_t nx = a->n[0], ny = a->n[1], nz = a->n[2], cells = nx * ny * nz;
#if !defined(STENCIL_INTERFACE_GRID) && !defined(STENCIL_INTERFACE_IMAGE)
    if (nx != ny || ny != nz)
        runner_fail(RUNNER_USAGE, "kit", "the cube interface (launch_stencil) takes N×N×N grids, not %zux%zux%zu", nx, ny, nz);
#endif
    g.h_in = runner_read_grid(a->outdir, CASE_INPUT, cells);
    g.h_out = (float *)protocol_grid_alloc(cells * sizeof(float));
    if (!g.h_out)
        runner_fail(RUNNER_NO_MEMORY, "memory", "host memory for %zu floats", cells);
    runner_prepare_output(g.h_in, g.h_out, nx, ny, nz, a->filter_radius > 0, a->star_radius);
    size_t guard = (size_t)protocol_guard_cells(nx * ny);
    runner_report("guard_cells", "%zu", guard);
    g.in = runner_buffer_create(g.h_in, cells, guard);
    g.out = runner_buffer_create(g.h_out, cells, guard);
    emu_kit_grid(g.in.d_grid, cells * sizeof(float), "d_in");
    emu_kit_grid(g.out.d_grid, cells * sizeof(float), "d_out");
    return g;
}

// Calls the student's host function once on the grids, recorded, and reports
// its launches and (where counted) its loads; exits through runner_fail if
// the call ended badly (runner_check_outcome).
static void runner_run_student(const runner_args *a, const runner_grids *g)
{
    runner_launch_arg la = {g->in.d_grid, g->out.d_grid, {a->n[0], a->n[1], a->n[2]}, a->filter_radius};
    cudaError_t launch_err, sync_err;
    long launches = runner_recorded_call(runner_launch_student, &la, &launch_err, &sync_err);
    if (launches >= 0) {
        runner_report_launches(launches);
        double global_bytes = 0, shared_bytes = 0;
#ifdef STENCIL_EMU_LOAD_COUNTS  // the file was built with the sanitizer's load calls (grader/emu/emu.mk)
        if (launch_log_loads(&global_bytes, &shared_bytes)) {
            runner_report(PROTOCOL_EMU_GLOBAL_LOAD_BYTES, "%.0f", global_bytes);
            runner_report(PROTOCOL_EMU_SHARED_LOAD_BYTES, "%.0f", shared_bytes);
        }
#endif
        (void)global_bytes, (void)shared_bytes;
    }
    runner_check_outcome(launch_err, sync_err);
}

int main(int argc, char **argv)
{
    runner_args a = runner_parse(argc, argv);
    runner_begin(a.outdir, a.probe);
    runner_report_tiles();
    runner_grids g = runner_prepare_grids(&a);
    runner_set_weights(&a);
    runner_check(cudaDeviceSynchronize(), "prepare the case");
    runner_run_student(&a, &g);
    runner_check_weights(&a);
    runner_buffer_save(&g.out, a.outdir, CASE_OUTPUT);
    runner_buffer_save(&g.in, a.outdir, CASE_INPUT_AFTER);
    free(g.h_in);
    free(g.h_out);
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
