// grader/protocol/wire.h — the messages between a student's program and the
// executor, defined once for both sides.
//
// The student's program (the student's kernel file linked with the kit's CUDA
// runtime shim, grader/shim/) has no GPU. Every CUDA runtime call it makes
// becomes a message on file descriptor WIRE_FD_TO_EXECUTOR; the executor
// (grader/executor/), which owns the GPU, performs it and answers on
// WIRE_FD_FROM_EXECUTOR. A message is a wire_header followed by len bytes of
// payload. The executor treats every byte it receives as hostile: a message
// it cannot parse ends the case.
//
// Order of a run: the program's static constructors send WIRE_FATBIN,
// WIRE_FUNCTION and WIRE_VAR (registration, no answers); its main() sends
// WIRE_READY. The executor then sends WIRE_CALL for each call of the
// student's host function (launch_stencil, launch_sweep or jacobi_solve); between a
// WIRE_CALL and the program's WIRE_RETURN the program may send the requests
// below. Anything received outside that bracket, after WIRE_READY, is a late
// call. WIRE_EXIT ends the program.
#ifndef STENCIL_WIRE_H
#define STENCIL_WIRE_H

#include <stdint.h>

#define WIRE_FD_TO_EXECUTOR   3          // the program writes requests here
#define WIRE_FD_FROM_EXECUTOR 4          // and reads answers here
#define WIRE_MAX_PAYLOAD      (1u << 30) // a larger message is a protocol error
#define WIRE_MAX_NAME         1024       // longest kernel or symbol name
#define WIRE_MAX_PARAMS       64         // most kernel parameters a launch may pass

typedef struct wire_header {
    uint32_t op;   // a wire_op
    uint32_t len;  // payload bytes that follow
} wire_header;

// Requests carry fixed-size little-endian fields in the order given; "name"
// is the rest of the payload (no terminating zero). Every answer starts with
// an int32 cudaError_t; "->" lists what follows it.
enum wire_op {
    // Registration (program -> executor, no answer)
    WIRE_FATBIN = 1,      // the device code: the fatbin image bytes
    WIRE_FUNCTION,        // u64 host handle, name (mangled kernel name)
    WIRE_VAR,             // u64 host address, u64 size, u32 constant, name
    WIRE_READY,           // main() started: registration is over
    // The kit's calls (executor -> program)
    WIRE_CALL,            // sweep: wire_sweep_call. jacobi: u64 d_a, d_b, d_f, wire_jacobi_problem (heat_solve takes no d_f)
    WIRE_EXIT,            // end the program now
    // The program's answers to WIRE_CALL (no answer back)
    WIRE_RETURN,          // sweep: nothing. jacobi: i32 result, i32 iters_done, f32 residual
    // Requests inside a call (program -> executor)
    WIRE_LAUNCH,          // u64 host handle, u32 grid[3], u32 block[3], u64 shared bytes, u64 stream, arguments (no answer)
    WIRE_PARAMS,          // u64 host handle -> u32 count, u32 size[count]
    WIRE_MALLOC,          // u64 bytes -> u64 device pointer
    WIRE_FREE,            // u64 device pointer
    WIRE_MEMCPY,          // u64 dst, u64 src, u64 bytes, u32 kind, [bytes of data if host-to-device] -> [data if device-to-host]
    WIRE_MEMSET,          // u64 dst, u32 value, u64 bytes
    WIRE_SYMBOL_COPY,     // u64 host address of the symbol, u64 offset, u64 bytes, u32 to_symbol, [data if to_symbol] -> [data if not]
    WIRE_SYMBOL_ADDRESS,  // u64 host address of the symbol -> u64 device pointer, u64 size
    WIRE_SYNC,            // synchronise the device -> nothing
    WIRE_LAST_ERROR,      // u32 clear -> nothing (the error is the answer's status)
    WIRE_DEVICE_ATTR,     // i32 cudaDeviceAttr -> i32 value
    WIRE_DEVICE_NAME,     // -> name bytes
    WIRE_FUNC_ATTRS,      // u64 host handle -> wire_func_attrs
    WIRE_FUNC_SET_ATTR,   // u64 host handle, i32 cudaFuncAttribute, i32 value
    WIRE_OCCUPANCY,       // u64 host handle, i32 block size, u64 dynamic shared bytes -> i32 blocks per SM
    WIRE_REFUSED,         // u32 a wire_refusal: the program called something the kit does not allow (the shim tells)
    WIRE_OP_COUNT         // (not an op) one past the last
};

// Calls the shim refuses itself and reports with WIRE_REFUSED.
enum wire_refusal {
    WIRE_REFUSE_STREAM = 1,   // creating a stream
    WIRE_REFUSE_EVENT,        // creating or recording an event
    WIRE_REFUSE_MANAGED,      // managed or host-mapped memory
    WIRE_REFUSE_GRAPH,        // graphs, stream capture
    WIRE_REFUSE_DEVICE,       // choosing another device, resetting it, changing its limits
    WIRE_REFUSE_COOPERATIVE,  // a cooperative launch (grid-wide synchronisation)
    WIRE_REFUSE_COUNT         // (not a refusal) one past the last
};

// The arguments of a sweep lab's host function, as they travel: the two grids
// and the case's size. The cube interface (launch_stencil) takes nx as its N
// (the judge gives it only nx = ny = nz); the grid interface (launch_sweep) all three;
// the image interface (launch_convolution) nx, ny as width, height, and the radius.
// WIRE_MEMCPY's head, packed; a host-to-device copy's bytes follow it.
typedef struct __attribute__((packed)) wire_memcpy_head {
    uint64_t dst, src;     // the copy's destination and source (device or host, as kind says)
    uint64_t bytes;        // bytes to copy
    uint32_t kind;         // a cudaMemcpyKind
} wire_memcpy_head;

// WIRE_MEMSET's payload, packed.
typedef struct __attribute__((packed)) wire_memset_call {
    uint64_t dst;          // the first device byte to set
    uint32_t value;        // the byte value, as cudaMemset takes it
    uint64_t bytes;        // bytes to set
} wire_memset_call;

// WIRE_SYMBOL_COPY's head, packed; a copy into the variable carries its bytes after it.
typedef struct __attribute__((packed)) wire_symbol_copy_head {
    uint64_t symbol;       // the variable's host address, as the program registered it
    uint64_t offset;       // bytes into the variable
    uint64_t bytes;        // bytes to copy
    uint32_t to_symbol;    // 1: into the variable, 0: out of it
} wire_symbol_copy_head;

typedef struct wire_sweep_call {
    uint64_t d_in;         // device pointer to the input grid
    uint64_t d_out;        // device pointer to the output grid
    uint32_t nx, ny, nz;   // points per axis
    uint32_t radius;       // the image interface: the filter's radius; zero otherwise (and the size a multiple of 8)
} wire_sweep_call;

// The problem handed to jacobi_solve, as it travels (kernels/jacobi.h's
// jacobi_problem), or to heat_solve (kernels/heat2d.h's heat_problem: nx, ny,
// pitch, rate as r, max_iters as steps).
typedef struct wire_jacobi_problem {
    uint32_t nx, ny, nz;   // points per axis
    float h;               // grid spacing
    int32_t bc;            // LAB_BC_*
    int32_t max_iters;     // iterations at most
    int32_t check_every;   // residual every check_every iterations (0: never)
    float tol;             // stop below this residual
    uint64_t d_scratch;    // device scratch, JACOBI_SCRATCH_DOUBLES doubles
    float rate;            // heat: r = alpha dt / h²
    uint32_t pitch;        // floats from one row to the next (nx unless the heat update pads rows)
} wire_jacobi_problem;

// A kernel's attributes, as cudaFuncGetAttributes reports them.
typedef struct wire_func_attrs {
    uint64_t shared_bytes;       // static shared memory per block
    uint64_t const_bytes;        // constant memory
    uint64_t local_bytes;        // local memory per thread
    int32_t max_threads;         // most threads per block for this kernel
    int32_t num_regs;            // registers per thread
    int32_t ptx_version;         // PTX version (e.g. 90)
    int32_t binary_version;      // binary version
    int32_t max_dynamic_shared;  // cudaFuncAttributeMaxDynamicSharedMemorySize
} wire_func_attrs;

#endif // STENCIL_WIRE_H
