// grader/executor/exec_args.h — the executor's command line, and the
// requests a serving executor reads from the judge (protocol.h's
// PROTOCOL_SERVE_*), read with no GPU: plain C, built into the executor
// (grader/build.mk) and into the unit tests (tests/unit/test_exec_args.c),
// which is how this part of the executor's room is measured without a GPU.
#ifndef STENCIL_EXEC_ARGS_H
#define STENCIL_EXEC_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct exec_args {
    const char *outdir;      // the case folder
    const char *student;     // the student's program
    runner_kind kind;        // --kind: a sweep or a whole solve (protocol.h's RUNNER_*)
    int probe;               // 1: report the device only
    int yardstick;           // 1: the kit's solution timed for the speed score: no grid saved (--yardstick)
    unsigned n[3];           // grid size nx, ny, nz
    float coef[PROTOCOL_MAX_WEIGHTS]; // sweep: a star's coefficients c0..c(6r), or a convolution's filter row by row
    int ncoef;               // how many --coef gave
    int filter_radius;       // sweep: --radius R, a convolution's filter radius (the image interface); 0: a star's sweep
    int star_radius;         // sweep: the star's radius, from the number of coefficients (runner_star_radius); 0 for a filter
    float h;                 // jacobi: grid spacing
    int bc;                  // jacobi: LAB_BC_*, or -1
    int iters, check_every;  // jacobi: max_iters, check_every
    float tol;               // jacobi: tol
    int heat;                // jacobi: 1 for --update heat2d
    float rate;              // jacobi, heat: r
    unsigned pitch;          // jacobi: floats a stored row takes (nx unless padded)
    int time_reps;           // timed repetitions (0: none)
    double time_budget_s;    // the repetitions stop after the first that ends past this many seconds (0: no budget)
    double rtol, atol;       // accuracy of the checks of timed repetitions
    int serve;               // 1: serve every case of a run (--serve; protocol.h's PROTOCOL_SERVE_*)
    int count_loads;         // 1: count the student's loads in the checked call (LOADS_OPTION, loads.cu)
    int gpu_check;           // 1: the output checked here on the GPU, a sample of units saved when right (--gpu-check;
                             // a whole solve: --gpu-check GPU_CHECK_SOLVE, its verdict here, nothing saved when right)
    double scale;            // jacobi, --gpu-check: the judge's scale of the tolerance (--scale; 0: the kit's bound)
    unsigned sample[GPU_CHECK_MAX_UNITS]; // the units the judge asked for (protocol_sample_unit_of: z-planes, or rows of a 2D grid)
    int nsample;             // how many
    const char *log;         // a served case: the file its output goes to (--log)
    unsigned long long file_bytes; // a served case: the largest file it may write (--file-bytes; 0: no limit)
    uint64_t fill;           // the seed the input (a solve's u0 and f) is drawn from on the GPU (FILL_OPTION, grid_fill.h)
    int fill_given;          // 1: FILL_OPTION given (no CASE_INPUT file)
    const char *gpu_locks;   // under Nsight Compute beside other judges: the GPU's lock files this run takes around
                             // its GPU work (GPU_LOCKS_OPTION: "PROFILER,TOOLS_GATE,TOOLS,GATE,TURN[,alone|,long]"), NULL: none
} exec_args;

// Reads a command line (argv[0] the program's name) into a, --bc's name
// through bc_of (the LAB_BC_* value of kernels/jacobi.h, a CUDA header: the
// executor's own, or -1). Returns 0, or -1 with why (len bytes) naming what
// is wrong: an unknown option, a value missing or malformed, or arguments
// that make no case.
int exec_args_parse(int argc, char **argv, int (*bc_of)(const char *name), exec_args *a, char *why, size_t len);

// Reads one request from the judge on fd (its length in decimal, a newline,
// that many bytes of NUL-ended arguments) into block (PROTOCOL_SERVE_MAX_BYTES
// bytes) and argv (PROTOCOL_SERVE_MAX_ARGS + 2 entries: argv[0] is left to
// the caller, the list ends with NULL). Returns the argument count with
// argv[0], 0 at the end of input, -1 for a malformed request.
int exec_args_read_request(int fd, char *block, char **argv);

#ifdef __cplusplus
}
#endif

#endif // STENCIL_EXEC_ARGS_H
