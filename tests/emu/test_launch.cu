// tests/emu/test_launch.cu — launches under CPU emulation: CUDA's
// configuration checks, the dynamic shared memory limit and its attribute,
// template kernels and multi-line launches, host pointers passed to kernels,
// parameters copied per thread, and the launch records the runner reports.
#include "emu_test.h"
#include "launch_log.h"

#include <algorithm>
#include <vector>

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Marks that it ran.
__global__ void mark_ran(int *ran)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *ran = 1;
}

// Fills the whole dynamic shared memory (bytes of it), then sums it back.
__global__ void fill_dynamic(unsigned int bytes, unsigned long long *sum)
{
    extern __shared__ unsigned char dyn[];
    for (unsigned int b = threadIdx.x; b < bytes; b += blockDim.x)
        dyn[b] = (unsigned char)(b * 7u);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long s = 0;
        for (unsigned int b = 0; b < bytes; b++)
            s += dyn[b];
        *sum = s;
    }
}

// Multiplies n elements by FACTOR * k.
template <typename T, int FACTOR>
__global__ void scale(T *data, int n, T k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= FACTOR * k;
}

// Adds one to n elements (launched without template arguments: deduced).
template <typename T>
__global__ void add_one(T *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

namespace ops {
// Writes ones into n elements.
__global__ void write_ones(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = 1.0f;
}
} // namespace ops

// Each thread changes its own copies of the parameters: no other thread may see it.
__global__ void change_parameters(int *p, int n)
{
    p += threadIdx.x;
    *p = n;
    n = -1;
    (void)n;
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// Configurations CUDA refuses: the launch error is cudaErrorInvalidConfiguration,
// cudaGetLastError returns it once, and the kernel does not run.
static void test_invalid_configuration(void **state)
{
    (void)state;
    struct {
        dim3 grid, block;
    } bad[] = {{dim3(1), dim3(2048)},           {dim3(1), dim3(32, 33)},  {dim3(1), dim3(1, 1, 65)},
               {dim3(0), dim3(32)},             {dim3(1, 65536), dim3(32)}, {dim3(1), dim3(1025)},
               {dim3(4), dim3(16, 0, 1)}};
    int *d_ran, ran = 0;
    check_cuda(cudaMalloc(&d_ran, sizeof(int)), "cudaMalloc");
    check_cuda(cudaMemset(d_ran, 0, sizeof(int)), "cudaMemset");
    for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
        mark_ran<<<bad[c].grid, bad[c].block>>>(d_ran);
        cudaError_t err = cudaGetLastError();
        if (err != cudaErrorInvalidConfiguration)
            fail_msg("grid (%u,%u,%u) block (%u,%u,%u): %s", bad[c].grid.x, bad[c].grid.y, bad[c].grid.z,
                     bad[c].block.x, bad[c].block.y, bad[c].block.z, cudaGetErrorName(err));
        assert_string_equal(cudaGetErrorString(err), "invalid configuration argument");
        assert_int_equal(cudaGetLastError(), cudaSuccess);  // cleared: not sticky
        check_cuda(cudaDeviceSynchronize(), "synchronize after a refused launch");
    }
    check_cuda(cudaMemcpy(&ran, d_ran, sizeof(int), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(ran, 0);
    mark_ran<<<dim3(1, 65535), dim3(1024)>>>(d_ran);  // the limits themselves are fine
    check_cuda(cudaGetLastError(), "launch at the limits");
    check_cuda(cudaMemcpy(&ran, d_ran, sizeof(int), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(ran, 1);
    cudaFree(d_ran);
}

// More than 48 KiB of dynamic shared memory needs the attribute (as on a GPU,
// the launch error is cudaErrorInvalidValue); with it, all of it is usable.
static void test_dynamic_shared_limit(void **state)
{
    (void)state;
    unsigned int bytes = 48 * 1024 + 16 * (unsigned int)test_random_int(1, 1024);
    unsigned long long *d_sum, sum = 0, expected = 0;
    for (unsigned int b = 0; b < bytes; b++)
        expected += (unsigned char)(b * 7u);
    check_cuda(cudaMalloc(&d_sum, sizeof(*d_sum)), "cudaMalloc");
    check_cuda(cudaMemset(d_sum, 0, sizeof(*d_sum)), "cudaMemset");
    fill_dynamic<<<1, 256, bytes>>>(bytes, d_sum);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    check_cuda(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(sum, 0);
    assert_int_equal(cudaFuncSetAttribute(fill_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024),
                     cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaFuncSetAttribute(fill_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes),
               "cudaFuncSetAttribute");
    fill_dynamic<<<2, 256, bytes>>>(bytes, d_sum);
    check_cuda(cudaGetLastError(), "launch with the attribute");
    check_cuda(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(sum, expected);
    cudaFree(d_sum);
}

// Template kernels, explicit and deduced, a namespace-qualified kernel, a
// launch spread over lines with a stream and every argument.
static void test_template_and_multiline_launches(void **state)
{
    (void)state;
    int n = test_random_int(100, 5000);
    float *h = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float)), *d;
    int *h_int = (int *)malloc(n * sizeof(int)), *d_int;
    float k = test_random_float(0.5f, 2.0f);
    cudaStream_t stream;
    test_fill_floats(h, n);
    for (int i = 0; i < n; i++)
        h_int[i] = test_random_int(-50, 50);
    check_cuda(cudaStreamCreate(&stream), "cudaStreamCreate");
    check_cuda(cudaMalloc(&d, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_int, n * sizeof(int)), "cudaMalloc");
    check_cuda(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    check_cuda(cudaMemcpy(d_int, h_int, n * sizeof(int), cudaMemcpyHostToDevice), "upload");
    scale<float, 3><<<
        (n + 127) / 128,
        128, 0,
        stream>>>(d,
                  n, /* a comment with <<<1, 1>>> in it */
                  k);
    add_one<<<(n + 255) / 256, 256>>>(d_int, n);
    check_cuda(cudaGetLastError(), "launches");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    check_cuda(cudaMemcpy(h_out, d, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        if (h_out[i] != h[i] * (3 * k))
            fail_msg("scale<float, 3>: out[%d] = %g, expected %g", i, h_out[i], h[i] * (3 * k));
    check_cuda(cudaMemcpy(h_out, d_int, n * sizeof(int), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        assert_int_equal(((int *)h_out)[i], h_int[i] + 1);
    ops::write_ones<<<dim3((n + 63) / 64), dim3(64)>>>(d, n);
    check_cuda(cudaMemcpy(h_out, d, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        assert_true(h_out[i] == 1.0f);
    cudaStreamDestroy(stream);
    cudaFree(d);
    cudaFree(d_int);
    free(h);
    free(h_out);
    free(h_int);
}

// A host pointer (or a freed device pointer) passed to a kernel: the kernel
// does not run, and the next synchronisation reports an illegal address that
// names the argument; the error is sticky until cudaDeviceReset.
static void test_host_pointer_argument(void **state)
{
    (void)state;
    int n = test_random_int(10, 100);
    float *h = (float *)calloc(n, sizeof(float)), *d, *freed;
    ops::write_ones<<<1, 128>>>(h, n);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    cudaError_t err = cudaDeviceSynchronize();
    assert_int_equal(err, cudaErrorIllegalAddress);
    check_contains(cudaGetErrorString(err), "argument 1 of ops::write_ones", "a host pointer",
                   "kernels can only use device memory from cudaMalloc", NULL);
    for (int i = 0; i < n; i++)
        assert_true(h[i] == 0.0f);
    assert_int_equal(cudaMalloc(&d, 64), cudaErrorIllegalAddress);  // sticky: every call fails
    check_cuda(cudaDeviceReset(), "cudaDeviceReset");
    check_cuda(cudaMalloc(&freed, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaFree(freed), "cudaFree");
    ops::write_ones<<<1, 128>>>(freed, n);
    err = cudaDeviceSynchronize();
    assert_int_equal(err, cudaErrorIllegalAddress);
    check_contains(cudaGetErrorString(err), "already freed by cudaFree", NULL);
    check_cuda(cudaDeviceReset(), "cudaDeviceReset");
    ops::write_ones<<<1, 32>>>(NULL, 0);  // a null pointer is a valid argument
    check_cuda(cudaDeviceSynchronize(), "a launch with a null pointer");
    free(h);
}

// Bytes of a T, as a variable template (its closing > meets the launch's >>>).
template <class T>
constexpr size_t bytes_of = sizeof(T);

// A launch inside a macro.
#define LAUNCH_ONES(p, n) ops::write_ones<<<((n) + 63) / 64, 64>>>(p, n)

// The translator's corner cases: <<< in strings, raw strings and comments is
// left alone; launches in macros, through a function pointer, with shifts and
// template arguments in the configuration, with a template closing just
// before the >>>, and with a comment before the arguments all run; so do
// launches of a kernel picked by an index, a call or a conditional.
static void test_translator_corner_cases(void **state)
{
    (void)state;
    const char *text = "k<<<1, 1>>>(x)";
    const char *raw = R"tag(k<<<a, b>>>(")")tag";
    const char expected[] = {'k', '<', '<', '<', '1', ',', ' ', '1', '>', '>', '>', '(', 'x', ')', 0};
    assert_string_equal(text, expected);
    assert_string_equal(raw, "k<<<a, b>>>(\")\"");
    int n = test_random_int(1, 4000);
    float *d, *h = (float *)malloc(n * sizeof(float));
    unsigned long long *d_sum, sum = 0;
    check_cuda(cudaMalloc(&d, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_sum, sizeof(sum)), "cudaMalloc");
    LAUNCH_ONES(d, n);
    check_cuda(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        assert_true(h[i] == 1.0f);
    void (*pointer)(float *, int, float) = scale<float, 2>;
    pointer<<<(n + 255) >> 8, std::min<int>(256, n) >= 256 ? 256 : 256>>>(d, n, 1.5f);
    check_cuda(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        assert_true(h[i] == 3.0f);
    // The kernel as an index, a call's result or a parenthesised expression.
    void (*table[2])(float *, int, float) = {scale<float, 1>, scale<float, 2>};
    int which = (int)(test_random_bits() % 2);
    table[which]<<<(n + 255) / 256, 256>>>(d, n, 1.0f);  // *1 or *2
    (which ? scale<float, 1> : scale<float, 2>)<<<(n + 255) / 256, 256>>>(d, n, 1.0f);  // the other one
    std::max(table[0], table[0])<<<(n + 255) / 256, 256>>>(d, n, 1.0f);  // *1
    check_cuda(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int i = 0; i < n; i++)
        assert_true(h[i] == 6.0f);
    fill_dynamic<<<1, 32, bytes_of<float4>>>> /* the arguments follow */ (16u, d_sum);
    check_cuda(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost), "download");
    unsigned long long expected_sum = 0;
    for (unsigned int b = 0; b < 16; b++)
        expected_sum += (unsigned char)(b * 7u);
    assert_int_equal(sum, expected_sum);
    cudaFree(d);
    cudaFree(d_sum);
    free(h);
}

// Each CUDA thread gets its own copy of the kernel's parameters.
static void test_parameters_copied_per_thread(void **state)
{
    (void)state;
    int threads = test_random_int(2, 1024), value = test_random_int(1, 1 << 30), *d, *h;
    h = (int *)malloc(threads * sizeof(int));
    check_cuda(cudaMalloc(&d, threads * sizeof(int)), "cudaMalloc");
    change_parameters<<<1, threads>>>(d, value);
    check_cuda(cudaMemcpy(h, d, threads * sizeof(int), cudaMemcpyDeviceToHost), "download");
    for (int t = 0; t < threads; t++)
        assert_int_equal(h[t], value);
    cudaFree(d);
    free(h);
}

// The launch log records each launch with the kernel's symbol, its
// configuration and its shared memory.
static void test_launch_records(void **state)
{
    (void)state;
    char why[128] = "";
    unsigned int bytes = 16 * (unsigned int)test_random_int(1, 64);
    unsigned long long *d_sum;
    float *d;
    check_cuda(cudaMalloc(&d_sum, sizeof(*d_sum)), "cudaMalloc");
    check_cuda(cudaMalloc(&d, 1000 * sizeof(float)), "cudaMalloc");
    assert_int_equal(launch_log_begin(why, sizeof(why)), 0);
    fill_dynamic<<<3, 64, bytes>>>(bytes, d_sum);
    scale<float, 2><<<dim3(8, 1, 1), dim3(128, 1, 1)>>>(d, 1000, 1.0f);
    assert_int_equal(launch_log_end(), 2);
    const launch_record *a = launch_log_record(0), *b = launch_log_record(1);
    assert_non_null(a);
    assert_non_null(b);
    assert_null(launch_log_record(2));
    check_contains(a->kernel, "fill_dynamic", NULL);
    assert_int_equal(a->grid[0], 3);
    assert_int_equal(a->block[0], 64);
    assert_int_equal(a->dynamic_smem, bytes);
    assert_int_equal(a->regs, -1);
    check_contains(b->kernel, "scale", NULL);
    assert_int_equal(b->grid[0], 8);
    assert_int_equal(b->block[0], 128);
    assert_int_equal(b->static_smem, 0);
    cudaFree(d_sum);
    cudaFree(d);
}

// A bracket counts the bytes its calls copied from device memory to device
// memory (launch_log_device_copies): cudaMemcpy and cudaMemcpyAsync of kind
// device-to-device or default between two allocations, and nothing else (a
// copy from or to the host, a failed copy, a copy before the bracket).
static void test_launch_device_copies(void **state)
{
    (void)state;
    char why[128];
    size_t n = (size_t)test_random_int(64, 4096), k = (size_t)test_random_int(1, (int)n);
    float *a, *b, *h = (float *)malloc(n * sizeof(float));
    test_fill_floats(h, n);
    check_cuda(cudaMalloc(&a, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&b, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    check_cuda(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice), "cudaMemcpy");  // before the bracket
    assert_int_equal(launch_log_begin(why, sizeof(why)), 0);
    check_cuda(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check_cuda(cudaMemcpyAsync(a, b, k * sizeof(float), cudaMemcpyDefault, 0), "cudaMemcpyAsync");
    check_cuda(cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    check_cuda(cudaMemcpy(a, h, k * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    assert_int_not_equal(cudaMemcpy(a, b, (n + 1) * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);  // past the end: refused
    cudaGetLastError();
    assert_int_equal(launch_log_end(), 0);
    assert_true(launch_log_device_copies() == (double)((n + k) * sizeof(float)));
    assert_int_equal(launch_log_begin(why, sizeof(why)), 0);  // a new bracket starts from none
    assert_int_equal(launch_log_end(), 0);
    assert_true(launch_log_device_copies() == 0.0);
    cudaFree(a);
    cudaFree(b);
    free(h);
}

// The occupancy API answers as a GPU of the nominal device does: the grid
// that fills its 132 multiprocessors with the suggested block (a grid-stride
// loop sized by it is as large as on the GPU), and agrees with the
// blocks-per-multiprocessor query.
static void test_occupancy_suggestion(void **state)
{
    (void)state;
    int min_grid = 0, block = 0, per_sm = 0;
    cudaDeviceProp prop;
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    check_cuda(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, ops::write_ones), "cudaOccupancyMaxPotentialBlockSize");
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ops::write_ones, block, 0), "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    assert_int_equal(block, 1024);
    assert_int_equal(min_grid, prop.multiProcessorCount * per_sm);
    int limit = 32 + (int)(test_random_bits() % 200);  // a block limit: the grid grows to fill the device
    check_cuda(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, ops::write_ones, 0, limit), "cudaOccupancyMaxPotentialBlockSize");
    assert_int_equal(block, limit);
    assert_true((long)min_grid * block >= 2048L * prop.multiProcessorCount / 2);
}


// Error names and strings are CUDA's; cudaPeekAtLastError does not clear.
static void test_error_names(void **state)
{
    (void)state;
    assert_string_equal(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
    assert_string_equal(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    assert_string_equal(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
    assert_string_equal(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    assert_string_equal(cudaGetErrorString(cudaSuccess), "no error");
    assert_int_equal(cudaErrorInvalidConfiguration, 9);
    assert_int_equal(cudaErrorLaunchFailure, 719);
    mark_ran<<<1, 4096>>>(nullptr);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidConfiguration);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

// cudaLaunchKernel runs the kernel as <<<...>>> does, whether it is given
// the kernel itself or (as CUDA's own examples write it) the kernel cast to a
// void pointer; a pointer of unknown type is refused with its reason, and so
// is a cooperative launch. The calls a GPU program may make around a launch
// (carveout names, the device's cache preference, a stream's priority,
// occupancy with flags) compile and answer.
static void test_launch_kernel_call(void **state)
{
    (void)state;
    int n = 100 + (int)(test_random_bits() % 900);
    float k = 1.0f + (float)(test_random_bits() % 7);
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (float)(test_random_bits() % 1000) / 10.0f + 0.5f;
    float *d = nullptr;
    check_cuda(cudaMalloc((void **)&d, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    void *args[] = {&d, &n, &k};
    dim3 grid((n + 127) / 128), block(128);
    check_cuda(cudaFuncSetAttribute(scale<float, 2>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared), "cudaFuncSetAttribute");
    check_cuda(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), "cudaDeviceSetCacheConfig");
    check_cuda(cudaLaunchKernel(scale<float, 2>, grid, block, args, 0, 0), "cudaLaunchKernel");
    check_cuda(cudaLaunchKernel((const void *)scale<float, 2>, grid, block, args), "cudaLaunchKernel (const void *)");
    check_cuda(cudaLaunchKernel(reinterpret_cast<void *>(scale<float, 2>), grid, block, args, 0, 0),
               "cudaLaunchKernel (reinterpret_cast)");
#define LAUNCH_SCALE(g, b, a) cudaLaunchKernel((const void *)scale<float, 2>, g, b, a, 0, 0)
    check_cuda(LAUNCH_SCALE(grid, block, args), "cudaLaunchKernel in a macro");
    check_cuda(cudaLaunchKernel<void(float *, int, float)>(scale<float, 2>, grid, block, args),
               "cudaLaunchKernel with the kernel's type given");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::vector<float> got(n);
    check_cuda(cudaMemcpy(got.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    float f = 2 * k;
    for (int i = 0; i < n; i++)
        assert_true(got[i] == h[i] * f * f * f * f * f);
    const void *hidden = (const void *)scale<float, 2>;
    assert_int_equal(cudaLaunchKernel(hidden, grid, block, args, 0, 0), cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaLaunchCooperativeKernel((const void *)scale<float, 2>, grid, block, args, 0, 0),
                     cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
    check_cuda(cudaStreamSynchronize(cudaStreamPerThread), "cudaStreamSynchronize(cudaStreamPerThread)");
    check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize(cudaStreamLegacy)");
    assert_int_equal(cudaStreamDestroy(cudaStreamPerThread), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    cudaStream_t s;
    check_cuda(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1), "cudaStreamCreateWithPriority");
    check_cuda(cudaStreamDestroy(s), "cudaStreamDestroy");
    int per_sm = 0, per_sm_flags = -1;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ops::write_ones, 256, 0), "occupancy");
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm_flags, ops::write_ones, 256, 0, 0),
               "occupancy with flags");
    assert_int_equal(per_sm_flags, per_sm);
    int min_grid = 0, block_size = 0;
    check_cuda(cudaOccupancyMaxPotentialBlockSizeWithFlags(&min_grid, &block_size, ops::write_ones, 0, 256, 0),
               "cudaOccupancyMaxPotentialBlockSizeWithFlags");
    assert_int_equal(block_size, 256);
    int blocks_per_sm = 0, regs_per_sm = 0, reserved = -1;
    check_cuda(cudaDeviceGetAttribute(&blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, 0), "MaxBlocksPerMultiprocessor");
    check_cuda(cudaDeviceGetAttribute(&regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor, 0), "MaxRegistersPerMultiprocessor");
    check_cuda(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0), "ReservedSharedMemoryPerBlock");
    assert_true(blocks_per_sm > 0 && regs_per_sm >= 65536 && reserved >= 0);
    cudaFuncAttributes fa;
    check_cuda(cudaFuncGetAttributes(&fa, ops::write_ones), "cudaFuncGetAttributes");
    assert_true(fa.numRegs > 0 && regs_per_sm / (fa.numRegs * 32) > 0);  // a hand-made occupancy sum divides by it
    cudaFree(d);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_invalid_configuration, test_reset_device),
        cmocka_unit_test_setup(test_dynamic_shared_limit, test_reset_device),
        cmocka_unit_test_setup(test_template_and_multiline_launches, test_reset_device),
        cmocka_unit_test_setup(test_host_pointer_argument, test_reset_device),
        cmocka_unit_test_setup(test_translator_corner_cases, test_reset_device),
        cmocka_unit_test_setup(test_parameters_copied_per_thread, test_reset_device),
        cmocka_unit_test_setup(test_launch_records, test_reset_device),
        cmocka_unit_test_setup(test_launch_device_copies, test_reset_device),
        cmocka_unit_test_setup(test_error_names, test_reset_device),
        cmocka_unit_test_setup(test_occupancy_suggestion, test_reset_device),
        cmocka_unit_test_setup(test_launch_kernel_call, test_reset_device),
    };
    test_seed("launch");
    return cmocka_run_group_tests_name("launch", tests, NULL, NULL);
}
