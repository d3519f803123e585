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

// Checks technique ("naive", "shared-tile", "z-coarsening", "register-tiling", "jacobi",
// "speed": the naive rule, for a lab graded on its speed) against the report
// of a run on an n×n×n grid.
technique_result technique_check(const char *technique, const kv_list *report, unsigned int n);

// As technique_check, on an n[0]×n[1]×n[2] (nx, ny, nz) grid.
technique_result technique_check_grid(const char *technique, const kv_list *report, const unsigned int n[3]);

// The floors the launch cannot show, from the loads the student's kernel
// read on the technique's case (Nsight Compute's count of the bytes the
// kernel's threads loaded, on a GPU), in floats per output point:
// labs 2 and 3 read at least half of the six neighbours from shared memory
// (3 shared loads per output point), lab 4 half of the four in-plane ones
// (2); labs 3 and 4 load no more from global memory than a marching block
// needs to fill its planes (the halo and the first planes of its march)
// plus 0.75 of a load a point, less than the one load a point that reading
// even one z neighbour from global memory adds. counted 0: not measured, why says why; the
// verdict is left as it was and the detail says so. Other techniques: no-op.
void technique_loads(const char *technique, const kv_list *report, unsigned int n, int counted,
                     double global_loads, double shared_loads, const char *why, technique_result *r);

// As technique_loads, on an n[0]×n[1]×n[2] (nx, ny, nz) grid.
void technique_loads_grid(const char *technique, const kv_list *report, const unsigned int n[3], int counted,
                          double global_loads, double shared_loads, const char *why, technique_result *r);

typedef struct opb_model {
    double book;                // the book's OP/B for this kernel
    double bound;               // the model's upper bound as tiles grow (0: none)
    double halo_fraction;       // share of an input tile that is halo (0: no tiles)
    double smem_bytes;          // shared memory per block the model assumes (0: none)
    char formula[256];          // the formula with the kit's numbers
} opb_model;

// Evaluates the book's OP/B model name for input tile edge t (ignored by
// "naive" and "speed", whose model is the streaming bound 13/8) and output
// tile edge o (read only by "time-blocking", whose tiles lose (t - o) / 2
// cells of halo a side, one an iteration). Returns 0, or -1 for an unknown
// model or a tile too small.
int opb_book_model(const char *name, int t, int o, opb_model *m);

// The book's OP/B for a tiled 2D convolution (PMPP §7.5, Fig 7.14): an
// output tile of OUT×OUT pixels does OUT^2 (2r+1)^2 * 2 flops on an input
// tile of (OUT+2r)^2 floats. out_tile: OUT_TILE_DIM as declared, or 0 when
// the kernel declares only in_tile (IN_TILE_DIM: the block is the input
// tile, OUT = IN_TILE_DIM - 2r). The formula carries the row of Fig 7.14 for
// this tile at every radius the lab draws. Returns 0, or -1 with no tile.
int opb_conv_model(int in_tile, int out_tile, int r, opb_model *m);

#endif // STENCIL_TECHNIQUE_H
