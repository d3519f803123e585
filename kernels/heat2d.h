// kernels/heat2d.h — what lab 10 gives the student's kernel file.
//
// Include it at the top of your kernel file. It states the problem, the grid's
// padded layout and the one host function you write, heat_solve(). The
// grader's CPU reference (reference/jacobi_ref.c, its heat update) implements
// exactly these definitions.
//
// THE PROBLEM. The heat equation u_t = alpha * (u_xx + u_yy) on an nx×ny grid
// of spacing h, stepped explicitly in time with step dt. Point (j, k) is row j
// (y) and column k (x, fastest, contiguous). Points with 1 <= j <= ny-2 and
// 1 <= k <= nx-2 are interior; the others are the boundary (one layer thick):
// Dirichlet, their values fixed for ever (the kit draws one temperature for
// each edge, hot or cold, and the interior at random).
//
// ONE TIME STEP turns grid u into grid v, at every interior point, reading u only:
//     v[j][k] = u[j][k] + r * ( u[j][k-1] + u[j][k+1] + u[j-1][k] + u[j+1][k] - 4 * u[j][k] )
// with r = alpha * dt / h². For 0 < r <= 1/4 the new value is an average of
// the five old ones with weights 1 - 4r, r, r, r, r, none negative: the step
// is stable, and no temperature leaves the range it started in. (Above 1/4
// the centre's weight turns negative and errors grow every step.) Then u and
// v swap roles. v is never u: a step reads only the old grid.
//
// THE LAYOUT. Rows are padded: row j starts at HEAT_INDEX(j, 0, pitch), pitch
// (floats) is nx rounded up to a multiple of 32, so every row starts on a
// 128-byte boundary and the float4 at HEAT_INDEX(j, 4q, pitch) is aligned.
// Columns nx..pitch-1 of each row are padding: the kit fills them with a NaN
// of its own and checks them after your solve. You may read them (a float4
// that runs past the row's end loads some), never write them, and never let
// their values into a result.
#ifndef STENCIL_HEAT2D_H
#define STENCIL_HEAT2D_H

#include <cuda_runtime.h>

// Linear index of point (j, k) of a grid whose rows are pitch floats apart.
#define HEAT_INDEX(j, k, pitch) ((size_t)(j) * (pitch) + (size_t)(k))

// ---------------------------------------------------------------------------
// What the student writes
// ---------------------------------------------------------------------------

typedef struct heat_problem {
    unsigned int nx, ny;   // points per row (x) and rows (y), boundary included (each >= 3)
    unsigned int pitch;    // floats from one row to the next: nx rounded up to a multiple of 32
    float r;               // alpha * dt / h², 0 < r <= 1/4
    int steps;             // time steps to do (>= 1)
} heat_problem;

// Does p->steps time steps on the grid in d_a, using d_b as the second buffer.
// On entry d_a and d_b both hold the initial grid (ny rows of pitch floats;
// the boundary cells, which no step changes, are in both). Returns which
// buffer holds the grid after the last step: 0 for d_a, 1 for d_b. Launch on
// the default stream: creating streams or events is refused (the kit orders
// and times the work itself).
int heat_solve(float *d_a, float *d_b, const heat_problem *p);

#endif // STENCIL_HEAT2D_H
