// reference/jacobi_ref.h — the CPU reference of the whole-solve labs: Jacobi
// iteration for the Poisson equation ∇²u = f, with Dirichlet, Neumann or
// periodic boundaries (labs 5 and 9), and explicit time steps of the 2D heat
// equation with a fixed boundary (lab 10, JACOBI_UPDATE_HEAT2D).
//
// Plain loops; the grid is kept in double, so the reference carries no float
// rounding of its own. Layout as in stencil_ref.h: point (i, j, k) of an
// nz×ny×nx grid (i the plane z, j the row y, k the column x) sits at
// (i*ny + j)*nx + k. Points with 1 <= i <= nz-2, 1 <= j <= ny-2 and
// 1 <= k <= nx-2 are interior; every other point is a boundary cell.
//
// One iteration (kernels/jacobi.h states the same definitions for students):
//   1. sweep:    v[i][j][k] = (u[i][j][k-1] + u[i][j][k+1] + u[i][j-1][k] + u[i][j+1][k]
//                              + u[i-1][j][k] + u[i+1][j][k] - h²·f[i][j][k]) / 6
//                at every interior point, reading u only;
//   2. boundary: every boundary cell of v takes the value of one interior cell
//                of v, its source: v[i][j][k] = v[s(i)][s(j)][s(k)], s applied
//                per axis by jacobi_source(). Dirichlet has no step 2: its
//                boundary cells keep their initial values forever.
// The residual of a grid u is the RMS over the interior of the h²-scaled
// defect h²·(∇²u − f) = (sum of the six neighbours − 6u − h²f).
//
// The heat update (kernels/heat2d.h; protocol_heat_update) on an nx×ny grid
// (nz = 1, every point of the plane i = 0 with 1 <= j <= ny-2, 1 <= k <= nx-2
// interior): v[j][k] = u + r·(u[j][k-1] + u[j][k+1] + u[j-1][k] + u[j+1][k] − 4u),
// f unused, the boundary Dirichlet. A step is an iteration: everything below
// (the solve, the flaws, prev, scale) holds for it as it stands.
#ifndef STENCIL_JACOBI_REF_H
#define STENCIL_JACOBI_REF_H

#include <stddef.h>

// Boundary conditions. runner_jacobi.cu passes them to the student's code by
// name and maps them onto kernels/jacobi.h's LAB_BC_* constants.
#define JACOBI_BC_DIRICHLET 0   // boundary cells fixed at their initial values
#define JACOBI_BC_NEUMANN   1   // zero gradient: a boundary cell copies its nearest interior cell
#define JACOBI_BC_PERIODIC  2   // period n-2 over the interior: a boundary cell copies the opposite interior layer

// The update one iteration applies at an interior point (lab.conf's `update`).
#define JACOBI_UPDATE_JACOBI 0  // (six neighbours - h²f) / 6 on an nx×ny×nz grid
#define JACOBI_UPDATE_HEAT2D 1  // u + rate·(four neighbours - 4u) on an nx×ny grid (nz = 1)

// Which iteration to run: the lab's, or one with a classic mistake (used to
// name a student's mistake when the result matches it).
typedef enum jacobi_flaw {
    JACOBI_EXACT,           // the lab's iteration: sweep into the other buffer, then the boundary
    JACOBI_GAUSS_SEIDEL,    // the sweep overwrites u in place, i then j then k ascending (an in-place update)
    JACOBI_BOUNDARY_FIRST   // the boundary step runs before the sweep, from the target's stale interior
} jacobi_flaw;

typedef struct jacobi_grid {
    size_t nx, ny, nz;      // points per axis, boundary layers included (>= 3 each for Neumann, periodic)
    double h;               // grid spacing
    int bc;                 // JACOBI_BC_*
    int update;             // JACOBI_UPDATE_* (0, Jacobi's, when left out)
    double rate;            // heat2d: r = alpha dt / h², in (0, 1/4]
} jacobi_grid;

typedef struct jacobi_run {
    int iters;              // iterations to run at most
    int check_every;        // the residual is computed after every check_every-th iteration (0: never)
    double stop_below;      // stop at a check whose residual is below this (<= 0: never stop early)
    jacobi_flaw flaw;       // which iteration
} jacobi_run;

typedef struct jacobi_outcome {
    int iters;              // iterations done
    double residual;        // residual at the last check, or -1 when no check was made
    double scale;           // max |u| over every grid of the run + h²·max|f|/6: the size float rounding scales with
    double *history;        // if not NULL: residual at check c (after iteration (c+1)*check_every), iters/check_every entries
    double *prev;           // if not NULL: the grid after iters-1 iterations (the initial grid when iters <= 1); not for Gauss-Seidel
} jacobi_outcome;

// The name of bc ("dirichlet", "neumann", "periodic"), or "?".
const char *jacobi_bc_name(int bc);

// The bc called name, or -1 when there is none.
int jacobi_bc_parse(const char *name);

// The update called name (UPDATE_JACOBI, UPDATE_HEAT2D of protocol.h), or -1.
int jacobi_update_parse(const char *name);

// 1 if g is a 2D grid of the heat update: one plane, interior in x and y only.
int jacobi_is_2d(const jacobi_grid *g);

// Number of points of g, and of interior points.
size_t jacobi_cells(const jacobi_grid *g);
size_t jacobi_interior_cells(const jacobi_grid *g);

// 1 if (i, j, k) is an interior point of g.
int jacobi_is_interior(const jacobi_grid *g, size_t i, size_t j, size_t k);

// The source along one axis of n points (n >= 3) for position x: x itself
// when interior; Neumann 0 -> 1 and n-1 -> n-2; periodic 0 -> n-2 and
// n-1 -> 1; Dirichlet x itself. An edge or corner cell applies it on each of
// its boundary axes, so it copies an interior cell diagonally across.
size_t jacobi_source(size_t x, size_t n, int bc);

// Applies the boundary step to u (no-op for Dirichlet or a grid without interior).
void jacobi_ref_boundary(const jacobi_grid *g, double *u);

// The interior value one sweep computes at (i, j, k) from u, f and h (the
// heat update: from u and rate).
double jacobi_ref_point(const jacobi_grid *g, const double *u, const float *f, size_t i, size_t j, size_t k);

// One sweep: v = sweep(u) at interior points; v's boundary cells untouched.
// u and v must not overlap. Returns the largest |value| written.
double jacobi_ref_sweep(const jacobi_grid *g, const double *u, const float *f, double *v);

// The residual of u as defined above (0 for a grid without interior); Jacobi's
// update only (a heat solve makes no checks).
double jacobi_ref_residual(const jacobi_grid *g, const double *u, const float *f);

// The same residual of a float grid (what a student's grid gives).
double jacobi_ref_residual_float(const jacobi_grid *g, const float *u, const float *f);

// Runs run->flaw's iteration from u0 (both buffers start as u0): at most
// run->iters iterations, stopping early as run asks. Writes the final grid
// into u (jacobi_cells doubles) and fills out. Returns 0, or -1 when out of memory.
int jacobi_ref_solve(const jacobi_grid *g, const float *u0, const float *f, const jacobi_run *run,
                     double *u, jacobi_outcome *out);

// ---------------------------------------------------------------------------
// The manufactured solution (second-order check)
// ---------------------------------------------------------------------------

// u(x, y, z) = sin(pi x) sin(pi y) sin(pi z) at the point (i, j, k), with
// x = k*h, y = j*h, z = i*h: zero on the faces of the unit cube when
// h = 1/(n-1), and ∇²u = -3 pi² u exactly.
double jacobi_mms_exact(const jacobi_grid *g, size_t i, size_t j, size_t k);

// Fills u0 with the exact solution at every point (its Dirichlet boundary
// values included) and f with -3 pi² times it.
void jacobi_mms_fill(const jacobi_grid *g, float *u0, float *f);

#endif // STENCIL_JACOBI_REF_H
