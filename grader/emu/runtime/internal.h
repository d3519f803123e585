// grader/emu/runtime/internal.h — what the parts of the emulation runtime
// share: options, the error state, the kernel registry, the running launch,
// device memory, and fault reporting. Not for student code.
#ifndef STENCIL_EMU_INTERNAL_H
#define STENCIL_EMU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../include/cuda_runtime.h"

#define EMU_MAX_BLOCK_THREADS 1024            // CUDA's limit, and the scheduler's table size
#define EMU_SHARED_DEFAULT_LIMIT (48 * 1024)  // bytes of shared memory a block gets without opting in
#define EMU_SHARED_OPTIN_LIMIT (227 * 1024)   // the most cudaFuncSetAttribute may allow (as a 9.0 device)

// ---------------------------------------------------------------------------
// Options (environment variables, read once)
// ---------------------------------------------------------------------------

enum emu_order {
    EMU_ORDER_FORWARD,    // increasing linear index
    EMU_ORDER_REVERSE,    // decreasing
    EMU_ORDER_SHUFFLE     // a permutation drawn from STENCIL_EMU_SEED, new at every pass
};

typedef struct emu_options {
    enum emu_order order;     // STENCIL_EMU_ORDER: threads within a block
    enum emu_order block_order; // STENCIL_EMU_BLOCK_ORDER: blocks within a grid (forward by default)
    uint64_t seed;            // STENCIL_EMU_SEED
    size_t stack_bytes;       // STENCIL_EMU_STACK_KB: stack of each synchronising CUDA thread
    size_t memory_bytes;      // STENCIL_EMU_MEMORY_MB: device memory cudaMalloc may hand out
} emu_options;

extern emu_options emu_opts;

// Reads the options and installs the fault reporters, once; exits with a
// one-line message when an option is malformed.
void emu_runtime_init(void);

// ---------------------------------------------------------------------------
// Errors (api.cpp)
// ---------------------------------------------------------------------------

// The error a runtime call returns first: the sticky execution error once it
// has been reported, else cudaSuccess. Initialises the runtime.
cudaError_t emu_api_begin(void);
// Records err as the last error when it is one; returns it.
cudaError_t emu_api_return(cudaError_t err);
// What a synchronising call returns: reports a pending execution error (it
// becomes sticky), else cudaSuccess.
cudaError_t emu_api_synchronize(void);
// Records an error found while a kernel ran: reported by the next
// synchronising call, sticky from then on. The first one wins.
void emu_execution_error(cudaError_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// True once an execution error is recorded (the launch must stop).
int emu_execution_failed(void);

// ---------------------------------------------------------------------------
// Kernels (launch.cpp)
// ---------------------------------------------------------------------------

typedef struct emu_kernel_info {
    const void *address;           // the kernel function: its identity
    char name[128];                // as written at its first launch ("?" before)
    char symbol[256];              // linker symbol (mangled), or name when unknown
    size_t static_smem;            // bytes of __shared__ variables registered while it ran (emu_kernel_static_smem adds the file's)
    int max_dynamic_smem;          // cudaFuncAttributeMaxDynamicSharedMemorySize
    int carveout;                  // cudaFuncAttributePreferredSharedMemoryCarveout, -1 unset
    int has_run;                   // 1 once a block of it ran
} emu_kernel_info;

// Kernel k's static shared memory: its own __shared__ variables and those
// declared at file scope (a GPU counts those a kernel uses: here, every one).
size_t emu_kernel_static_smem(const emu_kernel_info *k);

// The registry entry of the kernel at address, created on first use; NULL
// only when the table is full.
emu_kernel_info *emu_kernel_find(const void *address);

// The launch that is running, for the scheduler and the fault reporter.
typedef struct emu_running_launch {
    const emu::launch_request *request;  // what was launched
    emu_kernel_info *kernel;             // its registry entry
    unsigned int block_threads;          // threads per block
    uint3 thread_index[EMU_MAX_BLOCK_THREADS]; // threadIdx of each linear thread id
} emu_running_launch;

extern emu_running_launch *emu_current_launch;  // NULL outside kernels

// Writes "thread (x,y,z) of block (a,b,c)" for linear thread id tid of the running block.
void emu_describe_thread(char *out, size_t len, unsigned int tid);
// The file name of path, for messages.
const char *emu_basename(const char *path);

// Hands every launch to observer (launch_log_emu.cpp), or to none when NULL.
typedef void (*emu_launch_observer)(const emu::launch_request *request, const emu_kernel_info *kernel);
void emu_set_launch_observer(emu_launch_observer observer);
// The observer now set, and how many launches were asked for since the program
// started (every one, observed or not): launch_log_emu.cpp checks at the end of
// a bracket that its observer stayed and that it saw every launch.
emu_launch_observer emu_launch_observer_now(void);
long emu_launch_total(void);

// 1 when p lies in the emulated device memory (cudaMalloc's arena), or in a
// __shared__ variable or the dynamic shared memory (loads.cpp counts by them).
int emu_arena_holds(const void *p);
int emu_shared_holds(const void *p);
// The bytes kernels' threads loaded from global and from shared memory since
// the last reset (loads.cpp; zero without the sanitizer's load calls).
void emu_load_counts(unsigned long long *global_bytes, unsigned long long *shared_bytes);
void emu_load_counts_reset(void);

// Poisons every registered __shared__ variable and the launch's dynamic
// shared memory with NaN bytes (a block starts).
void emu_shared_poison(size_t dynamic_bytes);
// Describes address if it lies in or near shared memory; returns 0 when it does not.
int emu_shared_describe(const void *address, char *out, size_t len);

// ---------------------------------------------------------------------------
// The block scheduler (scheduler.cpp)
// ---------------------------------------------------------------------------

// Runs every thread of the block whose blockIdx is set; returns 0, or -1
// when an execution error stopped it.
int emu_run_block(void);
// Linear id of the CUDA thread running now, or -1.
int emu_running_thread(void);
// Describes address if it lies in the guard page of a CUDA thread's stack.
int emu_stack_describe(const void *address, char *out, size_t len);

// ---------------------------------------------------------------------------
// Device memory (memory.cpp)
// ---------------------------------------------------------------------------

// True when [p, p + bytes) lies in memory kernels may use: a live
// cudaMalloc allocation (its end included), managed or mapped host memory, a
// symbol whose address was taken.
int emu_memory_kernel_usable(const void *p, size_t bytes);
// Explains why p is not usable by kernels (freed, outside allocations, host).
void emu_memory_explain_pointer(const void *p, char *out, size_t len);
// Makes device allocations accessible (a kernel runs) or not (host code runs).
void emu_memory_open_for_kernel(void);
void emu_memory_close_after_kernel(void);
// Describes address if it lies in the device arena; returns 0 when it does not.
int emu_memory_describe(const void *address, char *out, size_t len);
// Records a kernel's read of bytes at address, made by the code at pc, when it
// touches a guard cell of a kit grid (emu_kit_grid) and is the first such read
// since the device was reset (emu_guard_read gives it); else does nothing.
void emu_kit_guard_read(const void *address, size_t bytes, const void *pc);
// Frees every allocation (cudaDeviceReset).
void emu_memory_reset(void);

// ---------------------------------------------------------------------------
// Faults (fault.cpp)
// ---------------------------------------------------------------------------

// Installs the ASan/UBSan callbacks and the SIGSEGV/SIGBUS handlers.
void emu_fault_install(void);
// Writes into out "<who>: <access>; the access is at <file:line>": the CUDA
// thread running (kernel, block, thread), access as given, and the source
// line of the code at pc (the symbolizer's), as a fault's line names them.
void emu_fault_where(const char *access, const void *pc, char *out, size_t len);

// A small xorshift generator (shuffle orders).
static inline uint64_t emu_random_next(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

#endif // STENCIL_EMU_INTERNAL_H
