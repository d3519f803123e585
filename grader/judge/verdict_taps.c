// grader/judge/verdict_taps.c — lab 0's filter taps: a kernel that weighs
// some pixels with weights other than the filter's (see verdict_parts.h;
// called by verdict.c on a failed image). Two detectors: one tap's weight
// off by a whole term (counted twice, left out, subtracted, its pixel added
// once more), tried tap by tap; and the weights the kernel used, fitted
// from its output, named when they are the filter with one tap's weight
// replaced (by another tap's, or a constant), two taps' weights exchanged,
// or the whole filter (or one row or column of it) indexed wrongly.
#include "verdict_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "rng.h"
#include "../../kernels/conv_limits.h"

// ---------------------------------------------------------------------------
// One tap's weight off by a whole term
// ---------------------------------------------------------------------------

// How one tap's weight may be off: the kernel weighs that tap's pixel with
// F[tap] + f_times * F[tap] + plus.
typedef struct verdict_tap_kind {
    int f_times;        // the tap's own weight added this many times more (1: twice, -1: left out, -2: subtracted)
    int plus;           // 1: the pixel added once more, unweighted (a sum started at it)
    const char *key;    // hint key (the centre tap left out names HINT_CENTRE_MISSING)
    const char *text;   // the hint: arguments the tap's weight, then its pixel
} verdict_tap_kind;

static const verdict_tap_kind verdict_tap_kinds[] = {
    {1, 0, HINT_TERM_DOUBLED, "the values match the convolution with the tap %s (on %s) counted twice: add each tap once."},
    {-1, 0, HINT_TERM_MISSING, "the values match the convolution without the tap %s (on %s): the tap loops must take every tap, i and j from 0 to 2r inclusive."},
    {-2, 0, HINT_TERM_SIGN, "the values match the convolution with the tap %s (on %s) subtracted: every tap is added, F[i][j] times its pixel."},
    {0, 1, HINT_TERM_DOUBLED, "the values match the convolution plus %2$s, the pixel of the tap %1$s, once more with weight 1: the sum starts at that pixel and the tap loop adds it again. Start the sum at 0."},
};
#define VERDICT_TAP_KINDS (int)(sizeof(verdict_tap_kinds) / sizeof(verdict_tap_kinds[0]))

// The pixel tap q (row-major in the filter of radius r) reads for pixel
// (row, col) of c's image: 0 for a ghost cell.
static double verdict_tap_pixel(const sweep_case *c, int q, long row, long col)
{
    int r = c->filter_radius, w = 2 * r + 1;
    long y = row + q / w - r, x = col + q % w - r;
    return y < 0 || y >= (long)c->ny || x < 0 || x >= (long)c->nx ? 0.0 : (double)c->in[(size_t)y * c->nx + (size_t)x];
}

// Marks in dead[q][kind] each (tap, kind) whose changed weight does not give
// got at pixel (row, col) (want and scale: the convolution there); returns
// how many it marked.
static int verdict_tap_cull(const sweep_case *c, const double *f, long row, long col, double got, double want, double scale,
                            unsigned char (*dead)[VERDICT_TAP_KINDS])
{
    int culled = 0, taps = FILTER_NWEIGHTS(c->filter_radius);
    for (int q = 0; q < taps; q++) {
        double pixel = verdict_tap_pixel(c, q, row, col);
        for (int m = 0; m < VERDICT_TAP_KINDS; m++) {
            double extra = (verdict_tap_kinds[m].f_times * f[q] + verdict_tap_kinds[m].plus) * pixel;
            if (dead[q][m] || fabs(got - want - extra) <= c->atol + c->rtol * (scale + fabs(extra)))
                continue;
            dead[q][m] = 1;
            culled++;
        }
    }
    return culled;
}

// Tap q's weight as "F[i][j]" into weight, and the pixel it weighs for
// pixel (row, col) as "in[row-1][col+2]" into pixel (r the filter radius).
static void verdict_tap_names(int r, int q, char *weight, size_t wlen, char *pixel, size_t plen)
{
    int w = 2 * r + 1, dy = q / w - r, dx = q % w - r;
    char rows[16] = "row", cols[16] = "col";
    if (dy)
        snprintf(rows, sizeof(rows), "row%+d", dy);
    if (dx)
        snprintf(cols, sizeof(cols), "col%+d", dx);
    snprintf(weight, wlen, "F[%d][%d]", q / w, q % w);
    snprintf(pixel, plen, "in[%s][%s]", rows, cols);
}

// Writes lab 0's hint for tap q of kind m into v.
static void verdict_tap_hint(const sweep_case *c, int q, int m, sweep_verdict *v)
{
    int r = c->filter_radius, centre = q == r * (2 * r + 1) + r;
    char name[24], weight[48], pixel[48];
    verdict_tap_names(r, q, name, sizeof(name), pixel, sizeof(pixel));
    snprintf(weight, sizeof(weight), "%s%s", centre ? "at the centre, " : "", name);
    v->hint_key = verdict_tap_kinds[m].f_times == -1 && centre ? HINT_CENTRE_MISSING : verdict_tap_kinds[m].key;
    snprintf(v->hint, sizeof(v->hint), verdict_tap_kinds[m].text, weight, pixel);
}

int verdict_image_tap_off(const sweep_case *c, sweep_verdict *v, const verdict_tally *t)
{
    static unsigned char dead[VERDICT_MAX_WEIGHTS][VERDICT_TAP_KINDS];
    double f[VERDICT_MAX_WEIGHTS];
    int left = FILTER_NWEIGHTS(c->filter_radius) * VERDICT_TAP_KINDS;
    if (!c->filter_radius || v->nan_cells || v->unwritten || !t->out || c->nz != 1)
        return 0;
    memset(dead, 0, sizeof(dead));
    verdict_weights(c, f);
    for (long p = 0; p < (long)(c->nx * c->ny) && left > 0; p++) {
        long row = p / (long)c->nx, col = p % (long)c->nx;
        double scale, want = reference_conv_point(c->in, c->nx, c->ny, (size_t)row, (size_t)col, f, c->filter_radius, &scale);
        left -= verdict_tap_cull(c, f, row, col, (double)t->out[p], want, scale, dead);
    }
    for (int m = 0; m < VERDICT_TAP_KINDS && left > 0; m++)
        for (int q = 0; q < FILTER_NWEIGHTS(c->filter_radius); q++)
            if (!dead[q][m]) {
                verdict_tap_hint(c, q, m, v);
                return 1;
            }
    return 0;
}

int verdict_image_tap_key(const char *key)
{
    for (int m = 0; m < VERDICT_TAP_KINDS; m++)
        if (key && !strcmp(key, verdict_tap_kinds[m].key))
            return 1;
    return key && (!strcmp(key, HINT_CENTRE_MISSING) || !strcmp(key, HINT_TAP_WEIGHT));
}


// ---------------------------------------------------------------------------
// The weights the kernel used, fitted from its output
// ---------------------------------------------------------------------------

// A kernel that computes a convolution, only with other weights, leaves
// out = sum over taps q of w[q] * pixel q. So got - want = sum of
// (w[q] - F[q]) * pixel q at every pixel: a linear least-squares fit over
// the image's pixels gives each tap's w[q]. The weights found are then
// compared with the mistakes a kernel makes in its weights' indices (one
// tap, two exchanged, a whole row, column or filter mirrored, turned or
// shifted by one), and the first that matches them is checked on every
// pixel before it is named. Several unrelated weights wrong match none.

#define VERDICT_FIT_PIXELS 4096   // the most pixels the weights are fitted on (a larger image: that many drawn from it)
#define VERDICT_FIT_TOL 1e-3      // the most a fitted weight may lie from a weight and be it: rng_filter's weights lie 0.0056 apart at least (0.9/81/2)
#define VERDICT_FIT_FLOOR 1e-6    // the least it may: a weight nearer than this changes no pixel beyond the tolerance
#define VERDICT_FIT_SIGMAS 8.0    // within that: this many standard errors of the fitted weight (a fit on float outputs is off by about 1e-8, a weight changed by 1e-4 shows)
#define VERDICT_FIT_SINGULAR 1e-9 // a pivot this small against its diagonal: fewer pixels than taps, the weights cannot all be told

typedef struct verdict_tap_fit {
    const sweep_case *c;                     // the case
    const float *out;                        // the kernel's output
    int r, fw, taps;                         // filter radius, width 2r+1, taps (2r+1)^2
    double f[VERDICT_MAX_WEIGHTS];           // the filter's weights
    double used[VERDICT_MAX_WEIGHTS];        // the weight the kernel gave each tap, as fitted (the filter's where unseen)
    double tol[VERDICT_MAX_WEIGHTS];         // how far a weight may lie from the fitted one and be it (verdict_fit_tolerance)
    unsigned char seen[VERDICT_MAX_WEIGHTS]; // 1: the tap reaches a pixel of the image in the fit (its weight can be told)
    int seen_all;                            // 1: every tap is seen
} verdict_tap_fit;

// A way to index the whole filter wrongly: tap (i, j) takes the weight at
// F[si][sj] (F's 9x9 memory, 0 past the case's filter), si = m[0] i + m[1] j
// + m[2] 2r + m[3], sj = m[4] i + m[5] j + m[6] 2r + m[7]. Transposed and
// flipped by 180 degrees have keys of their own (verdict_conv_alts).
typedef struct verdict_tap_pattern {
    int m[8];            // the source's row and column, from i, j, 2r and 1
    int lines;           // 1: also tried on one row or one column of the filter alone
    const char *what;    // what the kernel did, as the hint says it
    const char *index;   // the index it used, in F's indices i, j = 0..2r
} verdict_tap_pattern;

static const verdict_tap_pattern verdict_tap_patterns[] = {
    {{-1, 0, 1, 0, 0, 1, 0, 0}, 0, "mirrored across its centre row", "F[2r-i][j]"},
    {{1, 0, 0, 0, 0, -1, 1, 0}, 0, "mirrored across its centre column", "F[i][2r-j]"},
    {{0, -1, 1, 0, -1, 0, 1, 0}, 0, "mirrored across its other diagonal", "F[2r-j][2r-i]"},
    {{0, 1, 0, 0, -1, 0, 1, 0}, 0, "turned by 90 degrees", "F[j][2r-i]"},
    {{0, -1, 1, 0, 1, 0, 0, 0}, 0, "turned by 90 degrees the other way", "F[2r-j][i]"},
    {{1, 0, 0, 0, 0, 1, 0, 1}, 1, "read one column to the right", "F[i][j+1]"},
    {{1, 0, 0, 0, 0, 1, 0, -1}, 1, "read one column to the left", "F[i][j-1]"},
    {{1, 0, 0, 1, 0, 1, 0, 0}, 1, "read one row down", "F[i+1][j]"},
    {{1, 0, 0, -1, 0, 1, 0, 0}, 1, "read one row up", "F[i-1][j]"},
};
#define VERDICT_TAP_PATTERNS (int)(sizeof(verdict_tap_patterns) / sizeof(verdict_tap_patterns[0]))

enum { VERDICT_SCOPE_FILTER, VERDICT_SCOPE_ROW, VERDICT_SCOPE_COLUMN };  // the taps a pattern changes
enum { VERDICT_WEIGHTS_ONE, VERDICT_WEIGHTS_PAIR, VERDICT_WEIGHTS_PATTERN }; // the kinds of weight mistake named

typedef struct verdict_weight_mistake {
    int kind;                           // VERDICT_WEIGHTS_*
    int tap, other;                     // ONE: the tap and the tap whose weight it took (-1: a constant); PAIR: the two taps
    const verdict_tap_pattern *pattern; // PATTERN: how the filter was indexed
    int scope, line;                    // PATTERN: VERDICT_SCOPE_*, and the row or column it changed
    double w[VERDICT_MAX_WEIGHTS];      // the weights such a kernel gives every tap
} verdict_weight_mistake;

// Adds pixel p's equation (its taps' pixels against got - want) to the
// normal equations g (taps x taps, row-major) and rhs of fit.
static void verdict_fit_add(const verdict_tap_fit *fit, long p, double *g, double *rhs)
{
    const sweep_case *c = fit->c;
    long row = p / (long)c->nx, col = p % (long)c->nx;
    double x[VERDICT_MAX_WEIGHTS];
    double d = (double)fit->out[p] - reference_conv_point(c->in, c->nx, c->ny, (size_t)row, (size_t)col, fit->f, fit->r, NULL);
    for (int q = 0; q < fit->taps; q++)
        x[q] = verdict_tap_pixel(c, q, row, col);
    for (int a = 0; a < fit->taps; a++) {
        if (x[a] == 0.0)
            continue;
        rhs[a] += x[a] * d;
        for (int b = 0; b < fit->taps; b++)
            g[a * fit->taps + b] += x[a] * x[b];
    }
}

// Solves a x = b in place (b becomes x) for a symmetric positive definite
// n x n matrix a (row-major, its lower triangle overwritten by the Cholesky
// factor). Returns 0, or -1 when a pivot vanishes (a singular system).
static int verdict_cholesky_solve(double *a, double *b, int n)
{
    for (int j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int k = 0; k < j; k++)
            s -= a[j * n + k] * a[j * n + k];
        if (!(s > VERDICT_FIT_SINGULAR * a[j * n + j]))
            return -1;
        a[j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = t / a[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) {  // L y = b
        for (int k = 0; k < i; k++)
            b[i] -= a[i * n + k] * b[k];
        b[i] /= a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {  // L^T x = y
        for (int k = i + 1; k < n; k++)
            b[i] -= a[k * n + i] * b[k];
        b[i] /= a[i * n + i];
    }
    return 0;
}

// The diagonal of a^-1 into diag, from the Cholesky factor L (a's lower
// triangle, as verdict_cholesky_solve leaves it): a^-1 = L^-T L^-1, so
// diag[i] is the squared length of L^-1's column i.
static void verdict_cholesky_inverse_diagonal(const double *a, int n, double *diag)
{
    double y[VERDICT_MAX_WEIGHTS];
    for (int i = 0; i < n; i++) {
        diag[i] = 0.0;
        for (int k = i; k < n; k++) {  // L y = e_i, y[k] = 0 for k < i
            double t = k == i ? 1.0 : 0.0;
            for (int m = i; m < k; m++)
                t -= a[k * n + m] * y[m];
            y[k] = t / a[k * n + k];
            diag[i] += y[k] * y[k];
        }
    }
}

// How far a weight may lie from a fitted one and be it, for a fit whose
// residuals have variance sigma2 and a weight whose entry of the normal
// equations' inverse is ginv: VERDICT_FIT_SIGMAS standard errors, within
// VERDICT_FIT_FLOOR and VERDICT_FIT_TOL. A fixed tolerance is far coarser
// than a good fit: a constant 7e-4 from the tap's own weight, or 8e-5 from
// another tap's, is told apart from it.
static double verdict_fit_tolerance(double sigma2, double ginv)
{
    double t = VERDICT_FIT_SIGMAS * sqrt(sigma2 * ginv);
    return t < VERDICT_FIT_FLOOR ? VERDICT_FIT_FLOOR : t > VERDICT_FIT_TOL ? VERDICT_FIT_TOL : t;
}

// Solves the normal equations g, rhs of fit over its seen taps into
// fit->used, and the diagonal of their inverse into fit->tol (for
// verdict_fit_tolerance). Returns 0, or -1 when they do not tell every
// seen weight.
static int verdict_fit_solve(verdict_tap_fit *fit, const double *g, const double *rhs)
{
    int idx[VERDICT_MAX_WEIGHTS], n = 0;
    double *a = malloc(sizeof(double) * VERDICT_MAX_WEIGHTS * VERDICT_MAX_WEIGHTS), b[VERDICT_MAX_WEIGHTS];
    if (!a)
        return -1;
    for (int q = 0; q < fit->taps; q++) {
        fit->seen[q] = g[q * fit->taps + q] > 0.0;
        fit->used[q] = fit->f[q], fit->tol[q] = 0.0;
        if (fit->seen[q])
            idx[n++] = q;
    }
    fit->seen_all = n == fit->taps;
    for (int i = 0; i < n; i++) {
        b[i] = rhs[idx[i]];
        for (int j = 0; j < n; j++)
            a[i * n + j] = g[idx[i] * fit->taps + idx[j]];
    }
    int solved = verdict_cholesky_solve(a, b, n);
    double diag[VERDICT_MAX_WEIGHTS];
    if (solved == 0)
        verdict_cholesky_inverse_diagonal(a, n, diag);
    for (int i = 0; i < n && solved == 0; i++)
        fit->used[idx[i]] += b[i], fit->tol[idx[i]] = diag[i];
    free(a);
    return solved;
}

// The k-th of the n pixels the weights are fitted on (pick: the draw, from
// rng_init(pick, cells), when n < cells).
static long verdict_fit_pixel(long k, long n, long cells, rng *pick)
{
    return n == cells ? k : (long)(rng_next(pick) % (uint64_t)cells);
}

// Fits the weights the kernel used (fit->used, fit->seen) on the image's
// pixels, or on VERDICT_FIT_PIXELS drawn from a larger one, and how well
// each is told (fit->tol: from the residuals left on those pixels). Returns
// 0, or -1 when the pixels do not tell every seen weight (an image of fewer
// pixels than the taps that reach it).
static int verdict_fit_weights(verdict_tap_fit *fit)
{
    const sweep_case *c = fit->c;
    long cells = (long)(c->nx * c->ny), n = cells < VERDICT_FIT_PIXELS ? cells : VERDICT_FIT_PIXELS, seen = 0;
    double *g = calloc((size_t)fit->taps * (size_t)fit->taps, sizeof(double)), rhs[VERDICT_MAX_WEIGHTS] = {0}, ssr = 0.0;
    rng pick;
    if (!g)
        return -1;
    rng_init(&pick, (uint64_t)cells);  // the same pixels every time for this image size
    for (long k = 0; k < n; k++)
        verdict_fit_add(fit, verdict_fit_pixel(k, n, cells, &pick), g, rhs);
    int solved = verdict_fit_solve(fit, g, rhs);
    free(g);
    if (solved)
        return solved;
    rng_init(&pick, (uint64_t)cells);  // the residuals on the same pixels
    for (long k = 0; k < n; k++) {
        long p = verdict_fit_pixel(k, n, cells, &pick);
        double e = (double)fit->out[p] - reference_conv_point(c->in, c->nx, c->ny, (size_t)(p / (long)c->nx), (size_t)(p % (long)c->nx), fit->used, fit->r, NULL);
        ssr += e * e;
    }
    for (int q = 0; q < fit->taps; q++)
        seen += fit->seen[q];
    for (int q = 0; q < fit->taps; q++)
        fit->tol[q] = verdict_fit_tolerance(ssr / (double)(n > seen ? n - seen : 1), fit->tol[q]);
    return 0;
}

// 1 if every pixel of the output is the convolution with weights w, within
// the case's tolerance.
static int verdict_weights_explain(const verdict_tap_fit *fit, const double *w)
{
    const sweep_case *c = fit->c;
    long cells = (long)(c->nx * c->ny), bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static) if (cells > 65536)
    for (long p = 0; p < cells; p++) {
        double scale, want = reference_conv_point(c->in, c->nx, c->ny, (size_t)(p / (long)c->nx), (size_t)(p % (long)c->nx), w, fit->r, &scale);
        bad += fabs((double)fit->out[p] - want) > c->atol + c->rtol * scale;
    }
    return bad == 0;
}

// The tap other than not whose weight is weight, tap not's fitted weight
// (within fit->tol[not]), or -1.
static int verdict_tap_with_weight(const verdict_tap_fit *fit, double weight, int not)
{
    for (int q = 0; q < fit->taps; q++)
        if (q != not && fabs(fit->f[q] - weight) <= fit->tol[not])
            return q;
    return -1;
}

// Where a kernel indexing F at (si, sj) reads in F's 9x9 memory, which
// holds the filter in its first 2r+1 rows and columns and 0 elsewhere (an
// index past a row's end runs into the next row): VERDICT_READS_FILTER with
// that weight in *weight, VERDICT_READS_ZERO, or VERDICT_READS_OUTSIDE F.
enum { VERDICT_READS_FILTER, VERDICT_READS_ZERO, VERDICT_READS_OUTSIDE };
static int verdict_filter_memory(const verdict_tap_fit *fit, int si, int sj, double *weight)
{
    int flat = si * CONV_MAX_WIDTH + sj;
    *weight = 0.0;
    if (flat < 0 || flat >= CONV_MAX_WIDTH * CONV_MAX_WIDTH)
        return VERDICT_READS_OUTSIDE;
    si = flat / CONV_MAX_WIDTH, sj = flat % CONV_MAX_WIDTH;
    if (si >= fit->fw || sj >= fit->fw)
        return VERDICT_READS_ZERO;
    *weight = fit->f[si * fit->fw + sj];
    return VERDICT_READS_FILTER;
}

// Fills m->w with the weights pattern p gives the taps of scope (a row or
// column `line` of the filter, or all of it), the others keeping the
// filter's. Returns 1 if those weights are the fitted ones on every tap (a
// weight read outside F, whose value nobody knows, taken as fitted), with
// evidence: two taps or more take another tap's weight, and fewer read
// outside F than inside it (a row of weights all zero, or all unknown,
// is no shift that the values could show).
static int verdict_pattern_matches(const verdict_tap_fit *fit, const verdict_tap_pattern *p, int scope, int line, verdict_weight_mistake *m)
{
    int inside = 0, outside = 0, e = 2 * fit->r;
    for (int q = 0; q < fit->taps; q++) {
        int i = q / fit->fw, j = q % fit->fw;
        m->w[q] = fit->f[q];
        if ((scope == VERDICT_SCOPE_ROW && i != line) || (scope == VERDICT_SCOPE_COLUMN && j != line))
            continue;
        int reads = verdict_filter_memory(fit, p->m[0] * i + p->m[1] * j + p->m[2] * e + p->m[3], p->m[4] * i + p->m[5] * j + p->m[6] * e + p->m[7], &m->w[q]);
        if (reads == VERDICT_READS_OUTSIDE)
            m->w[q] = fit->used[q];
        else if (fabs(m->w[q] - fit->used[q]) > fit->tol[q])
            return 0;
        inside += reads == VERDICT_READS_FILTER && fabs(m->w[q] - fit->f[q]) > fit->tol[q];
        outside += reads == VERDICT_READS_OUTSIDE;
    }
    m->kind = VERDICT_WEIGHTS_PATTERN, m->pattern = p, m->scope = scope, m->line = line;
    return inside >= 2 && outside < inside;
}

// Tries every pattern on the whole filter, then the shifts on each row and
// each column alone: 1 with the first that matches the fit and explains
// every pixel in m.
static int verdict_weights_pattern(const verdict_tap_fit *fit, verdict_weight_mistake *m)
{
    for (int scope = VERDICT_SCOPE_FILTER; scope <= VERDICT_SCOPE_COLUMN; scope++)
        for (int a = 0; a < VERDICT_TAP_PATTERNS; a++)
            for (int line = 0; line < (scope == VERDICT_SCOPE_FILTER ? 1 : fit->fw); line++)
                if ((scope == VERDICT_SCOPE_FILTER || verdict_tap_patterns[a].lines) &&
                    verdict_pattern_matches(fit, &verdict_tap_patterns[a], scope, line, m) && verdict_weights_explain(fit, m->w))
                    return 1;
    return 0;
}

// How many pixels of the image tap q reads a pixel of the image for (not a
// ghost cell).
static long verdict_tap_reach(const verdict_tap_fit *fit, int q)
{
    long dy = labs((long)(q / fit->fw - fit->r)), dx = labs((long)(q % fit->fw - fit->r));
    long rows = (long)fit->c->ny - dy, cols = (long)fit->c->nx - dx;
    return rows > 0 && cols > 0 ? rows * cols : 0;
}

// Fills m with tap q weighted with `weight`: another tap's weight when it
// is one and explains every pixel, else that constant; the other taps keep
// the filter's. Returns 1 if that kernel explains every pixel and the image
// can tell: the tap reaches two pixels at least (a weight that explains a
// single pixel is found for any value there).
static int verdict_weights_one(const verdict_tap_fit *fit, int q, double weight, verdict_weight_mistake *m)
{
    if (verdict_tap_reach(fit, q) < 2)
        return 0;
    memcpy(m->w, fit->f, sizeof(m->w));
    m->kind = VERDICT_WEIGHTS_ONE, m->tap = q;
    m->other = verdict_tap_with_weight(fit, weight, q);
    m->w[q] = m->other >= 0 ? fit->f[m->other] : weight;
    if (verdict_weights_explain(fit, m->w))
        return 1;
    if (m->other < 0)
        return 0;
    m->other = -1, m->w[q] = weight;  // a constant near another tap's weight
    return verdict_weights_explain(fit, m->w);
}

// Names the fitted weights: one tap's weight replaced, two taps' exchanged,
// or (every tap seen) a pattern. Returns 1 with m filled when that kernel
// explains every pixel.
static int verdict_weights_named(const verdict_tap_fit *fit, verdict_weight_mistake *m)
{
    int changed[2], n = 0;
    for (int q = 0; q < fit->taps; q++)
        if (fit->seen[q] && fabs(fit->used[q] - fit->f[q]) > fit->tol[q] && n++ < 2)
            changed[n - 1] = q;
    if (n == 1)
        return verdict_weights_one(fit, changed[0], fit->used[changed[0]], m);
    if (n == 2 && fabs(fit->used[changed[0]] - fit->f[changed[1]]) <= fit->tol[changed[0]] &&
        fabs(fit->used[changed[1]] - fit->f[changed[0]]) <= fit->tol[changed[1]]) {
        memcpy(m->w, fit->f, sizeof(m->w));
        m->kind = VERDICT_WEIGHTS_PAIR, m->tap = changed[0], m->other = changed[1];
        m->w[m->tap] = fit->f[m->other], m->w[m->other] = fit->f[m->tap];
        return verdict_weights_explain(fit, m->w);
    }
    return n > 2 && fit->seen_all && verdict_weights_pattern(fit, m);
}

// On an image of fewer pixels than the taps that reach it (the fit cannot
// tell every weight): each seen tap alone, its weight fitted on every
// pixel, and how well (fit->tol, from the residuals that fit leaves).
// Returns 1 with m filled when exactly one tap so changed explains every
// pixel (several: the image cannot tell which).
static int verdict_weights_one_alone(verdict_tap_fit *fit, verdict_weight_mistake *m)
{
    const sweep_case *c = fit->c;
    long cells = (long)(c->nx * c->ny);
    int found = 0;
    verdict_weight_mistake each;
    double *d = cells <= VERDICT_FIT_PIXELS ? malloc(sizeof(double) * (size_t)cells) : NULL;
    if (!d)
        return 0;
    for (long p = 0; p < cells; p++)  // what the filter's weights leave unexplained
        d[p] = (double)fit->out[p] - reference_conv_point(c->in, c->nx, c->ny, (size_t)(p / (long)c->nx), (size_t)(p % (long)c->nx), fit->f, fit->r, NULL);
    for (int q = 0; q < fit->taps && found < 2; q++) {
        double xd = 0.0, xx = 0.0, ssr = 0.0;
        for (long p = 0; p < cells && fit->seen[q]; p++) {
            double x = verdict_tap_pixel(c, q, p / (long)c->nx, p % (long)c->nx);
            xd += x * d[p], xx += x * x;
        }
        if (xx == 0.0)
            continue;
        for (long p = 0; p < cells; p++) {
            double e = d[p] - xd / xx * verdict_tap_pixel(c, q, p / (long)c->nx, p % (long)c->nx);
            ssr += e * e;
        }
        fit->tol[q] = verdict_fit_tolerance(ssr / (double)(cells > 1 ? cells - 1 : 1), 1.0 / xx);
        if (fabs(xd / xx) > fit->tol[q] && verdict_weights_one(fit, q, fit->f[q] + xd / xx, &each) && found++ == 0)
            *m = each;
    }
    free(d);
    return found == 1;
}

// What tap `other` is to tap q in a filter of radius r ("transposed tap",
// "right neighbour"), or NULL when nothing simpler than its indices.
static const char *verdict_tap_relation(int r, int q, int other)
{
    int fw = 2 * r + 1, e = 2 * r, i = q / fw, j = q % fw, si = other / fw, sj = other % fw;
    if (si == j && sj == i)
        return "transposed tap (row and column index exchanged)";
    if (si == e - i && sj == e - j)
        return "mirror tap through the filter's centre";
    if (si == e - i && sj == j)
        return "mirror tap across the centre row";
    if (si == i && sj == e - j)
        return "mirror tap across the centre column";
    if (si == i && abs(sj - j) == 1)
        return sj > j ? "right neighbour (a column index one too large)" : "left neighbour (a column index one too small)";
    if (sj == j && abs(si - i) == 1)
        return si > i ? "neighbour below (a row index one too large)" : "neighbour above (a row index one too small)";
    return NULL;
}

// The hint for one tap weighted with another's weight or a constant (m), into v.
static void verdict_weights_one_hint(const verdict_tap_fit *fit, const verdict_weight_mistake *m, sweep_verdict *v)
{
    char weight[24], pixel[48], other[24], unused[48], used[160];
    const char *relation = m->other >= 0 ? verdict_tap_relation(fit->r, m->tap, m->other) : NULL;
    verdict_tap_names(fit->r, m->tap, weight, sizeof(weight), pixel, sizeof(pixel));
    if (m->other >= 0) {
        verdict_tap_names(fit->r, m->other, other, sizeof(other), unused, sizeof(unused));
        snprintf(used, sizeof(used), "%s%s%s", other, relation ? ", its " : ", another tap's weight", relation ? relation : "");
    } else {
        snprintf(used, sizeof(used), "%.6g%s, not %s = %.6g", m->w[m->tap],
                 fabs(m->w[m->tap] - 1.0) <= fit->tol[m->tap] ? " (the pixel added without its weight)" : "", weight, fit->f[m->tap]);
    }
    snprintf(v->hint, sizeof(v->hint), "the values match the convolution with the tap %s (on %s) weighted with %s: each tap weighs its own pixel, in[row+i-r][col+j-r] with F[i][j]; check that term's weight.",
             weight, pixel, used);
}

// The hint for two taps with their weights exchanged (m), into v.
static void verdict_weights_pair_hint(const verdict_tap_fit *fit, const verdict_weight_mistake *m, sweep_verdict *v)
{
    char weight[2][24], pixel[2][48], how[96] = "";
    const char *relation = verdict_tap_relation(fit->r, m->tap, m->other);
    verdict_tap_names(fit->r, m->tap, weight[0], sizeof(weight[0]), pixel[0], sizeof(pixel[0]));
    verdict_tap_names(fit->r, m->other, weight[1], sizeof(weight[1]), pixel[1], sizeof(pixel[1]));
    if (relation)
        snprintf(how, sizeof(how), " (the second is the first's %s)", relation);
    snprintf(v->hint, sizeof(v->hint), "the values match the convolution with the weights of the taps %s (on %s) and %s (on %s) exchanged%s: each tap weighs its own pixel, in[row+i-r][col+j-r] with F[i][j]; check those two terms' weights.",
             weight[0], pixel[0], weight[1], pixel[1], how);
}

// The hint for the filter, or one row or column of it, indexed wrongly (m), into v.
static void verdict_weights_pattern_hint(const verdict_weight_mistake *m, sweep_verdict *v)
{
    const verdict_tap_pattern *p = m->pattern;
    char taps[48] = "the filter", which[16] = "";
    if (p->lines && m->scope == VERDICT_SCOPE_FILTER)
        snprintf(taps, sizeof(taps), "every weight");
    else if (m->scope != VERDICT_SCOPE_FILTER) {
        snprintf(taps, sizeof(taps), "the weights of F's %s %d", m->scope == VERDICT_SCOPE_ROW ? "row" : "column", m->line);
        snprintf(which, sizeof(which), ", %c = %d", m->scope == VERDICT_SCOPE_ROW ? 'i' : 'j', m->line);
    }
    snprintf(v->hint, sizeof(v->hint), "the values match the convolution with %s %s (%s for F[i][j]%s, i and j from 0 to 2r)%s: this lab weighs in[row+i-r][col+j-r] with F[i][j].",
             taps, p->what, p->index, which, p->lines ? ", an index off by one in the weights only (the pixels' indices are right)" : "");
}

int verdict_image_tap_weights(const sweep_case *c, sweep_verdict *v, const verdict_tally *t)
{
    verdict_tap_fit fit;
    verdict_weight_mistake m;
    if (!c->filter_radius || v->nan_cells || v->unwritten || !t->out || c->nz != 1)
        return 0;
    memset(&fit, 0, sizeof(fit));
    fit.c = c, fit.out = t->out;
    fit.r = c->filter_radius, fit.fw = 2 * fit.r + 1, fit.taps = FILTER_NWEIGHTS(fit.r);
    verdict_weights(c, fit.f);
    if (!(verdict_fit_weights(&fit) == 0 ? verdict_weights_named(&fit, &m) : verdict_weights_one_alone(&fit, &m)))
        return 0;
    v->hint_key = HINT_TAP_WEIGHT;
    if (m.kind == VERDICT_WEIGHTS_ONE)
        verdict_weights_one_hint(&fit, &m, v);
    else if (m.kind == VERDICT_WEIGHTS_PAIR)
        verdict_weights_pair_hint(&fit, &m, v);
    else
        verdict_weights_pattern_hint(&m, v);
    return 1;
}
