// grader/judge/pictures.h — the report's pictures: a heat map of a failing
// case's worst z plane and a roofline of the timed cases, drawn by gnuplot
// (grader/pictures/*.gp) from data files written here.
//
// Everything drawn comes from what the judge computed itself: the reference,
// the output grids it checked, the executor's timing and the lab's OP/B
// model; nothing the student's program printed. gnuplot is optional: without
// it the data files are still written and the report says so in one line.
// The picture names and their JSON keys are grader/protocol/picture_keys.h.
#ifndef STENCIL_PICTURES_H
#define STENCIL_PICTURES_H

#include <limits.h>
#include <stdio.h>

#include "jacobi_verdict.h"
#include "judge.h"
#include "picture_keys.h"
#include "verdict.h"

#define PICTURE_ID(name, what) PICTURE_##name,
enum picture_id { PICTURES(PICTURE_ID) PICTURE_COUNT };
#undef PICTURE_ID
#define PICTURE_FORMAT_ID(name, ext) PICTURE_FORMAT_##name,
enum picture_format { PICTURE_FORMATS(PICTURE_FORMAT_ID) PICTURE_FORMAT_COUNT };
#undef PICTURE_FORMAT_ID

// Largest plane (nx * ny cells) the heat map prefers: among failing cases the
// largest plane up to this one is drawn (each cell still visible), else the smallest.
#define PICTURE_HEATMAP_PREFERRED_CELLS (160 * 160)

typedef struct picture_result {
    const char *name;                       // "heatmap", "roofline"
    char path[PICTURE_FORMAT_COUNT][PATH_MAX]; // each file written ("" when not)
    char note[400];                         // what it shows, or why it was not drawn ("" when not considered)
} picture_result;

// Turns pictures on for this run: they go into dir (which must exist), drawn
// with the scripts of kit/grader/pictures/. Until called, every other
// function here does nothing.
void pictures_enable(const char *dir, const char *kit);

// The judge of a sweep case found case_name wrong: c is the case, out its
// output grid (guards skipped). Keeps the worst z plane's per-cell errors if
// this case is the best to draw so far (see PICTURE_HEATMAP_PREFERRED_CELLS).
void pictures_offer_sweep(const char *case_name, const sweep_case *c, const float *out);

// The same for a Jacobi case: got is the returned grid (guards skipped),
// compared with the reference after iters iterations within allowed, as
// jacobi_judge compares it.
void pictures_offer_jacobi(const char *case_name, const jacobi_case *c, int iters, const float *got, double allowed);

// A case run in a worker process: forget the plane inherited from the judge
// (the worker offers its own case only), then save what it kept to path;
// the judge merges the saved plane as if the case had offered it there.
// save and merge return 0, or -1 when the file cannot be written or read
// (merge: a missing file means nothing was kept, and is no error).
void pictures_forget_offer(void);
int pictures_save_offer(const char *path);
int pictures_merge_offer(const char *path);

// No more offers: the student's cases are done (the solution's yardstick runs next).
void pictures_close_offers(void);

// Writes the data files and draws every picture run has material for;
// records for each what it shows or why it was not drawn.
void pictures_draw(const judge_run *run);

// This run's pictures, PICTURE_COUNT of them (in the order of PICTURES).
const picture_result *pictures_results(void);

// 1 if pictures are on and gnuplot could not be started.
int pictures_gnuplot_missing(void);

// The report's lines about the pictures (none when pictures are off).
void pictures_report_text(FILE *out);

// The JSON report's members, each with a leading comma: "pictures" (key ->
// path of each file written; empty when off) and "picture_notes" (when on).
void pictures_report_json(FILE *out);

#endif // STENCIL_PICTURES_H
