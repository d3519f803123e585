// kernels/jacobi.h — what lab 5 gives the student's kernel file.
//
// Include it at the top of your kernel file. It states the problem, the three
// boundary conditions and the residual precisely, and declares the one host
// function you write, jacobi_solve(). The grader's CPU reference
// (reference/jacobi_ref.c) implements exactly these definitions.
//
// THE PROBLEM. The Poisson equation ∇²u = f on an nx×ny×nz grid of spacing h,
// solved by Jacobi iteration. Naming as in lab.h: i is the plane (z, slowest),
// j the row (y), k the column (x, fastest, contiguous); JACOBI_INDEX(i, j, k,
// nx, ny) is the linear index. Points with 1 <= i <= nz-2, 1 <= j <= ny-2 and
// 1 <= k <= nx-2 are interior; all others are boundary cells (one layer thick).
//
// ONE ITERATION turns grid u into grid v, in two steps:
//   1. the sweep, at every interior point, reading u only:
//        v[i][j][k] = ( u[i][j][k-1] + u[i][j][k+1] + u[i][j-1][k] + u[i][j+1][k]
//                     + u[i-1][j][k] + u[i+1][j][k] - h*h*f[i][j][k] ) / 6
//   2. the boundary step, on v after the sweep has finished everywhere:
//        every boundary cell takes the value of one interior cell of v, its
//        source: v[i][j][k] = v[s(i)][s(j)][s(k)], with s applied to each axis
//        (n the number of points along that axis):
//          s(x) = x  for an interior position 1 <= x <= n-2, and
//          LAB_BC_DIRICHLET  no boundary step: boundary cells keep their initial values;
//          LAB_BC_NEUMANN    zero gradient across the face: s(0) = 1, s(n-1) = n-2
//                            (a boundary cell copies its nearest interior cell);
//          LAB_BC_PERIODIC   period n-2 over the interior: s(0) = n-2, s(n-1) = 1
//                            (a boundary cell copies the interior layer on the opposite side).
//        An edge or corner cell is on the boundary along two or three axes and
//        applies s on each of them: the Neumann corner (0,0,0) copies (1,1,1),
//        the periodic one copies (nz-2, ny-2, nx-2). Sources are always
//        interior cells, so the boundary cells can be set in any order.
// Then u and v swap roles. v is never u: Jacobi reads only the old grid (an
// in-place update is a different method, Gauss–Seidel, whose result depends
// on the order in which points are visited).
//
// THE RESIDUAL of a grid u, how far it is from solving the discrete equation,
// is the root mean square over the interior of the h²-scaled defect:
//     r = sqrt( (1/N) * sum over interior points of d² ),
//     d = u[i][j][k-1] + u[i][j][k+1] + u[i][j-1][k] + u[i][j+1][k] + u[i-1][j][k] + u[i+1][j][k]
//         - 6*u[i][j][k] - h*h*f[i][j][k]
// with N = (nx-2)(ny-2)(nz-2). d = h²(∇²u - f) is six times the change the
// next sweep would make at that point, so r is measured in u's own units.
#ifndef STENCIL_JACOBI_H
#define STENCIL_JACOBI_H

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// The boundary conditions
// ---------------------------------------------------------------------------

#define LAB_BC_DIRICHLET 0   // boundary cells fixed at their initial values
#define LAB_BC_NEUMANN   1   // zero gradient: s(0) = 1, s(n-1) = n-2
#define LAB_BC_PERIODIC  2   // periodic over the interior: s(0) = n-2, s(n-1) = 1

// Linear index of point (i, j, k) of an nx×ny×nz grid stored plane by plane.
#define JACOBI_INDEX(i, j, k, nx, ny) (((size_t)(i) * (ny) + (size_t)(j)) * (nx) + (size_t)(k))

// Device scratch the kit hands you, in doubles (for the residual's sum).
#define JACOBI_SCRATCH_DOUBLES 64

// ---------------------------------------------------------------------------
// What the student writes
// ---------------------------------------------------------------------------

typedef struct jacobi_problem {
    unsigned int nx, ny, nz;  // points per axis, boundary layers included (each >= 3)
    float h;                  // grid spacing
    int bc;                   // LAB_BC_DIRICHLET, LAB_BC_NEUMANN or LAB_BC_PERIODIC
    int max_iters;            // iterations to do at most
    int check_every;          // compute the residual after every check_every-th iteration; 0: never
    float tol;                // stop at the first check whose residual is below tol
    double *d_scratch;        // device memory, JACOBI_SCRATCH_DOUBLES doubles, yours to use (contents undefined)
} jacobi_problem;

// Runs Jacobi iterations on the grid in d_a, using d_b as the second buffer.
// On entry d_a and d_b both hold the initial grid (its boundary cells already
// satisfy the boundary condition); d_f holds f; all three are device arrays
// of nx*ny*nz floats, and d_f must not be written. Does iterations t = 1, 2,
// ... up to p->max_iters; when p->check_every > 0 and t is a multiple of it,
// computes the residual of the newest grid and stops after iteration t if it
// is below p->tol. Sets *iters_done to the iterations done and *residual to
// the residual of the last check (-1 if none was made). Returns which buffer
// holds the newest grid: 0 for d_a, 1 for d_b. Launch on the default stream:
// creating streams or events is refused (the kit orders and times the work
// itself).
int jacobi_solve(float *d_a, float *d_b, const float *d_f, const jacobi_problem *p,
                 int *iters_done, float *residual);

#endif // STENCIL_JACOBI_H
