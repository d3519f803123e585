// grader/executor/serve.cu — serves a student's program: starts it confined,
// loads its device code, performs its CUDA calls on the executor's GPU after
// checking each one, and keeps the launch records (launch_log.h).
//
// Every message is hostile until checked: lengths, names, handles, pointer
// ranges. A call the kit forbids is refused (cudaErrorNotPermitted to the
// program, ex->refusal for the judge); a message outside a call, or one that
// cannot be parsed, is a violation that ends the case.
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "executor.h"
#include "pipe_io.h"
#include "protocol.h"
#include "sandbox.h"

// ---------------------------------------------------------------------------
// Launch records (launch_log.h, filled from WIRE_LAUNCH)
// ---------------------------------------------------------------------------

static launch_record log_records[LAUNCH_LOG_MAX];  // the records of the current bracket
static long log_count;                             // launches seen in it
static double log_copy_bytes;                      // bytes copied device to device in it
static exec_state *log_state;                      // whose launches are recorded

int launch_log_begin(char *why, size_t why_len)
{
    (void)why;
    (void)why_len;
    log_count = 0;
    log_copy_bytes = 0;
    if (log_state)
        log_state->logging = 1;
    return 0;
}

long launch_log_end(void)
{
    if (log_state)
        log_state->logging = 0;
    return log_count;
}

// The executor keeps its records in its own process: no student code can reach them.
const char *launch_log_forged(void)
{
    return NULL;
}

// The loads are counted by Nsight Compute, run by the judge.
int launch_log_loads(double *global_bytes, double *shared_bytes)
{
    *global_bytes = *shared_bytes = 0;
    return 0;
}

double launch_log_device_copies(void)
{
    return log_copy_bytes;
}

const launch_record *launch_log_record(long idx)
{
    return (idx >= 0 && idx < LAUNCH_LOG_MAX && idx < log_count) ? &log_records[idx] : NULL;
}

// Every launch of a call, counted by its shape (exec_launch_watch): the
// function itself (not its name, which a record shortens), grid, block and
// dynamic shared memory.
static exec_launch_shape watch_shapes[EXEC_MAX_SHAPES];
static int watch_nshapes;          // distinct shapes known
static int watch_mode;             // EXEC_WATCH_OFF, _LEARN (the checked call: shapes added) or _CHECK (shapes counted)
static int watch_overflow;         // 1: the checked call had more distinct shapes than kept (nothing is checked)
static exec_launch_shape watch_stranger;  // the first launch of a _CHECK call whose shape the checked call never had
static int watch_have_stranger;

void exec_launch_watch(int mode)
{
    watch_mode = mode;
    watch_have_stranger = 0;
    if (mode == EXEC_WATCH_LEARN)
        watch_nshapes = 0, watch_overflow = 0;
    for (int i = 0; i < watch_nshapes; i++)
        watch_shapes[i].count = 0;
}

const exec_launch_shape *exec_launch_shapes(int *n, int *overflow)
{
    *n = watch_nshapes;
    *overflow = watch_overflow;
    return watch_shapes;
}

const exec_launch_shape *exec_launch_stranger(void)
{
    return watch_have_stranger ? &watch_stranger : NULL;
}

// Counts one launch under the watch's mode.
static void watch_launch(const exec_function *fn, const launch_record *r)
{
    if (watch_mode == EXEC_WATCH_OFF || watch_overflow)
        return;
    for (int i = 0; i < watch_nshapes; i++) {
        exec_launch_shape *w = &watch_shapes[i];
        if (w->fn == fn && !memcmp(w->grid, r->grid, sizeof(w->grid)) && !memcmp(w->block, r->block, sizeof(w->block)) &&
            w->dynamic_smem == r->dynamic_smem) {
            w->count++;
            return;
        }
    }
    exec_launch_shape shape;
    memset(&shape, 0, sizeof(shape));
    shape.fn = fn;
    snprintf(shape.kernel, sizeof(shape.kernel), "%s", r->kernel);
    memcpy(shape.grid, r->grid, sizeof(shape.grid));
    memcpy(shape.block, r->block, sizeof(shape.block));
    shape.dynamic_smem = r->dynamic_smem;
    shape.count = 1;
    if (watch_mode == EXEC_WATCH_CHECK) {
        if (!watch_have_stranger)
            watch_stranger = shape, watch_have_stranger = 1;
    } else if (watch_nshapes < EXEC_MAX_SHAPES) {
        watch_shapes[watch_nshapes++] = shape;
    } else {
        watch_overflow = 1;
    }
}

// Appends one launch to the records, when recording, and shows it to the watch.
static void log_launch(exec_state *ex, const exec_function *fn, const uint32_t grid[3], const uint32_t block[3],
                       uint64_t shared)
{
    if (!ex->logging && watch_mode == EXEC_WATCH_OFF)
        return;
    launch_record rec;
    memset(&rec, 0, sizeof(rec));
    snprintf(rec.kernel, sizeof(rec.kernel), "%s", fn->name);
    for (char *c = rec.kernel; *c; c++)  // the record is "key=value" words: a name is one word of symbol characters
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '$')
            *c = '_';
    memcpy(rec.grid, grid, sizeof(rec.grid));
    memcpy(rec.block, block, sizeof(rec.block));
    rec.dynamic_smem = (size_t)shared;
    rec.static_smem = fn->static_smem;
    rec.regs = fn->regs;
    watch_launch(fn, &rec);
    if (!ex->logging)
        return;
    if (log_count < LAUNCH_LOG_MAX)
        log_records[log_count] = rec;
    log_count++;
}

// ---------------------------------------------------------------------------
// The pipe
// ---------------------------------------------------------------------------

// Reads exactly n bytes from the program. Returns 0, or -1 at its end.
static int serve_read(exec_state *ex, void *buf, size_t n)
{
    return pipe_read_all(ex->from_child, buf, n);
}

// Writes all n bytes to the program. Returns 0, or -1 if it is gone.
static int serve_write(exec_state *ex, const void *buf, size_t n)
{
    return pipe_write_all(ex->to_child, buf, n);
}

// Sends an answer: header, status, then data. Returns 0 or -1.
static int serve_answer(exec_state *ex, uint32_t op, cudaError_t status, const void *data, size_t len)
{
    wire_header h = {op, (uint32_t)(sizeof(int32_t) + len)};
    int32_t s = (int32_t)status;
    if (serve_write(ex, &h, sizeof(h)) || serve_write(ex, &s, sizeof(s)))
        return -1;
    return len ? serve_write(ex, data, len) : 0;
}

// Records the first violation of the protocol.
static void serve_violation(exec_state *ex, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void serve_violation(exec_state *ex, const char *kind, const char *fmt, ...)
{
    va_list ap;
    if (ex->violation[0])
        return;
    snprintf(ex->violation_kind, sizeof(ex->violation_kind), "%s", kind);
    va_start(ap, fmt);
    vsnprintf(ex->violation, sizeof(ex->violation), fmt, ap);
    va_end(ap);
}

// Records the first refused call.
static void serve_refuse(exec_state *ex, const char *what)
{
    if (!ex->refusal[0])
        snprintf(ex->refusal, sizeof(ex->refusal), "%s", what);
}

// The name of a message, for reports.
static const char *serve_op_name(uint32_t op)
{
    static const char *names[WIRE_OP_COUNT] = {
        "?", "kernel registration", "kernel registration", "variable registration", "main() start", "call", "exit",
        "return", "kernel launch", "kernel launch", "cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemset",
        "cudaMemcpyToSymbol/FromSymbol", "cudaGetSymbolAddress", "cudaDeviceSynchronize", "cudaGetLastError",
        "cudaDeviceGetAttribute", "cudaGetDeviceProperties", "cudaFuncGetAttributes", "cudaFuncSetAttribute",
        "cudaOccupancy...", "a refused call"};
    return op < WIRE_OP_COUNT ? names[op] : "an unknown message";
}

// ---------------------------------------------------------------------------
// Lookups
// ---------------------------------------------------------------------------

// The registered kernel with this handle, resolved in the module; NULL if none.
static exec_function *serve_function(exec_state *ex, uint64_t handle)
{
    for (int i = 0; i < ex->nfns; i++) {
        exec_function *fn = &ex->fns[i];
        if (fn->handle != handle)
            continue;
        if (!fn->f) {
            int v = 0;
            if (!ex->have_module || cuModuleGetFunction(&fn->f, ex->module, fn->name) != CUDA_SUCCESS) {
                fn->f = NULL;
                return NULL;
            }
            if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn->f) == CUDA_SUCCESS)
                fn->regs = v;
            if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn->f) == CUDA_SUCCESS)
                fn->static_smem = (size_t)v;
        }
        return fn;
    }
    return NULL;
}

// Fills fn's parameter sizes from the driver. Returns 0 or -1.
static int serve_params(exec_function *fn)
{
    if (fn->nparams >= 0)
        return 0;
    int n = 0;
    size_t offset = 0, size = 0;
    while (n < WIRE_MAX_PARAMS && cuFuncGetParamInfo(fn->f, (size_t)n, &offset, &size) == CUDA_SUCCESS) {
        fn->psize[n] = (uint32_t)size;
        n++;
    }
    if (n == WIRE_MAX_PARAMS && cuFuncGetParamInfo(fn->f, (size_t)n, &offset, &size) == CUDA_SUCCESS)
        return -1;  // more than the launch message carries: the driver would read past them
    fn->nparams = n;
    return 0;
}

// Refuses a kernel whose parameters a launch message cannot carry.
static void serve_refuse_params(exec_state *ex)
{
    char what[96];
    snprintf(what, sizeof(what), "a kernel with more than %d parameters", WIRE_MAX_PARAMS);
    serve_refuse(ex, what);
}

// The allocation [ptr, ptr + bytes) lies in, or NULL.
static exec_alloc *serve_range(exec_state *ex, uint64_t ptr, uint64_t bytes)
{
    for (int i = 0; i < ex->nallocs; i++) {
        exec_alloc *a = &ex->allocs[i];
        if (ptr >= a->ptr && bytes <= a->bytes && ptr - a->ptr <= a->bytes - bytes)
            return a;
    }
    return NULL;
}

void exec_release_gpu(exec_state *ex)
{
    for (int i = 0; i < ex->nallocs; i++)  // the kit's grids and scratch, and what the program left allocated
        cudaFree((void *)(uintptr_t)ex->allocs[i].ptr);
    ex->nallocs = 0;
    if (ex->have_module)
        cuModuleUnload(ex->module);
    ex->have_module = 0;
    if (ex->start)
        cudaEventDestroy(ex->start);
    if (ex->stop)
        cudaEventDestroy(ex->stop);
    ex->start = ex->stop = NULL;
}

void exec_release(exec_state *ex)
{
    exec_release_gpu(ex);
    if (log_state == ex)
        log_state = NULL;
    memset(ex, 0, sizeof(*ex));
    ex->child = -1;
    ex->to_child = ex->from_child = -1;
}

void exec_track(exec_state *ex, uint64_t ptr, uint64_t bytes, int kit)
{
    if (ex->nallocs < EXEC_MAX_ALLOCS)
        ex->allocs[ex->nallocs++] = {ptr, bytes, kit};
}

CUdeviceptr exec_symbol(exec_state *ex, const char *name, size_t *bytes)
{
    CUdeviceptr d = 0;
    size_t size = 0;
    if (!ex->have_module || cuModuleGetGlobal(&d, &size, ex->module, name) != CUDA_SUCCESS)
        return 0;
    if (bytes)
        *bytes = size;
    return d;
}

// The registered variable at host address host, resolved; 0 if none.
static CUdeviceptr serve_var(exec_state *ex, uint64_t host, size_t *bytes)
{
    for (int i = 0; i < ex->nvars; i++)
        if (ex->vars[i].host == host)
            return exec_symbol(ex, ex->vars[i].name, bytes);
    return 0;
}

// Records the call's start event before its first GPU work.
static void serve_start(exec_state *ex)
{
    if (!ex->started) {
        cudaEventRecord(ex->start, 0);
        ex->started = 1;
    }
}

// Records the call's stop event after each piece of GPU work it enqueues, so
// the time runs from the first work to the end of the last: what the call's
// host code does after its last launch, and the trip of its return message
// through the sandbox, are not the GPU's time (a busy host would otherwise
// lengthen a short kernel's figure).
static void serve_mark_end(exec_state *ex)
{
    if (ex->started)
        cudaEventRecord(ex->stop, 0);
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

// Maps a driver error of a launch to what the runtime would have said.
static cudaError_t serve_launch_error(CUresult r)
{
    if (r == CUDA_ERROR_INVALID_VALUE)
        return cudaErrorInvalidConfiguration;
    return (cudaError_t)r;
}

// WIRE_LAUNCH: checks and performs one launch (no answer).
static int serve_launch(exec_state *ex, const char *m, uint32_t len)
{
    struct {
        uint64_t handle;
        uint32_t grid[3], block[3];
        uint64_t shared, stream;
    } __attribute__((packed)) h;
    if (len < sizeof(h))
        return -1;
    memcpy(&h, m, sizeof(h));
    exec_function *fn = serve_function(ex, h.handle);
    cudaError_t err = cudaSuccess;
    if (!fn) {
        err = cudaErrorInvalidDeviceFunction;
    } else if (serve_params(fn) != 0) {
        serve_refuse_params(ex);
        err = cudaErrorNotPermitted;
    } else {
        size_t need = 0;
        for (int i = 0; i < fn->nparams; i++)
            need += fn->psize[i];
        if (len - sizeof(h) != need)
            return -1;
        uint32_t grid[3] = {h.grid[0], h.grid[1], h.grid[2]}, block[3] = {h.block[0], h.block[1], h.block[2]};
        log_launch(ex, fn, grid, block, h.shared);
        if (h.stream > 2) {  // 0, cudaStreamLegacy and cudaStreamPerThread are the one stream
            serve_refuse(ex, "a launch on a stream of its own (the kit times one stream)");
            err = cudaErrorNotPermitted;
        } else if (ex->sticky != cudaSuccess) {
            err = ex->sticky;
        } else {
            void *args[WIRE_MAX_PARAMS] = {0};
            const char *at = m + sizeof(h);
            for (int i = 0; i < fn->nparams; i++) {
                args[i] = (void *)at;
                at += fn->psize[i];
            }
            if (!ex->started && ex->gate)
                trusted_gate_hold(ex->gate);  // a timed call's first work is this launch: queued behind the gate with its start event
            serve_start(ex);
            CUresult r = cuLaunchKernel(fn->f, h.grid[0], h.grid[1], h.grid[2], h.block[0], h.block[1], h.block[2],
                                        (unsigned)(h.shared > 0xffffffffu ? 0xffffffffu : h.shared), 0, args, NULL);
            serve_mark_end(ex);
            if (ex->gate)
                trusted_gate_open(ex->gate);
            err = r == CUDA_SUCCESS ? cudaSuccess : serve_launch_error(r);
        }
    }
    if (err != cudaSuccess) {
        ex->last_error = err;
        if (ex->launch_error == cudaSuccess)
            ex->launch_error = err;
    }
    return 0;
}

// 1 (and the copy refused) if bytes more from the host would take the call
// past ex->host_in_limit: a program that brought the kit's input out through
// its own buffer could otherwise bring an answer computed on the CPU back in.
static int serve_over_host_budget(exec_state *ex, uint64_t bytes)
{
    if (bytes <= ex->host_in_limit && ex->host_in_bytes <= ex->host_in_limit - bytes) {
        ex->host_in_bytes += bytes;
        return 0;
    }
    char what[200];
    snprintf(what, sizeof(what), "copies from the host into device memory of more than %llu bytes in one call (the answer must be computed on the GPU)",
             (unsigned long long)ex->host_in_limit);
    serve_refuse(ex, what);
    return 1;
}

// Copies a message's head (size bytes) out of m (len bytes) into head.
// Returns 0, or -1 when the message is shorter than its head.
static int serve_take_head(const char *m, uint32_t len, void *head, size_t size)
{
    if (len < size)
        return -1;
    memcpy(head, m, size);
    return 0;
}

// 1 if a message of len bytes is its head (head_size bytes) and then exactly
// bytes of data when it carries data, or its head alone when it does not.
static int serve_sized(uint32_t len, size_t head_size, int carries_data, uint64_t bytes)
{
    return carries_data ? len - head_size == bytes : len == head_size;
}

// WIRE_MEMCPY: copies after checking both ranges; host copies of the kit's
// grids are refused, and host-to-device copies past the call's budget.
// Returns 0, or -1 on a malformed message.
static int serve_memcpy(exec_state *ex, const char *m, uint32_t len)
{
    wire_memcpy_head c;
    if (serve_take_head(m, len, &c, sizeof(c)) != 0)
        return -1;
    const char *data = m + sizeof(c);
    if (!serve_sized(len, sizeof(c), c.kind == cudaMemcpyHostToDevice, c.bytes))
        return -1;
    exec_alloc *d = c.kind == cudaMemcpyDeviceToHost ? NULL : serve_range(ex, c.dst, c.bytes);
    exec_alloc *s = c.kind == cudaMemcpyHostToDevice ? NULL : serve_range(ex, c.src, c.bytes);
    cudaError_t err = cudaSuccess;
    if (ex->sticky != cudaSuccess)
        err = ex->sticky;
    else if ((c.kind != cudaMemcpyDeviceToHost && !d) || (c.kind != cudaMemcpyHostToDevice && !s) ||
             c.kind > cudaMemcpyDeviceToDevice || c.kind == cudaMemcpyHostToHost)
        err = cudaErrorInvalidValue;
    else if ((c.kind == cudaMemcpyHostToDevice && d->kit) || (c.kind == cudaMemcpyDeviceToHost && s->kit)) {
        serve_refuse(ex, c.kind == cudaMemcpyHostToDevice ? PROTOCOL_REFUSE_HOST_INTO_KIT : PROTOCOL_REFUSE_KIT_TO_HOST);
        err = cudaErrorNotPermitted;
    } else if (c.kind == cudaMemcpyHostToDevice && serve_over_host_budget(ex, c.bytes)) {
        err = cudaErrorNotPermitted;
    }
    if (err != cudaSuccess)
        return serve_answer(ex, WIRE_MEMCPY, err, NULL, 0) == 0 ? 0 : -1;
    serve_start(ex);
    if (c.kind == cudaMemcpyHostToDevice) {
        err = cudaMemcpy((void *)c.dst, data, c.bytes, cudaMemcpyHostToDevice);
        serve_mark_end(ex);
        return serve_answer(ex, WIRE_MEMCPY, err, NULL, 0);
    }
    if (c.kind == cudaMemcpyDeviceToDevice) {
        if (ex->logging)
            log_copy_bytes += (double)c.bytes;
        err = cudaMemcpy((void *)c.dst, (const void *)c.src, c.bytes, cudaMemcpyDeviceToDevice);
        serve_mark_end(ex);
        return serve_answer(ex, WIRE_MEMCPY, err, NULL, 0);
    }
    char *host = (char *)malloc(c.bytes ? c.bytes : 1);
    if (!host)
        return serve_answer(ex, WIRE_MEMCPY, cudaErrorMemoryAllocation, NULL, 0);
    err = cudaMemcpy(host, (const void *)c.src, c.bytes, cudaMemcpyDeviceToHost);
    int rc = serve_answer(ex, WIRE_MEMCPY, err, host, err == cudaSuccess ? c.bytes : 0);
    free(host);
    return rc;
}

// WIRE_SYMBOL_COPY: copies to or from a registered variable, within its size.
static int serve_symbol_copy(exec_state *ex, const char *m, uint32_t len)
{
    wire_symbol_copy_head c;
    if (serve_take_head(m, len, &c, sizeof(c)) != 0)
        return -1;
    if (!serve_sized(len, sizeof(c), c.to_symbol, c.bytes))
        return -1;
    size_t size = 0;
    CUdeviceptr d = serve_var(ex, c.symbol, &size);
    if (!d || c.offset > size || c.bytes > size - c.offset)
        return serve_answer(ex, WIRE_SYMBOL_COPY, d ? cudaErrorInvalidValue : cudaErrorInvalidSymbol, NULL, 0);
    if (c.to_symbol && serve_over_host_budget(ex, c.bytes))
        return serve_answer(ex, WIRE_SYMBOL_COPY, cudaErrorNotPermitted, NULL, 0);
    serve_start(ex);
    if (c.to_symbol) {
        cudaError_t err = (cudaError_t)cuMemcpyHtoD(d + c.offset, m + sizeof(c), c.bytes);
        serve_mark_end(ex);
        return serve_answer(ex, WIRE_SYMBOL_COPY, err, NULL, 0);
    }
    char *host = (char *)malloc(c.bytes ? c.bytes : 1);
    cudaError_t err = host ? (cudaError_t)cuMemcpyDtoH(host, d + c.offset, c.bytes) : cudaErrorMemoryAllocation;
    serve_mark_end(ex);
    int rc = serve_answer(ex, WIRE_SYMBOL_COPY, err, host, err == cudaSuccess ? c.bytes : 0);
    free(host);
    return rc;
}

// WIRE_MALLOC and WIRE_FREE: the program's own allocations, within its limit.
static int serve_memory(exec_state *ex, uint32_t op, const char *m, uint32_t len)
{
    uint64_t v;
    if (len != sizeof(v))
        return -1;
    memcpy(&v, m, sizeof(v));
    if (op == WIRE_MALLOC) {
        void *p = NULL;
        cudaError_t err = cudaErrorMemoryAllocation;
        if (v > 0 && v <= ex->program_limit - ex->program_bytes && ex->nallocs < EXEC_MAX_ALLOCS)
            err = cudaMalloc(&p, v);
        if (err == cudaSuccess) {
            exec_track(ex, (uint64_t)(uintptr_t)p, v, 0);
            ex->program_bytes += v;
        }
        uint64_t ptr = (uint64_t)(uintptr_t)p;
        return serve_answer(ex, op, err, &ptr, sizeof(ptr));
    }
    if (v == 0)
        return serve_answer(ex, op, cudaSuccess, NULL, 0);
    for (int i = 0; i < ex->nallocs; i++)
        if (ex->allocs[i].ptr == v && !ex->allocs[i].kit) {
            cudaError_t err = cudaFree((void *)v);
            ex->program_bytes -= ex->allocs[i].bytes;
            ex->allocs[i] = ex->allocs[--ex->nallocs];
            return serve_answer(ex, op, err, NULL, 0);
        }
    return serve_answer(ex, op, cudaErrorInvalidDevicePointer, NULL, 0);
}

// WIRE_MEMSET: sets bytes inside one allocation.
static int serve_memset(exec_state *ex, const char *m, uint32_t len)
{
    wire_memset_call c;
    if (len != sizeof(c))
        return -1;
    memcpy(&c, m, sizeof(c));
    cudaError_t err = ex->sticky;
    if (err == cudaSuccess && !serve_range(ex, c.dst, c.bytes))
        err = cudaErrorInvalidValue;
    if (err == cudaSuccess) {
        serve_start(ex);
        err = cudaMemset((void *)c.dst, (int)c.value, c.bytes);
        serve_mark_end(ex);
    }
    return serve_answer(ex, WIRE_MEMSET, err, NULL, 0);
}

// Synchronises; a failure becomes sticky (the context is lost after a fault).
static cudaError_t serve_sync(exec_state *ex)
{
    if (ex->sticky != cudaSuccess)
        return ex->sticky;
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        ex->sticky = err;
    return err;
}

// Requests about the device and kernels: attributes, occupancy.
static int serve_query(exec_state *ex, uint32_t op, const char *m, uint32_t len)
{
    if (op == WIRE_DEVICE_NAME)
        return serve_answer(ex, op, cudaSuccess, ex->device_name, strlen(ex->device_name));
    if (op == WIRE_DEVICE_ATTR) {
        int32_t attr, v = 0;
        if (len != sizeof(attr))
            return -1;
        memcpy(&attr, m, sizeof(attr));
        int value = 0;
        CUresult r = attr > 0 && attr < 512 ? cuDeviceGetAttribute(&value, (CUdevice_attribute)attr, 0) : CUDA_ERROR_INVALID_VALUE;
        v = value;
        return serve_answer(ex, op, r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue, &v, sizeof(v));
    }
    uint64_t handle;
    if (len < sizeof(handle))
        return -1;
    memcpy(&handle, m, sizeof(handle));
    exec_function *fn = serve_function(ex, handle);
    if (!fn)
        return serve_answer(ex, op, cudaErrorInvalidDeviceFunction, NULL, 0);
    if (op == WIRE_PARAMS) {
        uint32_t out[1 + WIRE_MAX_PARAMS];
        if (serve_params(fn) != 0) {
            serve_refuse_params(ex);
            return serve_answer(ex, op, cudaErrorNotPermitted, NULL, 0);
        }
        out[0] = (uint32_t)fn->nparams;
        memcpy(out + 1, fn->psize, (size_t)fn->nparams * sizeof(uint32_t));
        return serve_answer(ex, op, cudaSuccess, out, (1 + (size_t)fn->nparams) * sizeof(uint32_t));
    }
    if (op == WIRE_FUNC_ATTRS) {
        wire_func_attrs a;
        int v = 0;
        memset(&a, 0, sizeof(a));
        a.shared_bytes = fn->static_smem;
        a.num_regs = fn->regs;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, fn->f) == CUDA_SUCCESS) a.const_bytes = (uint64_t)v;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn->f) == CUDA_SUCCESS) a.local_bytes = (uint64_t)v;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn->f) == CUDA_SUCCESS) a.max_threads = v;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, fn->f) == CUDA_SUCCESS) a.ptx_version = v;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, fn->f) == CUDA_SUCCESS) a.binary_version = v;
        if (cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn->f) == CUDA_SUCCESS) a.max_dynamic_shared = v;
        return serve_answer(ex, op, cudaSuccess, &a, sizeof(a));
    }
    if (op == WIRE_FUNC_SET_ATTR) {
        int32_t av[2];
        if (len != sizeof(handle) + sizeof(av))
            return -1;
        memcpy(av, m + sizeof(handle), sizeof(av));
        int allowed = av[0] == cudaFuncAttributeMaxDynamicSharedMemorySize || av[0] == cudaFuncAttributePreferredSharedMemoryCarveout;
        CUresult r = allowed ? cuFuncSetAttribute(fn->f, (CUfunction_attribute)av[0], av[1]) : CUDA_ERROR_INVALID_VALUE;
        return serve_answer(ex, op, r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue, NULL, 0);
    }
    int32_t block;
    uint64_t shared;
    if (len != sizeof(handle) + sizeof(block) + sizeof(shared))
        return -1;
    memcpy(&block, m + sizeof(handle), sizeof(block));
    memcpy(&shared, m + sizeof(handle) + sizeof(block), sizeof(shared));
    int blocks = 0;
    CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn->f, block, (size_t)shared);
    int32_t b = blocks;
    return serve_answer(ex, op, r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue, &b, sizeof(b));
}

// Registration messages (before WIRE_READY only).
static int serve_register(exec_state *ex, uint32_t op, const char *m, uint32_t len)
{
    if (op == WIRE_FATBIN) {
        if (ex->have_module)
            return -1;  // one translation unit: one image
        CUresult r = cuModuleLoadData(&ex->module, m);
        if (r != CUDA_SUCCESS) {
            const char *s = NULL;
            cuGetErrorString(r, &s);
            serve_violation(ex, "protocol", "the device code could not be loaded: %s (was it built for this GPU?)", s ? s : "?");
            return -1;
        }
        ex->have_module = 1;
        return 0;
    }
    size_t head = op == WIRE_FUNCTION ? sizeof(uint64_t) : 2 * sizeof(uint64_t) + sizeof(uint32_t);
    if (len <= head || len - head > WIRE_MAX_NAME)
        return -1;
    if (op == WIRE_FUNCTION) {
        if (ex->nfns >= EXEC_MAX_FUNCTIONS)
            return -1;
        exec_function *fn = &ex->fns[ex->nfns++];
        memset(fn, 0, sizeof(*fn));
        memcpy(&fn->handle, m, sizeof(fn->handle));
        memcpy(fn->name, m + head, len - head);
        fn->nparams = -1;
        fn->regs = -1;
        if (strstr(fn->name, PROTOCOL_KIT_KERNEL_PREFIX))  // the kit's kernels' names: Nsight Compute's counts leave those rows out
            serve_refuse(ex, "a kernel named like the kit's own (" PROTOCOL_KIT_KERNEL_PREFIX "...): rename it");
        return 0;
    }
    if (ex->nvars >= EXEC_MAX_VARS)
        return -1;
    exec_var *v = &ex->vars[ex->nvars++];
    memset(v, 0, sizeof(*v));
    memcpy(&v->host, m, sizeof(v->host));
    memcpy(&v->size, m + sizeof(uint64_t), sizeof(v->size));
    memcpy(v->name, m + head, len - head);
    return 0;
}

// WIRE_RETURN: keeps the launch function's answer in res. Returns 0, or -1
// when the answer is longer than res holds.
static int serve_return(const char *m, uint32_t len, exec_call_result *res)
{
    if (len > sizeof(res->answer))
        return -1;
    memcpy(res->answer, m, len);
    res->answer_len = len;
    res->returned = 1;
    return 0;
}

// WIRE_SYNC: synchronises within the call's timed span and answers.
static int serve_sync_call(exec_state *ex)
{
    serve_start(ex);
    cudaError_t synced = serve_sync(ex);
    serve_mark_end(ex);
    return serve_answer(ex, WIRE_SYNC, synced, NULL, 0);
}

// WIRE_LAST_ERROR: answers the sticky error, else the last one, clearing
// the last one when asked to.
static int serve_last_error(exec_state *ex, const char *m, uint32_t len)
{
    uint32_t clear = 0;
    memcpy(&clear, m, len >= 4 ? 4 : 0);
    cudaError_t e = ex->sticky != cudaSuccess ? ex->sticky : ex->last_error;
    if (clear)
        ex->last_error = cudaSuccess;
    return serve_answer(ex, WIRE_LAST_ERROR, e, NULL, 0);
}

// WIRE_SYMBOL_ADDRESS: answers a module variable's device address and size,
// and refuses the kit's weights.
static int serve_symbol_address(exec_state *ex, const char *m, uint32_t len)
{
    uint64_t host, out[2] = {0, 0};
    size_t size = 0;
    if (len != sizeof(host))
        return -1;
    memcpy(&host, m, sizeof(host));
    out[0] = serve_var(ex, host, &size);
    out[1] = size;
    if (out[0] && exec_is_kit_weight(out[0], size)) {  // a pointer to the weights would let kernels read them as global memory
        serve_refuse(ex, "cudaGetSymbolAddress of the kit's weights (read them by name in device code: they live in constant memory)");
        return serve_answer(ex, WIRE_SYMBOL_ADDRESS, cudaErrorNotPermitted, NULL, 0);
    }
    return serve_answer(ex, WIRE_SYMBOL_ADDRESS, out[0] ? cudaSuccess : cudaErrorInvalidSymbol, out, sizeof(out));
}

// WIRE_REFUSED: the shim met a call the kit does not offer; refuses the
// program, naming it.
static void serve_refused(exec_state *ex, const char *m, uint32_t len)
{
    static const char *what[WIRE_REFUSE_COUNT] = {"?", "creating a stream (the kit times one stream)",
                                                  "creating or recording an event (the kit does the timing)",
                                                  "managed or host-mapped memory", "graphs or stream capture",
                                                  "choosing, resetting or reconfiguring the device",
                                                  "a cooperative launch (grid-wide synchronisation is not offered: "
                                                  "launch once per step that needs the whole grid in step)"};
    uint32_t which = 0;
    memcpy(&which, m, len >= 4 ? 4 : 0);
    serve_refuse(ex, which < WIRE_REFUSE_COUNT ? what[which] : "a call the kit does not allow");
}

// Acts on a message of the launch function's call (op, its payload m of len
// bytes). Returns 0, or -1 when the message is malformed.
static int serve_call_message(exec_state *ex, uint32_t op, const char *m, uint32_t len, exec_call_result *res)
{
    switch (op) {
    case WIRE_RETURN: return serve_return(m, len, res);
    case WIRE_LAUNCH: return serve_launch(ex, m, len);
    case WIRE_MEMCPY: return serve_memcpy(ex, m, len);
    case WIRE_SYMBOL_COPY: return serve_symbol_copy(ex, m, len);
    case WIRE_MALLOC:
    case WIRE_FREE: return serve_memory(ex, op, m, len);
    case WIRE_MEMSET: return serve_memset(ex, m, len);
    case WIRE_SYNC: return serve_sync_call(ex);
    case WIRE_LAST_ERROR: return serve_last_error(ex, m, len);
    case WIRE_SYMBOL_ADDRESS: return serve_symbol_address(ex, m, len);
    case WIRE_REFUSED: serve_refused(ex, m, len); return 0;
    default: return serve_query(ex, op, m, len);
    }
}

// Reads one message (its header into h, its payload into *m, malloc'd).
// Returns 1, 0 at the program's end, or -1 on a violation.
static int serve_read_message(exec_state *ex, wire_header *h, char **m)
{
    if (serve_read(ex, h, sizeof(*h)) != 0)
        return 0;
    if (h->len > WIRE_MAX_PAYLOAD || h->op == 0 || h->op >= WIRE_OP_COUNT) {
        serve_violation(ex, "protocol", "the program sent a malformed message (op %u, %u bytes)", h->op, h->len);
        return -1;
    }
    *m = (char *)malloc(h->len ? h->len : 1);
    if (!*m || serve_read(ex, *m, h->len) != 0) {
        int got = *m ? 0 : -1;
        free(*m);
        return got;
    }
    return 1;
}

// Reads one message and acts on it. Returns the op, 0 at the program's end,
// or -1 on a violation (ex->violation says which).
static int serve_one(exec_state *ex, exec_call_result *res)
{
    wire_header h;
    char *m = NULL;
    int got = serve_read_message(ex, &h, &m);
    if (got != 1)
        return got;
    int rc = 0;
    uint32_t op = h.op;
    if (op == WIRE_FATBIN || op == WIRE_FUNCTION || op == WIRE_VAR) {
        rc = ex->ready ? -1 : serve_register(ex, op, m, h.len);
    } else if (op == WIRE_READY) {
        rc = ex->ready ? -1 : 0;
        ex->ready = 1;
    } else if (!ex->in_call) {
        serve_violation(ex, "late-call", "%s %s", serve_op_name(op),
                        ex->ready ? "after the launch function returned (no CUDA call may outlive it: no threads, no atexit handlers)"
                                  : "before main() started (in a static constructor)");
        free(m);
        return -1;
    } else {
        rc = serve_call_message(ex, op, m, h.len, res);
    }
    free(m);
    if (rc != 0) {
        serve_violation(ex, "protocol", "the program sent a malformed or out-of-order %s message", serve_op_name(op));
        return -1;
    }
    return (int)op;
}

// ---------------------------------------------------------------------------
// The program's life
// ---------------------------------------------------------------------------

// Describes how the child ended into ex->violation (program-ended).
static void serve_reap(exec_state *ex, const char *when)
{
    int status = 0;
    if (ex->child > 0 && waitpid(ex->child, &status, 0) == ex->child) {
        ex->child = -1;
        if (WIFSIGNALED(status))
            serve_violation(ex, "program-ended", "the program was killed by signal %d (%s) %s", WTERMSIG(status),
                            strsignal(WTERMSIG(status)), when);
        else
            serve_violation(ex, "program-ended", "the program exited (status %d) %s: it must not call exit()",
                            WEXITSTATUS(status), when);
    } else {
        serve_violation(ex, "program-ended", "the program closed its pipe %s", when);
    }
}

int exec_start(exec_state *ex, const char *program_path, unsigned cpu_seconds, char *why, size_t why_len)
{
    int up[2], down[2];
    char program[4096];
    if (!realpath(program_path, program)) {  // the child starts in /: a relative path would not reach it
        snprintf(why, why_len, "the student's program %s: %s", program_path, strerror(errno));
        return -1;
    }
    log_state = ex;
    ex->child = -1;
    ex->last_error = ex->sticky = ex->launch_error = cudaSuccess;
    if (pipe2(up, O_CLOEXEC) != 0 || pipe2(down, O_CLOEXEC) != 0) {
        snprintf(why, why_len, "pipe: %s", strerror(errno));
        return -1;
    }
    cudaEventCreate(&ex->start);
    cudaEventCreate(&ex->stop);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_len, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        // LCOV_EXCL_START: the child, confined, writes no line counts (it ends in execve or _exit), so
        // a coverage build cannot count these lines: tests/device_coverage.sh leaves them out and says how many.
        char reason[256] = "";
        char *argv[] = {(char *)program, NULL};
        char *envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"LC_ALL=C", NULL};
        sandbox_limits lim;
        memset(&lim, 0, sizeof(lim));
        lim.cpu_seconds = cpu_seconds;
        lim.address_space_bytes = STUDENT_MEMORY_BYTES;
        lim.open_files = 16;
        lim.no_files = 1;
        struct rlimit fsize;  // the case's limit on its log (the executor's soft one), made hard: the program cannot raise it
        if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY) {
            fsize.rlim_max = fsize.rlim_cur;
            setrlimit(RLIMIT_FSIZE, &fsize);
        }
        if (dup2(up[1], WIRE_FD_TO_EXECUTOR) < 0 || dup2(down[0], WIRE_FD_FROM_EXECUTOR) < 0)
            _exit(126);
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        for (int fd = WIRE_FD_FROM_EXECUTOR + 1; fd < 1024; fd++)
            close(fd);
        if (chdir("/") != 0 || sandbox_enter(&lim, argv[0], reason, sizeof(reason)) != 0) {
            fprintf(stderr, "executor: cannot confine the program: %s\n", reason);
            _exit(126);
        }
        execve(argv[0], argv, envp);
        fprintf(stderr, "executor: cannot start %s: %s\n", argv[0], strerror(errno));
        _exit(127);
        // LCOV_EXCL_STOP
    }
    close(up[1]);
    close(down[0]);
    ex->child = pid;
    ex->from_child = up[0];
    ex->to_child = down[1];
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        int op = serve_one(ex, NULL);
        if (op == WIRE_READY)
            break;
        if (op <= 0) {
            if (op == 0)
                serve_reap(ex, "before its main() started");
            if (strstr(ex->violation, "(status 126)") || strstr(ex->violation, "(status 127)"))
                snprintf(why, why_len, "the student's program could not be started (see the runner log)");
            return -1;
        }
    }
    if (!ex->have_module) {
        serve_violation(ex, "protocol", "the program registered no device code (no __global__ kernel?)");
        return -1;
    }
    return 0;
}

int exec_call(exec_state *ex, const void *payload, size_t len, exec_call_result *res)
{
    wire_header h = {WIRE_CALL, (uint32_t)len};
    memset(res, 0, sizeof(*res));
    if (exec_check_late(ex, 0))
        return -1;
    ex->started = 0;
    ex->launch_error = cudaSuccess;
    ex->host_in_bytes = 0;
    ex->in_call = 1;
    if (serve_write(ex, &h, sizeof(h)) != 0 || serve_write(ex, payload, len) != 0) {
        ex->in_call = 0;
        serve_reap(ex, "before the kit's call");
        return -1;
    }
    while (!res->returned) {
        int op = serve_one(ex, res);
        if (op <= 0) {
            ex->in_call = 0;
            if (op == 0)
                serve_reap(ex, "during the launch function");
            return -1;
        }
    }
    ex->in_call = 0;
    if (ex->gate)
        trusted_gate_open(ex->gate);  // (already open unless the launch never reached the queue)
    res->started = ex->started;
    res->launch_error = ex->launch_error;
    if (ex->started) {  // the stop event stands after the call's last GPU work (serve_mark_end)
        if (cudaEventSynchronize(ex->stop) == cudaSuccess)
            cudaEventElapsedTime(&res->ms, ex->start, ex->stop);
    }
    return 0;
}

int exec_check_late(exec_state *ex, int grace_ms)
{
    struct pollfd p = {ex->from_child, POLLIN, 0};
    if (ex->child <= 0 || ex->violation[0])
        return ex->violation[0] != 0;
    if (poll(&p, 1, grace_ms) <= 0 || !(p.revents & POLLIN))
        return 0;  // nothing came (a hang-up alone is the program ending, which is allowed between calls)
    int op = serve_one(ex, NULL);
    if (op == 0)
        return 0;
    return 1;
}

void exec_stop(exec_state *ex)
{
    if (ex->child > 0) {
        wire_header h = {WIRE_EXIT, 0};
        serve_write(ex, &h, sizeof(h));
        kill(ex->child, SIGKILL);
        waitpid(ex->child, NULL, 0);
        ex->child = -1;
    }
    if (ex->to_child > 0)
        close(ex->to_child);
    if (ex->from_child > 0)
        close(ex->from_child);
    ex->to_child = ex->from_child = -1;
}
