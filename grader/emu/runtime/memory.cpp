// grader/emu/runtime/memory.cpp — device memory: cudaMalloc, copies, and the
// checks that keep host and device memory apart.
//
// Device allocations come from one reserved arena. Each takes whole pages
// followed by a guard page (the first one follows a guard page too), and its pages are inaccessible (PROT_NONE) except
// while a kernel runs or the runtime copies: host code that dereferences a
// device pointer faults, and the fault reporter explains it. Under ASan the
// bytes after each allocation's end, the guard pages and freed allocations
// are also poisoned, so a kernel's out-of-bounds access is reported at the
// first byte. Managed and mapped host memory are ordinary host memory that
// kernels may use.
#include <cstdint>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "internal.h"
#include "grid_memory.h"
#include "protocol.h"

extern "C" void __asan_poison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));
extern "C" void __asan_unpoison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));

// One cudaMalloc allocation.
typedef struct allocation {
    char *base;          // what cudaMalloc returned (page-aligned)
    size_t size;         // bytes asked for
    size_t span;         // bytes of its pages (size rounded up, at least one page)
    int live;            // 0 once freed (kept to explain stale pointers)
    int kit;             // 1: a grid of the kit's (emu_kit_allocation): no host copies in or out during the call
} allocation;

// Host memory kernels may use.
enum host_kind {
    HOST_MANAGED,        // cudaMallocManaged
    HOST_MAPPED,         // cudaMallocHost / cudaHostAlloc
    HOST_SYMBOL          // a __device__ variable whose address was taken
};

typedef struct host_range {
    const char *base;    // first byte
    size_t size;         // bytes
    enum host_kind kind; // where it came from
} host_range;

// A run of free arena pages.
typedef struct free_range {
    size_t offset;       // from the arena's base
    size_t bytes;        // length
} free_range;

static char *arena_base;                        // reserved on first cudaMalloc
static size_t arena_bytes;                      // reserved length
static size_t arena_next;                       // offset of the never-used rest
static size_t arena_in_use;                     // bytes of live allocations' pages
static size_t page_bytes;                       // the system page size
static std::vector<allocation> allocations;     // live and freed allocations

// A kit grid inside its allocation: the bytes around it are guard cells.
typedef struct kit_grid {
    const char *base;    // the allocation's first byte
    const char *grid;    // the grid's first byte
    size_t grid_bytes;   // the grid's length
    size_t size;         // the allocation's length (guard | grid | guard)
    char name[16];       // the name the student's function knows it by (d_in, d_a, ...)
} kit_grid;
#define KIT_GRIDS_MAX 8
static kit_grid kit_grids[KIT_GRIDS_MAX];       // the runner's grids (emu_kit_grid)
static int kit_grid_count;
static char guard_read_text[700];               // the first read of a guard cell (emu_guard_read), or ""
static std::vector<free_range> free_ranges;     // freed arena ranges
static std::vector<host_range> host_ranges;     // host memory kernels may use
static int device_open;                         // 1 while a kernel runs

// ---------------------------------------------------------------------------
// ASan poisoning (no-ops without ASan)
// ---------------------------------------------------------------------------

// Marks n bytes at p as an ASan error to touch.
static void asan_poison(const void *p, size_t n)
{
    if (__asan_poison_memory_region && n)
        __asan_poison_memory_region(p, n);
}

// Marks n bytes at p as usable.
static void asan_unpoison(const void *p, size_t n)
{
    if (__asan_unpoison_memory_region && n)
        __asan_unpoison_memory_region(p, n);
}

// ---------------------------------------------------------------------------
// The arena
// ---------------------------------------------------------------------------

// Reserves the arena; returns 0, or -1 when the system refuses.
static int arena_reserve(void)
{
    if (arena_base)
        return 0;
    page_bytes = (size_t)sysconf(_SC_PAGESIZE);
    arena_bytes = emu_opts.memory_bytes * 2 + ((size_t)1 << 30);
    void *p = mmap(NULL, arena_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    arena_base = (char *)p;
    protocol_huge_pages(p, arena_bytes);  // (mprotect splits them where an allocation ends)
    arena_next = page_bytes;  // a guard page before the first allocation too
    asan_poison(arena_base, page_bytes);
    return 0;
}

// Takes need bytes of arena pages; returns their offset, or SIZE_MAX when full.
static size_t arena_take(size_t need)
{
    for (size_t i = 0; i < free_ranges.size(); i++) {
        free_range *f = &free_ranges[i];
        if (f->bytes < need)
            continue;
        size_t offset = f->offset;
        f->offset += need;
        f->bytes -= need;
        if (f->bytes == 0)
            free_ranges.erase(free_ranges.begin() + (long)i);
        return offset;
    }
    if (arena_next + need > arena_bytes)
        return SIZE_MAX;
    arena_next += need;
    return arena_next - need;
}

// True when p lies in the arena.
static int in_arena(const void *p)
{
    return arena_base && (const char *)p >= arena_base && (const char *)p < arena_base + arena_bytes;
}

int emu_arena_holds(const void *p)
{
    return in_arena(p);
}

// The live allocation whose bytes [base, base + size] contain [p, p + n], or NULL.
static allocation *allocation_holding(const void *p, size_t n)
{
    const char *c = (const char *)p;
    for (allocation &a : allocations)
        if (a.live && c >= a.base && c <= a.base + a.size && n <= (size_t)(a.base + a.size - c))
            return &a;
    return NULL;
}

// The host range kernels may use that holds [p, p + n], or NULL.
static host_range *host_range_holding(const void *p, size_t n)
{
    const char *c = (const char *)p;
    for (host_range &h : host_ranges)
        if (c >= h.base && c <= h.base + h.size && n <= (size_t)(h.base + h.size - c))
            return &h;
    return NULL;
}

// Sets the protection of a's pages.
static void allocation_protect(const allocation *a, int prot)
{
    mprotect(a->base, a->span, prot);
}

// ---------------------------------------------------------------------------
// What the rest of the runtime asks
// ---------------------------------------------------------------------------

int emu_memory_kernel_usable(const void *p, size_t bytes)
{
    return allocation_holding(p, bytes) || host_range_holding(p, bytes);
}

void emu_memory_explain_pointer(const void *p, char *out, size_t len)
{
    const char *c = (const char *)p;
    if (!in_arena(p)) {
        snprintf(out, len, "a host pointer");
        return;
    }
    for (const allocation &a : allocations)
        if (!a.live && c >= a.base && c < a.base + a.span) {
            snprintf(out, len, "inside a %zu-byte allocation already freed by cudaFree", a.size);
            return;
        }
    snprintf(out, len, "outside every device allocation");
}

void emu_memory_open_for_kernel(void)
{
    for (const allocation &a : allocations)
        if (a.live)
            allocation_protect(&a, PROT_READ | PROT_WRITE);
    device_open = 1;
}

void emu_memory_close_after_kernel(void)
{
    for (const allocation &a : allocations)
        if (a.live)
            allocation_protect(&a, PROT_NONE);
    device_open = 0;
}

// Writes where address lies relative to allocation a.
static void describe_near(const allocation *a, const char *address, char *out, size_t len)
{
    if (!a->live)
        snprintf(out, len, "%zu bytes into a %zu-byte device allocation freed by cudaFree", (size_t)(address - a->base),
                 a->size);
    else if (address < a->base)
        snprintf(out, len, "%zu bytes before the start of a %zu-byte cudaMalloc allocation at %p",
                 (size_t)(a->base - address), a->size, (void *)a->base);
    else if (address >= a->base + a->size)
        snprintf(out, len, "%zu bytes after the end of a %zu-byte cudaMalloc allocation at %p",
                 (size_t)(address - a->base - a->size), a->size, (void *)a->base);
    else
        snprintf(out, len, "%zu bytes into a %zu-byte cudaMalloc allocation at %p", (size_t)(address - a->base),
                 a->size, (void *)a->base);
}

int emu_memory_describe(const void *address, char *out, size_t len)
{
    const char *c = (const char *)address;
    const allocation *best = NULL;
    size_t best_distance = SIZE_MAX;
    if (!in_arena(address))
        return 0;
    for (const allocation &a : allocations) {
        size_t distance;
        if (c >= a.base && c < a.base + a.span && (!a.live || c < a.base + a.size))
            distance = 0;
        else if (c >= a.base + a.size && c < a.base + a.span + page_bytes)
            distance = (size_t)(c - a.base - a.size) + (a.live ? 0 : page_bytes);
        else if (c < a.base && c >= a.base - page_bytes)
            distance = (size_t)(a.base - c);
        else
            continue;
        if (distance < best_distance || (distance == best_distance && a.live)) {
            best = &a;
            best_distance = distance;
        }
    }
    if (best)
        describe_near(best, c, out, len);
    else
        snprintf(out, len, "in device memory outside every allocation");
    return 1;
}

void emu_memory_reset(void)
{
    for (allocation &a : allocations)
        if (a.live)
            cudaFree(a.base);
    for (host_range &h : host_ranges)
        if (h.kind != HOST_SYMBOL)
            free((void *)h.base);
    host_ranges.clear();
    kit_grid_count = 0;
    guard_read_text[0] = '\0';
}

// ---------------------------------------------------------------------------
// Allocation
// ---------------------------------------------------------------------------

// Takes size bytes of device memory (page-aligned, guarded); NULL for 0 bytes.
cudaError_t cudaMalloc(void **dev_ptr, size_t size)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (!dev_ptr)
        return emu_api_return(cudaErrorInvalidValue);
    *dev_ptr = NULL;
    if (size == 0)
        return cudaSuccess;
    if (arena_reserve() != 0)
        return emu_api_return(cudaErrorMemoryAllocation);
    size_t span = (size + page_bytes - 1) / page_bytes * page_bytes;
    if (size > emu_opts.memory_bytes || arena_in_use + span > emu_opts.memory_bytes)
        return emu_api_return(cudaErrorMemoryAllocation);
    size_t offset = arena_take(span + page_bytes);
    if (offset == SIZE_MAX)
        return emu_api_return(cudaErrorMemoryAllocation);
    allocation a = {arena_base + offset, size, span, 1, 0};
    for (size_t i = 0; i < allocations.size(); i++)
        if (!allocations[i].live && allocations[i].base < a.base + span + page_bytes &&
            a.base < allocations[i].base + allocations[i].span + page_bytes)
            allocations.erase(allocations.begin() + (long)i--);
    allocations.push_back(a);
    arena_in_use += span;
    asan_unpoison(a.base, size);
    asan_poison(a.base + size, span + page_bytes - size);
    if (device_open)
        allocation_protect(&a, PROT_READ | PROT_WRITE);
    *dev_ptr = a.base;
    return cudaSuccess;
}

// Frees the host memory kernels may use that starts at p; returns 1, or 0 when none does.
static int host_range_free(void *p)
{
    for (size_t i = 0; i < host_ranges.size(); i++) {
        if (host_ranges[i].base != p || host_ranges[i].kind == HOST_SYMBOL)
            continue;
        free(p);
        host_ranges.erase(host_ranges.begin() + (long)i);
        return 1;
    }
    return 0;
}

// Frees a cudaMalloc (or managed/mapped) allocation; cudaFree(0) only initialises.
cudaError_t cudaFree(void *dev_ptr)
{
    cudaError_t err = emu_api_synchronize();
    if (err != cudaSuccess || !dev_ptr)
        return err;
    if (host_range_free(dev_ptr))
        return cudaSuccess;
    for (allocation &a : allocations) {
        if (!a.live || a.base != (char *)dev_ptr)
            continue;
        a.live = 0;
        arena_in_use -= a.span;
        allocation_protect(&a, PROT_NONE);
        madvise(a.base, a.span, MADV_DONTNEED);
        asan_poison(a.base, a.span);
        free_ranges.push_back(free_range{(size_t)(a.base - arena_base), a.span + page_bytes});
        return cudaSuccess;
    }
    fprintf(stderr, "stencil-emu: cudaFree(%p): not an address cudaMalloc returned, or already freed\n", dev_ptr);
    return emu_api_return(cudaErrorInvalidValue);
}

// Allocates host memory kernels may use; returns the API result.
static cudaError_t host_range_alloc(void **ptr, size_t size, enum host_kind kind)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (!ptr)
        return emu_api_return(cudaErrorInvalidValue);
    *ptr = size ? malloc(size) : NULL;
    if (size && !*ptr)
        return emu_api_return(cudaErrorMemoryAllocation);
    if (size)
        host_ranges.push_back(host_range{(const char *)*ptr, size, kind});
    return cudaSuccess;
}

// Host memory that kernels may use too.
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return host_range_alloc(ptr, size, HOST_MANAGED);
}

// Host memory that kernels may use too (mapped, as with UVA).
cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return host_range_alloc(ptr, size, HOST_MAPPED);
}

// As cudaMallocHost; flags ignored.
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return host_range_alloc(ptr, size, HOST_MAPPED);
}

// Frees what cudaMallocHost or cudaHostAlloc returned.
cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t err = emu_api_synchronize();
    if (err != cudaSuccess || !ptr)
        return err;
    return host_range_free(ptr) ? cudaSuccess : emu_api_return(cudaErrorInvalidValue);
}

// The variable's address, from now on usable by kernels.
cudaError_t emu_get_symbol_address(void **dev_ptr, void *symbol, size_t symbol_size)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (!host_range_holding(symbol, symbol_size))
        host_ranges.push_back(host_range{(const char *)symbol, symbol_size, HOST_SYMBOL});
    *dev_ptr = symbol;
    return cudaSuccess;
}

// Device memory not yet handed out, and the total.
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (free_bytes)
        *free_bytes = emu_opts.memory_bytes - arena_in_use;
    if (total_bytes)
        *total_bytes = emu_opts.memory_bytes;
    return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Copies
// ---------------------------------------------------------------------------

// Which side of a copy a range is on.
enum side {
    SIDE_HOST,        // ordinary host memory
    SIDE_DEVICE,      // inside one live allocation
    SIDE_BOTH,        // managed or mapped host memory, a symbol
    SIDE_INVALID      // in the arena but not inside one live allocation
};

// Classifies [p, p + n).
static enum side side_of(const void *p, size_t n)
{
    if (allocation_holding(p, n))
        return SIDE_DEVICE;
    if (host_range_holding(p, n))
        return SIDE_BOTH;
    return in_arena(p) ? SIDE_INVALID : SIDE_HOST;
}

// True when a range on side s may be used where the copy's kind expects the
// device (want_device) or the host.
static int side_fits(enum side s, int want_device)
{
    if (s == SIDE_BOTH)
        return 1;
    return want_device ? s == SIDE_DEVICE : s == SIDE_HOST;
}

// The kit's grids, refused to host copies while the student's function runs,
// as the GPU's executor refuses them (the same words: protocol.h).
static int kit_copies_refused;   // 1 while the student's function runs
static char kit_refusal[256];    // the first refusal, or ""

void emu_kit_allocation(const void *p)
{
    allocation *a = allocation_holding(p, 1);
    if (a)
        a->kit = 1;
}

void emu_kit_grid(const void *grid, size_t bytes, const char *name)
{
    allocation *a = allocation_holding(grid, bytes);
    if (!a || kit_grid_count == KIT_GRIDS_MAX)
        return;
    a->kit = 1;
    kit_grid *g = &kit_grids[kit_grid_count++];
    *g = {a->base, (const char *)grid, bytes, a->size, ""};
    snprintf(g->name, sizeof(g->name), "%s", name);
}

// Describes an access of bytes at c if it touches a guard cell of a kit grid
// (its index in the grid's own cells, and where it lies); returns 0 when not.
static int kit_guard_describe(const char *c, size_t bytes, char *out, size_t len)
{
    for (int i = 0; i < kit_grid_count; i++) {
        const kit_grid *g = &kit_grids[i];
        if (c + bytes <= g->base || c >= g->base + g->size || (c >= g->grid && c + bytes <= g->grid + g->grid_bytes))
            continue;
        size_t cells = g->grid_bytes / sizeof(float);
        if (c < g->grid)
            snprintf(out, len, "%s[-%zu], a guard cell before the first of the kit's grid %s (%zu cells)", g->name,
                     (size_t)(g->grid - c + sizeof(float) - 1) / sizeof(float), g->name, cells);
        else
            snprintf(out, len, "%s[%zu], a guard cell %zu past the last of the kit's grid %s (%zu cells)", g->name,
                     (size_t)(c - g->grid) / sizeof(float), (size_t)(c - g->grid) / sizeof(float) - cells + 1,
                     g->name, cells);
        return 1;
    }
    return 0;
}

void emu_kit_guard_read(const void *address, size_t bytes, const void *pc)
{
    char cell[300], access[360];
    if (guard_read_text[0] || !kit_guard_describe((const char *)address, bytes, cell, sizeof(cell)))
        return;
    snprintf(access, sizeof(access), "read of %zu bytes of %s", bytes, cell);
    emu_fault_where(access, pc, guard_read_text, sizeof(guard_read_text));
}

const char *emu_guard_read(void)
{
    return guard_read_text;
}

void emu_kit_copies(int refused)
{
    kit_copies_refused = refused;
}

const char *emu_refusal(void)
{
    return kit_refusal;
}

// 1 (the refusal recorded) when a copy between the host and a grid of the kit's is refused.
static int copy_refused(const char *call, void *dst, const void *src, size_t count, int dst_device, int src_device)
{
    allocation *d = dst_device ? allocation_holding(dst, count) : NULL, *s = src_device ? allocation_holding(src, count) : NULL;
    const char *why = !kit_copies_refused ? NULL
                    : d && d->kit && !src_device ? PROTOCOL_REFUSE_HOST_INTO_KIT
                    : s && s->kit && !dst_device ? PROTOCOL_REFUSE_KIT_TO_HOST : NULL;
    if (!why)
        return 0;
    if (!kit_refusal[0])
        snprintf(kit_refusal, sizeof(kit_refusal), "%s", why);
    fprintf(stderr, "stencil-emu: %s of %zu bytes refused: %s\n", call, count, why);
    return 1;
}

// Checks a copy's ranges against its kind; returns the error CUDA would give
// (with a one-line hint on stderr), or cudaSuccess.
static cudaError_t copy_check(const char *call, void *dst, const void *src, size_t count, int kind)
{
    enum side d = side_of(dst, count), s = dst == src ? d : side_of(src, count);
    int dst_device, src_device;
    if (kind == cudaMemcpyDefault) {
        dst_device = d != SIDE_HOST;
        src_device = s != SIDE_HOST;
    } else if (kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice) {
        dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
        src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    } else {
        return cudaErrorInvalidMemcpyDirection;
    }
    if (d == SIDE_INVALID || s == SIDE_INVALID || !side_fits(d, dst_device) || !side_fits(s, src_device)) {
        char why[160];
        const void *bad = (d == SIDE_INVALID || !side_fits(d, dst_device)) ? dst : src;
        int want_device = bad == dst ? dst_device : src_device;
        if (want_device && in_arena(bad))
            snprintf(why, sizeof(why), "%zu bytes at %p do not fit inside one live cudaMalloc allocation", count, bad);
        else
            snprintf(why, sizeof(why), "%p is a %s pointer where the copy's kind expects a %s pointer", bad,
                     want_device ? "host" : "device", want_device ? "device" : "host");
        fprintf(stderr, "stencil-emu: %s of %zu bytes refused: %s\n", call, count, why);
        return cudaErrorInvalidValue;
    }
    if (copy_refused(call, dst, src, count, dst_device, src_device))
        return cudaErrorNotPermitted;
    return cudaSuccess;
}

// Makes the allocations holding the two ranges accessible (prot) for a copy.
static void copy_protect(const void *a, const void *b, size_t count, int prot)
{
    allocation *x = allocation_holding(a, count), *y = allocation_holding(b, count);
    if (device_open)
        return;
    if (x)
        allocation_protect(x, prot);
    if (y && y != x)
        allocation_protect(y, prot);
}

static double device_copy_total;  // bytes copied device to device (emu_device_copy_total)

double emu_device_copy_total(void)
{
    return device_copy_total;
}

// Copies count bytes after checking both ranges against kind.
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t err = emu_api_synchronize();
    if (err != cudaSuccess || count == 0)
        return err;
    err = copy_check("cudaMemcpy", dst, src, count, kind);
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (side_of(dst, count) == SIDE_DEVICE && side_of(src, count) == SIDE_DEVICE)  // two cudaMalloc allocations
        device_copy_total += (double)count;
    copy_protect(dst, src, count, PROT_READ | PROT_WRITE);
    memmove(dst, src, count);
    copy_protect(dst, src, count, PROT_NONE);
    return cudaSuccess;
}

// As cudaMemcpy: copies run as issued.
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, count, kind);
}

// Sets count bytes of device memory to value.
cudaError_t cudaMemset(void *dev_ptr, int value, size_t count)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess || count == 0)
        return emu_api_return(err);
    enum side s = side_of(dev_ptr, count);
    if (s != SIDE_DEVICE && s != SIDE_BOTH) {
        fprintf(stderr, "stencil-emu: cudaMemset of %zu bytes at %p refused: not inside one live cudaMalloc allocation\n",
                count, dev_ptr);
        return emu_api_return(cudaErrorInvalidValue);
    }
    copy_protect(dev_ptr, dev_ptr, count, PROT_READ | PROT_WRITE);
    memset(dev_ptr, value, count);
    copy_protect(dev_ptr, dev_ptr, count, PROT_NONE);
    return cudaSuccess;
}

// As cudaMemset.
cudaError_t cudaMemsetAsync(void *dev_ptr, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(dev_ptr, value, count);
}

// Before a copy of count bytes at offset of a variable of symbol_size bytes:
// synchronises, then checks the range and the direction kind (host_kind,
// the host's side of it, device to device, or default). Returns cudaSuccess
// or the error the copy returns.
static cudaError_t emu_symbol_copy_check(size_t symbol_size, size_t count, size_t offset, enum cudaMemcpyKind kind,
                                         enum cudaMemcpyKind host_kind)
{
    cudaError_t err = emu_api_synchronize();
    if (err != cudaSuccess)
        return err;
    if (offset > symbol_size || count > symbol_size - offset)
        return emu_api_return(cudaErrorInvalidValue);
    if (kind != host_kind && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return emu_api_return(cudaErrorInvalidMemcpyDirection);
    return cudaSuccess;
}

// Copies into a variable after checking offset + count against its size.
cudaError_t emu_memcpy_to_symbol(void *symbol, size_t symbol_size, const void *src, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    cudaError_t err = emu_symbol_copy_check(symbol_size, count, offset, kind, cudaMemcpyHostToDevice);
    if (err != cudaSuccess)
        return err;
    return cudaMemcpy((char *)symbol + offset, src, count, cudaMemcpyDefault);
}

// Copies out of a variable after checking offset + count against its size.
cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, size_t symbol_size, size_t count, size_t offset,
                                   enum cudaMemcpyKind kind)
{
    cudaError_t err = emu_symbol_copy_check(symbol_size, count, offset, kind, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess)
        return err;
    return cudaMemcpy(dst, (const char *)symbol + offset, count, cudaMemcpyDefault);
}

// Says whether ptr is device, managed, mapped or plain host memory.
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    host_range *h = host_range_holding(ptr, 0);
    memset(attr, 0, sizeof(*attr));
    if (allocation_holding(ptr, 0)) {
        attr->type = cudaMemoryTypeDevice;
        attr->devicePointer = (void *)ptr;
    } else if (h) {
        attr->type = h->kind == HOST_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        attr->devicePointer = (void *)ptr;
        attr->hostPointer = (void *)ptr;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->hostPointer = (void *)ptr;
    }
    return cudaSuccess;
}
