// tests/gpu/cupti_loads_probe.cu — can the executor count a kernel's loads
// itself, in its own process, with CUPTI's range profiler, instead of a
// second process under Nsight Compute? Runs two kernels whose loads are known
// (one reading global memory twice a thread, one reading a shared tile three
// times a thread), first plain (what ncu profiles when
// tests/device_cupti.sh runs this program under it: --plain), then each under
// the range profiler (one range a launch, kernel replay), and prints for each
// kernel the bytes the metrics count, the bytes the kernel's code loads, and
// how long each profiling step took. The metric names are the judge's
// (JUDGE_NCU_GLOBAL_LOADS, JUDGE_NCU_SHARED_LOADS); where the profiler has no
// such name, the same metric of the whole SM (sm__ for smsp__) is tried.
// Exits 77 without a GPU, 1 when a count differs from the known bytes.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#define PROBE_BLOCK 256  // threads a block of both kernels

// out[i] = in[i] + in[i + 1]: two 4-byte global loads a thread (i < n - 1).
__global__ void probe_global_reads(const float *in, float *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n)
        out[i] = in[i] + in[i + 1];
}

// One global load a thread into a tile, then three 4-byte shared loads a thread.
__global__ void probe_shared_reads(const float *in, float *out, unsigned n)
{
    __shared__ float tile[PROBE_BLOCK];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t] + tile[(t + 1) % PROBE_BLOCK] + tile[(t + 2) % PROBE_BLOCK];
}

static double probe_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Ends the program with the failed call's name and CUPTI's text when r is not a success.
static void probe_check(CUptiResult r, const char *what)
{
    if (r == CUPTI_SUCCESS)
        return;
    const char *text = NULL;
    cuptiGetResultString(r, &text);
    printf("cupti probe: %s failed: %s\n", what, text ? text : "?");
    exit(2);
}

// A range profiler for metric names on the current context, ready to start.
typedef struct probe_profiler {
    CUpti_Profiler_Host_Object *host;        // the host side: configuration and evaluation
    CUpti_RangeProfiler_Object *ranges;      // the target side on the context
    std::vector<uint8_t> config, counters;   // the configuration image, the counter data image
    const char *metrics[2];                  // the metric names counted
} probe_profiler;

// Sets p up for metrics on ctx; 0, or -1 when the profiler knows no such metric.
static int probe_profiler_setup(probe_profiler *p, CUcontext ctx, const char *const metrics[2])
{
    p->metrics[0] = metrics[0], p->metrics[1] = metrics[1];
    CUpti_Device_GetChipName_Params chip = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    probe_check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    CUpti_Profiler_GetCounterAvailability_Params avail = {CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = ctx;
    probe_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability (size)");
    std::vector<uint8_t> image(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = image.data();
    probe_check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    CUpti_Profiler_Host_Initialize_Params host = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip.pChipName;
    host.pCounterAvailabilityImage = image.data();
    probe_check(cuptiProfilerHostInitialize(&host), "cuptiProfilerHostInitialize");
    p->host = host.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = p->host;
    add.ppMetricNames = p->metrics;
    add.numMetrics = 2;
    CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
    if (r != CUPTI_SUCCESS) {
        const char *text = NULL;
        cuptiGetResultString(r, &text);
        printf("  (%s, %s: %s)\n", metrics[0], metrics[1], text ? text : "?");
        CUpti_Profiler_Host_Deinitialize_Params done = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        done.pHostObject = p->host;
        cuptiProfilerHostDeinitialize(&done);
        return -1;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params size = {CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = p->host;
    probe_check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    p->config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params config = {CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    config.pHostObject = p->host;
    config.configImageSize = p->config.size();
    config.pConfigImage = p->config.data();
    probe_check(cuptiProfilerHostGetConfigImage(&config), "cuptiProfilerHostGetConfigImage");
    CUpti_Profiler_Host_GetNumOfPasses_Params passes = {CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = p->config.size();
    passes.pConfigImage = p->config.data();
    probe_check(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
    printf("  metrics %s, %s: %zu pass(es) a range (chip %s)\n", metrics[0], metrics[1], passes.numOfPasses, chip.pChipName);
    CUpti_RangeProfiler_Enable_Params enable = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    probe_check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    p->ranges = enable.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params data = {CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    data.pRangeProfilerObject = p->ranges;
    data.pMetricNames = p->metrics;
    data.numMetrics = 2;
    data.maxNumOfRanges = 4;
    data.maxNumRangeTreeNodes = 4;
    probe_check(cuptiRangeProfilerGetCounterDataSize(&data), "cuptiRangeProfilerGetCounterDataSize");
    p->counters.resize(data.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init = {CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = p->ranges;
    init.counterDataSize = p->counters.size();
    init.pCounterData = p->counters.data();
    probe_check(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    CUpti_RangeProfiler_SetConfig_Params set = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = p->ranges;
    set.configSize = p->config.size();
    set.pConfig = p->config.data();
    set.counterDataImageSize = p->counters.size();
    set.pCounterDataImage = p->counters.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_KernelReplay;
    set.maxRangesPerPass = 4;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    probe_check(cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
    return 0;
}

// Runs launch under p's profiler (every pass submitted), decodes, and puts
// the first range's two metric values into value.
template <typename Launch> static void probe_profile(probe_profiler *p, Launch launch, double value[2])
{
    CUpti_RangeProfiler_Start_Params start = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = p->ranges;
    CUpti_RangeProfiler_Stop_Params stop = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = p->ranges;
    do {  // kernel replay submits every pass within the launch: once, unless the profiler asks again
        probe_check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
        launch();
        cudaDeviceSynchronize();
        probe_check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
    } while (!stop.isAllPassSubmitted);
    CUpti_RangeProfiler_DecodeData_Params decode = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = p->ranges;
    probe_check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = p->counters.data();
    info.counterDataImageSize = p->counters.size();
    probe_check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = {CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject = p->host;
    eval.pCounterDataImage = p->counters.data();
    eval.counterDataImageSize = p->counters.size();
    eval.rangeIndex = info.numTotalRanges > 0 ? info.numTotalRanges - 1 : 0;  // the newest range: this launch's
    eval.ppMetricNames = p->metrics;
    eval.numMetrics = 2;
    eval.pMetricValues = value;
    probe_check(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues");
}

int main(int argc, char **argv)
{
    int plain = argc > 1 && !strcmp(argv[1], "--plain");
    unsigned n = 1u << 22;  // a multiple of PROBE_BLOCK
    float *in = NULL, *out = NULL;
    if (cudaMalloc((void **)&in, n * sizeof(float)) != cudaSuccess || cudaMalloc((void **)&out, n * sizeof(float)) != cudaSuccess) {
        printf("cupti probe: SKIPPED, no usable GPU\n");
        return 77;
    }
    cudaMemset(in, 0, n * sizeof(float));
    dim3 grid(n / PROBE_BLOCK), block(PROBE_BLOCK);
    auto global_reads = [&] { probe_global_reads<<<grid, block>>>(in, out, n); };
    auto shared_reads = [&] { probe_shared_reads<<<grid, block>>>(in, out, n); };
    if (plain) {  // under Nsight Compute: the same two launches, counted by it
        global_reads(), shared_reads();
        return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
    }
    CUcontext ctx = NULL;
    cuCtxGetCurrent(&ctx);
    double t0 = probe_now();
    CUpti_Profiler_Initialize_Params init = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    probe_check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    static const char *const names[2][2] = {{"smsp__sass_data_bytes_mem_global_op_ld.sum", "smsp__sass_data_bytes_mem_shared_op_ld.sum"},
                                            {"sm__sass_data_bytes_mem_global_op_ld.sum", "sm__sass_data_bytes_mem_shared_op_ld.sum"}};
    probe_profiler p;
    int set = -1;
    for (int k = 0; k < 2 && set < 0; k++)
        if (probe_profiler_setup(&p, ctx, names[k]) == 0)
            set = k;
    if (set < 0) {
        printf("cupti probe: the range profiler knows neither name of the load metrics\n");
        return 1;
    }
    double t1 = probe_now(), g[2], s[2];
    probe_profile(&p, global_reads, g);
    double t2 = probe_now();
    probe_profile(&p, shared_reads, s);
    double t3 = probe_now();
    double want_g = 8.0 * (n - 1), want_s_global = 4.0 * n, want_s_shared = 12.0 * n;
    printf("  global reads: global %.0f B (its code loads %.0f), shared %.0f B (0)\n", g[0], want_g, g[1]);
    printf("  shared reads: global %.0f B (its code loads %.0f), shared %.0f B (%.0f)\n", s[0], want_s_global, s[1], want_s_shared);
    printf("  seconds: set up %.3f, first launch profiled %.3f, second %.3f\n", t1 - t0, t2 - t1, t3 - t2);
    int right = g[0] == want_g && g[1] == 0 && s[0] == want_s_global && s[1] == want_s_shared;
    printf("cupti probe: %s\n", right ? "the counts are the kernels' own" : "a count differs from the kernels' own");
    return right ? 0 : 1;
}
