// grader/judge/verdict.c — see verdict.h.
#include "verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reference/stencil_ref.h"
#include "protocol.h"
#ifdef _OPENMP
#include <omp.h>
#endif

// A grid with more cells than this is walked by several threads (verdict_scan).
#define VERDICT_SCAN_PARALLEL_CELLS 1000000

// ---------------------------------------------------------------------------
// Alternative stencils: what a kernel with one classic mistake computes
// ---------------------------------------------------------------------------

typedef struct verdict_alt {
    const char *key;      // hint key when the wrong cells match this stencil
    int perm[STENCIL_MAX_NCOEF]; // term n uses coefficient perm[n]
    int dropped;          // term left out, or -1
    char text[320];       // the hint sentence
    int far;              // 0, or n + 1: term n reads its neighbour one cell further out than it should
} verdict_alt;

// The most alternatives a star of the kit's largest radius has: per distance
// 3 swapped pairs and 6 dropped and 6 misplaced terms; 3 axis exchanges and
// the centre.
#define VERDICT_MAX_ALTS (STENCIL_MAX_RADIUS * 15 + 4)

typedef struct verdict_alts {
    int n;                               // alternatives
    verdict_alt alt[VERDICT_MAX_ALTS];   // in the order they are tried: the first that explains every wrong cell names the hint
} verdict_alts;

static const char verdict_axis_name[3] = {'x', 'y', 'z'};    // axis a's name
static const char verdict_axis_index[3] = {'k', 'j', 'i'};   // the index that moves along it
static const char *const verdict_axis_stride[3] = {"1", "N", "N*N"};
static const char *const verdict_axis_unit[3][2] = {{"", ""}, {"row", "N floats"}, {"plane", "N*N floats"}};
static const char *const verdict_distance_word[STENCIL_MAX_RADIUS + 2] = {"", "one", "two", "three"};

// The input cell d cells along axis a on side s (0: minus) of (i, j, k), as
// an array expression: in[i][j][k-1].
static const char *verdict_cell_text(int a, int s, int d, char *buf, size_t len)
{
    char part[3][8];
    for (int b = 0; b < 3; b++)
        snprintf(part[b], sizeof(part[b]), "%c", verdict_axis_index[b]);
    snprintf(part[a], sizeof(part[a]), "%c%c%d", verdict_axis_index[a], s ? '+' : '-', d);
    snprintf(buf, len, "in[%s][%s][%s]", part[2], part[1], part[0]);
    return buf;
}

// An alternative with every term in place: perm the identity, nothing dropped.
static verdict_alt *verdict_alt_add(verdict_alts *l, const char *key, int ncoef)
{
    verdict_alt *alt = &l->alt[l->n++];
    memset(alt, 0, sizeof(*alt));
    alt->key = key;
    alt->dropped = -1;
    for (int n = 0; n < ncoef; n++)
        alt->perm[n] = n;
    return alt;
}

// What a kernel with one classic mistake computes, for a star of radius r:
// the two neighbours of one axis and distance swapped, two axes' coefficients
// exchanged, the centre or one neighbour left out, one neighbour read a cell
// further out than it should. For r = 1, c1..c6 as kernels/lab.h names them.
static void verdict_alts_for(int radius, verdict_alts *l)
{
    static const char *const swapped_keys[3] = {"neighbours-swapped-x", "neighbours-swapped-y", "neighbours-swapped-z"};
    static const char *const axes_keys[3][3] = {{NULL, "axes-swapped-xy", "axes-swapped-xz"}, {NULL, NULL, "axes-swapped-yz"}, {NULL, NULL, NULL}};
    const int ncoef = STENCIL_NCOEF(radius);
    char lo[48], hi[48];
    l->n = 0;
    for (int d = 1; d <= radius; d++)
        for (int a = 0; a < 3; a++) {
            int m = STENCIL_COEF_INDEX(a, 0, d), p = STENCIL_COEF_INDEX(a, 1, d);
            verdict_alt *alt = verdict_alt_add(l, swapped_keys[a], ncoef);
            alt->perm[m] = p, alt->perm[p] = m;
            snprintf(alt->text, sizeof(alt->text), "the values match the stencil with c%d and c%d exchanged: the %c neighbours%s%s%s are swapped (c%d multiplies %s, c%d %s).",
                     m, p, verdict_axis_name[a], d > 1 ? " " : "", d > 1 ? verdict_distance_word[d] : "", d > 1 ? " cells away" : "",
                     m, verdict_cell_text(a, 0, d, lo, sizeof(lo)), p, verdict_cell_text(a, 1, d, hi, sizeof(hi)));
        }
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++) {
            verdict_alt *alt = verdict_alt_add(l, axes_keys[a][b], ncoef);
            char own[2][160] = {"", ""};
            for (int d = 1; d <= radius; d++)
                for (int s = 0; s < 2; s++) {
                    alt->perm[STENCIL_COEF_INDEX(a, s, d)] = STENCIL_COEF_INDEX(b, s, d);
                    alt->perm[STENCIL_COEF_INDEX(b, s, d)] = STENCIL_COEF_INDEX(a, s, d);
                }
            for (int x = 0; x < 2; x++) {  // "c1/c2 belong to k-1/k+1", distance by distance
                int axis = x ? b : a;
                char coefs[80] = "", cells[80] = "";
                for (int d = 1; d <= radius; d++) {
                    size_t uc = strlen(coefs), ul = strlen(cells);
                    snprintf(coefs + uc, sizeof(coefs) - uc, "%sc%d/c%d", d > 1 ? " and " : "", STENCIL_COEF_INDEX(axis, 0, d), STENCIL_COEF_INDEX(axis, 1, d));
                    snprintf(cells + ul, sizeof(cells) - ul, "%s%c-%d/%c+%d", d > 1 ? " and " : "", verdict_axis_index[axis], d, verdict_axis_index[axis], d);
                }
                snprintf(own[x], sizeof(own[x]), "%s%s %s (%c, stride %s)", coefs, x ? " to" : " belong to", cells,
                         verdict_axis_name[axis], verdict_axis_stride[axis]);
            }
            snprintf(alt->text, sizeof(alt->text), "the values match the stencil with the %c and %c coefficients exchanged: %s and %s.",
                     verdict_axis_name[a], verdict_axis_name[b], own[0], own[1]);
        }
    verdict_alt *centre = verdict_alt_add(l, HINT_CENTRE_MISSING, ncoef);
    centre->dropped = 0;
    snprintf(centre->text, sizeof(centre->text), "the values match the stencil without its centre term: add c0*in[i][j][k].");
    for (int d = 1; d <= radius; d++)
        for (int a = 0; a < 3; a++)
            for (int s = 0; s < 2; s++) {
                int n = STENCIL_COEF_INDEX(a, s, d);
                verdict_alt *alt = verdict_alt_add(l, HINT_TERM_MISSING, ncoef);
                alt->dropped = n;
                snprintf(alt->text, sizeof(alt->text), "the values match the stencil without its c%d term (the %c%c%d neighbour, %s).",
                         n, verdict_axis_name[a], s ? '+' : '-', d, verdict_cell_text(a, s, d, lo, sizeof(lo)));
            }
    for (int d = 1; d <= radius; d++)
        for (int a = 0; a < 3; a++)
            for (int s = 0; s < 2; s++) {
                int n = STENCIL_COEF_INDEX(a, s, d);
                char unit[64] = "";
                verdict_alt *alt = verdict_alt_add(l, HINT_NEIGHBOUR_OFFSET, ncoef);
                alt->far = n + 1;
                if (a > 0 && d == 1)
                    snprintf(unit, sizeof(unit), ", one %s: %s", verdict_axis_unit[a][0], verdict_axis_unit[a][1]);
                else if (a > 0)
                    snprintf(unit, sizeof(unit), ", %s %ss: %d*%s", verdict_distance_word[d], verdict_axis_unit[a][0], d, verdict_axis_unit[a][1]);
                snprintf(alt->text, sizeof(alt->text), "the values match the stencil with its c%d term reading %s: the %c%c%d neighbour's offset is off by one (it is %c%c%d%s).",
                         n, verdict_cell_text(a, s, d + 1, lo, sizeof(lo)), verdict_axis_name[a], s ? '+' : '-', d,
                         verdict_axis_index[a], s ? '+' : '-', d, unit);
            }
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

// 1 if value has exactly the bit pattern bits.
static int verdict_has_bits(float value, uint32_t bits)
{
    uint32_t b;
    memcpy(&b, &value, sizeof(b));
    return b == bits;
}

// 1 if a and b differ bit for bit.
static int verdict_differ(float a, float b)
{
    return memcmp(&a, &b, sizeof(a)) != 0;
}

// Counts guard cells that lost their pattern; *first gets the first one's index.
static size_t verdict_guard_damage(const float *g, size_t n, long *first)
{
    size_t bad = 0;
    *first = -1;
    for (size_t i = 0; i < n; i++)
        if (!verdict_has_bits(g[i], GUARD_BITS)) {
            if (*first < 0)
                *first = (long)i;
            bad++;
        }
    return bad;
}

const char *verdict_value_text(float value, char *buf, size_t len)
{
    if (verdict_has_bits(value, POISON_BITS))
        snprintf(buf, len, "<unwritten>");
    else if (isnan(value))
        snprintf(buf, len, "NaN");
    else
        snprintf(buf, len, "%.9g", value);
    return buf;
}

// 1 if position p (0-based) lies within w cells of the edge of a tile of
// width t whose tiles start at offset (w: the halo a point reads, a star's
// radius or a convolution's filter radius: the cells whose halo reaches the
// next tile).
static int verdict_on_tile_edge(size_t p, int t, int offset, int w)
{
    if (p < (size_t)offset)
        return 1;
    size_t r = (p - (size_t)offset) % (size_t)t;
    return r < (size_t)w || r + (size_t)w >= (size_t)t;
}

// The first written index along an axis: the star's radius r for a sweep
// (its boundary, r layers thick, is kept), 0 for a convolution (every cell
// written).
static size_t verdict_lo(const sweep_case *c)
{
    return c->filter_radius > 0 ? 0 : (size_t)c->star_radius;
}

// Written cells along an axis of n points.
static size_t verdict_span(const sweep_case *c, size_t n)
{
    return n >= 2 * verdict_lo(c) ? n - 2 * verdict_lo(c) : 0;
}

// The cells of halo a point reads along an axis: the star's radius, or the
// convolution filter's.
static int verdict_halo(const sweep_case *c)
{
    return c->filter_radius > 0 ? c->filter_radius : c->star_radius;
}

// The distance of (i, j, k) from the nearest face of c's grid (an image's
// nearest edge: its one plane has no z faces to count).
static size_t verdict_depth(const sweep_case *c, size_t i, size_t j, size_t k)
{
    size_t m = i < c->nz - 1 - i ? i : c->nz - 1 - i;
    size_t y = j < c->ny - 1 - j ? j : c->ny - 1 - j, x = k < c->nx - 1 - k ? k : c->nx - 1 - k;
    m = c->filter_radius > 0 || y < m ? y : m;
    return x < m ? x : m;
}

int verdict_cell_written(const sweep_case *c, size_t i, size_t j, size_t k)
{
    return protocol_cell_written(c->filter_radius > 0, c->star_radius, i, j, k, c->nx, c->ny, c->nz);
}

double verdict_expected(const sweep_case *c, size_t i, size_t j, size_t k, const double *coef, double *scale)
{
    return c->filter_radius ? reference_conv_point(c->in, c->nx, c->ny, j, k, coef, c->filter_radius, scale)
                            : reference_point(c->in, c->nx, c->ny, i, j, k, coef, c->star_radius, scale);
}

// ---------------------------------------------------------------------------
// The pass over the grid
// ---------------------------------------------------------------------------

typedef struct verdict_tally {
    size_t wrong_finite;          // wrong cells that hold a finite number
    const verdict_alts *alts;     // the classic mistakes of this case's star
    size_t alt_match[VERDICT_MAX_ALTS]; // of the wrong finite cells, how many each alternative explains
    size_t edge_wrong[2];         // wrong cells on a tile edge, tiles starting at 0 and at 1
    size_t edge_cells[2];         // interior cells on a tile edge, likewise
    size_t unwritten_outer;       // unwritten cells on the first or last interior plane, row or column
    size_t boundary_inner;        // changed boundary cells off the grid's outermost layer (radius 2 and more: its inner layers)
    size_t border_wrong;          // convolution: wrong cells within r pixels of the image's edges
    size_t border_cells;          // and all cells there
    size_t conv_alt_match[3];     // convolution: wrong finite cells each verdict_conv_alts entry explains
    size_t rows_mixed;            // wrong finite cells the stencil explains with its y neighbours ny floats away (nx != ny)
    size_t boundary_rows_mixed;   // changed boundary cells it explains likewise (stores at places with x and y exchanged)
    size_t *plane_wrong;          // wrong cells per plane i
    size_t *row_unwritten;        // unwritten cells per row layer j (all i, k)
    size_t *column_unwritten;     // unwritten cells per column layer k (all i, j)
} verdict_tally;

// Records the first wrong cell.
static void verdict_note_first(sweep_verdict *v, size_t i, size_t j, size_t k, double want, float got)
{
    if (v->first[0] >= 0)
        return;
    v->first[0] = (long)i;
    v->first[1] = (long)j;
    v->first[2] = (long)k;
    v->first_want = want;
    v->first_got = got;
}

// Tests which alternative stencils explain a wrong finite cell.
static void verdict_try_alts(const sweep_case *c, size_t i, size_t j, size_t k, float got,
                             verdict_tally *t)
{
    const int ncoef = STENCIL_NCOEF(c->star_radius);
    for (int a = 0; a < t->alts->n; a++) {
        const verdict_alt *va = &t->alts->alt[a];
        double alt_c[STENCIL_MAX_NCOEF], scale;
        for (int n = 0; n < ncoef; n++)
            alt_c[n] = n == va->dropped ? 0.0 : (double)c->coef[va->perm[n]];
        double alt = reference_point(c->in, c->nx, c->ny, i, j, k, alt_c, c->star_radius, &scale);
        if (va->far) {  // term n's neighbour read one cell further out, as a flat index (what such a kernel reads)
            int n = va->far - 1, d = (n - 1) / 6 + 1, axis = (n - 1) % 6 / 2, side = (n - 1) % 2;
            long unit = axis == 0 ? 1 : axis == 1 ? (long)c->nx : (long)(c->nx * c->ny);
            long stride = side ? unit : -unit;
            long p = (long)((i * c->ny + j) * c->nx + k), cells = (long)(c->nx * c->ny * c->nz);
            if (p + (d + 1) * stride < 0 || p + (d + 1) * stride >= cells)
                continue;
            double near = c->in[p + d * stride], far = c->in[p + (d + 1) * stride];
            alt += alt_c[n] * (far - near);
            scale += fabs(alt_c[n] * far);
        }
        if (fabs((double)got - alt) <= c->atol + c->rtol * scale)
            t->alt_match[a]++;
    }
}

// What a convolution with one classic mistake computes: the weight it takes
// for tap (i, j) of the filter, or the radius it uses.
typedef struct verdict_conv_alt {
    const char *key;      // hint key when the wrong cells match
    int mode;             // 0 transposed F[j][i], 1 flipped F[2r-i][2r-j], 2 radius 1 with F[0..2][0..2]
    const char *text;     // the hint sentence
} verdict_conv_alt;

static const verdict_conv_alt verdict_conv_alts[3] = {
    {HINT_FILTER_TRANSPOSED, 0, "the values match the convolution with the filter transposed: F[i+r][j+r] weighs in[row+i][col+j] (i the row offset, j the column offset), not F[j+r][i+r]."},
    {HINT_FILTER_FLIPPED, 1, "the values match the convolution with the filter turned by 180 degrees (F[r-i][r-j]): this lab's convolution, as the book's, weighs in[row+i][col+j] with F[i+r][j+r]."},
    {HINT_RADIUS_FIXED, 2, "the values match a convolution of radius 1 (a 3x3 filter, F[0..2][0..2]) whatever the case's r: loop i and j from -r to r, index F[i+r][j+r], and size the halo from r."},
};

// Tests which mistaken convolutions explain a wrong finite pixel (row j, column k).
static void verdict_conv_try_alts(const sweep_case *c, size_t j, size_t k, float got, verdict_tally *t)
{
    int r = c->filter_radius, w = 2 * r + 1;
    for (int a = 0; a < 3; a++) {
        double f[VERDICT_MAX_WEIGHTS], scale;
        int ra = verdict_conv_alts[a].mode == 2 ? 1 : r;
        if (verdict_conv_alts[a].mode == 2 && r == 1)
            continue;  // radius 1 is what the case asks for
        for (int i = 0; i < 2 * ra + 1; i++)
            for (int q = 0; q < 2 * ra + 1; q++)
                f[i * (2 * ra + 1) + q] = verdict_conv_alts[a].mode == 0 ? c->coef[q * w + i]
                                        : verdict_conv_alts[a].mode == 1 ? c->coef[(w - 1 - i) * w + (w - 1 - q)]
                                        : c->coef[i * w + q];
        double alt = reference_conv_point(c->in, c->nx, c->ny, j, k, f, ra, &scale);
        if (fabs((double)got - alt) <= c->atol + c->rtol * scale)
            t->conv_alt_match[a]++;
    }
}

// 1 if got, found at cell p (a flat index), is the stencil there with its y
// neighbours read ny floats away instead of nx (rows taken to hold ny floats:
// nx and ny mixed up, in the reads or in the whole index), on a grid whose x
// and y sizes differ; the reads as flat offsets, as such a kernel makes them.
static int verdict_rows_mixed(const sweep_case *c, size_t p, float got, const double *coef)
{
    size_t plane = c->nx * c->ny, cells = plane * c->nz, reach = (size_t)c->star_radius * (plane > c->ny ? plane : c->ny);
    if (c->filter_radius || c->nx == c->ny || p < reach || p + reach >= cells || isnan(got))
        return 0;
    const long stride[3] = {1, (long)c->ny, (long)plane};  // rows of ny floats
    double alt = coef[0] * c->in[p], scale = fabs(alt);
    for (int d = 1; d <= c->star_radius; d++)
        for (int a = 0; a < 3; a++)
            for (int s = 0; s < 2; s++) {
                double t = coef[STENCIL_COEF_INDEX(a, s, d)] * c->in[(long)p + (s ? d : -d) * stride[a]];
                alt += t, scale += fabs(t);
            }
    return fabs((double)got - alt) <= c->atol + c->rtol * scale;
}

// Classifies one interior cell; updates v and t.
static void verdict_interior_cell(const sweep_case *c, const float *out, size_t i, size_t j, size_t k,
                                  const double *coef, sweep_verdict *v, verdict_tally *t)
{
    size_t p = (i * c->ny + j) * c->nx + k;
    double scale;
    double want = verdict_expected(c, i, j, k, coef, &scale);
    double allowed = c->atol + c->rtol * scale;
    float got = out[p];
    int unwritten = verdict_has_bits(got, POISON_BITS);
    int bad = unwritten || isnan(got) || !(fabs((double)got - want) <= allowed);
    if (!unwritten && !isnan(got) && fabs((double)got - want) / allowed > v->max_err_ratio)
        v->max_err_ratio = fabs((double)got - want) / allowed;
    int w = verdict_halo(c);
    for (int o = 0; o < 2; o++) {
        int edge = c->out_tile >= 3 &&
                   ((c->nz > 1 && verdict_on_tile_edge(i, c->out_tile, o, w)) || verdict_on_tile_edge(j, c->out_tile, o, w) ||
                    verdict_on_tile_edge(k, c->out_tile, o, w));
        t->edge_cells[o] += (size_t)edge;
        t->edge_wrong[o] += (size_t)(edge && bad);
    }
    if (c->filter_radius) {  // the band of pixels whose filter reaches a ghost cell
        size_t r = (size_t)c->filter_radius;
        int border = j < r || k < r || j + r >= c->ny || k + r >= c->nx;
        t->border_cells += (size_t)border;
        t->border_wrong += (size_t)(border && bad);
    }
    if (!bad)
        return;
    v->wrong++;
    t->plane_wrong[i]++;
    verdict_note_first(v, i, j, k, want, got);
    if (unwritten) {
        v->unwritten++;
        t->row_unwritten[j]++;
        t->column_unwritten[k]++;
        if (verdict_depth(c, i, j, k) == verdict_lo(c))
            t->unwritten_outer++;
    } else if (isnan(got)) {
        v->nan_cells++;
    } else {
        t->wrong_finite++;
        if (c->filter_radius) {
            verdict_conv_try_alts(c, j, k, got, t);
            return;
        }
        verdict_try_alts(c, i, j, k, got, t);
        t->rows_mixed += (size_t)verdict_rows_mixed(c, p, got, coef);
    }
}

// Case c's weights (a star's c0..c(6r), or the filter) in double, into coef.
static void verdict_weights(const sweep_case *c, double *coef)
{
    int weights = c->filter_radius ? FILTER_NWEIGHTS(c->filter_radius) : STENCIL_NCOEF(c->star_radius);
    for (int n = 0; n < weights; n++)
        coef[n] = c->coef[n];
}

// Walks planes i0 .. i1-1 of the grid: interior values, boundary cells,
// thread orders, timing; adds to v and t (t->plane_wrong for these planes).
static void verdict_scan_planes(const sweep_case *c, const sweep_buffers *b, size_t i0, size_t i1, sweep_verdict *v,
                                verdict_tally *t)
{
    const float *out = b->out + b->guard;
    const float *out2 = b->out_order2 ? b->out_order2 + b->guard : NULL;
    const float *timed = b->out_timed ? b->out_timed + b->guard : NULL;
    double coef[VERDICT_MAX_WEIGHTS];
    verdict_weights(c, coef);
    for (size_t i = i0; i < i1; i++)
        for (size_t j = 0; j < c->ny; j++)
            for (size_t k = 0; k < c->nx; k++) {
                size_t p = (i * c->ny + j) * c->nx + k;
                if (out2 && verdict_differ(out[p], out2[p]))
                    v->order_differs++;
                if (timed && verdict_differ(out[p], timed[p]))
                    v->timed_differs++;
                if (verdict_cell_written(c, i, j, k)) {
                    v->interior++;
                    verdict_interior_cell(c, out, i, j, k, coef, v, t);
                } else if (verdict_differ(out[p], c->in[p])) {
                    v->boundary_changed++;
                    t->boundary_inner += (size_t)(verdict_depth(c, i, j, k) > 0);
                    t->boundary_rows_mixed += (size_t)verdict_rows_mixed(c, p, out[p], coef);
                    verdict_note_first(v, i, j, k, (double)c->in[p], out[p]);
                }
            }
}

// Adds the counts of part (planes after those already in v and t) to v and t.
static void verdict_merge(const sweep_case *c, sweep_verdict *v, verdict_tally *t, const sweep_verdict *pv,
                          const verdict_tally *pt)
{
    v->interior += pv->interior, v->wrong += pv->wrong, v->unwritten += pv->unwritten, v->nan_cells += pv->nan_cells;
    v->boundary_changed += pv->boundary_changed, v->order_differs += pv->order_differs, v->timed_differs += pv->timed_differs;
    if (pv->max_err_ratio > v->max_err_ratio)
        v->max_err_ratio = pv->max_err_ratio;
    if (v->first[0] < 0 && pv->first[0] >= 0) {  // the parts come in scan order: the first part's first is the first
        memcpy(v->first, pv->first, sizeof(v->first));
        v->first_want = pv->first_want, v->first_got = pv->first_got;
    }
    t->wrong_finite += pt->wrong_finite, t->unwritten_outer += pt->unwritten_outer, t->boundary_inner += pt->boundary_inner;
    t->border_wrong += pt->border_wrong, t->border_cells += pt->border_cells;
    t->rows_mixed += pt->rows_mixed, t->boundary_rows_mixed += pt->boundary_rows_mixed;
    for (int a = 0; a < VERDICT_MAX_ALTS; a++)
        t->alt_match[a] += pt->alt_match[a];
    for (int a = 0; a < 3; a++)
        t->conv_alt_match[a] += pt->conv_alt_match[a];
    for (int o = 0; o < 2; o++)
        t->edge_wrong[o] += pt->edge_wrong[o], t->edge_cells[o] += pt->edge_cells[o];
    for (size_t j = 0; j < c->ny; j++)
        t->row_unwritten[j] += pt->row_unwritten[j];
    for (size_t k = 0; k < c->nx; k++)
        t->column_unwritten[k] += pt->column_unwritten[k];
}

// Walks the whole grid once (verdict_scan_planes). A large grid is cut into
// as many runs of planes as there are threads, each walked with counts of
// its own, merged in plane order: the same counts and the same first wrong
// cell as one walk.
static void verdict_scan(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v, verdict_tally *t)
{
    int parts = 1;
#ifdef _OPENMP
    if (c->nx * c->ny * c->nz > VERDICT_SCAN_PARALLEL_CELLS)
        parts = omp_get_max_threads() < (int)c->nz ? omp_get_max_threads() : (int)c->nz;
#endif
    sweep_verdict *pv = parts > 1 ? calloc((size_t)parts, sizeof(*pv)) : NULL;
    verdict_tally *pt = parts > 1 ? calloc((size_t)parts, sizeof(*pt)) : NULL;
    size_t *counts = parts > 1 ? calloc((size_t)parts * (c->ny + c->nx), sizeof(size_t)) : NULL;
    if (parts == 1 || !pv || !pt || !counts) {
        free(pv), free(pt), free(counts);
        verdict_scan_planes(c, b, 0, c->nz, v, t);
        return;
    }
    for (int q = 0; q < parts; q++) {
        pv[q].first[0] = pv[q].first[1] = pv[q].first[2] = -1;
        pt[q].alts = t->alts;
        pt[q].plane_wrong = t->plane_wrong;  // indexed by plane: each part writes its own planes
        pt[q].row_unwritten = counts + (size_t)q * (c->ny + c->nx);
        pt[q].column_unwritten = pt[q].row_unwritten + c->ny;
    }
#pragma omp parallel for schedule(static, 1) num_threads(parts)
    for (int q = 0; q < parts; q++)
        verdict_scan_planes(c, b, c->nz * (size_t)q / (size_t)parts, c->nz * (size_t)(q + 1) / (size_t)parts, &pv[q], &pt[q]);
    for (int q = 0; q < parts; q++)
        verdict_merge(c, v, t, &pv[q], &pt[q]);
    free(pv), free(pt), free(counts);
}

// The whole grid on every CPU, for the usual grid with nothing wrong: no
// interior cell off, no boundary cell changed, the second thread order and
// the timed output the same bits as the output, the input untouched. Returns
// 1 with v->interior, v->max_err_ratio and v->input_changed (0) set, or 0 if
// anything deviates: verdict_scan then walks the grid for the hints. It asks
// exactly verdict_scan's questions of each cell.
static int verdict_scan_clean(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v)
{
    const float *out = b->out + b->guard, *in_after = b->in_after + b->guard;
    const float *out2 = b->out_order2 ? b->out_order2 + b->guard : NULL;
    const float *timed = b->out_timed ? b->out_timed + b->guard : NULL;
    double coef[VERDICT_MAX_WEIGHTS];
    verdict_weights(c, coef);
    size_t interior = 0, bad = 0;
    double worst = 0;
    long rows = (long)(c->nz * c->ny);  // shared out by row, not by plane: an image is one plane
    int seen_bad = 0;  // a row with a deviation was seen: the other rows need not be walked
#pragma omp parallel for reduction(+ : interior, bad) reduction(max : worst) schedule(dynamic, 16) if (c->nx * c->ny * c->nz > 100000)
    for (long row = 0; row < rows; row++) {
        int stop;
#pragma omp atomic read
        stop = seen_bad;
        if (stop)
            continue;
        size_t bad_before = bad, i = (size_t)row / c->ny, j = (size_t)row % c->ny;
        for (size_t k = 0; k < c->nx; k++) {
            size_t p = (i * c->ny + j) * c->nx + k;
            float got = out[p];
            bad += (size_t)verdict_differ(in_after[p], c->in[p]);
            bad += (size_t)(out2 && verdict_differ(got, out2[p]));
            bad += (size_t)(timed && verdict_differ(got, timed[p]));
            if (!verdict_cell_written(c, i, j, k)) {
                bad += (size_t)verdict_differ(got, c->in[p]);
                continue;
            }
            interior++;
            double scale, want = verdict_expected(c, i, j, k, coef, &scale);
            double allowed = c->atol + c->rtol * scale, err = fabs((double)got - want);
            if (verdict_has_bits(got, POISON_BITS) || isnan(got) || !(err <= allowed))
                bad++;
            else if (err / allowed > worst)
                worst = err / allowed;
        }
        if (bad != bad_before) {
#pragma omp atomic write
            seen_bad = 1;
        }
    }
    if (bad || seen_bad)
        return 0;
    v->interior = interior;
    v->max_err_ratio = worst;
    v->input_changed = 0;
    return 1;
}

// ---------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------

// The interior range of case c's star of radius r, as the hints write it:
// "1 <= i, j, k <= N-2" (bound 0), or "1 <= i <= N-2 means i < N-1" (bound 1:
// the loop's test). A convolution's hints take the radius-1 text, which
// verdict_wording turns into the image's words.
static const char *verdict_range_text(const sweep_case *c, int bound, char *buf, size_t len)
{
    int r = c->filter_radius ? 1 : c->star_radius;
    if (bound)
        snprintf(buf, len, "%d <= i <= N-%d means i < N-%d", r, r + 1, r);
    else
        snprintf(buf, len, "%d <= i, j, k <= N-%d", r, r + 1);
    return buf;
}

// 1 if the wrong cells fill whole planes: each interior plane is either
// entirely right or at least 90% wrong, with at least one of each.
static int verdict_whole_planes(const sweep_case *c, const verdict_tally *t)
{
    size_t r = verdict_lo(c), per_plane = (c->nx - 2 * r) * (c->ny - 2 * r);
    int right = 0, wrong = 0;
    if (c->nz < 2 * r + 3)
        return 0;
    for (size_t i = r; i + r < c->nz; i++) {
        if (t->plane_wrong[i] == 0)
            right++;
        else if (t->plane_wrong[i] * 10 >= per_plane * 9)
            wrong++;
        else
            return 0;
    }
    return right > 0 && wrong > 0;
}

// 1 if every wrong cell sits on an output-tile edge while cells off the edges exist.
static int verdict_tile_edges(const sweep_verdict *v, const verdict_tally *t)
{
    for (int o = 0; o < 2; o++)
        if (t->edge_wrong[o] == v->wrong && t->edge_cells[o] < v->interior)
            return 1;
    return 0;
}

// If every unwritten cell lies in whole layers across one axis of n points
// (count[x] == layer for the layers it touches; the written layers lo..n-1-lo,
// lo the star's radius or 0 for a convolution), two or more of them or one
// inside the grid, writes their indices into list and returns how many; else 0.
// *trailing gets 1 when those layers are one unbroken run that ends at the
// last written layer: the grid of blocks stops short there (too few blocks
// along that axis), which is no seam between tiles.
static int verdict_whole_layers(const size_t *count, size_t n, size_t lo, size_t layer, size_t unwritten, char *list, size_t len,
                                int *trailing)
{
    size_t covered = 0, first = 0, last = 0;
    int layers = 0, seen = 0;
    list[0] = '\0';
    *trailing = 0;
    for (size_t x = lo; x + lo < n; x++) {
        if (!count[x])
            continue;
        if (count[x] != layer)
            return 0;
        first = seen++ ? first : x;
        last = x;
        covered += count[x];
        size_t used = strlen(list);
        if (layers < 6)
            snprintf(list + used, len - used, "%s%zu", layers ? ", " : "", x);
        else if (layers == 6)
            snprintf(list + used, len - used, ", ...");
        layers++;
    }
    // One layer alone counts only inside the grid (the first or last one is an off-by-one).
    int seam = layers >= 2 || (layers == 1 && first != lo && first + lo + 1 != n);
    *trailing = layers >= 2 && last + lo + 1 == n && last - first + 1 == (size_t)layers;
    return covered == unwritten && seam ? layers : 0;
}

// If the unwritten cells are exactly the whole layers from m-r (or m) to
// n-1-r along an axis of n points, two layers or more, where m is another
// axis's size (a guard or a grid bounded by the wrong size), says so in v
// and returns 1. count[x]: unwritten cells in layer x; layer: cells a layer
// holds; r: the star's radius.
static int verdict_layers_from_size(const size_t *count, size_t n, size_t r, size_t layer, size_t unwritten, char axis,
                                    const size_t other[2], const char *const other_names[2], const char *own_name,
                                    sweep_verdict *v)
{
    size_t from = 0, covered = 0;
    for (size_t x = r; x + r < n; x++) {
        if (!count[x] && from)
            return 0;
        if (count[x] && count[x] != layer)
            return 0;
        if (count[x] && !from)
            from = x;
        covered += count[x];
    }
    if (!from || covered != unwritten || from + r + 2 > n)
        return 0;
    for (int o = 0; o < 2; o++)
        if (other[o] < n && (from + r == other[o] || from == other[o])) {
            v->hint_key = HINT_SIZES_MIXED;
            snprintf(v->hint, sizeof(v->hint), "the layers %c = %zu to %zu were never written, all else is right: the %c range stops where %s would stop it. Bound %c by %s (%c < %s-1), in the guard and in the grid's blocks along %c.",
                     axis == 'k' ? 'k' : axis == 'j' ? 'j' : 'i', from, n - 1 - r, axis, other_names[o],
                     axis, own_name, axis, own_name, axis == 'k' ? 'x' : axis == 'j' ? 'y' : 'z');
            return 1;
        }
    return 0;
}

// Picks the hint for a case whose interior cells were partly never written.
static void verdict_explain_unwritten(const sweep_case *c, sweep_verdict *v, const verdict_tally *t)
{
    char layers[96], range[96];
    int by_column = 0, by_row = 0, trailing = 0;
    size_t r = verdict_lo(c), w = 2 * r;  // the written cells of an axis of n points: r .. n-1-r
    if (v->unwritten == v->wrong && !c->filter_radius && c->nz > w && c->ny > w && c->nx > w) {  // an axis bounded by another's size
        static const char *const names_k[2] = {"ny", "nz"}, *const names_j[2] = {"nx", "nz"}, *const names_i[2] = {"nx", "ny"};
        const size_t other_k[2] = {c->ny, c->nz}, other_j[2] = {c->nx, c->nz}, other_i[2] = {c->nx, c->ny};
        if (verdict_layers_from_size(t->column_unwritten, c->nx, r, (c->nz - w) * (c->ny - w), v->unwritten, 'k', other_k, names_k, "nx", v) ||
            verdict_layers_from_size(t->row_unwritten, c->ny, r, (c->nz - w) * (c->nx - w), v->unwritten, 'j', other_j, names_j, "ny", v) ||
            verdict_layers_from_size(t->plane_wrong, c->nz, r, (c->ny - w) * (c->nx - w), v->unwritten, 'i', other_i, names_i, "nz", v))
            return;
    }
    if (v->unwritten == v->wrong && (c->filter_radius || c->nz > w)) {
        size_t lo = verdict_lo(c), sx = verdict_span(c, c->nx), sy = verdict_span(c, c->ny), sz = verdict_span(c, c->nz);
        by_column = verdict_whole_layers(t->column_unwritten, c->nx, lo, sz * sy, v->unwritten, layers, sizeof(layers), &trailing);
        if (!by_column)
            by_row = verdict_whole_layers(t->row_unwritten, c->ny, lo, sz * sx, v->unwritten, layers, sizeof(layers), &trailing);
    }
    if ((by_column || by_row) && trailing) {  // the last layers of one axis: the grid stops short of the far face
        v->hint_key = HINT_UNWRITTEN;
        snprintf(v->hint, sizeof(v->hint), "whole layers %s = %s (%d of them), the last ones along %s, were never written, all else is right: the grid of blocks stops short along %s. Round its size up ((N + B - 1) / B blocks), and check that the x and y sizes are not exchanged in the grid's dim3.",
                 by_column ? "k" : "j", layers, by_column ? by_column : by_row, by_column ? "x" : "y", by_column ? "x" : "y");
        return;
    }
    if (by_column || by_row) {  // a seam between tiles, repeated tile after tile
        v->hint_key = HINT_TILE_SEAM;
        snprintf(v->hint, sizeof(v->hint), "whole layers %s = %s (%d of them) were never written, all else is right: a seam between tiles along %s. Are the tiles placed OUT_TILE_DIM apart (not IN_TILE_DIM), and does each tile write its last %s?",
                 by_column ? "k" : "j", layers, by_column ? by_column : by_row, by_column ? "x" : "y", by_column ? "column" : "row");
        return;
    }
    if (v->unwritten == v->wrong && t->unwritten_outer == v->unwritten) {
        v->hint_key = HINT_OFF_BY_ONE;
        snprintf(v->hint, sizeof(v->hint), "only cells of the first or last interior plane, row or column were never written: check the interior range (%s) and the grid size.",
                 verdict_range_text(c, 1, range, sizeof(range)));
    } else if (verdict_whole_planes(c, t)) {
        v->hint_key = HINT_WHOLE_PLANES;
        snprintf(v->hint, sizeof(v->hint), "whole z planes were never written while others are right: check the z loop (its start, step and end).");
    } else {
        v->hint_key = HINT_UNWRITTEN;
        snprintf(v->hint, sizeof(v->hint), "some interior cells were never written: does the grid cover every point in each dimension (round up: (N + B - 1) / B blocks), are the tiles placed OUT_TILE_DIM apart, and does the guard let every interior point through?");
    }
}

// On an image whose every pixel lies within r of an edge (no pixel reads
// the image alone), adds to v's hint what that means for it: text.
static void verdict_all_edge_note(const sweep_case *c, sweep_verdict *v, const verdict_tally *t, const char *text)
{
    size_t used = strlen(v->hint);
    if (c->filter_radius && v->interior > 0 && t->border_cells == v->interior)
        snprintf(v->hint + used, sizeof(v->hint) - used, " Every pixel of this image lies within r = %d of an edge: %s.", c->filter_radius, text);
}

// Picks the hint for a case whose interior values are wrong.
static void verdict_explain_values(const sweep_case *c, sweep_verdict *v, const verdict_tally *t)
{
    int planes = verdict_whole_planes(c, t), edges = verdict_tile_edges(v, t);
    if (v->unwritten > 0) {
        verdict_explain_unwritten(c, v, t);
        return;
    }
    if (planes && (c->planes_first || !edges)) {
        v->hint_key = HINT_WHOLE_PLANES;
        snprintf(v->hint, sizeof(v->hint), "wrong in whole z planes while other planes are right: check the z loop (its start, step and end) and where the planes are rotated.");
        return;
    }
    if (c->filter_radius && t->border_wrong == v->wrong && t->border_cells < v->interior) {
        v->hint_key = HINT_GHOST_CELLS;
        snprintf(v->hint, sizeof(v->hint), "wrong only within r = %d pixels of the image's edges: there the filter reaches ghost cells, outside the image, which count as 0. Guard every read of in[] (and every tile load) by 0 <= row < height and 0 <= col < width, and use 0 otherwise.", c->filter_radius);
        return;
    }
    if (edges) {
        v->hint_key = HINT_TILE_EDGES;
        snprintf(v->hint, sizeof(v->hint), "wrong only at the edges of the %d-wide output tiles: the halo cells are loaded wrongly or not at all (guard loads by the grid's bounds, not the tile's), or read before a __syncthreads().", c->out_tile);
        return;
    }
    if (v->nan_cells == 0 && c->filter_radius && t->wrong_finite > 0)
        for (int a = 0; a < 3; a++)
            if (t->conv_alt_match[a] == t->wrong_finite) {
                v->hint_key = verdict_conv_alts[a].key;
                snprintf(v->hint, sizeof(v->hint), "%s", verdict_conv_alts[a].text);
                return;
            }
    if (v->nan_cells == 0 && !c->filter_radius)
        for (int a = 0; a < t->alts->n; a++)
            if (t->alt_match[a] == t->wrong_finite) {
                v->hint_key = t->alts->alt[a].key;
                snprintf(v->hint, sizeof(v->hint), "%s", t->alts->alt[a].text);
                return;
            }
    if (v->nan_cells == 0 && t->wrong_finite > 0 && t->rows_mixed == t->wrong_finite) {
        v->hint_key = HINT_SIZES_MIXED;
        snprintf(v->hint, sizeof(v->hint), "the values match the stencil with its y neighbours read ny floats away (in[p - ny], in[p + ny]): a row holds nx floats and a plane nx*ny, so in[i][j-1][k] is GRID_INDEX(i, j - 1, k, ny, nx), nx floats before the point.");
        return;
    }
    if (v->nan_cells > 0) {
        v->hint_key = HINT_NAN;
        snprintf(v->hint, sizeof(v->hint), "the kernel computed NaN: it reads a value nobody wrote (uninitialised shared memory, or an index outside the grid).");
        verdict_all_edge_note(c, v, t, "each pixel's filter reaches ghost cells, and a ghost cell read from in[] instead of taken as 0 gives NaN (the memory around the image holds NaN)");
    } else {
        v->hint_key = HINT_WRONG_VALUES;
        snprintf(v->hint, sizeof(v->hint), "wrong values with no simpler pattern: compare each index with LAB_INDEX(i, j, k, N) (i plane, j row, k column) and each coefficient with the term it multiplies.");
    }
}

// Fills reason and hint for the first problem found, in order of importance.
static void verdict_explain(const sweep_case *c, sweep_verdict *v, const verdict_tally *t,
                            long guard_first_before, long guard_first_after, size_t guard)
{
    char range[96];
    if (v->guard_before || v->guard_after) {
        v->hint_key = HINT_OUT_OF_BOUNDS;
        snprintf(v->reason, sizeof(v->reason), "out-of-bounds write: %zu cells of the guard zones around the buffers were overwritten", v->guard_before + v->guard_after);
        if (v->guard_after)
            snprintf(v->hint, sizeof(v->hint), "something was written %ld floats past the end of a grid: an index runs beyond N*N*N (check every guard; run compute-sanitizer on a GPU).", guard_first_after + 1);
        else
            snprintf(v->hint, sizeof(v->hint), "something was written %ld floats before the start of a grid: an index went negative or wrapped around (unsigned i - 1 at i = 0?).", (long)guard - guard_first_before);
    } else if (v->input_changed) {
        v->hint_key = HINT_INPUT_MODIFIED;
        snprintf(v->reason, sizeof(v->reason), "the input grid was modified (%zu cells)", v->input_changed);
        snprintf(v->hint, sizeof(v->hint), "the kernel must only read in[] and write out[]: check which pointer each store goes to.");
    } else if (v->order_differs) {
        v->hint_key = HINT_THREAD_ORDER;
        snprintf(v->reason, sizeof(v->reason), "results differ between two thread orders (%zu cells)", v->order_differs);
        snprintf(v->hint, sizeof(v->hint), "the result depends on the order threads run in: a thread reads shared memory before another thread of its block wrote it or after it was overwritten (a __syncthreads() is missing), or two threads (of one block or of two blocks) write the same cell.");
    } else if (v->interior > 0 && v->unwritten == v->interior && v->boundary_changed) {
        v->hint_key = HINT_INDEX_OVERFLOW;
        snprintf(v->reason, sizeof(v->reason), "no interior cell was written, yet %zu boundary cells changed: the stores landed at wrong indices", v->boundary_changed);
        snprintf(v->hint, sizeof(v->hint), "an index wraps around: computed in a narrow type (short, or a 32-bit product that overflows for this N) it points at other cells. Compute indices with LAB_INDEX (size_t) from int or unsigned coordinates, and check that small N pass while large N fail.");
    } else if (v->interior > 0 && v->unwritten == v->interior) {
        v->hint_key = HINT_NOTHING_WRITTEN;
        snprintf(v->reason, sizeof(v->reason), "nothing written: all %zu interior cells still hold the poison the grader put there", v->interior);
        snprintf(v->hint, sizeof(v->hint), "is the kernel launched from launch_stencil, does its guard let interior threads through, and does it store into out[]?");
        verdict_all_edge_note(c, v, t, "a kernel that leaves out the pixels whose filter reaches ghost cells writes none here (they are computed like any other, ghost cells counting as 0)");
    } else if (v->boundary_changed && t->boundary_rows_mixed == v->boundary_changed && t->rows_mixed + v->unwritten == v->wrong) {
        v->hint_key = HINT_SIZES_MIXED;  // every cell written holds the stencil with rows of ny floats: the index has x and y exchanged
        snprintf(v->reason, sizeof(v->reason), "%zu boundary cells changed and %zu interior cells never written: the stores landed at other cells", v->boundary_changed, v->unwritten);
        snprintf(v->hint, sizeof(v->hint), "every cell written holds the stencil with rows of ny floats, at places where x and y are exchanged: is the index GRID_INDEX(i, k, j, nx, ny)? A row holds nx floats: the point (i, j, k), j the row (y) and k the column (x), is GRID_INDEX(i, j, k, ny, nx).");
    } else if (v->boundary_changed && !c->filter_radius && c->star_radius > 1 && t->boundary_inner == v->boundary_changed) {
        v->hint_key = HINT_BOUNDARY_THIN;
        snprintf(v->reason, sizeof(v->reason), "%zu boundary cells changed (they must keep their input values), all of them inside the outermost layer", v->boundary_changed);
        snprintf(v->hint, sizeof(v->hint), "the kernel writes the inner layer%s of the boundary: for a star of radius %d the boundary is %d layers thick, so only points with %s may be written (each reads %d cells out along every axis).",
                 c->star_radius > 2 ? "s" : "", c->star_radius, c->star_radius, verdict_range_text(c, 0, range, sizeof(range)), c->star_radius);
    } else if (v->boundary_changed) {
        v->hint_key = HINT_BOUNDARY;
        snprintf(v->reason, sizeof(v->reason), "%zu boundary cells changed (they must keep their input values)", v->boundary_changed);
        snprintf(v->hint, sizeof(v->hint), "the kernel writes cells on the grid's faces: only points with %s may be written.",
                 verdict_range_text(c, 0, range, sizeof(range)));
    } else if (v->wrong) {
        snprintf(v->reason, sizeof(v->reason), "%zu of %zu interior cells wrong (%zu never written, %zu NaN)", v->wrong, v->interior, v->unwritten, v->nan_cells);
        verdict_explain_values(c, v, t);
    } else if (v->timed_differs) {
        v->hint_key = HINT_TIMED_CHANGED;
        snprintf(v->reason, sizeof(v->reason), "the output changed during the timed launches (%zu cells)", v->timed_differs);
        snprintf(v->hint, sizeof(v->hint), "a second launch gives another result: the kernel depends on what out[] held before (does it accumulate into out, or read it?).");
    }
}

// ---------------------------------------------------------------------------
// Lab 0: the output of an image kernel with one mistake, simulated
// ---------------------------------------------------------------------------
//
// On an image whose every pixel lies within r of an edge (3x5 at r = 4, one
// row, one column) no pixel is right to contrast with the wrong ones, and on
// an image that is no square a kernel with width and height mixed up writes
// its pixels in other places, or outside the image. So the verdict computes
// what a kernel with one such mistake leaves in the output (the output
// buffer with its guards, and the second thread order's), and names that
// mistake when the kernel's output is exactly it. Two families: the ghost
// cells (what a tap outside the image reads, or pixels near the edges left
// out) and the sizes (width and height exchanged in an index or a bound).

enum { VERDICT_INDEX_RIGHT, VERDICT_INDEX_HEIGHT, VERDICT_INDEX_COLUMNS };            // where pixel (y, x) is: y*width + x, y*height + x, x*height + y
enum { VERDICT_BOUND_RIGHT, VERDICT_BOUND_SWAPPED, VERDICT_BOUND_ROWS_BY_WIDTH, VERDICT_BOUND_COLS_BY_HEIGHT }; // row < height && col < width, row < width && col < height, row < width, col < height
enum { VERDICT_CHECK_RIGHT, VERDICT_CHECK_MISSING, VERDICT_CHECK_PAST, VERDICT_CHECK_SHORT }; // y >= 0 / y < n; no test; y <= n (upper only); y >= 1 / y < n - 1
enum { VERDICT_GHOST_ZERO, VERDICT_GHOST_CLAMP, VERDICT_GHOST_WRAP };                 // what a tap the tests turn away holds
enum { VERDICT_HOLDS_POISON, VERDICT_HOLDS_ZERO, VERDICT_HOLDS_INPUT };              // what a pixel left out holds: never written, 0, in[p]

// The largest image the sizes family is simulated on (each simulation walks
// every thread the kernel's bound lets through, with all its taps).
#define VERDICT_IMAGE_SIM_PIXELS (1u << 20)

typedef struct verdict_image_kernel {  // all 0: the right kernel
    int read_index;       // VERDICT_INDEX_*: where the input pixel (y, x) is read
    int store_index;      // VERDICT_INDEX_*: where output pixel (row, col) is stored
    int thread_bound;     // VERDICT_BOUND_*: the test a thread passes before it stores
    int tap_bound;        // VERDICT_BOUND_*: the sizes the taps' tests compare with
    int check[4];         // VERDICT_CHECK_* of a tap's tests y >= 0, y < h, x >= 0, x < w
    int ghost;            // VERDICT_GHOST_*: what a tap the tests turn away holds
    int skip;             // 0, or the axes (1: x, 2: y, 3: both) whose pixels within r of an edge are left out
    int holds;            // VERDICT_HOLDS_*: what a pixel left out holds
} verdict_image_kernel;

typedef struct verdict_image_ctx {
    const sweep_case *c;  // the case
    const float *in;      // the input buffer after the launch, at its first pixel (its guards around)
    const float *out;     // the output buffer, likewise
    const float *out2;    // the output under the second thread order, or NULL
    long w, h, r;         // width, height, filter radius
    long cells, guard;    // pixels, guard cells a side
    double f[VERDICT_MAX_WEIGHTS]; // the filter in double
} verdict_image_ctx;

// Kernel m's test of one coordinate v of a tap against size n (lo: its test
// v >= 0, else v < n): 1 if the tap may be read.
static int verdict_image_check(int check, int lo, long v, long n)
{
    if (check == VERDICT_CHECK_MISSING)
        return 1;
    if (lo)
        return check == VERDICT_CHECK_SHORT ? v >= 1 : v >= 0;
    return check == VERDICT_CHECK_PAST ? v <= n : check == VERDICT_CHECK_SHORT ? v < n - 1 : v < n;
}

// The sizes bound b compares rows and columns with, into *bh and *bw.
static void verdict_image_bound(const verdict_image_ctx *x, int b, long *bh, long *bw)
{
    *bh = b == VERDICT_BOUND_SWAPPED || b == VERDICT_BOUND_ROWS_BY_WIDTH ? x->w : x->h;
    *bw = b == VERDICT_BOUND_SWAPPED || b == VERDICT_BOUND_COLS_BY_HEIGHT ? x->h : x->w;
}

// Where index kind `index` puts pixel (y, x) of x's image, as a flat offset.
static long verdict_image_index(const verdict_image_ctx *x, int index, long y, long col)
{
    return index == VERDICT_INDEX_HEIGHT ? y * x->h + col : index == VERDICT_INDEX_COLUMNS ? col * x->h + y : y * x->w + col;
}

// The input buffer at flat offset p, guards included; *unknown set beyond them.
static double verdict_image_read(const verdict_image_ctx *x, long p, int *unknown)
{
    if (p < -x->guard || p >= x->cells + x->guard) {
        *unknown = 1;
        return 0.0;
    }
    return (double)x->in[p];
}

// What thread (row, col) of kernel m computes: the filter over its taps,
// each read as m reads it. *scale gets the sum of the terms' magnitudes.
// NaN when a read meets one (the guards around the image hold NaN); *unknown
// set when a read leaves the buffer and its guards (nothing to compare with).
static double verdict_image_value(const verdict_image_ctx *x, const verdict_image_kernel *m, long row, long col,
                                  double *scale, int *unknown)
{
    long bh, bw, fw = 2 * x->r + 1;
    double sum = 0.0, mag = 0.0;
    verdict_image_bound(x, m->tap_bound, &bh, &bw);
    for (long i = -x->r; i <= x->r; i++)
        for (long j = -x->r; j <= x->r; j++) {
            long y = row + i, col_t = col + j;
            double v;
            if (verdict_image_check(m->check[0], 1, y, bh) && verdict_image_check(m->check[1], 0, y, bh) &&
                verdict_image_check(m->check[2], 1, col_t, bw) && verdict_image_check(m->check[3], 0, col_t, bw)) {
                v = verdict_image_read(x, verdict_image_index(x, m->read_index, y, col_t), unknown);
            } else if (m->ghost == VERDICT_GHOST_CLAMP) {
                long cy = y < 0 ? 0 : y >= x->h ? x->h - 1 : y, cx = col_t < 0 ? 0 : col_t >= x->w ? x->w - 1 : col_t;
                v = x->in[cy * x->w + cx];
            } else if (m->ghost == VERDICT_GHOST_WRAP) {
                long wy = (y % x->h + x->h) % x->h, wx = (col_t % x->w + x->w) % x->w;
                v = x->in[wy * x->w + wx];
            } else {
                continue;  // a ghost cell: 0
            }
            double t = x->f[(i + x->r) * fw + (j + x->r)] * v;
            sum += t;
            mag += isnan(t) ? 0.0 : fabs(t);
        }
    *scale = mag;
    return sum;
}

// 1 if pixel (row, col) is one kernel m leaves out.
static int verdict_image_skipped(const verdict_image_ctx *x, const verdict_image_kernel *m, long row, long col)
{
    return ((m->skip & 1) && (col < x->r || col >= x->w - x->r)) || ((m->skip & 2) && (row < x->r || row >= x->h - x->r));
}

// 1 if got is value (NaN: any NaN the kernel computed) within the case's
// tolerance for a sum of magnitude scale.
static int verdict_image_same(const verdict_image_ctx *x, float got, double value, double scale)
{
    if (isnan(value))
        return isnan(got) && !verdict_has_bits(got, POISON_BITS);
    return !isnan(got) && fabs((double)got - value) <= x->c->atol + x->c->rtol * scale;
}

// What a simulated kernel leaves at a place, by kind: the evidence that it is
// the kernel the student wrote is a telling value (a number the right kernel
// does not give, and none a kernel gives by accident: 0, the pixel's input),
// or pixels of two kinds or more, each where the kernel puts it.
#define VERDICT_KIND_RIGHT     1u   // a computed number, the right one
#define VERDICT_KIND_TELLING   2u   // a computed number, a wrong one
#define VERDICT_KIND_NAN       4u   // NaN (a read of the guards around the image)
#define VERDICT_KIND_ZERO      8u   // 0
#define VERDICT_KIND_INPUT    16u   // the pixel's input
#define VERDICT_KIND_UNWRITTEN 32u  // never written

// The kind of value, left at pixel p (or, p outside the image, in a guard)
// by a kernel whose terms there sum to scale in magnitude.
static unsigned verdict_image_kind(const verdict_image_ctx *x, long p, double value, double scale)
{
    double tol = x->c->atol + x->c->rtol * scale, want, want_scale;
    if (isnan(value))
        return VERDICT_KIND_NAN;
    if (fabs(value) <= tol)
        return VERDICT_KIND_ZERO;
    if (p < 0 || p >= x->cells)
        return VERDICT_KIND_TELLING;
    if (fabs(value - (double)x->in[p]) <= tol)
        return VERDICT_KIND_INPUT;
    want = verdict_expected(x->c, 0, (size_t)(p / x->w), (size_t)(p % x->w), x->f, &want_scale);
    return fabs(value - want) <= x->c->atol + x->c->rtol * (scale > want_scale ? scale : want_scale) ? VERDICT_KIND_RIGHT : VERDICT_KIND_TELLING;
}

// 1 if kinds (VERDICT_KIND_* bits of the places a kernel explains) are
// evidence that it is the one: a telling value, or two kinds or more.
static int verdict_image_evidence(unsigned kinds)
{
    return (kinds & VERDICT_KIND_TELLING) || (kinds & (kinds - 1));
}

// 1 if output pixel (row, col), found as got, is what ghost-family kernel m
// leaves there; adds its kind to *kinds.
static int verdict_image_ghost_pixel(const verdict_image_ctx *x, const verdict_image_kernel *m, long row, long col,
                                     float got, unsigned *kinds)
{
    long p = row * x->w + col;
    int unknown = 0;
    double scale, value;
    if (verdict_image_skipped(x, m, row, col) && m->holds == VERDICT_HOLDS_POISON) {
        *kinds |= VERDICT_KIND_UNWRITTEN;
        return verdict_has_bits(got, POISON_BITS);
    }
    if (verdict_image_skipped(x, m, row, col))
        value = m->holds == VERDICT_HOLDS_ZERO ? 0.0 : (double)x->in[p], scale = fabs(value);
    else
        value = verdict_image_value(x, m, row, col, &scale, &unknown);
    if (unknown || !verdict_image_same(x, got, value, scale))
        return 0;
    *kinds |= verdict_image_kind(x, p, value, scale);
    return 1;
}

// 1 if the output is what ghost-family kernel m leaves (every pixel written
// where it should be and nothing else: the caller checked that all wrong
// pixels lie within r of an edge, where m differs from the right kernel),
// with evidence (verdict_image_evidence; the pixels farther from the edges
// are right). The corners go first: a kernel that tests one side wrongly
// differs there.
static int verdict_image_ghost_explains(const verdict_image_ctx *x, const verdict_image_kernel *m)
{
    unsigned kinds = x->h > 2 * x->r && x->w > 2 * x->r ? VERDICT_KIND_RIGHT : 0;
    for (int pass = 0; pass < 2; pass++)
        for (long row = 0; row < x->h; row++) {
            int row_edge = row < x->r || row >= x->h - x->r;
            for (long col = 0; col < x->w; col++) {
                int col_edge = col < x->r || col >= x->w - x->r;
                if (!row_edge && !col_edge) {
                    col = x->w - x->r - 1;  // on to the right-hand band
                    continue;
                }
                if ((row_edge && col_edge) != (pass == 0))
                    continue;
                if (!verdict_image_ghost_pixel(x, m, row, col, x->out[row * x->w + col], &kinds))
                    return 0;
            }
        }
    return verdict_image_evidence(kinds);
}

// Marks of one buffer position in a sizes-family simulation.
#define VERDICT_SIM_MUST    1u  // a thread inside the image stores here
#define VERDICT_SIM_MAY     2u  // a thread outside the image stores here (if the launch has it)
#define VERDICT_SIM_SEVERAL 4u  // more than one thread stores here (the last one's value stays)
#define VERDICT_SIM_SAME    8u  // the output holds one of the values stored here
#define VERDICT_SIM_SAME2  16u  // the second thread order's output does

// 1 if position p of buf (an output buffer at its first pixel) holds what it
// held before the launch: poison in the image, the guard pattern around it.
static int verdict_image_untouched(const verdict_image_ctx *x, const float *buf, long p)
{
    return verdict_has_bits(buf[p], p >= 0 && p < x->cells ? POISON_BITS : GUARD_BITS);
}

// Where thread (row, col) of kernel m stores, marked in mark (one byte a
// buffer position, the guards included), for every thread m's bound lets
// through. Returns 0 if a store lands beyond the guards (nothing to compare
// with there).
static int verdict_image_sizes_stores(const verdict_image_ctx *x, const verdict_image_kernel *m, long bh, long bw, unsigned char *mark)
{
    for (long row = 0; row < bh; row++)
        for (long col = 0; col < bw; col++) {
            long q = verdict_image_index(x, m->store_index, row, col);
            if (q < -x->guard || q >= x->cells + x->guard)
                return 0;
            unsigned char *at = &mark[q + x->guard];
            *at |= (*at & (VERDICT_SIM_MUST | VERDICT_SIM_MAY)) ? VERDICT_SIM_SEVERAL : 0;
            *at |= row < x->h && col < x->w ? VERDICT_SIM_MUST : VERDICT_SIM_MAY;
        }
    return 1;
}

// 1 if the outputs are exactly what sizes-family kernel m leaves in them,
// guards included (where two threads store to one place, either value),
// with evidence (verdict_image_evidence) from the places only one thread
// stores to or none does. Every thread its bound lets through is simulated.
static int verdict_image_sizes_explains(const verdict_image_ctx *x, const verdict_image_kernel *m)
{
    long bh, bw, span = x->cells + 2 * x->guard;
    unsigned kinds = 0;
    int ok = 1;
    verdict_image_bound(x, m->thread_bound, &bh, &bw);
    if ((double)bh * (double)bw > 4.0 * (double)x->cells + 4096.0)
        return 0;
    unsigned char *mark = calloc((size_t)span, 1);
    if (!mark)
        return 0;
    ok = verdict_image_sizes_stores(x, m, bh, bw, mark);
    for (long row = 0; row < bh && ok; row++)
        for (long col = 0; col < bw && ok; col++) {
            long q = verdict_image_index(x, m->store_index, row, col);
            int unknown = 0;
            double scale, value = verdict_image_value(x, m, row, col, &scale, &unknown);
            unsigned char *at = &mark[q + x->guard];
            if (unknown) {
                ok = 0;
                break;
            }
            int same = verdict_image_same(x, x->out[q], value, scale), same2 = x->out2 && verdict_image_same(x, x->out2[q], value, scale);
            if ((*at & (VERDICT_SIM_MUST | VERDICT_SIM_SEVERAL)) == VERDICT_SIM_MUST && (!same || (x->out2 && !same2))) {
                ok = 0;  // this thread alone stores here, and not what the output holds
                break;
            }
            if (same) {
                unsigned kind = verdict_image_kind(x, q, value, scale);
                *at |= VERDICT_SIM_SAME;
                if (!(*at & VERDICT_SIM_SEVERAL))  // in a guard only a telling value counts (a place a thread may write)
                    kinds |= q >= 0 && q < x->cells ? kind : kind & VERDICT_KIND_TELLING;
            }
            *at |= same2 ? VERDICT_SIM_SAME2 : 0;
        }
    for (long q = -x->guard; q < x->cells + x->guard && ok; q++) {
        unsigned char at = mark[q + x->guard];
        int kept = !(at & VERDICT_SIM_MUST);  // the place may still hold what it held
        ok = (at & VERDICT_SIM_SAME) || (kept && verdict_image_untouched(x, x->out, q));
        if (ok && x->out2)
            ok = (at & VERDICT_SIM_SAME2) || (kept && verdict_image_untouched(x, x->out2, q));
        if (ok && !(at & (VERDICT_SIM_MUST | VERDICT_SIM_MAY)) && q >= 0 && q < x->cells)
            kinds |= VERDICT_KIND_UNWRITTEN;
    }
    free(mark);
    return ok && verdict_image_evidence(kinds);
}

// The test of one coordinate as kernel m writes it, for the hint: "row >= 0"
// (lo) or "row < height", off as check says.
static const char *verdict_image_check_text(int check, int lo, int rows, char *buf, size_t len)
{
    const char *v = rows ? "row" : "col", *n = rows ? "height" : "width";
    if (lo)
        snprintf(buf, len, check == VERDICT_CHECK_SHORT ? "%s > 0" : "%s >= 0", v);
    else
        snprintf(buf, len, check == VERDICT_CHECK_PAST ? "%s <= %s" : check == VERDICT_CHECK_SHORT ? "%s < %s - 1" : "%s < %s", v, n);
    return buf;
}

// The hint for ghost-family kernel m, into v.
static void verdict_image_ghost_hint(const verdict_image_ctx *x, const verdict_image_kernel *m, sweep_verdict *v)
{
    static const char *const guard = "Guard every read of in[] (and every tile load) by 0 <= row < height and 0 <= col < width, and use 0 otherwise.";
    char what[320] = "";
    v->hint_key = HINT_GHOST_CELLS;
    if (m->skip) {
        static const char *const sides[4] = {"", "left and right", "top and bottom", "four"};
        static const char *const held[3] = {"never written", "written as 0", "copied from the input"};
        snprintf(v->hint, sizeof(v->hint), "the pixels within r = %ld of the image's %s edges were %s, all others are right: there the filter reaches ghost cells, which count as 0, and those pixels are computed like any other (a convolution keeps no boundary, unlike a sweep).",
                 x->r, sides[m->skip], held[m->holds]);
        return;
    }
    if (m->ghost != VERDICT_GHOST_ZERO) {
        snprintf(v->hint, sizeof(v->hint), "the values match ghost cells taken as %s instead of 0. %s",
                 x->cells == 1                    ? "the pixel itself (clamped to the edge or wrapped around)"
                 : m->ghost == VERDICT_GHOST_CLAMP ? "the nearest pixel of the image (clamped to the edge)"
                                                  : "the pixel across the image (wrapped around)",
                 guard);
    } else {
        int outside = 0;
        for (int n = 0; n < 4; n++) {  // "without row >= 0, with col <= width for col < width"
            char test[40], meant[40];
            size_t used = strlen(what);
            if (m->check[n] == VERDICT_CHECK_RIGHT)
                continue;
            verdict_image_check_text(VERDICT_CHECK_RIGHT, n % 2 == 0, n < 2, meant, sizeof(meant));
            if (m->check[n] == VERDICT_CHECK_MISSING)
                snprintf(what + used, sizeof(what) - used, "%swithout %s", used ? ", " : "", meant);
            else
                snprintf(what + used, sizeof(what) - used, "%swith %s for %s", used ? ", " : "",
                         verdict_image_check_text(m->check[n], n % 2 == 0, n < 2, test, sizeof(test)), meant);
            outside |= m->check[n] != VERDICT_CHECK_SHORT;
        }
        snprintf(v->hint, sizeof(v->hint), "the values match a ghost-cell test (of the taps or the tile loads) %s: %s. %s", what,
                 outside ? "a ghost cell it lets through reads in[row*width + col], a pixel of another row or the memory around the image (NaN), instead of 0"
                         : "it takes pixels on the image's edge for ghost cells",
                 guard);
    }
    // On a single pixel, ghost cells taken as the pixel itself are also every tap reading the pixel.
    if (x->cells == 1 && m->ghost != VERDICT_GHOST_ZERO) {
        size_t used = strlen(v->hint);
        snprintf(v->hint + used, sizeof(v->hint) - used, " (On a single pixel a filter reading in[row][col] at every tap gives the same: check the offsets row+i, col+j too.)");
    }
}

// What sizes-family kernel m does, as the hints say it: "that reads ..." or
// "with a ... test that ...", into buf.
static const char *verdict_image_sizes_what(const verdict_image_kernel *m, char *buf, size_t len)
{
    static const char *const index_text[3] = {"IMAGE_INDEX(row, col, width)", "IMAGE_INDEX(row, col, height) (rows of height floats)",
                                              "IMAGE_INDEX(col, row, height) (the image taken column by column)"};
    static const char *const bound_text[4] = {"", "has width and height exchanged (row < width, col < height)", "bounds row by width (row < width)",
                                              "bounds col by height (col < height)"};
    int reads = m->read_index != VERDICT_INDEX_RIGHT, stores = m->store_index != VERDICT_INDEX_RIGHT;
    if (reads || stores) {
        snprintf(buf, len, "that %s at %s", reads && stores ? "reads and stores pixel (row, col)" : reads ? "reads input pixel (row, col)" : "stores output pixel (row, col)",
                 index_text[reads ? m->read_index : m->store_index]);
        return buf;
    }
    snprintf(buf, len, "with a %s that %s",
             m->thread_bound == m->tap_bound            ? "bounds test, for the store and for the ghost cells,"
             : m->thread_bound != VERDICT_BOUND_RIGHT ? "test before the store (or a grid of blocks)"
                                                      : "ghost-cell test (of the taps or the tile load)",
             bound_text[m->thread_bound != VERDICT_BOUND_RIGHT ? m->thread_bound : m->tap_bound]);
    return buf;
}

// The hint for sizes-family kernel m, into v.
static void verdict_image_sizes_hint(const verdict_image_kernel *m, sweep_verdict *v)
{
    char what[160];
    v->hint_key = HINT_SIZES_MIXED;
    snprintf(v->hint, sizeof(v->hint), "the values match a kernel %s: width and height mixed up. A row holds width floats and the image has height rows: pixel (row, col), 0 <= row < height and 0 <= col < width, is IMAGE_INDEX(row, col, width).",
             verdict_image_sizes_what(m, what, sizeof(what)));
}

// Tries the ghost family on a failed image case: every wrong pixel lies
// within r of an edge, nothing outside the output was written and the
// thread orders agree. Returns 1 with *m the first kernel that explains it
// (the fewest tests off first).
static int verdict_image_ghosts(const verdict_image_ctx *x, const sweep_verdict *v, const verdict_tally *t, verdict_image_kernel *m)
{
    static const int lows[3] = {VERDICT_CHECK_RIGHT, VERDICT_CHECK_MISSING, VERDICT_CHECK_SHORT};
    static const int highs[4] = {VERDICT_CHECK_RIGHT, VERDICT_CHECK_MISSING, VERDICT_CHECK_PAST, VERDICT_CHECK_SHORT};
    if (v->guard_before || v->guard_after || v->order_differs || !v->wrong || t->border_wrong != v->wrong)
        return 0;
    for (int g = VERDICT_GHOST_CLAMP; g <= VERDICT_GHOST_WRAP; g++) {  // ghost cells as a pixel of the image
        memset(m, 0, sizeof(*m));
        m->ghost = g;
        if (verdict_image_ghost_explains(x, m))
            return 1;
    }
    for (int wrong = 1; wrong <= 4; wrong++)  // the taps' tests, one of them off first
        for (int n = 0; n < 3 * 4 * 3 * 4; n++) {
            memset(m, 0, sizeof(*m));
            m->check[0] = lows[n % 3], m->check[1] = highs[n / 3 % 4], m->check[2] = lows[n / 12 % 3], m->check[3] = highs[n / 36];
            int off = 0;
            for (int q = 0; q < 4; q++)
                off += m->check[q] != VERDICT_CHECK_RIGHT;
            if (off == wrong && verdict_image_ghost_explains(x, m))
                return 1;
        }
    for (int skip = 3; skip >= 1; skip--)  // the pixels near the edges left out
        for (int holds = VERDICT_HOLDS_POISON; holds <= VERDICT_HOLDS_INPUT; holds++) {
            memset(m, 0, sizeof(*m));
            m->skip = skip, m->holds = holds;
            if (verdict_image_ghost_explains(x, m))
                return 1;
        }
    return 0;
}

// Tries the sizes family on a failed image that is no square (on a square
// one width and height are the same number). Returns 1 with *m the first
// kernel that explains every place of the outputs.
static int verdict_image_sizes(const verdict_image_ctx *x, verdict_image_kernel *m)
{
    static const int indices[6][2] = {{VERDICT_INDEX_HEIGHT, VERDICT_INDEX_HEIGHT}, {VERDICT_INDEX_HEIGHT, VERDICT_INDEX_RIGHT},
                                      {VERDICT_INDEX_RIGHT, VERDICT_INDEX_HEIGHT}, {VERDICT_INDEX_COLUMNS, VERDICT_INDEX_COLUMNS},
                                      {VERDICT_INDEX_COLUMNS, VERDICT_INDEX_RIGHT}, {VERDICT_INDEX_RIGHT, VERDICT_INDEX_COLUMNS}};
    if (x->w == x->h || (size_t)x->cells > VERDICT_IMAGE_SIM_PIXELS)
        return 0;
    for (int n = 0; n < 6 + 9; n++) {
        memset(m, 0, sizeof(*m));
        if (n < 6) {
            m->read_index = indices[n][0], m->store_index = indices[n][1];
        } else {  // a bound: in both tests, in the store's only, in the ghost cells' only
            int b = VERDICT_BOUND_SWAPPED + (n - 6) / 3, where = (n - 6) % 3;
            m->thread_bound = where != 2 ? b : VERDICT_BOUND_RIGHT;
            m->tap_bound = where != 1 ? b : VERDICT_BOUND_RIGHT;
        }
        if (verdict_image_sizes_explains(x, m))
            return 1;
    }
    return 0;
}

// A failed image case (filter radius > 0) whose input is untouched: if a
// kernel with one ghost-cell or one sizes mistake leaves exactly this output,
// its hint replaces the one the symptoms gave (the reason, which says what
// was seen, stays).
static void verdict_image_mistakes(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v, const verdict_tally *t)
{
    verdict_image_ctx x;
    verdict_image_kernel by_ghost, by_sizes;
    long dummy;
    memset(&x, 0, sizeof(x));
    x.c = c;
    x.w = (long)c->nx, x.h = (long)c->ny, x.r = c->filter_radius;
    x.cells = x.w * x.h, x.guard = (long)b->guard;
    x.in = b->in_after + b->guard, x.out = b->out + b->guard;
    x.out2 = b->out_order2 ? b->out_order2 + b->guard : NULL;
    if (v->input_changed || c->nz != 1 || verdict_guard_damage(b->in_after, b->guard, &dummy) ||
        verdict_guard_damage(b->in_after + b->guard + x.cells, b->guard, &dummy))
        return;
    verdict_weights(c, x.f);
    int ghost = verdict_image_ghosts(&x, v, t, &by_ghost), sizes = verdict_image_sizes(&x, &by_sizes);
    int exact = 0;  // the hint already names a mistake whose values are these (a filter's)
    for (int a = 0; a < 3; a++)
        exact |= v->hint_key == verdict_conv_alts[a].key;
    if (ghost && !exact)
        verdict_image_ghost_hint(&x, &by_ghost, v);
    else if (sizes && !exact)
        verdict_image_sizes_hint(&by_sizes, v);
    if ((exact && (ghost || sizes)) || (ghost && sizes)) {  // two mistakes give the same values on this image
        char what[160];                                     // (under emulation a store into the guards of the NaN read there leaves them as they were)
        size_t used = strlen(v->hint);
        if (ghost && exact)
            snprintf(v->hint + used, sizeof(v->hint) - used, " A kernel that mishandles ghost cells gives the same values on this image: check that too.");
        else
            snprintf(v->hint + used, sizeof(v->hint) - used, " A kernel %s gives the same values on this image (width and height mixed up): check that too.",
                     verdict_image_sizes_what(&by_sizes, what, sizeof(what)));
    }
}

// The hints' words for an N×N×N grid (kernels/lab.h), and what the grid
// interface (kernels/grid.h, its own size per axis) and the image interface
// (kernels/conv.h, width×height, every pixel written) say instead ("" : the
// words do not apply there, and the image's own hints do not use them).
static const char *const verdict_phrases[][3] = {
    {"LAB_INDEX(i, j, k, N) (i plane, j row, k column)", "GRID_INDEX(i, j, k, ny, nx) (i plane, j row, k column)", "IMAGE_INDEX(row, col, width)"},
    {"LAB_INDEX(i, j, k, N)", "GRID_INDEX(i, j, k, ny, nx)", "IMAGE_INDEX(row, col, width)"},
    {"LAB_INDEX (size_t)", "GRID_INDEX (size_t)", "IMAGE_INDEX (size_t)"},
    {"launch_stencil", "launch_sweep", "launch_convolution"},
    {"N*N*N", "nx*ny*nz", "width*height"},
    {"stride N*N", "stride nx*ny", "stride width*height"},
    {"stride N)", "stride nx)", "stride width)"},
    {"one plane: N*N floats", "one plane: nx*ny floats", "one image: width*height floats"},
    {"one row: N floats", "one row: nx floats", "one row: width floats"},
    {"1 <= i, j, k <= N-2", "1 <= i <= nz-2, 1 <= j <= ny-2 and 1 <= k <= nx-2", "0 <= row < height and 0 <= col < width"},
    {"1 <= i <= N-2 means i < N-1", "1 <= k <= nx-2 means k < nx-1, and likewise for j with ny and i with nz", "0 <= col < width means col < width, not col < width-1, and likewise for row with height"},
    {"(N + B - 1) / B blocks", "(nx + B - 1) / B blocks in x, from ny in y and nz in z", "(width + B - 1) / B blocks in x and (height + B - 1) / B in y"},
    {"overflows for this N", "overflows for this grid", "overflows for this image"},
    {"small N pass while large N fail", "small grids pass while large ones fail", "small images pass while large ones fail"},
    {"first or last interior plane, row or column", "first or last interior plane, row or column", "first or last row or column of the image"},
    {"interior cells still hold", "interior cells still hold", "pixels still hold"},
    {"interior cells wrong", "interior cells wrong", "pixels wrong"},
    {"some interior cells were never written", "some interior cells were never written", "some pixels were never written"},
    {"does its guard let interior threads through", "does its guard let interior threads through", "does its guard let a thread through for every pixel"},
    {"the guard let every interior point through", "the guard let every interior point through", "the guard let every pixel through"},
};

// Rewrites text in place in the words of interface words (VERDICT_WORDS_*).
static void verdict_wording(char *text, size_t len, int words)
{
    char out[1024];
    if (words == VERDICT_WORDS_CUBE)
        return;
    for (size_t n = 0; n < sizeof(verdict_phrases) / sizeof(verdict_phrases[0]); n++) {
        const char *from = verdict_phrases[n][0], *at = strstr(text, from);
        if (!at)
            continue;
        snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - text), text, verdict_phrases[n][words], at + strlen(from));
        snprintf(text, len, "%s", out);
    }
}

int verdict_sweep(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v)
{
    verdict_tally t;
    long gb_out, ga_out, gb_in, ga_in;
    size_t cells = c->nx * c->ny * c->nz;
    static verdict_alts alts;
    memset(v, 0, sizeof(*v));
    memset(&t, 0, sizeof(t));
    v->first[0] = v->first[1] = v->first[2] = -1;
    if (c->filter_radius < 0 || c->filter_radius > CONV_MAX_RADIUS) {
        snprintf(v->reason, sizeof(v->reason), "the kit cannot judge a convolution of radius %d (1 to %d)", c->filter_radius, CONV_MAX_RADIUS);
        v->hint_key = HINT_WRONG_VALUES;
        return 0;
    }
    if (!c->filter_radius && (c->star_radius < 1 || c->star_radius > STENCIL_MAX_RADIUS)) {
        snprintf(v->reason, sizeof(v->reason), "the kit cannot judge a star of radius %d (1 to %d)", c->star_radius, STENCIL_MAX_RADIUS);
        v->hint_key = HINT_WRONG_VALUES;
        return 0;
    }
    verdict_alts_for(c->filter_radius ? 1 : c->star_radius, &alts);  // a convolution tries its own (verdict_conv_alts)
    t.alts = &alts;
    t.plane_wrong = calloc(c->nz, sizeof(size_t));
    t.row_unwritten = calloc(c->ny, sizeof(size_t));
    t.column_unwritten = calloc(c->nx, sizeof(size_t));
    if (!t.plane_wrong || !t.row_unwritten || !t.column_unwritten) {
        free(t.plane_wrong), free(t.row_unwritten), free(t.column_unwritten);
        snprintf(v->reason, sizeof(v->reason), "out of host memory while checking");
        v->hint_key = HINT_WRONG_VALUES;
        return 0;
    }
    v->guard_before = verdict_guard_damage(b->out, b->guard, &gb_out) +
                      verdict_guard_damage(b->in_after, b->guard, &gb_in);
    v->guard_after = verdict_guard_damage(b->out + b->guard + cells, b->guard, &ga_out) +
                     verdict_guard_damage(b->in_after + b->guard + cells, b->guard, &ga_in);
    if (!verdict_scan_clean(c, b, v)) {  // something is off: the cell by cell walk, for the hints
        for (size_t p = 0; p < cells; p++)
            v->input_changed += (size_t)verdict_differ(b->in_after[b->guard + p], c->in[p]);
        verdict_scan(c, b, v, &t);
    }
    verdict_explain(c, v, &t, gb_out >= 0 ? gb_out : gb_in, ga_out >= 0 ? ga_out : ga_in, b->guard);
    if (c->filter_radius && v->hint_key)  // an image: is the output exactly a kernel's with one known mistake?
        verdict_image_mistakes(c, b, v, &t);
    free(t.plane_wrong);
    free(t.row_unwritten);
    free(t.column_unwritten);
    verdict_wording(v->hint, sizeof(v->hint), c->words);
    if (c->filter_radius)
        verdict_wording(v->reason, sizeof(v->reason), c->words);
    v->passed = v->hint_key == NULL;
    return v->passed;
}
