// grader/judge/judge_jacobi.c — the whole-solve labs' cases (see
// judge_jacobi.h): draws the grids from the case seed, starts runner_jacobi
// under the lab's limits, reads back both buffers and the solver's report,
// and hands them to jacobi_verdict.c. Mirrors judge_case.c, which does the
// same for a sweep. lab.conf's `update` says which update a step applies:
// Jacobi's (labs 5 and 9) or the 2D heat step (lab 10).
//
// Case options of the Jacobi update (lab.conf, after the size):
//   bc=dirichlet|neumann|periodic   the boundary condition (default dirichlet)
//   iters=K                         max_iters (default 20)
//   check=C                         residual after every C-th iteration (default 0: never)
//   tol=T                           stop at a check whose residual is below T (default 0: never)
//   h=H                             grid spacing (default 1/(nx-1))
//   mms=1                           the manufactured solution instead of random grids (a cube, Dirichlet)
// Random grids: u uniform in [-1, 1] (a boundary cell holds its source's
// value, so u0 obeys the boundary condition), and f = g/h² with g uniform in
// [-1, 1], so that the h²f term of a sweep is as large as u itself and a
// wrong source term cannot hide; both drawn from one grid seed by
// grader/protocol/grid_fill.h's rule, which the executor follows on the GPU
// (--fill: no grid file on a GPU, and a large case judged there, --gpu-check).
// Two mms cases in a row, the second with a smaller h, form the convergence
// pair: the second one's note reports the error ratio, which must show
// second order (error ∝ h²).
//
// Case options of the heat update (the size is NXxNY):
//   steps=K                         time steps (default 20)
//   r=R                             r = alpha dt / h², in (0, 1/4] (default: drawn in [0.05, 0.25) per case)
// Heat grids: the interior uniform in [-1, 1], each of the four edges one
// temperature uniform in [-1, 1] (protocol_heat_edge), f = 0 (unused). Rows
// are stored padded to protocol_heat_pitch(nx) floats: the judge writes the
// padding as PAD_BITS, checks it after the run (padding-written) and hands
// the verdict the grids without it.
#include "judge_files.h"
#include "judge_jacobi.h"
#include "technique.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grid_fill.h"
#include "grid_memory.h"
#include "jacobi_ref.h"
#include "jacobi_verdict.h"
#include "lab_kind.h"
#include "pictures.h"
#include "protocol.h"
#include "rng.h"
#include "spawn.h"
#include "verdict.h"


#define JACOBI_BYTES_PER_POINT 12.0  // a sweep's least traffic per interior point: read u and f, write v
#define HEAT_BYTES_PER_POINT 8.0     // a heat step's: read u, write v

typedef struct jacobi_spec {
    jacobi_case c;              // the case as the verdict sees it (grids filled in later)
    uint64_t grid_seed;         // the seed u0 and f were drawn from (grid_fill.h; 0 for an mms case)
    int drawn;                  // 1: the executor draws u0 and f on the GPU from grid_seed (no files)
    int gpu_check;              // 1: drawn and large: the executor judges the checked solve (GPU_CHECK_SOLVE)
    double scale;               // gpu_check: max |u0| + h^2 max |f| / 6, no more than the verdict's scale
    uint64_t drawn_sum;         // drawn: the sum the executor must report of the grids it drew (jacobi_drawn_facts)
    float *grids;               // u0 then f, once drawn (jacobi_grids), or NULL
    int heat;                   // 1: the heat update (lab.conf's update = heat2d)
    size_t pitch;               // floats a stored row takes: nx, or for heat nx rounded up (protocol_heat_pitch)
    int rate_given;             // heat: 1 if r= fixed r, 0 if it is drawn
    int mms;                    // 1: manufactured solution
    int timed;                  // 1: a timing case (on a GPU)
    char error[160];            // a bad option, or "" when the spec is usable
} jacobi_spec;

typedef struct jacobi_mms_memory {
    int valid;                  // 1 after an mms case passed
    double h;                   // its spacing
    double err;                 // its max error against the exact solution
} jacobi_mms_memory;

static jacobi_mms_memory jacobi_mms_last;  // the previous mms case of this judge run

static int jacobi_early_take(const jacobi_early *e, const jacobi_spec *s, uint64_t seed, jacobi_reference *ref);

typedef struct jacobi_files {
    const float *a, *b, *f_after, *timed, *order2;  // the buffers as the verdict reads them, guard | grid | guard (NULL: absent)
    const float *mapped[5];                         // the mapped files, padded rows and all (NULL: absent)
    float *compact[5];                              // padded grids: the copies without padding that a..order2 point to
    size_t bytes;                                   // each mapping's length
} jacobi_files;

// ---------------------------------------------------------------------------
// The case's options and grids
// ---------------------------------------------------------------------------

// Parses an integer option (>= 0) into *out; returns 0 or -1.
static int jacobi_opt_int(const lab_case *spec, const char *key, int fallback, int *out)
{
    const char *v = conf_case_opt(spec, key);
    char *end = NULL;
    *out = fallback;
    if (!v)
        return 0;
    long x = strtol(v, &end, 10);
    if (*end || x < 0 || x > 1000000)
        return -1;
    *out = (int)x;
    return 0;
}

// Parses a number option (>= 0) into *out; returns 0 or -1.
static int jacobi_opt_number(const lab_case *spec, const char *key, double fallback, double *out)
{
    const char *v = conf_case_opt(spec, key);
    char *end = NULL;
    *out = fallback;
    if (!v)
        return 0;
    *out = strtod(v, &end);
    return (*end || !(*out >= 0)) ? -1 : 0;
}

// Names the first option of spec the update does not know (known: a
// NULL-terminated list), or NULL.
static const char *jacobi_unknown_opt(const lab_case *spec, const char *const *known)
{
    for (int i = 0; i < spec->nopts; i++) {
        int ok = 0;
        for (size_t q = 0; known[q]; q++)
            ok |= !strcmp(spec->opt_key[i], known[q]);
        if (!ok)
            return spec->opt_key[i];
    }
    return NULL;
}

// Reads a heat case's options into s (steps=, r=); s->error says what is
// wrong, if anything.
static void jacobi_read_heat_spec(const lab_conf *conf, const lab_case *spec, jacobi_spec *s)
{
    const char *unknown = jacobi_unknown_opt(spec, lab_kind_of(conf)->case_options);
    double r = 0.0;
    int bad = jacobi_opt_int(spec, "steps", 20, &s->c.max_iters) | jacobi_opt_number(spec, "r", 0.0, &r);
    s->heat = 1;
    s->c.g.update = JACOBI_UPDATE_HEAT2D;
    s->c.g.bc = JACOBI_BC_DIRICHLET;
    s->c.g.h = 1.0;  // not the student's: r carries dt and h
    s->rate_given = conf_case_opt(spec, "r") != NULL;
    s->c.g.rate = (double)(float)r;  // the student gets a float: the reference uses the same number
    s->pitch = (size_t)protocol_heat_pitch(spec->nx);
    if (unknown)
        snprintf(s->error, sizeof(s->error), "unknown case option '%s' (the heat update knows steps, r)", unknown);
    else if (bad || s->c.max_iters < 1 || (s->rate_given && !(s->c.g.rate > 0 && s->c.g.rate <= 0.25)))
        snprintf(s->error, sizeof(s->error), "steps must be a whole number >= 1 and r a number in (0, 0.25] (the stable steps)");
    else if (spec->axes != 2 || spec->nx < 3 || spec->ny < 3)
        snprintf(s->error, sizeof(s->error), "a heat case is a 2D grid NXxNY with at least 3 points per axis (one interior layer)");
}

// Reads spec's options into s; s->error says what is wrong, if anything.
static void jacobi_read_spec(const lab_conf *conf, const lab_case *spec, jacobi_spec *s)
{
    const char *bc = conf_case_opt(spec, "bc"), *unknown = jacobi_unknown_opt(spec, lab_kind_of(conf)->case_options);
    double h, tol;
    memset(s, 0, sizeof(*s));
    s->c.g.nx = spec->nx, s->c.g.ny = spec->ny, s->c.g.nz = spec->nz;
    s->timed = spec->timed;
    s->pitch = spec->nx;
    s->c.rtol = conf->rtol;
    s->c.atol = conf->atol;
    if (lab_kind_of(conf)->solve_update == JACOBI_UPDATE_HEAT2D) {
        jacobi_read_heat_spec(conf, spec, s);
        return;
    }
    s->c.g.bc = bc ? jacobi_bc_parse(bc) : JACOBI_BC_DIRICHLET;
    const lab_technique *technique = technique_find(conf->technique);
    s->c.blocked = technique && technique->time_blocked;
    int bad = jacobi_opt_int(spec, "iters", 20, &s->c.max_iters) | jacobi_opt_int(spec, "check", 0, &s->c.check_every) |
              jacobi_opt_int(spec, "mms", 0, &s->mms) | jacobi_opt_number(spec, "tol", 0.0, &tol) |
              jacobi_opt_number(spec, "h", spec->nx > 1 ? 1.0 / (spec->nx - 1) : 1.0, &h);
    s->c.g.h = (double)(float)h;  // the student gets a float: the reference uses the same number
    s->c.tol = (double)(float)tol;
    if (unknown)
        snprintf(s->error, sizeof(s->error), "unknown case option '%s' (lab 5 knows bc, iters, check, tol, h, mms)", unknown);
    else if (s->c.g.bc < 0)
        snprintf(s->error, sizeof(s->error), "bc must be dirichlet, neumann or periodic, not '%s'", bc);
    else if (bad || !(s->c.g.h > 0))
        snprintf(s->error, sizeof(s->error), "iters, check, mms must be whole numbers >= 0 and h, tol numbers (h > 0)");
    else if (spec->nx < 3 || spec->ny < 3 || spec->nz < 3)
        snprintf(s->error, sizeof(s->error), "lab 5 grids need at least 3 points per axis (one interior layer)");
    else if (s->mms && (spec->nx != spec->ny || spec->ny != spec->nz || s->c.g.bc != JACOBI_BC_DIRICHLET))
        snprintf(s->error, sizeof(s->error), "an mms case is a cube with bc=dirichlet (the exact solution vanishes on the faces of the unit cube)");
}

// Draws case s's numbers from seed: for a heat case r (unless r= fixed
// it), then the grid seed its grids come from (s->grid_seed; 0 for an mms
// case, whose grids are the manufactured solution's).
static void jacobi_draw_seed(jacobi_spec *s, uint64_t seed)
{
    rng r;
    s->grid_seed = 0;
    if (s->mms && !s->heat)
        return;
    rng_init(&r, seed);
    if (s->heat) {
        float rate = (float)(0.15 + 0.1 * (double)rng_unit(&r));  // [0.05, 0.25): every step stable, no two cases alike
        if (!s->rate_given)
            s->c.g.rate = (double)rate;
    }
    s->grid_seed = rng_next(&r);
}

// Row row (= i * ny + j) of case s's starting grids into u and f (nx
// floats each), from s->grid_seed by grid_fill.h's rule, as the executor
// draws them on the GPU: a heat cell an edge's temperature or its own value
// (f = 0); a Jacobi cell its source's value (jacobi_source: itself inside)
// and g / h^2. The cells inside the row (1..nx-2 of a row not on an edge)
// are drawn in one plain loop, which RNG_WIDE callers run in vectors.
static inline __attribute__((always_inline)) void jacobi_fill_row(const jacobi_spec *s, size_t row, float *u, float *f)
{
    const jacobi_grid *g = &s->c.g;
    size_t nx = g->nx, i = row / g->ny, j = row % g->ny, at = row * nx, last = nx - 1;
    uint64_t seed = s->grid_seed;
    float h = (float)g->h;  // exact: the case's h is a float
    if (s->heat && (j == 0 || j == g->ny - 1)) {  // a y edge: every cell an edge's
        for (size_t k = 0; k < nx; k++)
            u[k] = grid_fill_heat_edge(seed, protocol_heat_edge(j, k, nx, g->ny)), f[k] = 0.0f;
        return;
    }
    if (s->heat) {
        for (size_t k = 1; k < last; k++)
            u[k] = grid_fill_solve_u0(seed, at + k), f[k] = 0.0f;
        u[0] = grid_fill_heat_edge(seed, protocol_heat_edge(j, 0, nx, g->ny)), f[0] = 0.0f;
        u[last] = grid_fill_heat_edge(seed, protocol_heat_edge(j, last, nx, g->ny)), f[last] = 0.0f;
        return;
    }
    size_t src = (jacobi_source(i, g->nz, g->bc) * g->ny + jacobi_source(j, g->ny, g->bc)) * nx;
    for (size_t k = 1; k < last; k++)
        u[k] = grid_fill_solve_u0(seed, src + k), f[k] = grid_fill_solve_f(seed, at + k, h);
    u[0] = grid_fill_solve_u0(seed, src + jacobi_source(0, nx, g->bc)), f[0] = grid_fill_solve_f(seed, at, h);
    u[last] = grid_fill_solve_u0(seed, src + jacobi_source(last, nx, g->bc)), f[last] = grid_fill_solve_f(seed, at + last, h);
}

// Every row of case s's grids into u0 and f (a random case's).
RNG_WIDE static void jacobi_fill_rows(const jacobi_spec *s, float *u0, float *f)
{
    const jacobi_grid *g = &s->c.g;
    long rows = (long)(g->ny * g->nz);
#pragma omp parallel for schedule(static) if (jacobi_cells(g) > ((size_t)1 << 22))
    for (long row = 0; row < rows; row++)
        jacobi_fill_row(s, (size_t)row, u0 + (size_t)row * g->nx, f + (size_t)row * g->nx);
}

// Fills u0 and f of case s (jacobi_draw_seed first).
static void jacobi_fill(const jacobi_spec *s, float *u0, float *f)
{
    if (s->mms && !s->heat)
        jacobi_mms_fill(&s->c.g, u0, f);
    else
        jacobi_fill_rows(s, u0, f);
}

// What the judge checks of a drawn case's grids, a row at a time with no
// grid in memory: the sum the executor reports of the grids it drew
// (rng_grid_sum's of u0, key 0, plus f's, key 1), max |u0| and max |f|.
// Returns 0, or -1 out of memory.
RNG_WIDE static int jacobi_drawn_sums(const jacobi_spec *s, uint64_t *sum_out, double *umax_out, double *fmax_out)
{
    const jacobi_grid *g = &s->c.g;
    long rows = (long)(g->ny * g->nz);
    size_t nx = g->nx;
    uint64_t sum = 0;
    double umax = 0, fmax = 0;
    int lost = 0;
#pragma omp parallel reduction(+ : sum, lost) reduction(max : umax, fmax) if (jacobi_cells(g) > ((size_t)1 << 22))
    {
        float *u = malloc(2 * nx * sizeof(float)), *f = u ? u + nx : NULL;  // this thread's row
        lost += !u;
#pragma omp for schedule(static)
        for (long row = 0; row < rows; row++) {
            if (!u)
                continue;
            jacobi_fill_row(s, (size_t)row, u, f);
            for (size_t k = 0; k < nx; k++) {
                uint32_t bits[2];
                memcpy(&bits[0], &u[k], sizeof(bits[0]));
                memcpy(&bits[1], &f[k], sizeof(bits[1]));
                sum += grid_fill_term(0, (size_t)row * nx + k, bits[0]) + grid_fill_term(1, (size_t)row * nx + k, bits[1]);
                umax = fabs((double)u[k]) > umax ? fabs((double)u[k]) : umax;
                fmax = fabs((double)f[k]) > fmax ? fabs((double)f[k]) : fmax;
            }
        }
        free(u);
    }
    *sum_out = sum, *umax_out = umax, *fmax_out = fmax;
    return lost ? -1 : 0;
}

// The sum a drawn case's executor must report (s->drawn_sum) and the scale
// of its tolerance as far as u0 and f show it (s->scale): max |u0| (and h^2
// max |f| / 6 for Jacobi), no more than the verdict's, which also takes the
// largest |u| of every iterate. No grid is held. Returns 0, or -1 out of memory.
static int jacobi_drawn_facts(jacobi_spec *s)
{
    double umax, fmax;
    if (jacobi_drawn_sums(s, &s->drawn_sum, &umax, &fmax) != 0)
        return -1;
    s->scale = umax + (s->heat ? 0.0 : s->c.g.h * s->c.g.h * fmax / 6.0);
    return 0;
}

// Case s's grids in memory (s->c.u0, s->c.f), drawn when first needed: before
// the run when files carry them, after it when the judge's own verdict does.
// Returns 0, or -1 out of memory.
static int jacobi_grids(jacobi_spec *s)
{
    size_t cells = jacobi_cells(&s->c.g);
    if (s->grids)
        return 0;
    s->grids = protocol_grid_alloc(2 * cells * sizeof(float));
    if (!s->grids)
        return -1;
    jacobi_fill(s, s->grids, s->grids + cells);
    s->c.u0 = s->grids, s->c.f = s->grids + cells;
    return 0;
}

// ---------------------------------------------------------------------------
// Files of one case
// ---------------------------------------------------------------------------

// Makes a fresh case directory under the system's temporary folder.
static int jacobi_make_dir(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/stencil-jacobi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

// Writes the grid g of case s to dir/name as the runner stores it: rows of
// nx floats, each followed by pitch - nx padding cells holding PAD_BITS.
// Returns 0 or -1.
static int jacobi_write(const jacobi_spec *s, const char *dir, const char *name, const float *g)
{
    char path[1024];
    size_t nx = s->c.g.nx, rows = s->c.g.ny * s->c.g.nz, put = 0;
    float pad[HEAT_PITCH_FLOATS];
    uint32_t bits = PAD_BITS;
    for (size_t q = 0; q < HEAT_PITCH_FLOATS; q++)
        memcpy(&pad[q], &bits, sizeof(bits));
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (s->pitch == nx)
        put = fwrite(g, sizeof(float), nx * rows, f) == nx * rows ? rows : 0;
    else
        for (size_t row = 0; row < rows; row++)
            put += fwrite(g + row * nx, sizeof(float), nx, f) == nx &&
                   fwrite(pad, sizeof(float), s->pitch - nx, f) == s->pitch - nx;
    return (fclose(f) == 0 && put == rows) ? 0 : -1;
}

// Writes the case's two input files into dir. Returns 0 or -1.
static int jacobi_write_inputs(const jacobi_spec *s, const char *dir, const float *u0, const float *f)
{
    return jacobi_write(s, dir, CASE_INPUT, u0) | jacobi_write(s, dir, CASE_JACOBI_F, f);
}

// Floats a buffer of case s takes on the device: its padded rows.
static size_t jacobi_stored_cells(const jacobi_spec *s)
{
    return s->pitch * s->c.g.ny * s->c.g.nz;
}

// Guard cells on each side of a buffer of case s (a plane of padded rows).
static size_t jacobi_guard(const jacobi_spec *s)
{
    return (size_t)protocol_guard_cells((unsigned long long)s->pitch * s->c.g.ny);
}

// Maps dir/name read-only if it is exactly bytes long; returns it or NULL.
static const float *jacobi_map(const char *dir, const char *name, size_t bytes)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size == bytes)
        p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    return p == MAP_FAILED ? NULL : (const float *)p;
}

// Unmaps every file of m and frees the copies made of them.
static void jacobi_unmap(jacobi_files *m)
{
    for (size_t i = 0; i < sizeof(m->mapped) / sizeof(m->mapped[0]); i++) {
        if (m->mapped[i])
            munmap((void *)m->mapped[i], m->bytes);
        free(m->compact[i]);
    }
    memset(m, 0, sizeof(*m));
}

// ---------------------------------------------------------------------------
// Running the runner
// ---------------------------------------------------------------------------

// Starts the runner once on the case in dir; report receives its report.
static spawn_result jacobi_start_runner(const judge_case_env *env, const jacobi_spec *s, const char *dir, int timed,
                                        const char *order, uint64_t seed, kv_list *report)
{
    char size[64], h[32], iters[16], check[16], tol[32], reps[16], rate[32], pitch[24];
    const jacobi_grid *g = &s->c.g;
    snprintf(size, sizeof(size), "%zu,%zu,%zu", g->nx, g->ny, g->nz);
    snprintf(h, sizeof(h), "%.9g", g->h);
    snprintf(iters, sizeof(iters), "%d", s->c.max_iters);
    snprintf(check, sizeof(check), "%d", s->c.check_every);
    snprintf(tol, sizeof(tol), "%.9g", s->c.tol);
    snprintf(reps, sizeof(reps), "%d", env->conf->time_reps);
    snprintf(rate, sizeof(rate), "%.9g", g->rate);
    snprintf(pitch, sizeof(pitch), "%zu", s->pitch);
    char *args[32] = {"--outdir", (char *)dir, "--size", size, "--h", h, "--bc", (char *)jacobi_bc_name(g->bc),
                      "--iters", iters, "--check", check, "--tol", tol};
    int n = 14;
    if (s->heat) {  // the heat update, its r and the padded rows (a Jacobi runner's command stays as it was)
        char *heat[] = {"--update", UPDATE_HEAT2D, "--rate", rate, "--pitch", pitch};
        memcpy(&args[n], heat, sizeof(heat));
        n += 6;
    }
    if (timed)
        args[n++] = "--time", args[n++] = reps;
    char fill[24], scale[32];
    if (s->drawn && !env->emu) {  // the executor draws u0 and f on the GPU (no files)
        snprintf(fill, sizeof(fill), "%llx", (unsigned long long)s->grid_seed);
        args[n++] = FILL_OPTION, args[n++] = fill;
    }
    if (s->gpu_check && !env->emu && !env->yardstick) {  // and judges the checked solve there
        snprintf(scale, sizeof(scale), "%.17g", s->scale);
        args[n++] = "--gpu-check", args[n++] = GPU_CHECK_SOLVE, args[n++] = "--scale", args[n++] = scale;
    }
    args[n] = NULL;
    return judge_spawn_runner(env, args, dir, jacobi_stored_cells(s) + 2 * jacobi_guard(s), order, seed, timed, report);
}

// 1 if the runner finished and said so.
static int jacobi_runner_ok(const spawn_result *s, const kv_list *report)
{
    const char *status = kv_get(report, "status");
    return s->exited && s->exit_code == RUNNER_OK && status && !strcmp(status, "ok");
}


// Fills r from a runner in dir that did not finish normally.
static void jacobi_explain_runner(const judge_case_env *env, const spawn_result *s, const kv_list *report,
                                  const char *dir, case_result *r)
{
    char log_path[1024];
    snprintf(log_path, sizeof(log_path), "%s/%s", dir, CASE_LOG);
    judge_explain_runner(env, s, report, log_path, lab_kind_of(env->conf)->words, r);
}

// ---------------------------------------------------------------------------
// Judging what came back
// ---------------------------------------------------------------------------

// Padding cells (columns nx..pitch-1 of every row) of a stored buffer
// (guard | padded rows | guard) of case s that lost PAD_BITS.
static size_t jacobi_padding_damage(const jacobi_spec *s, const float *stored, size_t guard)
{
    size_t nx = s->c.g.nx, rows = s->c.g.ny * s->c.g.nz, bad = 0;
    uint32_t bits;
    for (size_t row = 0; row < rows; row++)
        for (size_t k = nx; k < s->pitch; k++) {
            memcpy(&bits, &stored[guard + row * s->pitch + k], sizeof(bits));
            bad += bits != PAD_BITS;
        }
    return bad;
}

// A copy of a stored buffer of case s without its padding: guard | rows of nx | guard. NULL when out of memory.
static float *jacobi_unpad(const jacobi_spec *s, const float *stored, size_t guard)
{
    size_t nx = s->c.g.nx, rows = s->c.g.ny * s->c.g.nz;
    float *c = malloc((nx * rows + 2 * guard) * sizeof(float));
    if (!c)
        return NULL;
    memcpy(c, stored, guard * sizeof(float));
    for (size_t row = 0; row < rows; row++)
        memcpy(c + guard + row * nx, stored + guard + row * s->pitch, nx * sizeof(float));
    memcpy(c + guard + nx * rows, stored + guard + s->pitch * rows, guard * sizeof(float));
    return c;
}

// Maps the outputs of dir (and the returned buffer of dir2) into m; for
// padded rows, counts the padding cells written into *padding and points
// m's buffers at copies without the padding. Returns 0 or -1.
static int jacobi_map_outputs(const jacobi_spec *s, const char *dir, const char *dir2, const kv_list *report2,
                              int timed, jacobi_files *m, size_t *padding)
{
    size_t guard = jacobi_guard(s);
    const char *names[5] = {CASE_JACOBI_A, CASE_JACOBI_B, CASE_JACOBI_F_AFTER, timed ? CASE_TIMED : NULL,
                            kv_number(report2, "result", 0) == 1 ? CASE_JACOBI_B : CASE_JACOBI_A};
    const float **view[5] = {&m->a, &m->b, &m->f_after, &m->timed, &m->order2};
    memset(m, 0, sizeof(*m));
    *padding = 0;
    m->bytes = (jacobi_stored_cells(s) + 2 * guard) * sizeof(float);
    for (int q = 0; q < 5; q++) {
        if (!names[q] || (q == 4 && !dir2))
            continue;
        m->mapped[q] = jacobi_map(q == 4 ? dir2 : dir, names[q], m->bytes);
        if (!m->mapped[q])
            return -1;
        *view[q] = m->mapped[q];
        if (s->pitch == s->c.g.nx)
            continue;
        *padding += jacobi_padding_damage(s, m->mapped[q], guard);
        if (!(m->compact[q] = jacobi_unpad(s, m->mapped[q], guard)))
            return -1;
        *view[q] = m->compact[q];
    }
    return 0;
}

// Copies a verdict into r.
static void jacobi_fill_result(const jacobi_verdict *v, case_result *r)
{
    r->wrong = v->wrong;
    r->status = v->passed ? CASE_OK : CASE_FAIL;
    snprintf(r->kind, sizeof(r->kind), v->passed ? "ok" : "wrong");
    if (v->passed)
        return;
    r->hint_key = v->hint_key;
    snprintf(r->reason, sizeof(r->reason), "%s", v->reason);
    snprintf(r->detail, sizeof(r->detail), "%s", v->detail);
    snprintf(r->hint, sizeof(r->hint), "%s", v->hint);
}

// Appends text to r's note.
static void jacobi_note(case_result *r, const char *text)
{
    size_t used = strlen(r->note);
    snprintf(r->note + used, sizeof(r->note) - used, "%s%s", used ? "; " : "", text);
}

// The manufactured-solution check: error against the exact solution, and
// against the previous mms case the observed order. Fills the note, and
// fails r when the pair is not second order.
static void jacobi_check_mms(const jacobi_spec *s, const float *got, case_result *r)
{
    char text[160];
    double err = jacobi_mms_error(&s->c.g, got);
    snprintf(text, sizeof(text), "max error vs the exact solution %.3e at h=1/%.0f", err, 1.0 / s->c.g.h);
    jacobi_note(r, text);
    if (jacobi_mms_last.valid && jacobi_mms_last.h > s->c.g.h && err > 0) {
        double ratio = jacobi_mms_last.err / err, want = pow(jacobi_mms_last.h / s->c.g.h, 2.0);
        snprintf(text, sizeof(text), "%.2fx smaller than at h=1/%.0f (second order: %.2f)", ratio, 1.0 / jacobi_mms_last.h, want);
        jacobi_note(r, text);
        if (r->status == CASE_OK && !(ratio >= 0.75 * want && ratio <= 1.25 * want)) {
            r->status = CASE_FAIL;
            snprintf(r->kind, sizeof(r->kind), "wrong");
            r->hint_key = HINT_NOT_SECOND_ORDER;
            snprintf(r->reason, sizeof(r->reason), "the error fell %.2fx when h fell %.2fx: not second order (expected about %.2fx)", ratio, jacobi_mms_last.h / s->c.g.h, want);
            snprintf(r->hint, sizeof(r->hint), "the seven-point Laplacian is second order; a smaller ratio means the iteration has not converged (too few iterations for this h) or the sweep's h*h*f term is wrong.");
        }
    }
    jacobi_mms_last.valid = r->status == CASE_OK;
    jacobi_mms_last.h = s->c.g.h;
    jacobi_mms_last.err = err;
}

// The case's note: what the solver did, launches per iteration, timing.
static void jacobi_describe(const jacobi_spec *s, const jacobi_outputs *o, const jacobi_verdict *v,
                            const kv_list *report, case_result *r)
{
    char text[200] = "";
    if (s->heat)
        snprintf(text, sizeof(text), "r = %.6g, %d step%s, rows of %zu floats", s->c.g.rate, s->c.max_iters, s->c.max_iters == 1 ? "" : "s", s->pitch);
    else if (o)
        snprintf(text, sizeof(text), "%s, %d of %d iterations", jacobi_bc_name(s->c.g.bc), o->iters, s->c.max_iters);
    if (text[0])
        jacobi_note(r, text);
    if (o && o->residual >= 0) {
        snprintf(text, sizeof(text), "residual %.4g (reference %.4g, tol %.3g)", o->residual, v->ref_residual, s->c.tol);
        jacobi_note(r, text);
    }
    if (kv_get(report, "launches_per_iteration")) {
        snprintf(text, sizeof(text), "%.2f launches per %s", kv_number(report, "launches_per_iteration", 0), s->heat ? "step" : "iteration");
        jacobi_note(r, text);
    }
}

// Copies the timing of a timed run into r: time_ms is one whole solve.
static void jacobi_read_timing(const jacobi_spec *s, const kv_list *report, case_result *r)
{
    double t = kv_number(report, "time_ms_median", -1), iters = kv_number(report, "timed_iterations", 0);
    char text[120];
    if (t <= 0 || iters <= 0)
        return;
    double points = (double)jacobi_interior_cells(&s->c.g) * iters;
    judge_read_timed(report, t, r);
    r->gpoints = points / (t * 1e-3) / 1e9;
    r->gbs = (s->heat ? HEAT_BYTES_PER_POINT : JACOBI_BYTES_PER_POINT) * points / (t * 1e-3) / 1e9;
    if (s->heat)
        snprintf(text, sizeof(text), "%.4f ms per step (%.0f steps a solve; GB/s counts 8 B per point: u read, v written)", t / iters, iters);
    else
        snprintf(text, sizeof(text), "%.4f ms per iteration (%.0f iterations a solve; GB/s counts 12 B per point)", t / iters, iters);
    jacobi_note(r, text);
}

// Maps, judges and describes a finished case; fills r. Returns 0 or -1 (out of memory).
static int jacobi_judge_outputs(const judge_case_env *env, jacobi_spec *s, const char *dir, const char *dir2,
                                const kv_list *report, const kv_list *report2, int timed, case_result *r)
{
    jacobi_files m;
    jacobi_verdict v;
    size_t guard = jacobi_guard(s), padding = 0;
    if (jacobi_map_outputs(s, dir, dir2, report2, timed, &m, &padding) != 0) {
        jacobi_unmap(&m);
        r->status = CASE_FAIL;
        snprintf(r->kind, sizeof(r->kind), "exited");
        r->hint_key = HINT_RUNNER_FAILED;
        snprintf(r->reason, sizeof(r->reason), "the runner said it finished but its output files are missing or the wrong size");
        snprintf(r->hint, sizeof(r->hint), "does the kernel file call exit() or write files? It must only define its kernels and %s.", s->heat ? "heat_solve" : "jacobi_solve");
        return 0;
    }
    if (padding) {  // the kit's cells, before any value: a store there went past a row's end
        int pa = jacobi_padding_rows_packed(s->c.g.nx, s->c.g.ny, s->pitch, m.mapped[0] + guard);
        int pb = jacobi_padding_rows_packed(s->c.g.nx, s->c.g.ny, s->pitch, m.mapped[1] + guard);
        int packed = pa >= 0 && pb >= 0;  // every store went to j*nx + k: rows taken nx floats apart
        jacobi_unmap(&m);
        r->status = CASE_FAIL;
        snprintf(r->kind, sizeof(r->kind), "wrong");
        r->hint_key = packed ? HINT_ROW_PITCH : HINT_PADDING;
        snprintf(r->reason, sizeof(r->reason), "%zu padding cells (columns %zu..%zu of a row, pitch %zu) were written", padding, s->c.g.nx, s->pitch - 1, s->pitch);
        snprintf(r->hint, sizeof(r->hint), "%s", packed ? "the padding written is exactly what stores at j*nx + k leave: rows are p->pitch floats apart, not nx, so point (j, k) is HEAT_INDEX(j, k, p->pitch) and its y neighbours are p->pitch floats away."
                                                        : "the padding is the kit's: store only to columns 0..nx-1 of a row (a float4 store that runs past the row's end writes padding; finish the row with single floats).");
        jacobi_describe(s, NULL, NULL, report, r);
        return 0;
    }
    jacobi_outputs o = {m.a, m.b, m.f_after, m.timed, m.order2, guard, (int)kv_number(report, "result", -1),
                        (int)kv_number(report, "iterations", -1), kv_number(report, "residual", -2)};
    jacobi_reference ahead;
    s->c.reference = jacobi_early_take(env->early, s, r->seed, &ahead) ? &ahead : NULL;
    int rc = jacobi_judge(&s->c, &o, &v);
    s->c.reference = NULL;
    if (rc == 0 && v.wrong && (o.result == 0 || o.result == 1))  // the heat map, from the grid judged here
        pictures_offer_jacobi(r->name, &s->c, o.iters, (o.result == 1 ? o.b : o.a) + guard, v.allowed);
    jacobi_fill_result(&v, r);
    r->launch_ms = env->emu ? -1 : kv_number(report, "launch_ms", -1);
    jacobi_describe(s, &o, &v, report, r);
    if (s->mms && rc >= 0)
        jacobi_check_mms(s, (o.result == 1 ? o.b : o.a) + guard, r);
    if (r->status == CASE_OK && timed)
        jacobi_read_timing(s, report, r);
    jacobi_unmap(&m);
    return rc < 0 ? -1 : 0;
}

// ---------------------------------------------------------------------------
// One case
// ---------------------------------------------------------------------------

// Fails r for a case lab.conf cannot describe.
static void jacobi_bad_spec(const lab_conf *conf, const jacobi_spec *s, const lab_case *spec, case_result *r)
{
    r->status = CASE_FAIL;
    snprintf(r->kind, sizeof(r->kind), "kit");
    r->hint_key = HINT_RUNNER_FAILED;
    snprintf(r->reason, sizeof(r->reason), "lab.conf line %d: %s", spec->line, s->error);
    snprintf(r->hint, sizeof(r->hint), "fix the case line in %s (its header lists the options).", conf->path);
}

// 1 when dir holds the checked solve's grids, whole (saved before any timed solve).
static int jacobi_checked_outputs_saved(const jacobi_spec *s, const char *dir)
{
    jacobi_files m;
    size_t padding = 0;
    kv_list none = {0};
    int saved = jacobi_map_outputs(s, dir, NULL, &none, 0, &m, &padding) == 0;
    jacobi_unmap(&m);
    return saved;
}

// A case the executor judged right on the GPU (GPU_CHECK_SOLVE: no grid came
// back): passes, with the solver's story from the report.
static void jacobi_gpu_passed(const jacobi_spec *s, const kv_list *report, int timed, case_result *r)
{
    jacobi_outputs o;
    jacobi_verdict v;
    memset(&o, 0, sizeof(o));
    memset(&v, 0, sizeof(v));
    o.iters = (int)kv_number(report, "iterations", -1), o.residual = kv_number(report, "residual", -2);
    v.passed = 1, v.ref_residual = kv_number(report, GPU_REF_RESIDUAL_KEY, -1);
    jacobi_fill_result(&v, r);
    r->launch_ms = kv_number(report, "launch_ms", -1);
    jacobi_describe(s, &o, &v, report, r);
    jacobi_note(r, "judged on the GPU against the kit's double-precision solve");
    if (timed)
        jacobi_read_timing(s, report, r);
}

// Runs the case in dir (and, under emulation, again in dir2 with another
// thread order); judges it. Returns 0 or -1 when the kit failed.
static int jacobi_run_in(const judge_case_env *env, jacobi_spec *s, uint64_t seed, const char *dir, char *dir2,
                         size_t dir2_len, case_result *r, kv_list *report)
{
    int timed = s->timed && !env->emu, rc = 0;
    kv_list report2 = {0};
    spawn_result sr = jacobi_start_runner(env, s, dir, timed, "forward", seed, report);
    if (!sr.started)
        return -1;
    r->wall_s = sr.seconds;
    int ok = jacobi_runner_ok(&sr, report);
    if (ok && env->emu) {
        if (jacobi_make_dir(dir2, dir2_len) != 0 || jacobi_write_inputs(s, dir2, s->c.u0, s->c.f) != 0)
            return -1;
        spawn_result s2 = jacobi_start_runner(env, s, dir2, 0, "shuffle", seed, &report2);
        r->wall_s += s2.seconds;
        if (!jacobi_runner_ok(&s2, &report2)) {
            jacobi_explain_runner(env, &s2, &report2, dir2, r);
            ok = -1;
        }
    }
    if (ok == 1 && s->drawn && judge_drawn_input_differs(report, s->drawn_sum))
        return -1;
    const char *gpu = kv_get(report, GPU_CHECK_KEY);
    int judged_there = ok == 1 && (env->yardstick || (s->gpu_check && gpu && !strcmp(gpu, GPU_CHECK_PASS)));
    if (!judged_there && jacobi_grids(s) != 0)  // (the judge's own verdict needs them)
        return -1;
    if (ok == 1 && env->yardstick) {  // the kit's solution: its times only (no grid came back)
        r->status = CASE_OK;
        jacobi_read_timing(s, report, r);
    } else if (judged_there)
        jacobi_gpu_passed(s, report, timed, r);
    else if (ok == 1)
        rc = jacobi_judge_outputs(env, s, dir, env->emu ? dir2 : NULL, report, &report2, timed, r);
    else if (ok == 0 && sr.exited && sr.exit_code == RUNNER_REP_WRONG && jacobi_checked_outputs_saved(s, dir)) {
        // A timed solve was wrong and the checked solve's grids came back: judged first, so a
        // solve wrong every time gets its own mistake's hint; a right one, the timed solve's.
        rc = jacobi_judge_outputs(env, s, dir, NULL, report, &report2, 0, r);
        if (rc == 0 && r->status == CASE_OK) {
            r->status = CASE_FAIL;
            jacobi_explain_runner(env, &sr, report, dir, r);
        }
    } else if (ok == 0)
        jacobi_explain_runner(env, &sr, report, dir, r);
    if (rc == 0)
        judge_guard_read(report, r);
    kv_free(&report2);
    return rc;
}

int jacobi_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report_out)
{
    jacobi_spec s;
    char dir[512] = "", dir2[512] = "";
    memset(report_out, 0, sizeof(*report_out));
    r->seed = seed;
    r->launch_ms = -1;
    jacobi_read_spec(env->conf, spec, &s);
    if (s.error[0]) {
        jacobi_bad_spec(env->conf, &s, spec, r);
        return 0;
    }
    size_t cells = jacobi_cells(&s.c.g);
    r->interior = jacobi_interior_cells(&s.c.g);
    int rc = -1;
    double t_start = judge_case_clock();
    if (jacobi_make_dir(dir, sizeof(dir)) == 0) {
        jacobi_draw_seed(&s, seed);
        s.drawn = !env->emu && !s.mms;  // (an mms case's grids are no seed's: written to files)
        s.gpu_check = s.drawn && (double)cells >= JUDGE_GPU_CHECK_MIN_CELLS;
        int ready = s.drawn ? jacobi_drawn_facts(&s) == 0  // (the grids themselves only if the judge's verdict needs them)
                            : jacobi_grids(&s) == 0 && jacobi_write_inputs(&s, dir, s.c.u0, s.c.f) == 0;
        if (ready) {
            double t_input = judge_case_clock();
            rc = jacobi_run_in(env, &s, seed, dir, dir2, sizeof(dir2), r, report_out);
            judge_case_trace(r->name, report_out, t_input - t_start, r->wall_s, judge_case_clock() - t_input - r->wall_s);
        }
        char every[16];
        snprintf(every, sizeof(every), "%d", s.c.check_every);
        if (rc == 0 && kv_add(report_out, TECHNIQUE_KEY_CHECK_EVERY, every) != 0)
            rc = -1;
    }
    int why = errno;  // what failed, past the clean-up's own calls
    if (!env->keep || rc != 0) {
        judge_remove_tree(dir);
        judge_remove_tree(dir2);
    }
    free(s.grids);
    errno = rc != 0 && why == 0 ? ENOMEM : why;
    return rc;
}

// ---------------------------------------------------------------------------
// The reference made ahead
// ---------------------------------------------------------------------------

#define JACOBI_EARLY_BEING_MADE 0
#define JACOBI_EARLY_DONE 1
#define JACOBI_EARLY_FAILED 2

typedef struct jacobi_early_header {
    int state;                  // JACOBI_EARLY_*, written last by the helper (release), read by the judge (acquire)
    int iters;                  // iterations solved
    uint64_t seed;              // the case seed it was drawn from
    size_t cells;               // grid cells
    double scale;               // the run's scale
    double pad[3];              // the grids start 64 bytes in
} jacobi_early_header;

// The grids after the header: grid, prev (cells doubles each), history.
static double *jacobi_early_grids(void *mem)
{
    return (double *)((char *)mem + sizeof(jacobi_early_header));
}

size_t jacobi_early_bytes(const lab_conf *conf, const lab_case *spec)
{
    jacobi_spec s;
    jacobi_read_spec(conf, spec, &s);
    if (s.error[0] || s.mms || !s.timed || (double)jacobi_cells(&s.c.g) >= JUDGE_GPU_CHECK_MIN_CELLS)
        return 0;  // (a large case is judged on the GPU: no reference needed unless it fails there)
    size_t cells = jacobi_cells(&s.c.g);
    int checks = s.c.check_every > 0 ? s.c.max_iters / s.c.check_every : 0;
    return sizeof(jacobi_early_header) + (2 * cells + (size_t)checks + 1) * sizeof(double);
}

void jacobi_early_make(const lab_conf *conf, const lab_case *spec, uint64_t seed, void *mem, size_t bytes)
{
    jacobi_early_header *h = mem;
    jacobi_spec s;
    int state = JACOBI_EARLY_FAILED;
    jacobi_read_spec(conf, spec, &s);
    size_t cells = jacobi_cells(&s.c.g);
    jacobi_draw_seed(&s, seed);
    if (bytes == jacobi_early_bytes(conf, spec) && bytes && jacobi_grids(&s) == 0) {
        double *grids = jacobi_early_grids(mem);
        h->iters = s.c.max_iters, h->seed = seed, h->cells = cells;
        if (jacobi_reference_solve(&s.c, s.c.max_iters, grids, grids + cells, grids + 2 * cells, &h->scale) == 0)
            state = JACOBI_EARLY_DONE;
    }
    free(s.grids);
    __atomic_store_n(&h->state, state, __ATOMIC_RELEASE);
}

// Waits until the reference made ahead for case s (drawn from seed) is done
// or its helper has ended; fills ref and returns 1 if it is there to use, 0
// if the case is judged the usual way.
static int jacobi_early_take(const jacobi_early *e, const jacobi_spec *s, uint64_t seed, jacobi_reference *ref)
{
    if (!e || !e->mem)
        return 0;
    jacobi_early_header *h = e->mem;
    int state;
    double t0 = judge_case_clock();
    while ((state = __atomic_load_n(&h->state, __ATOMIC_ACQUIRE)) == JACOBI_EARLY_BEING_MADE) {
        if (e->pid <= 0 || kill(e->pid, 0) != 0 || waitpid(e->pid, NULL, WNOHANG) == e->pid) {
            state = __atomic_load_n(&h->state, __ATOMIC_ACQUIRE);  // it may have finished just now
            break;
        }
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
        spawn_check_stop();
    }
    size_t cells = jacobi_cells(&s->c.g);
    if (state != JACOBI_EARLY_DONE || h->seed != seed || h->cells != cells || h->iters != s->c.max_iters) {
        judge_trace_note("reference made ahead: not there (state %d), solved here", state);
        return 0;
    }
    judge_trace_note("reference made ahead: taken after a wait of %.2f s", judge_case_clock() - t0);
    const double *grids = jacobi_early_grids(e->mem);
    ref->iters = h->iters;
    ref->grid = grids, ref->prev = grids + cells, ref->history = grids + 2 * cells;
    ref->scale = h->scale;
    return 1;
}
