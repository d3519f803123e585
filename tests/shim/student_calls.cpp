// tests/shim/student_calls.cpp — a student's host code for tests/shim.sh:
// linked with grader/shim/ (shim.cpp, student_main.cpp) as a student's kernel
// file is, without device code. It registers a fake module and, in
// launch_stencil, makes every call the shim offers, checking each answer
// against what tests/shim/fake_executor.c gives (values derived from the
// call's arguments, which the executor draws from its seed). The number of
// its checks that failed travels back as the value of a last cudaMemset of
// no bytes. A call with N = 0 only writes the program's line counts (the
// coverage build) before the executor ends it with WIRE_EXIT.
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fake_wire.h"

#ifdef STENCIL_COVERAGE
extern "C" void __gcov_dump(void);
#endif
static_assert(FAKE_STICKY_ERROR == cudaErrorLaunchFailure, "fake_wire.h's sticky error is CUDA's");
static_assert(FAKE_NOT_A_KERNEL == cudaErrorInvalidDeviceFunction, "fake_wire.h's not-a-kernel error is CUDA's");

extern "C" void **__cudaRegisterFatBinary(void *fatCubin);
extern "C" void __cudaRegisterFunction(void **, const char *hostFun, char *, const char *deviceName, int, uint3 *,
                                       uint3 *, dim3 *, dim3 *, int *);
extern "C" void __cudaRegisterVar(void **, char *hostVar, char *, const char *deviceName, int, size_t size,
                                  int constant, int);
extern "C" void __cudaRegisterManagedVar(void **, void **, char *, const char *, int, size_t, int, int);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                struct CUstream_st *stream);
extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
extern "C" cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun);
extern "C" cudaError_t cudaThreadSynchronize(void);  // CUDA 13 headers dropped it; the shim still offers it
extern "C" cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream);

static int failures;  // checks that failed so far

// Counts a failed check and says which, on stderr (the executor's log).
static void expect(int ok, const char *what)
{
    if (!ok) {
        failures++;
        fprintf(stderr, "student_calls: %s\n", what);
    }
}

// The stand-ins nvcc's registration names: a kernel's host stub and two device variables.
static void fake_kernel_stub(void) {}
static float fake_coefficients[FAKE_SYMBOL_FLOATS];
static float fake_managed;

// Registers the fake module before main(), as nvcc's generated constructors do.
__attribute__((constructor)) static void register_fake_module(void)
{
    static const struct {
        unsigned int magic;
        unsigned short version, header_size;
        unsigned long long fat_size;
        char image[FAKE_FATBIN_BYTES];
    } fatbin = {0xBA55ED50u, 1, 16, FAKE_FATBIN_BYTES, {0}};
    static const struct {
        int magic, version;
        const void *data;
        void *unused;
    } wrapper = {0x466243b1, 1, &fatbin, NULL};
    void **module = __cudaRegisterFatBinary((void *)&wrapper);
    __cudaRegisterFunction(module, (const char *)fake_kernel_stub, NULL, FAKE_KERNEL_NAME, -1, NULL, NULL, NULL, NULL,
                           NULL);
    __cudaRegisterVar(module, (char *)fake_coefficients, NULL, FAKE_SYMBOL_NAME, 0, sizeof(fake_coefficients), 1, 0);
    __cudaRegisterManagedVar(module, NULL, (char *)&fake_managed, "fake_managed", 0, sizeof(fake_managed), 0, 0);
}

// Memory: malloc, the four copy directions, memset, free, with the executor's pattern checked.
static void memory_calls(float *d_in, unsigned n)
{
    void *d = NULL;
    expect(cudaMalloc(&d, n * 4) == cudaSuccess && (uint64_t)(uintptr_t)d == fake_malloc_answer(n * 4), "cudaMalloc's pointer");
    static unsigned char host[FAKE_MAX_BYTES], back[FAKE_MAX_BYTES];
    size_t bytes = n % FAKE_MAX_BYTES + 1;
    for (size_t i = 0; i < bytes; i++)
        host[i] = fake_pattern_byte(n, i);
    expect(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess, "a host-to-device copy");
    expect(cudaMemcpy(back, d_in, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "a device-to-host copy");
    int same = 1;
    for (size_t i = 0; i < bytes; i++)
        same &= back[i] == fake_pattern_byte(n + 1, i);
    expect(same, "a device-to-host copy's bytes");
    expect(cudaMemcpy(d, d_in, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess, "a device-to-device copy");
    expect(cudaMemcpy(back, host, bytes, cudaMemcpyHostToHost) == cudaSuccess && back[0] == host[0], "a host-to-host copy");
    expect(cudaMemcpy(d, host, bytes, cudaMemcpyDefault) == cudaErrorInvalidMemcpyDirection, "cudaMemcpyDefault refused");
    expect(cudaMemcpy(d, host, (size_t)1 << 31, cudaMemcpyHostToDevice) == cudaErrorInvalidValue, "a copy over the wire's limit");
    expect(cudaMemcpyAsync(d, host, bytes, cudaMemcpyHostToDevice, 0) == cudaSuccess, "an async copy on the default stream");
    expect(cudaMemset(d, 7, bytes) == cudaSuccess, "cudaMemset");
    expect(cudaMemsetAsync(d, 7, bytes, cudaStreamPerThread) == cudaSuccess, "cudaMemsetAsync on the per-thread stream");
    expect(cudaFree(d) == cudaSuccess, "cudaFree");
    void *h = NULL;
    expect(cudaMallocHost(&h, 64) == cudaSuccess && h != NULL, "cudaMallocHost");
    expect(cudaFreeHost(h) == cudaSuccess, "cudaFreeHost");
}

// Symbols: copies both ways, the address and size the executor gives.
static void symbol_calls(unsigned n)
{
    float c[FAKE_SYMBOL_FLOATS];
    for (int i = 0; i < FAKE_SYMBOL_FLOATS; i++)
        c[i] = (float)(n + i);
    expect(cudaMemcpyToSymbol(fake_coefficients, c, sizeof(c), 0, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpyToSymbol");
    expect(cudaMemcpyToSymbolAsync(fake_coefficients, c, sizeof(c), 0, cudaMemcpyDefault, 0) == cudaSuccess, "cudaMemcpyToSymbolAsync");
    expect(cudaMemcpyToSymbol(fake_coefficients, c, sizeof(c), 0, cudaMemcpyDeviceToDevice) == cudaErrorInvalidMemcpyDirection,
           "a device-to-symbol copy refused");
    expect(cudaMemcpyToSymbol(fake_coefficients, c, (size_t)1 << 31, 0, cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "a symbol copy over the wire's limit");
    memset(c, 0, sizeof(c));
    expect(cudaMemcpyFromSymbol(c, fake_coefficients, sizeof(c), 0, cudaMemcpyDeviceToHost) == cudaSuccess &&
               c[FAKE_SYMBOL_FLOATS - 1] == (float)(n + FAKE_SYMBOL_FLOATS - 1),
           "cudaMemcpyFromSymbol's values");
    expect(cudaMemcpyFromSymbolAsync(c, fake_coefficients, sizeof(c), 0, cudaMemcpyDefault, 0) == cudaSuccess,
           "cudaMemcpyFromSymbolAsync");
    expect(cudaMemcpyFromSymbol(c, fake_coefficients, sizeof(c), 0, cudaMemcpyHostToDevice) == cudaErrorInvalidMemcpyDirection,
           "a symbol-to-device copy refused");
    void *address = NULL;
    size_t size = 0;
    expect(cudaGetSymbolAddress(&address, fake_coefficients) == cudaSuccess && (uintptr_t)address == FAKE_SYMBOL_ADDRESS,
           "cudaGetSymbolAddress");
    expect(cudaGetSymbolSize(&size, fake_coefficients) == cudaSuccess && size == sizeof(fake_coefficients), "cudaGetSymbolSize");
}

// Launches: the three entry points, the pushed configuration, the arguments packed by the sizes the executor gave.
static void launch_calls(float *d_in, float *d_out, unsigned n)
{
    void *args[] = {&d_in, &d_out, &n};
    dim3 grid(n, 2, 3), block(FAKE_BLOCK, 1, 1);
    expect(cudaLaunchKernel((const void *)fake_kernel_stub, grid, block, args, 0, 0) == cudaSuccess, "cudaLaunchKernel");
    expect(__cudaPushCallConfiguration(grid, block, 0, NULL) == 0, "pushing a <<<...>>> configuration");
    dim3 g, b;
    size_t shared = 1;
    cudaStream_t stream = NULL;
    expect(__cudaPopCallConfiguration(&g, &b, &shared, &stream) == cudaSuccess && g.x == n && b.x == FAKE_BLOCK && shared == 0,
           "popping the configuration pushed");
    expect(__cudaPopCallConfiguration(&g, &b, &shared, &stream) == cudaErrorInvalidConfiguration, "popping with none pushed");
    cudaKernel_t kernel;
    expect(__cudaGetKernel(&kernel, (const void *)fake_kernel_stub) == cudaSuccess, "__cudaGetKernel");
    expect(__cudaLaunchKernel(kernel, g, b, args, shared, stream) == cudaSuccess, "__cudaLaunchKernel");
    expect(cudaLaunchKernel((const void *)launch_calls, grid, block, args, 0, 0) == cudaErrorInvalidDeviceFunction,
           "a launch of what is not a kernel");
    expect(cudaGetLastError() == cudaSuccess, "cudaGetLastError");
    expect(cudaPeekAtLastError() == cudaErrorLaunchFailure, "cudaPeekAtLastError: the executor's sticky error");
    expect(cudaDeviceSynchronize() == cudaSuccess && cudaThreadSynchronize() == cudaSuccess, "synchronising");
    expect(cudaStreamSynchronize(0) == cudaSuccess && cudaStreamQuery(cudaStreamLegacy) == cudaSuccess, "the default stream");
}

// The device and the kernel's attributes, as the executor answers them.
static void device_calls(unsigned n)
{
    int count = 0, device = -1, value = 0;
    expect(cudaGetDeviceCount(&count) == cudaSuccess && count == 1, "one device");
    expect(cudaGetDevice(&device) == cudaSuccess && device == 0, "device 0");
    expect(cudaSetDevice(0) == cudaSuccess, "cudaSetDevice(0)");
    expect(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 0) == cudaSuccess && value == fake_attribute(cudaDevAttrWarpSize),
           "cudaDeviceGetAttribute");
    expect(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1) == cudaErrorInvalidDevice, "another device's attribute");
    cudaDeviceProp prop;
    expect(cudaGetDeviceProperties(&prop, 0) == cudaSuccess && strcmp(prop.name, FAKE_DEVICE_NAME) == 0 &&
               prop.multiProcessorCount == fake_attribute(cudaDevAttrMultiProcessorCount) &&
               prop.totalConstMem == (size_t)fake_attribute(cudaDevAttrTotalConstantMemory),
           "cudaGetDeviceProperties");
    expect(cudaGetDeviceProperties(&prop, 2) == cudaErrorInvalidDevice, "another device's properties");
    cudaFuncAttributes attr;
    expect(cudaFuncGetAttributes(&attr, (const void *)fake_kernel_stub) == cudaSuccess && attr.numRegs == (int)(n % 200) &&
               attr.sharedSizeBytes == (size_t)n * 4,
           "cudaFuncGetAttributes");
    expect(cudaFuncSetAttribute((const void *)fake_kernel_stub, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536) ==
               cudaSuccess,
           "cudaFuncSetAttribute");
    int blocks = 0;
    expect(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)fake_kernel_stub, FAKE_BLOCK, 0) == cudaSuccess &&
               blocks == FAKE_OCCUPANCY,
           "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    expect(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1) == cudaSuccess, "cudaDeviceSetCacheConfig");
    expect(cudaFuncSetCacheConfig((const void *)fake_kernel_stub, cudaFuncCachePreferShared) == cudaSuccess, "cudaFuncSetCacheConfig");
    expect(cudaDriverGetVersion(&value) == cudaSuccess && value == CUDART_VERSION, "cudaDriverGetVersion");
    expect(cudaRuntimeGetVersion(&value) == cudaSuccess && value == CUDART_VERSION, "cudaRuntimeGetVersion");
    expect(strcmp(cudaGetErrorName(cudaErrorNotPermitted), "cudaErrorNotPermitted") == 0, "an error's name");
    expect(strstr(cudaGetErrorString(cudaErrorNotPermitted), "does not allow") != NULL, "an error's text");
    expect(strcmp(cudaGetErrorName((cudaError_t)9999), "cudaErrorOther") == 0, "an unknown error's name");
    expect(strstr(cudaGetErrorString((cudaError_t)9999), "see its number") != NULL, "an unknown error's text");
}

// Every refused call: each answers cudaErrorNotPermitted and tells the executor which kind it was.
static void refused_calls(float *d_in)
{
    cudaStream_t s = (cudaStream_t)0x1;
    cudaEvent_t e = NULL;
    float ms = 1;
    void *p = NULL;
    const cudaError_t no = cudaErrorNotPermitted;
    expect(cudaStreamCreate(&s) == no && s == NULL, "cudaStreamCreate");
    expect(cudaStreamCreateWithFlags(&s, 0) == no && cudaStreamCreateWithPriority(&s, 0, 0) == no, "streams with flags");
    expect(cudaStreamDestroy((cudaStream_t)0x10) == no, "cudaStreamDestroy");
    expect(cudaEventCreate(&e) == no && cudaEventCreateWithFlags(&e, 0) == no, "cudaEventCreate");
    expect(cudaEventRecord(e, 0) == no && cudaEventSynchronize(e) == no && cudaEventQuery(e) == no, "events");
    expect(cudaEventElapsedTime(&ms, e, e) == no && ms == 0 && cudaEventDestroy(e) == no, "event times");
    expect(cudaStreamWaitEvent(0, e, 0) == no && cudaStreamWaitEvent((cudaStream_t)0x10, e, 0) == no, "waiting on an event");
    expect(cudaMemcpyAsync(d_in, d_in, 4, cudaMemcpyDeviceToDevice, (cudaStream_t)0x10) == no, "a copy on another stream");
    expect(cudaMemsetAsync(d_in, 0, 4, (cudaStream_t)0x10) == no, "a memset on another stream");
    expect(cudaMemcpyToSymbolAsync(fake_coefficients, &ms, 4, 0, cudaMemcpyHostToDevice, (cudaStream_t)0x10) == no &&
               cudaMemcpyFromSymbolAsync(&ms, fake_coefficients, 4, 0, cudaMemcpyDeviceToHost, (cudaStream_t)0x10) == no,
           "symbol copies on another stream");
    expect(cudaStreamSynchronize((cudaStream_t)0x10) == no, "another stream's synchronisation");
    expect(cudaMallocManaged(&p, 64, 1) == no && p == NULL && cudaHostAlloc(&p, 64, 0) == no, "managed and mapped memory");
    expect(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == no, "a graph's capture");
    expect(cudaSetDevice(1) == no && cudaDeviceReset() == no && cudaDeviceSetLimit(cudaLimitStackSize, 1) == no,
           "another device, a reset, a limit");
    void *args[] = {&d_in};
    expect(cudaLaunchCooperativeKernel((const void *)fake_kernel_stub, dim3(1), dim3(1), args, 0, 0) == no,
           "a cooperative launch");
}

void launch_stencil(float *d_in, float *d_out, unsigned int N)
{
    if (N == 0) {
#ifdef STENCIL_COVERAGE
        __gcov_dump();  // WIRE_EXIT ends this program with _exit: its counts are written now
#endif
        return;
    }
    memory_calls(d_in, N);
    symbol_calls(N);
    launch_calls(d_in, d_out, N);
    device_calls(N);
    refused_calls(d_in);
    cudaMemset(d_out, failures, 0);  // the report: how many checks failed
}
