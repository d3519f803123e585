// grader/emu/include/emu/host_api.h — the CUDA runtime's host functions, as
// the CPU emulation backend provides them. Semantics follow CUDA's; what the
// backend adds (strict checks, sticky execution errors) is in README.md.
#ifndef STENCIL_EMU_HOST_API_H
#define STENCIL_EMU_HOST_API_H

#include "types.h"

#define CUDART_VERSION 13000  // the runtime API level this shim follows

extern "C" {

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

// Returns the last error of a runtime call and clears it (an execution error,
// once reported by a synchronising call, stays: it is sticky, as on a GPU).
cudaError_t cudaGetLastError(void);
// Returns the last error without clearing it.
cudaError_t cudaPeekAtLastError(void);
// CUDA's text for err; for the sticky execution error, the backend's one-line
// explanation of what went wrong, where, and in which thread.
const char *cudaGetErrorString(cudaError_t err);
// The enumerator's name, "cudaErrorInvalidConfiguration" for example.
const char *cudaGetErrorName(cudaError_t err);

// ---------------------------------------------------------------------------
// The device
// ---------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int *count);          // 1
cudaError_t cudaSetDevice(int device);               // 0 only
cudaError_t cudaGetDevice(int *device);              // 0
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);  // as cudaGetDeviceProperties
cudaError_t cudaDriverGetVersion(int *version);      // CUDART_VERSION
cudaError_t cudaRuntimeGetVersion(int *version);     // CUDART_VERSION
// Waits for all work (none is ever pending) and reports an execution error.
cudaError_t cudaDeviceSynchronize(void);
// Accepted and ignored: there is no cache to split.
static inline cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    (void)config;
    return cudaSuccess;
}
// Frees every allocation and forgets every error, sticky ones included.
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);  // accepted, ignored

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

cudaError_t cudaMalloc(void **dev_ptr, size_t size);
cudaError_t cudaFree(void *dev_ptr);                  // cudaFree(0) initialises, as on a GPU
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemset(void *dev_ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *dev_ptr, int value, size_t count, cudaStream_t stream = 0);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr);

// Copies count bytes between host memory and the variable at symbol (a
// __constant__ or __device__ variable), offset bytes into it. symbol_size is
// the variable's size: the templates below pass it.
cudaError_t emu_memcpy_to_symbol(void *symbol, size_t symbol_size, const void *src, size_t count,
                                 size_t offset, enum cudaMemcpyKind kind);
cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, size_t symbol_size, size_t count,
                                   size_t offset, enum cudaMemcpyKind kind);
// Lets kernels take the variable's address (it becomes a device pointer).
cudaError_t emu_get_symbol_address(void **dev_ptr, void *symbol, size_t symbol_size);

// ---------------------------------------------------------------------------
// Streams and events (work runs when it is issued; order is always kept)
// ---------------------------------------------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
// As cudaStreamCreateWithFlags: the priority changes nothing here.
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    (void)priority;
    return cudaStreamCreateWithFlags(stream, flags);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
// Host wall-clock milliseconds between two records: emulation timings say
// nothing about a GPU.
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// ---------------------------------------------------------------------------
// Kernels (by their address; the templates below take the function itself)
// ---------------------------------------------------------------------------

cudaError_t emu_func_get_attributes(struct cudaFuncAttributes *attr, const void *kernel);
cudaError_t emu_func_set_attribute(const void *kernel, enum cudaFuncAttribute attr, int value);

// ---------------------------------------------------------------------------
// Backend-specific
// ---------------------------------------------------------------------------

// The kit's grids (the runner's): emu_kit_allocation marks the allocation
// holding p as one; while emu_kit_copies(1) is in force (the student's
// function runs) a copy between the host and such a grid is refused with
// cudaErrorNotPermitted, as on a GPU, and emu_refusal() names the first such
// call ("" when none).
void emu_kit_allocation(const void *p);
// emu_kit_grid marks the allocation holding the grid [grid, grid + bytes) as
// the kit's, and its other bytes as guard cells, the grid known to the
// student's function as name (d_in, d_a, ...): the first kernel read of a
// guard cell since the device was reset, where loads go through the
// sanitizer's calls (runtime/loads.cpp), is recorded, and emu_guard_read()
// gives it in one line naming the thread, the cell and the source line ("" when
// none). The program goes on: the judge fails the case (a write there is left
// for the judge too, who finds the guard changed).
void emu_kit_grid(const void *grid, size_t bytes, const char *name);
const char *emu_guard_read(void);
void emu_kit_copies(int refused);
const char *emu_refusal(void);
// Bytes copied from device memory to device memory since the program began
// (cudaMemcpy, cudaMemcpyAsync: of kind device-to-device, or default between
// two device pointers); launch_log_emu.cpp takes a bracket's share.
double emu_device_copy_total(void);

// Names the file a fatal fault (out-of-bounds access, undefined behaviour,
// device memory touched by the host) appends `error_stage=execute` and
// `error=<message>` to before the process dies; the runner passes its report.
void emu_set_fault_report(const char *path);

// Changes the order of the threads in a block ("forward", "reverse" or
// "shuffle", and the shuffle's seed) as STENCIL_EMU_ORDER and STENCIL_EMU_SEED
// would; for tests that compare orders in one process. Returns 0, or -1 for
// an unknown order.
int emu_set_order(const char *order, unsigned long long seed);
// The same for the order of the blocks in a grid (STENCIL_EMU_BLOCK_ORDER).
int emu_set_block_order(const char *order, unsigned long long seed);

} // extern "C"

// ---------------------------------------------------------------------------
// C++ overloads, as in CUDA's runtime header
// ---------------------------------------------------------------------------

// cudaMalloc for a typed pointer.
template <class T>
static inline cudaError_t cudaMalloc(T **dev_ptr, size_t size)
{
    return cudaMalloc((void **)dev_ptr, size);
}

// cudaMallocManaged for a typed pointer.
template <class T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)ptr, size, flags);
}

// cudaMallocHost for a typed pointer.
template <class T>
static inline cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost((void **)ptr, size);
}

// Copies count bytes from src into the __constant__/__device__ variable symbol.
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return emu_memcpy_to_symbol((void *)&symbol, sizeof(T), src, count, offset, kind);
}

// As cudaMemcpyToSymbol: copies run as issued.
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                  size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t stream = 0)
{
    (void)stream;
    return emu_memcpy_to_symbol((void *)&symbol, sizeof(T), src, count, offset, kind);
}

// Copies count bytes out of the __constant__/__device__ variable symbol.
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return emu_memcpy_from_symbol(dst, (const void *)&symbol, sizeof(T), count, offset, kind);
}

// As cudaMemcpyFromSymbol: copies run as issued.
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                    size_t offset = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0)
{
    (void)stream;
    return emu_memcpy_from_symbol(dst, (const void *)&symbol, sizeof(T), count, offset, kind);
}

// The variable's address, usable by kernels from now on.
template <class T>
static inline cudaError_t cudaGetSymbolAddress(void **dev_ptr, const T &symbol)
{
    return emu_get_symbol_address(dev_ptr, (void *)&symbol, sizeof(T));
}

// The variable's size in bytes.
template <class T>
static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    *size = sizeof(T);
    return cudaSuccess;
}

// The kernel's attributes (by address).
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *kernel)
{
    return emu_func_get_attributes(attr, kernel);
}

// The kernel's attributes (by the function itself).
template <class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *kernel)
{
    return emu_func_get_attributes(attr, (const void *)kernel);
}

// Sets one of the kernel's attributes (by address).
static inline cudaError_t cudaFuncSetAttribute(const void *kernel, enum cudaFuncAttribute attr, int value)
{
    return emu_func_set_attribute(kernel, attr, value);
}

// Sets one of the kernel's attributes (by the function itself).
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *kernel, enum cudaFuncAttribute attr, int value)
{
    return emu_func_set_attribute((const void *)kernel, attr, value);
}

// Accepted and ignored: there is no cache to split.
template <class T>
static inline cudaError_t cudaFuncSetCacheConfig(T *kernel, enum cudaFuncCache config)
{
    (void)kernel;
    (void)config;
    return cudaSuccess;
}

// Suggests the largest block (1024 threads, or block_limit when smaller) and
// the grid that fills the nominal device with it, as a GPU answers (132
// multiprocessors of 2048 threads, at most 32 blocks each): a grid-stride
// loop sized by this call is as large as on the GPU the labs are graded on.
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, T kernel,
                                                             size_t dynamic_smem = 0, int block_limit = 0)
{
    (void)kernel;
    (void)dynamic_smem;
    *block = block_limit > 0 && block_limit < 1024 ? block_limit : 1024;
    int per_sm = EMU_DEVICE_THREADS_PER_SM / *block;
    *min_grid = EMU_DEVICE_SMS * (per_sm < EMU_DEVICE_BLOCKS_PER_SM ? per_sm : EMU_DEVICE_BLOCKS_PER_SM);
    return cudaSuccess;
}

// Reports how many blocks of block_size threads fit on one multiprocessor of
// the nominal device (2048 threads each).
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T kernel, int block_size,
                                                                        size_t dynamic_smem)
{
    (void)kernel;
    (void)dynamic_smem;
    int per_sm = block_size > 0 ? EMU_DEVICE_THREADS_PER_SM / block_size : 0;
    *blocks = per_sm > EMU_DEVICE_BLOCKS_PER_SM ? EMU_DEVICE_BLOCKS_PER_SM : per_sm;
    return block_size > 0 ? cudaSuccess : cudaErrorInvalidValue;
}

// As cudaOccupancyMaxPotentialBlockSize: no flag changes the answer here.
template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, T kernel,
                                                                      size_t dynamic_smem = 0, int block_limit = 0,
                                                                      unsigned int flags = 0)
{
    (void)flags;
    return cudaOccupancyMaxPotentialBlockSize(min_grid, block, kernel, dynamic_smem, block_limit);
}

// As cudaOccupancyMaxActiveBlocksPerMultiprocessor: no flag changes the answer here.
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, T kernel, int block_size,
                                                                                 size_t dynamic_smem, unsigned int flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size, dynamic_smem);
}

#endif // STENCIL_EMU_HOST_API_H
