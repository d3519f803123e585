// grader/judge/verdict_window.c — the z march's window: a star whose
// wrong planes are each the stencil with some terms taken from other planes
// than the point's own (a rotation done wrongly, or not at all), for a star
// of any radius the kit has (see verdict_parts.h; called by verdict.c).
#include "verdict_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

// The planes a z march may hold in place of the right ones: -1 (outside
// the grid: a ghost plane of 0), the first planes of the march (0, 1, 2),
// and those within 2r of plane i (a window one step off, or shifted in the
// wrong order, reaches r planes beyond the point's own star).
#define VERDICT_WINDOW_MAX_PLANES (4 + 4 * STENCIL_MAX_RADIUS + 1)

// The fewest wrong cells a plane of a star of radius r must have for its
// window to be named: one for the seven-point star (its 6561 choices of
// planes match one cell by chance a few times in a hundred), two for radius
// 2, whose 4.8 million choices match any one cell by chance. Even on the
// smallest grid with an interior (N = 5: one point, planes -1 .. 5, 7^6 =
// 117649 choices) some choice matches an arbitrary wrong value within the
// labs' tolerance about one time in eight (measured on the kit's random
// inputs and coefficients, a wrong term added to the right value): one
// value cannot tell a window from another mistake there.
#define VERDICT_WINDOW_MIN_CELLS(r) ((size_t)(r))
// And a window is named only when some plane it explains has at least this
// many wrong cells, or is wrong in every interior cell (N = 3: one a plane):
// a lone wrong cell in a plane that is otherwise right is as likely a stray
// value matched by chance (a one-cell mistake of the seven-point star matched
// some window a few times in a hundred).
#define VERDICT_WINDOW_EVIDENCE_CELLS 2

// The slots of a window: the centre, the in-plane neighbours, then the z
// neighbour at distance d on side s (0: below) in slot 2 + 2(d-1) + s.
#define VERDICT_WINDOW_SLOTS(r) (2 + 2 * (r))
#define VERDICT_WINDOW_MAX_SLOTS VERDICT_WINDOW_SLOTS(STENCIL_MAX_RADIUS)

// Choices of planes for half the slots: the search meets in the middle.
// Half of the kit's largest window is three slots (radius 2).
#define VERDICT_WINDOW_MAX_HALVES (VERDICT_WINDOW_MAX_PLANES * VERDICT_WINDOW_MAX_PLANES * VERDICT_WINDOW_MAX_PLANES)
_Static_assert(VERDICT_WINDOW_MAX_SLOTS <= 6, "a window's half holds three slots: widen verdict_window_half.pick and VERDICT_WINDOW_MAX_HALVES");

// Which planes a z-marching kernel took a point's terms from, slot by slot
// (VERDICT_WINDOW_SLOTS); -1 or nz: outside the grid, read as 0.
typedef struct verdict_window {
    long plane[VERDICT_WINDOW_MAX_SLOTS];  // the plane each slot's cells come from
} verdict_window;

// What one cell (j, k) adds to the sum through each slot from each
// candidate plane: the centre term, the in-plane terms together, a z
// neighbour's term.
typedef struct verdict_window_terms {
    double term[VERDICT_WINDOW_MAX_SLOTS][VERDICT_WINDOW_MAX_PLANES];  // the slot's terms from that plane
    double mag[VERDICT_WINDOW_MAX_SLOTS][VERDICT_WINDOW_MAX_PLANES];   // and their magnitudes' sum
} verdict_window_terms;

// One choice of planes for half of the slots, and what it adds.
typedef struct verdict_window_half {
    double sum, mag;  // the terms' sum and their magnitudes' sum
    int pick[3];      // the candidate plane of each slot of the half
} verdict_window_half;

// In's cell (x, j, k) of case c, 0 when plane x lies outside the grid.
static double verdict_window_cell(const sweep_case *c, long x, size_t j, size_t k)
{
    return x < 0 || x >= (long)c->nz ? 0.0 : (double)c->in[((size_t)x * c->ny + j) * c->nx + k];
}

// Fills w with what cell (j, k) adds through each slot from each of the n
// planes, for case c.
static void verdict_window_terms_of(const sweep_case *c, const double *coef, const long *planes, int n, size_t j, size_t k,
                                    verdict_window_terms *w)
{
    for (int q = 0; q < n; q++) {
        double sum = 0, mag = 0, cell = verdict_window_cell(c, planes[q], j, k);
        for (int d = 1; d <= c->star_radius; d++)
            for (int s = 0; s < 2; s++) {
                double tx = coef[STENCIL_COEF_INDEX(0, s, d)] * verdict_window_cell(c, planes[q], j, s ? k + d : k - d);
                double ty = coef[STENCIL_COEF_INDEX(1, s, d)] * verdict_window_cell(c, planes[q], s ? j + d : j - d, k);
                sum += tx + ty, mag += fabs(tx) + fabs(ty);
                w->term[2 + 2 * (d - 1) + s][q] = coef[STENCIL_COEF_INDEX(2, s, d)] * cell;
                w->mag[2 + 2 * (d - 1) + s][q] = fabs(w->term[2 + 2 * (d - 1) + s][q]);
            }
        w->term[0][q] = coef[0] * cell, w->mag[0][q] = fabs(w->term[0][q]);
        w->term[1][q] = sum, w->mag[1][q] = mag;
    }
}

// 1 if got is the stencil with slot s's terms from candidate plane pick[s]
// (slots of them), within c's tolerance.
static int verdict_window_matches(const sweep_case *c, const verdict_window_terms *w, const int *pick, int slots, float got)
{
    double sum = 0, scale = 0;
    for (int s = 0; s < slots; s++)
        sum += w->term[s][pick[s]], scale += w->mag[s][pick[s]];
    return fabs((double)got - sum) <= c->atol + c->rtol * scale;
}

// The distinct planes a march may hold in place of plane i's (clipped to
// -1 .. nz), into planes; returns how many.
static int verdict_window_planes(const sweep_case *c, size_t i, long *planes)
{
    int n = 0;
    long pick[VERDICT_WINDOW_MAX_PLANES], m = 0;
    for (long x = -1; x <= 2; x++)
        pick[m++] = x;
    for (long x = (long)i - 2 * c->star_radius; x <= (long)i + 2 * c->star_radius; x++)
        pick[m++] = x;
    for (long q = 0; q < m; q++) {
        long x = pick[q] < -1 ? -1 : pick[q] > (long)c->nz ? (long)c->nz : pick[q];
        int seen = 0;
        for (int e = 0; e < n; e++)
            seen |= planes[e] == x;
        if (!seen)
            planes[n++] = x;
    }
    return n;
}

// Every choice of n planes for slots from .. from+count-1 of w, into h;
// returns how many (n^count).
static int verdict_window_halves(const verdict_window_terms *w, int from, int count, int n, verdict_window_half *h)
{
    int total = 1;
    for (int s = 0; s < count; s++)
        total *= n;
    for (int x = 0; x < total; x++) {
        int rest = x;
        h[x].sum = h[x].mag = 0;
        for (int s = 0; s < count; s++, rest /= n) {
            h[x].pick[s] = rest % n;
            h[x].sum += w->term[from + s][rest % n], h[x].mag += w->mag[from + s][rest % n];
        }
    }
    return total;
}

// Orders halves by their sum (qsort).
static int verdict_window_half_order(const void *a, const void *b)
{
    double x = ((const verdict_window_half *)a)->sum, y = ((const verdict_window_half *)b)->sum;
    return x < y ? -1 : x > y;
}

// 1 if every wrong cell of plane i after cell first is the stencil with
// the planes pick of the n candidates.
static int verdict_window_explains_rest(const sweep_case *c, const float *out, size_t i, size_t first, const long *planes, int n,
                                        const int *pick)
{
    double coef[VERDICT_MAX_WEIGHTS], scale;
    size_t plane = c->nx * c->ny;
    verdict_window_terms w;
    verdict_weights(c, coef);
    for (size_t p = first + 1; p < plane; p++) {
        size_t j = p / c->nx, k = p % c->nx;
        if (!verdict_cell_written(c, i, j, k))
            continue;
        float got = out[i * plane + p];
        double want = verdict_expected(c, i, j, k, coef, &scale);
        if (fabs((double)got - want) <= c->atol + c->rtol * scale)
            continue;
        verdict_window_terms_of(c, coef, planes, n, j, k, &w);
        if (!verdict_window_matches(c, &w, pick, VERDICT_WINDOW_SLOTS(c->star_radius), got))
            return 0;
    }
    return 1;
}

// 1 if the wrong cells of interior plane i, at least VERDICT_WINDOW_MIN_CELLS(r)
// and all finite, are the stencil with its terms from the planes *w, one
// choice for the whole plane among those a march may hold: the choices that
// explain the plane's first wrong cell (half the slots' sums against the
// other half's, sorted), then every other cell.
static int verdict_window_of_plane(const sweep_case *c, const float *out, size_t i, size_t wrong, verdict_window *w)
{
    static verdict_window_half lower[VERDICT_WINDOW_MAX_HALVES], upper[VERDICT_WINDOW_MAX_HALVES];
    long planes[VERDICT_WINDOW_MAX_PLANES];
    int n = verdict_window_planes(c, i, planes), slots = VERDICT_WINDOW_SLOTS(c->star_radius), half = slots / 2;
    double coef[VERDICT_MAX_WEIGHTS], scale, top = 0;
    size_t plane = c->nx * c->ny, first = plane;
    verdict_window_terms terms;
    verdict_weights(c, coef);
    if (wrong < VERDICT_WINDOW_MIN_CELLS(c->star_radius))
        return 0;
    for (size_t p = 0; p < plane && first == plane; p++) {  // the plane's first wrong interior cell
        size_t j = p / c->nx, k = p % c->nx;
        if (!verdict_cell_written(c, i, j, k))
            continue;
        double want = verdict_expected(c, i, j, k, coef, &scale);
        first = fabs((double)out[i * plane + p] - want) <= c->atol + c->rtol * scale ? plane : p;
    }
    if (first == plane)
        return 0;
    float got = out[i * plane + first];
    verdict_window_terms_of(c, coef, planes, n, first / c->nx, first % c->nx, &terms);
    int nl = verdict_window_halves(&terms, 0, half, n, lower), nu = verdict_window_halves(&terms, half, slots - half, n, upper);
    for (int x = 0; x < nl; x++)
        top = lower[x].mag > top ? lower[x].mag : top;
    for (int x = 0; x < nu; x++)
        top = upper[x].mag > top ? upper[x].mag : top;
    double reach = c->atol + c->rtol * 2 * top;  // no choice's tolerance is wider
    qsort(upper, (size_t)nu, sizeof(upper[0]), verdict_window_half_order);
    for (int x = 0; x < nl; x++) {
        double want = (double)got - lower[x].sum;
        int lo = 0, hi = nu;
        while (lo < hi) {  // the first upper half within reach of want
            int mid = (lo + hi) / 2;
            if (upper[mid].sum < want - reach)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int y = lo; y < nu && upper[y].sum <= want + reach; y++) {
            int pick[VERDICT_WINDOW_MAX_SLOTS];
            for (int s = 0; s < slots; s++)
                pick[s] = s < half ? lower[x].pick[s] : upper[y].pick[s - half];
            if (!verdict_window_matches(c, &terms, pick, slots, got) || !verdict_window_explains_rest(c, out, i, first, planes, n, pick))
                continue;
            for (int s = 0; s < slots; s++)
                w->plane[s] = planes[pick[s]];
            return 1;
        }
    }
    return 0;
}

// A plane as a hint names it: "3", or "-1 (outside the grid: 0)".
static const char *verdict_plane_name(const sweep_case *c, long x, char *buf, size_t len)
{
    snprintf(buf, len, "%ld%s", x, x < 0 || x >= (long)c->nz ? " (outside the grid: 0)" : "");
    return buf;
}

// Writes window w of plane i into v's hint: where each term came from.
static void verdict_window_hint(const sweep_case *c, long i, const verdict_window *w, sweep_verdict *v)
{
    char list[320], name[40];
    size_t used = 0;
    int r = c->star_radius;
    list[0] = '\0';
    for (int s = 2; s < VERDICT_WINDOW_SLOTS(r); s++) {  // z-r .. z-1, then z+1 .. z+r
        int d = s - 2 < r ? r - (s - 2) : s - 2 - r + 1, side = s - 2 < r ? 0 : 1;
        used += (size_t)snprintf(list + used, sizeof(list) - used, ", z%c%d from %s", side ? '+' : '-', d,
                                 verdict_plane_name(c, w->plane[2 + 2 * (d - 1) + side], name, sizeof(name)));
        if (used >= sizeof(list))
            break;
    }
    char centre[40], in_plane[40];
    v->hint_key = HINT_WHOLE_PLANES;
    snprintf(v->hint, sizeof(v->hint), "plane i = %ld is the stencil with its terms from other planes: the centre from plane %s, the in-plane neighbours from %s%s. %s",
             i, verdict_plane_name(c, w->plane[0], centre, sizeof(centre)), verdict_plane_name(c, w->plane[1], in_plane, sizeof(in_plane)), list,
             r > 1 ? "A z march moves its window one plane a step: load i-2 .. i+1 before the loop, then shift zm2 <- zm1 <- cur <- zp1 <- zp2 (and store the new cur into the shared plane) at the end of every step, in that order."
                   : "A z march moves its planes one a step: load i-1 and i before the loop, then rotate prev <- curr <- next (registers and the shared plane) at the end of every step, in that order.");
}

int verdict_plane_window(const sweep_case *c, sweep_verdict *v, const verdict_tally *t)
{
    verdict_window w, first;
    long first_plane = -1;
    size_t r2 = 2 * (size_t)c->star_radius, whole = (c->nx - r2) * (c->ny - r2);  // a plane's interior cells
    int evidence = 0;
    if (c->filter_radius || v->nan_cells || v->unwritten || t->wrong_finite == 0 || !t->out)
        return 0;
    for (size_t i = (size_t)c->star_radius; i + (size_t)c->star_radius < c->nz; i++) {
        if (t->plane_wrong[i] == 0)
            continue;
        if (!verdict_window_of_plane(c, t->out, i, t->plane_wrong[i], &w))
            return 0;
        if (first_plane < 0)
            first = w, first_plane = (long)i;
        evidence |= t->plane_wrong[i] >= VERDICT_WINDOW_EVIDENCE_CELLS || t->plane_wrong[i] == whole;
    }
    if (first_plane < 0 || !evidence)
        return 0;
    verdict_window_hint(c, first_plane, &first, v);
    return 1;
}

int verdict_window_thin_plane(const sweep_case *c, const sweep_verdict *v, const verdict_tally *t, size_t *plane)
{
    if (c->filter_radius || v->nan_cells || v->unwritten || t->wrong_finite == 0)
        return 0;
    for (size_t i = (size_t)c->star_radius; i + (size_t)c->star_radius < c->nz; i++)
        if (t->plane_wrong[i] > 0 && t->plane_wrong[i] < VERDICT_WINDOW_MIN_CELLS(c->star_radius)) {
            *plane = i;
            return 1;
        }
    return 0;
}
