// grader/judge/technique.h — did the kernel use the idea the lab teaches? And the
// book's arithmetic-intensity (OP/B) model for the tile sizes it declared.
//
// Both read the runner's report: the launch records (kernel, grid, block,
// shared memory) and the tile sizes the kernel file #defines.
#ifndef STENCIL_TECHNIQUE_H
#define STENCIL_TECHNIQUE_H

#include <stddef.h>

#include "kv.h"

#include "../../kernels/conv_limits.h"

#define TECHNIQUE_OK 1
#define TECHNIQUE_FAIL 0
#define TECHNIQUE_NA (-1)

typedef struct launch_info {
    char kernel[128];           // kernel name as reported
    unsigned long long grid[3]; // grid dimensions
    unsigned long long block[3];// block dimensions
    size_t smem;                // static + dynamic shared memory, bytes
} launch_info;

typedef struct technique_result {
    int status;                 // TECHNIQUE_OK, TECHNIQUE_FAIL or TECHNIQUE_NA
    char detail[1024];          // what was seen, and on failure what is expected
} technique_result;

// Reads launch record idx ("launch.<idx>") from the runner's report into li.
// Returns 0, or -1 if it is missing or malformed.
int technique_launch(const kv_list *report, int idx, launch_info *li);

// The report's launches and its first launch's kernel, grid and block as
// one line into out ("" without them): what a run of the same case must
// launch again, the load count's run included (load_count.c). The record's
// registers and static shared memory, read by the executor from the
// function, are left out: a profiler's instrumentation may change them.
void technique_launches_of(const kv_list *report, char *out, size_t len);

// Checks technique (a name of the techniques table: technique_find)
// against the report of a run on an n×n×n grid of a star of radius r (its
// interior and a tile's halo are r cells deep: 1 for the seven-point star;
// the Jacobi and convolution rules do not read it).
technique_result technique_check(const char *technique, const kv_list *report, unsigned int n, int radius);

// As technique_check, on an n[0]×n[1]×n[2] (nx, ny, nz) grid.
technique_result technique_check_grid(const char *technique, const kv_list *report, const unsigned int n[3], int radius);

// 1 if the technique has load floors (technique_loads_grid checks them):
// the tiled sweeps and the convolution. The judge counts loads under Nsight
// Compute for these only: another run costs seconds.
int technique_counts_loads(const char *technique);

// The floors the launch cannot show, from the loads the student's kernel
// read on the technique's case (Nsight Compute's count of the bytes the
// kernel's threads loaded, on a GPU), in floats per output point, for a star
// of radius r (6r neighbours, 4r of them in the point's plane):
// labs 2 and 3 read at least half of the neighbours from shared memory
// (3r shared loads per output point), lab 4 half of the in-plane ones
// (2r); labs 3 and 4 load no more from global memory than a marching block
// needs to fill its planes (its plane with an r-deep halo, and the 2r planes
// before and after its march) plus 0.75 of a load a point, less than the one
// load a point that reading even one z neighbour from global memory adds.
// counted 0: not measured, why says why; the verdict is left as it was and
// the detail says so. counted TECHNIQUE_LOADS_NCU: the counts are Nsight
// Compute's on a GPU; TECHNIQUE_LOADS_EMU: CPU emulation's (every load a
// thread executes, counted by the emulator: grader/emu/runtime/loads.cpp);
// TECHNIQUE_LOADS_CUPTI: the executor's own on a GPU (load_count.h).
// Other techniques: no-op.
#define TECHNIQUE_LOADS_NCU 1
#define TECHNIQUE_LOADS_EMU 2
#define TECHNIQUE_LOADS_CUPTI 3
void technique_loads(const char *technique, const kv_list *report, unsigned int n, int radius, int counted,
                     double global_loads, double shared_loads, const char *why, technique_result *r);

// As technique_loads, on an n[0]×n[1]×n[2] (nx, ny, nz) grid.
void technique_loads_grid(const char *technique, const kv_list *report, const unsigned int n[3], int radius, int counted,
                          double global_loads, double shared_loads, const char *why, technique_result *r);

// The global loads a point a z-marching launch li may make on an n grid for
// a star of radius r: each block loads its plane with an r-deep halo
// (halo factor prod b/(b - 2r) over the tiled axes) for each of the planes it
// writes plus the 2r it only reads, and 0.75 of a load more. 0 if li marches
// over no plane.
double technique_global_ceiling(const launch_info *li, const unsigned int n[3], int radius);

// What a technique's launch rule reads (technique_check_grid fills it).
typedef struct technique_evidence {
    const kv_list *report;      // the runner's report
    long launches;              // kernel launches it recorded
    const launch_info *li;      // the one launch of a sweep (rules with one_launch), else NULL
    const unsigned int *n;      // the grid: nx, ny, nz
    int radius;                 // the star's radius
} technique_evidence;

typedef struct opb_model {
    double book;                // the book's OP/B for this kernel
    double bound;               // the model's upper bound as tiles grow (0: none)
    double halo_fraction;       // share of an input tile that is halo (0: no tiles)
    double smem_bytes;          // shared memory per block the model assumes (0: none)
    char formula[256];          // the formula with the kit's numbers
} opb_model;

// One technique a lab may check (lab.conf's technique; its opb_model names
// one of them too): its launch rule, its OP/B model and what the judge needs
// to know of it. Adding a technique is adding one entry (technique.c).
typedef struct lab_technique {
    const char *name;           // lab.conf's value
    void (*rule)(const struct lab_technique *k, const technique_evidence *e, technique_result *r);  // the launch rule: fills r
    int (*model)(const struct lab_technique *k, int t, int o, int radius, opb_model *m);  // the book's OP/B for tile t (output tile o): 0, or -1
    int one_launch;             // 1: a sweep, judged on its one launch record (any other count fails first)
    int filter_model;           // 1: the model's radius is a convolution's filter radius (a case's r=), not the star's
    int counts_loads;           // 1: load floors (technique_loads_grid), counted under Nsight Compute or emulation
    int marches_z;              // 1: a block marching in z (labs 3, 4, 8): planes-first hints, a global-load ceiling
    int registers;              // 1: the z neighbours in registers, one plane in shared memory (labs 4, 8)
    int image;                  // 1: 2D tiles of an image (lab 0): the convolution's floors and words
    int speed;                  // 1: any kernel shape, the lab graded on its speed (lab 6)
    int time_blocked;           // 1: several iterations a launch, the boundary step inside it (lab 9)
} lab_technique;

// The technique named name, or NULL for a name the kit does not know (conf.c
// refuses it when lab.conf loads, listing the table's names).
const lab_technique *technique_find(const char *name);

// The table's entry i (0, 1, ...), or NULL past its end.
const lab_technique *technique_at(int i);

// The report key under which the judge (never the runner) adds a Jacobi
// case's check_every, for the time-blocking rule: residual checks add
// launches that are no iteration's.
#define TECHNIQUE_KEY_CHECK_EVERY "judge.check_every"

// Evaluates the book's OP/B model name (a technique's, technique_find) for
// input tile edge t and a star of radius r, whose 12r + 1 operations a point
// (reference_flops) are counted over the bytes loaded from global memory:
// "naive" (12r+1)/(4(6r+1)), every neighbour loaded; "speed" (12r+1)/8, each
// point read once and written once; the tiled ones (12r+1)(T-2r)^3/(4T^3)
// for an input tile of edge T whose output tile is T - 2r, bound (12r+1)/4.
// t is ignored by "naive" and "speed". o, the output tile edge, is read only
// by "time-blocking" (lab 9, the seven-point Jacobi update: r = 1), whose
// tiles lose (t - o) / 2 cells of halo a side, one an iteration. Returns 0,
// or -1 for an unknown model, a filter's model (opb_conv_model) or a tile
// too small.
int opb_book_model(const char *name, int t, int o, int radius, opb_model *m);

// The book's OP/B for a tiled 2D convolution (PMPP §7.5, Fig 7.14) whose
// filter has radius R = filter_radius (lab 0; not a star's radius): an
// output tile of OUT×OUT pixels does OUT^2 (2R+1)^2 * 2 flops on an input
// tile of (OUT+2R)^2 floats. out_tile: OUT_TILE_DIM as declared, or 0 when
// the kernel declares only in_tile (IN_TILE_DIM: the block is the input
// tile, OUT = IN_TILE_DIM - 2R). The formula carries the row of Fig 7.14 for
// this tile at every radius the lab draws. Returns 0, or -1 with no tile.
int opb_conv_model(int in_tile, int out_tile, int filter_radius, opb_model *m);

#endif // STENCIL_TECHNIQUE_H
