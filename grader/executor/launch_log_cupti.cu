// grader/executor/launch_log_cupti.cu — the GPU implementation of launch_log.h.
//
// Subscribes to CUPTI's driver-API callbacks: every kernel launch, whatever
// runtime call or launch syntax made it, reaches the driver as one of the
// cuLaunchKernel* calls, with its function, grid, block and dynamic shared
// memory. (The runtime's own launch calls differ between CUDA 12 and 13; the
// driver's do not.) The kernels' registers and static shared memory are read
// after the bracket ends, through the driver library the runtime has already
// loaded: the runner itself does not link it, so that on a machine without a
// driver it still starts and says so (exit 77) instead of failing to load.
#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "launch_log.h"

static CUpti_SubscriberHandle log_subscriber;    // our CUPTI subscription
static int log_subscribed;                       // 1 once subscribed
static int log_recording;                        // 1 between begin and end
static long log_count;                           // launches seen in the bracket
static launch_record log_records[LAUNCH_LOG_MAX];
static CUfunction log_functions[LAUNCH_LOG_MAX]; // the launched function, per record

// Appends one launch; called from the CUPTI callback on API entry.
static void log_append(CUfunction f, const char *name, const unsigned int grid[3],
                       const unsigned int block[3], size_t dynamic_smem)
{
    if (log_count < LAUNCH_LOG_MAX) {
        launch_record *r = &log_records[log_count];
        memset(r, 0, sizeof(*r));
        snprintf(r->kernel, sizeof(r->kernel), "%s", name ? name : "?");
        memcpy(r->grid, grid, sizeof(r->grid));
        memcpy(r->block, block, sizeof(r->block));
        r->dynamic_smem = dynamic_smem;
        r->regs = -1;
        log_functions[log_count] = f;
    }
    log_count++;
}

// CUPTI callback: picks the launch calls out of the driver API stream.
static void CUPTIAPI log_on_driver_call(void *user, CUpti_CallbackDomain domain,
                                        CUpti_CallbackId cbid, const void *data)
{
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
    (void)user;
    if (!log_recording || domain != CUPTI_CB_DOMAIN_DRIVER_API ||
        cb->callbackSite != CUPTI_API_ENTER)
        return;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
        const cuLaunchKernel_params *p = (const cuLaunchKernel_params *)cb->functionParams;
        unsigned int grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
        unsigned int block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        log_append(p->f, cb->symbolName, grid, block, p->sharedMemBytes);
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        const cuLaunchKernelEx_params *p = (const cuLaunchKernelEx_params *)cb->functionParams;
        unsigned int grid[3] = {p->config->gridDimX, p->config->gridDimY, p->config->gridDimZ};
        unsigned int block[3] = {p->config->blockDimX, p->config->blockDimY, p->config->blockDimZ};
        log_append(p->f, cb->symbolName, grid, block, p->config->sharedMemBytes);
    }
}

int launch_log_begin(char *why, size_t why_len)
{
    if (!log_subscribed) {
        CUptiResult res = cuptiSubscribe(&log_subscriber,
                                         (CUpti_CallbackFunc)log_on_driver_call, NULL);
        if (res == CUPTI_SUCCESS)
            res = cuptiEnableDomain(1, log_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
        if (res != CUPTI_SUCCESS) {
            const char *msg = NULL;
            cuptiGetResultString(res, &msg);
            snprintf(why, why_len, "CUPTI could not record launches: %s", msg ? msg : "unknown error");
            return -1;
        }
        log_subscribed = 1;
    }
    log_count = 0;
    log_recording = 1;
    return 0;
}

typedef CUresult (*log_attr_fn)(int *, CUfunction_attribute, CUfunction);
typedef CUresult (*log_kernel_attr_fn)(int *, CUfunction_attribute, CUkernel, CUdevice);

// Reads one attribute of a launched function. Since CUDA 12 the runtime may
// launch a library kernel (CUkernel) in the CUfunction slot, which only the
// kernel query answers, so both are tried. Returns 0 with *v set, or -1.
static int log_attribute(log_attr_fn func_attr, log_kernel_attr_fn kernel_attr, CUfunction f,
                         CUfunction_attribute which, int *v)
{
    if (func_attr && func_attr(v, which, f) == CUDA_SUCCESS)
        return 0;
    if (kernel_attr && kernel_attr(v, which, (CUkernel)f, 0) == CUDA_SUCCESS)
        return 0;
    return -1;
}

long launch_log_end(void)
{
    log_recording = 0;
    long kept = log_count < LAUNCH_LOG_MAX ? log_count : LAUNCH_LOG_MAX;
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    log_attr_fn func_attr = driver ? (log_attr_fn)dlsym(driver, "cuFuncGetAttribute") : NULL;
    log_kernel_attr_fn kernel_attr = driver ? (log_kernel_attr_fn)dlsym(driver, "cuKernelGetAttribute") : NULL;
    for (long n = 0; n < kept; n++) {
        int v = 0;
        if (log_attribute(func_attr, kernel_attr, log_functions[n], CU_FUNC_ATTRIBUTE_NUM_REGS, &v) == 0)
            log_records[n].regs = v;
        if (log_attribute(func_attr, kernel_attr, log_functions[n], CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &v) == 0)
            log_records[n].static_smem = (size_t)v;
    }
    if (driver)
        dlclose(driver);
    return log_count;
}

const launch_record *launch_log_record(long idx)
{
    return (idx >= 0 && idx < LAUNCH_LOG_MAX && idx < log_count) ? &log_records[idx] : NULL;
}
