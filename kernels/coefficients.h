// kernels/coefficients.h — the seven stencil coefficients every sweep lab's
// kernel reads, in constant memory. lab.h (labs 1-4) and grid.h (the labs
// graded on nx×ny×nz grids) include it; a kernel file includes one of those,
// not this file.
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
#ifndef STENCIL_COEFFICIENTS_H
#define STENCIL_COEFFICIENTS_H

#include <cuda_runtime.h>

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

// ---------------------------------------------------------------------------
// Kit side: called by the grader's runner, never by student code
// ---------------------------------------------------------------------------

// Copies the seven coefficients into constant memory; returns the first CUDA
// error, or cudaSuccess.
static inline cudaError_t lab_set_coefficients(const float c[7])
{
    cudaError_t err = cudaSuccess;
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c0, &c[0], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c1, &c[1], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c2, &c[2], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c3, &c[3], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c4, &c[4], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c5, &c[5], sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c6, &c[6], sizeof(float));
    return err;
}

#endif // STENCIL_COEFFICIENTS_H
