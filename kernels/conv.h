// kernels/conv.h — what lab 0 (2D convolution, PMPP chapter 7) gives the
// student's kernel file (lab.conf: `interface = image`).
//
// Include it at the top of your kernel file. It provides:
//   - the filter F in constant memory, room for the largest radius the lab
//     draws (CONV_MAX_RADIUS = 4: 9x9). For a case of radius r the kit copies
//     a (2r+1)x(2r+1) filter into F[0..2r][0..2r] (the rest of F is 0) before
//     your host function runs. Its weights are random and all different, so a
//     transposed or flipped filter cannot pass by symmetry.
//   - the prototype of the host function you write, launch_convolution().
//   - IMAGE_INDEX(row, col, width): the linear index of pixel (row, col).
//
// Images are stored row by row: pixel (row, col), 0 <= row < height and
// 0 <= col < width, is at row*width + col (col fastest). The convolution is
//
//   out[row][col] = sum over i, j in [-r, r] of F[i+r][j+r] * in[row+i][col+j]
//
// for EVERY pixel of the image, where a pixel outside the image (a ghost
// cell) counts as 0. When your kernel runs, every pixel of out holds poison:
// your kernel must write each one, and nothing else.
#ifndef STENCIL_CONV_H
#define STENCIL_CONV_H

#include "conv_limits.h"  // CONV_MAX_RADIUS (4), CONV_MAX_WIDTH (9)

// Linear index of pixel (row, col) of an image width pixels wide, in size_t.
#define IMAGE_INDEX(row, col, width) ((size_t)(row) * (width) + (size_t)(col))

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// The filter (set by the kit before each run; read-only for kernels)
// ---------------------------------------------------------------------------
__constant__ float F[CONV_MAX_WIDTH][CONV_MAX_WIDTH];  // F[i + r][j + r] weighs in[row + i][col + j]

// ---------------------------------------------------------------------------
// What the student writes
// ---------------------------------------------------------------------------

// Launches the lab's kernel over a width x height image: d_in and d_out are
// device pointers to width*height floats each, r (1..CONV_MAX_RADIUS) the
// filter's radius. Chooses the grid and block, launches, and returns without
// synchronising (the kit synchronises and checks errors). It must not change F.
// Launch on the default stream: creating streams or events is refused (the
// kit orders and times the work itself).
void launch_convolution(const float *d_in, float *d_out, unsigned int width, unsigned int height, int r);

// ---------------------------------------------------------------------------
// Kit side: called by the grader's runner, never by student code
// ---------------------------------------------------------------------------

// Copies a (2r+1)x(2r+1) filter f (row by row) into F, zero elsewhere;
// returns the CUDA error, or cudaSuccess.
static inline cudaError_t lab_set_filter(const float *f, int r)
{
    float all[CONV_MAX_WIDTH][CONV_MAX_WIDTH] = {{0}};
    for (int i = 0; i < 2 * r + 1 && r <= CONV_MAX_RADIUS; i++)
        for (int j = 0; j < 2 * r + 1; j++)
            all[i][j] = f[i * (2 * r + 1) + j];
    return cudaMemcpyToSymbol(F, all, sizeof(all));
}

#endif // STENCIL_CONV_H
