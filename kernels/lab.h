// kernels/lab.h — what every sweep lab (1 to 4) gives the student's kernel file.
//
// Include it at the top of your kernel file. It provides:
//   - the seven stencil coefficients c0..c6 in constant memory. The grader draws
//     them at random for every case (all different, so a swapped neighbour or a
//     dropped term cannot pass by symmetry) and copies them in before your
//     launch function runs. Your kernel reads them like ordinary floats.
//   - the prototype of the host function you write, launch_stencil().
//   - LAB_INDEX(i, j, k, N): the linear index the book uses for an N×N×N grid.
//
// Naming follows PMPP §8.2 (Fig 8.6): i is the plane (z, slowest), j the row (y),
// k the column (x, fastest, contiguous in memory). The seven-point stencil is
//
//   out[i][j][k] = c0*in[i][j][k]
//                + c1*in[i][j][k-1] + c2*in[i][j][k+1]      (x neighbours)
//                + c3*in[i][j-1][k] + c4*in[i][j+1][k]      (y neighbours)
//                + c5*in[i-1][j][k] + c6*in[i+1][j][k]      (z neighbours)
//
// for every interior point 1 <= i, j, k <= N-2. Boundary cells keep their input
// values: when your kernel runs, out's boundary cells already hold them, so your
// kernel must write every interior cell and nothing else.
#ifndef STENCIL_LAB_H
#define STENCIL_LAB_H

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

// Linear index of point (i, j, k) of an N×N×N grid stored plane by plane.
#define LAB_INDEX(i, j, k, N) ((size_t)(i) * (N) * (N) + (size_t)(j) * (N) + (k))

// ---------------------------------------------------------------------------
// What the student writes (one kernel file per lab)
// ---------------------------------------------------------------------------

// Launches the lab's kernel over an N×N×N grid: d_in and d_out are device
// pointers to N*N*N floats each. Chooses the grid and block, launches, and
// returns without synchronising (the kit synchronises and checks errors).
void launch_stencil(float *d_in, float *d_out, unsigned int N);

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

#endif // STENCIL_LAB_H
