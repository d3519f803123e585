// reference/jacobi_ref.c — see jacobi_ref.h.
#include "jacobi_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"  // the heat update and the update names (UPDATE_*)

static const char *const jacobi_bc_names[] = {"dirichlet", "neumann", "periodic"};

const char *jacobi_bc_name(int bc)
{
    return bc >= 0 && bc <= JACOBI_BC_PERIODIC ? jacobi_bc_names[bc] : "?";
}

int jacobi_bc_parse(const char *name)
{
    for (int bc = 0; bc <= JACOBI_BC_PERIODIC; bc++)
        if (name && !strcmp(name, jacobi_bc_names[bc]))
            return bc;
    return -1;
}

int jacobi_update_parse(const char *name)
{
    if (name && !strcmp(name, UPDATE_JACOBI))
        return JACOBI_UPDATE_JACOBI;
    if (name && !strcmp(name, UPDATE_HEAT2D))
        return JACOBI_UPDATE_HEAT2D;
    return -1;
}

int jacobi_is_2d(const jacobi_grid *g)
{
    return g->update == JACOBI_UPDATE_HEAT2D;
}

// The planes holding interior points: [*first, *end).
static void jacobi_interior_planes(const jacobi_grid *g, size_t *first, size_t *end)
{
    *first = jacobi_is_2d(g) ? 0 : 1;
    *end = jacobi_is_2d(g) ? g->nz : g->nz - 1;
}

size_t jacobi_cells(const jacobi_grid *g)
{
    return g->nx * g->ny * g->nz;
}

size_t jacobi_interior_cells(const jacobi_grid *g)
{
    if (g->nx < 3 || g->ny < 3 || (!jacobi_is_2d(g) && g->nz < 3))
        return 0;
    return (g->nx - 2) * (g->ny - 2) * (jacobi_is_2d(g) ? g->nz : g->nz - 2);
}

int jacobi_is_interior(const jacobi_grid *g, size_t i, size_t j, size_t k)
{
    int z_inside = jacobi_is_2d(g) ? i < g->nz : i >= 1 && i + 1 < g->nz;
    return z_inside && j >= 1 && k >= 1 && j + 1 < g->ny && k + 1 < g->nx;
}

size_t jacobi_source(size_t x, size_t n, int bc)
{
    if (bc == JACOBI_BC_DIRICHLET || (x != 0 && x != n - 1))
        return x;
    if (bc == JACOBI_BC_NEUMANN)
        return x == 0 ? 1 : n - 2;
    return x == 0 ? n - 2 : 1;
}

// Linear index of (i, j, k) in g.
static size_t jacobi_at(const jacobi_grid *g, size_t i, size_t j, size_t k)
{
    return (i * g->ny + j) * g->nx + k;
}

// Sets boundary cell (i, j, k) of u from its source cell.
static void jacobi_ref_boundary_cell(const jacobi_grid *g, double *u, size_t i, size_t j, size_t k)
{
    size_t si = jacobi_source(i, g->nz, g->bc), sj = jacobi_source(j, g->ny, g->bc);
    u[jacobi_at(g, i, j, k)] = u[jacobi_at(g, si, sj, jacobi_source(k, g->nx, g->bc))];
}

void jacobi_ref_boundary(const jacobi_grid *g, double *u)
{
    if (g->bc == JACOBI_BC_DIRICHLET || jacobi_interior_cells(g) == 0)
        return;
    for (size_t i = 0; i < g->nz; i++)
        for (size_t j = 0; j < g->ny; j++) {
            int whole_row = i == 0 || j == 0 || i == g->nz - 1 || j == g->ny - 1;
            size_t step = whole_row ? 1 : g->nx - 1;  // an interior row has two boundary cells
            for (size_t k = 0; k < g->nx; k += step)
                jacobi_ref_boundary_cell(g, u, i, j, k);
        }
}

double jacobi_ref_point(const jacobi_grid *g, const double *u, const float *f, size_t i, size_t j, size_t k)
{
    size_t p = jacobi_at(g, i, j, k), row = g->nx, plane = g->nx * g->ny;
    if (jacobi_is_2d(g))
        return protocol_heat_update(u[p], u[p - 1], u[p + 1], u[p - row], u[p + row], g->rate);
    double sum = u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane];
    return (sum - g->h * g->h * (double)f[p]) / 6.0;
}

double jacobi_ref_sweep(const jacobi_grid *g, const double *u, const float *f, double *v)
{
    size_t row = g->nx, plane = g->nx * g->ny, first, end;
    double h2 = g->h * g->h, m = 0.0;
    int heat = jacobi_is_2d(g);
    jacobi_interior_planes(g, &first, &end);
    if (jacobi_interior_cells(g) == 0)
        return 0.0;
#pragma omp parallel for reduction(max : m) schedule(static) if (plane * g->nz > 100000)
    for (size_t q = first * (g->ny - 2); q < end * (g->ny - 2); q++) {  // every interior row: plane i, row j
        size_t i = q / (g->ny - 2), j = q % (g->ny - 2) + 1, p0 = jacobi_at(g, i, j, 0);
        const double *c = u + p0, *below = heat ? c : c - plane, *above = heat ? c : c + plane;
        const float *fr = f + p0;
        double *out = v + p0;
        for (size_t k = 1; k + 1 < g->nx; k++) {
            double x = heat ? protocol_heat_update(c[k], c[k - 1], c[k + 1], c[k - row], c[k + row], g->rate)
                            : (c[k - 1] + c[k + 1] + c[k - row] + c[k + row] + below[k] + above[k] -
                               h2 * (double)fr[k]) / 6.0;
            out[k] = x;
            m = fabs(x) > m ? fabs(x) : m;
        }
    }
    return m;
}

// The in-place sweep: each point reads neighbours already updated in this
// sweep. Returns the largest |value| it wrote.
static double jacobi_ref_sweep_in_place(const jacobi_grid *g, double *u, const float *f)
{
    double m = 0.0;
    size_t first, end;
    jacobi_interior_planes(g, &first, &end);
    for (size_t i = first; i < end; i++)
        for (size_t j = 1; j + 1 < g->ny; j++)
            for (size_t k = 1; k + 1 < g->nx; k++) {
                double x = jacobi_ref_point(g, u, f, i, j, k);
                u[jacobi_at(g, i, j, k)] = x;
                m = fabs(x) > m ? fabs(x) : m;
            }
    return m;
}

// Sum over the interior points of plane i of the squared defect.
static double jacobi_ref_plane_defect(const jacobi_grid *g, const double *u, const float *f, size_t i)
{
    double sum = 0.0;
    for (size_t j = 1; j + 1 < g->ny; j++)
        for (size_t k = 1; k + 1 < g->nx; k++) {
            double d = 6.0 * (jacobi_ref_point(g, u, f, i, j, k) - u[jacobi_at(g, i, j, k)]);
            sum += d * d;
        }
    return sum;
}

double jacobi_ref_residual(const jacobi_grid *g, const double *u, const float *f)
{
    size_t n = jacobi_interior_cells(g);
    double sum = 0.0, *planes = n ? malloc(g->nz * sizeof(double)) : NULL;
    if (n == 0)
        return 0.0;
    if (!planes)
        return NAN;
#pragma omp parallel for schedule(static) if (n > 100000)
    for (size_t i = 1; i < g->nz - 1; i++)
        planes[i] = jacobi_ref_plane_defect(g, u, f, i);
    for (size_t i = 1; i + 1 < g->nz; i++)  // in plane order: the same sum on any number of threads
        sum += planes[i];
    free(planes);
    return sqrt(sum / (double)n);
}

double jacobi_ref_residual_float(const jacobi_grid *g, const float *u, const float *f)
{
    size_t cells = jacobi_cells(g);
    double *d = malloc(cells * sizeof(double));
    if (!d)
        return NAN;
    for (size_t p = 0; p < cells; p++)
        d[p] = u[p];
    double r = jacobi_ref_residual(g, d, f);
    free(d);
    return r;
}

// Largest |x| over n doubles.
static double jacobi_max_abs(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t p = 0; p < n; p++)
        m = fabs(x[p]) > m ? fabs(x[p]) : m;
    return m;
}

// One iteration of flaw from *cur into *next (swapping them when the flaw
// double-buffers): afterwards *cur holds the new grid. Returns the largest
// |value| the sweep wrote (boundary cells only copy interior ones).
static double jacobi_ref_iterate(const jacobi_grid *g, const float *f, jacobi_flaw flaw, double **cur, double **next)
{
    double m;
    if (flaw == JACOBI_GAUSS_SEIDEL) {
        m = jacobi_ref_sweep_in_place(g, *cur, f);
        jacobi_ref_boundary(g, *cur);
        return m;
    }
    if (flaw == JACOBI_BOUNDARY_FIRST)
        jacobi_ref_boundary(g, *next);
    m = jacobi_ref_sweep(g, *cur, f, *next);
    if (flaw == JACOBI_EXACT)
        jacobi_ref_boundary(g, *next);
    double *t = *cur;
    *cur = *next;
    *next = t;
    return m;
}

int jacobi_ref_solve(const jacobi_grid *g, const float *u0, const float *f, const jacobi_run *run,
                     double *u, jacobi_outcome *out)
{
    size_t cells = jacobi_cells(g);
    double *other = malloc(cells * sizeof(double)), *cur = u, *next = other;
    double fmax = 0.0;
    if (!other)
        return -1;
    for (size_t p = 0; p < cells; p++) {
        u[p] = other[p] = u0[p];
        fmax = fabs((double)f[p]) > fmax ? fabs((double)f[p]) : fmax;
    }
    out->iters = 0;
    out->residual = -1.0;
    double umax = jacobi_max_abs(u, cells);
    for (int t = 1; t <= run->iters; t++) {
        double m = jacobi_ref_iterate(g, f, run->flaw, &cur, &next);
        out->iters = t;
        umax = m > umax ? m : umax;
        if (run->check_every > 0 && t % run->check_every == 0) {
            out->residual = jacobi_ref_residual(g, cur, f);
            if (out->history)
                out->history[t / run->check_every - 1] = out->residual;
            if (out->residual < run->stop_below)
                break;
        }
    }
    if (out->prev && run->flaw != JACOBI_GAUSS_SEIDEL)  // double-buffered: next holds the grid before
        memcpy(out->prev, next, cells * sizeof(double));
    if (cur != u)
        memcpy(u, cur, cells * sizeof(double));
    out->scale = umax + (jacobi_is_2d(g) ? 0.0 : g->h * g->h * fmax / 6.0);  // the heat update reads no f
    free(other);
    return 0;
}

// ---------------------------------------------------------------------------
// The manufactured solution
// ---------------------------------------------------------------------------

double jacobi_mms_exact(const jacobi_grid *g, size_t i, size_t j, size_t k)
{
    const double pi = 3.14159265358979323846;
    return sin(pi * (double)k * g->h) * sin(pi * (double)j * g->h) * sin(pi * (double)i * g->h);
}

void jacobi_mms_fill(const jacobi_grid *g, float *u0, float *f)
{
    const double pi = 3.14159265358979323846;
    for (size_t i = 0; i < g->nz; i++)
        for (size_t j = 0; j < g->ny; j++)
            for (size_t k = 0; k < g->nx; k++) {
                double u = jacobi_mms_exact(g, i, j, k);
                u0[jacobi_at(g, i, j, k)] = (float)u;
                f[jacobi_at(g, i, j, k)] = (float)(-3.0 * pi * pi * u);
            }
}
