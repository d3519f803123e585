// grader/judge/technique.c — see technique.h.
#include "technique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_log.h"
#include "protocol.h"
#include "stencil_ref.h"

int technique_launch(const kv_list *report, int idx, launch_info *li)
{
    char key[48];
    size_t dyn = 0, stat = 0;
    int regs = 0;
    snprintf(key, sizeof(key), "launch.%d", idx);
    const char *v = kv_get(report, key);
    memset(li, 0, sizeof(*li));
    if (!v || sscanf(v, "kernel=%127s grid=%llu,%llu,%llu block=%llu,%llu,%llu dynamic_smem=%zu static_smem=%zu regs=%d",
                     li->kernel, &li->grid[0], &li->grid[1], &li->grid[2], &li->block[0],
                     &li->block[1], &li->block[2], &dyn, &stat, &regs) != 10)
        return -1;
    li->smem = dyn + stat;  // the launch record's own: the executor's query on a GPU, the emulator's count
    return 0;
}

void technique_launches_of(const kv_list *report, char *out, size_t len)
{
    const char *launches = kv_get(report, "launches");
    launch_info li;
    if (!launches) {
        if (len)
            out[0] = '\0';
    } else if (technique_launch(report, 0, &li) != 0) {
        snprintf(out, len, "%s launch(es), no record", launches);
    } else {  // what the program chose (the kernel, its shape), not what the executor reads of the function
        snprintf(out, len, "%s launch(es), the first %s<<<(%llu,%llu,%llu), (%llu,%llu,%llu)>>>", launches, li.kernel, li.grid[0], li.grid[1],
                 li.grid[2], li.block[0], li.block[1], li.block[2]);
    }
}

// Threads in one block, and in the whole launch.
static unsigned long long technique_block_threads(const launch_info *li)
{
    return li->block[0] * li->block[1] * li->block[2];
}
static unsigned long long technique_threads(const launch_info *li)
{
    return technique_block_threads(li) * li->grid[0] * li->grid[1] * li->grid[2];
}

// The evidence every sweep rule rests on, named in its detail line.
#define TECHNIQUE_EVIDENCE "evidence: the launch record (grid, block) and the kernel's shared memory per block"

// Fewest threads a lab 1 launch may have: enough that the sweep is spread
// over the GPU (a grid-stride loop or a z loop qualifies), or every point.
#define TECHNIQUE_MIN_THREADS 4096ull
// A lab graded on its speed (any kernel shape) lets a thread compute up to
// this many points: a z march of a 4x4 patch a thread over 65 planes has
// about 1000, on grids where 4096 threads would be fewer than a point each
// in the plane. One block doing a whole grid still fails.
#define TECHNIQUE_SPEED_POINTS_A_THREAD 1024ull

// The interior points of an n[0]×n[1]×n[2] (nx, ny, nz) grid for a star of
// radius r: those at least r cells from every face.
static unsigned long long technique_interior(const unsigned int n[3], int r)
{
    return protocol_cells_written(0, r, n[0], n[1], n[2]);
}

// A count's English word (the planes a z-coarsening block keeps: 2r + 1).
static const char *technique_count_word(int n, char *buf, size_t len)
{
    static const char *const words[] = {"no", "one", "two", "three", "four", "five", "six", "seven"};
    if (n >= 0 && n < (int)(sizeof(words) / sizeof(words[0])))
        return words[n];
    snprintf(buf, len, "%d", n);
    return buf;
}

// The grid's name as the report gives it: "N=64", or "64x32x16".
static const char *technique_grid_name(const unsigned int n[3], char *buf, size_t len)
{
    if (n[0] == n[1] && n[1] == n[2])
        snprintf(buf, len, "N=%u", n[0]);
    else
        snprintf(buf, len, "%ux%ux%u", n[0], n[1], n[2]);
    return buf;
}

// Lab 1: one launch that computes the points in parallel. One thread per
// point (Fig 8.6), a grid-stride loop, or a 2D grid whose threads loop over z
// all qualify; a launch of fewer than min(interior points, 4096) threads (one
// block, a serial loop) does not. The speed technique (a lab graded on its
// speed, any kernel shape) takes the same rule, said so, with a floor of
// one thread a TECHNIQUE_SPEED_POINTS_A_THREAD points where that is lower.
static void technique_naive(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const launch_info *li = e->li;
    const unsigned int *n = e->n;
    int radius = e->radius, speed = k->speed;
    unsigned long long interior = technique_interior(n, radius);
    unsigned long long threads = technique_threads(li);
    unsigned long long floor = interior < TECHNIQUE_MIN_THREADS ? interior : TECHNIQUE_MIN_THREADS;
    unsigned long long coarse = (interior + TECHNIQUE_SPEED_POINTS_A_THREAD - 1) / TECHNIQUE_SPEED_POINTS_A_THREAD;
    if (speed && coarse < floor)
        floor = coarse;
    char name[48];
    r->status = threads >= floor ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%s: %llu threads for %llu interior points (%s; at least %llu needed)%s%s; %s",
             r->status == TECHNIQUE_OK ? (threads >= interior ? "one thread per output point" : "points computed in parallel by threads that loop")
                                       : "too few threads to compute the points in parallel",
             threads, interior, technique_grid_name(n, name, sizeof(name)), floor,
             r->status == TECHNIQUE_OK ? "" : "; launch one thread per output point (Fig 8.6), or at least a grid of threads that loop over the points",
             speed ? "; any kernel shape: this lab scores how close the sweep comes to the copy limit (the speed line)" : "",
             TECHNIQUE_EVIDENCE);
}

// The halo overhead of a block's plane for a star of radius r: (bx*by) /
// ((bx-2r)*(by-2r)), taking only the dimensions of 2r + 1 or more threads as
// tiled.
static double technique_halo_factor(const launch_info *li, int radius)
{
    double f = 1.0;
    unsigned long long w = 2ull * (unsigned long long)radius;
    for (int d = 0; d < 2; d++)
        if (li->block[d] > w)
            f *= (double)li->block[d] / (double)(li->block[d] - w);
    return f;
}

// Lab 2: the input tile in shared memory, any tile shape and any block
// shape (the input tile, the output tile, a plane of threads or a flat block
// that loops to load it): at least a block's worth of floats in shared
// memory, and at least a 3x3x3 tile.
// Lab 0 (a 2D convolution) takes the same rule on its 2D tiles: at least the
// block's floats, and 3x3.
static void technique_shared_tile(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const launch_info *li = e->li;
    int image = k->image;
    unsigned long long bt = technique_block_threads(li), least = image ? 9 : 27;
    size_t need = (size_t)(bt > least ? bt : least) * sizeof(float);
    r->status = li->smem >= need ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%llux%llux%llu blocks, %zu B shared per block (a tile of at least the block's %llu floats, and %s: %zu B)%s%s; %s",
             li->block[0], li->block[1], li->block[2], li->smem, bt, image ? "3x3" : "3x3x3", need,
             r->status == TECHNIQUE_OK ? "" : image ? "; load the block's input tile (halo included, Fig 7.12) or its inner tile (halo from the caches, Fig 7.15) into shared memory and read the pixels there"
                                                   : "; load the block's input tile (halo included) into shared memory and read the neighbours there (Fig 8.8)",
             image ? "; the filter comes from F in constant memory: the interface gives the kernel no other copy of it" : "",
             TECHNIQUE_EVIDENCE);
}

// Output planes each thread of a z-marching launch covers on average,
// counting the halo threads of the block's plane.
static double technique_planes_per_thread(const launch_info *li, const unsigned int n[3], int radius)
{
    unsigned long long interior = technique_interior(n, radius);
    unsigned long long threads = technique_threads(li);
    return threads ? (double)interior / (double)threads * technique_halo_factor(li, radius) : 0;
}

// The input-tile plane, in bytes, of a block whose threads each compute
// several points of a plane (rows or columns of a tile: 32x8 threads on a
// 32x32 tile), or 0 when a block's tile is no larger than the block.
// The grid's blocks cover the interior plane, so a block's output tile is at
// least the plane over the grid along each axis and, the last block being
// needed, at most the plane less one over one block fewer: the larger figure,
// with its halo, is the plane such a block may keep.
static size_t technique_rows_tile_plane(const launch_info *li, const unsigned int n[3], int radius)
{
    unsigned long long w = 2ull * (unsigned long long)radius, least[2], most[2];
    for (int a = 0; a < 2; a++) {
        unsigned long long interior = n[a] > w ? n[a] - w : 0, g = li->grid[a];
        if (!interior || !g)
            return 0;
        least[a] = (interior + g - 1) / g;
        most[a] = g > 1 ? (interior - 1) / (g - 1) : interior;
        most[a] = most[a] > least[a] ? most[a] : least[a];
    }
    // A block's output tile holds at least least[0] x least[1] points; with a point a thread it holds
    // at most the block's threads. More points than threads: several a thread (two rows of a 30x30
    // tile on 32x16 threads: 26x26 at least, over 5x5 blocks at N = 129).
    if (least[0] * least[1] <= li->block[0] * li->block[1])
        return 0;  // a point a thread: the block's own plane is the tile's
    return (size_t)((most[0] + w) * (most[1] + w)) * sizeof(float);
}

// Labs 3 and 4: a 2D block marching in z, any tile size and shape. It
// marches when it has fewer layers of threads in z than there are planes
// (grid.z * block.z at most 2/3 of the interior planes) and its threads cover
// on average more than one plane each, counting the halo threads of the
// block's plane. Shared memory, for a star of radius r: the 2r + 1 planes a
// point reads, of the block, or more (lab 3: three for the seven-point star);
// a plane, but fewer than three (lab 4: the z neighbours in registers; two
// allow a double-buffered plane), of the block or, when its threads compute
// several rows each, of its tile (technique_rows_tile_plane).
static void technique_z_march(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const launch_info *li = e->li;
    const unsigned int *n = e->n;
    int radius = e->radius, registers = k->registers;
    unsigned long long layers = li->grid[2] * li->block[2], w = 2ull * (unsigned long long)radius;
    double per_thread = technique_planes_per_thread(li, n, radius);
    unsigned int nz = n[2];
    int planes = registers ? 1 : 2 * radius + 1;
    int marches = nz < 16 || (3 * layers <= 2ull * (nz - w) && per_thread >= 1.2);
    size_t plane = (size_t)(li->block[0] * li->block[1]) * sizeof(float);
    size_t inner = (size_t)((li->block[0] > w ? li->block[0] - w : 1) * (li->block[1] > w ? li->block[1] - w : 1)) * sizeof(float);
    // Register tiling keeps one plane: under three of the block's planes, or (a block the size of the
    // output tile) at most two planes with their halo, one plane double-buffered. Shared memory alone
    // cannot tell three planes of a block of 8x8 (r = 1) or 17x17 (r = 2) from that: those pass.
    // Threads computing several rows or columns each: one plane of the block's tile, or two
    // double-buffered (padding allowed): under two and a quarter of that tile's planes (its size is
    // an upper estimate, up to a fifth over: three planes stay out).
    size_t halo_plane = (size_t)((li->block[0] + w) * (li->block[1] + w)) * sizeof(float);
    size_t tile_plane = registers ? technique_rows_tile_plane(li, n, radius) : 0;
    int smem_ok = !registers ? li->smem >= (size_t)planes * plane
                             : (li->smem >= inner && (li->smem < 3 * plane || li->smem <= 2 * halo_plane ||
                                                      4 * li->smem < 9 * tile_plane));
    r->status = marches && smem_ok ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    char want[192], word[16];
    if (!registers)
        snprintf(want, sizeof(want), "%s planes of the block: at least %zu B", technique_count_word(planes, word, sizeof(word)), (size_t)planes * plane);
    else if (tile_plane)
        snprintf(want, sizeof(want), "one plane: at least %zu B, under %zu B or at most %zu B double-buffered, or under %zu B for a tile of about %zu B a plane",
                 inner, 3 * plane, 2 * halo_plane, 9 * tile_plane / 4, tile_plane);
    else
        snprintf(want, sizeof(want), "one plane: at least %zu B, under %zu B or at most %zu B double-buffered", inner, 3 * plane, 2 * halo_plane);
    snprintf(r->detail, sizeof(r->detail), "%llux%llux%llu blocks, %llu layers of threads in z for %llu planes, about %.1f planes per thread; %zu B shared per block (%s)%s%s; %s",
             li->block[0], li->block[1], li->block[2], layers, nz > w ? nz - w : 0, per_thread, li->smem, want,
             marches ? "" : "; each block should march through several planes in z, so far fewer threads than points are launched (Fig 8.10)",
             smem_ok ? "" : (!registers ? "; keep the previous, current and next planes in shared memory"
                                        : tile_plane ? "; keep only the current plane in shared memory and the z neighbours in registers (Fig 8.12)"
                                                    : "; keep only the current plane in shared memory and the z neighbours in registers (Fig 8.12); threads computing several rows each: lay the grid out as (tiles in x, tiles in y, z chunks), from which the tile's plane is read"),
             TECHNIQUE_EVIDENCE);
}

// Lab 5: each iteration launches the sweep once and, unless the boundary is
// Dirichlet, a separate boundary kernel once: that many kernels launched at
// least once per iteration, and at most 8 launches per iteration in all
// (a boundary kernel per axis, residual checks and their reductions add some).
// Lists the kernels of a whole solve's report ("40 x jacobi_sweep, 40 x
// jacobi_boundary") into seen; returns how many were launched at least
// iters times.
static int technique_kernel_counts(const kv_list *report, int iters, char *seen, size_t len)
{
    int kinds = (int)kv_number(report, "kernels", 0), every = 0;
    if (kinds > LAUNCH_KERNEL_KINDS_MAX)  // a claim of the runner's (in the student's process under emulation)
        kinds = LAUNCH_KERNEL_KINDS_MAX;
    seen[0] = '\0';
    for (int q = 0; q < kinds; q++) {
        char key[32], name[128] = "?";
        long count = 0;
        snprintf(key, sizeof(key), "kernel.%d", q);
        if (!kv_get(report, key) || sscanf(kv_get(report, key), "%ld %127s", &count, name) < 1)
            continue;
        every += iters > 0 && count >= iters;
        size_t used = strlen(seen);
        snprintf(seen + used, len - used, "%s%ld x %s", q ? ", " : "", count, name);
    }
    return every;
}

static void technique_jacobi(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const kv_list *report = e->report;
    long launches = e->launches;
    (void)k;
    int iters = (int)kv_number(report, "iterations", 0);
    const char *bc = kv_get(report, "bc");
    int need = bc && strcmp(bc, "dirichlet") != 0 ? 2 : 1;
    char seen[256];
    int every = technique_kernel_counts(report, iters, seen, sizeof(seen));
    r->status = iters > 0 && every >= need && launches <= 8L * iters + 8 ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%.2f launches per iteration over %d iterations (%s boundary): %s%s",
             iters > 0 ? (double)launches / iters : 0.0, iters, bc ? bc : "?", seen,
             r->status == TECHNIQUE_OK ? "" : "; this lab expects a sweep kernel and (except for Dirichlet) a separate boundary kernel, each launched once per iteration");
}

// Lab 9: several iterations a launch. Each launch must carry at least two
// iterations on average: launches <= iterations / 2 + 1, plus two for each
// residual check the case asks for (its reduction's launches; the judge adds
// the case's check_every to the report). The cases of lab 9 judge it on one
// without checks.
static void technique_time_blocking(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const kv_list *report = e->report;
    long launches = e->launches;
    (void)k;
    int iters = (int)kv_number(report, "iterations", 0), every = (int)kv_number(report, TECHNIQUE_KEY_CHECK_EVERY, 0);
    long checks = every > 0 ? iters / every : 0;
    long allowed = iters / 2 + 1 + 2 * checks;
    r->status = iters >= 2 && launches <= allowed ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%ld launches for %d iterations (%.2f iterations a launch) and %ld residual checks: at most %ld allowed (iterations / 2 + 1, and 2 a check)%s",
             launches, iters, launches > 0 ? (double)iters / launches : 0.0, checks, allowed,
             r->status == TECHNIQUE_OK ? "" : "; do several iterations in each launch: each block computes a tile with a halo as wide as its iterations, one level a step as it marches in z, and writes the cells its halo kept right");
}

// Global loads a point a z-marching kernel may spend beyond filling its
// planes: room for a grid whose tiles stick out, yet less than the one load
// a point that reading even one z neighbour from global memory adds.
#define TECHNIQUE_GLOBAL_MARGIN 0.75

double technique_global_ceiling(const launch_info *li, const unsigned int n[3], int radius)
{
    double per_thread = technique_planes_per_thread(li, n, radius);
    if (per_thread <= 0)
        return 0;
    return technique_halo_factor(li, radius) * (per_thread + 2.0 * radius) / per_thread + TECHNIQUE_GLOBAL_MARGIN;
}

void technique_loads(const char *technique, const kv_list *report, unsigned int n, int radius, int counted,
                     double global_loads, double shared_loads, const char *why, technique_result *r)
{
    const unsigned int size[3] = {n, n, n};
    technique_loads_grid(technique, report, size, radius, counted, global_loads, shared_loads, why, r);
}

// Lab 0: the tile in shared memory and the filter in constant memory, from
// the loads per output pixel. A tiled kernel (Fig 7.12, or halo caching,
// Fig 7.15) reads most of its (2r+1)^2 taps from shared memory and few from
// global memory (its tile fill, and for halo caching the halo taps, about a
// fifth of the taps at a 16-wide tile and r = 3); a kernel that reads the
// filter through a global pointer adds all (2r+1)^2 of them, and one that
// reads the pixels from global memory as many. Floors: at least half the taps
// from shared memory, at most half from global memory. Constant-memory reads
// (LDC, or weights the compiler folds into the instructions) are neither.
// Who counted the loads, for the detail line.
static const char *technique_counter(int counted)
{
    return counted == TECHNIQUE_LOADS_EMU     ? "the emulator's count of the bytes the kernel's threads loaded"
           : counted == TECHNIQUE_LOADS_CUPTI ? "the executor's count, with CUPTI, of the bytes the kernel's threads loaded"
                                              : "Nsight Compute's count of the bytes the kernel's threads loaded";
}

static void technique_loads_conv(const kv_list *report, const unsigned int n[3], int counted, double global_loads,
                                 double shared_loads, char *tail, size_t room, technique_result *r)
{
    int filter_radius = (int)kv_number(report, "filter_radius", 0);
    double points = (double)n[0] * n[1] * n[2], taps = (double)FILTER_NWEIGHTS(filter_radius);
    char name[48];
    if (filter_radius < 1 || points <= 0) {
        snprintf(tail, room, "; load counts not usable (no filter radius in the report)");
        return;
    }
    double sp = shared_loads / points, gp = global_loads / points, half = taps / 2.0;
    int shared_ok = sp >= half, global_ok = gp <= half;
    snprintf(tail, room, "; %.2f floats read from shared and %.2f from global memory per output pixel for a %dx%d filter (at least %.1f from shared, at most %.1f from global; %s, case %s)%s%s",
             sp, gp, 2 * filter_radius + 1, 2 * filter_radius + 1, half, half, technique_counter(counted), technique_grid_name(n, name, sizeof(name)),
             shared_ok ? "" : "; the pixels come from global memory: read them from the tile in shared memory, after the barrier",
             global_ok ? "" : "; too many global loads a pixel: read the filter from F in constant memory (not through a pointer to it), and the pixels from the shared tile");
    if (!(shared_ok && global_ok))
        r->status = TECHNIQUE_FAIL;
}

int technique_counts_loads(const char *technique)
{
    const lab_technique *k = technique_find(technique);
    return k && k->counts_loads;
}

void technique_loads_grid(const char *technique, const kv_list *report, const unsigned int n[3], int radius, int counted,
                          double global_loads, double shared_loads, const char *why, technique_result *r)
{
    const lab_technique *k = technique_find(technique);
    if (k && k->image) {
        size_t used = strlen(r->detail);
        if (!counted)
            snprintf(r->detail + used, sizeof(r->detail) - used, "; reading the filter from constant memory and the pixels from the shared tile is not checked: %s", why);
        else
            technique_loads_conv(report, n, counted, global_loads, shared_loads, r->detail + used, sizeof(r->detail) - used, r);
        return;
    }
    int z_march = k && k->marches_z, registers = k && k->registers;
    // Half the neighbours a point reads (6r), or of those in its plane (4r) when the z ones are in registers.
    double need_shared = (registers ? 2.0 : 3.0) * radius;
    size_t used = strlen(r->detail);
    char *tail = r->detail + used;
    size_t room = sizeof(r->detail) - used;
    launch_info li;
    if (!technique_counts_loads(technique))
        return;
    if (!counted) {
        snprintf(tail, room, "; reading the neighbours from shared memory is not checked: %s", why);
        return;
    }
    double points = (double)technique_interior(n, radius);
    char name[48];
    if (points <= 0 || technique_launch(report, 0, &li) != 0) {
        snprintf(tail, room, "; load counts not usable (no interior point, or no launch record)");
        return;
    }
    double sp = shared_loads / points, gp = global_loads / points;
    double ceiling = z_march ? technique_global_ceiling(&li, n, radius) : 0;
    int shared_ok = sp >= need_shared, global_ok = !z_march || gp <= ceiling;
    char limit[64] = "";
    if (z_march)
        snprintf(limit, sizeof(limit), ", at most %.2f from global", ceiling);
    snprintf(tail, room, "; %.2f floats read from shared and %.2f from global memory per output point (at least %.0f from shared%s; %s, case %s)%s%s",
             sp, gp, need_shared, limit, technique_counter(counted), technique_grid_name(n, name, sizeof(name)),
             shared_ok ? "" : (z_march ? "; read the in-plane neighbours from the plane in shared memory, after the barrier"
                                       : "; the neighbours come from global memory: read them from the shared tile, after the barrier"),
             global_ok ? "" : (registers
                                   ? "; the z neighbours come from global memory: keep the previous and next planes' values in registers as the block marches (Fig 8.12)"
                                   : "; the z neighbours come from global memory: read them from the previous and next planes in shared memory (Fig 8.10)"));
    if (!(shared_ok && global_ok))
        r->status = TECHNIQUE_FAIL;
}

// Lab 10: the time steps are launches of a kernel that reads the old grid
// and writes the new one (the verdict checks the buffers: in-place-update):
// at least one launch, and at most one a step on average (a launch may do
// several steps). A second kernel a step (a copy back instead of a swap)
// moves the grid through DRAM twice a step and fails.
static void technique_heat2d(const lab_technique *k, const technique_evidence *e, technique_result *r)
{
    const kv_list *report = e->report;
    long launches = e->launches;
    (void)k;
    int steps = (int)kv_number(report, "iterations", 0);
    char seen[256];
    technique_kernel_counts(report, steps, seen, sizeof(seen));
    r->status = steps > 0 && launches >= 1 && launches <= steps ? TECHNIQUE_OK : TECHNIQUE_FAIL;
    snprintf(r->detail, sizeof(r->detail), "%ld launches for %d time steps: %s%s", launches, steps, seen[0] ? seen : "no kernel",
             r->status == TECHNIQUE_OK ? "" : "; this lab expects one launch of the step kernel a step (reading one buffer, writing the other, then swapping the pointers), or fewer launches doing several steps each");
}

// Every whole solve (labs 5, 9, 10): the two grids are swapped, not copied.
// A copy back of the new grid over the old one each step (cudaMemcpy device
// to device, counted by the runner: LAUNCH_LOG_KEY_DEVICE_COPIES) moves the
// grid through DRAM twice a step, as a copy kernel would (which the launch
// counts catch). Copies of half a grid a step or less, or of two and a half
// grids in all (rows padded), pass: a buffer set up once, a result moved
// once at the end, a boundary's rows. (The line is judged on a case of 25
// steps or more in every lab that has one.)
static void technique_solve_copies(const technique_evidence *e, technique_result *r)
{
    const kv_list *report = e->report;
    double bytes = kv_number(report, LAUNCH_LOG_KEY_DEVICE_COPIES, 0), pitch = kv_number(report, "pitch", 0);
    double grid = 4.0 * (pitch > e->n[0] ? pitch : e->n[0]) * e->n[1] * e->n[2];  // rows as stored, padding included
    int steps = (int)kv_number(report, "iterations", 0);
    if (grid <= 0 || bytes <= grid * (0.5 * steps > 2.5 ? 0.5 * steps : 2.5))
        return;
    r->status = TECHNIQUE_FAIL;
    size_t used = strlen(r->detail);
    snprintf(r->detail + used, sizeof(r->detail) - used,
             "; the solve copied %.1f grids from device memory to device memory in %d %s (cudaMemcpy): a copy back "
             "instead of a swap moves the grid through DRAM twice a step; swap the two pointers instead",
             bytes / grid, steps, steps == 1 ? "step" : "steps");
}

technique_result technique_check(const char *technique, const kv_list *report, unsigned int n, int radius)
{
    const unsigned int size[3] = {n, n, n};
    return technique_check_grid(technique, report, size, radius);
}

technique_result technique_check_grid(const char *technique, const kv_list *report, const unsigned int n[3], int radius)
{
    technique_result r;
    launch_info li;
    const lab_technique *k = technique_find(technique);
    long launches = (long)kv_number(report, "launches", -1);
    memset(&r, 0, sizeof(r));
    r.status = TECHNIQUE_NA;
    if (launches < 0) {
        snprintf(r.detail, sizeof(r.detail), "launches were not recorded (%s)",
                 kv_get(report, "launch_log_error") ? kv_get(report, "launch_log_error") : "no launch log");
        return r;
    }
    r.status = TECHNIQUE_FAIL;
    technique_evidence e = {report, launches, NULL, n, radius};
    if (k && !k->one_launch) {  // a whole solve: its rule counts the launches of every kernel
        k->rule(k, &e, &r);
        technique_solve_copies(&e, &r);
        return r;
    }
    if (launches != 1 || technique_launch(report, 0, &li) != 0) {
        snprintf(r.detail, sizeof(r.detail), "%ld kernel launches; this lab expects exactly one launch of stencil_kernel per sweep", launches);
        return r;
    }
    if (!k) {
        r.status = TECHNIQUE_NA;
        snprintf(r.detail, sizeof(r.detail), "no check for technique '%s'", technique);
        return r;
    }
    e.li = &li;  // the tile declared feeds the OP/B model; the rules read the launch itself
    k->rule(k, &e, &r);
    return r;
}

int opb_conv_model(int in_tile, int out_tile, int filter_radius, opb_model *m)
{
    const int r = filter_radius;
    memset(m, 0, sizeof(*m));
    if (r < 1 || (out_tile <= 0 && in_tile <= 2 * r))
        return -1;
    int out = out_tile > 0 ? out_tile : in_tile - 2 * r;  // Fig 7.12: the block is the input tile; else the output tile is declared
    double taps = (double)(2 * r + 1) * (2 * r + 1), in = (double)out + 2 * r;
    m->book = (double)out * out * taps * 2.0 / (in * in * 4.0);
    m->bound = taps * 2.0 / 4.0;
    m->halo_fraction = 1.0 - (double)out * out / (in * in);
    m->smem_bytes = in * in * 4.0;
    int used = snprintf(m->formula, sizeof(m->formula), "OUT^2 * (2R+1)^2 * 2 / ((OUT+2R)^2 * 4) = %.2f at OUT=%d, R=%d (Fig 7.14; this tile at R = 1..4:", m->book, out, r);
    for (int q = 1; q <= CONV_MAX_RADIUS && used < (int)sizeof(m->formula); q++) {
        int o = out_tile > 0 ? out_tile : in_tile - 2 * q;
        double t = (double)(2 * q + 1) * (2 * q + 1), i = (double)o + 2 * q;
        used += o > 0 ? snprintf(m->formula + used, sizeof(m->formula) - (size_t)used, " %.2f", (double)o * o * t * 2.0 / (i * i * 4.0))
                      : snprintf(m->formula + used, sizeof(m->formula) - (size_t)used, " -");
    }
    if (used < (int)sizeof(m->formula))
        snprintf(m->formula + used, sizeof(m->formula) - (size_t)used, ")");
    return 0;
}

// Starts m for a star of radius r: cleared, bound (12r+1)/4. Returns 0, or
// -1 for a star the kit does not have.
static int opb_star(int radius, opb_model *m)
{
    memset(m, 0, sizeof(*m));
    if (radius < 1 || radius > STENCIL_MAX_RADIUS)
        return -1;
    m->bound = reference_flops(radius) / 4.0;
    return 0;
}

// A star's model where each output point moves floats floats through global
// memory: book OP/B = flops / (floats * 4), its formula followed by why.
// Returns 0, or -1 for a star the kit does not have.
static int opb_per_point(int radius, int floats, const char *why, opb_model *m)
{
    if (opb_star(radius, m) != 0)
        return -1;
    const double flops = reference_flops(radius);
    m->book = flops / (floats * 4.0);
    snprintf(m->formula, sizeof(m->formula), "%.0f / (%d * 4) = %.2f%s", flops, floats, m->book, why);
    return 0;
}

// Lab 1's model: every one of the 6r + 1 points loaded from global memory.
static int opb_naive(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)k, (void)t, (void)o;
    return opb_per_point(radius, STENCIL_NCOEF(radius), "", m);
}

// Past the book: every point read once and written once, the most a sweep can reach.
static int opb_speed(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)k, (void)t, (void)o;
    if (opb_per_point(radius, 2, " (each point read once and written once: the streaming bound)", m) != 0)
        return -1;
    m->bound = m->book;
    return 0;
}

// Lab 10: 7 flops a point, u read once and v written once: no tile can do better.
static int opb_heat2d(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)k, (void)t, (void)o;
    if (opb_star(radius, m) != 0)
        return -1;
    m->book = 7.0 / 8.0;
    m->bound = 7.0 / 8.0;
    m->halo_fraction = 0.0;
    m->smem_bytes = 0.0;
    snprintf(m->formula, sizeof(m->formula), "7 / (4 + 4) = %.3f (u + r(w + e + s + n - 4u): 7 operations; u read once, v written once, a step)", m->book);
    return 0;
}

// Starts a tiled model: as opb_star, and -1 for an input tile of edge t
// with no output tile left (t < 2r + 1).
static int opb_tiled(int t, int radius, opb_model *m)
{
    return opb_star(radius, m) != 0 || t < 2 * radius + 1 ? -1 : 0;
}

// Lab 9: S = (T - O) / 2 iterations a launch (the seven-point update only).
static int opb_time_blocking(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)k;
    int steps = (t - o) / 2;
    if (opb_tiled(t, radius, m) != 0 || o < 1 || steps < 1 || radius != 1)
        return -1;
    double halo = (double)t * t / ((double)o * o);  // input columns loaded per column written
    m->book = 8.0 * steps / (8.0 * halo + 4.0);
    m->bound = 8.0 * steps / 12.0;
    m->halo_fraction = 1.0 - 1.0 / halo;
    m->smem_bytes = (double)steps * t * t * 4.0;
    snprintf(m->formula, sizeof(m->formula), "8 * S / (8 * T^2/O^2 + 4) = %.2f at T=%d, O=%d, S=%d (u and f with halo, v, per launch)", m->book, t, o, steps);
    return 0;
}

// Lab 5: 8 flops a point; loads: the u tile with its halo, and f.
static int opb_jacobi(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)k, (void)o;
    if (opb_tiled(t, radius, m) != 0 || radius != 1)
        return -1;
    double inner = (double)(t - 2) * (t - 2) * (t - 2), tile = (double)t * t * t;
    m->book = 8.0 * inner / (4.0 * tile + 4.0 * inner);
    m->bound = 1.0;
    m->halo_fraction = 1.0 - inner / tile;
    m->smem_bytes = 1.0 * t * t * 4.0;
    snprintf(m->formula, sizeof(m->formula), "8 * (T-2)^3 / (4 * T^3 + 4 * (T-2)^3) = %.2f at T=%d (u tile with halo, plus f)", m->book, t);
    return 0;
}

// Labs 2-4 and 8: (12r+1)(T-2r)^3/(4T^3); shared memory the input tile
// (lab 2), the 2r + 1 planes a marching block keeps (lab 3) or one plane
// (labs 4 and 8).
static int opb_tile_sweep(const lab_technique *k, int t, int o, int radius, opb_model *m)
{
    (void)o;
    if (opb_tiled(t, radius, m) != 0)
        return -1;
    const double flops = reference_flops(radius);
    const int w = 2 * radius;
    double inner = (double)(t - w) * (t - w) * (t - w), tile = (double)t * t * t;
    m->book = flops * inner / (4.0 * tile);
    m->halo_fraction = 1.0 - inner / tile;
    snprintf(m->formula, sizeof(m->formula), "%.0f * (T-%d)^3 / (4 * T^3) = %.2f at T=%d", flops, w, m->book, t);
    m->smem_bytes = !k->marches_z ? tile * 4.0 : (k->registers ? 1.0 : w + 1.0) * t * t * 4.0;
    return 0;
}

// Lab 0: Fig 7.14's model at the filter radius (opb_conv_model; o is OUT_TILE_DIM).
static int opb_convolution(const lab_technique *k, int t, int o, int filter_radius, opb_model *m)
{
    (void)k;
    return opb_conv_model(t, o, filter_radius, m);
}

int opb_book_model(const char *name, int t, int o, int radius, opb_model *m)
{
    const lab_technique *k = technique_find(name);
    if (!k || k->filter_model) {
        memset(m, 0, sizeof(*m));
        return -1;
    }
    return k->model(k, t, o, radius, m);
}

// ---------------------------------------------------------------------------
// The techniques: one entry each, in the order lab.conf's errors list them
// ---------------------------------------------------------------------------

static const lab_technique technique_table[] = {
    {.name = "naive", .rule = technique_naive, .model = opb_naive, .one_launch = 1},
    {.name = "shared-tile", .rule = technique_shared_tile, .model = opb_tile_sweep, .one_launch = 1, .counts_loads = 1},
    {.name = "z-coarsening", .rule = technique_z_march, .model = opb_tile_sweep, .one_launch = 1, .counts_loads = 1, .marches_z = 1},
    {.name = "register-tiling", .rule = technique_z_march, .model = opb_tile_sweep, .one_launch = 1, .counts_loads = 1, .marches_z = 1, .registers = 1},
    {.name = "jacobi", .rule = technique_jacobi, .model = opb_jacobi},
    {.name = "time-blocking", .rule = technique_time_blocking, .model = opb_time_blocking, .time_blocked = 1},
    {.name = "speed", .rule = technique_naive, .model = opb_speed, .one_launch = 1, .speed = 1},
    {.name = "convolution", .rule = technique_shared_tile, .model = opb_convolution, .one_launch = 1, .filter_model = 1, .counts_loads = 1, .image = 1},
    {.name = "heat2d", .rule = technique_heat2d, .model = opb_heat2d},
};

const lab_technique *technique_at(int i)
{
    return i >= 0 && i < (int)(sizeof(technique_table) / sizeof(technique_table[0])) ? &technique_table[i] : NULL;
}

const lab_technique *technique_find(const char *name)
{
    for (int i = 0; name && technique_at(i); i++)
        if (!strcmp(technique_table[i].name, name))
            return &technique_table[i];
    return NULL;
}
