// grader/judge/jacobi_verdict.h — decides whether a lab 5 run (Jacobi iteration)
// is right, and if not, names the mistake.
//
// The judge hands it the case (initial grid, f, boundary condition, stopping
// rule, tolerance) and what the runner left: both buffers and f with their
// guard zones, and the solver's own words (which buffer, how many
// iterations, which residual). It recomputes everything with
// reference/jacobi_ref.c and trusts none of the runner's claims.
#ifndef STENCIL_JACOBI_VERDICT_H
#define STENCIL_JACOBI_VERDICT_H

#include <stddef.h>

#include "jacobi_ref.h"

// A case's reference solve made ahead of its judging (the judge starts it
// while the student's file builds: judge_jacobi.h's jacobi_early_*): the
// grids and residuals jacobi_judge would compute for iters iterations.
typedef struct jacobi_reference {
    int iters;                  // iterations it ran (used only when the solver reports as many)
    const double *grid;         // the grid after iters iterations
    const double *prev;         // the grid after iters - 1
    const double *history;      // the residual at each check (iters / check_every entries)
    double scale;               // jacobi_outcome.scale of the run
} jacobi_reference;

typedef struct jacobi_case {
    jacobi_grid g;              // grid size, spacing, boundary condition
    const float *u0;            // the initial grid both buffers held
    const float *f;             // the right-hand side
    int max_iters;              // iteration limit
    int check_every;            // residual after every check_every-th iteration (0: never)
    double tol;                 // stop at a check whose residual is below tol (<= 0: never)
    double rtol;                // float32 rounding allowed per iteration, relative to the run's scale
    double atol;                // absolute slack on every cell
    int blocked;                // 1: several iterations a launch, the boundary step inside the sweep (lab 9)
    const jacobi_reference *reference;  // made ahead, or NULL: jacobi_judge solves it
} jacobi_case;

typedef struct jacobi_outputs {
    const float *a;             // guard | d_a | guard after the solve
    const float *b;             // guard | d_b | guard after the solve
    const float *f_after;       // guard | d_f | guard after the solve
    const float *timed;         // guard | returned buffer | guard after the timed solves, or NULL
    const float *order2;        // guard | returned buffer | guard under a second thread order, or NULL
    size_t guard;               // guard cells on each side of each buffer
    int result;                 // what jacobi_solve returned (0: d_a, 1: d_b)
    int iters;                  // what it reported in *iters_done
    double residual;            // what it reported in *residual
} jacobi_outputs;

typedef struct jacobi_verdict {
    int passed;                 // 1: every check passed
    const char *hint_key;       // a HINT_* key (verdict.h), or NULL when passed
    char reason[256];           // what is wrong, with counts
    char hint[512];             // what the pattern suggests, in one line
    char detail[320];           // the first wrong cell, or the iteration where it went wrong
    size_t cells;               // cells compared (the whole grid: boundary cells too)
    size_t wrong;               // cells outside the tolerance
    double allowed;             // the tolerance: atol + iters * rtol * scale
    double max_err;             // largest |got - reference| (NaN-free cells)
    double scale;               // the reference run's scale (jacobi_outcome.scale)
    double ref_residual;        // the reference's residual at the last check up to iters, or -1
    long first[3];              // first wrong cell (i, j, k), -1 when none
    double first_want;          // the reference's value there
    float first_got;            // the value found there
} jacobi_verdict;

// Judges one run; fills v. Returns v->passed, or -1 when out of memory
// (v then says so and has failed).
int jacobi_judge(const jacobi_case *c, const jacobi_outputs *o, jacobi_verdict *v);

// The reference solve jacobi_judge compares with: c's grid after iters exact
// iterations into grid, the one before the last into prev, the residual at
// each check into history (iters / check_every + 1 entries); *scale as
// jacobi_outcome's. Returns 0, or -1 when out of memory.
int jacobi_reference_solve(const jacobi_case *c, int iters, double *grid, double *prev, double *history, double *scale);

// What a heat buffer's padding says of its row layout: stored holds ny rows
// of pitch floats. Returns 1 if the padding cells that lost PAD_BITS are
// exactly those a kernel indexing rows nx floats apart stores to (j*nx + k
// for every interior point that lands in a row's padding), 0 if no padding
// cell changed, -1 otherwise.
int jacobi_padding_rows_packed(size_t nx, size_t ny, size_t pitch, const float *stored);

// Largest |u - exact| over the grid, exact the manufactured solution
// sin(pi x) sin(pi y) sin(pi z) at x = k*h, y = j*h, z = i*h.
double jacobi_mms_error(const jacobi_grid *g, const float *u);

#endif // STENCIL_JACOBI_VERDICT_H
