// tests/emu/test_faults.cu — fatal faults under CPU emulation, watched from
// outside: each scenario runs in a child process (this program run again with
// `--child NAME`), which must die with the runner's kernel-fault exit code (or
// the assert's abort), print one line naming the kernel, block and thread, and
// append error_stage=execute and error=... to the fault report file.
#include "emu_test.h"

#include <signal.h>

#define EXIT_KERNEL_FAULT 4  // RUNNER_KERNEL_FAULT in grader/protocol/protocol.h

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Thread (5,0,0) of block (2,0,0) writes 3 floats past the end of out.
__global__ void write_past_end(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 2 && threadIdx.x == 5)
        out[n + 3] = 1.0f;  // mark: write-past-end
    else if (i < n)
        out[i] = 2.0f;
}

// Thread (0,0,0) of block (0,0,0) reads two floats before the start of in.
__global__ void read_before_start(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i - 2 * (i == 0)];
}

// The last two threads read past the end of a shared tile.
template <int T>
__global__ void shared_past_end(float *out)
{
    __shared__ float tile[T];
    tile[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + 2];  // mark: shared-past-end
}

// Thread (7,0,0) of block (1,0,0) fails an assertion.
__global__ void asserting(const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(in[i] < 100.0f);
}

// Thread (4,0,0) overflows a signed int.
__global__ void overflowing(int *out, int base)
{
    out[threadIdx.x] = base + (int)threadIdx.x;  // mark: signed-overflow
}

// Recurses depth times with a local buffer (deep enough to overflow a stack).
__device__ float deep(int depth, float x)
{
    volatile float buffer[256];
    buffer[depth % 256] = x;
    return depth == 0 ? x : deep(depth - 1, x + 1.0f) + buffer[(depth * 7) % 256];
}

// Synchronises (so it runs on a fiber stack), then recurses too deep.
__global__ void recursing(float *out, int depth)
{
    __syncthreads();
    out[threadIdx.x] = deep(threadIdx.x == 1 ? depth : 0, 1.0f);
}

// ---------------------------------------------------------------------------
// Child scenarios (run in the child process; they must not return)
// ---------------------------------------------------------------------------

// Runs write_past_end over 4 blocks of 32 threads on 4*32 floats.
static void child_write_past_end(void)
{
    float *d;
    cudaMalloc(&d, 128 * sizeof(float));
    write_past_end<<<4, 32>>>(d, 128);
    cudaDeviceSynchronize();
}

// Runs read_before_start.
static void child_read_before_start(void)
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, 64 * sizeof(float));
    cudaMalloc(&d_out, 64 * sizeof(float));
    read_before_start<<<2, 32>>>(d_in, d_out);
    cudaDeviceSynchronize();
}

// Runs shared_past_end<24>.
static void child_shared_past_end(void)
{
    float *d;
    cudaMalloc(&d, 32 * sizeof(float));
    shared_past_end<24><<<1, 24>>>(d);
    cudaDeviceSynchronize();
}

// Reads device memory from host code.
static void child_host_reads_device(void)
{
    float *d;
    cudaMalloc(&d, 64 * sizeof(float));
    printf("%f\n", d[3]);
}

// Runs asserting on values that fail at thread 7 of block 1.
static void child_device_assert(void)
{
    float h[64] = {0}, *d;
    h[32 + 7] = 1000.0f;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    asserting<<<2, 32>>>(d);
    cudaDeviceSynchronize();
}

// Runs overflowing with a base 4 below INT_MAX.
static void child_signed_overflow(void)
{
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    overflowing<<<1, 8>>>(d, INT_MAX - 3);
    cudaDeviceSynchronize();
}

// Runs recursing deep enough to overflow a 64 KiB fiber stack.
static void child_stack_overflow(void)
{
    float *d;
    cudaMalloc(&d, 32 * sizeof(float));
    recursing<<<1, 2>>>(d, 100000);
    cudaDeviceSynchronize();
}

// Runs the scenario called name; returns 2 when it survived (or is unknown).
static int run_child_scenario(const char *name)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } scenarios[] = {{"write-past-end", child_write_past_end},   {"read-before-start", child_read_before_start},
                     {"shared-past-end", child_shared_past_end}, {"host-reads-device", child_host_reads_device},
                     {"device-assert", child_device_assert},     {"signed-overflow", child_signed_overflow},
                     {"stack-overflow", child_stack_overflow}};
    test_child_setup();
    for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
        if (!strcmp(scenarios[i].name, name))
            scenarios[i].run();
    fprintf(stderr, "child scenario '%s' survived\n", name);
    return 2;
}

// ---------------------------------------------------------------------------
// Tests (in the parent)
// ---------------------------------------------------------------------------

// Checks a child died with the kernel-fault exit code and reported message
// (the line every needle must be in) both on its output and in the report.
static void check_fault(const child_result *r, const char *first, const char *second, const char *third)
{
    if (!r->exited || r->exit_code != EXIT_KERNEL_FAULT)
        fail_msg("expected exit %d, got %s %d; output: %.2000s", EXIT_KERNEL_FAULT, r->exited ? "exit" : "signal",
                 r->exited ? r->exit_code : r->signal, r->output);
    const char *line = strstr(r->output, "stencil-emu: fatal: ");
    if (!line)
        fail_msg("no 'stencil-emu: fatal:' line in: %.3000s", r->output);
    char message[1200];
    snprintf(message, sizeof(message), "%.*s", (int)strcspn(line, "\n"), line);
    check_contains(message, first, second, third, NULL);
    check_contains(r->report, "error_stage=execute\n", "error=", first, second, third, NULL);
}

// Out of bounds in global memory: the thread and the allocation's end are named.
static void test_write_past_end(void **state)
{
    (void)state;
    child_result r = test_run_child("write-past-end");
    check_fault(&r, "kernel write_past_end, block (2,0,0), thread (5,0,0)",
                "out-of-bounds write of 4 bytes at", source_site("mark: write-past-end"));
    check_contains(r.output, "12 bytes after the end of a 512-byte cudaMalloc allocation", NULL);
    r = test_run_child("read-before-start");
    check_fault(&r, "kernel read_before_start, block (0,0,0), thread (0,0,0)", "read of 4 bytes",
                "8 bytes before the start of a 256-byte cudaMalloc allocation");
}

// Out of bounds in a template kernel's shared tile: the tile is named.
static void test_shared_past_end(void **state)
{
    (void)state;
    child_result r = test_run_child("shared-past-end");
    check_fault(&r, "block (0,0,0), thread (22,0,0)", "0 bytes after the end of the 96-byte __shared__ tile declared at",
                source_site("mark: shared-past-end"));
}

// Host code dereferencing a device pointer.
static void test_host_reads_device(void **state)
{
    (void)state;
    child_result r = test_run_child("host-reads-device");
    check_fault(&r, "host code: SEGV on a read at", "12 bytes into a 256-byte cudaMalloc allocation",
                "device pointers are only for kernels and cudaMemcpy");
}

// A failed assert() in a kernel is CUDA's device-side assert, with the thread.
static void test_device_assert(void **state)
{
    (void)state;
    child_result r = test_run_child("device-assert");
    assert_int_equal(r.signal, SIGABRT);
    check_contains(r.output, "kernel asserting, block (1,0,0), thread (7,0,0): device-side assert triggered",
                   "in[i] < 100.0f", NULL);
    check_contains(r.report, "error_stage=execute\n", "error=kernel asserting, block (1,0,0), thread (7,0,0)", NULL);
}

// Undefined behaviour (UBSan) stops the kernel, naming the thread and line.
static void test_signed_overflow(void **state)
{
    (void)state;
    child_result r = test_run_child("signed-overflow");
    check_fault(&r, "kernel overflowing, block (0,0,0), thread (4,0,0): undefined behaviour",
                "signed integer overflow", source_site("mark: signed-overflow"));
}

// A CUDA thread overflowing its fiber stack is named, with the way out.
static void test_stack_overflow(void **state)
{
    (void)state;
    setenv("STENCIL_EMU_STACK_KB", "64", 1);
    child_result r = test_run_child("stack-overflow");
    unsetenv("STENCIL_EMU_STACK_KB");
    check_fault(&r, "kernel recursing, block (0,0,0), thread (1,0,0)", "stack overflow", "STENCIL_EMU_STACK_KB");
}

// Runs the suite, or one child scenario (--child NAME).
int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--child"))
        return run_child_scenario(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_past_end),    cmocka_unit_test(test_shared_past_end),
        cmocka_unit_test(test_host_reads_device), cmocka_unit_test(test_device_assert),
        cmocka_unit_test(test_signed_overflow),   cmocka_unit_test(test_stack_overflow),
    };
    test_seed("faults");
    return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
