// grader/judge/pictures.c — see pictures.h.
#include "pictures.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jacobi_ref.h"
#include "json_write.h"
#include "lab_kind.h"
#include "protocol.h"
#include "spawn.h"
#include "stencil_ref.h"

// The heat map's codes for cells that have no ratio, in the bands of the
// colour box of grader/pictures/heatmap.gp (which names the same values);
// a judged cell's value is log10(|got - want| / allowed) clipped to
// [PICTURE_LOG_LOW, PICTURE_LOG_HIGH].
#define PICTURE_CODE_NAN              -6.5
#define PICTURE_CODE_UNWRITTEN        -5.5
#define PICTURE_CODE_BOUNDARY_CHANGED -4.5
#define PICTURE_CODE_BOUNDARY_KEPT    -3.5
#define PICTURE_LOG_LOW               -3.0
#define PICTURE_LOG_HIGH               4.0

#define PICTURE_GNUPLOT_TIMEOUT_S 60.0  // one gnuplot run; a 510x510 plane takes about a second
#define PICTURE_GNUPLOT_ENV "STENCIL_GNUPLOT"  // the gnuplot to run, when not the one on PATH

#define PICTURE_NAME(name, what) #name,
static const char *const picture_names[] = {PICTURES(PICTURE_NAME)};
#undef PICTURE_NAME
#define PICTURE_FORMAT_NAME(name, ext) #name,
static const char *const picture_format_names[] = {PICTURE_FORMATS(PICTURE_FORMAT_NAME)};
#undef PICTURE_FORMAT_NAME
#define PICTURE_FORMAT_EXT(name, ext) ext,
static const char *const picture_format_exts[] = {PICTURE_FORMATS(PICTURE_FORMAT_EXT)};
#undef PICTURE_FORMAT_EXT

// The plane of a failing case kept for the heat map.
typedef struct picture_plane {
    int have;                   // 1: a plane is kept
    char case_name[48];         // the case it comes from
    long rank;                  // how much it is preferred (picture_rank)
    size_t nx, ny, nz;          // the case's grid
    int side;                   // 0: z plane i = plane (rows j); 1: a side view, the y slice j = plane (rows i)
    size_t plane;               // the z plane kept (i), or the y slice (j) of a side view
    size_t rows;                // the picture's rows: ny, or nz for a side view
    float *values;              // nx * rows values, row after row (codes or clipped log10 ratios)
    size_t wrong;               // wrong cells in that plane
    size_t unwritten;           // of those, never written
    size_t nan_cells;           // of those, NaN
    size_t boundary_changed;    // of those, boundary cells that changed
    size_t wrong_total;         // wrong cells over the whole grid
} picture_plane;

static struct {
    int on;                     // 1 after pictures_enable
    int closed;                 // 1 after pictures_close_offers
    int gnuplot_missing;        // 1 if gnuplot could not be started
    char dir[PATH_MAX];         // where the pictures go
    char kit[PATH_MAX];         // the kit's root (the scripts are in grader/pictures/)
    picture_plane plane;        // the heat map's plane
    picture_result results[PICTURE_COUNT];
} pictures;

void pictures_enable(const char *dir, const char *kit)
{
    memset(&pictures, 0, sizeof(pictures));
    pictures.on = 1;
    snprintf(pictures.dir, sizeof(pictures.dir), "%s", dir);
    snprintf(pictures.kit, sizeof(pictures.kit), "%s", kit);
    for (int p = 0; p < PICTURE_COUNT; p++)
        pictures.results[p].name = picture_names[p];
}

void pictures_close_offers(void)
{
    pictures.closed = 1;
}

const picture_result *pictures_results(void)
{
    return pictures.results;
}

int pictures_gnuplot_missing(void)
{
    return pictures.on && pictures.gnuplot_missing;
}

// ---------------------------------------------------------------------------
// The heat map's plane
// ---------------------------------------------------------------------------

// How much a plane of cells cells is preferred: the largest up to
// PICTURE_HEATMAP_PREFERRED_CELLS, then the smallest above it.
static long picture_rank(size_t cells)
{
    return cells <= PICTURE_HEATMAP_PREFERRED_CELLS ? (long)cells : -(long)cells;
}

// 1 if a case with planes of cells cells should replace the kept plane.
static int picture_wanted(size_t cells)
{
    return pictures.on && !pictures.closed && (!pictures.plane.have || picture_rank(cells) > pictures.plane.rank);
}

// log10(err / allowed) clipped to the colour box's judged range.
static float picture_log_ratio(double err, double allowed)
{
    double r = allowed > 0 ? err / allowed : INFINITY;
    double v = r > 0 ? log10(r) : PICTURE_LOG_LOW;
    if (!(v >= PICTURE_LOG_LOW))  // also NaN
        v = isnan(v) ? PICTURE_LOG_HIGH : PICTURE_LOG_LOW;
    return (float)(v > PICTURE_LOG_HIGH ? PICTURE_LOG_HIGH : v);
}

// 1 if value has exactly the bit pattern bits.
static int picture_has_bits(float value, uint32_t bits)
{
    uint32_t b;
    memcpy(&b, &value, sizeof(b));
    return b == bits;
}

// Judges one cell of a sweep as verdict_sweep does; *value gets its code or
// log ratio, *kind 0 right, 1 wrong value, 2 never written, 3 NaN, 4 boundary
// changed. Returns 1 if the cell is wrong.
static int picture_sweep_cell(const sweep_case *c, const float *out, const double *coef, size_t i, size_t j,
                              size_t k, float *value, int *kind)
{
    size_t p = (i * c->ny + j) * c->nx + k;
    float got = out[p];
    if (!verdict_cell_written(c, i, j, k)) {
        int changed = memcmp(&got, &c->in[p], sizeof(got)) != 0;
        *value = (float)(changed ? PICTURE_CODE_BOUNDARY_CHANGED : PICTURE_CODE_BOUNDARY_KEPT);
        *kind = changed ? 4 : 0;
        return changed;
    }
    if (picture_has_bits(got, POISON_BITS)) {
        *value = (float)PICTURE_CODE_UNWRITTEN, *kind = 2;
        return 1;
    }
    if (isnan(got)) {
        *value = (float)PICTURE_CODE_NAN, *kind = 3;
        return 1;
    }
    double scale, want = verdict_expected(c, i, j, k, coef, &scale);
    double allowed = c->atol + c->rtol * scale, err = fabs((double)got - want);
    *value = picture_log_ratio(err, allowed);
    *kind = !(err <= allowed);
    return *kind;
}

// Replaces the kept plane with plane i of a case (side 1: the y slice j = i), values already filled.
static void picture_keep(const char *case_name, size_t nx, size_t ny, size_t nz, int side, size_t i, float *values,
                         const size_t counts[5], size_t wrong_total)
{
    free(pictures.plane.values);
    picture_plane *pl = &pictures.plane;
    pl->have = 1;
    snprintf(pl->case_name, sizeof(pl->case_name), "%s", case_name);
    pl->rank = picture_rank(nx * ny);
    pl->nx = nx, pl->ny = ny, pl->nz = nz, pl->plane = i;
    pl->side = side;
    pl->rows = side ? nz : ny;
    pl->values = values;
    pl->wrong = counts[1] + counts[2] + counts[3] + counts[4];
    pl->unwritten = counts[2];
    pl->nan_cells = counts[3];
    pl->boundary_changed = counts[4];
    pl->wrong_total = wrong_total;
}

// The first plane with the most wrong cells of per_plane (nz entries), or nz if none is wrong.
static size_t picture_worst_plane(const size_t *per_plane, size_t nz)
{
    size_t worst = nz;
    for (size_t i = 0; i < nz; i++)
        if (per_plane[i] && (worst == nz || per_plane[i] > per_plane[worst]))
            worst = i;
    return worst;
}

// 1 when the wrong cells of a sweep lie in whole z planes: every plane's written
// cells all wrong or all right, some of each. No z plane shows such a pattern
// (the worst is one colour edge to edge), so the heat map is a side view.
static int picture_whole_planes(const size_t *wrong, const size_t *right, size_t nz)
{
    int some_wrong = 0, some_right = 0;
    for (size_t i = 0; i < nz; i++) {
        if (wrong[i] && right[i])
            return 0;
        some_wrong |= wrong[i] > 0;
        some_right |= right[i] > 0;
    }
    return some_wrong && some_right;
}

void pictures_offer_sweep(const char *case_name, const sweep_case *c, const float *out)
{
    size_t plane_cells = c->nx * c->ny, total = 0, counts[5] = {0};
    if (!picture_wanted(plane_cells) || plane_cells == 0)
        return;
    double coef[VERDICT_MAX_WEIGHTS];
    for (int n = 0; n < VERDICT_MAX_WEIGHTS; n++)
        coef[n] = c->coef[n];
    size_t *per_plane = calloc(c->nz, sizeof(size_t)), *right = calloc(c->nz, sizeof(size_t));
    float *values = malloc((plane_cells > c->nx * c->nz ? plane_cells : c->nx * c->nz) * sizeof(float));
    int kind;
    if (!per_plane || !right || !values)
        goto done;
    long nz = (long)c->nz;
#pragma omp parallel for schedule(static) if (c->nx * c->ny * c->nz > 1000000)
    for (long i = 0; i < nz; i++) {  // each plane's counts its own: the threads share nothing
        float cell_value;
        int cell_kind;
        for (size_t j = 0; j < c->ny; j++)
            for (size_t k = 0; k < c->nx; k++) {
                int wrong = picture_sweep_cell(c, out, coef, (size_t)i, j, k, &cell_value, &cell_kind);
                per_plane[i] += (size_t)wrong;
                right[i] += (size_t)(!wrong && verdict_cell_written(c, (size_t)i, j, k));
            }
    }
    size_t worst = picture_worst_plane(per_plane, c->nz);
    if (worst == c->nz)
        goto done;
    for (size_t i = 0; i < c->nz; i++)
        total += per_plane[i];
    if (picture_whole_planes(per_plane, right, c->nz)) {  // the y slice through the middle: a row per z plane
        size_t j = c->ny / 2;
        for (size_t i = 0; i < c->nz; i++)
            for (size_t k = 0; k < c->nx; k++) {
                picture_sweep_cell(c, out, coef, i, j, k, &values[i * c->nx + k], &kind);
                counts[kind]++;
            }
        picture_keep(case_name, c->nx, c->ny, c->nz, 1, j, values, counts, total);
    } else {
        for (size_t j = 0; j < c->ny; j++)
            for (size_t k = 0; k < c->nx; k++) {
                picture_sweep_cell(c, out, coef, worst, j, k, &values[j * c->nx + k], &kind);
                counts[kind]++;
            }
        picture_keep(case_name, c->nx, c->ny, c->nz, 0, worst, values, counts, total);
    }
    values = NULL;
done:
    free(per_plane);
    free(right);
    free(values);
}

void pictures_offer_jacobi(const char *case_name, const jacobi_case *c, int iters, const float *got, double allowed)
{
    size_t nx = c->g.nx, ny = c->g.ny, nz = c->g.nz, cells = nx * ny * nz, total = 0, counts[5] = {0};
    if (!picture_wanted(nx * ny) || cells == 0 || iters < 0 || iters > c->max_iters)
        return;
    double *ref = malloc(cells * sizeof(double));
    size_t *per_plane = calloc(nz, sizeof(size_t));
    float *values = malloc(nx * ny * sizeof(float));
    jacobi_run run = {iters, 0, 0.0, JACOBI_EXACT};
    jacobi_outcome outcome;
    memset(&outcome, 0, sizeof(outcome));
    if (!ref || !per_plane || !values || jacobi_ref_solve(&c->g, c->u0, c->f, &run, ref, &outcome) != 0)
        goto done;
    for (size_t p = 0; p < cells; p++)  // as jacobi_judge: every cell, the boundary included; NaN is never close
        per_plane[p / (nx * ny)] += (size_t)!(fabs((double)got[p] - ref[p]) <= allowed);
    size_t worst = picture_worst_plane(per_plane, nz);
    if (worst == nz)
        goto done;
    for (size_t i = 0; i < nz; i++)
        total += per_plane[i];
    for (size_t q = 0; q < nx * ny; q++) {
        size_t p = worst * nx * ny + q;
        double err = fabs((double)got[p] - ref[p]);
        int nan = isnan(got[p]), wrong = !(err <= allowed);
        values[q] = nan ? (float)PICTURE_CODE_NAN : picture_log_ratio(err, allowed);
        counts[nan ? 3 : wrong]++;
    }
    picture_keep(case_name, nx, ny, nz, 0, worst, values, counts, total);
    values = NULL;
done:
    free(ref);
    free(per_plane);
    free(values);
}

void pictures_forget_offer(void)
{
    free(pictures.plane.values);
    memset(&pictures.plane, 0, sizeof(pictures.plane));
}

int pictures_save_offer(const char *path)
{
    const picture_plane *pl = &pictures.plane;
    if (!pl->have)
        return 0;
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(pl, sizeof(*pl), 1, f) == 1 && fwrite(pl->values, sizeof(float), pl->nx * pl->rows, f) == pl->nx * pl->rows;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int pictures_merge_offer(const char *path)
{
    picture_plane got;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    int ok = fread(&got, sizeof(got), 1, f) == 1 && got.have && got.rows == (got.side ? got.nz : got.ny) &&
             got.nx * got.rows <= ((size_t)1 << 28);
    float *values = ok ? malloc(got.nx * got.rows * sizeof(float)) : NULL;
    ok = ok && values && fread(values, sizeof(float), got.nx * got.rows, f) == got.nx * got.rows;
    fclose(f);
    if (!ok || !picture_wanted(got.nx * got.ny)) {
        free(values);
        return ok ? 0 : -1;
    }
    const size_t counts[5] = {0, got.wrong - got.unwritten - got.nan_cells - got.boundary_changed, got.unwritten,
                              got.nan_cells, got.boundary_changed};  // as picture_keep counts them
    picture_keep(got.case_name, got.nx, got.ny, got.nz, got.side, got.plane, values, counts, got.wrong_total);
    return 0;
}

// ---------------------------------------------------------------------------
// Data files
// ---------------------------------------------------------------------------

// Sets the path of picture p's file in format f.
static char *picture_path(int p, int f)
{
    char *path = pictures.results[p].path[f];
    snprintf(path, PATH_MAX, "%s/%s.%s", pictures.dir, picture_names[p], picture_format_exts[f]);
    return path;
}

// Removes every picture file an earlier run may have left in the folder.
static void picture_remove_old(void)
{
    for (int p = 0; p < PICTURE_COUNT; p++)
        for (int f = 0; f < PICTURE_FORMAT_COUNT; f++) {
            unlink(picture_path(p, f));
            pictures.results[p].path[f][0] = '\0';
        }
}

// Writes " (N never written, N NaN, N boundary cells changed)" into buf,
// naming only the kinds the kept plane has ("" when none).
static const char *picture_kinds(char *buf, size_t len)
{
    const picture_plane *pl = &pictures.plane;
    const size_t counts[3] = {pl->unwritten, pl->nan_cells, pl->boundary_changed};
    static const char *words[3] = {"never written", "NaN", "boundary cells changed"};
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3; i++)
        if (counts[i] && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : " (", counts[i], words[i]);
    if (used && used < len)
        snprintf(buf + used, len - used, ")");
    return buf;
}

// Which cut of the grid the heat map shows, in words.
static const char *picture_cut(const picture_plane *pl, char *buf, size_t len)
{
    if (pl->side)
        snprintf(buf, len, "side view, the y slice j = %zu (the wrong cells fill whole z planes, so each shows as a row)", pl->plane);
    else
        snprintf(buf, len, "z plane i = %zu (the one with the most wrong cells)", pl->plane);
    return buf;
}

// Writes the heat map's data file; returns 0, or -1 (path cleared).
static int picture_write_heatmap(const judge_run *run)
{
    const picture_plane *pl = &pictures.plane;
    char *path = picture_path(PICTURE_heatmap, PICTURE_FORMAT_data);
    FILE *f = fopen(path, "w");
    if (!f) {
        path[0] = '\0';
        return -1;
    }
    char cut[160];
    fprintf(f, "# Stencil Labs heat map: lab %d, case %s (%zux%zux%zu), %s\n", run->lab_number, pl->case_name, pl->nx, pl->ny,
            pl->nz, picture_cut(pl, cut, sizeof(cut)));
    fprintf(f, "# %zu of %zu cells of this cut wrong (%zu never written, %zu NaN, %zu boundary cells changed); %zu in the whole grid\n",
            pl->wrong, pl->nx * pl->rows, pl->unwritten, pl->nan_cells, pl->boundary_changed, pl->wrong_total);
    fprintf(f, "# columns: k %s value; value = log10(|got - want| / allowed) clipped to [%g, %g], or a code:\n",
            pl->side ? "i" : "j", PICTURE_LOG_LOW, PICTURE_LOG_HIGH);
    fprintf(f, "#   %g NaN, %g never written, %g boundary cell changed, %g boundary cell kept\n", PICTURE_CODE_NAN,
            PICTURE_CODE_UNWRITTEN, PICTURE_CODE_BOUNDARY_CHANGED, PICTURE_CODE_BOUNDARY_KEPT);
    for (size_t j = 0; j < pl->rows; j++) {
        for (size_t k = 0; k < pl->nx; k++)
            fprintf(f, "%zu %zu %.4g\n", k, j, pl->values[j * pl->nx + k]);
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        unlink(path);
        path[0] = '\0';
        return -1;
    }
    return 0;
}

// The first timed case with a timing, or NULL.
static const case_result *picture_timed_case(const judge_run *run)
{
    for (int i = 0; i < run->ncases; i++)
        if (run->cases[i].timed && run->cases[i].status == CASE_OK)
            return &run->cases[i];
    return NULL;
}

// One vertical OP/B line of the roofline.
typedef struct picture_opb {
    double x;                   // OP/B
    char label[96];             // what it is
} picture_opb;

// Where timed case c sits on the roofline's OP/B axis: its measured DRAM
// OP/B when profiled, else the book's (t, the first timed case, at at);
// 0 when it has no point (not timed, failed, or no OP/B known).
static double picture_case_opb(const judge_run *run, const case_result *c, const case_result *t, double at)
{
    if (!c->timed || c->status != CASE_OK || !(c->gpoints > 0))
        return 0;
    if (c->profiled && c->dram_bytes > 0)
        return c->flops / c->dram_bytes;
    return c == t ? at : run->opb_valid ? run->opb.book : 0;
}

// Writes the roofline's data file for timed case t; fills why (returns -1)
// when there is nothing to place.
static int picture_write_roofline(const judge_run *run, const case_result *t, char *why, size_t len)
{
    picture_opb lines[3];
    int n = 0, dram = -1;
    double fpp = lab_kind_of(&run->conf)->case_flops(&run->conf, &t->spec);
    double gflops = fpp * t->gpoints, bw = t->bandwidth_gbs;
    if (!(bw > 0) || !(gflops > 0)) {
        snprintf(why, len, "not drawn: no copy bandwidth was measured in this run");
        return -1;
    }
    if (run->opb_valid && run->opb.book > 0) {
        lines[n].x = run->opb.book;
        snprintf(lines[n++].label, sizeof(lines[0].label), "book's model: %.2f", run->opb.book);
    }
    if (t->profiled && t->dram_bytes > 0 && t->load_bytes > 0) {
        dram = n;
        lines[n].x = t->flops / t->dram_bytes;
        snprintf(lines[n++].label, sizeof(lines[0].label), "DRAM, measured: %.2f", t->flops / t->dram_bytes);
        lines[n].x = t->flops / t->load_bytes;
        snprintf(lines[n++].label, sizeof(lines[0].label), "loads requested, measured: %.2f", t->flops / t->load_bytes);
    }
    if (n == 0) {
        snprintf(why, len, "not drawn: no OP/B to place the kernel at (the kernel declares no tile size for the book's model, and PROFILE=1 measured none)");
        return -1;
    }
    // The kernel sits at its DRAM OP/B when measured (the roofline's own axis), else at the book's.
    double at = dram >= 0 ? lines[dram].x : lines[0].x, lo = at, hi = at;
    for (int i = 0; i < n; i++)
        lo = lines[i].x < lo ? lines[i].x : lo, hi = lines[i].x > hi ? lines[i].x : hi;
    for (int i = 0; i < run->ncases; i++) {  // every timed case's point inside the picture
        double x = picture_case_opb(run, &run->cases[i], t, at);
        if (x > 0)
            lo = x < lo ? x : lo, hi = x > hi ? x : hi;
    }
    lo /= 5.0, hi *= 10.0;
    if (bw * lo > gflops / 2.0)
        lo = gflops / 2.0 / bw;
    char *path = picture_path(PICTURE_roofline, PICTURE_FORMAT_data);
    FILE *f = fopen(path, "w");
    if (!f) {
        path[0] = '\0';
        snprintf(why, len, "not drawn: cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# Stencil Labs roofline: lab %d, case %s on %s; %.0f flops a point, %.1f GPoints/s in %.4f ms (median of %d)\n",
            run->lab_number, t->name, run->device, fpp, t->gpoints, t->time_ms, t->time_reps);
    fprintf(f, "# roof: the copy bandwidth measured in this run, %.1f GB/s, times OP/B; the kit does not know this GPU's peak fp32 rate\n", bw);
    fprintf(f, "# index 0: the roof (OP/B GFLOP/s)\n%.6g %.6g\n%.6g %.6g\n\n\n", lo, bw * lo, hi, bw * hi);
    fprintf(f, "# index 1: OP/B figures (OP/B \"label\" row)\n");
    for (int i = 0; i < n; i++) {  // a label whose line lies close to an earlier one goes on a row above it
        int row = 0;
        for (int e = 0; e < i; e++)
            row += fabs(log10(lines[i].x / lines[e].x)) < 0.15;
        fprintf(f, "%.6g \"%s\" %d\n", lines[i].x, lines[i].label, row);
    }
    // The kernel on every timed case that passed (the first is t), each at its own measured DRAM OP/B
    // when it has one, else at the book's; the roof is t's (each case measures nearly the same copy bandwidth).
    fprintf(f, "\n\n# index 2: the kernel on each timed case (OP/B GFLOP/s \"label\")\n");
    for (int i = 0; i < run->ncases; i++) {
        const case_result *c = &run->cases[i];
        double c_at = picture_case_opb(run, c, t, at);
        double c_gflops = lab_kind_of(&run->conf)->case_flops(&run->conf, &c->spec) * c->gpoints;
        if (c_at > 0)
            fprintf(f, "%.6g %.6g \"%s: %.0f GFLOP/s = %.0f%% of the roof at OP/B %.2f\"\n", c_at, c_gflops, c->name, c_gflops,
                    100.0 * c_gflops / (bw * c_at), c_at);
    }
    if (fclose(f) != 0) {
        unlink(path);
        path[0] = '\0';
        snprintf(why, len, "not drawn: cannot write the roofline's data file");
        return -1;
    }
    snprintf(why, len, "%s: %.0f GFLOP/s at OP/B %.2f (%s) under a roof of %.0f GB/s x OP/B; bandwidth roof only: the kit does not know this GPU's peak fp32 rate",
             t->name, gflops, at, dram >= 0 ? "DRAM, measured" : "the book's model", bw);
    return 0;
}

// ---------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------

// Runs gnuplot on picture p's data file with title; fills its png and svg
// paths, or says in its note why not. Returns 0, or -1 when gnuplot could not start.
static int picture_render(int p, const char *title)
{
    picture_result *r = &pictures.results[p];
    char script[PATH_MAX + 64], stem[PATH_MAX + 8], log_path[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    snprintf(script, sizeof(script), "%s/grader/pictures/%s.gp", pictures.kit, picture_names[p]);
    snprintf(stem, sizeof(stem), "%s/%s", pictures.dir, picture_names[p]);
    snprintf(log_path, sizeof(log_path), "%s/gnuplot-%d.log", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    const char *gnuplot = getenv(PICTURE_GNUPLOT_ENV);
    // The heat map's rows: j (a z plane) or i (a side view), its fourth argument.
    char *rows = p == PICTURE_heatmap && pictures.plane.side ? "i (z, the plane)" : "j (y, the row)";
    char *argv[] = {(char *)(gnuplot && *gnuplot ? gnuplot : "gnuplot"), "-c", script, r->path[PICTURE_FORMAT_data], stem, (char *)title, rows, NULL};
    spawn_limits lim = {PICTURE_GNUPLOT_TIMEOUT_S, 0, 0, NULL, 0, 0, SPAWN_NICE_BESIDE, 0, NULL, NULL, NULL};
    spawn_result s = spawn_run(argv, NULL, log_path, &lim);
    if (!s.started) {
        unlink(log_path);
        return -1;
    }
    int drawn = s.exited && s.exit_code == 0;
    for (int f = PICTURE_FORMAT_png; f <= PICTURE_FORMAT_svg; f++) {
        char *path = picture_path(p, f);
        if (!drawn || access(path, R_OK) != 0)
            path[0] = '\0', drawn = 0;
    }
    if (!drawn) {
        char tail[300];
        spawn_log_tail(log_path, 2, tail, sizeof(tail));
        tail[strcspn(tail, "\n")] = ' ';
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof(r->note) - used, "%sgnuplot failed: %s", used ? "; " : "",
                 s.timed_out ? "it ran out of time" : tail);
    }
    unlink(log_path);
    return 0;
}

void pictures_draw(const judge_run *run)
{
    char title[512], cut[160];
    if (!pictures.on)
        return;
    picture_remove_old();
    picture_result *heat = &pictures.results[PICTURE_heatmap], *roof = &pictures.results[PICTURE_roofline];
    const picture_plane *pl = &pictures.plane;
    char kinds[120] = "";
    if (pl->have && picture_write_heatmap(run) == 0)
        snprintf(heat->note, sizeof(heat->note), "%s, %s: %zu of its %zu cells wrong%s", pl->case_name,
                 picture_cut(pl, cut, sizeof(cut)), pl->wrong, pl->nx * pl->rows, picture_kinds(kinds, sizeof(kinds)));
    else if (pl->have)
        snprintf(heat->note, sizeof(heat->note), "not drawn: cannot write its data file in %s", pictures.dir);
    else
        snprintf(heat->note, sizeof(heat->note), "%s", run->failed ? "not drawn: no failing case left a grid with wrong cells (its failure was of another kind)"
                                                                   : "not drawn: no case has wrong cells");
    const case_result *t = picture_timed_case(run);
    if (!strcmp(run->backend, "emu"))
        snprintf(roof->note, sizeof(roof->note), "not drawn: CPU emulation measures no time, so there is no GFLOP/s to place (run on a GPU)");
    else if (!t)
        snprintf(roof->note, sizeof(roof->note), "not drawn: no timed case passed in this run");
    else
        picture_write_roofline(run, t, roof->note, sizeof(roof->note));
    for (int p = 0; p < PICTURE_COUNT; p++) {
        if (!pictures.results[p].path[PICTURE_FORMAT_data][0])
            continue;
        if (p == PICTURE_heatmap)
            snprintf(title, sizeof(title), "lab %d, %s: %s %s = %zu, %zu of %zu cells wrong%s", run->lab_number, pl->case_name,
                     pl->side ? "side view, y slice" : "z plane", pl->side ? "j" : "i", pl->plane, pl->wrong, pl->nx * pl->rows, kinds);
        else
            snprintf(title, sizeof(title), "lab %d, %s on %s, copy bandwidth %.0f GB/s measured in this run\nbandwidth roof only: the kit does not know this GPU's peak fp32 rate",
                     run->lab_number, t->name, run->device, t->bandwidth_gbs);
        if (picture_render(p, title) != 0) {
            pictures.gnuplot_missing = 1;
            break;
        }
    }
}

// ---------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------

void pictures_report_text(FILE *out)
{
    if (!pictures.on)
        return;
    if (pictures.gnuplot_missing) {
        fprintf(out, "pictures: gnuplot is not installed; install gnuplot to get them (their data files are in %s)\n", pictures.dir);
        return;
    }
    int first = 1;
    for (int p = 0; p < PICTURE_COUNT; p++) {
        const picture_result *r = &pictures.results[p];
        if (!r->note[0])
            continue;
        fprintf(out, "%s%-9s ", first ? "pictures: " : "          ", r->name);
        if (r->path[PICTURE_FORMAT_png][0])
            fprintf(out, "%s (and .svg): ", r->path[PICTURE_FORMAT_png]);
        fprintf(out, "%s\n", r->note);
        first = 0;
    }
}

void pictures_report_json(FILE *out)
{
    int n = 0;
    json_write_to(out);
    fprintf(out, ", \"pictures\": {");
    for (int p = 0; pictures.on && p < PICTURE_COUNT; p++)
        for (int f = 0; f < PICTURE_FORMAT_COUNT; f++) {
            if (!pictures.results[p].path[f][0])
                continue;
            fprintf(out, "%s\"%s_%s\": ", n++ ? ", " : "", picture_names[p], picture_format_names[f]);
            json_string(pictures.results[p].path[f]);
        }
    fprintf(out, "}");
    if (!pictures.on)
        return;
    fprintf(out, ", \"picture_notes\": {");
    n = 0;
    for (int p = 0; p < PICTURE_COUNT; p++) {
        const picture_result *r = &pictures.results[p];
        if (!r->note[0] && !pictures.gnuplot_missing)
            continue;
        fprintf(out, "%s\"%s\": ", n++ ? ", " : "", r->name);
        if (pictures.gnuplot_missing) {
            char note[sizeof(r->note) + 80];
            snprintf(note, sizeof(note), "gnuplot is not installed; install gnuplot to get it%s%s", r->note[0] ? " — " : "", r->note);
            json_string(note);
        } else {
            json_string(r->note);
        }
    }
    fprintf(out, "}");
}
