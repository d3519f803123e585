// grader/judge/kind_sweep.c — the sweep labs' kinds (labs 1-4, 6-8): a star
// of radius r swept once over a grid, through the cube interface
// (launch_stencil, N×N×N cases, kernels/lab.h and star13.h) or the grid one
// (launch_sweep, nx×ny×nz cases, kernels/grid.h). See lab_kind.h.
#include "lab_kind.h"

#include <stdio.h>
#include <string.h>

#include "judge_case.h"
#include "protocol.h"
#include "verdict.h"

static const char *const sweep_options[] = {NULL};  // a star's sweep: the size alone

// The sweep labs' wording of failures, for each interface (the host function it names).
static const judge_hint_words sweep_words_cube = {INTERFACE_CUBE_FUNCTION, SWEEP_WORDS_TIMEOUT, SWEEP_WORDS_LAUNCH ".", SWEEP_WORDS_FAULT "."};
static const judge_hint_words sweep_words_grid = {
    INTERFACE_GRID_FUNCTION, SWEEP_WORDS_TIMEOUT, SWEEP_WORDS_LAUNCH " (each grid dimension from its own size: nx, ny or nz).",
    SWEEP_WORDS_FAULT "; an index that mixes up nx and ny runs past the grid on a non-square plane.",
};

// 0 if case lc is a grid the grid interface grades (any nx×ny×nz, no filter
// radius), else -1 with err naming the file and line.
static int sweep_check_grid_case(const lab_conf *c, const lab_case *lc, char *err, size_t errlen)
{
    if (conf_case_opt(lc, "r")) {
        snprintf(err, errlen, "%s:%d: r= (a filter radius) belongs to the image interface's cases ('interface = image')", c->path, lc->line);
        return -1;
    }
    return 0;
}

// As sweep_check_grid_case, and the cube interface takes one N: N×N×N only.
static int sweep_check_cube_case(const lab_conf *c, const lab_case *lc, char *err, size_t errlen)
{
    if (sweep_check_grid_case(c, lc, err, errlen) != 0)
        return -1;
    if (lc->nx != lc->ny || lc->ny != lc->nz) {
        snprintf(err, errlen, "%s:%d: case %ux%ux%u is not a cube: this lab's interface is cube (%s(d_in, d_out, N), kernels/lab.h), which takes one N; write 'interface = grid' (%s, kernels/grid.h) to grade nx×ny×nz grids",
                 c->path, lc->line, lc->nx, lc->ny, lc->nz, INTERFACE_CUBE_FUNCTION, INTERFACE_GRID_FUNCTION);
        return -1;
    }
    return 0;
}

// 12r + 1 flops a point for the lab's star of radius r (STENCIL_FLOPS: 13 for star7).
static double sweep_flops(const lab_conf *c, const lab_case *lc)
{
    (void)lc;
    return STENCIL_FLOPS(c->star_radius);
}

// 1 if a case of side n, lab.conf's (on every backend) or one already
// chosen (out[0..n_out)), holds two or more whole tiles of width w past
// offset cells: n - offset a multiple of w, at least 2w.
static int sweep_tiles_covered(const lab_conf *c, const lab_case *out, int n_out, unsigned int w, unsigned int offset)
{
    for (int i = 0; i < c->ncases + n_out; i++) {
        const lab_case *lc = i < c->ncases ? &c->cases[i] : &out[i - c->ncases];
        if (!lc->noemu && lc->nx >= offset + 2 * w && (lc->nx - offset) % w == 0)
            return 1;
    }
    return 0;
}

// A kernel's tile edges are tried by lab.conf's sizes only where its tile
// width divides one of them: a tile of 13, 24 or 27 points meets no case
// whose interior is a whole number of tiles, and a last tile that goes
// wrong only when it is whole (its width taken as (N - 2) % W, zero then) passes
// every case. So, from the block of the kernel's launch: the tile widths
// it likely has, each side of the block less the star's two halos (a tile
// loaded with its halo) and each side itself (a block of output points),
// x's first; for each width w that no case covers, a cube whose interior
// is two tiles of w (N = 2w + 2r, a grid over the interior) and one whose
// side is (N = 2w, a grid over every cell), up to lab_kind_sized_cap's side, in its group.
static int sweep_sized_cube_cases(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap)
{
    const lab_case *largest = lab_kind_sized_cap(c);
    unsigned int most = largest ? largest->nx : 0, r = (unsigned int)c->star_radius, widths[6];
    int nw = 0, n = 0;
    for (int d = 0; d < 3; d++)
        for (int halo = 1; halo >= 0; halo--) {
            unsigned long long w = block[d] - (halo ? 2ull * r : 0);
            int seen = 0;
            for (int i = 0; i < nw; i++)
                seen |= widths[i] == w;
            if (block[d] > (halo ? 2ull * r : 0) && w >= 3 && 2 * w <= most && !seen)
                widths[nw++] = (unsigned int)w;
        }
    for (int i = 0; i < nw && n < cap; i++)
        for (int over_interior = 1; over_interior >= 0 && n < cap; over_interior--) {
            unsigned int offset = over_interior ? 2 * r : 0, side = 2 * widths[i] + offset;
            int listed = 0;  // (a size of lab.conf's, `noemu` too: two cases of one name would replay as one)
            for (int k = 0; k < c->ncases; k++)
                listed |= c->cases[k].nx == side;
            if (side > most || listed || sweep_tiles_covered(c, out, n, widths[i], offset))
                continue;
            lab_case *lc = &out[n++];
            memset(lc, 0, sizeof(*lc));
            lc->nx = lc->ny = lc->nz = side;
            lc->axes = 1;
            lc->sized_tile = widths[i];
            snprintf(lc->group, sizeof(lc->group), "%s", largest->group);
        }
    return n;
}

const lab_kind lab_kind_sweep_cube = {
    .name = "cube sweep", .runner = &lab_runner_sweep, .value = INTERFACE_CUBE, .is_default = 1, .star_radius_max = 2,
    .case_options = sweep_options, .check_case = sweep_check_cube_case, .case_flops = sweep_flops, .filter_radius = lab_kind_no_filter,
    .sized_cases = sweep_sized_cube_cases,
    .probe = {"lab.h", "star13.h", "void launch_stencil(float *, float *, unsigned int) {}"},
    .words = &sweep_words_cube, .verdict_words = VERDICT_WORDS_CUBE,
};

const lab_kind lab_kind_sweep_grid = {
    .name = "grid sweep", .runner = &lab_runner_sweep, .value = INTERFACE_GRID, .star_radius_max = 1,
    .case_options = sweep_options, .check_case = sweep_check_grid_case, .case_flops = sweep_flops, .filter_radius = lab_kind_no_filter,
    .sized_cases = lab_kind_no_sized_cases,
    .probe = {"grid.h", NULL, "void launch_sweep(float *, float *, unsigned int, unsigned int, unsigned int) {}"},
    .words = &sweep_words_grid, .verdict_words = VERDICT_WORDS_GRID,
};
