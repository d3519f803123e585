// kernels/coefficients.h — the stencil coefficients every sweep lab's kernel
// reads, in constant memory. lab.h (labs 1-4), star13.h (the thirteen-point
// labs) and grid.h (the labs graded on nx×ny×nz grids) include it; a kernel
// file includes one of those, not this file.
//
// The grader draws the coefficients at random for every case (all different,
// so a swapped neighbour or a dropped term cannot pass by symmetry) and copies
// them in before your host function runs. Your kernel reads them like ordinary
// floats:
//
//   out[i][j][k] = c0*in[i][j][k]
//                + c1*in[i][j][k-1] + c2*in[i][j][k+1]      (x neighbours)
//                + c3*in[i][j-1][k] + c4*in[i][j+1][k]      (y neighbours)
//                + c5*in[i-1][j][k] + c6*in[i+1][j][k]      (z neighbours)
//
// A star of radius 2 (STENCIL_RADIUS 2: kernels/star13.h) adds c7..c12, the
// same six neighbours two cells away, in the same order (x-2, x+2, y-2, y+2,
// z-2, z+2).
#ifndef STENCIL_COEFFICIENTS_H
#define STENCIL_COEFFICIENTS_H

#include <cuda_runtime.h>

// The star's radius: 1 (seven points) unless star13.h, or the kit's build of
// a thirteen-point lab, says 2.
#ifndef STENCIL_RADIUS
#define STENCIL_RADIUS 1
#endif
#if STENCIL_RADIUS != 1 && STENCIL_RADIUS != 2
#error "STENCIL_RADIUS is 1 (the seven-point star) or 2 (the thirteen-point star)"
#endif

// ---------------------------------------------------------------------------
// The coefficients (set by the kit before each run; read-only for kernels)
// ---------------------------------------------------------------------------
__constant__ float c0;  // centre
__constant__ float c1;  // x-1 (k-1)
__constant__ float c2;  // x+1 (k+1)
__constant__ float c3;  // y-1 (j-1)
__constant__ float c4;  // y+1 (j+1)
__constant__ float c5;  // z-1 (i-1)
__constant__ float c6;  // z+1 (i+1)
#if STENCIL_RADIUS >= 2
__constant__ float c7;   // x-2 (k-2)
__constant__ float c8;   // x+2 (k+2)
__constant__ float c9;   // y-2 (j-2)
__constant__ float c10;  // y+2 (j+2)
__constant__ float c11;  // z-2 (i-2)
__constant__ float c12;  // z+2 (i+2)
#endif

// ---------------------------------------------------------------------------
// Kit side: called by the grader's runner, never by student code
// ---------------------------------------------------------------------------

// Copies the 6 * STENCIL_RADIUS + 1 coefficients into constant memory;
// returns the first CUDA error, or cudaSuccess.
static inline cudaError_t lab_set_coefficients(const float *c)
{
    cudaError_t err = cudaSuccess;
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c0, &c[0], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c1, &c[1], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c2, &c[2], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c3, &c[3], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c4, &c[4], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c5, &c[5], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c6, &c[6], sizeof(float));
#if STENCIL_RADIUS >= 2
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c7, &c[7], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c8, &c[8], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c9, &c[9], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c10, &c[10], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c11, &c[11], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c12, &c[12], sizeof(float));
#endif
    return err;
}

#endif // STENCIL_COEFFICIENTS_H
