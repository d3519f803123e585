// grader/protocol/case_io.h — the runner's side of the case files: the report
// file, guarded device buffers, reading and saving grids, the device lines and
// the launch records. Used by the executor and by the emulation runner.
//
// Included once per program, so everything here is static. Names start with
// runner_ to stay out of the student's way (the emulation runner shares its
// translation unit with the student's file).
#ifndef STENCIL_RUNNER_COMMON_H
#define STENCIL_RUNNER_COMMON_H

#include <cuda_runtime.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid_memory.h"
#include "launch_log.h"
#include "protocol.h"

// ---------------------------------------------------------------------------
// The report: key=value lines the judge reads
// ---------------------------------------------------------------------------

static FILE *runner_report_file;  // open report, or NULL before --outdir is known

#ifdef EXEC_COVERAGE
extern "C" void __gcov_dump(void);  // the executor's line counts in its coverage build (grader/build.mk's EXEC_COVERAGE=1)
#endif

// Writes one key=value line; newlines in the value become spaces.
static void runner_report(const char *key, const char *fmt, ...)
{
    char value[1024];
    va_list ap;
    if (!runner_report_file)
        return;
    va_start(ap, fmt);
    vsnprintf(value, sizeof(value), fmt, ap);
    va_end(ap);
    fprintf(runner_report_file, "%s=%s\n", key, protocol_one_line(value));
    fflush(runner_report_file);
}

// What a runner must still do when it fails, before it exits (NULL: nothing):
// the executor's grids copied off the GPU and not yet written (exec_save_later).
// Called once, first; it must not fail the run itself.
static void (*runner_fail_hook)(void);

// Reports a failure at one stage, prints it on stderr too, and exits with code.
static void runner_fail(int code, const char *stage, const char *fmt, ...)
{
    void (*hook)(void) = runner_fail_hook;
    runner_fail_hook = NULL;
    if (hook)
        hook();
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    runner_report("error_stage", "%s", stage);
    runner_report("error", "%s", msg);
    fprintf(stderr, "runner: %s: %s\n", stage, msg);
    if (runner_report_file)
        fclose(runner_report_file);
    fflush(NULL);
#ifdef EXEC_COVERAGE
    __gcov_dump();  // _exit() skips the handler that writes them
#endif
    _exit(code);  // not exit(): no atexit handler or static destructor of the student's may run after the verdict
}

// Ends a case whose launch records were tampered with (launch_log_end gave
// LAUNCH_LOG_FORGED: under emulation, where the student's code shares the process).
static void runner_forged_records(void)
{
    runner_report("violation_kind", "%s", PROTOCOL_VIOLATION_RECORDS);
    runner_fail(RUNNER_VIOLATION, "records", "%s", launch_log_forged() ? launch_log_forged() : "the launch records were changed");
}

// Exits through runner_fail when a CUDA call made by the kit itself fails.
static void runner_check(cudaError_t err, const char *what)
{
    if (err == cudaErrorMemoryAllocation)
        runner_fail(RUNNER_NO_MEMORY, "memory", "%s: %s", what, cudaGetErrorString(err));
    if (err != cudaSuccess)
        runner_fail(RUNNER_KERNEL_FAULT, "kit", "%s: %s (%s)", what, cudaGetErrorString(err),
                    cudaGetErrorName(err));
}

// ---------------------------------------------------------------------------
// The device
// ---------------------------------------------------------------------------

// Picks device 0 and reports what it is; exits 77 when no usable GPU answers.
static cudaDeviceProp runner_open_device(void)
{
    cudaDeviceProp prop;
    int count = 0, driver = 0, runtime = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0)
        err = cudaErrorNoDevice;
    if (err == cudaSuccess)
        err = cudaSetDevice(0);
    if (err == cudaSuccess)
        err = cudaFree(0);  // creates the context: the first call that really needs the GPU
    if (err == cudaSuccess)
        err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess)
        runner_fail(RUNNER_NO_GPU, "device", "%s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    runner_report("device", "%s", prop.name);
    runner_report("compute_capability", "%d.%d", prop.major, prop.minor);
    runner_report("sm_count", "%d", prop.multiProcessorCount);
    runner_report("l2_bytes", "%d", prop.l2CacheSize);
    runner_report("global_mem_bytes", "%zu", (size_t)prop.totalGlobalMem);
    runner_report("driver_version", "%d.%d", driver / 1000, (driver % 1000) / 10);
    runner_report("runtime_version", "%d.%d", runtime / 1000, (runtime % 1000) / 10);
    return prop;
}

// ---------------------------------------------------------------------------
// Guarded buffers
// ---------------------------------------------------------------------------

typedef struct runner_buffer {
    float *d_base;     // device allocation: guard | grid | guard
    float *d_grid;     // the grid inside it, handed to the student
    size_t cells;      // grid cells
    size_t guard;      // guard cells on each side
} runner_buffer;

// Fills n floats with the bit pattern bits.
static void runner_fill_bits(float *h, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        memcpy(&h[i], &bits, sizeof(bits));
}

// Uploads host_grid (b->cells floats) into b with the guard pattern around
// it: the grid straight from host_grid, the guards from a buffer of their own
// (no host copy of the whole grid).
static void runner_buffer_upload(const runner_buffer *b, const float *host_grid)
{
    float *g = (float *)malloc((b->guard ? b->guard : 1) * sizeof(float));
    if (!g)
        runner_fail(RUNNER_NO_MEMORY, "memory", "host memory for %zu floats", b->guard);
    runner_fill_bits(g, b->guard, GUARD_BITS);
    runner_check(cudaMemcpy(b->d_base, g, b->guard * sizeof(float), cudaMemcpyHostToDevice), "upload a guard");
    runner_check(cudaMemcpy(b->d_grid, host_grid, b->cells * sizeof(float), cudaMemcpyHostToDevice), "upload a grid");
    runner_check(cudaMemcpy(b->d_grid + b->cells, g, b->guard * sizeof(float), cudaMemcpyHostToDevice), "upload a guard");
    free(g);
}

// Allocates a guarded device buffer and uploads host_grid (cells floats) with
// guard patterns around it (host_grid NULL: left for the caller to fill).
// Exits with RUNNER_NO_MEMORY when it does not fit.
static runner_buffer runner_buffer_create(const float *host_grid, size_t cells, size_t guard)
{
    runner_buffer b;
    size_t total = cells + 2 * guard;
    cudaError_t err = cudaMalloc((void **)&b.d_base, total * sizeof(float));
    if (err != cudaSuccess) {
        size_t free_b = 0, total_b = 0;
        cudaGetLastError();
        cudaMemGetInfo(&free_b, &total_b);
        runner_fail(RUNNER_NO_MEMORY, "memory",
                    "cannot allocate %.2f GiB on the device (%.2f GiB free of %.2f GiB): %s",
                    total * 4.0 / (1 << 30), free_b / 1073741824.0, total_b / 1073741824.0,
                    cudaGetErrorString(err));
    }
    b.d_grid = b.d_base + guard;
    b.cells = cells;
    b.guard = guard;
    if (host_grid)
        runner_buffer_upload(&b, host_grid);
    return b;
}

// Writes the whole guarded buffer b to dir/name, through a host buffer of
// RUNNER_SAVE_CHUNK floats at most (no host copy of the whole grid).
#define RUNNER_SAVE_CHUNK ((size_t)16 << 20)
static void runner_buffer_save(const runner_buffer *b, const char *dir, const char *name)
{
    size_t total = b->cells + 2 * b->guard, chunk = total < RUNNER_SAVE_CHUNK ? total : RUNNER_SAVE_CHUNK;
    char path[4096];
    float *h = (float *)protocol_grid_alloc(chunk * sizeof(float));
    if (!h)
        runner_fail(RUNNER_NO_MEMORY, "memory", "host memory for %zu floats", chunk);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f != NULL;
    for (size_t at = 0; ok && at < total; at += chunk) {
        size_t n = total - at < chunk ? total - at : chunk;
        runner_check(cudaMemcpy(h, b->d_base + at, n * sizeof(float), cudaMemcpyDeviceToHost), "download a grid");
        ok = fwrite(h, sizeof(float), n, f) == n;
    }
    if (!f || fclose(f) != 0 || !ok)
        runner_fail(RUNNER_USAGE, "files", "cannot write %s: %s", path, strerror(errno));
    free(h);
}

// Reads exactly cells floats from dir/name into a new host array.
static float *runner_read_grid(const char *dir, const char *name, size_t cells)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    float *h = (float *)protocol_grid_alloc(cells * sizeof(float) + 1);
    FILE *f = fopen(path, "rb");
    if (!h || !f)
        runner_fail(RUNNER_USAGE, "files", "cannot read %s: %s", path, strerror(errno));
    size_t got = fread(h, sizeof(float), cells, f);
    fclose(f);
    if (got != cells)
        runner_fail(RUNNER_USAGE, "files", "%s holds %zu floats, expected %zu", path, got, cells);
    return h;
}

// The output a sweep's kernel is handed, in out (nx*ny*nz floats): the poison
// at the cells it must write (protocol_cell_written: a star's interior, or
// with every_cell all of them), the input elsewhere (the star_radius layers at
// each face). Nested loops, no division per cell (the largest cases hold 512 M).
static void runner_prepare_output(const float *in, float *out, size_t nx, size_t ny, size_t nz, int every_cell,
                                  int star_radius)
{
    for (size_t i = 0; i < nz; i++)
        for (size_t j = 0; j < ny; j++)
            for (size_t k = 0, c = (i * ny + j) * nx; k < nx; k++, c++) {
                if (protocol_cell_written(every_cell, star_radius, i, j, k, nx, ny, nz))
                    runner_fill_bits(&out[c], 1, POISON_BITS);
                else
                    out[c] = in[c];
            }
}

// ---------------------------------------------------------------------------
// Launch records
// ---------------------------------------------------------------------------

// Writes the launch records of the bracket that just ended into the report.
static void runner_report_launches(long count)
{
    runner_report("launches", "%ld", count);
    runner_report(LAUNCH_LOG_KEY_DEVICE_COPIES, "%.0f", launch_log_device_copies());
    for (long n = 0; n < count && n < LAUNCH_LOG_MAX; n++) {
        const launch_record *r = launch_log_record(n);
        char key[64];
        if (!r)
            break;
        snprintf(key, sizeof(key), "launch.%ld", n);
        runner_report(key, "kernel=%s grid=%u,%u,%u block=%u,%u,%u dynamic_smem=%zu static_smem=%zu regs=%d",
                      r->kernel, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
                      r->block[2], r->dynamic_smem, r->static_smem, r->regs);
    }
}

// Reports the error a student's launch function left behind, if any, and
// exits: the launch error first, then the error found on synchronising.
static void runner_check_student(cudaError_t launch_err, cudaError_t sync_err)
{
    if (launch_err != cudaSuccess)
        runner_fail(RUNNER_LAUNCH_FAILED, "launch", "%s (%s)", cudaGetErrorString(launch_err),
                    cudaGetErrorName(launch_err));
    if (sync_err != cudaSuccess)
        runner_fail(RUNNER_KERNEL_FAULT, "execute", "%s (%s)", cudaGetErrorString(sync_err),
                    cudaGetErrorName(sync_err));
}




#ifdef LAB_EMU
// The tile sizes the student's file declares: defined after it, at the end of
// the emulation runner (grader/emu/runner_tail.h).
extern const int runner_declared_tiles[3];

// Reports the declared tile sizes, for the OP/B model.
static void runner_report_tiles(void)
{
    static const char *names[3] = {"in_tile_dim", "out_tile_dim", "block_dim"};
    for (int i = 0; i < 3; i++)
        if (runner_declared_tiles[i] > 0)
            runner_report(names[i], "%d", runner_declared_tiles[i]);
}
#endif

// ---------------------------------------------------------------------------
// Kernels per iteration (lab 5)
// ---------------------------------------------------------------------------

// Writes the plain name of a kernel into out: "_Z12jacobi_sweepPKf..." (a
// mangled C++ name) becomes "jacobi_sweep"; any other name is kept.
static void runner_plain_name(const char *name, char *out, size_t len)
{
    char *end = NULL;
    unsigned long n = name[0] == '_' && name[1] == 'Z' ? strtoul(name + 2, &end, 10) : 0;
    if (n > 0 && end && strlen(end) >= n)
        snprintf(out, len, "%.*s", (int)n, end);
    else
        snprintf(out, len, "%s", name);
}

// Reports how often each kernel was launched ("kernel.<n>=<count> <name>",
// from the records kept: the first LAUNCH_LOG_MAX) and the launches per iteration.
static void runner_report_kernel_counts(long launches, int iters)
{
    char names[16][128];
    long counts[16];
    int kinds = 0;
    for (long n = 0; n < launches && n < LAUNCH_LOG_MAX; n++) {
        const launch_record *r = launch_log_record(n);
        char plain[128];
        int found = -1;
        if (!r)
            break;
        runner_plain_name(r->kernel, plain, sizeof(plain));
        for (int q = 0; q < kinds; q++)
            if (!strcmp(names[q], plain))
                found = q;
        if (found < 0 && kinds < LAUNCH_KERNEL_KINDS_MAX) {
            snprintf(names[kinds], sizeof(names[0]), "%s", plain);
            counts[kinds] = 0;
            found = kinds++;
        }
        if (found >= 0)
            counts[found]++;
    }
    runner_report("kernels", "%d", kinds);
    for (int q = 0; q < kinds; q++) {
        char key[32];
        snprintf(key, sizeof(key), "kernel.%d", q);
        runner_report(key, "%ld %s", counts[q], names[q]);
    }
    if (iters > 0)
        runner_report("launches_per_iteration", "%.3f", (double)launches / iters);
}

#endif // STENCIL_RUNNER_COMMON_H
