// grader/emu/runtime/api.cpp — the host API that is not about memory or
// launches: options, errors, the device and its properties, streams, events,
// kernel attributes.
//
// Errors behave as on a GPU whose kernels run asynchronously: a launch that
// CUDA refuses sets the last error at once; an error found while a kernel
// runs (the backend's strict checks) is reported by the next synchronising
// call and is sticky from then on: every later call returns it.
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdint.h>

#include "internal.h"
#include "cuda_errors.h"
#include "protocol.h"

emu_options emu_opts;

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

// Parses the unsigned number in the environment variable name, or returns
// fallback when it is unset; exits with a message when it is malformed.
static unsigned long long option_number(const char *name, unsigned long long fallback)
{
    const char *text = getenv(name);
    char *end = NULL;
    if (!text || !*text)
        return fallback;
    unsigned long long value = strtoull(text, &end, 0);
    if (*end != '\0') {
        fprintf(stderr, "stencil-emu: %s must be a number (got '%s')\n", name, text);
        exit(2);
    }
    return value;
}

// Parses an order's name (empty: forward) into order; returns 0, or -1 when unknown.
static int order_parse(const char *text, enum emu_order *order)
{
    if (!text || !*text || strcmp(text, "forward") == 0)
        *order = EMU_ORDER_FORWARD;
    else if (strcmp(text, "reverse") == 0)
        *order = EMU_ORDER_REVERSE;
    else if (strcmp(text, "shuffle") == 0)
        *order = EMU_ORDER_SHUFFLE;
    else
        return -1;
    return 0;
}

// Reads the order in the environment variable name; exits with a message
// when it is not one of the three.
static enum emu_order option_order(const char *name)
{
    const char *text = getenv(name);
    enum emu_order order;
    if (order_parse(text, &order) == 0)
        return order;
    fprintf(stderr, "stencil-emu: %s must be forward, reverse or shuffle (got '%s')\n", name, text);
    exit(2);
}

// Sets the order *which (the threads' or the blocks') from its name, and the
// seed the shuffles draw from; returns 0, or -1 for an unknown order.
static int order_set(enum emu_order *which, const char *order, unsigned long long seed)
{
    emu_runtime_init();
    if (order_parse(order, which) != 0)
        return -1;
    emu_opts.seed = seed;
    return 0;
}

// Sets the thread order and seed (tests); -1 for an unknown order.
int emu_set_order(const char *order, unsigned long long seed)
{
    return order_set(&emu_opts.order, order, seed);
}

// Sets the block order and seed (tests); -1 for an unknown order.
int emu_set_block_order(const char *order, unsigned long long seed)
{
    return order_set(&emu_opts.block_order, order, seed);
}

// Half the machine's memory, between 1 and 16 GiB: what cudaMalloc may hand out.
static size_t default_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t half = pages > 0 && page > 0 ? (size_t)pages * (size_t)page / 2 : ((size_t)4 << 30);
    size_t low = (size_t)1 << 30, high = (size_t)16 << 30;
    return half < low ? low : (half > high ? high : half);
}

void emu_runtime_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    emu_opts.order = option_order("STENCIL_EMU_ORDER");
    emu_opts.block_order = option_order("STENCIL_EMU_BLOCK_ORDER");
    emu_opts.seed = option_number("STENCIL_EMU_SEED", 1);
    emu_opts.stack_bytes = (size_t)option_number("STENCIL_EMU_STACK_KB", 256) << 10;
    emu_opts.memory_bytes = (size_t)option_number("STENCIL_EMU_MEMORY_MB", default_memory_bytes() >> 20) << 20;
    if (emu_opts.stack_bytes < ((size_t)16 << 10))
        emu_opts.stack_bytes = (size_t)16 << 10;
    emu_fault_install();
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

static cudaError_t last_error;          // cleared by cudaGetLastError
static cudaError_t execution_error;     // the first error found while a kernel ran
static int execution_error_reported;    // 1 once a synchronising call returned it: sticky
static char execution_message[1024];    // its one-line explanation

cudaError_t emu_api_begin(void)
{
    emu_runtime_init();
    return execution_error_reported ? execution_error : cudaSuccess;
}

cudaError_t emu_api_return(cudaError_t err)
{
    if (err != cudaSuccess)
        last_error = err;
    return err;
}

cudaError_t emu_api_synchronize(void)
{
    emu_runtime_init();
    if (execution_error == cudaSuccess)
        return cudaSuccess;
    execution_error_reported = 1;
    return emu_api_return(execution_error);
}

void emu_execution_error(cudaError_t code, const char *fmt, ...)
{
    va_list ap;
    if (execution_error != cudaSuccess)
        return;
    va_start(ap, fmt);
    vsnprintf(execution_message, sizeof(execution_message), fmt, ap);
    va_end(ap);
    protocol_one_line(execution_message);
    execution_error = code;
}

int emu_execution_failed(void)
{
    return execution_error != cudaSuccess;
}

// Returns the last error and clears it (a reported execution error stays).
cudaError_t cudaGetLastError(void)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return err;
    err = last_error;
    last_error = cudaSuccess;
    return err;
}

// Returns the last error without clearing it.
cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t err = emu_api_begin();
    return err != cudaSuccess ? err : last_error;
}

// CUDA's text for err; the explanation for the execution error.
const char *cudaGetErrorString(cudaError_t err)
{
    const cuda_error_text *e = cuda_error_lookup(err);
    if (err != cudaSuccess && err == execution_error && execution_message[0])
        return execution_message;
    return e ? e->text : "unrecognized error code";
}

// The enumerator's name of err.
const char *cudaGetErrorName(cudaError_t err)
{
    const cuda_error_text *e = cuda_error_lookup(err);
    return e ? e->name : "unrecognized error code";
}

// ---------------------------------------------------------------------------
// The device
// ---------------------------------------------------------------------------

// One device: the emulation.
cudaError_t cudaGetDeviceCount(int *count)
{
    emu_runtime_init();
    *count = 1;
    return cudaSuccess;
}

// Accepts device 0 only.
cudaError_t cudaSetDevice(int device)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    return device == 0 ? cudaSuccess : emu_api_return(cudaErrorInvalidDevice);
}

// Always device 0.
cudaError_t cudaGetDevice(int *device)
{
    emu_runtime_init();
    *device = 0;
    return cudaSuccess;
}

// Fills prop with the emulated device's description.
static void device_describe(struct cudaDeviceProp *prop)
{
    memset(prop, 0, sizeof(*prop));
    snprintf(prop->name, sizeof(prop->name), "CPU emulation");
    prop->totalGlobalMem = emu_opts.memory_bytes;
    prop->sharedMemPerBlock = EMU_SHARED_DEFAULT_LIMIT;
    prop->regsPerBlock = 65536;
    prop->warpSize = 32;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->clockRate = 1000000;
    prop->totalConstMem = 65536;
    prop->major = 9;
    prop->minor = 0;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = EMU_DEVICE_SMS;  // an H100's: a launch sized by the SM count is as large as on the GPU the labs are graded on
    prop->integrated = 1;
    prop->canMapHostMemory = 1;
    prop->unifiedAddressing = 1;
    prop->memoryClockRate = 1000000;
    prop->memoryBusWidth = 64;
    prop->l2CacheSize = 4 << 20;
    prop->maxThreadsPerMultiProcessor = EMU_DEVICE_THREADS_PER_SM;
    prop->globalL1CacheSupported = 1;
    prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = 228 * 1024;
    prop->regsPerMultiprocessor = 65536;
    prop->managedMemory = 1;
    prop->hostNativeAtomicSupported = 1;
    prop->sharedMemPerBlockOptin = EMU_SHARED_OPTIN_LIMIT;
    prop->directManagedMemAccessFromHost = 1;
    prop->maxBlocksPerMultiProcessor = EMU_DEVICE_BLOCKS_PER_SM;
    prop->reservedSharedMemPerBlock = 1024;
}

// Fills prop with the emulated device's description.
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (device != 0 || !prop)
        return emu_api_return(device != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    device_describe(prop);
    return cudaSuccess;
}

// A size in bytes as an attribute's int (the largest int when it does not fit).
static int attribute_bytes(size_t bytes)
{
    return bytes > INT_MAX ? INT_MAX : (int)bytes;
}

// One field of the device description.
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    cudaError_t err = cudaGetDeviceProperties(&p, device);
    if (err != cudaSuccess)
        return err;
    switch (attr) {
    // the description's int fields
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    // the block's and the grid's most in each axis
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    // sizes in bytes
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = attribute_bytes(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = attribute_bytes(p.totalConstMem); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = attribute_bytes(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = attribute_bytes(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxPitch: *value = attribute_bytes(p.memPitch); break;
    case cudaDevAttrTextureAlignment: *value = attribute_bytes(p.textureAlignment); break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = attribute_bytes(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; break;
    default: return emu_api_return(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

// The runtime API level the shim follows.
cudaError_t cudaDriverGetVersion(int *version)
{
    emu_runtime_init();
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// The runtime API level the shim follows.
cudaError_t cudaRuntimeGetVersion(int *version)
{
    emu_runtime_init();
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// Nothing is pending; reports an execution error.
cudaError_t cudaDeviceSynchronize(void)
{
    return emu_api_synchronize();
}

// Frees every allocation and forgets every error.
cudaError_t cudaDeviceReset(void)
{
    emu_runtime_init();
    last_error = cudaSuccess;
    execution_error = cudaSuccess;
    execution_error_reported = 0;
    execution_message[0] = '\0';
    emu_memory_reset();
    return cudaSuccess;
}

// Accepted and ignored.
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    (void)limit;
    (void)value;
    return emu_api_return(emu_api_begin());
}

// ---------------------------------------------------------------------------
// Streams and events
// ---------------------------------------------------------------------------

struct emu_stream {
    unsigned int flags;   // as created; nothing depends on them
};

struct emu_event {
    double ms;            // host time of the last record, in milliseconds
    int recorded;         // 1 once recorded
};

// Host monotonic time in milliseconds.
static double host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

// A stream: a handle only, work runs as issued.
cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

// A stream with flags (kept, unused).
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    *stream = new emu_stream{flags};
    return cudaSuccess;
}

// Frees the handle.
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t err = emu_api_begin();
    if ((uintptr_t)stream <= (uintptr_t)cudaStreamPerThread)  // the default stream, by any of its names
        return emu_api_return(err != cudaSuccess ? err : cudaErrorInvalidResourceHandle);
    delete stream;
    return emu_api_return(err);
}

// Work runs as issued, so nothing is ever pending: waiting for a stream or an
// event, or asking whether it is done, reports an execution error alone.
cudaError_t cudaStreamSynchronize(cudaStream_t) { return emu_api_synchronize(); }
cudaError_t cudaStreamQuery(cudaStream_t) { return emu_api_synchronize(); }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return emu_api_synchronize(); }
cudaError_t cudaEventQuery(cudaEvent_t) { return emu_api_synchronize(); }

// Work is already in order: nothing to wait for.
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream;
    (void)event;
    (void)flags;
    return emu_api_return(emu_api_begin());
}

// An event, not recorded yet.
cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

// An event with flags (ignored).
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    (void)flags;
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    *event = new emu_event{0.0, 0};
    return cudaSuccess;
}

// Stamps the event with the host time.
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (!event)
        return emu_api_return(cudaErrorInvalidResourceHandle);
    event->ms = host_ms();
    event->recorded = 1;
    return cudaSuccess;
}

// Host milliseconds between two recorded events.
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    if (!start || !stop || !start->recorded || !stop->recorded)
        return emu_api_return(cudaErrorInvalidResourceHandle);
    *ms = (float)(stop->ms - start->ms);
    return cudaSuccess;
}

// Frees the event.
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    delete event;
    return emu_api_return(emu_api_begin());
}

// ---------------------------------------------------------------------------
// Kernel attributes
// ---------------------------------------------------------------------------

// The kernel's attributes; its static shared size once it ran.
cudaError_t emu_func_get_attributes(struct cudaFuncAttributes *attr, const void *kernel)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    emu_kernel_info *k = kernel ? emu_kernel_find(kernel) : NULL;
    if (!k || !attr)
        return emu_api_return(k ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
    memset(attr, 0, sizeof(*attr));
    size_t smem = emu_kernel_static_smem(k);
    attr->sharedSizeBytes = smem;
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = 32;  // not modelled: a typical stencil kernel's count, so occupancy arithmetic divides by it
    attr->ptxVersion = 90;
    attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = k->max_dynamic_smem >= 0
                                          ? k->max_dynamic_smem
                                          : (int)(EMU_SHARED_DEFAULT_LIMIT - (smem < EMU_SHARED_DEFAULT_LIMIT ? smem : EMU_SHARED_DEFAULT_LIMIT));
    attr->preferredShmemCarveout = k->carveout;
    return cudaSuccess;
}

// Sets the dynamic shared memory limit or the carveout.
cudaError_t emu_func_set_attribute(const void *kernel, enum cudaFuncAttribute attr, int value)
{
    cudaError_t err = emu_api_begin();
    if (err != cudaSuccess)
        return emu_api_return(err);
    emu_kernel_info *k = kernel ? emu_kernel_find(kernel) : NULL;
    if (!k)
        return emu_api_return(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value + emu_kernel_static_smem(k) > EMU_SHARED_OPTIN_LIMIT)
            return emu_api_return(cudaErrorInvalidValue);
        k->max_dynamic_smem = value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100)
            return emu_api_return(cudaErrorInvalidValue);
        k->carveout = value;
        return cudaSuccess;
    }
    return emu_api_return(cudaErrorInvalidValue);
}
