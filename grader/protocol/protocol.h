// grader/protocol/protocol.h — what the judge and a runner agree on.
//
// The judge starts a runner as a child process: on a GPU the trusted executor
// (grader/executor/, which serves the student's program over the messages of
// wire.h), under CPU emulation the emulation runner (grader/emu/). The runner reads the case from files, writes the
// grids it got back and a report of key=value lines, and exits with one of
// the codes below. The judge trusts only these files, never the runner's
// standard output, so a kernel that prints "PASS" or calls exit(0) forges nothing.
#ifndef STENCIL_PROTOCOL_H
#define STENCIL_PROTOCOL_H

#define RUNNER_OK            0   // ran; the grids are in the output files
#define RUNNER_USAGE         2   // bad arguments or unreadable case files: a kit problem
#define RUNNER_LAUNCH_FAILED 3   // the launch itself failed (e.g. invalid configuration)
#define RUNNER_KERNEL_FAULT  4   // the kernel faulted while running (e.g. illegal address)
#define RUNNER_NO_MEMORY     5   // the case does not fit in device memory
#define RUNNER_REFUSED       6   // the student's code made a call the lab forbids (the report's error= names it)
#define RUNNER_VIOLATION     7   // the student's program broke the protocol: a late call, an exit, a crash (violation_kind=)
#define RUNNER_REP_WRONG     8   // a timed repetition's output was wrong (timed_rep_* keys say how)
#define RUNNER_NO_GPU        77  // no usable GPU (the report's error= quotes CUDA)

// Bit patterns written around and into the output buffers. Both are quiet NaNs
// with payloads no arithmetic produces, so the judge can tell "never written"
// and "written outside the buffer" from a NaN the kernel computed.
#define POISON_BITS 0x7FF0DEADu  // every interior output cell before the launch
#define GUARD_BITS  0x7FCA11EDu  // the guard zones before and after each buffer

#define GUARD_MIN_FLOATS 4096    // guard zone length: at least this, and at least one plane

// The copy limit a timed run reports (bandwidth_by): which measurement set it.
#define COPY_LIMIT_BY_KERNEL "kernel"   // the float4 copy kernel, one element a thread
#define COPY_LIMIT_BY_MEMCPY "memcpy"   // cudaMemcpy device to device over the same bytes

// Guard cells on each side of a grid whose planes hold plane_cells cells. The
// judge computes it too, rather than believe the runner.
static inline unsigned long long protocol_guard_cells(unsigned long long plane_cells)
{
    return plane_cells > GUARD_MIN_FLOATS ? plane_cells : GUARD_MIN_FLOATS;
}

// The sweep labs' student interfaces (lab.conf's `interface`): the host
// function a runner built for each calls, as the judge names it in its
// messages. A runner is built for one (grader/build.mk INTERFACE=, which
// defines STENCIL_INTERFACE_GRID for the grid one); every sweep runner takes
// the case's size as --size NX,NY,NZ.
#define INTERFACE_CUBE          "cube"            // kernels/lab.h, labs 1-4: N×N×N grids only
#define INTERFACE_CUBE_FUNCTION "launch_stencil"  // launch_stencil(d_in, d_out, N)
#define INTERFACE_GRID          "grid"            // kernels/grid.h: any nx×ny×nz grid
#define INTERFACE_GRID_FUNCTION "launch_sweep"    // launch_sweep(d_in, d_out, nx, ny, nz)
#include "../../kernels/conv_limits.h"
#define PROTOCOL_MAX_WEIGHTS (CONV_MAX_WIDTH * CONV_MAX_WIDTH)  // the most weights --coef carries: c0..c6, or a 9x9 filter
#define INTERFACE_IMAGE          "image"              // kernels/conv.h, lab 0: a 2D convolution on width×height images (nz = 1)
#define INTERFACE_IMAGE_FUNCTION "launch_convolution" // launch_convolution(d_in, d_out, width, height, r)

// The two boundary rules of a sweep runner's case. A seven-point sweep
// (cube, grid) writes only interior cells: the boundary keeps its input
// values. A convolution (image, --radius R) writes every cell, its ghost
// cells (outside the image) counting as 0. 1 if cell (i, j, k) of an
// nx×ny×nz grid is one the student's kernel must write; the judge, the
// executor's prepare and check kernels and the emulation runner all ask here.
#ifdef __CUDACC__
#define PROTOCOL_HOST_DEVICE __host__ __device__
#else
#define PROTOCOL_HOST_DEVICE
#endif
PROTOCOL_HOST_DEVICE static inline int protocol_cell_written(int every_cell, unsigned long long i, unsigned long long j,
                                                             unsigned long long k, unsigned long long nx,
                                                             unsigned long long ny, unsigned long long nz)
{
    return every_cell || (i > 0 && j > 0 && k > 0 && i + 1 < nz && j + 1 < ny && k + 1 < nx);
}

// File names inside the case directory the judge hands the runner.
#define CASE_INPUT     "in.bin"        // nx*ny*nz floats, written by the judge
#define CASE_OUTPUT    "out.bin"       // guard | grid | guard of the output after the checked launch
#define CASE_INPUT_AFTER "in_after.bin" // guard | grid | guard of the input buffer after it
#define CASE_TIMED     "out_timed.bin" // guard | grid | guard of the output after the timed launches
#define CASE_REPORT    "report.txt"    // key=value lines
#define CASE_LOG       "runner.log"    // the runner's (and the student's program's) standard output and error
#define CASE_JACOBI_F       "f.bin"        // lab 5: f, written by the judge
#define CASE_JACOBI_A       "u_a.bin"      // lab 5: guard | d_a | guard after the checked solve
#define CASE_JACOBI_B       "u_b.bin"      // lab 5: guard | d_b | guard after it
#define CASE_JACOBI_F_AFTER "f_after.bin"  // lab 5: guard | d_f | guard after it

#endif // STENCIL_PROTOCOL_H
