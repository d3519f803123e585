// grader/emu/launch_log.h — records every kernel launch a student's code makes.
//
// The runner brackets the student's launch function with launch_log_begin()
// and launch_log_end(); the records say which kernels ran with which grid,
// block and shared memory. The technique checks of labs 2-5 are built on them.
// Two implementations: launch_log_cupti.cu (GPU, through CUPTI's callback API)
// and the CPU emulation backend's own (grader/emu/).
#ifndef STENCIL_LAUNCH_LOG_H
#define STENCIL_LAUNCH_LOG_H

#include <stddef.h>

#define LAUNCH_LOG_MAX 4096        // records kept; further launches are only counted
#define LAUNCH_KERNEL_KINDS_MAX 16 // kernels a whole solve's report counts by name (kernel.0 ...)

typedef struct launch_record {
    char kernel[128];          // the kernel's name as the toolkit reports it (may be mangled)
    unsigned int grid[3];      // gridDim.x, .y, .z of the launch
    unsigned int block[3];     // blockDim.x, .y, .z of the launch
    size_t dynamic_smem;       // dynamic shared memory asked for at launch, bytes
    size_t static_smem;        // the kernel's static shared memory, bytes
    int regs;                  // registers per thread; -1 when unknown
} launch_record;

// Starts recording launches. Returns 0, or -1 with a reason in why[] when
// launches cannot be recorded on this machine.
int launch_log_begin(char *why, size_t why_len);

// Stops recording; fills the kernels' attributes in. Returns the number of
// launches seen (which may exceed LAUNCH_LOG_MAX), -1 on error, or
// LAUNCH_LOG_FORGED when the records were tampered with (emulation, where the
// student's code shares the process: a record changed, the bracket begun or
// ended again, the recording switched off, or a launch left unrecorded);
// launch_log_forged() then says how.
#define LAUNCH_LOG_FORGED (-2L)
long launch_log_end(void);
const char *launch_log_forged(void);

// The bytes the bracket's kernels loaded from global and from shared memory,
// over every thread that loaded (what Nsight Compute's load counts give on a
// GPU). Returns 1 when this build counts them (CPU emulation built with GCC's
// sanitizer calls), else 0 (the executor: the judge runs Nsight Compute).
int launch_log_loads(double *global_bytes, double *shared_bytes);

// The bytes the last bracket's calls copied from device memory to device
// memory (cudaMemcpy and cudaMemcpyAsync of kind device-to-device; under
// emulation also of kind default between two device pointers), reported as
// LAUNCH_LOG_KEY_DEVICE_COPIES: a whole solve that copies its new grid back
// over the old one each step, instead of swapping the two pointers, moves
// the grid through DRAM twice a step, as a copy kernel would.
#define LAUNCH_LOG_KEY_DEVICE_COPIES "device_copy_bytes"
double launch_log_device_copies(void);

// The idx-th record of the last begin/end bracket (idx < min(count, MAX)).
const launch_record *launch_log_record(long idx);

#endif // STENCIL_LAUNCH_LOG_H
