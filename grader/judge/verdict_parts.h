// grader/judge/verdict_parts.h — what the sweep verdict's files share
// (verdict.c: the pass over the grid and its patterns; verdict_image.c: lab
// 0's images, a kernel with one mistake simulated; verdict_taps.c: lab 0's
// taps weighted wrongly; verdict_window.c: the z march's window). Not for other rooms: verdict.h is the verdict's interface.
#ifndef STENCIL_VERDICT_PARTS_H
#define STENCIL_VERDICT_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "../reference/stencil_ref.h"
#include "verdict.h"

// A kernel with one classic mistake, as the stencil it computes.
typedef struct verdict_alt {
    const char *key;      // hint key when the wrong cells match this stencil
    int perm[STENCIL_MAX_NCOEF]; // term n uses coefficient perm[n]
    int dropped;          // term left out, or -1
    char text[320];       // the hint sentence
    int far;              // 0, or n + 1: term n reads its neighbour one cell further out than it should
    int scaled;           // 0, or n + 1: term n's coefficient multiplied by factor (2: counted twice; -1: its sign flipped)
    double factor;
    int moved;            // 0, or n + 1: term n's coefficient applied to the value of term moved_to's cell instead of its own
    int moved_to;
    int lane;             // 0, or n + 1: term n reads the cell lane_dx columns from its own, no term's cell (a float4's other lane)
    int lane_dx;          // -3 .. 3, not 0
} verdict_alt;

// The most alternatives a star of the kit's largest radius has: per distance
// 3 swapped pairs and 6 dropped and 6 misplaced terms; 3 axis exchanges and
// the centre; each of its terms doubled or negated, each taken from any
// other term's cell, and each read from a cell up to VERDICT_LANE_REACH
// columns from its own.
#define VERDICT_LANE_REACH 3  // a float4's lanes: the farthest another lane lies from a point's own
#define VERDICT_MAX_ALTS (STENCIL_MAX_RADIUS * 15 + 4 + 2 * STENCIL_MAX_NCOEF + STENCIL_MAX_NCOEF * (STENCIL_MAX_NCOEF - 1) + \
                          2 * VERDICT_LANE_REACH * STENCIL_MAX_NCOEF)

typedef struct verdict_alts {
    int n;                               // alternatives
    verdict_alt alt[VERDICT_MAX_ALTS];   // in the order they are tried: the first that explains every wrong cell names the hint
} verdict_alts;

// The mistaken convolutions the verdict tries (verdict_conv_alts).
#define VERDICT_CONV_ALTS 4

// What the pass over a grid counts, for the patterns that name a hint.
typedef struct verdict_tally {
    size_t wrong_finite;          // wrong cells that hold a finite number
    const verdict_alts *alts;     // the classic mistakes of this case's star
    size_t alt_match[VERDICT_MAX_ALTS]; // of the wrong finite cells, how many each alternative explains
    unsigned char alt_missed[VERDICT_MAX_ALTS]; // 1 once an alternative failed to explain a cell (never tried again: it cannot name the hint)
    size_t edge_wrong[2];         // wrong cells on a tile edge, tiles starting at 0 and at 1
    size_t edge_cells[2];         // interior cells on a tile edge, likewise
    size_t unwritten_outer;       // unwritten cells on the first or last interior plane, row or column
    size_t boundary_inner;        // changed boundary cells off the grid's outermost layer (radius 2 and more: its inner layers)
    size_t border_wrong;          // convolution: wrong cells within r pixels of the image's edges
    size_t border_cells;          // and all cells there
    size_t conv_alt_match[VERDICT_CONV_ALTS]; // convolution: wrong finite cells each verdict_conv_alts entry explains
    size_t rows_mixed;            // wrong finite cells the stencil explains with its y neighbours ny floats away (nx != ny)
    size_t boundary_rows_mixed;   // changed boundary cells it explains likewise (stores at places with x and y exchanged)
    size_t *plane_wrong;          // wrong cells per plane i
    const float *out;             // the output grid (guards skipped): the plane window looks at its values again
    size_t *row_unwritten;        // unwritten cells per row layer j (all i, k)
    size_t *column_unwritten;     // unwritten cells per column layer k (all i, j)
} verdict_tally;

// What a convolution with one classic mistake computes: the weight it takes
// for tap (i, j) of the filter, or the radius it uses.
typedef struct verdict_conv_alt {
    const char *key;      // hint key when the wrong cells match
    int mode;             // 0 transposed F[j][i], 1 flipped F[2r-i][2r-j], 2 radius 1 with F[0..2][0..2], 3 F's last row and column left out
    const char *text;     // the hint sentence
} verdict_conv_alt;

// The mistaken convolutions: filter transposed, flipped, radius 1, its last
// row and column left out.
extern const verdict_conv_alt verdict_conv_alts[VERDICT_CONV_ALTS];

// 1 if value holds exactly the bit pattern bits.
int verdict_has_bits(float value, uint32_t bits);

// Counts guard cells that lost their pattern; *first gets the first one's index.
size_t verdict_guard_damage(const float *g, size_t n, long *first);

// Case c's weights as doubles, in the order the reference sums them.
void verdict_weights(const sweep_case *c, double *coef);

// Lab 0: on a failed image, names ghost-cells or sizes-mixed when the output
// is exactly what a kernel with one such mistake leaves (verdict_image.c).
void verdict_image_mistakes(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v, const verdict_tally *t);

// Lab 0: if every pixel of the image is the convolution with one tap's
// weight off by a whole term (that tap counted twice, left out, subtracted,
// or its pixel added once more with weight 1: a sum started at the pixel),
// names that tap in v (term-doubled, term-missing, centre-missing,
// term-sign) and returns 1; else 0, v untouched (verdict_taps.c).
int verdict_image_tap_off(const sweep_case *c, sweep_verdict *v, const verdict_tally *t);

// Lab 0: fits the weights the kernel gave its taps from its output; if they
// are the filter with one tap's weight replaced (by another tap's, or a
// constant), two taps' weights exchanged, or the whole filter (or one row
// or column of it) mirrored, turned or shifted by one, and that kernel
// gives every pixel, names it in v (tap-weight: which taps, and the weights
// they took) and returns 1; else 0, v untouched (verdict_taps.c).
int verdict_image_tap_weights(const sweep_case *c, sweep_verdict *v, const verdict_tally *t);

// 1 if key is a hint verdict_image_tap_off or verdict_image_tap_weights gives.
int verdict_image_tap_key(const char *key);

// The z march's window: if every wrong cell (all finite, at least r in
// each wrong plane) is the stencil with some of its terms from other planes
// than the point's own, one choice of planes per plane (what a kernel whose
// window is shifted wrongly, or not at all, computes; visible on a grid of
// one block in z, where no plane is right to compare with), names the
// first such plane's choice in v (whole-planes) and returns 1; else 0, v
// untouched (verdict_window.c).
int verdict_plane_window(const sweep_case *c, sweep_verdict *v, const verdict_tally *t);

// 1 if a wrong plane of c (a star, its wrong cells finite) holds too few
// wrong cells for verdict_plane_window to tell a window from another
// mistake (one cell at radius 2: N = 5's single point); its index to *plane.
int verdict_window_thin_plane(const sweep_case *c, const sweep_verdict *v, const verdict_tally *t, size_t *plane);

#endif // STENCIL_VERDICT_PARTS_H
