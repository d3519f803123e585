// grader/judge/verdict.h — decides whether a sweep's output is right, and if not,
// says what the pattern of wrong cells suggests.
//
// The judge hands it the case (input grid, coefficients, tolerance) and what
// the runner returned (the output and input buffers with their guard zones,
// optionally the output after timing and the output of a second thread order).
// It never trusts the runner's word, only these buffers.
#ifndef STENCIL_VERDICT_H
#define STENCIL_VERDICT_H

#include <stddef.h>

#include "protocol.h"  // STENCIL_MAX_NCOEF, PROTOCOL_MAX_WEIGHTS

// The hint keys: stable names tools and the kit's mutant tests match on.
#define HINT_NOTHING_WRITTEN   "nothing-written"
#define HINT_UNWRITTEN         "unwritten-cells"
#define HINT_OFF_BY_ONE        "off-by-one"
#define HINT_BOUNDARY          "boundary-overwritten"
#define HINT_BOUNDARY_THIN     "boundary-too-thin"   // a star of radius 2 or more: only the boundary's inner layers written (the kernel takes the boundary one layer thick)
#define HINT_TILE_EDGES        "tile-edges"
#define HINT_WHOLE_PLANES      "whole-planes"
#define HINT_THREAD_ORDER      "thread-order"
#define HINT_MISSING_BARRIER   "missing-barrier"     // a shared-memory race (racecheck on the GPU)
#define HINT_DIVERGENT_BARRIER "divergent-barrier"   // a barrier some threads of a block never reach
#define HINT_INDEX_OVERFLOW    "index-overflow"      // nothing in the interior, yet boundary cells changed: stores at wrapped indices
#define HINT_NEIGHBOUR_OFFSET  "neighbour-offset"    // a neighbour read two cells away instead of one
#define HINT_LAUNCH_SWAPPED    "launch-args-swapped" // <<<block, grid>>>: a huge block in a small grid
#define HINT_TILE_SEAM         "tile-seam"           // whole x or y layers never written, tile after tile
#define HINT_BLOCK_SHAPE       "block-shape"         // a block one or two threads off the declared tile in an axis
#define HINT_SIZES_MIXED       "sizes-mixed"         // nx, ny, nz mixed up: rows of ny floats, or an axis bounded by another's size (an image: width and height)
#define HINT_INPUT_MODIFIED    "input-modified"
#define HINT_OUT_OF_BOUNDS     "out-of-bounds"
#define HINT_NAN               "nan-computed"
#define HINT_WRONG_VALUES      "wrong-values"
#define HINT_TIMED_CHANGED     "timed-output-changed"
#define HINT_CENTRE_MISSING    "centre-missing"
#define HINT_TERM_MISSING      "term-missing"
#define HINT_TERM_DOUBLED      "term-doubled"        // one term of the stencil counted twice
#define HINT_TERM_SIGN         "term-sign"           // one term subtracted instead of added
#define HINT_TERM_WRONG_CELL   "term-wrong-cell"     // one term's coefficient multiplies another term's cell
#define HINT_FORGED_RECORDS    "forged-records"      // the kit's launch records changed, hidden or begun again by the program (emulation)
#define HINT_HOST_MEMORY       "host-memory"         // the program held more memory than the kit grants (emulation: the runner's resident memory)
// Lab 0 (2D convolution, the image interface)
#define HINT_GHOST_CELLS       "ghost-cells"         // ghost cells not 0 (clamped, wrapped, read from in[]) or edge pixels left out: wrong only within r pixels of the image's edges
#define HINT_FILTER_TRANSPOSED "filter-transposed"   // F[j+r][i+r] for F[i+r][j+r]
#define HINT_FILTER_FLIPPED    "filter-flipped"      // F[r-i][r-j]: the filter turned by 180 degrees
#define HINT_RADIUS_FIXED      "radius-fixed"        // the filter's radius taken as 1 whatever r is
#define HINT_FILTER_SHORT      "filter-loop-short"   // the filter's last row and column left out (tap loops to < 2r)
#define HINT_TAP_WEIGHT        "tap-weight"          // a tap weighted with another tap's weight or a constant; two exchanged; a row, column or the filter mirrored, turned or shifted by one
// Lab 5 (Jacobi iteration; grader/judge/jacobi_verdict.c)
#define HINT_IN_PLACE          "in-place-update"
#define HINT_WRONG_BUFFER      "wrong-buffer"
#define HINT_PERIODIC_WRAP     "periodic-wrap"
#define HINT_PERIODIC_FACE     "periodic-face"       // a periodic face written from a layer holding an older value
#define HINT_NEUMANN_SIDE      "neumann-side"
#define HINT_NEUMANN_MIRROR    "neumann-mirror"      // a Neumann face copying the second layer (mirrored about the first interior layer), not its neighbour
#define HINT_PERIODIC_SIDE     "periodic-side"       // a periodic face copying its own neighbour (the Neumann rule), not the far interior layer
#define HINT_BOUNDARY_RACE     "boundary-race"
#define HINT_HALO_SOURCE       "halo-source"         // several iterations a launch: a halo cell beyond the grid not holding the cell it stands for
#define HINT_LAUNCH_INTERIOR   "launch-interior"     // several iterations a launch: cells the boundary cannot reach within the last launch wrong (the levels' update itself)
#define HINT_BOUNDARY_VALUES   "boundary-values"
#define HINT_SOURCE_TERM       "source-term"
#define HINT_EARLY_STOP        "early-stop"
#define HINT_RESIDUAL          "residual-value"
#define HINT_ITERATIONS        "iteration-count"
#define HINT_NOT_SECOND_ORDER  "not-second-order"
// Lab 10 (the 2D heat equation; jacobi_verdict.c with the heat update, judge_jacobi.c)
#define HINT_HEAT_RATE         "heat-rate"           // the step's r used wrongly: its sign, the -4u term, or u itself left out
#define HINT_ROW_TAIL          "row-tail"            // wrong only in the last cells of rows: a vector path past the last whole float4
#define HINT_PADDING           "padding-written"     // a row's padding (columns nx..pitch-1) written
#define HINT_ROW_PITCH         "row-pitch"           // rows taken nx floats apart in the padded layout (p->pitch ignored)
// A pair of the star's coefficients exchanged (verdict.c)
#define HINT_NEIGHBOURS_SWAPPED_X "neighbours-swapped-x"  // c1 and c2
#define HINT_NEIGHBOURS_SWAPPED_Y "neighbours-swapped-y"  // c3 and c4
#define HINT_NEIGHBOURS_SWAPPED_Z "neighbours-swapped-z"  // c5 and c6
#define HINT_AXES_SWAPPED_XY   "axes-swapped-xy"     // the x and y coefficients
#define HINT_AXES_SWAPPED_XZ   "axes-swapped-xz"     // the x and z coefficients
#define HINT_AXES_SWAPPED_YZ   "axes-swapped-yz"     // the y and z coefficients
// How the run ended (judge_case.c, judge_jacobi.c, case_schedule.c)
#define HINT_TIMEOUT           "timeout"             // the case's time limit
#define HINT_LAUNCH_CONFIG     "launch-config"       // the runner's launch error
#define HINT_KERNEL_FAULT      "kernel-fault"        // the runner's fault report
#define HINT_NO_MEMORY         "no-memory"           // the case does not fit in memory
#define HINT_REFUSED_CALL      "refused-call"        // a CUDA call the labs do not allow (the executor)
#define HINT_LATE_CALL         "late-call"           // a CUDA call after the host function returned (the executor)
#define HINT_TIMED_REP_WRONG   "timed-rep-wrong"     // a timed repetition's output or launches wrong (the executor)
#define HINT_RUNNER_FAILED     "runner-failed"       // the program ended without its results

// The words a case's hints are written in: the student's interface.
#define VERDICT_WORDS_CUBE  0   // kernels/lab.h: N, LAB_INDEX, launch_stencil
#define VERDICT_WORDS_GRID  1   // kernels/grid.h: nx, ny, nz, GRID_INDEX, launch_sweep
#define VERDICT_WORDS_IMAGE 2   // kernels/conv.h: width, height, IMAGE_INDEX, launch_convolution

#define VERDICT_MAX_WEIGHTS PROTOCOL_MAX_WEIGHTS  // a star's c0..c(6r), or a filter of up to 9x9

typedef struct sweep_case {
    const float *in;            // the input grid the runner was given
    size_t nx, ny, nz;          // grid size (an image: nz = 1)
    float coef[VERDICT_MAX_WEIGHTS]; // a star's c0..c(6r): the centre, then each distance's x-, x+, y-, y+, z-, z+ (protocol.h); for a convolution the (2R+1)^2 filter, row by row
    double rtol, atol;          // |got - want| <= atol + rtol * sum|c_n x_n|
    int out_tile;               // output tile edge the kernel declared (0: none), for the tile-edge hint
    int planes_first;           // 1: prefer the whole-planes hint over tile edges (z-marching labs)
    int words;                  // VERDICT_WORDS_*: whose names the hints use
    int star_radius;            // a sweep's star radius r (1: seven points, 2: thirteen); the boundary is r layers thick
    int filter_radius;          // 0: a star's sweep; R > 0: a convolution whose filter has radius R
                                // (every cell written, ghost cells 0: protocol_cell_written)
} sweep_case;

typedef struct sweep_buffers {
    const float *out;           // guard | grid | guard after the checked launch
    const float *in_after;      // guard | grid | guard of the input buffer after it
    const float *out_timed;     // the output after the timed launches, or NULL
    const float *out_order2;    // the output under a second thread order (emulation), or NULL
    size_t guard;               // guard cells on each side
} sweep_buffers;

typedef struct sweep_verdict {
    int passed;                 // 1: every check passed
    size_t interior;            // interior cells
    size_t wrong;               // interior cells outside the tolerance (incl. unwritten, NaN)
    size_t unwritten;           // interior cells still holding the poison
    size_t nan_cells;           // interior cells holding a NaN the kernel computed
    size_t boundary_changed;    // boundary cells that differ from the input
    size_t guard_before;        // damaged cells in the guard before the output
    size_t guard_after;         // damaged cells in the guard after the output
    size_t input_changed;       // cells of the input buffer (guards included) that changed
    size_t order_differs;       // cells that differ between the two thread orders
    size_t timed_differs;       // cells that differ after timing
    long first[3];              // first wrong cell (i, j, k), -1 when none
    double first_want;          // expected value there
    float first_got;            // value found there
    double max_err_ratio;       // largest |got - want| / allowed over the interior
    const char *hint_key;       // one of the HINT_* keys, or NULL when passed
    char reason[256];           // what is wrong, with counts
    char hint[512];             // what the pattern suggests, in one line
} sweep_verdict;

// 1 if cell (i, j, k) is one the kernel of case c must write (the interior of
// a sweep, every pixel of a convolution: protocol_cell_written).
int verdict_cell_written(const sweep_case *c, size_t i, size_t j, size_t k);

// The expected value of written cell (i, j, k) of case c in double, coef its
// weights in double (a star's c0..c(6r), or the filter); *scale receives the sum of the
// terms' magnitudes the tolerance is measured against.
double verdict_expected(const sweep_case *c, size_t i, size_t j, size_t k, const double *coef, double *scale);

// Checks one sweep case; fills v. Returns v->passed.
int verdict_sweep(const sweep_case *c, const sweep_buffers *b, sweep_verdict *v);

// Checks the units of a case's output a GPU check's sample holds (n of
// them, unit which[q] at units + q * its cells; protocol_sample_unit_of:
// z-planes, or rows of a 2D grid) against the reference, as verdict_sweep
// checks every cell: a written cell within the tolerance, a kept cell the
// input's bits. Returns how many cells are wrong; the first one's (i, j, k),
// expected and found value go to first, *first_want and *first_got. (The
// judge's own look at a grid the kit's kernels checked whole.)
size_t verdict_sweep_sample(const sweep_case *c, const float *units, const unsigned *which, int n, long first[3],
                            double *first_want, float *first_got);

// Writes the value of cell bits as text: a number, "<unwritten>" or "NaN".
const char *verdict_value_text(float value, char *buf, size_t len);

#endif // STENCIL_VERDICT_H
