// Lab 0 — 2D convolution: the filter in constant memory, the tiled kernel
// with halo cells (PMPP §7.2-7.5, Figs 7.9 and 7.12)
//
// Each block copies its input tile (its output tile plus r halo pixels on
// every side) into shared memory and computes its output tile from there,
// the filter read from constant memory. Read handouts/00-convolution.md
// first. Check your work with
//     make check LAB=0          (on an NVIDIA GPU; falls back to CPU emulation without one)
//     make check LAB=0 EMU=1    (CPU emulation: correctness and technique, no timing)
// The grader draws random images, filters and radii for every case and
// prints the seed; `make check LAB=0 SEED=<seed>` replays a failing run exactly.
#include "conv.h"

// ---------------------------------------------------------------------------
// The tile
// ---------------------------------------------------------------------------

// The grader reads IN_TILE_DIM: with a block the size of the input tile (the
// book's Fig 7.12) each block computes an output tile of IN_TILE_DIM - 2r
// pixels a side, and the report prints the book's OP/B (Fig 7.14) for it. If
// your block is the output tile instead, #define OUT_TILE_DIM as well (the
// grader then takes the input tile as OUT_TILE_DIM + 2r). A block of
// IN_TILE_DIM² threads must fit in 1024: 32 is the largest.
#define IN_TILE_DIM 32

// ---------------------------------------------------------------------------
// The kernel
// ---------------------------------------------------------------------------

// TODO(1): compute one output tile per block, from an input tile in shared memory.
//
//   What to compute: for EVERY pixel (row, col) of the width x height image
//       out[row][col] = sum over i, j in [-r, r] of F[i+r][j+r] * in[row+i][col+j]
//     where a pixel outside the image (a ghost cell) counts as 0
//     (IMAGE_INDEX(row, col, width) from conv.h; F is in constant memory).
//     1. Every thread works out the image pixel it loads: the input tile's
//        corner is r pixels before (up and left of) the output tile's.
//     2. Load the input tile into a __shared__ array: a pixel inside the
//        image from in[], a ghost cell as 0.0f (never read in[] outside the
//        image: that is reading outside the array).
//     3. Wait until the whole tile is in shared memory.
//     4. Threads whose pixel is inside the output tile AND inside the image
//        compute it from the shared tile and F; the others write nothing.
//   What is allowed: reading in[] (each input-tile pixel once per block) and
//     F; shared memory (static or dynamic); writing out[] inside the image.
//     Do not write in[] or F (F is the kit's: changing it fails the case).
//     Also accepted: a block the size of the output tile that loops to load
//     the halo, and the halo-caching kernel of Fig 7.15 (halo pixels read
//     from in[], through the caches): the handout shows all three.
//   How it is graded: every pixel within a float32 rounding tolerance of a
//     double-precision CPU reference, on images from 1x1 to 257x131 (odd
//     sizes, one row, one column, smaller than the filter) with random
//     inputs in [-1, 1], random filters and radii r = 1..4; no pixel left
//     unwritten; nothing written outside out[]. Technique check: one launch,
//     and at least the block's worth of floats in shared memory; on a GPU
//     also the loads per pixel (at least half the taps from shared memory,
//     at most half from global memory: the filter from F, not through a
//     pointer to it). Then 8192x8192 at r = 2 is timed, and OP/B is printed:
//     the book's model for your tile, and on a GPU the measured ones.
__global__ void conv_kernel(const float *in, float *out, unsigned int width, unsigned int height, int r)
{
    // your code here
}

// ---------------------------------------------------------------------------
// The launch
// ---------------------------------------------------------------------------

// TODO(2): launch one block per output tile, so that the tiles cover every
//   pixel of the image, and launch conv_kernel on (d_in, d_out, width,
//   height, r).
//
//   What is allowed: the block your kernel was written for; one launch. The
//     image need not be a multiple of the output tile: round the number of
//     tiles up, in x from width and in y from height. Do not allocate, copy
//     or synchronise here: the grader times this function alone, and checks
//     CUDA errors itself after it returns.
//   How it is graded: as TODO(1); a launch that fails is reported with
//     CUDA's own error message, and the technique check reads the block and
//     shared memory of this launch.
void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r)
{
    // your code here
}
