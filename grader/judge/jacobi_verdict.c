// grader/judge/jacobi_verdict.c — see jacobi_verdict.h.
//
// The order of the checks is the order of the questions a teacher would ask:
// did anything escape its buffer, was f written, does the solver's answer
// make sense (buffer 0 or 1, a possible iteration count), was anything
// computed at all, was the second buffer ever used (in place?), does the grid
// match the reference after the reported iterations — and if not, which
// classic mistake it matches: the other buffer, one iteration less or more,
// a boundary face that copies the wrong layer, stale boundary values, a last
// sweep that is itself wrong. If the grid is right: was the iteration stopped
// where the residual says, and is the reported residual the grid's.
//
// The heat update (lab 10) goes through the same questions: its steps are the
// iterations, its boundary Dirichlet, and the last step's own mistakes are
// its own (heat-rate, row-tail, sizes-mixed; see jv_explain_bad_heat_step).
#include "jacobi_verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"  // the heat update
#include "verdict.h"

typedef struct jv_run {
    const jacobi_case *c;       // the case
    const jacobi_outputs *o;    // what the runner left
    const float *got;           // the returned grid (guards skipped)
    const float *other;         // the other buffer's grid
    size_t cells;               // grid cells
    int iters;                  // the reported iteration count (checked to lie in [0, max_iters])
    const double *ref;          // the reference after iters iterations
    const double *prev;         // the reference after iters - 1 (the initial grid if iters is 0)
    const double *history;      // the reference's residual at each check up to iters
    double scale;               // the reference run's scale (jacobi_outcome.scale)
    double *owned[3];           // what jv_reference allocated for them (NULL when made ahead)
} jv_run;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

// 1 if a and b differ bit for bit.
static int jv_differ(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) != 0;
}

// Cells of two float arrays of n that differ bit for bit.
static size_t jv_changed(const float *x, const float *y, size_t n)
{
    size_t d = 0;
    for (size_t p = 0; p < n; p++)
        d += (size_t)jv_differ(x[p], y[p]);
    return d;
}

// Guard cells around a grid of cells cells that lost their pattern.
static size_t jv_guard_damage(const float *buf, size_t guard, size_t cells)
{
    uint32_t bits;
    size_t bad = 0;
    for (size_t p = 0; p < 2 * guard; p++) {
        memcpy(&bits, &buf[p < guard ? p : cells + p], sizeof(bits));
        bad += (size_t)(bits != GUARD_BITS);
    }
    return bad;
}

// 1 if |got - want| <= allowed (a NaN never is).
static int jv_close(float got, double want, double allowed)
{
    return fabs((double)got - want) <= allowed;
}

// Cells of got outside allowed of want.
static size_t jv_count_wrong(const float *got, const double *want, size_t n, double allowed)
{
    size_t bad = 0;
    for (size_t p = 0; p < n; p++)
        bad += (size_t)!jv_close(got[p], want[p], allowed);
    return bad;
}

// The (i, j, k) of linear index p of g.
static void jv_coords(const jacobi_grid *g, size_t p, long ijk[3])
{
    ijk[2] = (long)(p % g->nx);
    ijk[1] = (long)((p / g->nx) % g->ny);
    ijk[0] = (long)(p / (g->nx * g->ny));
}

// A new double copy of n floats, or NULL.
static double *jv_widen(const float *x, size_t n)
{
    double *d = calloc(n ? n : 1, sizeof(double));
    for (size_t p = 0; d && p < n; p++)
        d[p] = x[p];
    return d;
}

// Marks v failed with key and hint (reason and detail are the caller's).
static void jv_fail(jacobi_verdict *v, const char *key, const char *hint)
{
    v->passed = 0;
    v->hint_key = key;
    snprintf(v->hint, sizeof(v->hint), "%s", hint);
}

// ---------------------------------------------------------------------------
// Before any reference: buffers, claims, signs of life
// ---------------------------------------------------------------------------

// Guards, f, the returned index and the iteration count. Returns 1 if it failed v.
static int jv_check_claims(const jv_run *r, jacobi_verdict *v)
{
    const jacobi_outputs *o = r->o;
    size_t bad = jv_guard_damage(o->a, o->guard, r->cells) + jv_guard_damage(o->b, o->guard, r->cells) +
                 jv_guard_damage(o->f_after, o->guard, r->cells);
    if (bad) {
        snprintf(v->reason, sizeof(v->reason), "out-of-bounds write: %zu cells of the guard zones around d_a, d_b and d_f were overwritten", bad);
        jv_fail(v, HINT_OUT_OF_BOUNDS, "an index runs outside the grid: check every guard, in the sweep, the boundary kernel and the residual (run compute-sanitizer on a GPU: SANITIZE=1).");
        return 1;
    }
    if ((bad = jv_changed(o->f_after + o->guard, r->c->f, r->cells)) != 0) {
        snprintf(v->reason, sizeof(v->reason), "f was modified (%zu cells)", bad);
        jv_fail(v, HINT_INPUT_MODIFIED, "d_f is read-only: check which pointer each store goes to.");
        return 1;
    }
    if (o->result != 0 && o->result != 1) {
        snprintf(v->reason, sizeof(v->reason), "jacobi_solve returned %d: it must return 0 (the newest grid is in d_a) or 1 (in d_b)", o->result);
        jv_fail(v, HINT_WRONG_BUFFER, "track which buffer holds the newest grid as you swap, and return it.");
        return 1;
    }
    if (o->iters < 0 || o->iters > r->c->max_iters) {
        snprintf(v->reason, sizeof(v->reason), "*iters_done = %d, outside 0..%d (max_iters)", o->iters, r->c->max_iters);
        jv_fail(v, HINT_ITERATIONS, "set *iters_done to the number of iterations done (the last t of the loop).");
        return 1;
    }
    return 0;
}

// Nothing computed, or the second buffer never used. Returns 1 if it failed v.
static int jv_check_buffers_used(const jv_run *r, jacobi_verdict *v)
{
    const float *a = r->o->a + r->o->guard, *b = r->o->b + r->o->guard;
    size_t a_changed = jv_changed(a, r->c->u0, r->cells), b_changed = jv_changed(b, r->c->u0, r->cells);
    if (r->c->max_iters < 1 || jacobi_interior_cells(&r->c->g) == 0)
        return 0;
    if (a_changed == 0 && b_changed == 0) {
        snprintf(v->reason, sizeof(v->reason), "nothing written: d_a and d_b both still hold the initial grid");
        jv_fail(v, HINT_NOTHING_WRITTEN, "does jacobi_solve launch the sweep, and does the sweep store into its output grid?");
        return 1;
    }
    if (r->o->iters == 0) {
        snprintf(v->reason, sizeof(v->reason), "*iters_done = 0, yet the grids changed");
        jv_fail(v, HINT_ITERATIONS, "set *iters_done to the number of iterations done (the last t of the loop).");
        return 1;
    }
    int other_unused = (r->o->result == 0 ? b_changed : a_changed) == 0;
    // d_b returned and d_a untouched: one launch may have done every iteration, reading d_a and writing
    // d_b (one iteration, or several a launch). An in-place solve on d_b is caught by the grid itself.
    int one_pass = r->o->result == 1;
    if (other_unused && !one_pass) {
        snprintf(v->reason, sizeof(v->reason), "d_%c was changed but d_%c never written, after %d iterations: the grid was updated in place",
                 r->o->result == 0 ? 'a' : 'b', r->o->result == 0 ? 'b' : 'a', r->o->iters);
        jv_fail(v, HINT_IN_PLACE, "Jacobi must read the old grid and write the other buffer, then swap: updating in place mixes old and new values (Gauss-Seidel, in an order the threads decide).");
        return 1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------

int jacobi_reference_solve(const jacobi_case *c, int iters, double *grid, double *prev, double *history, double *scale)
{
    jacobi_run run = {iters, c->check_every, 0.0, JACOBI_EXACT};
    jacobi_outcome out;
    memset(&out, 0, sizeof(out));
    out.history = history;
    out.prev = prev;
    int rc = jacobi_ref_solve(&c->g, c->u0, c->f, &run, grid, &out);
    *scale = out.scale;
    return rc;
}

// The reference for the reported iteration count: the one made ahead when
// it ran as many, else solved here. Returns 0 or -1.
static int jv_reference(jv_run *r)
{
    const jacobi_reference *early = r->c->reference;
    if (early && early->iters == r->iters) {
        r->ref = early->grid, r->prev = early->prev, r->history = early->history, r->scale = early->scale;
        return 0;
    }
    int checks = r->c->check_every > 0 ? r->iters / r->c->check_every : 0;
    double *grid = r->owned[0] = malloc(r->cells * sizeof(double));
    double *prev = r->owned[1] = malloc(r->cells * sizeof(double));
    double *history = r->owned[2] = malloc(((size_t)checks + 1) * sizeof(double));
    if (!grid || !prev || !history)
        return -1;
    r->ref = grid, r->prev = prev, r->history = history;
    return jacobi_reference_solve(r->c, r->iters, grid, prev, history, &r->scale);
}

// 1 if got matches flaw's iteration after iters iterations within allowed
// (-1 when out of memory).
static int jv_matches_flaw(const jv_run *r, jacobi_flaw flaw, double allowed)
{
    double *u = malloc(r->cells * sizeof(double));
    jacobi_run run = {r->iters, 0, 0.0, flaw};
    jacobi_outcome out;
    memset(&out, 0, sizeof(out));
    if (!u || jacobi_ref_solve(&r->c->g, r->c->u0, r->c->f, &run, u, &out) != 0) {
        free(u);
        return -1;
    }
    int match = jv_count_wrong(r->got, u, r->cells, allowed) == 0;
    free(u);
    return match;
}

// Compares the returned grid with the reference; fills v's counts and first cell.
static void jv_compare(const jv_run *r, jacobi_verdict *v)
{
    v->cells = r->cells;
    for (size_t p = 0; p < r->cells; p++) {
        double err = fabs((double)r->got[p] - r->ref[p]);
        if (err <= v->allowed) {
            v->max_err = err > v->max_err ? err : v->max_err;
            continue;
        }
        if (v->wrong++ == 0) {
            jv_coords(&r->c->g, p, v->first);
            v->first_want = r->ref[p];
            v->first_got = r->got[p];
        }
        if (!isnan(err))
            v->max_err = err > v->max_err ? err : v->max_err;
    }
}

// ---------------------------------------------------------------------------
// The boundary
// ---------------------------------------------------------------------------

// Linear index of a point given as pos[0] = k, pos[1] = j, pos[2] = i.
static size_t jv_at(const jacobi_grid *g, const size_t pos[3])
{
    return (pos[2] * g->ny + pos[1]) * g->nx + pos[0];
}

// Points along axis a (0 = x/k, 1 = y/j, 2 = z/i).
static size_t jv_extent(const jacobi_grid *g, int a)
{
    return a == 0 ? g->nx : a == 1 ? g->ny : g->nz;
}

// 1 if every cell of the face of axis a at position x (other coordinates
// interior) equals, bit for bit, the cell at position layer along a.
static int jv_face_is_copy(const jacobi_grid *g, const float *u, int a, size_t x, size_t layer)
{
    int b = (a + 1) % 3, c = (a + 2) % 3;
    size_t pos[3], src[3];
    for (size_t pb = 1; pb + 1 < jv_extent(g, b); pb++)
        for (size_t pc = 1; pc + 1 < jv_extent(g, c); pc++) {
            pos[a] = x, pos[b] = pb, pos[c] = pc;
            memcpy(src, pos, sizeof(src));
            src[a] = layer;
            if (jv_differ(u[jv_at(g, pos)], u[jv_at(g, src)]))
                return 0;
        }
    return 1;
}

// 1 if every cell of the face of axis a at position x (other coordinates
// interior) equals, bit for bit, the same cell of other.
static int jv_face_is_copy_of(const jacobi_grid *g, const float *u, const float *other, int a, size_t x)
{
    int b = (a + 1) % 3, c = (a + 2) % 3;
    size_t pos[3];
    for (size_t pb = 1; pb + 1 < jv_extent(g, b); pb++)
        for (size_t pc = 1; pc + 1 < jv_extent(g, c); pc++) {
            pos[a] = x, pos[b] = pb, pos[c] = pc;
            if (jv_differ(u[jv_at(g, pos)], other[jv_at(g, pos)]))
                return 0;
        }
    return 1;
}

// The layer the face of axis a at position x copies: the right one if it
// does, else the first other layer it copies entirely; -1 if none.
static long jv_face_copies(const jacobi_grid *g, const float *u, int a, size_t x)
{
    size_t n = jv_extent(g, a), want = jacobi_source(x, n, g->bc);
    if (jv_face_is_copy(g, u, a, x, want))
        return (long)want;
    for (size_t layer = 0; layer < n; layer++)
        if (layer != x && layer != want && jv_face_is_copy(g, u, a, x, layer))
            return (long)layer;
    return -1;
}

// Counts boundary cells of u that differ from their source; *on_faces gets
// those whose other two coordinates are interior (not edges or corners), and
// *unwritten those that still hold the initial grid's value u0 bit for bit
// (cells the boundary step never wrote).
static size_t jv_stale_boundary(const jacobi_grid *g, const float *u, const float *u0, size_t *on_faces, size_t *unwritten)
{
    size_t bad = 0, pos[3], src[3];
    *on_faces = *unwritten = 0;
    for (pos[2] = 0; pos[2] < g->nz; pos[2]++)
        for (pos[1] = 0; pos[1] < g->ny; pos[1]++)
            for (pos[0] = 0; pos[0] < g->nx; pos[0]++) {
                int outside = 0;
                for (int a = 0; a < 3; a++) {
                    src[a] = jacobi_source(pos[a], jv_extent(g, a), g->bc);
                    outside += src[a] != pos[a];
                }
                size_t at = jv_at(g, pos);
                if (outside == 0 || !jv_differ(u[at], u[jv_at(g, src)]))
                    continue;
                bad++;
                *on_faces += (size_t)(outside == 1);
                *unwritten += (size_t)!jv_differ(u[at], u0[at]);
            }
    return bad;
}

// Cells of the face of axis a at position x (other coordinates interior)
// that differ from their source.
static size_t jv_face_stale(const jacobi_grid *g, const float *u, int a, size_t x)
{
    int b = (a + 1) % 3, c = (a + 2) % 3;
    size_t pos[3], src[3], bad = 0;
    for (size_t pb = 1; pb + 1 < jv_extent(g, b); pb++)
        for (size_t pc = 1; pc + 1 < jv_extent(g, c); pc++) {
            pos[a] = x, pos[b] = pb, pos[c] = pc;
            memcpy(src, pos, sizeof(src));
            src[a] = jacobi_source(x, jv_extent(g, a), g->bc);
            bad += (size_t)jv_differ(u[jv_at(g, pos)], u[jv_at(g, src)]);
        }
    return bad;
}

// 1 if every face is either wholly stale or wholly right, at least one
// stale and one right; their names go into names ("k=0, i=17").
static int jv_whole_faces_stale(const jacobi_grid *g, const float *u, char *names, size_t len)
{
    static const char axis_name[3] = {'k', 'j', 'i'};
    int stale = 0, right = 0;
    names[0] = '\0';
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            size_t n = jv_extent(g, a), x = side ? n - 1 : 0;
            size_t face = (jv_extent(g, (a + 1) % 3) - 2) * (jv_extent(g, (a + 2) % 3) - 2), bad = jv_face_stale(g, u, a, x);
            if (bad != 0 && bad != face)
                return 0;
            right += bad == 0;
            if (bad == face && stale++ < 3) {
                size_t used = strlen(names);
                snprintf(names + used, len - used, "%s%c=%zu", used ? ", " : "", axis_name[a], x);
            }
        }
    return stale > 0 && right > 0;
}

// Stale faces (differing from their source) that still hold the initial
// grid's values bit for bit: never written by the boundary step.
static size_t jv_stale_faces_unwritten(const jacobi_grid *g, const float *u, const float *u0, size_t *stale_faces)
{
    size_t unwritten = 0;
    *stale_faces = 0;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            size_t x = side ? jv_extent(g, a) - 1 : 0;
            if (!jv_face_stale(g, u, a, x))
                continue;
            ++*stale_faces;
            unwritten += jv_face_is_copy_of(g, u, u0, a, x);
        }
    return unwritten;
}

// Fails v for a face of boundary condition bc that copies the wrong layer:
// the layer its own neighbour (next 1), the second layer in (next 2), or
// another (next 0).
static void jv_fail_wrong_face(jacobi_verdict *v, int bc, int next)
{
    if (bc == JACOBI_BC_PERIODIC && next == 1)
        jv_fail(v, HINT_PERIODIC_SIDE, "the periodic face copies its own neighbour, which is the Neumann rule: a periodic face takes the opposite interior layer, face 0 layer n-2 and face n-1 layer 1 (jacobi.h's s). Is the boundary condition tested with the right LAB_BC_* constant?");
    else if (bc == JACOBI_BC_PERIODIC)
        jv_fail(v, HINT_PERIODIC_WRAP, "periodic wrap off by one: the interior repeats with period n-2, so face 0 copies layer n-2 and face n-1 copies layer 1 (jacobi.h).");
    else if (next == 2)
        jv_fail(v, HINT_NEUMANN_MIRROR, "the Neumann face copies the second layer in (face 0 takes layer 2), mirroring about the first interior layer: here the face itself is the ghost, so zero gradient means face 0 copies layer 1 and face n-1 copies layer n-2.");
    else
        jv_fail(v, HINT_NEUMANN_SIDE, "Neumann ghost from the wrong side: zero gradient means a face copies its own neighbour, face 0 copies layer 1 and face n-1 copies layer n-2 (copying the far side is the periodic rule).");
}

// Names a face that copies the wrong layer. Returns 1 if it filled v.
static int jv_explain_wrong_face(const jv_run *r, jacobi_verdict *v)
{
    static const char axis_name[3] = {'k', 'j', 'i'};
    const jacobi_grid *g = &r->c->g;
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++) {
            size_t n = jv_extent(g, a), x = side ? n - 1 : 0, want = jacobi_source(x, n, g->bc);
            long layer = jv_face_copies(g, r->got, a, x);
            if (layer < 0 || (size_t)layer == want)
                continue;
            snprintf(v->reason, sizeof(v->reason), "the %s boundary is wrong: the face %c=%zu copies layer %c=%ld instead of %c=%zu",
                     jacobi_bc_name(g->bc), axis_name[a], x, axis_name[a], layer, axis_name[a], want);
            jv_fail_wrong_face(v, g->bc, (size_t)layer == jacobi_source(x, n, JACOBI_BC_NEUMANN) ? 1 : (size_t)layer == (side ? n - 3 : 2) ? 2 : 0);
            return 1;
        }
    return 0;
}

// The boundary of the returned grid against its own interior (Neumann,
// periodic) or against the initial grid (Dirichlet). Returns 1 if it failed v.
static int jv_explain_boundary(const jv_run *r, jacobi_verdict *v)
{
    const jacobi_grid *g = &r->c->g;
    size_t on_faces, stale, stale_unwritten;
    if (g->bc == JACOBI_BC_DIRICHLET) {
        size_t changed = 0;
        for (size_t p = 0; p < r->cells; p++) {
            long ijk[3];
            jv_coords(g, p, ijk);
            changed += !jacobi_is_interior(g, (size_t)ijk[0], (size_t)ijk[1], (size_t)ijk[2]) && jv_differ(r->got[p], r->c->u0[p]);
        }
        if (!changed)
            return 0;
        snprintf(v->reason, sizeof(v->reason), "%zu Dirichlet boundary cells changed (they keep their initial values)", changed);
        jv_fail(v, HINT_BOUNDARY, jacobi_is_2d(g) ? "the boundary is fixed: a step writes interior points only (1 <= j <= ny-2, 1 <= k <= nx-2), and both buffers already hold the boundary."
                                                  : "with Dirichlet nothing may write the boundary: the sweep writes interior points only, and the boundary kernel has nothing to do.");
        return 1;
    }
    if ((stale = jv_stale_boundary(g, r->got, r->c->u0, &on_faces, &stale_unwritten)) == 0)
        return 0;
    if (jv_explain_wrong_face(r, v))
        return 1;
    snprintf(v->reason, sizeof(v->reason), "%zu boundary cells differ from the interior cell they must copy (%zu on faces, %zu on edges or corners)", stale, on_faces, stale - on_faces);
    if (on_faces == 0) {
        jv_fail(v, HINT_BOUNDARY_VALUES, "the faces are right but edges or corners are not: an edge cell applies the rule on both of its boundary axes, a corner on all three (Neumann (0,0,0) copies (1,1,1)).");
        return 1;
    }
    if (!r->c->blocked && jv_matches_flaw(r, JACOBI_BOUNDARY_FIRST, v->allowed) == 1) {
        jv_fail(v, HINT_BOUNDARY_RACE, "the grid matches the boundary step run BEFORE the sweep: boundary cells hold values one iteration old. Launch the boundary kernel after the sweep, in the same stream.");
        return 1;
    }
    char missing[64], hint[400];
    size_t stale_faces, unwritten = jv_stale_faces_unwritten(g, r->got, r->c->u0, &stale_faces);
    if (g->bc == JACOBI_BC_PERIODIC && r->iters >= 2 && stale_faces > 0 && unwritten == 0 &&
        jv_whole_faces_stale(g, r->got, missing, sizeof(missing))) {
        snprintf(v->reason, sizeof(v->reason), "the periodic face%s %s %s written but hold%s values that are not this iteration's: copied from the wrong layer",
                 strchr(missing, ',') ? "s" : "", missing, strchr(missing, ',') ? "were" : "was", strchr(missing, ',') ? "" : "s");
        jv_fail(v, HINT_PERIODIC_FACE, "a periodic face copies the wrong layer, one that still holds an older value: face 0 takes layer n-2 (the last interior layer) and face n-1 takes layer 1, never the opposite boundary layer n-1 or 0, a ghost cell the boundary step itself writes (jacobi.h).");
        return 1;
    }
    if (jv_whole_faces_stale(g, r->got, missing, sizeof(missing))) {
        snprintf(hint, sizeof(hint), "the face%s %s hold%s stale values while the other faces are right: never set, or copied from the wrong layer (periodic: face 0 takes layer n-2 and face n-1 takes layer 1 of the same axis). Does the boundary kernel cover every face, both sides of each axis, from the right layer?",
                 strchr(missing, ',') ? "s" : "", missing, strchr(missing, ',') ? "" : "s");
        jv_fail(v, HINT_BOUNDARY_VALUES, hint);
        return 1;
    }
    if (stale_faces == 6 && unwritten == stale_faces) {  // no face right, every one still the initial grid: never written
        snprintf(hint, sizeof(hint), "%s",
                 r->c->blocked ? "every face still holds the initial grid's values: no boundary cell was ever written. With a Neumann or periodic boundary they change every iteration, and a launch of several iterations has no boundary kernel after it: let the launch write the boundary cells too, each taking at every level the value of its source cell (jacobi.h's s), as the interior cells do."
                               : "every face still holds the initial grid's values: the boundary step never ran. With a Neumann or periodic boundary launch the boundary kernel after every sweep, covering both faces of each axis (jacobi.h).");
        jv_fail(v, HINT_BOUNDARY_VALUES, hint);
        return 1;
    }
    if (!r->c->blocked && r->iters >= 1 && stale_unwritten == stale) {
        snprintf(hint, sizeof(hint), "these boundary cells still hold the initial grid's values bit for bit while the other boundary cells are right: the boundary step never wrote them. Does the boundary launch's grid cover every cell of every face, along each of the three axes (nx, ny and nz: a grid sized by the wrong axis leaves the far cells out)?");
        jv_fail(v, HINT_BOUNDARY_VALUES, hint);
        return 1;
    }
    if (r->c->blocked) {
        jv_fail(v, HINT_HALO_SOURCE, "boundary cells differ from the interior cells they copy: in a launch of several iterations each halo position beyond the first boundary layer must hold the cell it stands for at every level (Neumann: mirrored about the face, position -d holds cell d+1; periodic: wrapped, a period of n-2), not a clamped one. Compute the source of each position along each axis.");
        return 1;
    }
    jv_fail(v, HINT_BOUNDARY_RACE, "some cells of a face hold older values than the interior they copy while others are right: the boundary step ran before the sweep had finished (another stream, or fused into the sweep without a grid-wide barrier).");
    return 1;
}

// ---------------------------------------------------------------------------
// The last sweep
// ---------------------------------------------------------------------------

// Interior cells of the returned grid that differ from one sweep of the
// other buffer, with f's term multiplied by fcoef (-h² is the right one).
static size_t jv_sweep_mismatch(const jv_run *r, const double *other, double fcoef, double allowed)
{
    const jacobi_grid *g = &r->c->g;
    size_t bad = 0, row = g->nx, plane = g->nx * g->ny;
    for (size_t i = 1; i + 1 < g->nz; i++)
        for (size_t j = 1; j + 1 < g->ny; j++)
            for (size_t k = 1; k + 1 < g->nx; k++) {
                size_t p = (i * g->ny + j) * g->nx + k;
                double sum = other[p - 1] + other[p + 1] + other[p - row] + other[p + row] + other[p - plane] + other[p + plane];
                bad += (size_t)!jv_close(r->got[p], (sum + fcoef * (double)r->c->f[p]) / 6.0, allowed);
            }
    return bad;
}

// 1 if g has an interior cell off its first and last interior layers (3
// interior points or more along every axis it has): only then does "every
// unwritten cell lies on those layers" say anything.
static int jv_has_inner_cells(const jacobi_grid *g)
{
    return g->nx >= 5 && g->ny >= 5 && (jacobi_is_2d(g) || g->nz >= 5);
}

// Interior cells still holding their initial value though the reference
// moved them; *outer gets those on the first or last interior layer.
static size_t jv_unwritten(const jv_run *r, double allowed, size_t *outer)
{
    const jacobi_grid *g = &r->c->g;
    size_t n = 0;
    *outer = 0;
    for (size_t p = 0; p < r->cells; p++) {
        long ijk[3];
        jv_coords(g, p, ijk);
        size_t i = (size_t)ijk[0], j = (size_t)ijk[1], k = (size_t)ijk[2];
        if (!jacobi_is_interior(g, i, j, k) || jv_differ(r->got[p], r->c->u0[p]) || jv_close(r->got[p], r->ref[p], allowed))
            continue;
        n++;
        *outer += (size_t)(i == 1 || j == 1 || k == 1 || i == g->nz - 2 || j == g->ny - 2 || k == g->nx - 2);
    }
    return n;
}

// What a last step's plainest failures say, in the terms of its update.
typedef struct jv_plain_words {
    const char *edge;       // HINT_OFF_BY_ONE: every unwritten cell on the first or last interior layer
    const char *unwritten;  // HINT_UNWRITTEN: interior cells never written, elsewhere too
    const char *nan;        // HINT_NAN: the step computed NaN
    const char *wrong;      // HINT_WRONG_VALUES: none of the patterns looked for
} jv_plain_words;

static const jv_plain_words jv_sweep_words = {
    "interior cells on the first or last interior layer are never written: check the interior range (1 <= i <= nz-2 means i < nz-1) in each axis, and that a grid of blocks sized for the interior alone starts its threads at cell 1, not 0.",
    "some interior cells are never written: does the grid of blocks cover every point of the rectangular grid, in x, y and z?",
    "the sweep computed NaN: it reads a value nobody wrote (uninitialised shared memory, or an index outside the grid).",
    "the last sweep does not follow from the other buffer: compare each index with JACOBI_INDEX(i, j, k, nx, ny) and the formula with jacobi.h.",
};
static const jv_plain_words jv_heat_words = {
    "interior cells on the first or last interior row or column are never written: 1 <= k <= nx-2 means k < nx-1 (and the same for j), and a grid of blocks sized for the interior alone must start its tiles at cell 1, not 0.",
    "some interior cells are never written: does the grid of blocks cover every point, nx along x and ny along y?",
    "the step computed NaN: it read a value nobody wrote (shared memory never loaded, or a padding cell past the row's end).",
    "the last step does not follow from the other buffer: compare each index with HEAT_INDEX(j, k, p->pitch) and the formula with heat2d.h.",
};

// Fails v with the plainest reason a last step is wrong, worded by w:
// interior cells never written (off by one when all lie on the outer interior
// layers), NaN computed, else wrong values.
static void jv_fail_plainly(const jv_run *r, const jv_plain_words *w, jacobi_verdict *v)
{
    size_t outer, unwritten = jv_unwritten(r, v->allowed, &outer);
    if (unwritten > 0) {
        int edge = outer == unwritten && jv_has_inner_cells(&r->c->g);  // on a grid of outer layers alone the rule holds of any cell
        jv_fail(v, edge ? HINT_OFF_BY_ONE : HINT_UNWRITTEN, edge ? w->edge : w->unwritten);
    } else if (isnan(v->first_got) || isnan(v->max_err)) {
        jv_fail(v, HINT_NAN, w->nan);
    } else {
        jv_fail(v, HINT_WRONG_VALUES, w->wrong);
    }
}

// Names what is wrong with a last sweep that does not follow from the other
// buffer, given as doubles. Fills v.
static void jv_explain_bad_sweep(const jv_run *r, const double *other, double step_tol, jacobi_verdict *v)
{
    double h = r->c->g.h;
    if (jv_sweep_mismatch(r, other, h * h, step_tol) == 0 || jv_sweep_mismatch(r, other, 0.0, step_tol) == 0 ||
        jv_sweep_mismatch(r, other, -h, step_tol) == 0) {
        jv_fail(v, HINT_SOURCE_TERM, "the sweep's f term is wrong (its sign, missing, or h instead of h*h): v = (sum of the six neighbours - h*h*f) / 6.");
    } else if (jv_matches_flaw(r, JACOBI_GAUSS_SEIDEL, v->allowed) == 1) {
        jv_fail(v, HINT_IN_PLACE, "the grid matches Gauss-Seidel (an in-place update): read the old grid, write the other buffer.");
    } else {
        jv_fail_plainly(r, &jv_sweep_words, v);
    }
}

// ---------------------------------------------------------------------------
// The last heat step (lab 10)
// ---------------------------------------------------------------------------

// A heat step as written, or with one of the classic mistakes in it.
typedef enum jv_heat_step {
    JV_HEAT_RIGHT,          // u + r(w + e + s + n - 4u)
    JV_HEAT_RATE_NEGATED,   // u - r(w + e + s + n - 4u): the sign of r
    JV_HEAT_NO_FOUR_U,      // u + r(w + e + s + n): the -4u term left out
    JV_HEAT_NO_U,           // r(w + e + s + n - 4u): the old value itself left out
    JV_HEAT_ROWS_NX         // the y neighbours read nx floats away in rows pitch floats apart (a padding cell: NaN)
} jv_heat_step;

// The first column of a row's tail: the cells after the row's last whole
// (aligned) float4, 4 * floor(nx / 4); nx when there is no tail.
static size_t jv_tail_from(const jacobi_grid *g)
{
    return g->nx / 4 * 4;
}

// The value at index q of a heat grid stored in rows of
// protocol_heat_pitch(nx) floats, taken from other (rows of nx): NaN in a
// row's padding, as the kit's padding reads.
static double jv_padded_cell(const jacobi_grid *g, const double *other, size_t q)
{
    size_t pitch = (size_t)protocol_heat_pitch(g->nx), j = q / pitch, k = q % pitch;
    return k >= g->nx || j >= g->ny ? NAN : other[j * g->nx + k];
}

// Interior cells of the returned grid that differ from one heat step of
// other (doubles) written as step; *before_tail gets those left of the row's
// tail (jv_tail_from).
static size_t jv_heat_mismatch(const jv_run *r, const double *other, jv_heat_step step, double allowed, size_t *before_tail)
{
    const jacobi_grid *g = &r->c->g;
    size_t bad = 0, row = g->nx, tail = jv_tail_from(g), pitch = (size_t)protocol_heat_pitch(g->nx);
    double rate = step == JV_HEAT_RATE_NEGATED ? -g->rate : g->rate;
    *before_tail = 0;
    for (size_t j = 1; j + 1 < g->ny; j++)
        for (size_t k = 1; k + 1 < g->nx; k++) {
            size_t p = j * g->nx + k;
            double u = other[p], four = step == JV_HEAT_NO_FOUR_U ? 0.0 : u, want;
            double south = step == JV_HEAT_ROWS_NX ? jv_padded_cell(g, other, j * pitch + k - g->nx) : other[p - row];
            double north = step == JV_HEAT_ROWS_NX ? jv_padded_cell(g, other, j * pitch + k + g->nx) : other[p + row];
            want = protocol_heat_update(four, other[p - 1], other[p + 1], south, north, rate);
            want += step == JV_HEAT_NO_FOUR_U ? u : step == JV_HEAT_NO_U ? -u : 0.0;
            int wrong = !jv_close(r->got[p], want, allowed) && !(step == JV_HEAT_ROWS_NX && isnan(want) && isnan(r->got[p]));  // a padding read gives NaN
            bad += (size_t)wrong;
            *before_tail += (size_t)(wrong && k < tail);
        }
    return bad;
}

// The interior cells never written (jv_unwritten) of a 2D grid whose rows
// differ in length from its columns, when they fill whole columns from one
// near ny on, or whole rows from one near nx on: an axis bounded by the other
// axis's size. Returns that first column or row (its axis in *axis, 'k' or
// 'j'), or 0.
static size_t jv_sizes_mixed(const jv_run *r, double allowed, char *axis)
{
    const jacobi_grid *g = &r->c->g;
    size_t kmin = g->nx, jmin = g->ny, wrong = 0, in_columns = 0, in_rows = 0;
    if (g->nx == g->ny)
        return 0;
    // Where the wrong cells still holding their start begin, in x and in y.
    for (size_t j = 1; j + 1 < g->ny; j++)
        for (size_t k = 1; k + 1 < g->nx; k++) {
            size_t p = j * g->nx + k;
            if (jv_differ(r->got[p], r->c->u0[p]) || jv_close(r->got[p], r->ref[p], allowed))
                continue;
            wrong++;
            kmin = k < kmin ? k : kmin;
            jmin = j < jmin ? j : jmin;
        }
    if (wrong == 0)
        return 0;
    // Every cell from there on still holding its start, right or wrong: a cell whose right value is
    // where it started (a still patch of the random start) is as unwritten as the others.
    for (size_t j = 1; j + 1 < g->ny; j++)
        for (size_t k = 1; k + 1 < g->nx; k++)
            if (!jv_differ(r->got[j * g->nx + k], r->c->u0[j * g->nx + k]))
                in_columns += k >= kmin, in_rows += j >= jmin;
    // Whole columns kmin..nx-2 (every interior row), kmin in ny-1 .. ny+127 (ny rounded up to a tile), or rows likewise
    if (in_columns == (g->nx - 1 - kmin) * (g->ny - 2) && kmin + 1 >= g->ny && kmin < g->ny + 128)
        return *axis = 'k', kmin;
    if (in_rows == (g->ny - 1 - jmin) * (g->nx - 2) && jmin + 1 >= g->nx && jmin < g->nx + 128)
        return *axis = 'j', jmin;
    return 0;
}

// Names what is wrong with a last heat step that does not follow from the
// other buffer, given as doubles. Fills v.
static void jv_explain_bad_heat_step(const jv_run *r, const double *other, double step_tol, jacobi_verdict *v)
{
    const jacobi_grid *g = &r->c->g;
    size_t before_tail, from;
    char axis = 0, hint[400];
    size_t wrong = jv_heat_mismatch(r, other, JV_HEAT_RIGHT, step_tol, &before_tail);
    if (jv_heat_mismatch(r, other, JV_HEAT_RATE_NEGATED, step_tol, &from) == 0 || jv_heat_mismatch(r, other, JV_HEAT_NO_FOUR_U, step_tol, &from) == 0 ||
        jv_heat_mismatch(r, other, JV_HEAT_NO_U, step_tol, &from) == 0) {
        jv_fail(v, HINT_HEAT_RATE, "the step's formula is wrong (r's sign, the -4u term, or u itself left out): v = u + r * (u[j][k-1] + u[j][k+1] + u[j-1][k] + u[j+1][k] - 4u) (heat2d.h).");
    } else if (jv_matches_flaw(r, JACOBI_GAUSS_SEIDEL, v->allowed) == 1) {
        jv_fail(v, HINT_IN_PLACE, "the grid matches a step done in place: read the old grid, write the other buffer, then swap.");
    } else if (protocol_heat_pitch(g->nx) != g->nx && jv_heat_mismatch(r, other, JV_HEAT_ROWS_NX, step_tol, &from) == 0) {
        jv_fail(v, HINT_ROW_PITCH, "the last step matches one whose y neighbours are read nx floats away: rows are p->pitch floats apart (padded to 128 bytes), so u[j-1][k] is u[p - p->pitch], not u[p - nx].");
    } else if (wrong > 0 && before_tail == 0 && jv_tail_from(g) > 1 && jv_tail_from(g) < g->nx) {  // a column left of the tail exists: else the rule holds of any wrong cell
        snprintf(hint, sizeof(hint), "every wrong cell lies in the last columns of its row (x >= %zu, after the row's last whole float4, since nx = %zu is no multiple of 4): finish each row's remainder one float at a time, and never let a padding cell (x >= nx) into a value; if no thread wrote them, the grid of blocks stops short of the row's end.",
                 jv_tail_from(g), g->nx);
        jv_fail(v, HINT_ROW_TAIL, hint);
    } else if ((from = jv_sizes_mixed(r, v->allowed, &axis)) > 0) {
        snprintf(hint, sizeof(hint), "whole %s from %c = %zu on were never written, and %zu is about %s: nx and ny are mixed up (x runs along a row, to nx; y counts rows, to ny; blockIdx.x and threadIdx.x go with x).",
                 axis == 'k' ? "columns" : "rows", axis == 'k' ? 'x' : 'y', from, from, axis == 'k' ? "ny" : "nx");
        jv_fail(v, HINT_SIZES_MIXED, hint);
    } else {
        jv_fail_plainly(r, &jv_heat_words, v);
    }
}

// Checks the last sweep (returned grid from the other buffer). Returns 1 if it failed v.
static int jv_explain_sweep(const jv_run *r, jacobi_verdict *v)
{
    double step_tol = r->c->atol + 2.0 * r->c->rtol * v->scale;
    size_t before_tail;
    if (r->iters < 1)
        return 0;
    double *other = jv_widen(r->other, r->cells);
    if (!other)
        return 0;
    int heat = jacobi_is_2d(&r->c->g);
    int bad = heat ? jv_heat_mismatch(r, other, JV_HEAT_RIGHT, step_tol, &before_tail) > 0
                   : jv_sweep_mismatch(r, other, -r->c->g.h * r->c->g.h, step_tol) > 0;
    if (bad && heat)
        jv_explain_bad_heat_step(r, other, step_tol, v);
    else if (bad)
        jv_explain_bad_sweep(r, other, step_tol, v);
    free(other);
    return bad;
}

// ---------------------------------------------------------------------------
// A wrong grid
// ---------------------------------------------------------------------------

// 1 if the returned grid is the reference after one more iteration than reported.
static int jv_matches_next(const jv_run *r, const jacobi_verdict *v)
{
    double *next = malloc(r->cells * sizeof(double));
    if (!next)
        return 0;
    memcpy(next, r->ref, r->cells * sizeof(double));
    jacobi_ref_sweep(&r->c->g, r->ref, r->c->f, next);
    jacobi_ref_boundary(&r->c->g, next);
    int match = jv_count_wrong(r->got, next, r->cells, v->allowed + r->c->rtol * v->scale) == 0;
    free(next);
    return match;
}

// The most exact iterations a whole solve's reference is run again for, to
// find how many iterations a wrong grid holds (grid cells times iterations).
#define JV_RECOUNT_MAX_WORK 100000000.0

// If the returned grid is the reference after fewer iterations than
// reported (1 .. iters-1, the first that matches, within the tolerance of
// that count), returns that count; else -1. A solve too large to run again
// (JV_RECOUNT_MAX_WORK) is asked after iters-1 alone.
static int jv_iterations_held(const jv_run *r, const jacobi_verdict *v)
{
    if (r->iters < 2)
        return -1;
    if ((double)r->cells * r->iters > JV_RECOUNT_MAX_WORK)
        return jv_count_wrong(r->got, r->prev, r->cells, v->allowed) == 0 ? r->iters - 1 : -1;
    double *u = jv_widen(r->c->u0, r->cells), *w = jv_widen(r->c->u0, r->cells);
    int held = -1;
    for (int t = 1; u && w && t < r->iters && held < 0; t++) {
        jacobi_ref_sweep(&r->c->g, u, r->c->f, w);
        jacobi_ref_boundary(&r->c->g, w);
        double *swap = u;
        u = w, w = swap;
        held = jv_count_wrong(r->got, u, r->cells, r->c->atol + (double)t * r->c->rtol * v->scale) == 0 ? t : -1;
    }
    free(u), free(w);
    return held;
}

// The iterations of the last launch the judge looks back over, for a solve
// of several iterations a launch (no launch of the labs does more), and the
// counts a grid must be deep enough to tell for launch-interior to be named
// (the lab's solution does at most 6 a launch).
#define JV_LAUNCH_MAX_ITERS 8
#define JV_LAUNCH_DECIDE_ITERS 6

// The distance of cell p from the nearest face of g.
static size_t jv_depth(const jacobi_grid *g, size_t p)
{
    long ijk[3];
    size_t depth = (size_t)-1;
    jv_coords(g, p, ijk);
    for (int a = 0; a < 3; a++) {
        size_t n = jv_extent(g, 2 - a), x = (size_t)ijk[a], d = x < n - 1 - x ? x : n - 1 - x;
        depth = d < depth && n > 1 ? d : depth;  // a heat grid's one plane has no z faces
    }
    return depth;
}

// A solve of several iterations a launch whose returned grid follows from
// the other buffer (the grid before the last launch) by no count k of
// exact iterations (1 .. JV_LAUNCH_MAX_ITERS), and for every count k the
// grid can tell is wrong at some cell deeper than k from every face: a
// boundary mistake of a launch of k iterations reaches k cells in (the
// launch reads the boundary's sources, not the boundary cells the other
// buffer holds), so the launch's own update is wrong. Fails v and returns
// 1; 0 when it cannot tell (a grid too shallow for a launch of
// JV_LAUNCH_DECIDE_ITERS, or a count whose deeper cells are all right).
static int jv_explain_launch_interior(const jv_run *r, jacobi_verdict *v)
{
    if (!r->c->blocked || r->iters < 1)
        return 0;
    double *u = jv_widen(r->other, r->cells), *w = jv_widen(r->other, r->cells);
    int interior_wrong = u && w;
    for (int k = 1; interior_wrong && k <= JV_LAUNCH_MAX_ITERS; k++) {
        size_t deep = 0, deep_wrong = 0, wrong = 0;
        double allowed = r->c->atol + (double)(k + 1) * r->c->rtol * v->scale;
        jacobi_ref_sweep(&r->c->g, u, r->c->f, w);
        jacobi_ref_boundary(&r->c->g, w);
        double *swap = u;
        u = w, w = swap;
        for (size_t p = 0; p < r->cells; p++) {
            int bad = !jv_close(r->got[p], u[p], allowed), far = jv_depth(&r->c->g, p) > (size_t)k;
            wrong += (size_t)bad, deep += (size_t)far, deep_wrong += (size_t)(bad && far);
        }
        // k the grid cannot tell: too shallow (fatal for the common counts), or nothing wrong at all
        interior_wrong = wrong > 0 && (deep ? deep_wrong > 0 : k > JV_LAUNCH_DECIDE_ITERS);
    }
    free(u), free(w);
    if (!interior_wrong)
        return 0;
    jv_fail(v, HINT_LAUNCH_INTERIOR, "the last launch is wrong far from the faces too: for every count of iterations it may have done, cells deeper than that count are wrong, and no boundary mistake reaches them within one launch. The mistake is in the levels' update itself (a level's neighbours, f of the level's own plane, which level a register or shared row holds, or cells written fewer than S from the tile's edge), not in the halo's sources.");
    return 1;
}

// Fills v for a grid that does not match the reference.
static void jv_explain_grid(const jv_run *r, jacobi_verdict *v)
{
    char got[48], hint[400];
    int held;
    snprintf(v->reason, sizeof(v->reason), "%zu of %zu cells wrong after %d iterations (allowed: %.3g)", v->wrong, v->cells, r->iters, v->allowed);
    snprintf(v->detail, sizeof(v->detail), "first wrong cell (i,j,k) = (%ld,%ld,%ld): expected %.9g, got %s",
             v->first[0], v->first[1], v->first[2], v->first_want, verdict_value_text(v->first_got, got, sizeof(got)));
    int heat = jacobi_is_2d(&r->c->g);
    if (jv_matches_next(r, v)) {  // before the other buffer: it then holds the grid one iteration old
        jv_fail(v, HINT_ITERATIONS, heat ? "the grid is right for one step more than p->steps: do exactly p->steps steps."
                                         : "the grid is right for one iteration more than *iters_done says: count every iteration you do.");
    } else if (jv_count_wrong(r->other, r->ref, r->cells, v->allowed) == 0) {
        jv_fail(v, HINT_WRONG_BUFFER, "the other buffer holds the right grid: return the buffer the last sweep wrote (after the swap, that is cur), as 0 for d_a or 1 for d_b.");
    } else if ((held = jv_iterations_held(r, v)) > 0) {  // the returned buffer is right, some iterations behind
        snprintf(hint, sizeof(hint), heat ? "the grid is right for %d steps, %d fewer than the %d asked: do p->steps steps (t = 0 .. steps-1, or 1 .. steps), and return the buffer the last one wrote."
                                          : "the grid is right for %d iterations, %d fewer than the %d *iters_done says: do every iteration you count%s.",
                 held, r->iters - held, r->iters, r->c->blocked ? " (the last launch does the remainder when max_iters is no multiple of the iterations a launch does)" : "");
        snprintf(v->reason, sizeof(v->reason), "the grid is right for %d iterations, not the %d reported (%zu of %zu cells wrong for %d)", held, r->iters, v->wrong, v->cells, r->iters);
        jv_fail(v, HINT_ITERATIONS, hint);
    } else if (!jv_explain_launch_interior(r, v) && !jv_explain_boundary(r, v) && !jv_explain_sweep(r, v)) {
        if (jv_matches_flaw(r, JACOBI_GAUSS_SEIDEL, v->allowed) == 1)
            jv_fail(v, HINT_IN_PLACE, "the grid matches Gauss-Seidel (an in-place update): read the old grid, write the other buffer.");
        else
            jv_fail(v, HINT_WRONG_VALUES, "the last sweep and the boundary are consistent, yet the grid is not the reference's: an earlier iteration went wrong (buffers swapped at the wrong time, or kernels racing each other).");
    }
}

// ---------------------------------------------------------------------------
// A right grid: stopping and the residual
// ---------------------------------------------------------------------------

// How far the reported residual may be from the reference's r: the float
// grid's own error moves each defect by at most 12 times the cell error;
// the float sum and the reduction order add relative rounding.
static double jv_residual_band(const jacobi_verdict *v, double r)
{
    return 1e-3 * r + 12.0 * v->max_err + 1e-5 * v->scale;
}

// The iteration count against the stopping rule. Returns 1 if it failed v.
static int jv_check_stop(const jv_run *r, jacobi_verdict *v)
{
    const jacobi_case *c = r->c;
    int early = c->check_every > 0 && c->tol > 0;
    for (int q = 0; early && (q + 1) * c->check_every < r->iters; q++)
        if (r->history[q] + jv_residual_band(v, r->history[q]) < c->tol) {
            snprintf(v->reason, sizeof(v->reason), "no early stop: the residual was %.6g < tol = %.6g after iteration %d, but the solver went on to iteration %d",
                     r->history[q], c->tol, (q + 1) * c->check_every, r->iters);
            jv_fail(v, HINT_EARLY_STOP, "after each check, stop when the residual is below p->tol (and return the newest grid).");
            return 1;
        }
    if (r->iters == c->max_iters)
        return 0;
    if (!early || r->iters % c->check_every != 0) {
        snprintf(v->reason, sizeof(v->reason), "stopped after %d of %d iterations, which is not a check%s", r->iters, c->max_iters, early ? "" : " (this case never stops early)");
        jv_fail(v, HINT_ITERATIONS, "run all p->max_iters iterations unless a check (every p->check_every iterations) finds the residual below p->tol.");
        return 1;
    }
    double last = r->history[r->iters / c->check_every - 1];
    if (last - jv_residual_band(v, last) >= c->tol) {
        snprintf(v->reason, sizeof(v->reason), "stopped early after iteration %d, but the residual there is %.6g, not below tol = %.6g", r->iters, last, c->tol);
        jv_fail(v, HINT_RESIDUAL, "the residual the solver computed is wrong: r = sqrt(sum of d*d / N) over the interior, d = sum of the six neighbours - 6u - h*h*f (jacobi.h).");
        return 1;
    }
    return 0;
}

// The reported residual against the reference's last check. Returns 1 if it failed v.
static int jv_check_residual(const jv_run *r, jacobi_verdict *v)
{
    int checks = r->c->check_every > 0 ? r->iters / r->c->check_every : 0;
    double want = v->ref_residual;
    if (checks == 0 ? r->o->residual == -1.0 : fabs(r->o->residual - want) <= jv_residual_band(v, want))
        return 0;
    snprintf(v->reason, sizeof(v->reason), "*residual = %.6g, but the residual at the last check (iteration %d) is %.6g", r->o->residual,
             checks * (r->c->check_every > 0 ? r->c->check_every : 0), want);
    jv_fail(v, HINT_RESIDUAL, checks == 0 ? "no check was made: *residual must be -1." : "r = sqrt(sum of d*d / N) over the interior only, d = sum of the six neighbours - 6u - h*h*f, computed on the newest grid (jacobi.h).");
    return 1;
}

// ---------------------------------------------------------------------------
// The verdict
// ---------------------------------------------------------------------------

// Everything after the claims and the buffers: the grid and its story.
// Cells where the two thread orders' grids differ and one of them is wrong
// (beyond allowed of the reference, or NaN): two orders may round a sum
// differently (atomics from several blocks), a race leaves wrong values.
static size_t jv_order_wrong(const jv_run *r, double allowed)
{
    const float *second = r->o->order2 + r->o->guard;
    size_t d = 0;
    for (size_t p = 0; p < r->cells; p++)
        d += (size_t)(jv_differ(r->got[p], second[p]) &&
                      !(fabs((double)second[p] - r->ref[p]) <= allowed && fabs((double)r->got[p] - r->ref[p]) <= allowed));
    return d;
}

static int jv_judge_grid(jv_run *r, jacobi_verdict *v)
{
    if (jv_reference(r) != 0)
        return -1;
    int checks = r->c->check_every > 0 ? r->iters / r->c->check_every : 0;
    v->ref_residual = checks > 0 ? r->history[checks - 1] : -1.0;
    v->scale = r->scale;
    v->allowed = r->c->atol + (double)r->iters * r->c->rtol * r->scale;
    size_t order_wrong = r->o->order2 ? jv_order_wrong(r, v->allowed) : 0;
    if (order_wrong) {
        snprintf(v->reason, sizeof(v->reason), "results differ between two thread orders (%zu cells, wrong in at least one)", order_wrong);
        jv_fail(v, HINT_THREAD_ORDER, "a thread reads shared memory before another thread of its block has written it, or after it was overwritten: a __syncthreads() is missing; or a block reads what another block of the same launch writes (blocks run in no set order).");
        return 0;
    }
    jv_compare(r, v);
    if (v->wrong) {
        jv_explain_grid(r, v);
        return 0;
    }
    if (r->o->timed && jv_changed(r->got, r->o->timed + r->o->guard, r->cells)) {
        snprintf(v->reason, sizeof(v->reason), "the grid changed during the timed solves (%zu cells)", jv_changed(r->got, r->o->timed + r->o->guard, r->cells));
        jv_fail(v, HINT_TIMED_CHANGED, "another solve from the same start gives another grid: does the solver depend on what the buffers or the scratch held before?");
        return 0;
    }
    if (jv_check_stop(r, v) || jv_check_residual(r, v))
        return 0;
    v->passed = 1;
    return 0;
}

int jacobi_judge(const jacobi_case *c, const jacobi_outputs *o, jacobi_verdict *v)
{
    jv_run r;
    memset(v, 0, sizeof(*v));
    memset(&r, 0, sizeof(r));
    v->first[0] = v->first[1] = v->first[2] = -1;
    v->ref_residual = -1.0;
    r.c = c;
    r.o = o;
    r.cells = jacobi_cells(&c->g);
    r.iters = o->iters;
    r.got = (o->result == 1 ? o->b : o->a) + o->guard;
    r.other = (o->result == 1 ? o->a : o->b) + o->guard;
    int rc = 0;
    if (!jv_check_claims(&r, v) && !jv_check_buffers_used(&r, v))
        rc = jv_judge_grid(&r, v);
    if (rc != 0) {
        snprintf(v->reason, sizeof(v->reason), "out of host memory while checking");
        jv_fail(v, HINT_WRONG_VALUES, "the grader ran out of memory: free some, or grade on a larger machine.");
    }
    for (int q = 0; q < 3; q++)
        free(r.owned[q]);
    return rc != 0 ? -1 : v->passed;
}

double jacobi_mms_error(const jacobi_grid *g, const float *u)
{
    double worst = 0.0;
    for (size_t i = 0; i < g->nz; i++)
        for (size_t j = 0; j < g->ny; j++)
            for (size_t k = 0; k < g->nx; k++) {
                double e = fabs((double)u[(i * g->ny + j) * g->nx + k] - jacobi_mms_exact(g, i, j, k));
                worst = e > worst || isnan(e) ? e : worst;
            }
    return worst;
}

int jacobi_padding_rows_packed(size_t nx, size_t ny, size_t pitch, const float *stored)
{
    size_t changed = 0, missed = 0;
    uint32_t bits;
    for (size_t q = 0; q < ny * pitch; q++) {
        if (q % pitch < nx)
            continue;
        size_t j = q / nx, k = q % nx;  // the point a packed layout puts at q
        int packed_store = j >= 1 && j + 1 < ny && k >= 1 && k + 1 < nx;
        memcpy(&bits, &stored[q], sizeof(bits));
        changed += (size_t)(bits != PAD_BITS);
        missed += (size_t)((bits != PAD_BITS) != packed_store);
    }
    return changed == 0 ? 0 : missed == 0 ? 1 : -1;
}
