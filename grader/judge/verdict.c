// grader/judge/verdict.c — see verdict.h.
#include "verdict.h"
#include "verdict_parts.h"

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
// (the types: verdict_parts.h)
// ---------------------------------------------------------------------------

static const char verdict_axis_name[3] = {'x', 'y', 'z'};    // axis a's name
static const char verdict_axis_index[3] = {'k', 'j', 'i'};   // the index that moves along it
static const char *const verdict_axis_stride[3] = {"1", "N", "N*N"};
static const char *const verdict_axis_unit[3][2] = {{"", ""}, {"row", "N floats"}, {"plane", "N*N floats"}};
static const char *const verdict_distance_word[] = {"", "one", "two", "three"};  // up to a star's radius + 1 and VERDICT_LANE_REACH
_Static_assert(sizeof(verdict_distance_word) / sizeof(verdict_distance_word[0]) > (STENCIL_MAX_RADIUS + 1 > VERDICT_LANE_REACH ? STENCIL_MAX_RADIUS + 1 : VERDICT_LANE_REACH),
               "verdict_distance_word: a word for every distance a hint names");

// The input cell off[a] cells along each axis a from (i, j, k), as an array
// expression: in[i][j-1][k+2].
static const char *verdict_offset_text(const int off[3], char *buf, size_t len)
{
    char part[3][8];
    for (int b = 0; b < 3; b++)
        if (off[b])
            snprintf(part[b], sizeof(part[b]), "%c%+d", verdict_axis_index[b], off[b]);
        else
            snprintf(part[b], sizeof(part[b]), "%c", verdict_axis_index[b]);
    snprintf(buf, len, "in[%s][%s][%s]", part[2], part[1], part[0]);
    return buf;
}

// The input cell d cells along axis a on side s (0: minus) of (i, j, k), as
// an array expression: in[i][j][k-1].
static const char *verdict_cell_text(int a, int s, int d, char *buf, size_t len)
{
    int off[3] = {0, 0, 0};
    off[a] = s ? d : -d;
    return verdict_offset_text(off, buf, len);
}

// The offset of term n's cell from the point, per axis (x, y, z), into off.
static void verdict_term_offset(int n, int off[3])
{
    off[0] = off[1] = off[2] = 0;
    if (n > 0)
        off[(n - 1) % 6 / 2] = (n - 1) % 2 ? (n - 1) / 6 + 1 : -((n - 1) / 6 + 1);
}

// Term n of a star of radius r in words, into buf: "c0 (the centre, in[i][j][k])"
// or "c3 (the y-1 neighbour, in[i][j-1][k])".
static const char *verdict_term_text(int n, char *buf, size_t len)
{
    char cell[48];
    if (n == 0) {
        snprintf(buf, len, "c0 (the centre, in[i][j][k])");
        return buf;
    }
    int d = (n - 1) / 6 + 1, a = (n - 1) % 6 / 2, s = (n - 1) % 2;
    snprintf(buf, len, "c%d (the %c%c%d neighbour, %s)", n, verdict_axis_name[a], s ? '+' : '-', d, verdict_cell_text(a, s, d, cell, sizeof(cell)));
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

// The two neighbours of one axis and distance swapped (radius r, ncoef coefficients).
static void verdict_alts_swapped(int radius, int ncoef, verdict_alts *l)
{
    static const char *const swapped_keys[3] = {HINT_NEIGHBOURS_SWAPPED_X, HINT_NEIGHBOURS_SWAPPED_Y, HINT_NEIGHBOURS_SWAPPED_Z};
    char lo[48], hi[48];
    for (int d = 1; d <= radius; d++)
        for (int a = 0; a < 3; a++) {
            int m = STENCIL_COEF_INDEX(a, 0, d), p = STENCIL_COEF_INDEX(a, 1, d);
            verdict_alt *alt = verdict_alt_add(l, swapped_keys[a], ncoef);
            alt->perm[m] = p, alt->perm[p] = m;
            snprintf(alt->text, sizeof(alt->text), "the values match the stencil with c%d and c%d exchanged: the %c neighbours%s%s%s are swapped (c%d multiplies %s, c%d %s).",
                     m, p, verdict_axis_name[a], d > 1 ? " " : "", d > 1 ? verdict_distance_word[d] : "", d > 1 ? " cells away" : "",
                     m, verdict_cell_text(a, 0, d, lo, sizeof(lo)), p, verdict_cell_text(a, 1, d, hi, sizeof(hi)));
        }
}

// Two axes' coefficients exchanged.
static void verdict_alts_axes(int radius, int ncoef, verdict_alts *l)
{
    static const char *const axes_keys[3][3] = {{NULL, HINT_AXES_SWAPPED_XY, HINT_AXES_SWAPPED_XZ}, {NULL, NULL, HINT_AXES_SWAPPED_YZ}, {NULL, NULL, NULL}};
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
}

// The centre or one neighbour left out.
static void verdict_alts_missing(int radius, int ncoef, verdict_alts *l)
{
    char lo[48];
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
}

// One neighbour read a cell further out than it should.
static void verdict_alts_offset(int radius, int ncoef, verdict_alts *l)
{
    char lo[48];
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

// One term counted twice or with its sign flipped, one term's coefficient on another term's cell.
static void verdict_alts_scaled_moved(int ncoef, verdict_alts *l)
{
    // One term counted twice or with its sign flipped, and one term's coefficient on another
    // term's cell (the wrong neighbour, on its own axis or another): tried after the rest.
    char term[96], other[96];
    for (int n = 0; n < ncoef; n++) {
        verdict_alt *twice = verdict_alt_add(l, HINT_TERM_DOUBLED, ncoef);
        twice->scaled = n + 1, twice->factor = 2.0;
        snprintf(twice->text, sizeof(twice->text), "the values match the stencil with its %s term counted twice: add it once.",
                 verdict_term_text(n, term, sizeof(term)));
        verdict_alt *sign = verdict_alt_add(l, HINT_TERM_SIGN, ncoef);
        sign->scaled = n + 1, sign->factor = -1.0;
        snprintf(sign->text, sizeof(sign->text), "the values match the stencil with its %s term subtracted: every term is added, c%d times its cell.",
                 verdict_term_text(n, term, sizeof(term)), n);
    }
    for (int n = 0; n < ncoef; n++)
        for (int m = 0; m < ncoef; m++) {
            if (m == n)
                continue;
            verdict_alt *alt = verdict_alt_add(l, HINT_TERM_WRONG_CELL, ncoef);
            alt->moved = n + 1, alt->moved_to = m;
            if (m == 0)
                snprintf(other, sizeof(other), "in[i][j][k]");
            else
                verdict_cell_text((m - 1) % 6 / 2, (m - 1) % 2, (m - 1) / 6 + 1, other, sizeof(other));
            snprintf(alt->text, sizeof(alt->text), "the values match the stencil with its %s term multiplying %s (c%d's cell) instead: that term reads the wrong cell%s.",
                     verdict_term_text(n, term, sizeof(term)), other, m,
                     n && m && (n - 1) % 6 / 2 != (m - 1) % 6 / 2 ? ", on another axis" : "");
        }
}

// One term read from a cell up to VERDICT_LANE_REACH columns from its own
// that is no term's cell (a float4's point taking that term from another
// lane's: up.x where up.y belongs); cells on the x axis are the other
// alternatives' (the centre and the x neighbours).
static void verdict_alts_lanes(int radius, int ncoef, verdict_alts *l)
{
    char term[96], cell[48];
    for (int n = 0; n < ncoef; n++)
        for (int dx = -VERDICT_LANE_REACH; dx <= VERDICT_LANE_REACH; dx++) {
            int off[3];
            verdict_term_offset(n, off);
            off[0] += dx;
            if (dx == 0 || (!off[1] && !off[2] && abs(off[0]) <= radius))
                continue;
            verdict_alt *alt = verdict_alt_add(l, HINT_TERM_WRONG_CELL, ncoef);
            alt->lane = n + 1, alt->lane_dx = dx;
            snprintf(alt->text, sizeof(alt->text), "the values match the stencil with its %s term multiplying %s instead, the cell %s column%s %s its own: that term reads the wrong cell.",
                     verdict_term_text(n, term, sizeof(term)), verdict_offset_text(off, cell, sizeof(cell)), verdict_distance_word[abs(dx)],
                     abs(dx) > 1 ? "s" : "", dx < 0 ? "before" : "after");
        }
}

// What a kernel with one classic mistake computes, for a star of radius r:
// the two neighbours of one axis and distance swapped, two axes' coefficients
// exchanged, the centre or one neighbour left out, one neighbour read a cell
// further out than it should, one term doubled, negated or on another
// term's cell, one term read a few columns off its cell. For r = 1, c1..c6
// as kernels/lab.h names them.
static void verdict_alts_for(int radius, verdict_alts *l)
{
    const int ncoef = STENCIL_NCOEF(radius);
    l->n = 0;
    verdict_alts_swapped(radius, ncoef, l);
    verdict_alts_axes(radius, ncoef, l);
    verdict_alts_missing(radius, ncoef, l);
    verdict_alts_offset(radius, ncoef, l);
    verdict_alts_scaled_moved(ncoef, l);
    verdict_alts_lanes(radius, ncoef, l);
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

// 1 if value has exactly the bit pattern bits.
int verdict_has_bits(float value, uint32_t bits)
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
size_t verdict_guard_damage(const float *g, size_t n, long *first)
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

// 1 if got, written where want (its terms' magnitudes summing to scale) is
// expected, is wrong: unwritten, NaN or outside the case's tolerance.
static int verdict_written_wrong(const sweep_case *c, float got, double want, double scale)
{
    return verdict_has_bits(got, POISON_BITS) || isnan(got) || !(fabs((double)got - want) <= c->atol + c->rtol * scale);
}

// 1 if got is wrong for cell (i, j, k) of case c, coef its weights in
// double: a written cell outside the tolerance, NaN or unwritten, a kept cell
// not the input's bits. *want receives the value expected there.
static int verdict_sample_cell_wrong(const sweep_case *c, const double *coef, size_t i, size_t j, size_t k, float got,
                                     double *want)
{
    size_t p = (i * c->ny + j) * c->nx + k;
    double scale = 0;
    *want = c->in[p];
    if (!verdict_cell_written(c, i, j, k))
        return verdict_differ(got, c->in[p]);
    *want = verdict_expected(c, i, j, k, coef, &scale);
    return verdict_written_wrong(c, got, *want, scale);
}

// Points of a row whose reference values a sample's check computes at once.
#define VERDICT_ROW_CHUNK 256

// The wrong cells of row j of plane i of c's output (got: its nx values);
// *first_k receives the first one's column (nx when none). A star's
// interior row takes its reference values a chunk at a time
// (reference_points_row: the same sums as verdict_sample_cell_wrong's).
static size_t verdict_sample_row(const sweep_case *c, const double *coef, size_t i, size_t j, const float *got, size_t *first_k)
{
    size_t bad = 0, r = (size_t)c->star_radius;
    double want;
    *first_k = c->nx;
    if (!c->filter_radius && c->nx > 2 * r && verdict_cell_written(c, i, j, r)) {  // a star's interior row
        const float *in = c->in + (i * c->ny + j) * c->nx;
        double wants[VERDICT_ROW_CHUNK], scales[VERDICT_ROW_CHUNK];
        for (size_t k = 0; k < c->nx; k++) {
            if (k < r || k + r >= c->nx) {  // kept: the input's bits
                if (!verdict_differ(got[k], in[k]))
                    continue;
            } else {
                size_t at = (k - r) % VERDICT_ROW_CHUNK;
                if (at == 0)
                    reference_points_row(c->in, c->nx, c->ny, i, j, k, k + VERDICT_ROW_CHUNK < c->nx - r ? k + VERDICT_ROW_CHUNK : c->nx - r,
                                         coef, c->star_radius, wants, scales);
                if (!verdict_written_wrong(c, got[k], wants[at], scales[at]))
                    continue;
            }
            *first_k = bad ? *first_k : k;
            bad++;
        }
        return bad;
    }
    for (size_t k = 0; k < c->nx; k++)
        if (verdict_sample_cell_wrong(c, coef, i, j, k, got[k], &want)) {
            *first_k = bad ? *first_k : k;
            bad++;
        }
    return bad;
}

size_t verdict_sweep_sample(const sweep_case *c, const float *units, const unsigned *which, int n, long first[3],
                            double *first_want, float *first_got)
{
    double coef[VERDICT_MAX_WEIGHTS];
    protocol_sample_unit unit = protocol_sample_unit_of(c->nx, c->ny, c->nz);
    size_t bad = 0, plane = c->nx * c->ny, rows = (size_t)unit.cells / c->nx, none = (size_t)-1, first_at = none;
    long total = (long)(rows * (size_t)(n > 0 ? n : 0));
    first[0] = first[1] = first[2] = -1;
    verdict_weights(c, coef);
    // Every sampled row side by side (a large grid's planes hold millions of cells); the first wrong
    // cell is the one of lowest position in the sample, as one thread going through them in order finds it.
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first_at) if (total * (long)c->nx > (1L << 20))
    for (long g = 0; g < total; g++) {
        size_t q = (size_t)g / rows, k;
        if (which[q] >= unit.count)
            continue;
        size_t at = (size_t)which[q] * unit.stride + (size_t)g % rows * c->nx;  // the row's first cell
        size_t row_bad = verdict_sample_row(c, coef, at / plane, at / c->nx % c->ny, units + (size_t)g * c->nx, &k);
        if (row_bad) {
            bad += row_bad;
            first_at = (size_t)g * c->nx + k < first_at ? (size_t)g * c->nx + k : first_at;
        }
    }
    if (first_at != none) {
        size_t cells = (size_t)unit.cells, at = (size_t)which[first_at / cells] * unit.stride + first_at % cells;
        first[0] = (long)(at / plane), first[1] = (long)(at / c->nx % c->ny), first[2] = (long)(at % c->nx);
        *first_got = units[first_at];
        verdict_sample_cell_wrong(c, coef, (size_t)first[0], (size_t)first[1], (size_t)first[2], *first_got, first_want);
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
// The pass over the grid (its tally: verdict_parts.h)
// ---------------------------------------------------------------------------

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

// Moves lane alternative va's term (weight cn) at cell (i, j, k) to the cell
// va->lane_dx columns from its own: adjusts *alt and *scale. Returns 0 when
// that cell lies outside its row (no such kernel reads it).
static int verdict_lane_term(const sweep_case *c, size_t i, size_t j, size_t k, const verdict_alt *va, double cn, double *alt,
                             double *scale)
{
    int off[3];
    verdict_term_offset(va->lane - 1, off);
    long col = (long)k + off[0], moved = col + va->lane_dx;
    if (moved < 0 || moved >= (long)c->nx)
        return 0;
    size_t row = (((size_t)((long)i + off[2])) * c->ny + (size_t)((long)j + off[1])) * c->nx;
    double own = c->in[row + (size_t)col], other = c->in[row + (size_t)moved];
    *alt += cn * (other - own);
    *scale += fabs(cn * other);
    return 1;
}

// What alternative va computes at cell (i, j, k) of c, into *alt, with the
// scale of its tolerance in *scale. Returns 0 where no kernel making that
// mistake reads a cell there (a cell further out past the grid, a lane
// outside the row).
static int verdict_alt_value(const sweep_case *c, const verdict_alt *va, size_t i, size_t j, size_t k, double *alt, double *scale)
{
    const int ncoef = STENCIL_NCOEF(c->star_radius);
    double alt_c[STENCIL_MAX_NCOEF];
    for (int n = 0; n < ncoef; n++)
        alt_c[n] = n == va->dropped ? 0.0 : (double)c->coef[va->perm[n]];
    if (va->scaled)
        alt_c[va->scaled - 1] *= va->factor;
    if (va->moved) {  // term n's coefficient on another cell's value: that cell weighs both, n's own cell nothing
        alt_c[va->moved_to] += alt_c[va->moved - 1];
        alt_c[va->moved - 1] = 0.0;
    }
    *alt = reference_point(c->in, c->nx, c->ny, i, j, k, alt_c, c->star_radius, scale);
    if (va->far) {  // term n's neighbour read one cell further out, as a flat index (what such a kernel reads)
        int n = va->far - 1, d = (n - 1) / 6 + 1, axis = (n - 1) % 6 / 2, side = (n - 1) % 2;
        long unit = axis == 0 ? 1 : axis == 1 ? (long)c->nx : (long)(c->nx * c->ny);
        long stride = side ? unit : -unit;
        long p = (long)((i * c->ny + j) * c->nx + k), cells = (long)(c->nx * c->ny * c->nz);
        if (p + (d + 1) * stride < 0 || p + (d + 1) * stride >= cells)
            return 0;
        double near = c->in[p + d * stride], far = c->in[p + (d + 1) * stride];
        *alt += alt_c[n] * (far - near);
        *scale += fabs(alt_c[n] * far);
    }
    return !va->lane || verdict_lane_term(c, i, j, k, va, alt_c[va->lane - 1], alt, scale);
}

// 1 if got, the value at cell (i, j, k), is what alternative va computes
// there, within the case's tolerance.
static int verdict_alt_fits(const sweep_case *c, const verdict_alt *va, size_t i, size_t j, size_t k, float got)
{
    double alt, scale;
    return verdict_alt_value(c, va, i, j, k, &alt, &scale) && fabs((double)got - alt) <= c->atol + c->rtol * scale;
}

// Tests which alternative stencils explain a wrong finite cell.
static void verdict_try_alts(const sweep_case *c, size_t i, size_t j, size_t k, float got,
                             verdict_tally *t)
{
    for (int a = 0; a < t->alts->n; a++) {
        if (t->alt_missed[a])
            continue;  // it missed a cell already: it cannot explain them all
        if (verdict_alt_fits(c, &t->alts->alt[a], i, j, k, got))
            t->alt_match[a]++;
        else
            t->alt_missed[a] = 1;
    }
}

const verdict_conv_alt verdict_conv_alts[VERDICT_CONV_ALTS] = {
    {HINT_FILTER_TRANSPOSED, 0, "the values match the convolution with the filter transposed: F[i+r][j+r] weighs in[row+i][col+j] (i the row offset, j the column offset), not F[j+r][i+r]."},
    {HINT_FILTER_FLIPPED, 1, "the values match the convolution with the filter turned by 180 degrees (F[r-i][r-j]): this lab's convolution, as the book's, weighs in[row+i][col+j] with F[i+r][j+r]."},
    {HINT_RADIUS_FIXED, 2, "the values match a convolution of radius 1 (a 3x3 filter, F[0..2][0..2]) whatever the case's r: loop i and j from -r to r, index F[i+r][j+r], and size the halo from r."},
    {HINT_FILTER_SHORT, 3, "the values match the convolution without the filter's last row and column (F[2r][*] and F[*][2r]): the tap loops stop one short. Loop i and j from 0 to 2r inclusive (i <= 2*r), (2r+1)^2 taps."},
};

// Tests which mistaken convolutions explain a wrong finite pixel (row j, column k).
static void verdict_conv_try_alts(const sweep_case *c, size_t j, size_t k, float got, verdict_tally *t)
{
    int r = c->filter_radius, w = 2 * r + 1;
    for (int a = 0; a < VERDICT_CONV_ALTS; a++) {
        double f[VERDICT_MAX_WEIGHTS], scale;
        int ra = verdict_conv_alts[a].mode == 2 ? 1 : r;
        if (verdict_conv_alts[a].mode == 2 && r == 1)
            continue;  // radius 1 is what the case asks for
        for (int i = 0; i < 2 * ra + 1; i++)
            for (int q = 0; q < 2 * ra + 1; q++)
                f[i * (2 * ra + 1) + q] = verdict_conv_alts[a].mode == 0 ? c->coef[q * w + i]
                                        : verdict_conv_alts[a].mode == 1 ? c->coef[(w - 1 - i) * w + (w - 1 - q)]
                                        : verdict_conv_alts[a].mode == 3 && (i == w - 1 || q == w - 1) ? 0.0
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
// 1 when got, one order's value of a cell whose two orders differ, is right:
// a cell the kernel writes, within the case's tolerance. Two orders may round
// a sum differently (atomics from several blocks add in another order); a
// race leaves a wrong value in one of them.
static int verdict_order_cell_right(const sweep_case *c, size_t i, size_t j, size_t k, const double *coef, float got)
{
    if (!verdict_cell_written(c, i, j, k) || isnan(got) || verdict_has_bits(got, POISON_BITS))
        return 0;
    double scale, want = verdict_expected(c, i, j, k, coef, &scale);
    return fabs((double)got - want) <= c->atol + c->rtol * scale;
}

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
void verdict_weights(const sweep_case *c, double *coef)
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
                if (out2 && verdict_differ(out[p], out2[p]) &&
                    !(verdict_order_cell_right(c, i, j, k, coef, out[p]) && verdict_order_cell_right(c, i, j, k, coef, out2[p])))
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
    for (int a = 0; a < VERDICT_CONV_ALTS; a++)
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

// Names the one outer layer that holds every unwritten cell (unwritten of
// them), along the first axis where one does: "the last interior column
// (k = 30, the far face along x)". Returns 0 (out untouched) when none does.
static int verdict_face_text(const sweep_case *c, const verdict_tally *t, size_t unwritten, char *out, size_t len)
{
    size_t lo = verdict_lo(c);
    const struct {
        const size_t *count;  // unwritten cells per layer of the axis
        size_t n;             // its points
        char index, axis;     // the index's letter and the axis's
        const char *layer;    // what one layer is called
    } axes[3] = {{t->column_unwritten, c->nx, 'k', 'x', "column"}, {t->row_unwritten, c->ny, 'j', 'y', "row"},
                 {c->filter_radius ? NULL : t->plane_wrong, c->nz, 'i', 'z', "plane"}};
    for (int a = 0; a < 3; a++) {
        if (!axes[a].count || axes[a].n < 2 * lo + 1)
            continue;
        size_t first = lo, last = axes[a].n - 1 - lo;
        if (axes[a].count[last] == unwritten && last != first) {
            snprintf(out, len, "the last interior %s (%c = %zu, the far face along %c)", axes[a].layer, axes[a].index, last, axes[a].axis);
            return 1;
        }
        if (axes[a].count[first] == unwritten && last != first) {
            snprintf(out, len, "the first interior %s (%c = %zu, the near face along %c)", axes[a].layer, axes[a].index, first, axes[a].axis);
            return 1;
        }
    }
    return 0;
}

// If the wrong planes of c are one unbroken run that ends at the last
// interior plane, returns its first plane; else 0.
static size_t verdict_trailing_planes(const sweep_case *c, const verdict_tally *t)
{
    size_t lo = verdict_lo(c), from = 0;
    for (size_t i = lo; i + lo < c->nz; i++) {
        if (t->plane_wrong[i] && !from)
            from = i;
        else if (!t->plane_wrong[i] && from)
            return 0;
    }
    return from;
}

// 1 if c is an image whose unwritten pixels, and no other wrong ones, are
// exactly those of its first r rows and first r columns (a tile mapping
// without its - r leaves them so).
static int verdict_image_origin_shifted(const sweep_case *c, const sweep_verdict *v, const verdict_tally *t)
{
    size_t r = (size_t)c->filter_radius, rows = 0, columns = 0;
    if (!r || v->unwritten != v->wrong || c->nx <= r || c->ny <= r)
        return 0;
    for (size_t j = 0; j < r; j++)
        rows += t->row_unwritten[j] == c->nx;
    for (size_t k = 0; k < r; k++)
        columns += t->column_unwritten[k] == c->ny;
    return rows == r && columns == r && v->unwritten == r * c->nx + r * c->ny - r * r;
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
    if (verdict_image_origin_shifted(c, v, t)) {  // an image's first r rows and columns: the tile starts r too late
        v->hint_key = HINT_UNWRITTEN;
        snprintf(v->hint, sizeof(v->hint), "the first r = %d rows and columns were never written, all else is right: the tiles start r pixels too late. The input tile begins r pixels before the output tile: col = bx * OUT + tx - r and row = by * OUT + ty - r.", c->filter_radius);
        return;
    }
    if ((by_column || by_row) && trailing) {  // the last layers of one axis: the grid stops short of the far face
        v->hint_key = HINT_UNWRITTEN;
        snprintf(v->hint, sizeof(v->hint), "whole layers %s = %s (%d of them), the last ones along %s, were never written, all else is right: the grid of blocks stops short along %s. Round its size up ((N + B - 1) / B blocks), and check that the x and y sizes are not exchanged in the grid's dim3; a thread that computes several points along it may stop before its last ones.",
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
        char face[96];
        v->hint_key = HINT_OFF_BY_ONE;
        if (verdict_face_text(c, t, v->unwritten, face, sizeof(face)))
            snprintf(v->hint, sizeof(v->hint), "only cells of %s were never written: check the interior range (%s) and the grid size.", face,
                     verdict_range_text(c, 1, range, sizeof(range)));
        else
            snprintf(v->hint, sizeof(v->hint), "only cells of the first or last interior plane, row or column were never written: check the interior range (%s) and the grid size.",
                     verdict_range_text(c, 1, range, sizeof(range)));
    } else if (verdict_whole_planes(c, t)) {
        size_t from = verdict_trailing_planes(c, t);
        v->hint_key = HINT_WHOLE_PLANES;
        if (from)
            snprintf(v->hint, sizeof(v->hint), "the last z planes (i = %zu to %zu) were never written while the others are right: the z loop or the grid of blocks along z stops short. Round the count of blocks (or of z chunks) up, and let the last one march to the last interior plane.",
                     from, c->nz - 1 - verdict_lo(c));
        else
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

// 1 if alt is a term that reads another cell of the point's own z column
// (the centre or a z neighbour takes the cell of the centre or another z
// neighbour): in a z march, a plane held in the wrong place.
static int verdict_alt_in_column(const verdict_alt *alt)
{
    int from = alt->moved - 1, to = alt->moved_to;
    int from_z = from == 0 || (from > 0 && (from - 1) % 6 / 2 == 2), to_z = to == 0 || (to - 1) % 6 / 2 == 2;
    return alt->moved && from_z && to_z;
}

// Calls visit(ctx, i, j, k) for each written cell of c whose value in
// t->out lies outside the tolerance, in scan order, until visit returns 0.
// Returns 0 if a visit did, else 1.
static int verdict_each_wrong(const sweep_case *c, const verdict_tally *t, int (*visit)(void *, size_t, size_t, size_t), void *ctx)
{
    double coef[VERDICT_MAX_WEIGHTS], scale;
    verdict_weights(c, coef);
    for (size_t i = 0; i < c->nz; i++)
        for (size_t j = 0; j < c->ny; j++)
            for (size_t k = 0; k < c->nx; k++) {
                if (!verdict_cell_written(c, i, j, k))
                    continue;
                double want = verdict_expected(c, i, j, k, coef, &scale);
                if (fabs((double)t->out[(i * c->ny + j) * c->nx + k] - want) <= c->atol + c->rtol * scale)
                    continue;
                if (!visit(ctx, i, j, k))
                    return 0;
            }
    return 1;
}

// What verdict_dropped_at_faces asks of each wrong cell.
typedef struct verdict_face_probe {
    const sweep_case *c;  // the case
    int off[3];           // the offset of the dropped term's cell
} verdict_face_probe;

// 1 if the dropped term's cell of wrong cell (i, j, k) is a boundary cell.
static int verdict_term_cell_kept(void *ctx, size_t i, size_t j, size_t k)
{
    const verdict_face_probe *f = ctx;
    return !verdict_cell_written(f->c, (size_t)((long)i + f->off[2]), (size_t)((long)j + f->off[1]), (size_t)((long)k + f->off[0]));
}

// 1 if term n's neighbour of every wrong cell of c's output is a boundary
// cell (one the kernel keeps, on a face of the grid), while some interior
// cells are right: a term missing there only, where the neighbour was not
// loaded (read as 0), not from the sum.
static int verdict_dropped_at_faces(const sweep_case *c, const sweep_verdict *v, const verdict_tally *t, int n)
{
    verdict_face_probe f = {.c = c};
    if (n < 1 || v->wrong >= v->interior || !t->out)
        return 0;
    verdict_term_offset(n, f.off);
    return verdict_each_wrong(c, t, verdict_term_cell_kept, &f);
}

// Adds column k's residue mod 4 to the mask at ctx (a wrong cell's lane).
static int verdict_note_lane(void *ctx, size_t i, size_t j, size_t k)
{
    (void)i, (void)j;
    *(unsigned *)ctx |= 1u << (k % 4);
    return 1;
}

// Lane alternative alt named every wrong cell of c: if they all lie in the
// columns k of one residue mod 4 (while the interior has others) and the
// term's cell is another point of the same four, adds to v's hint which
// point of a float4 takes the term from which other point's lane.
static void verdict_lane_note(const sweep_case *c, sweep_verdict *v, const verdict_tally *t, const verdict_alt *alt)
{
    static const char comp[4] = {'x', 'y', 'z', 'w'};
    unsigned wrong = 0;
    size_t lo = verdict_lo(c), used = strlen(v->hint);
    if (!alt->lane || !t->out || c->nx < lo + 2 * 4)
        return;
    verdict_each_wrong(c, t, verdict_note_lane, &wrong);
    int lane = wrong == 1 ? 0 : wrong == 2 ? 1 : wrong == 4 ? 2 : wrong == 8 ? 3 : -1, from = lane + alt->lane_dx;
    if (lane < 0 || from < 0 || from > 3)
        return;
    size_t first = lo + ((size_t)lane + 4 - lo % 4) % 4;
    snprintf(v->hint + used, sizeof(v->hint) - used, " Every wrong cell lies in a column k = %zu, %zu, %zu, ... (k %% 4 == %d): a thread that computes four x points as a float4 (columns 4m to 4m+3) gives its .%c point that term from the .%c lane (a .%c where the .%c belongs).",
             first, first + 4, first + 8, lane, comp[lane], comp[from], comp[from], comp[lane]);
}

// Wrong cells an alternative explains past which chance cannot have
// matched them all (a wrong value meets one of the alternatives by chance
// about once in a thousand cells: never at nine).
#define VERDICT_CHANCE_CELLS 8

// 1 if the right cells of c where alternative va's value lies outside the
// tolerance (where a kernel making that mistake goes wrong, and this one
// did not) outnumber the wrong cells it explains (matched, at most
// VERDICT_CHANCE_CELLS): a mistake the values do not show, met at a few
// wrong cells by chance. Only the columns of the wrong cells' lanes (k mod
// 4) count: a mistake in one point of a float4 leaves its other points right.
static int verdict_alt_refuted(const sweep_case *c, const verdict_tally *t, const verdict_alt *va, size_t matched)
{
    double coef[VERDICT_MAX_WEIGHTS];
    size_t wrong[4] = {0}, against[4] = {0}, refuting = 0;  // per column k mod 4
    long planes = (long)c->nz;
    if (!t->out || matched > VERDICT_CHANCE_CELLS)
        return 0;
    verdict_weights(c, coef);
    // One walk of the grid, side by side on a large one (a grid checked whole after the GPU found it wrong).
#pragma omp parallel for schedule(static) reduction(+ : wrong[:4], against[:4]) if (c->nx * c->ny * c->nz > VERDICT_SCAN_PARALLEL_CELLS)
    for (long i = 0; i < planes; i++)
        for (size_t j = 0; j < c->ny; j++)
            for (size_t k = 0; k < c->nx; k++) {
                double scale, alt, alt_scale, want;
                float got = t->out[((size_t)i * c->ny + j) * c->nx + k];
                if (!verdict_cell_written(c, (size_t)i, j, k))
                    continue;
                want = verdict_expected(c, (size_t)i, j, k, coef, &scale);
                if (!(fabs((double)got - want) <= c->atol + c->rtol * scale))
                    wrong[k % 4]++;  // (NaN and unwritten cells too)
                else if (verdict_alt_value(c, va, (size_t)i, j, k, &alt, &alt_scale) && !(fabs((double)got - alt) <= c->atol + c->rtol * alt_scale))
                    against[k % 4]++;
            }
    for (int lane = 0; lane < 4; lane++)
        refuting += wrong[lane] ? against[lane] : 0;
    return refuting > matched;
}

// An alternative named from a single wrong cell: adds to v's hint that
// one value can meet a mistake by chance.
static void verdict_one_cell_note(sweep_verdict *v, size_t matched)
{
    size_t used = strlen(v->hint);
    if (matched == 1)
        snprintf(v->hint + used, sizeof(v->hint) - used, " Only one cell is wrong here, and a single value can match a mistake by chance: a larger case that fails tells whether this is the one.");
}

// On a grid so small that term n's cell is a boundary cell for every
// interior point (N = 5 at radius 2), adds to v's hint that a load stopping
// short of the grid's face leaves the same values as the term left out.
static void verdict_faces_only_note(const sweep_case *c, sweep_verdict *v, int n)
{
    if (n < 1)
        return;
    int d = (n - 1) / 6 + 1, a = (n - 1) % 6 / 2;
    size_t along = a == 0 ? c->nx : a == 1 ? c->ny : c->nz, used = strlen(v->hint);
    if (along < 2 * (size_t)c->star_radius + (size_t)d + 1)
        snprintf(v->hint + used, sizeof(v->hint) - used, " On this grid that cell is a boundary cell for every point: a load that stops short of the grid's face (the cell read as 0) leaves the same values, and larger grids tell the two apart.");
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
        for (int a = 0; a < VERDICT_CONV_ALTS; a++)
            if (t->conv_alt_match[a] == t->wrong_finite) {
                v->hint_key = verdict_conv_alts[a].key;
                snprintf(v->hint, sizeof(v->hint), "%s", verdict_conv_alts[a].text);
                return;
            }
    if (v->nan_cells == 0 && c->filter_radius && t->wrong_finite > 0 && (verdict_image_tap_off(c, v, t) || verdict_image_tap_weights(c, v, t)))
        return;
    if (v->nan_cells == 0 && !c->filter_radius)
        for (int a = 0; a < t->alts->n; a++)
            if (t->alt_match[a] == t->wrong_finite) {
                if (t->alts->alt[a].dropped > 0 && verdict_dropped_at_faces(c, v, t, t->alts->alt[a].dropped)) {
                    char cell[48];
                    int n = t->alts->alt[a].dropped, d = (n - 1) / 6 + 1, axis = (n - 1) % 6 / 2, side = (n - 1) % 2;
                    v->hint_key = HINT_TILE_EDGES;
                    snprintf(v->hint, sizeof(v->hint), "wrong only where the c%d term's cell (%s) is a boundary cell, and there the values lack that term: the boundary cells were not loaded (read as 0). The grid's faces are where the tiles' halos end: guard each load by the grid's bounds (0 <= %c < N), not by the interior's.",
                             n, verdict_cell_text(axis, side, d, cell, sizeof(cell)), verdict_axis_index[axis]);
                    return;
                }
                if (verdict_alt_refuted(c, t, &t->alts->alt[a], t->alt_match[a]))
                    continue;
                v->hint_key = t->alts->alt[a].key;
                snprintf(v->hint, sizeof(v->hint), "%s%s", t->alts->alt[a].text,
                         c->planes_first && verdict_alt_in_column(&t->alts->alt[a])
                             ? " In a z march that cell is another plane of the column: the planes are rotated in the wrong order (prev <- curr must come before curr <- next) or a ring slot names the wrong plane."
                             : "");
                verdict_faces_only_note(c, v, t->alts->alt[a].dropped);
                verdict_lane_note(c, v, t, &t->alts->alt[a]);
                verdict_one_cell_note(v, t->alt_match[a]);
                return;
            }
    if (verdict_plane_window(c, v, t))
        return;
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
        size_t thin, used;
        v->hint_key = HINT_WRONG_VALUES;
        snprintf(v->hint, sizeof(v->hint), "wrong values with no simpler pattern: compare each index with LAB_INDEX(i, j, k, N) (i plane, j row, k column) and each coefficient with the term it multiplies.");
        used = strlen(v->hint);
        if (verdict_window_thin_plane(c, v, t, &thin))
            snprintf(v->hint + used, sizeof(v->hint) - used, " Plane i = %zu has only %zu wrong cell%s: too few to tell a z march's planes taken wrongly (its window rotated or shifted wrongly) from another mistake at radius %d, so no pattern is named from it; larger grids name it.",
                     thin, t->plane_wrong[thin], t->plane_wrong[thin] > 1 ? "s" : "", c->star_radius);
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
        snprintf(v->reason, sizeof(v->reason), "results differ between two thread orders (%zu cells, wrong in at least one)", v->order_differs);
        snprintf(v->hint, sizeof(v->hint), "the result depends on the order threads run in: a thread reads shared memory before another thread of its block wrote it or after it was overwritten (a __syncthreads() is missing), or two threads (of one block or of two blocks) write the same cell, or a block reads what another block of the same launch writes (blocks run in no set order: the second order runs them shuffled too).");
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
    t.out = b->out + b->guard;
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
