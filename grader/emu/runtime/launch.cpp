// grader/emu/runtime/launch.cpp — kernel launches: the kernel registry, the
// checks CUDA makes at a launch (and the stricter ones of this backend), the
// order of the blocks, and shared memory (registration, NaN poisoning).
#include <cstdint>
#include <cxxabi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

// The built-in variables device code reads.
uint3 threadIdx;
uint3 blockIdx;
dim3 blockDim;
dim3 gridDim;

emu_running_launch *emu_current_launch;
const char *emu::pending_launch_name;

extern "C" void __asan_poison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));
extern "C" void __asan_unpoison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));

const char *emu_basename(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : (path ? path : "?");
}

// ---------------------------------------------------------------------------
// The kernel registry
// ---------------------------------------------------------------------------

#define KERNELS_MAX 512                        // distinct kernels a program may launch

static emu_kernel_info kernels[KERNELS_MAX];   // every kernel seen, in order of first use
static int kernel_count;                       // entries used

// Fills k's linker symbol from the dynamic symbol table (the build exports
// it), or from its source name when the kernel is not exported.
static void kernel_find_symbol(emu_kernel_info *k)
{
    Dl_info info;
    if (dladdr(k->address, &info) && info.dli_sname && info.dli_saddr == k->address)
        snprintf(k->symbol, sizeof(k->symbol), "%s", info.dli_sname);
    else
        memcpy(k->symbol, k->name, sizeof(k->name));
}

emu_kernel_info *emu_kernel_find(const void *address)
{
    for (int i = 0; i < kernel_count; i++)
        if (kernels[i].address == address)
            return &kernels[i];
    if (kernel_count == KERNELS_MAX)
        return NULL;
    emu_kernel_info *k = &kernels[kernel_count++];
    memset(k, 0, sizeof(*k));
    k->address = address;
    k->max_dynamic_smem = -1;
    k->carveout = -1;
    snprintf(k->name, sizeof(k->name), "?");
    kernel_find_symbol(k);
    return k;
}

// Names k after the expression of its launch, the first time one is seen; a
// launch with no expression (cudaLaunchKernel) names it after its symbol,
// demangled, without its parameter list.
static void kernel_name_from_launch(emu_kernel_info *k, const char *name)
{
    if (strcmp(k->name, "?") != 0)
        return;
    if (!name && strcmp(k->symbol, "?") == 0) {  // no symbol either (a static kernel): one name per kernel
        snprintf(k->name, sizeof(k->name), "kernel_%p", k->address);
        snprintf(k->symbol, sizeof(k->symbol), "%s", k->name);
        return;
    }
    if (!name) {
        int status = -1;
        char *plain = abi::__cxa_demangle(k->symbol, NULL, NULL, &status);
        snprintf(k->name, sizeof(k->name), "%.*s", (int)sizeof(k->name) - 1, status == 0 && plain ? plain : k->symbol);
        free(plain);
        char *paren = strchr(k->name, '(');
        if (paren && paren > k->name)
            *paren = '\0';
        return;
    }
    snprintf(k->name, sizeof(k->name), "%s", name);
    if (strcmp(k->symbol, "?") == 0)
        snprintf(k->symbol, sizeof(k->symbol), "%s", name);
}

// The dynamic shared memory kernel k may ask for without failing.
static size_t kernel_dynamic_limit(const emu_kernel_info *k)
{
    if (k->max_dynamic_smem >= 0)
        return (size_t)k->max_dynamic_smem;
    size_t smem = emu_kernel_static_smem(k);
    return smem < EMU_SHARED_DEFAULT_LIMIT ? EMU_SHARED_DEFAULT_LIMIT - smem : 0;
}

// ---------------------------------------------------------------------------
// Shared memory
// ---------------------------------------------------------------------------

#define SHARED_REGIONS_MAX 4096                // __shared__ variables a program may declare

typedef struct shared_region {
    void *address;                             // the variable
    size_t size;                               // its bytes
    const char *name;                          // as declared
    const char *file;                          // where
    int line;
} shared_region;

static shared_region shared_regions[SHARED_REGIONS_MAX];
static int shared_region_count;
static uintptr_t shared_regions_low, shared_regions_high;  // the span they all lie in (once there is one: zero-initialised, no constructor)
static unsigned char *dynamic_shared_base;     // EMU_SHARED_OPTIN_LIMIT bytes between guard pages
static size_t dynamic_shared_bytes;            // what the running launch asked for

// Maps the dynamic shared memory with a guard page on each side; exits when refused.
static void dynamic_shared_create(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (EMU_SHARED_OPTIN_LIMIT + page - 1) / page * page;
    unsigned char *base = (unsigned char *)mmap(NULL, span + 2 * page, PROT_READ | PROT_WRITE,
                                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base, page, PROT_NONE) != 0 ||
        mprotect(base + page + span, page, PROT_NONE) != 0) {
        fprintf(stderr, "stencil-emu: cannot map the dynamic shared memory\n");
        exit(2);
    }
    dynamic_shared_base = base + page;
}

// Makes the first bytes of the dynamic shared memory usable and the rest an
// ASan error (a launch asked for bytes).
static void dynamic_shared_size(size_t bytes)
{
    if (!dynamic_shared_base)
        dynamic_shared_create();
    dynamic_shared_bytes = bytes;
    if (__asan_unpoison_memory_region && __asan_poison_memory_region) {
        __asan_unpoison_memory_region(dynamic_shared_base, bytes);
        __asan_poison_memory_region(dynamic_shared_base + bytes, EMU_SHARED_OPTIN_LIMIT - bytes);
    }
}

void *emu_dynamic_shared(void)
{
    if (!dynamic_shared_base)
        dynamic_shared_create();
    return dynamic_shared_base;
}

static size_t file_scope_shared_bytes;  // __shared__ variables declared outside any kernel

size_t emu_kernel_static_smem(const emu_kernel_info *k)
{
    return k->static_smem + file_scope_shared_bytes;
}

void *emu_shared_allocate_bytes(size_t size, size_t alignment, const char *name, const char *file, int line)
{
    void *address = NULL;
    if (shared_region_count == SHARED_REGIONS_MAX) {
        fprintf(stderr, "stencil-emu: more than %d __shared__ variables declared\n", SHARED_REGIONS_MAX);
        exit(2);
    }
    if (alignment < 16)
        alignment = 16;
    if (posix_memalign(&address, alignment, size ? size : 1) != 0) {
        fprintf(stderr, "stencil-emu: no host memory for __shared__ %s (%zu bytes)\n", name, size);
        exit(2);
    }
    shared_regions[shared_region_count++] = shared_region{address, size, name, file, line};
    if (shared_region_count == 1 || (uintptr_t)address < shared_regions_low)
        shared_regions_low = (uintptr_t)address;
    if ((uintptr_t)address + size > shared_regions_high)
        shared_regions_high = (uintptr_t)address + size;
    if (emu_current_launch)
        emu_current_launch->kernel->static_smem += size;
    else
        file_scope_shared_bytes += size;  // a __shared__ variable at file scope, made as the program starts
    memset(address, 0xff, size);
    return address;
}

void emu_shared_poison(size_t dynamic_bytes)
{
    for (int i = 0; i < shared_region_count; i++)
        memset(shared_regions[i].address, 0xff, shared_regions[i].size);
    if (dynamic_bytes)
        memset(dynamic_shared_base, 0xff, dynamic_bytes);
}

int emu_shared_holds(const void *p)
{
    const char *a = (const char *)p, *dyn = (const char *)dynamic_shared_base;
    if (dyn && a >= dyn && a < dyn + dynamic_shared_bytes)
        return 1;
    if ((uintptr_t)a < shared_regions_low || (uintptr_t)a >= shared_regions_high)
        return 0;  // (most loads: a thread's own stack, every load of a kernel is asked; no region: an empty span)
    for (int i = 0; i < shared_region_count; i++)
        if (a >= (const char *)shared_regions[i].address && a < (const char *)shared_regions[i].address + shared_regions[i].size)
            return 1;
    return 0;
}

int emu_shared_describe(const void *address, char *out, size_t len)
{
    const char *a = (const char *)address;
    for (int i = 0; i < shared_region_count; i++) {
        const shared_region *s = &shared_regions[i];
        const char *base = (const char *)s->address;
        if (a >= base + s->size && a < base + s->size + 256) {
            snprintf(out, len, "%zu bytes after the end of the %zu-byte __shared__ %s declared at %s:%d",
                     (size_t)(a - base - s->size), s->size, s->name, emu_basename(s->file), s->line);
            return 1;
        }
        if (a < base && a >= base - 256) {
            snprintf(out, len, "%zu bytes before the %zu-byte __shared__ %s declared at %s:%d", (size_t)(base - a),
                     s->size, s->name, emu_basename(s->file), s->line);
            return 1;
        }
    }
    const char *dyn = (const char *)dynamic_shared_base;
    if (dyn && a >= dyn && a < dyn + EMU_SHARED_OPTIN_LIMIT + 4096) {
        snprintf(out, len, "%zu bytes after the end of the launch's %zu bytes of extern __shared__ memory",
                 (size_t)(a - dyn) - dynamic_shared_bytes, dynamic_shared_bytes);
        return 1;
    }
    if (dyn && a < dyn && a >= dyn - 4096) {
        snprintf(out, len, "%zu bytes before the extern __shared__ memory", (size_t)(dyn - a));
        return 1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Launch checks
// ---------------------------------------------------------------------------

// Checks the configuration as CUDA does; returns the launch error, with the
// reason in why[].
static cudaError_t launch_check_config(const emu::launch_request *r, const emu_kernel_info *k, char *why,
                                       size_t len)
{
    dim3 g = r->grid, b = r->block;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z) {
        snprintf(why, len, "grid (%u,%u,%u) or block (%u,%u,%u) has a zero dimension", g.x, g.y, g.z, b.x, b.y, b.z);
        return cudaErrorInvalidConfiguration;
    }
    if (threads > 1024) {
        snprintf(why, len, "block (%u,%u,%u) has %llu threads; a block may have at most 1024", b.x, b.y, b.z,
                 threads);
        return cudaErrorInvalidConfiguration;
    }
    if (b.x > 1024 || b.y > 1024 || b.z > 64) {
        snprintf(why, len, "block (%u,%u,%u) exceeds the per-axis limits (1024,1024,64)", b.x, b.y, b.z);
        return cudaErrorInvalidConfiguration;
    }
    if (g.x > 2147483647u || g.y > 65535 || g.z > 65535) {
        snprintf(why, len, "grid (%u,%u,%u) exceeds the limits (2147483647,65535,65535)", g.x, g.y, g.z);
        return cudaErrorInvalidConfiguration;
    }
    if (r->dynamic_smem > kernel_dynamic_limit(k)) {
        snprintf(why, len, "%zu bytes of dynamic shared memory asked for, at most %zu allowed (48 KiB per block "
                           "with static shared memory, more only after cudaFuncSetAttribute)",
                 r->dynamic_smem, kernel_dynamic_limit(k));
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

// Checks that every pointer argument points to memory kernels may use;
// records an execution error and returns -1 when one does not.
static int launch_check_pointers(const emu::launch_request *r)
{
    for (int i = 0; i < r->pointer_count; i++) {
        const void *p = r->pointers[i];
        char why[160];
        if (!p || emu_memory_kernel_usable(p, 0))
            continue;
        emu_memory_explain_pointer(p, why, sizeof(why));
        emu_execution_error(cudaErrorIllegalAddress,
                            "argument %d of %s (launched at %s:%d) is %p, %s: kernels can only use device memory from cudaMalloc",
                            r->pointer_positions[i] + 1, r->name, emu_basename(r->file), r->line, p, why);
        return -1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Running the blocks
// ---------------------------------------------------------------------------

// The order blocks run in: a bijection of [0, count).
typedef struct block_order {
    uint64_t count;       // blocks
    uint64_t modulus;     // shuffle: power of two >= count
    uint64_t multiplier;  // shuffle: LCG multiplier, 1 mod 4
    uint64_t increment;   // shuffle: LCG increment, odd
    uint64_t state;       // shuffle: last LCG value
    uint64_t produced;    // values handed out
} block_order;

// Prepares the configured order of count blocks.
static void block_order_start(block_order *o, uint64_t count)
{
    uint64_t random = emu_opts.seed ^ 0x5851f42d4c957f2dull;
    o->count = count;
    o->produced = 0;
    for (o->modulus = 1; o->modulus < count; o->modulus <<= 1) {
    }
    o->multiplier = (emu_random_next(&random) & ~7ull) | 5ull;  // 1 mod 4: a full period
    o->increment = emu_random_next(&random) | 1ull;
    o->state = emu_random_next(&random) & (o->modulus - 1);
}

// The next block's linear index.
static uint64_t block_order_next(block_order *o)
{
    uint64_t n = o->produced++;
    if (emu_opts.block_order == EMU_ORDER_FORWARD)
        return n;
    if (emu_opts.block_order == EMU_ORDER_REVERSE)
        return o->count - 1 - n;
    do
        o->state = (o->state * o->multiplier + o->increment) & (o->modulus - 1);
    while (o->state >= o->count);
    return o->state;
}

// Fills the threadIdx table of the launch's block shape.
static void launch_index_threads(emu_running_launch *L, dim3 block)
{
    unsigned int id = 0;
    for (unsigned int z = 0; z < block.z; z++)
        for (unsigned int y = 0; y < block.y; y++)
            for (unsigned int x = 0; x < block.x; x++)
                L->thread_index[id++] = uint3{x, y, z};
    L->block_threads = id;
}

// Runs every block of the checked launch, in the configured order, until one fails.
static void launch_run_blocks(emu_running_launch *L)
{
    const emu::launch_request *r = L->request;
    uint64_t per_plane = (uint64_t)r->grid.x * r->grid.y;
    uint64_t count = per_plane * r->grid.z;
    block_order order;
    block_order_start(&order, count);
    gridDim = r->grid;
    blockDim = r->block;
    dynamic_shared_size(r->dynamic_smem);
    emu_memory_open_for_kernel();
    emu_current_launch = L;
    for (uint64_t n = 0; n < count; n++) {
        uint64_t b = block_order_next(&order);
        blockIdx = uint3{(unsigned int)(b % r->grid.x), (unsigned int)(b / r->grid.x % r->grid.y),
                         (unsigned int)(b / per_plane)};
        emu_shared_poison(r->dynamic_smem);
        L->kernel->has_run = 1;
        if (emu_run_block() != 0)
            break;
    }
    emu_current_launch = NULL;
    emu_memory_close_after_kernel();
}

static emu_launch_observer launch_observer;  // launch_log_emu.cpp, while it records
static long launch_total;                    // every launch asked for

void emu_set_launch_observer(emu_launch_observer observer)
{
    launch_observer = observer;
}

emu_launch_observer emu_launch_observer_now(void)
{
    return launch_observer;
}

long emu_launch_total(void)
{
    return launch_total;
}

cudaError_t emu::launch_kernel_untyped(const void *kernel, const char *call, const char *file, int line)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (strcmp(call, "cudaLaunchCooperativeKernel") == 0) {
        fprintf(stderr, "stencil-emu: %s at %s:%d refused: grid-wide synchronisation is not offered; "
                        "launch once per step that needs the whole grid in step\n", call, emu_basename(file), line);
        return emu_api_return(cudaErrorNotSupported);
    }
    (void)kernel;
    fprintf(stderr, "stencil-emu: %s at %s:%d got the kernel as a pointer of unknown type, so its parameters "
                    "cannot be read under emulation: pass the kernel itself, cudaLaunchKernel(kernel, grid, block, "
                    "args, shmem, stream), or launch with <<<...>>>\n", call, emu_basename(file), line);
    return emu_api_return(cudaErrorInvalidDeviceFunction);
}

cudaError_t emu::launch(const launch_request *given)
{
    static emu_running_launch running;  // one launch runs at a time
    static launch_request named;        // the request, named after its kernel where it came unnamed
    char why[256];
    cudaError_t err = emu_api_begin();
    emu_kernel_info *k = emu_kernel_find(given->kernel);
    if (!k) {
        fprintf(stderr, "stencil-emu: more than %d distinct kernels launched\n", KERNELS_MAX);
        exit(2);
    }
    kernel_name_from_launch(k, given->name);
    named = *given;
    if (!named.name)
        named.name = k->name;
    const launch_request *r = &named;
    launch_total++;
    if (launch_observer)
        launch_observer(r, k);
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (emu_current_launch) {
        fprintf(stderr, "stencil-emu: %s:%d launches %s from inside a kernel; dynamic parallelism is not emulated\n",
                emu_basename(r->file), r->line, r->name);
        exit(2);
    }
    err = launch_check_config(r, k, why, sizeof(why));
    if (err != cudaSuccess) {
        fprintf(stderr, "stencil-emu: launch of %s at %s:%d refused: %s\n", r->name, emu_basename(r->file), r->line,
                why);
        return emu_api_return(err);
    }
    if (emu_execution_failed() || launch_check_pointers(r) != 0)
        return cudaSuccess;  // an execution error is pending: reported at the next synchronisation
    running.request = r;
    running.kernel = k;
    launch_index_threads(&running, r->block);
    launch_run_blocks(&running);
    return cudaSuccess;
}
