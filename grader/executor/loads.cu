// grader/executor/loads.cu — the technique's load counts taken by the
// executor itself (LOADS_OPTION): CUPTI's range profiler around the student's
// checked call, one range a launch (kernel replay), the judge's metrics
// (global loads, asynchronous global-to-shared copies, shared loads, in
// bytes) summed over the call's launches. CUPTI is opened at run time
// (dlopen), so an executor without it, or a toolkit before the range
// profiler (CUDA 12.6), still serves every other case; the count then says
// why it is missing and the judge counts the loads no other way.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <vector>

#include "executor.h"
#include "protocol.h"

#if __has_include(<cupti_range_profiler.h>)
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

// The CUPTI entry points used, looked up by name in the library.
typedef CUptiResult (*loads_entry)(void *params);
static const char *const loads_entry_names[] = {
    "cuptiProfilerInitialize",       "cuptiDeviceGetChipName",
    "cuptiProfilerHostInitialize",   "cuptiProfilerHostConfigAddMetrics", "cuptiProfilerHostGetConfigImageSize",
    "cuptiProfilerHostGetConfigImage", "cuptiRangeProfilerEnable",      "cuptiRangeProfilerGetCounterDataSize",
    "cuptiRangeProfilerCounterDataImageInitialize", "cuptiRangeProfilerSetConfig", "cuptiRangeProfilerStart",
    "cuptiRangeProfilerStop",        "cuptiRangeProfilerDecodeData",    "cuptiRangeProfilerGetCounterDataInfo",
    "cuptiProfilerHostEvaluateToGpuValues", "cuptiRangeProfilerDisable", "cuptiProfilerHostDeinitialize"};
enum {
    L_INIT, L_CHIP, L_HOST_INIT, L_ADD, L_CONFIG_SIZE, L_CONFIG, L_ENABLE, L_DATA_SIZE, L_DATA_INIT, L_SET,
    L_START, L_STOP, L_DECODE, L_INFO, L_EVAL, L_DISABLE, L_HOST_DONE, L_ENTRIES
};

// What a count keeps between its start and its end.
static struct {
    void *lib;                                 // libcupti, once opened
    loads_entry entry[L_ENTRIES];              // its entry points
    CUptiResult (*result_string)(CUptiResult, const char **); // cuptiGetResultString
    int initialized;                           // cuptiProfilerInitialize done
    CUpti_Profiler_Host_Object *host;          // the metrics' host side, during a count
    CUpti_RangeProfiler_Object *ranges;        // the range profiler on the context, during a count
    std::vector<uint8_t> config, counters;     // the configuration and counter data images
    const char *metrics[3];                    // the names counted
    int missing;                               // the last failure's kind (protocol.h's enum loads_missing_kind)
    int called;                                // 1 once a count has started: a failure is no longer the machine's
    int busy_seen;                             // 1 once this count's tries found the counters busy
} loads;

// How long a count's start waits for another process's profiler to let go of
// the GPU's counters (CUPTI_ERROR_HARDWARE_BUSY: a judge beside this one
// starting its own count, or Nsight Compute), trying again every
// LOADS_BUSY_RETRY_MS. On two H200s a class's counts met such a busy GPU
// about once in twelve, each time while another process was making its
// count's host side or starting ncu (about a second); held by a count, the
// counters are busy for as long as its call runs.
#define LOADS_BUSY_WAIT_S 5.0
#define LOADS_BUSY_RETRY_MS 50

// The judge's metrics (grader/judge/judge_case.h), then the same of the whole SM.
static const char *const loads_names[2][3] = {
    {"smsp__sass_data_bytes_mem_global_op_ld.sum", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum", "smsp__sass_data_bytes_mem_shared_op_ld.sum"},
    {"sm__sass_data_bytes_mem_global_op_ld.sum", "sm__sass_data_bytes_mem_global_op_ldgsts.sum", "sm__sass_data_bytes_mem_shared_op_ld.sum"}};

// 1 if CUPTI's error r says this machine cannot count at all (the
// counters need a permission, the device or its mode is not one the range
// profiler supports, the chip or the metrics unknown to this CUPTI).
static int loads_machine_cannot(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_NOT_SUPPORTED: case CUPTI_ERROR_NOT_COMPATIBLE: case CUPTI_ERROR_API_NOT_IMPLEMENTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED: case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED: case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED: case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED: case CUPTI_ERROR_INVALID_CHIP_NAME: case CUPTI_ERROR_INVALID_METRIC_NAME:
        return 1;
    default:
        return 0;
    }
}

// The kind of failure CUPTI's error r is (enum loads_missing_kind): the
// counters busy; the machine's (it cannot count) only for an error that
// says so (loads_machine_cannot) before the student's call and before any
// busy counters in this count's tries; else a fault (out of memory, say,
// with the student's module loaded: never a reason to leave the floors unchecked).
static int loads_kind_of(CUptiResult r)
{
    if (r == CUPTI_ERROR_HARDWARE_BUSY) {
        loads.busy_seen = 1;
        return LOADS_MISSING_BUSY;
    }
    return !loads.called && !loads.busy_seen && loads_machine_cannot(r) ? LOADS_MISSING_CANNOT : LOADS_MISSING_FAULT;
}

// Calls entry e with params; 0, or -1 with why naming the call and CUPTI's
// text (and the failure's kind in loads.missing).
static int loads_call(int e, void *params, char *why, size_t len)
{
    CUptiResult r = loads.entry[e](params);
    if (r == CUPTI_SUCCESS)
        return 0;
    loads.missing = loads_kind_of(r);
    const char *text = NULL;
    if (loads.result_string)
        loads.result_string(r, &text);
    snprintf(why, len, "%s failed: %s", loads_entry_names[e], text ? text : "an error CUPTI did not name");
    return -1;
}

// Opens libcupti and finds its entry points; 0, or -1 with why.
static int loads_open(char *why, size_t len)
{
    static const char *const names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
    for (size_t i = 0; !loads.lib && i < sizeof(names) / sizeof(names[0]); i++)
        loads.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    loads.missing = LOADS_MISSING_CANNOT;  // (until opened)
    if (!loads.lib) {
        snprintf(why, len, "CUPTI (libcupti, part of the CUDA Toolkit) could not be opened: %s", dlerror());
        return -1;
    }
    for (int e = 0; e < L_ENTRIES; e++)
        if (!(loads.entry[e] = (loads_entry)dlsym(loads.lib, loads_entry_names[e]))) {
            snprintf(why, len, "this CUPTI has no %s (the range profiler needs CUDA 12.6 or later)", loads_entry_names[e]);
            dlclose(loads.lib);  // not kept half found: the next count opens it again, and says the same
            loads.lib = NULL;
            return -1;
        }
    loads.result_string = (CUptiResult(*)(CUptiResult, const char **))dlsym(loads.lib, "cuptiGetResultString");
    loads.missing = LOADS_MISSING_NONE;
    return 0;
}

// One of CUPTI's images, asked its size and then filled: the call sizer with
// its parameters size answers it in size.*answer; image is made that large,
// zeroed, and the call filler with fill (its fill_size and fill_data set
// here) fills it. 0, or -1 with why.
template <typename Size, typename Fill>
static int loads_image(int sizer, Size &size, size_t Size::*answer, int filler, Fill &fill, size_t Fill::*fill_size,
                       uint8_t *Fill::*fill_data, std::vector<uint8_t> &image, char *why, size_t len)
{
    if (loads_call(sizer, &size, why, len))
        return -1;
    image.assign(size.*answer, 0);
    fill.*fill_size = image.size();
    fill.*fill_data = image.data();
    return loads_call(filler, &fill, why, len);
}

// The host side for the first of loads_names' metric sets the profiler
// knows, on chip: its configuration image in loads.config; 0, or -1 with why.
static int loads_host_config(const char *chip, char *why, size_t len)
{
    for (int set = 0; set < 2; set++) {
        CUpti_Profiler_Host_Initialize_Params host = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
        host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        host.pChipName = chip;
        host.pCounterAvailabilityImage = NULL;  // (loads_configure says why)
        if (loads_call(L_HOST_INIT, &host, why, len))
            return -1;
        loads.host = host.pHostObject;
        memcpy(loads.metrics, loads_names[set], sizeof(loads.metrics));
        CUpti_Profiler_Host_ConfigAddMetrics_Params add = {CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject = loads.host;
        add.ppMetricNames = loads.metrics;
        add.numMetrics = 3;
        if (loads_call(L_ADD, &add, why, len) == 0)
            break;
        CUpti_Profiler_Host_Deinitialize_Params done = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        done.pHostObject = loads.host;
        loads.entry[L_HOST_DONE](&done);
        loads.host = NULL;
    }
    if (!loads.host)
        return -1;  // (why: the profiler knows neither name of the metrics)
    typedef CUpti_Profiler_Host_GetConfigImageSize_Params Size;
    typedef CUpti_Profiler_Host_GetConfigImage_Params Image;
    Size size = {CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    Image config = {CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    size.pHostObject = config.pHostObject = loads.host;
    return loads_image(L_CONFIG_SIZE, size, &Size::configImageSize, L_CONFIG, config, &Image::configImageSize, &Image::pConfigImage,
                       loads.config, why, len);
}

// The host side for the first of loads_names' metric sets the profiler
// knows (loads_host_config), for the chip the GPU is: host work only, the
// GPU's counters untouched. (CUPTI's counter availability image, read from
// the counters, is not asked: under a class's judges side by side that read
// met another process's count, HARDWARE_BUSY for 19 of 31 counting
// executors on an H200, and on two H200s each of the 3 counts of 35 that
// could not start, HARDWARE_BUSY, began while another process was making
// its host side. Without the image CUPTI configures for the chip it names;
// tests/device_cupti.sh holds such counts to the kernels' own.) 0, or -1 with why.
static int loads_configure(char *why, size_t len)
{
    CUpti_Device_GetChipName_Params chip = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    int device = 0;
    cudaGetDevice(&device);
    chip.deviceIndex = (size_t)device;
    if (loads_call(L_CHIP, &chip, why, len))
        return -1;
    return loads_host_config(chip.pChipName, why, len);
}

// The range profiler on ctx, configured, its counter data image ready; 0, or -1 with why.
static int loads_enable(CUcontext ctx, char *why, size_t len)
{
    CUpti_RangeProfiler_Enable_Params enable = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    if (loads_call(L_ENABLE, &enable, why, len))
        return -1;
    loads.ranges = enable.pRangeProfilerObject;
    typedef CUpti_RangeProfiler_GetCounterDataSize_Params Size;
    typedef CUpti_RangeProfiler_CounterDataImage_Initialize_Params Image;
    Size data = {CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    Image init = {CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    data.pRangeProfilerObject = init.pRangeProfilerObject = loads.ranges;
    data.pMetricNames = loads.metrics;
    data.numMetrics = 3;
    data.maxNumOfRanges = LOADS_MAX_RANGES;
    data.maxNumRangeTreeNodes = LOADS_MAX_RANGES;
    if (loads_image(L_DATA_SIZE, data, &Size::counterDataSize, L_DATA_INIT, init, &Image::counterDataSize, &Image::pCounterData,
                    loads.counters, why, len))
        return -1;
    CUpti_RangeProfiler_SetConfig_Params set = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = loads.ranges;
    set.configSize = loads.config.size();
    set.pConfig = loads.config.data();
    set.counterDataImageSize = loads.counters.size();
    set.pCounterDataImage = loads.counters.data();
    set.range = CUPTI_AutoRange;        // a range a launch
    set.replayMode = CUPTI_KernelReplay; // every pass within the launch, the device's memory restored between
    set.maxRangesPerPass = LOADS_MAX_RANGES;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.targetNestingLevel = 1;
    return loads_call(L_SET, &set, why, len);
}

// Ends a count's range profiler on the context, if enabled (its host side kept).
static void loads_disable(void)
{
    if (loads.ranges) {
        CUpti_RangeProfiler_Disable_Params disable = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        disable.pRangeProfilerObject = loads.ranges;
        loads.entry[L_DISABLE](&disable);
        loads.ranges = NULL;
    }
}

// Ends a count's profiler and host side, whatever was set up.
static void loads_close(void)
{
    loads_disable();
    if (loads.host) {
        CUpti_Profiler_Host_Deinitialize_Params done = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        done.pHostObject = loads.host;
        loads.entry[L_HOST_DONE](&done);
        loads.host = NULL;
    }
}

// The context the count is taken in; NULL with why when there is none.
static CUcontext loads_context(char *why, size_t len)
{
    CUcontext ctx = NULL;
    if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) {
        snprintf(why, len, "no CUDA context to count the loads in");
        loads.missing = LOADS_MISSING_FAULT;  // (the executor made one: its own fault)
    }
    return ctx;
}

int exec_loads_prepare(char *why, size_t len)
{
    if (loads.host)
        return 0;  // prepared, not yet counted with
    CUcontext ctx = loads_context(why, len);
    if (!ctx || (!loads.lib && loads_open(why, len) != 0))
        return -1;
    CUpti_Profiler_Initialize_Params init = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (!loads.initialized && loads_call(L_INIT, &init, why, len))
        return -1;
    loads.initialized = 1;
    if (loads_configure(why, len) != 0) {
        loads_close();
        return -1;
    }
    return 0;
}

int exec_loads_arm(char *why, size_t len)
{
    if (loads.ranges)
        return 0;  // armed, not yet counted with
    CUcontext ctx = loads_context(why, len);
    if (!ctx || exec_loads_prepare(why, len) != 0)
        return -1;
    if (loads_enable(ctx, why, len) != 0) {
        loads_close();
        return -1;
    }
    return 0;
}

int exec_loads_missing_kind(void)
{
    return loads.missing;
}

int exec_loads_begin(char *why, size_t len)
{
    loads.called = loads.busy_seen = 0;
    for (double until = exec_clock() + LOADS_BUSY_WAIT_S;;) {  // (the counters busy: again, for a while)
        loads.missing = LOADS_MISSING_NONE;
        if (exec_loads_arm(why, len) == 0) {
            CUpti_RangeProfiler_Start_Params start = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
            start.pRangeProfilerObject = loads.ranges;
            if (loads_call(L_START, &start, why, len) == 0) {
                loads.called = 1;  // (from here a failure is the count's, not the machine's)
                return 0;
            }
            loads_disable();  // (the host side kept for the next try)
        }
        if (loads.missing != LOADS_MISSING_BUSY || exec_clock() >= until) {
            loads_close();
            return -1;
        }
        struct timespec pause = {0, LOADS_BUSY_RETRY_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
}

int exec_loads_end(double bytes[3], long launches, char *why, size_t len)
{
    CUpti_RangeProfiler_Stop_Params stop = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    CUpti_RangeProfiler_DecodeData_Params decode = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    int status = -1;
    bytes[0] = bytes[1] = bytes[2] = 0;
    cudaDeviceSynchronize();
    stop.pRangeProfilerObject = decode.pRangeProfilerObject = loads.ranges;
    info.pCounterDataImage = loads.counters.data();
    info.counterDataImageSize = loads.counters.size();
    if (loads_call(L_STOP, &stop, why, len) || loads_call(L_DECODE, &decode, why, len) || loads_call(L_INFO, &info, why, len))
        goto out;
    // Every launch of the call its own range, or no count: a profiler full after its last range
    // drops the later launches without a word (seen with one range and four launches).
    if (!stop.isAllPassSubmitted || decode.numOfRangeDropped || info.numTotalRanges != (size_t)launches) {
        loads.missing = launches > LOADS_MAX_RANGES ? LOADS_MISSING_LAUNCHES : LOADS_MISSING_FAULT;
        snprintf(why, len, "the profiler counted %zu of the call's %ld launches (it holds %d; %zu dropped)", info.numTotalRanges,
                 launches, LOADS_MAX_RANGES, decode.numOfRangeDropped);
        goto out;
    }
    for (size_t r = 0; r < info.numTotalRanges; r++) {
        double value[3] = {0, 0, 0};
        CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = {CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        eval.pHostObject = loads.host;
        eval.pCounterDataImage = loads.counters.data();
        eval.counterDataImageSize = loads.counters.size();
        eval.rangeIndex = r;
        eval.ppMetricNames = loads.metrics;
        eval.numMetrics = 3;
        eval.pMetricValues = value;
        if (loads_call(L_EVAL, &eval, why, len))
            goto out;
        for (int m = 0; m < 3; m++)
            bytes[m] += value[m];
    }
    status = 0;
out:
    loads_close();
    return status;
}

#else  // a CUDA Toolkit before CUPTI's range profiler (12.6)

int exec_loads_missing_kind(void)
{
    return LOADS_MISSING_CANNOT;
}

int exec_loads_prepare(char *why, size_t len)
{
    snprintf(why, len, "this CUDA Toolkit has no CUPTI range profiler (it came with CUDA 12.6)");
    return -1;
}

int exec_loads_arm(char *why, size_t len)
{
    return exec_loads_prepare(why, len);
}

int exec_loads_begin(char *why, size_t len)
{
    return exec_loads_prepare(why, len);
}

int exec_loads_end(double bytes[3], long launches, char *why, size_t len)
{
    (void)launches;
    bytes[0] = bytes[1] = bytes[2] = 0;
    snprintf(why, len, "this CUDA Toolkit has no CUPTI range profiler (it came with CUDA 12.6)");
    return -1;
}

#endif
