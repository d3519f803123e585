// grader/judge/hints.c — see hints.h.
#include "hints.h"

#include <stdio.h>
#include <string.h>

#include "verdict.h"

// The one list of hint keys. Grouped by the detector that gives them.
static const hint_entry hint_table[] = {
    // The verdict's patterns in the wrong cells (verdict.c, for sweeps).
    {HINT_NOTHING_WRITTEN, "no interior cell was written", "verdict: every interior cell still holds the poison"},
    {HINT_UNWRITTEN, "some cells were never written", "verdict: cells still holding the poison"},
    {HINT_OFF_BY_ONE, "cells at the far faces never written", "verdict: the unwritten cells lie on the first or last interior layers"},
    {HINT_TILE_SEAM, "layers between tiles never written", "verdict: the unwritten cells fill whole x or y layers, two or more"},
    {HINT_INDEX_OVERFLOW, "stores at wrapped indices", "verdict: the interior untouched while boundary cells changed"},
    {HINT_BOUNDARY, "boundary cells overwritten", "verdict: boundary cells differ from the input"},
    {HINT_BOUNDARY_THIN, "the boundary taken one layer thick (a star of radius 2)", "verdict: every changed boundary cell lies inside the outermost layer"},
    {HINT_TILE_EDGES, "wrong only at tile edges (halo loading)", "verdict: wrong cells at multiples of the output tile"},
    {HINT_WHOLE_PLANES, "wrong in whole planes (z loop or plane rotation)", "verdict: wrong cells fill whole z planes"},
    {HINT_THREAD_ORDER, "results differ between thread orders", "emulation: two thread orders disagree"},
    {HINT_INPUT_MODIFIED, "the input was modified", "verdict: the input buffer changed"},
    {HINT_OUT_OF_BOUNDS, "writes (or, under emulation, reads) outside the grid", "verdict: guard zones changed; emulation, labs counting loads: a kernel read a guard cell (judge_guard_read)"},
    {HINT_NAN, "NaN computed", "verdict: NaN where the reference has a number"},
    {HINT_WRONG_VALUES, "wrong values with no clearer pattern", "verdict: the fallback"},
    {HINT_TIMED_CHANGED, "the output changed over the timed launches", "verdict: the timed output differs"},
    {HINT_CENTRE_MISSING, "the centre term is missing", "verdict: the output matches the stencil without c0; lab 0: the convolution without its centre tap (verdict_image.c)"},
    {HINT_TERM_MISSING, "a neighbour term is missing or swapped", "verdict: the output matches a stencil with one term changed; lab 0: the convolution without one tap"},
    {HINT_NEIGHBOUR_OFFSET, "a neighbour read at the wrong offset", "verdict: the output matches the stencil with one neighbour read two cells away"},
    {HINT_TERM_DOUBLED, "one term counted twice", "verdict: the output matches the stencil with one term's coefficient doubled; lab 0: the convolution with one tap counted twice, or its pixel added once more with weight 1 (a sum started at the pixel)"},
    {HINT_TERM_SIGN, "one term subtracted", "verdict: the output matches the stencil with one term's sign flipped; lab 0: the convolution with one tap subtracted"},
    {HINT_TERM_WRONG_CELL, "one term reads the wrong cell", "verdict: the output matches the stencil with one term's coefficient on another term's cell, or on a cell up to three columns from its own (a float4's other lane: the hint names the lane when the wrong cells share one)"},
    {HINT_SIZES_MIXED, "sizes mixed up (nx, ny, nz; an image's width and height)", "verdict (grids that are no cube): rows read ny floats apart, or whole layers unwritten from another axis's size on; (images that are no square) the output, guards and both thread orders, is what a kernel with width and height exchanged in an index or a bounds test leaves"},
    {HINT_NEIGHBOURS_SWAPPED_X, "the x neighbours' coefficients exchanged", "verdict: the output matches the stencil with c1 and c2 exchanged"},
    {HINT_NEIGHBOURS_SWAPPED_Y, "the y neighbours' coefficients exchanged", "verdict: the output matches the stencil with c3 and c4 exchanged"},
    {HINT_NEIGHBOURS_SWAPPED_Z, "the z neighbours' coefficients exchanged", "verdict: the output matches the stencil with c5 and c6 exchanged"},
    {HINT_AXES_SWAPPED_XY, "the x and y axes exchanged", "verdict: the output matches the stencil with the x and y coefficients exchanged"},
    {HINT_AXES_SWAPPED_XZ, "the x and z axes exchanged", "verdict: the output matches the stencil with the x and z coefficients exchanged"},
    {HINT_AXES_SWAPPED_YZ, "the y and z axes exchanged", "verdict: the output matches the stencil with the y and z coefficients exchanged"},
    // Lab 0's patterns (verdict.c, for a convolution: every pixel written, ghost cells 0).
    {HINT_GHOST_CELLS, "wrong only near the image's edges (ghost cells not 0)", "verdict: the output is what a kernel with ghost cells clamped, wrapped or read from in[] (a bounds test missing or off by one), or with the pixels within r of the edges left out, leaves (any image, those whose every pixel lies within r of an edge too); else every wrong pixel lies within r of the image's edges"},
    {HINT_FILTER_TRANSPOSED, "the filter transposed", "verdict: the output matches the convolution with F[j][i]"},
    {HINT_FILTER_FLIPPED, "the filter turned by 180 degrees", "verdict: the output matches the convolution with F[2r-i][2r-j]"},
    {HINT_RADIUS_FIXED, "the radius taken as 1 whatever r is", "verdict: the output matches a 3x3 convolution with F[0..2][0..2]"},
    {HINT_FILTER_SHORT, "the filter's last row and column left out (tap loops stop one short)", "verdict: the output matches the convolution with F[2r][*] and F[*][2r] taken as 0"},
    {HINT_TAP_WEIGHT, "a tap weighted with the wrong weight (another tap's, or a constant)", "verdict: the weights fitted from the output are the filter with one tap's weight replaced, two taps' exchanged, or a row, a column or the whole filter mirrored, turned or shifted by one (verdict_taps.c)"},
    // Lab 5's patterns (jacobi_verdict.c).
    {HINT_IN_PLACE, "updated in place (no double buffering)", "jacobi verdict"},
    {HINT_WRONG_BUFFER, "the result left in the wrong buffer", "jacobi verdict"},
    {HINT_PERIODIC_WRAP, "periodic faces wrapped wrongly", "jacobi verdict"},
    {HINT_PERIODIC_FACE, "a periodic face copied from a layer holding an older value", "jacobi verdict: whole faces written, yet stale"},
    {HINT_NEUMANN_SIDE, "a Neumann face copied from the wrong side", "jacobi verdict"},
    {HINT_NEUMANN_MIRROR, "a Neumann face copied from the second layer (mirrored about the first interior layer)", "jacobi verdict: every cell of a face equals the cell two layers in"},
    {HINT_PERIODIC_SIDE, "a periodic face copied from its own neighbour (the Neumann rule)", "jacobi verdict: every cell of a face equals its neighbour, not the far interior layer"},
    {HINT_BOUNDARY_RACE, "the boundary set while the sweep still reads it", "jacobi verdict"},
    {HINT_HALO_SOURCE, "a blocked launch's halo beyond the grid not holding the cells it stands for", "jacobi verdict, labs doing several iterations a launch"},
    {HINT_LAUNCH_INTERIOR, "a launch of several iterations wrong far from the faces (its update, not its boundary)", "jacobi verdict, labs doing several iterations a launch: cells deeper than the last launch's iterations wrong for every count it may have done"},
    {HINT_BOUNDARY_VALUES, "a boundary face never set", "jacobi verdict"},
    {HINT_SOURCE_TERM, "the source term f used wrongly", "jacobi verdict"},
    {HINT_EARLY_STOP, "the early stop on the residual is wrong", "jacobi verdict"},
    {HINT_RESIDUAL, "the residual's value is wrong", "jacobi verdict"},
    {HINT_ITERATIONS, "the wrong number of iterations", "jacobi verdict"},
    {HINT_NOT_SECOND_ORDER, "the error does not fall as h^2", "jacobi verdict: the manufactured solution"},
    // Lab 10's patterns (jacobi_verdict.c with the heat update; the padding: judge_jacobi.c).
    {HINT_HEAT_RATE, "the step's r used wrongly (its sign, the -4u term, or u left out)", "jacobi verdict: the last step matches a heat step with that mistake"},
    {HINT_ROW_TAIL, "wrong only in the last cells of rows (a float4 path past the row's last whole float4)", "jacobi verdict: every wrong cell lies in the last three interior columns"},
    {HINT_PADDING, "a row's padding written", "judge: the padding cells (columns nx..pitch-1) lost the kit's pattern"},
    {HINT_ROW_PITCH, "rows taken nx floats apart, not p->pitch", "judge: the padding written is exactly what stores at j*nx + k leave; jacobi verdict: the last step matches one whose y neighbours are nx floats away in the padded rows"},
    // Barriers (the sync case on a GPU; every case under emulation).
    {HINT_MISSING_BARRIER, "a race on shared memory: a missing __syncthreads()", "compute-sanitizer racecheck on the sync case"},
    {HINT_DIVERGENT_BARRIER, "a __syncthreads() some threads never reach", "the emulator's strict barriers"},
    // How the run ended (judge_case.c, judge_jacobi.c, judge.c).
    {HINT_TIMEOUT, "the kernel never returned", "the case's time limit"},
    {HINT_LAUNCH_CONFIG, "the launch failed", "the runner's launch error"},
    {HINT_BLOCK_SHAPE, "the block is not the size of the tile", "the launch record against IN_TILE_DIM / OUT_TILE_DIM, when the values show tile edges, NaN or seams"},
    {HINT_LAUNCH_SWAPPED, "grid and block swapped in the launch", "the launch record: a block over 1024 threads in a grid of at most 1024 blocks (the launch failed), or a grid with the declared tile's shape and a block without it"},
    {HINT_KERNEL_FAULT, "the kernel crashed", "the runner's fault report (SANITIZE=1 names the line)"},
    {HINT_NO_MEMORY, "the case does not fit in memory", "the runner, or the judge before it"},
    {HINT_HOST_MEMORY, "the program held more memory than the kit grants", "emulation: the runner's resident memory passed its limit"},
    {HINT_FORGED_RECORDS, "the kit's launch records were tampered with", "emulation: a record's seal broken, the recording ended, begun or switched off inside the launch function, or a launch left unrecorded"},
    {HINT_REFUSED_CALL, "a CUDA call the labs do not allow", "the executor"},
    {HINT_LATE_CALL, "a CUDA call after the host function returned", "the executor"},
    {HINT_TIMED_REP_WRONG, "a timed call's output was wrong, or it launched what the checked call did not", "the executor's check of every timed repetition"},
    {HINT_RUNNER_FAILED, "the program ended without its results", "the runner's exit"},
    {NULL, NULL, NULL},
};

const hint_entry *hint_find(const char *key)
{
    for (const hint_entry *h = hint_table; key && h->key; h++)
        if (!strcmp(h->key, key))
            return h;
    return NULL;
}

const hint_entry *hint_all(void)
{
    return hint_table;
}

const char *hint_handout(const char *lab_name, char *buf, unsigned long len)
{
    snprintf(buf, len, "handouts/%s.md, \"Hints you may meet in this lab\" (rendered by make handouts: build/handouts/%s.html#hints, each key its own anchor)", lab_name, lab_name);
    return buf;
}
