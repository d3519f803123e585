// grader/shim/shim.cpp — the CUDA runtime a student's program links instead
// of cudart: every call becomes a message to the executor (grader/protocol/wire.h).
//
// The program has no GPU and no files; this shim is its only way to the
// device. It offers the registration entry points nvcc's generated code calls
// (__cudaRegisterFatBinary ... __cudaLaunchKernel) and the public calls the
// labs need. A call the kit does not allow is answered with
// cudaErrorNotPermitted and reported to the executor, which fails the case; a
// call the shim does not define does not link, and the judge says so.
// Nothing here is trusted: the executor checks every request itself.
#include <cuda_runtime_api.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_errors.h"
#include "pipe_io.h"
#include "wire.h"

// ---------------------------------------------------------------------------
// The pipe
// ---------------------------------------------------------------------------

static pthread_mutex_t shim_lock = PTHREAD_MUTEX_INITIALIZER;  // one request at a time, from any thread

// Writes all n bytes to the executor; ends the program if the pipe is gone.
static void shim_write_all(const void *buf, size_t n)
{
    if (pipe_write_all(WIRE_FD_TO_EXECUTOR, buf, n) != 0)
        _exit(3);  // the executor is gone: nothing left to do
}

// Reads exactly n bytes from the executor; ends the program if the pipe is gone.
static void shim_read_all(void *buf, size_t n)
{
    if (pipe_read_all(WIRE_FD_FROM_EXECUTOR, buf, n) != 0)
        _exit(3);
}

// Sends one message made of two parts (either may be empty). Caller holds shim_lock.
static void shim_send(uint32_t op, const void *a, size_t alen, const void *b, size_t blen)
{
    wire_header h = {op, (uint32_t)(alen + blen)};
    shim_write_all(&h, sizeof(h));
    if (alen)
        shim_write_all(a, alen);
    if (blen)
        shim_write_all(b, blen);
}

// Reads one answer: its status, and up to cap bytes of what follows into out
// (the rest is discarded). Returns the status; *got receives the bytes kept.
static cudaError_t shim_answer(void *out, size_t cap, size_t *got)
{
    wire_header h;
    int32_t status = (int32_t)cudaErrorUnknown;
    shim_read_all(&h, sizeof(h));
    if (h.len >= sizeof(status)) {
        shim_read_all(&status, sizeof(status));
        h.len -= sizeof(status);
    }
    size_t keep = h.len < cap ? h.len : cap;
    if (keep)
        shim_read_all(out, keep);
    for (size_t rest = h.len - keep; rest > 0;) {
        char sink[4096];
        size_t n = rest < sizeof(sink) ? rest : sizeof(sink);
        shim_read_all(sink, n);
        rest -= n;
    }
    if (got)
        *got = keep;
    return (cudaError_t)status;
}

// One request and its answer, under the lock. Returns the answer's status.
static cudaError_t shim_request(uint32_t op, const void *a, size_t alen, const void *b, size_t blen,
                                void *out, size_t cap)
{
    pthread_mutex_lock(&shim_lock);
    shim_send(op, a, alen, b, blen);
    cudaError_t e = shim_answer(out, cap, NULL);
    pthread_mutex_unlock(&shim_lock);
    return e;
}

// Tells the executor the program called something the kit refuses; returns
// the error the call gives back.
static cudaError_t shim_refuse(uint32_t refusal)
{
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_REFUSED, &refusal, sizeof(refusal), NULL, 0);
    pthread_mutex_unlock(&shim_lock);
    return cudaErrorNotPermitted;
}

// ---------------------------------------------------------------------------
// The main loop's side: wait for the kit's call, answer it
// ---------------------------------------------------------------------------

extern "C" void shim_ready(void)
{
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_READY, NULL, 0, NULL, 0);
    pthread_mutex_unlock(&shim_lock);
}

// Waits for the executor's next message (a WIRE_CALL or WIRE_EXIT); copies its
// payload (at most cap bytes) into payload. Returns the op.
extern "C" uint32_t shim_wait(void *payload, size_t cap)
{
    wire_header h;
    shim_read_all(&h, sizeof(h));
    if (h.len > cap)
        _exit(3);
    shim_read_all(payload, h.len);
    return h.op;
}

extern "C" void shim_return(const void *payload, size_t len)
{
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_RETURN, payload, len, NULL, 0);
    pthread_mutex_unlock(&shim_lock);
}

// ---------------------------------------------------------------------------
// Registration (called by nvcc's generated code before main)
// ---------------------------------------------------------------------------

typedef struct shim_fatbin_wrapper {
    int magic;                       // 0x466243b1
    int version;                     // 1
    const unsigned long long *data;  // the fatbin image
    void *unused;                    // filename or prelinked fatbins
} shim_fatbin_wrapper;

typedef struct shim_fatbin_header {
    unsigned int magic;              // 0xBA55ED50
    unsigned short version;          // 1
    unsigned short header_size;      // bytes before the first entry
    unsigned long long fat_size;     // bytes after the header
} shim_fatbin_header;

static void *shim_module_handle[1];  // the handle nvcc's code keeps (never dereferenced by it)

extern "C" void **__cudaRegisterFatBinary(void *fatCubin)
{
    const shim_fatbin_wrapper *w = (const shim_fatbin_wrapper *)fatCubin;
    const shim_fatbin_header *h = (const shim_fatbin_header *)w->data;
    size_t bytes = (size_t)h->header_size + (size_t)h->fat_size;
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_FATBIN, h, bytes, NULL, 0);
    pthread_mutex_unlock(&shim_lock);
    return shim_module_handle;
}

extern "C" void __cudaRegisterFatBinaryEnd(void **) {}
extern "C" void __cudaUnregisterFatBinary(void **) {}
extern "C" char __cudaInitModule(void **) { return 1; }

extern "C" void __cudaRegisterFunction(void **, const char *hostFun, char *, const char *deviceName, int,
                                       uint3 *, uint3 *, dim3 *, dim3 *, int *)
{
    uint64_t handle = (uint64_t)(uintptr_t)hostFun;
    size_t n = strnlen(deviceName, WIRE_MAX_NAME);
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_FUNCTION, &handle, sizeof(handle), deviceName, n);
    pthread_mutex_unlock(&shim_lock);
}

extern "C" void __cudaRegisterVar(void **, char *hostVar, char *, const char *deviceName, int, size_t size,
                                  int constant, int)
{
    struct {
        uint64_t host;
        uint64_t size;
        uint32_t constant;
    } __attribute__((packed)) v = {(uint64_t)(uintptr_t)hostVar, (uint64_t)size, (uint32_t)constant};
    size_t n = strnlen(deviceName, WIRE_MAX_NAME);
    pthread_mutex_lock(&shim_lock);
    shim_send(WIRE_VAR, &v, sizeof(v), deviceName, n);
    pthread_mutex_unlock(&shim_lock);
}

extern "C" void __cudaRegisterManagedVar(void **, void **, char *, const char *, int, size_t, int, int)
{
    shim_refuse(WIRE_REFUSE_MANAGED);
}

// ---------------------------------------------------------------------------
// Launches
// ---------------------------------------------------------------------------

typedef struct shim_config {
    unsigned grid[3], block[3]; // <<<grid, block
    size_t shared;              // , shared
    void *stream;               // , stream>>>
} shim_config;

static __thread shim_config shim_pushed[8];  // the <<<...>>> configurations not yet popped, per thread
static __thread int shim_pushed_count;

extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
    if (shim_pushed_count >= 8)
        return 1;
    shim_pushed[shim_pushed_count++] = {{gridDim.x, gridDim.y, gridDim.z}, {blockDim.x, blockDim.y, blockDim.z},
                                        sharedMem, (void *)stream};
    return 0;
}

extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (shim_pushed_count <= 0)
        return cudaErrorInvalidConfiguration;
    shim_config c = shim_pushed[--shim_pushed_count];
    *gridDim = dim3(c.grid[0], c.grid[1], c.grid[2]);
    *blockDim = dim3(c.block[0], c.block[1], c.block[2]);
    *sharedMem = c.shared;
    *(void **)stream = c.stream;
    return cudaSuccess;
}

extern "C" cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun)
{
    *kernel = (cudaKernel_t)fun;  // the host stub's address names the kernel on both sides
    return cudaSuccess;
}

typedef struct shim_params {
    uint64_t handle;                  // the kernel's host handle
    uint32_t count;                   // its parameters
    uint32_t size[WIRE_MAX_PARAMS];   // each one's bytes
} shim_params;

static shim_params shim_param_cache[64];  // parameter sizes of the kernels launched so far
static int shim_param_cached;

// The parameter sizes of kernel handle, asked of the executor once. Caller holds shim_lock.
static const shim_params *shim_params_of(uint64_t handle, cudaError_t *err)
{
    for (int i = 0; i < shim_param_cached; i++)
        if (shim_param_cache[i].handle == handle)
            return &shim_param_cache[i];
    shim_params p;
    uint32_t answer[1 + WIRE_MAX_PARAMS];
    size_t got = 0;
    memset(&p, 0, sizeof(p));
    shim_send(WIRE_PARAMS, &handle, sizeof(handle), NULL, 0);
    *err = shim_answer(answer, sizeof(answer), &got);
    if (*err != cudaSuccess || got < sizeof(uint32_t) || answer[0] > WIRE_MAX_PARAMS)
        return NULL;
    p.handle = handle;
    p.count = answer[0];
    memcpy(p.size, answer + 1, p.count * sizeof(uint32_t));
    if (shim_param_cached < 64)
        shim_param_cache[shim_param_cached++] = p;
    else
        shim_param_cache[63] = p;
    return shim_param_cached < 64 ? &shim_param_cache[shim_param_cached - 1] : &shim_param_cache[63];
}

// Sends one launch. The executor answers nothing: a failed launch shows in
// the next cudaGetLastError or synchronisation, as with the real runtime.
static cudaError_t shim_launch(const void *fun, dim3 grid, dim3 block, void **args, size_t shared, void *stream)
{
    uint64_t handle = (uint64_t)(uintptr_t)fun;
    cudaError_t err = cudaSuccess;
    pthread_mutex_lock(&shim_lock);
    const shim_params *p = shim_params_of(handle, &err);
    if (!p) {
        pthread_mutex_unlock(&shim_lock);
        return err != cudaSuccess ? err : cudaErrorInvalidDeviceFunction;
    }
    size_t arg_bytes = 0;
    for (uint32_t i = 0; i < p->count; i++)
        arg_bytes += p->size[i];
    struct {
        uint64_t handle;
        uint32_t grid[3], block[3];
        uint64_t shared, stream;
    } __attribute__((packed)) head = {handle, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                                      (uint64_t)shared, (uint64_t)(uintptr_t)stream};
    char *packed = (char *)malloc(arg_bytes + 1);
    size_t at = 0;
    for (uint32_t i = 0; packed && i < p->count; i++) {
        memcpy(packed + at, args[i], p->size[i]);
        at += p->size[i];
    }
    shim_send(WIRE_LAUNCH, &head, sizeof(head), packed, packed ? arg_bytes : 0);
    pthread_mutex_unlock(&shim_lock);
    free(packed);
    return cudaSuccess;
}

extern "C" cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream)
{
    return shim_launch((const void *)kernel, gridDim, blockDim, args, sharedMem, (void *)stream);
}

extern "C" cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem, cudaStream_t stream)
{
    return shim_launch((const void *)kernel, gridDim, blockDim, args, sharedMem, (void *)stream);
}

extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    return shim_launch(func, gridDim, blockDim, args, sharedMem, (void *)stream);
}

// Grid-wide synchronisation is not offered (the kit launches on one stream and
// judges launch by launch): refused with its reason rather than left unlinked.
extern "C" cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t)
{
    return shim_refuse(WIRE_REFUSE_COOPERATIVE);
}

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    uint64_t bytes = size, ptr = 0;
    cudaError_t e = shim_request(WIRE_MALLOC, &bytes, sizeof(bytes), NULL, 0, &ptr, sizeof(ptr));
    *devPtr = e == cudaSuccess ? (void *)(uintptr_t)ptr : NULL;
    return e;
}

extern "C" cudaError_t cudaFree(void *devPtr)
{
    uint64_t ptr = (uint64_t)(uintptr_t)devPtr;
    return shim_request(WIRE_FREE, &ptr, sizeof(ptr), NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    wire_memcpy_head m = {(uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, (uint64_t)count, (uint32_t)kind};
    if (kind == cudaMemcpyDefault || kind == cudaMemcpyHostToHost) {
        if (kind == cudaMemcpyHostToHost) {
            memmove(dst, src, count);
            return cudaSuccess;
        }
        return cudaErrorInvalidMemcpyDirection;  // without unified addressing the shim cannot tell host from device
    }
    if (count > WIRE_MAX_PAYLOAD - 64)
        return cudaErrorInvalidValue;
    if (kind == cudaMemcpyHostToDevice)
        return shim_request(WIRE_MEMCPY, &m, sizeof(m), src, count, NULL, 0);
    if (kind == cudaMemcpyDeviceToHost)
        return shim_request(WIRE_MEMCPY, &m, sizeof(m), NULL, 0, dst, count);
    return shim_request(WIRE_MEMCPY, &m, sizeof(m), NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return cudaMemcpy(dst, src, count, kind);
}

extern "C" cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    wire_memset_call m = {(uint64_t)(uintptr_t)devPtr, (uint32_t)value, (uint64_t)count};
    return shim_request(WIRE_MEMSET, &m, sizeof(m), NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return cudaMemset(devPtr, value, count);
}

// Copies to (to_symbol 1) or from a __device__ / __constant__ variable.
static cudaError_t shim_symbol_copy(const void *symbol, size_t offset, void *host, size_t count, uint32_t to_symbol)
{
    wire_symbol_copy_head m = {(uint64_t)(uintptr_t)symbol, (uint64_t)offset, (uint64_t)count, to_symbol};
    if (count > WIRE_MAX_PAYLOAD - 64)
        return cudaErrorInvalidValue;
    if (to_symbol)
        return shim_request(WIRE_SYMBOL_COPY, &m, sizeof(m), host, count, NULL, 0);
    return shim_request(WIRE_SYMBOL_COPY, &m, sizeof(m), NULL, 0, host, count);
}

extern "C" cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                          enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;  // device-to-symbol copies: use a kernel
    return shim_symbol_copy(symbol, offset, (void *)src, count, 1);
}

extern "C" cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                            enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    return shim_symbol_copy(symbol, offset, dst, count, 0);
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                               enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

extern "C" cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

extern "C" cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    uint64_t host = (uint64_t)(uintptr_t)symbol, answer[2] = {0, 0};
    cudaError_t e = shim_request(WIRE_SYMBOL_ADDRESS, &host, sizeof(host), NULL, 0, answer, sizeof(answer));
    *devPtr = e == cudaSuccess ? (void *)(uintptr_t)answer[0] : NULL;
    return e;
}

extern "C" cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    uint64_t host = (uint64_t)(uintptr_t)symbol, answer[2] = {0, 0};
    cudaError_t e = shim_request(WIRE_SYMBOL_ADDRESS, &host, sizeof(host), NULL, 0, answer, sizeof(answer));
    *size = e == cudaSuccess ? (size_t)answer[1] : 0;
    return e;
}

extern "C" cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    *ptr = malloc(size);  // page-locked memory means nothing without a GPU in this process
    return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

extern "C" cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMallocManaged(void **devPtr, size_t, unsigned int)
{
    *devPtr = NULL;
    return shim_refuse(WIRE_REFUSE_MANAGED);
}

extern "C" cudaError_t cudaHostAlloc(void **pHost, size_t, unsigned int)
{
    *pHost = NULL;
    return shim_refuse(WIRE_REFUSE_MANAGED);
}

// ---------------------------------------------------------------------------
// Errors and synchronisation
// ---------------------------------------------------------------------------

extern "C" cudaError_t cudaDeviceSynchronize(void)
{
    return shim_request(WIRE_SYNC, NULL, 0, NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return cudaDeviceSynchronize();
}

// The default stream, by any of its names, is complete once the device is: as cudaStreamSynchronize.
extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return cudaStreamSynchronize(stream);
}

// Work on the default stream runs in call order: nothing to wait for; an event is refused.
extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t, unsigned int)
{
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        return shim_refuse(WIRE_REFUSE_STREAM);
    return shim_refuse(WIRE_REFUSE_EVENT);
}

extern "C" cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

extern "C" cudaError_t cudaGetLastError(void)
{
    uint32_t clear = 1;
    return shim_request(WIRE_LAST_ERROR, &clear, sizeof(clear), NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaPeekAtLastError(void)
{
    uint32_t clear = 0;
    return shim_request(WIRE_LAST_ERROR, &clear, sizeof(clear), NULL, 0, NULL, 0);
}

extern "C" const char *cudaGetErrorName(cudaError_t error)
{
    const cuda_error_text *t = cuda_error_lookup(error);
    return t ? t->name : "cudaErrorOther";
}

extern "C" const char *cudaGetErrorString(cudaError_t error)
{
    const cuda_error_text *t = cuda_error_lookup(error);
    return t ? t->text : "CUDA error (see its number)";
}

// ---------------------------------------------------------------------------
// The device and kernels' attributes
// ---------------------------------------------------------------------------

extern "C" cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : shim_refuse(WIRE_REFUSE_DEVICE);
}

extern "C" cudaError_t cudaDeviceReset(void) { return shim_refuse(WIRE_REFUSE_DEVICE); }
extern "C" cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t) { return shim_refuse(WIRE_REFUSE_DEVICE); }
extern "C" cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) { return cudaSuccess; }
extern "C" cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache) { return cudaSuccess; }

extern "C" cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    int32_t a = (int32_t)attr, v = 0;
    if (device != 0)
        return cudaErrorInvalidDevice;
    cudaError_t e = shim_request(WIRE_DEVICE_ATTR, &a, sizeof(a), NULL, 0, &v, sizeof(v));
    *value = v;
    return e;
}

// Fills one int field of cudaDeviceProp from a device attribute.
static void shim_prop(int *field, enum cudaDeviceAttr attr)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, 0) == cudaSuccess)
        *field = v;
}

extern "C" cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (device != 0)
        return cudaErrorInvalidDevice;
    memset(prop, 0, sizeof(*prop));
    shim_request(WIRE_DEVICE_NAME, NULL, 0, NULL, 0, prop->name, sizeof(prop->name) - 1);
    int v = 0;
    shim_prop(&prop->major, cudaDevAttrComputeCapabilityMajor);
    shim_prop(&prop->minor, cudaDevAttrComputeCapabilityMinor);
    shim_prop(&prop->multiProcessorCount, cudaDevAttrMultiProcessorCount);
    shim_prop(&prop->warpSize, cudaDevAttrWarpSize);
    shim_prop(&prop->maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock);
    shim_prop(&prop->maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor);
    shim_prop(&prop->maxThreadsDim[0], cudaDevAttrMaxBlockDimX);
    shim_prop(&prop->maxThreadsDim[1], cudaDevAttrMaxBlockDimY);
    shim_prop(&prop->maxThreadsDim[2], cudaDevAttrMaxBlockDimZ);
    shim_prop(&prop->maxGridSize[0], cudaDevAttrMaxGridDimX);
    shim_prop(&prop->maxGridSize[1], cudaDevAttrMaxGridDimY);
    shim_prop(&prop->maxGridSize[2], cudaDevAttrMaxGridDimZ);
    shim_prop(&prop->regsPerBlock, cudaDevAttrMaxRegistersPerBlock);
    shim_prop(&prop->regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor);
    shim_prop(&prop->l2CacheSize, cudaDevAttrL2CacheSize);
    shim_prop(&prop->memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth);
    shim_prop(&prop->maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor);
    shim_prop(&v, cudaDevAttrMaxSharedMemoryPerBlock);
    prop->sharedMemPerBlock = (size_t)v;
    shim_prop(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    prop->sharedMemPerBlockOptin = (size_t)v;
    shim_prop(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    prop->sharedMemPerMultiprocessor = (size_t)v;
    shim_prop(&v, cudaDevAttrTotalConstantMemory);
    prop->totalConstMem = (size_t)v;
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    uint64_t handle = (uint64_t)(uintptr_t)func;
    wire_func_attrs w;
    memset(&w, 0, sizeof(w));
    cudaError_t e = shim_request(WIRE_FUNC_ATTRS, &handle, sizeof(handle), NULL, 0, &w, sizeof(w));
    memset(attr, 0, sizeof(*attr));
    attr->sharedSizeBytes = (size_t)w.shared_bytes;
    attr->constSizeBytes = (size_t)w.const_bytes;
    attr->localSizeBytes = (size_t)w.local_bytes;
    attr->maxThreadsPerBlock = w.max_threads;
    attr->numRegs = w.num_regs;
    attr->ptxVersion = w.ptx_version;
    attr->binaryVersion = w.binary_version;
    attr->maxDynamicSharedSizeBytes = w.max_dynamic_shared;
    return e;
}

extern "C" cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    struct {
        uint64_t handle;
        int32_t attr, value;
    } __attribute__((packed)) m = {(uint64_t)(uintptr_t)func, (int32_t)attr, (int32_t)value};
    return shim_request(WIRE_FUNC_SET_ATTR, &m, sizeof(m), NULL, 0, NULL, 0);
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                             int blockSize, size_t dynamicSMemSize,
                                                                             unsigned int)
{
    struct {
        uint64_t handle;
        int32_t block;
        uint64_t shared;
    } __attribute__((packed)) m = {(uint64_t)(uintptr_t)func, (int32_t)blockSize, (uint64_t)dynamicSMemSize};
    int32_t blocks = 0;
    cudaError_t e = shim_request(WIRE_OCCUPANCY, &m, sizeof(m), NULL, 0, &blocks, sizeof(blocks));
    *numBlocks = blocks;
    return e;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                    size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

extern "C" cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Refused: streams, events, graphs (the executor owns the one stream and the timing)
// ---------------------------------------------------------------------------

extern "C" cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = NULL; return shim_refuse(WIRE_REFUSE_STREAM); }
extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int) { *s = NULL; return shim_refuse(WIRE_REFUSE_STREAM); }
extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int, int) { *s = NULL; return shim_refuse(WIRE_REFUSE_STREAM); }
extern "C" cudaError_t cudaStreamDestroy(cudaStream_t) { return shim_refuse(WIRE_REFUSE_STREAM); }
extern "C" cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = NULL; return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) { *e = NULL; return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t) { return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) { *ms = 0; return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventDestroy(cudaEvent_t) { return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaEventQuery(cudaEvent_t) { return shim_refuse(WIRE_REFUSE_EVENT); }
extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t, enum cudaStreamCaptureMode) { return shim_refuse(WIRE_REFUSE_GRAPH); }
