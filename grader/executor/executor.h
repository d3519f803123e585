// grader/executor/executor.h — the executor's parts: serving a student's
// program (serve.cu) and the kit's own trusted kernels (trusted.cu).
#ifndef STENCIL_EXECUTOR_H
#define STENCIL_EXECUTOR_H

#include <cuda.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "grid_fill.h"
#include "launch_log.h"
#include "wire.h"

// ---------------------------------------------------------------------------
// Serving the student's program (serve.cu)
// ---------------------------------------------------------------------------

#define EXEC_MAX_FUNCTIONS 256   // kernels a program may register
#define EXEC_MAX_VARS      256   // __device__/__constant__ variables
#define EXEC_MAX_ALLOCS    1024  // live allocations, the kit's and the program's

typedef struct exec_function {
    uint64_t handle;            // the host stub's address in the program: the kernel's name there
    char name[WIRE_MAX_NAME + 1]; // its mangled name in the module
    CUfunction f;               // resolved on first use, or NULL
    int nparams;                // its parameters (-1 until asked)
    uint32_t psize[WIRE_MAX_PARAMS]; // each one's bytes
    int regs;                   // registers per thread
    size_t static_smem;         // static shared memory per block
} exec_function;

typedef struct exec_var {
    uint64_t host;              // the shadow variable's address in the program
    uint64_t size;              // bytes the program registered
    char name[WIRE_MAX_NAME + 1]; // its name in the module
} exec_var;

// A gate on the stream: a kernel of one thread that holds the GPU's queue
// until the host opens it, so that a timed span's start event and its first
// launch are both queued when the GPU reaches them. Without it the start
// event fires on an idle GPU as soon as it is queued, and the span counts the
// microseconds the host takes to submit the launch after it (about 1% of a
// 0.3 ms sweep): the host's time, not the kernel's.
typedef struct trusted_gate {
    volatile unsigned int *open;  // host memory the kernel reads (mapped); 1: go on
    const unsigned int *d_open;   // the same word as the kernel addresses it
    int held;                     // 1 between trusted_gate_hold and trusted_gate_open
} trusted_gate;

// How long a gate holds the queue at most. The executor opens it right after
// it submits the launch, tens of microseconds later; a host kept from that
// longer (a busy machine), or a tool that runs each launch to its end before
// the next call returns (Nsight Compute), costs this at most, and the span
// then counts the submission as it would without a gate.
#define TRUSTED_GATE_LIMIT_NS 5000000ull

typedef struct exec_alloc {
    uint64_t ptr;               // device address
    uint64_t bytes;             // length
    int kit;                    // 1: a grid of the kit's (no host copies in or out); 0: the program's, or its scratch
} exec_alloc;

typedef struct exec_call_result {
    int returned;               // 1: the program answered WIRE_RETURN
    char answer[64];            // the RETURN payload (kind-specific)
    uint32_t answer_len;        // its length
    int started;                // 1: the call did GPU work (the start event was recorded)
    float ms;                   // start to stop, GPU time, when started
    cudaError_t launch_error;   // the first launch error of the call
} exec_call_result;

typedef struct exec_state {
    pid_t child;                // the program's process
    int to_child;               // pipe: executor -> program
    int from_child;             // pipe: program -> executor
    CUmodule module;            // the program's device code, loaded
    int have_module;            // 1 once loaded
    int ready;                  // 1 once the program sent WIRE_READY
    int in_call;                // 1 between WIRE_CALL and WIRE_RETURN
    exec_function fns[EXEC_MAX_FUNCTIONS]; // registered kernels
    int nfns;
    exec_var vars[EXEC_MAX_VARS];  // registered variables
    int nvars;
    exec_alloc allocs[EXEC_MAX_ALLOCS]; // every allocation a pointer may fall in
    int nallocs;
    uint64_t program_bytes;     // the program's own allocations, in bytes
    uint64_t program_limit;     // most bytes it may allocate
    uint64_t host_in_bytes;     // bytes copied from the host into device memory in this call
    uint64_t host_in_limit;     // most bytes a call may copy so (exec_host_in_limit)
    cudaError_t last_error;     // as the runtime's: set by a failed launch, cleared by cudaGetLastError
    cudaError_t sticky;         // a fault: every later call answers it
    cudaEvent_t start, stop;    // the call's timing events
    int started;                // 1 once the call's start event is recorded
    trusted_gate *gate;         // a timed call's gate (exec_call_timed), else NULL: held before the start event when the call's first GPU work is a launch
    cudaError_t launch_error;   // the first launch error of the call
    int logging;                // 1: keep launch records (launch_log.h)
    char refusal[256];          // the first refused call, or ""
    char violation[256];        // the first protocol violation, or ""
    char violation_kind[32];    // late-call, program-ended or protocol
    char device_name[256];      // for WIRE_DEVICE_NAME
} exec_state;

// Starts program as a confined child whose pipes are ex's; reads its
// registration up to WIRE_READY, loading its device code. Returns 0, or -1
// with ex->violation set (or why[] for a kit problem).
int exec_start(exec_state *ex, const char *program, unsigned cpu_seconds, char *why, size_t why_len);

// Calls the student's host function once: sends WIRE_CALL with payload,
// serves the program's requests until WIRE_RETURN, times the GPU work between
// them. Returns 0, or -1 when the program broke the protocol or ended (see
// ex->violation).
int exec_call(exec_state *ex, const void *payload, size_t len, exec_call_result *res);

// Waits grace_ms for anything the program sends after its last call
// returned; sets ex->violation (late-call) if something came. Returns 1 if it did.
int exec_check_late(exec_state *ex, int grace_ms);

// Ends the program (WIRE_EXIT, then SIGKILL) and reaps it.
void exec_stop(exec_state *ex);

// Frees every device allocation ex tracked (the kit's grids and the
// program's own), unloads the program's module and destroys its events; the
// program itself may still run (a late call it makes touches none of them).
void exec_release_gpu(exec_state *ex);

// After exec_stop, when the executor goes on to another case:
// exec_release_gpu, then clears ex.
void exec_release(exec_state *ex);

// The launches of a call by their shape: which function, grid, block and
// dynamic shared memory, and how many times (exec_launch_watch).
#define EXEC_MAX_SHAPES 256
typedef struct exec_launch_shape {
    const exec_function *fn;    // the function launched (its identity: a record's name is shortened)
    char kernel[128];           // its name, for the report
    unsigned int grid[3], block[3];
    size_t dynamic_smem;
    long count;                 // launches of this shape in the call watched
} exec_launch_shape;
#define EXEC_WATCH_OFF   0      // launches not watched
#define EXEC_WATCH_LEARN 1      // the checked call: its shapes are learnt, with their counts
#define EXEC_WATCH_CHECK 2      // a later call: each launch is counted against the shapes learnt
// Sets how the next launches are watched; counts start from zero (LEARN forgets the shapes).
void exec_launch_watch(int mode);
// The shapes learnt, with the counts of the last call watched; overflow 1 if there were too many to keep.
const exec_launch_shape *exec_launch_shapes(int *n, int *overflow);
// The first launch of the last CHECK call whose shape was not learnt, or NULL.
const exec_launch_shape *exec_launch_stranger(void);

// Records a kit allocation (kit 1) the program may be given pointers into.
void exec_track(exec_state *ex, uint64_t ptr, uint64_t bytes, int kit);

// The device address of the program's variable called name, or 0.
CUdeviceptr exec_symbol(exec_state *ex, const char *name, size_t *bytes);

// 1 if the device range [d, d + bytes) overlaps a variable the kit set its
// weights in (c0..c12, lab 0's filter F): the program may read them by name
// in device code, never take their address (executor.cu keeps the list).
int exec_is_kit_weight(CUdeviceptr d, size_t bytes);

// ---------------------------------------------------------------------------
// The kit's own kernels (trusted.cu)
// ---------------------------------------------------------------------------

typedef struct check_counts {
    unsigned long long wrong;        // interior cells outside the tolerance (NaN included)
    unsigned long long unwritten;    // interior cells still holding the poison
    unsigned long long boundary;     // boundary cells changed
    unsigned long long guards;       // guard cells changed (writes outside the grid)
    unsigned long long first;        // linear index of the first bad cell, or ~0
    unsigned long long input_hash;   // keyed hash of the input as it was read
    unsigned long long plain_sum;    // a drawn whole solve's plain sum of u0 and f (grid_fill_term keys 0, 1)
} check_counts;

// The output a sweep's kernel is handed, made on the device from the input
// already in in_base: the cells to write poisoned (protocol_cell_written),
// the rest = input, the output's guards set (the grid the emulation runner
// makes on the host with runner_prepare_output). Returns the launch's error.
cudaError_t trusted_sweep_output(const float *in_base, float *out_base, size_t guard, const unsigned n[3], int every_cell,
                          int star_radius);

// Fills a guarded sweep case of n[0]×n[1]×n[2] (nx, ny, nz) points (a timed
// repetition's, or the judge's drawn from its seed): the input grid from seed
// (grid_fill_value), the output's cells to write
// poisoned (protocol_cell_written: the interior of a star of radius
// star_radius, or with every_cell all of them), the rest = input (a star's
// boundary, star_radius layers at each face), both guards set. Returns the
// keyed hash of the input (key; 0: the plain sum), computed as it was written.
uint64_t trusted_sweep_prepare(float *in_base, float *out_base, size_t guard, const unsigned n[3], int every_cell,
                               int star_radius, uint64_t seed, uint64_t key);

// Checks a sweep's output against the star of radius star_radius of the input
// (filter_radius 0: coef is its 6r + 1 coefficients in protocol.h's order) or
// a 2D convolution of radius filter_radius (an image, nz = 1: coef is the
// (2R+1)^2 filter row by row, ghost cells 0), in double, tolerance atol +
// rtol * sum |w x|; the cells kept, the poison and the guards. Fills c
// (c->input_hash with key).
void trusted_sweep_check(const float *in_base, const float *out_base, size_t guard, const unsigned n[3], const float *coef,
                         int star_radius, int filter_radius, double rtol, double atol, uint64_t key, check_counts *c);

// The cells of a[0..n) and b[0..n) whose bits differ (both on the device);
// ~0 if it could not count.
unsigned long long trusted_count_differ(const float *a, const float *b, size_t n);

// A whole solve's problem, as the kit's kernels take it (by value).
typedef struct trusted_solve {
    unsigned n[3];    // nx, ny, nz: points per axis
    unsigned pitch;   // floats a stored row takes: nx, or more for padded rows (their padding holds PAD_BITS)
    float h;          // Jacobi: grid spacing
    int bc;           // Jacobi: LAB_BC_* (the heat update: LAB_BC_DIRICHLET)
    int heat;         // 1: the heat update (protocol_heat_update), 0: Jacobi's
    float rate;       // heat: r
} trusted_solve;

// Fills a guarded whole-solve case for a timed repetition: d_a = d_b = the
// initial grid from seed (Jacobi: boundary cells already satisfying bc; heat:
// an interior at random and four edge temperatures), d_f = g/h^2 from seed + 1
// (heat: 0), the padding of every row PAD_BITS, guards set. Returns the keyed
// hash of f.
uint64_t trusted_jacobi_prepare(float *a_base, float *b_base, float *f_base, size_t guard, const trusted_solve *s,
                                uint64_t seed, uint64_t key, uint64_t *plain_sum);

// A solve's stopping rule and the check's tolerance.
typedef struct trusted_stop {
    int max_iters, check_every;   // the iterations at most, a residual check every check_every (0: none)
    float tol;                    // stop at a check whose residual is below tol
    double rtol, atol;            // a cell passes within atol + iters * rtol * scale of the reference
    double scale;                 // the judge's scale (max |u0| + h^2 max |f| / 6); 0: its bound, 1 + 1/6
} trusted_stop;

// Where the reference solve stopped.
typedef struct trusted_ref_end {
    int iters;                    // iterations done
    double residual;              // the residual at its last check; -1 if it made none
} trusted_ref_end;

// Solves the same problem in double from seed (as trusted_jacobi_prepare drew
// it), with stop's stopping rule; compares got (the program's newest grid)
// with stop's tolerance at the reference's iteration count, and checks its
// padding and guards. Fills c and *end (c->input_hash: f's keyed hash as
// read from f_base).
void trusted_jacobi_check(const float *got, const float *f_base, size_t guard, const trusted_solve *s,
                          const trusted_stop *stop, uint64_t seed, uint64_t key, check_counts *c, trusted_ref_end *end);

// Seconds on the monotonic clock (the executor's trace, the count's wait for busy counters).
static inline double exec_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The student's loads in a call counted in the executor (loads.cu, CUPTI's
// range profiler): exec_loads_prepare (optional: the host's part, the
// metrics' configuration, before the GPU's locks are taken, so that they are
// held for the GPU's part only; 0, or -1 with why), exec_loads_arm (optional:
// the range profiler enabled on the context and configured, apart so that
// tests/device_cupti.sh times it: 0.006 s on an H200, where the profiler's
// start takes 0.2 s, 0.4 s beside another process's work), exec_loads_begin before
// the call (0, or -1 with why), exec_loads_end after it, told the launches
// the call made: the bytes of global loads, asynchronous copies from global
// memory and shared loads over the call's launches (0, or -1 with why, also
// when the profiler holds fewer ranges than there were launches: a count of
// part of the call is no count).
//
// LOADS_MAX_RANGES: the launches a counted call may make (more: the count says why it is missing,
// LOADS_MISSING_LAUNCHES, and the judge counts with Nsight Compute, or fails the technique
// without it). The range profiler's start grows
// with it: on an H200, 0.15 s for 16 ranges, 0.9-1.3 s for 1024.
#ifndef LOADS_MAX_RANGES
#define LOADS_MAX_RANGES 64
#endif
int exec_loads_prepare(char *why, size_t len);
int exec_loads_arm(char *why, size_t len);
// exec_loads_begin waits up to LOADS_BUSY_WAIT_S for the GPU's counters while
// another process holds them (HARDWARE_BUSY), trying again.
int exec_loads_begin(char *why, size_t len);
// The kind of the last failure of a count (protocol.h's enum loads_missing_kind), reported beside its why.
int exec_loads_missing_kind(void);
int exec_loads_end(double bytes[3], long launches, char *why, size_t len);

// Frees the reference's grids, which trusted_jacobi_check keeps from one
// check to the next (a timed case checks every solve): at a case's end.
void trusted_ref_release(void);

// What a whole solve left in a guarded stored grid (base: guard | rows | guard).
typedef struct trusted_damage {
    unsigned long long unlike;    // cells (padding left out) whose bits are not the initial grid's drawn from seed
    unsigned long long damaged;   // guard cells without GUARD_BITS and padding cells without PAD_BITS
} trusted_damage;

// Counts them; both ~0 if it could not.
trusted_damage trusted_solve_damage(const float *base, size_t guard, const trusted_solve *s, uint64_t seed);

// The gate (trusted_gate, above): allocates its flag; 0, or -1 (the gate then holds nothing).
int trusted_gate_init(trusted_gate *g);
// Queues the holding kernel (it gives up by itself after TRUSTED_GATE_LIMIT_NS).
void trusted_gate_hold(trusted_gate *g);
// Lets a held gate's kernel end; nothing if none is held.
void trusted_gate_open(trusted_gate *g);
void trusted_gate_free(trusted_gate *g);

// Measures the copy limit: the best of a float4 copy kernel (one element per
// thread) and cudaMemcpy device-to-device over the same bytes, each the
// median of reps, each queued behind a gate like a timed call. Returns GB/s
// (read + written); *by names the winner.
double trusted_copy_limit(int reps, double *kernel_gbs, double *memcpy_gbs, const char **by);

#endif // STENCIL_EXECUTOR_H
