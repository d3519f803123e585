// grader/judge/verdict_image.c — lab 0's images: a kernel with one mistake
// simulated, so that ghost-cells and sizes-mixed are named on any image (see
// verdict_parts.h; called by verdict.c on a failed image).
#include "verdict_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

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

// On an image of one row (or one column) the tap loops stopping one short
// (F[2r][*] and F[*][2r] left out, filter-loop-short) leave out a single tap
// that reaches a pixel, F[r][2r] (F[2r][r]): every other tap of that row and
// column reads ghost cells, 0. A kernel that leaves out that tap alone
// (term-missing) gives the same values; adds to v's hint that it does.
static void verdict_image_short_note(const sweep_case *c, sweep_verdict *v)
{
    int r = c->filter_radius, e = 2 * r, reach = 0, tap = 0;
    if (!v->hint_key || strcmp(v->hint_key, HINT_FILTER_SHORT) != 0)
        return;
    for (int q = 0; q < (e + 1) * (e + 1); q++) {
        int i = q / (e + 1), j = q % (e + 1);
        if ((i == e || j == e) && (long)c->ny > labs((long)(i - r)) && (long)c->nx > labs((long)(j - r)))
            reach++, tap = q;
    }
    size_t used = strlen(v->hint);
    if (reach == 1)
        snprintf(v->hint + used, sizeof(v->hint) - used, " On an image this thin F[%d][%d] is the only one of those taps that reaches a pixel (the others read ghost cells, 0): leaving out F[%d][%d] alone gives the same values, and larger images tell the two apart.",
                 tap / (e + 1), tap % (e + 1), tap / (e + 1), tap % (e + 1));
}

// A failed image case (filter radius > 0): filter-loop-short on an image too
// thin to tell it from a single tap left out says so. Its input untouched:
// if a kernel with one ghost-cell or one sizes mistake leaves exactly this output,
// its hint replaces the one the symptoms gave (the reason, which says what
// was seen, stays).
void verdict_image_mistakes(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v, const verdict_tally *t)
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
    verdict_image_short_note(c, v);
    if (v->input_changed || c->nz != 1 || verdict_guard_damage(b->in_after, b->guard, &dummy) ||
        verdict_guard_damage(b->in_after + b->guard + x.cells, b->guard, &dummy))
        return;
    verdict_weights(c, x.f);
    int ghost = verdict_image_ghosts(&x, v, t, &by_ghost), sizes = verdict_image_sizes(&x, &by_sizes);
    int exact = 0;  // the hint already names a mistake whose values are these (a filter's)
    for (int a = 0; a < VERDICT_CONV_ALTS; a++)
        exact |= v->hint_key == verdict_conv_alts[a].key;
    exact |= verdict_image_tap_key(v->hint_key);
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
