// tests/emu/test_memory.cu — memory under CPU emulation: constant memory and
// __device__ variables through the symbol API, atomics from many threads,
// copies and their checks, device properties and every attribute, host
// memory kernels may use (managed, mapped) and what a pointer is, events and
// streams, block orders, an execution error every later call returns, and a
// large allocation's pages.
#include "emu_test.h"
#include "protocol.h"

// ---------------------------------------------------------------------------
// Device variables and kernels
// ---------------------------------------------------------------------------

__constant__ float weights[5];   // a 5-point filter
__constant__ float gain;         // applied after it
__device__ int hits;             // counted by atomics
__device__ float table[64];      // a device array reached through its symbol address

// out[i] = gain * sum_k weights[k] * in[i + k] for i < n.
__global__ void filter5(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 5; k++)
        sum = fmaf(weights[k], in[i + k], sum);
    out[i] = gain * sum;
}

// Histogram of in into bins (float sums and int counts), plus extremes.
__global__ void histogram(const float *in, int n, float *sums, int *counts, int *extremes, int bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int bin = (int)((in[i] + 1.0f) * 0.5f * bins);
    bin = min(max(bin, 0), bins - 1);
    atomicAdd(&sums[bin], in[i]);
    atomicAdd(&counts[bin], 1);
    int scaled = (int)(in[i] * 1000000.0f);
    atomicMax(&extremes[0], scaled);
    atomicMin(&extremes[1], scaled);
    atomicAdd(&hits, 1);
}

// A counter incremented through atomicCAS, and the last writer by atomicExch.
__global__ void cas_increment(unsigned int *counter, int *last)
{
    unsigned int old = *counter, seen;
    do {
        seen = old;
        old = atomicCAS(counter, seen, seen + 1);
    } while (old != seen);
    atomicExch(last, (int)(blockIdx.x * blockDim.x + threadIdx.x));
}

// Doubles the device array table through a pointer the host obtained.
__global__ void double_table(float *t)
{
    t[threadIdx.x] *= 2.0f;
}

// Every block adds its index to count[block] and records the order blocks ran in.
__global__ void record_block_order(int *count, int *order, int *next)
{
    if (threadIdx.x != 0)
        return;
    count[blockIdx.x] += 1;
    order[atomicAdd(next, 1)] = (int)blockIdx.x;
}

// Adds 1 to each of the n floats at p (device, managed or mapped host memory).
__global__ void add_one(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}

// Stops the launch with an execution error (CUDA's __trap()).
__global__ void trapping(void)
{
    __trap();
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// __constant__ variables set by cudaMemcpyToSymbol (with an offset too) are
// what kernels read; cudaMemcpyFromSymbol reads them back; oversize copies fail.
static void test_constant_memory(void **state)
{
    (void)state;
    int n = test_random_int(50, 3000);
    float h_w[5], h_gain = test_random_float(0.5f, 2.0f), back[5], w2 = test_random_float(-1.0f, 1.0f);
    float *h_in = (float *)malloc((n + 4) * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    float *d_in, *d_out;
    test_fill_floats(h_w, 5);
    test_fill_floats(h_in, n + 4);
    check_cuda(cudaMemcpyToSymbol(weights, h_w, sizeof(h_w)), "cudaMemcpyToSymbol(weights)");
    check_cuda(cudaMemcpyToSymbol(gain, &h_gain, sizeof(float)), "cudaMemcpyToSymbol(gain)");
    h_w[2] = w2;
    check_cuda(cudaMemcpyToSymbol(weights, &w2, sizeof(float), 2 * sizeof(float)), "offset copy");
    check_cuda(cudaMemcpyFromSymbol(back, weights, sizeof(back)), "cudaMemcpyFromSymbol");
    assert_memory_equal(back, h_w, sizeof(back));
    assert_int_equal(cudaMemcpyToSymbol(weights, h_w, 6 * sizeof(float)), cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaMalloc(&d_in, (n + 4) * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, (n + 4) * sizeof(float), cudaMemcpyHostToDevice), "upload");
    filter5<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int k = 0; k < 5; k++)
            sum = fmaf(h_w[k], h_in[i + k], sum);
        if (h_out[i] != h_gain * sum)
            fail_msg("out[%d] = %.9g, expected %.9g", i, h_out[i], h_gain * sum);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
}

// Atomics from many threads of many blocks: int results exact, float sums
// within rounding of a double-precision sum.
static void test_atomics(void **state)
{
    (void)state;
    int n = test_random_int(20000, 120000), bins = 16, zero = 0;
    float *h_in = (float *)malloc(n * sizeof(float)), h_sums[16], *d_in, *d_sums;
    int h_counts[16], h_ext[2] = {INT_MIN, INT_MAX}, h_hits = 0, *d_counts, *d_ext, last = -1, *d_last;
    unsigned int counter = 0, *d_counter;
    double expected_sum[16] = {0}, sum_abs[16] = {0};
    int expected_count[16] = {0}, expected_max = INT_MIN, expected_min = INT_MAX;
    test_fill_floats(h_in, n);
    for (int i = 0; i < n; i++) {
        int bin = (int)((h_in[i] + 1.0f) * 0.5f * bins);
        bin = bin < 0 ? 0 : (bin > bins - 1 ? bins - 1 : bin);
        expected_sum[bin] += h_in[i];
        sum_abs[bin] += fabs(h_in[i]);
        expected_count[bin]++;
        int scaled = (int)(h_in[i] * 1000000.0f);
        expected_max = scaled > expected_max ? scaled : expected_max;
        expected_min = scaled < expected_min ? scaled : expected_min;
    }
    check_cuda(cudaMemcpyToSymbol(hits, &zero, sizeof(int)), "reset hits");
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_sums, sizeof(h_sums)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_counts, sizeof(h_counts)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_ext, sizeof(h_ext)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    check_cuda(cudaMemset(d_sums, 0, sizeof(h_sums)), "cudaMemset");
    check_cuda(cudaMemset(d_counts, 0, sizeof(h_counts)), "cudaMemset");
    check_cuda(cudaMemcpy(d_ext, h_ext, sizeof(h_ext), cudaMemcpyHostToDevice), "upload");
    histogram<<<(n + 255) / 256, 256>>>(d_in, n, d_sums, d_counts, d_ext, bins);
    check_cuda(cudaMemcpy(h_sums, d_sums, sizeof(h_sums), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpy(h_counts, d_counts, sizeof(h_counts), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpy(h_ext, d_ext, sizeof(h_ext), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpyFromSymbol(&h_hits, hits, sizeof(int)), "read hits");
    for (int b = 0; b < bins; b++) {
        assert_int_equal(h_counts[b], expected_count[b]);
        // float rounding of a sum of count terms in any order: at most count * 2^-24 * sum |x|
        if (fabs(h_sums[b] - expected_sum[b]) > expected_count[b] * 5.97e-8 * sum_abs[b] + 1e-6)
            fail_msg("bin %d: float atomicAdd sum %.9g, expected %.9g", b, h_sums[b], expected_sum[b]);
    }
    assert_int_equal(h_ext[0], expected_max);
    assert_int_equal(h_ext[1], expected_min);
    assert_int_equal(h_hits, n);
    int blocks = test_random_int(1, 40);
    check_cuda(cudaMalloc(&d_counter, sizeof(counter)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_last, sizeof(last)), "cudaMalloc");
    check_cuda(cudaMemset(d_counter, 0, sizeof(counter)), "cudaMemset");
    cas_increment<<<blocks, 96>>>(d_counter, d_last);
    check_cuda(cudaMemcpy(&counter, d_counter, sizeof(counter), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpy(&last, d_last, sizeof(last), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(counter, blocks * 96);
    assert_int_equal(last, blocks * 96 - 1);  // forward order: the last thread writes last
    cudaFree(d_in);
    cudaFree(d_sums);
    cudaFree(d_counts);
    cudaFree(d_ext);
    cudaFree(d_counter);
    cudaFree(d_last);
    free(h_in);
}

// A __device__ array's address, taken with cudaGetSymbolAddress, may be
// passed to a kernel.
static void test_symbol_address(void **state)
{
    (void)state;
    float h[64], back[64];
    void *d_table = NULL;
    test_fill_floats(h, 64);
    check_cuda(cudaMemcpyToSymbol(table, h, sizeof(h)), "cudaMemcpyToSymbol(table)");
    check_cuda(cudaGetSymbolAddress(&d_table, table), "cudaGetSymbolAddress");
    double_table<<<1, 64>>>((float *)d_table);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    check_cuda(cudaMemcpyFromSymbol(back, table, sizeof(back)), "cudaMemcpyFromSymbol(table)");
    for (int i = 0; i < 64; i++)
        assert_true(back[i] == 2.0f * h[i]);
}

// Copies in every direction; copies and frees CUDA would refuse are refused.
static void test_copies_and_their_checks(void **state)
{
    (void)state;
    size_t n = (size_t)test_random_int(1, 100000), before, after, total;
    float *h = (float *)malloc(n * sizeof(float)), *back = (float *)malloc(n * sizeof(float)), *d1, *d2;
    test_fill_floats(h, n);
    check_cuda(cudaMemGetInfo(&before, &total), "cudaMemGetInfo");
    check_cuda(cudaMalloc(&d1, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d2, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemGetInfo(&after, &total), "cudaMemGetInfo");
    assert_true(after + 2 * n * sizeof(float) <= before && before <= total);
    check_cuda(cudaMemcpy(d1, h, n * sizeof(float), cudaMemcpyHostToDevice), "H2D");
    check_cuda(cudaMemcpy(d2, d1, n * sizeof(float), cudaMemcpyDeviceToDevice), "D2D");
    check_cuda(cudaMemcpyAsync(back, d2, n * sizeof(float), cudaMemcpyDefault), "D2H (default kind)");
    assert_memory_equal(back, h, n * sizeof(float));
    check_cuda(cudaMemset(d2, 0xff, n * sizeof(float)), "cudaMemset");
    check_cuda(cudaMemcpy(back, d2, n * sizeof(float), cudaMemcpyDeviceToHost), "D2H");
    for (size_t i = 0; i < n; i++)
        assert_true(isnan(back[i]));
    assert_int_equal(cudaMemcpy(d1, h, (n + 1) * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(h, d1, n * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(back, h, n * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    assert_int_equal(cudaMemset(d1 + 1, 0, n * sizeof(float)), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(d1 + 1), cudaErrorInvalidValue);
    assert_int_equal(cudaMalloc(&d1, total + 1), cudaErrorMemoryAllocation);
    assert_int_equal(cudaGetLastError(), cudaErrorMemoryAllocation);
    free(h);
    free(back);
}

// The kit's grids refuse host copies while the student's function runs, as
// on a GPU (and name the call); device copies, the program's own buffers and
// the kit's own copies outside the function are untouched.
static void test_kit_grids_refuse_host_copies(void **state)
{
    (void)state;
    size_t n = (size_t)test_random_int(1, 50000);
    float *h = (float *)malloc(n * sizeof(float)), *kit, *own;
    test_fill_floats(h, n);
    check_cuda(cudaMalloc(&kit, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&own, n * sizeof(float)), "cudaMalloc");
    emu_kit_allocation(kit);
    check_cuda(cudaMemcpy(kit, h, n * sizeof(float), cudaMemcpyHostToDevice), "the kit's own upload");
    emu_kit_copies(1);
    assert_string_equal(emu_refusal(), "");
    check_cuda(cudaMemcpy(own, kit, n * sizeof(float), cudaMemcpyDeviceToDevice), "D2D from the kit's grid");
    check_cuda(cudaMemcpy(h, own, n * sizeof(float), cudaMemcpyDeviceToHost), "D2H of the program's own buffer");
    assert_int_equal(cudaMemcpy(h, kit + n / 2, sizeof(float), cudaMemcpyDeviceToHost), cudaErrorNotPermitted);
    assert_string_equal(emu_refusal(), PROTOCOL_REFUSE_KIT_TO_HOST);
    assert_int_equal(cudaMemcpy(kit, h, n * sizeof(float), cudaMemcpyDefault), cudaErrorNotPermitted);
    assert_string_equal(emu_refusal(), PROTOCOL_REFUSE_KIT_TO_HOST);  // the first refusal is the one named
    emu_kit_copies(0);
    check_cuda(cudaMemcpy(h, kit, n * sizeof(float), cudaMemcpyDeviceToHost), "the kit's own save");
    cudaFree(kit);
    cudaFree(own);
    free(h);
}

// The device describes itself plausibly; only device 0 exists.
static void test_device_properties(void **state)
{
    (void)state;
    cudaDeviceProp prop;
    int count = 0, driver = 0, runtime = 0, sms = 0;
    check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    assert_int_equal(count, 1);
    check_cuda(cudaSetDevice(0), "cudaSetDevice");
    check_cuda(cudaFree(0), "cudaFree(0)");
    assert_int_equal(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaGetLastError();
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    assert_string_equal(prop.name, "CPU emulation");
    assert_int_equal(prop.warpSize, 32);
    assert_int_equal(prop.maxThreadsPerBlock, 1024);
    assert_int_equal(prop.maxThreadsDim[2], 64);
    assert_int_equal(prop.maxGridSize[1], 65535);
    assert_int_equal(prop.sharedMemPerBlock, 48 * 1024);
    assert_true(prop.l2CacheSize > 0 && prop.totalGlobalMem > ((size_t)1 << 30) && prop.multiProcessorCount >= 1);
    check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    assert_int_equal(sms, prop.multiProcessorCount);
    check_cuda(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check_cuda(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    assert_true(driver >= 12000 && runtime >= 12000);
}

// Every attribute cudaDeviceGetAttribute answers is the matching field of
// cudaGetDeviceProperties (asked in a random order); an attribute it does not
// know, another device and no place to write are refused.
static void test_device_attributes(void **state)
{
    (void)state;
    cudaDeviceProp p;
    check_cuda(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    struct {
        enum cudaDeviceAttr attr;  // asked
        long long want;            // the property's value
    } table[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock}, {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]},
        {cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1]}, {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0]}, {cudaDevAttrMaxGridDimY, p.maxGridSize[1]},
        {cudaDevAttrMaxGridDimZ, p.maxGridSize[2]}, {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem}, {cudaDevAttrWarpSize, p.warpSize},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock}, {cudaDevAttrClockRate, p.clockRate},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount}, {cudaDevAttrMemoryClockRate, p.memoryClockRate},
        {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth}, {cudaDevAttrL2CacheSize, p.l2CacheSize},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
        {cudaDevAttrComputeCapabilityMajor, p.major}, {cudaDevAttrComputeCapabilityMinor, p.minor},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin},
        {cudaDevAttrMaxPitch, (long long)p.memPitch}, {cudaDevAttrTextureAlignment, (long long)p.textureAlignment},
        {cudaDevAttrIntegrated, p.integrated}, {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
        {cudaDevAttrConcurrentKernels, p.concurrentKernels}, {cudaDevAttrEccEnabled, p.ECCEnabled},
        {cudaDevAttrPciBusId, p.pciBusID}, {cudaDevAttrPciDeviceId, p.pciDeviceID},
        {cudaDevAttrAsyncEngineCount, p.asyncEngineCount}, {cudaDevAttrUnifiedAddressing, p.unifiedAddressing},
        {cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported},
        {cudaDevAttrGlobalL1CacheSupported, p.globalL1CacheSupported},
        {cudaDevAttrLocalL1CacheSupported, p.localL1CacheSupported},
        {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
        {cudaDevAttrManagedMemory, p.managedMemory}, {cudaDevAttrIsMultiGpuBoard, p.isMultiGpuBoard},
        {cudaDevAttrSingleToDoublePrecisionPerfRatio, 2}, {cudaDevAttrPageableMemoryAccess, p.pageableMemoryAccess},
        {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
        {cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize},
        {cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize},
        {cudaDevAttrReservedSharedMemoryPerBlock, (long long)p.reservedSharedMemPerBlock},
        {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported},
    };
    const int n = (int)(sizeof(table) / sizeof(table[0]));
    for (int i = n - 1; i > 0; i--) {  // a random order: no answer may depend on the one before
        int j = test_random_int(0, i);
        auto swap = table[i];
        table[i] = table[j];
        table[j] = swap;
    }
    for (int i = 0; i < n; i++) {
        int value = -12345;
        check_cuda(cudaDeviceGetAttribute(&value, table[i].attr, 0), "cudaDeviceGetAttribute");
        if (value != table[i].want)
            fail_msg("attribute %d is %d, its property %lld", (int)table[i].attr, value, table[i].want);
    }
    int value = 0, device = -1;
    assert_int_equal(cudaDeviceGetAttribute(&value, (enum cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    assert_int_equal(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    assert_int_equal(device, 0);
    check_cuda(cudaDeviceSetLimit(cudaLimitStackSize, 4096), "cudaDeviceSetLimit");
}

// Managed and mapped host memory: kernels read and write it, the host sees
// the result at once; cudaPointerGetAttributes tells each kind of pointer
// apart; cudaFreeHost frees only what cudaMallocHost or cudaHostAlloc gave.
static void test_host_memory(void **state)
{
    (void)state;
    int n = test_random_int(1, 3000);
    float *managed, *pinned, *mapped, *device, h[3000];
    test_fill_floats(h, (size_t)n);
    check_cuda(cudaMallocManaged((void **)&managed, n * sizeof(float), cudaMemAttachGlobal), "cudaMallocManaged");
    check_cuda(cudaMallocHost((void **)&pinned, n * sizeof(float)), "cudaMallocHost");
    check_cuda(cudaHostAlloc((void **)&mapped, n * sizeof(float), 0), "cudaHostAlloc");
    check_cuda(cudaMalloc(&device, n * sizeof(float)), "cudaMalloc");
    float *const kinds[] = {managed, pinned, mapped};
    for (int k = 0; k < 3; k++) {
        memcpy(kinds[k], h, n * sizeof(float));
        add_one<<<(n + 127) / 128, 128>>>(kinds[k], n);
        check_cuda(cudaDeviceSynchronize(), "a kernel on host memory");
        for (int i = 0; i < n; i++)
            assert_true(kinds[k][i] == h[i] + 1.0f);
    }
    struct {
        const void *pointer;           // asked about
        enum cudaMemoryType type;      // what it is
    } expected[] = {{managed, cudaMemoryTypeManaged}, {pinned, cudaMemoryTypeHost}, {mapped, cudaMemoryTypeHost},
                    {device, cudaMemoryTypeDevice}, {h, cudaMemoryTypeUnregistered}};
    for (size_t e = 0; e < sizeof(expected) / sizeof(expected[0]); e++) {
        struct cudaPointerAttributes attr;
        check_cuda(cudaPointerGetAttributes(&attr, expected[e].pointer), "cudaPointerGetAttributes");
        assert_int_equal(attr.type, expected[e].type);
        assert_ptr_equal(attr.type == cudaMemoryTypeUnregistered ? attr.hostPointer : attr.devicePointer,
                         expected[e].pointer);
    }
    assert_int_equal(cudaMallocHost(NULL, 64), cudaErrorInvalidValue);
    assert_int_equal(cudaFreeHost(device), cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaFreeHost(NULL), "cudaFreeHost(NULL)");
    check_cuda(cudaFreeHost(pinned), "cudaFreeHost");
    check_cuda(cudaFreeHost(mapped), "cudaFreeHost");
    check_cuda(cudaFree(managed), "cudaFree of managed memory");
    cudaFree(device);
}

// An execution error (a __trap()) is returned by every later call, whatever
// it asks, until cudaDeviceReset; after it the same calls work again.
static void test_error_is_sticky(void **state)
{
    (void)state;
    float *d = NULL, *managed = NULL;
    int value = 0;
    size_t free_bytes = 0;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
    check_cuda(cudaEventRecord(start, 0), "cudaEventRecord");
    check_cuda(cudaEventRecord(stop, 0), "cudaEventRecord");
    check_cuda(cudaMalloc(&d, 64 * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMallocManaged((void **)&managed, 64 * sizeof(float), cudaMemAttachGlobal), "cudaMallocManaged");
    trapping<<<1, test_random_int(1, 64)>>>();
    const cudaError_t sticky = cudaErrorLaunchFailure;
    expect_execution_error(sticky);
    cudaDeviceProp prop;
    cudaFuncAttributes attr;
    struct cudaPointerAttributes where;
    float ms = 0.0f;
    float *more = NULL;
    void *symbol = NULL;
    const cudaError_t answers[] = {
        cudaSetDevice(0), cudaGetDeviceProperties(&prop, 0), cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 0),
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaEventCreateWithFlags(&start, cudaEventDefault),
        cudaEventRecord(stop, 0), cudaEventElapsedTime(&ms, start, stop), cudaEventQuery(stop), cudaStreamQuery(0),
        cudaStreamWaitEvent(0, stop, 0), cudaDeviceSetLimit(cudaLimitStackSize, 4096),
        cudaFuncGetAttributes(&attr, add_one), cudaFuncSetAttribute(add_one, cudaFuncAttributeMaxDynamicSharedMemorySize, 0),
        cudaMalloc(&more, 64), cudaMallocManaged((void **)&more, 64, cudaMemAttachGlobal), cudaFreeHost(managed),
        cudaPointerGetAttributes(&where, d), cudaGetSymbolAddress(&symbol, hits), cudaMemGetInfo(&free_bytes, NULL),
        cudaMemset(d, 0, 64), cudaMemsetAsync(d, 0, 64, 0),
    };
    for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
        if (answers[i] != sticky)
            fail_msg("call %zu after the error returned %s, not %s", i, cudaGetErrorName(answers[i]), cudaGetErrorName(sticky));
    add_one<<<1, 32>>>(d, 64);
    assert_int_equal(cudaGetLastError(), sticky);
    check_cuda(cudaDeviceReset(), "cudaDeviceReset");
    check_cuda(cudaMalloc(&d, 64 * sizeof(float)), "cudaMalloc after the reset");
    check_cuda(cudaMemsetAsync(d, 0, 64 * sizeof(float), 0), "cudaMemsetAsync after the reset");
    check_cuda(cudaStreamQuery(0), "cudaStreamQuery after the reset");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate after the reset");
    check_cuda(cudaEventRecord(stop, 0), "cudaEventRecord after the reset");
    check_cuda(cudaStreamWaitEvent(0, stop, 0), "cudaStreamWaitEvent after the reset");
    check_cuda(cudaEventQuery(stop), "cudaEventQuery after the reset");
    cudaEventDestroy(stop);
    cudaFree(d);
}

// Events time host work in milliseconds; streams run work in call order.
static void test_events_and_streams(void **state)
{
    (void)state;
    cudaEvent_t start, stop;
    cudaStream_t stream;
    float ms = -1.0f, *d, h[256], back[256];
    test_fill_floats(h, 256);
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    check_cuda(cudaMalloc(&d, sizeof(h)), "cudaMalloc");
    check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
    check_cuda(cudaMemcpyAsync(d, h, sizeof(h), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    double_table<<<1, 256, 0, stream>>>(d);
    check_cuda(cudaMemcpyAsync(back, d, sizeof(h), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    assert_true(ms >= 0.0f);
    for (int i = 0; i < 256; i++)
        assert_true(back[i] == 2.0f * h[i]);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
}

// Blocks run in increasing order by default; STENCIL_EMU_BLOCK_ORDER (here
// emu_set_block_order) reverses or shuffles them, each block still once.
static void test_block_orders(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int blocks = test_random_int(3, 300), *d_count, *d_order, *d_next, count[300], order[300];
    check_cuda(cudaMalloc(&d_count, sizeof(count)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_order, sizeof(order)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_next, sizeof(int)), "cudaMalloc");
    for (int o = 0; o < 3; o++) {
        check_cuda(cudaMemset(d_count, 0, sizeof(count)), "cudaMemset");
        check_cuda(cudaMemset(d_next, 0, sizeof(int)), "cudaMemset");
        emu_set_block_order(orders[o], 11);
        record_block_order<<<blocks, 32>>>(d_count, d_order, d_next);
        check_cuda(cudaMemcpy(count, d_count, blocks * sizeof(int), cudaMemcpyDeviceToHost), "download");
        check_cuda(cudaMemcpy(order, d_order, blocks * sizeof(int), cudaMemcpyDeviceToHost), "download");
        int in_order = 1;
        for (int b = 0; b < blocks; b++) {
            assert_int_equal(count[b], 1);
            in_order &= order[b] == (o == 1 ? blocks - 1 - b : b);
        }
        assert_int_equal(in_order, o != 2);
    }
    emu_set_block_order("forward", 1);
    cudaFree(d_count);
    cudaFree(d_order);
    cudaFree(d_next);
}

// A device allocation of 64 MiB keeps what is copied in, and where the
// kernel lends transparent huge pages (not "[never]") its pages may be
// huge ones (the arena asks: grid_memory.h), which /proc/self/smaps says of
// the mapping that holds it (THPeligible: 1).
static void test_large_allocation_huge_pages(void **state)
{
    (void)state;
    size_t n = (size_t)16 << 20;
    float *d = NULL, *h = (float *)malloc(n * sizeof(float)), *back = (float *)malloc(n * sizeof(float));
    assert_non_null(h);
    assert_non_null(back);
    for (size_t i = 0; i < n; i++)
        h[i] = (float)(test_random_bits() >> 40);
    check_cuda(cudaMalloc((void **)&d, n * sizeof(float)), "cudaMalloc 64 MiB");
    check_cuda(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice), "copy in");
    check_cuda(cudaMemcpy(back, d, n * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
    assert_memory_equal(h, back, n * sizeof(float));
    char mode[128] = "", line[512];
    FILE *m = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (m && !fgets(mode, sizeof(mode), m))
        mode[0] = '\0';
    if (m)
        fclose(m);
    int eligible = -1, here = 0;
    uintptr_t at = (uintptr_t)(d + n / 2);
    FILE *maps = fopen("/proc/self/smaps", "r");
    while (maps && eligible < 0 && fgets(line, sizeof(line), maps)) {
        unsigned long lo = 0, hi = 0;
        char dash = 0;
        if (sscanf(line, "%lx%c%lx ", &lo, &dash, &hi) == 3 && dash == '-')
            here = at >= lo && at < hi;
        else if (here && !strncmp(line, "THPeligible:", 12))
            eligible = atoi(line + 12);
    }
    if (maps)
        fclose(maps);
    if (mode[0] && !strstr(mode, "[never]"))
        assert_int_equal(eligible, 1);
    else
        print_message("  (this kernel lends no transparent huge pages)\n");
    cudaFree(d);
    free(h);
    free(back);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_constant_memory, test_reset_device),
        cmocka_unit_test_setup(test_atomics, test_reset_device),
        cmocka_unit_test_setup(test_symbol_address, test_reset_device),
        cmocka_unit_test_setup(test_copies_and_their_checks, test_reset_device),
        cmocka_unit_test_setup(test_kit_grids_refuse_host_copies, test_reset_device),
        cmocka_unit_test_setup(test_device_properties, test_reset_device),
        cmocka_unit_test_setup(test_device_attributes, test_reset_device),
        cmocka_unit_test_setup(test_host_memory, test_reset_device),
        cmocka_unit_test_setup(test_error_is_sticky, test_reset_device),
        cmocka_unit_test_setup(test_events_and_streams, test_reset_device),
        cmocka_unit_test_setup(test_block_orders, test_reset_device),
        cmocka_unit_test_setup(test_large_allocation_huge_pages, test_reset_device),
    };
    test_seed("memory");
    return cmocka_run_group_tests_name("memory", tests, NULL, NULL);
}
