// tests/emu/test_faults.cu — fatal faults under CPU emulation, watched from
// outside: each scenario runs in a child process (this program run again with
// `--child NAME`), which must die with the runner's kernel-fault exit code (or
// the assert's abort), print one line naming the kernel, block and thread, and
// append error_stage=execute and error=... to the fault report file. What the
// runtime refuses outright (a launch from a kernel, a malformed STENCIL_EMU_
// option) ends the child with status 2 and one line; a fiber stack asked below
// the runtime's least still runs a block with barriers.
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

// Launched by launching_parent: never runs (a launch from device code is refused).
__global__ void launched_child(float *out)
{
    out[threadIdx.x] = 1.0f;
}

// Launches launched_child from device code (dynamic parallelism).
__global__ void launching_parent(float *out)
{
    launched_child<<<1, 4>>>(out);  // mark: launch-in-kernel
}

// Reverses a block of floats through shared memory (a barrier: every thread a fiber).
__global__ void reverse_block(float *data)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    tile[t] = data[t];
    __syncthreads();
    data[t] = tile[blockDim.x - 1 - t];
}

// Launches a kernel from inside a kernel.
static void child_launch_in_kernel(void)
{
    float *d;
    cudaMalloc(&d, 4 * sizeof(float));
    launching_parent<<<1, 1>>>(d);
    cudaDeviceSynchronize();
}

// Makes the runtime read its options (the parent set a malformed one).
static void child_reads_options(void)
{
    cudaFree(0);
}

// Reverses 128 floats with fibers on the stacks STENCIL_EMU_STACK_KB asked; exits 0 when right.
static void child_small_stack(void)
{
    float h[128], *d;
    for (int i = 0; i < 128; i++)
        h[i] = (float)i;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    reverse_block<<<1, 128>>>(d);
    cudaError_t err = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 128; i++)
        if (h[i] != (float)(127 - i))
            exit(3);
    exit(err == cudaSuccess ? 0 : 4);
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
                     {"stack-overflow", child_stack_overflow},   {"launch-in-kernel", child_launch_in_kernel},
                     {"reads-options", child_reads_options},     {"small-stack", child_small_stack}};
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

// Each refusal ends the program with status 2 and its one line: a launch from
// device code (named with its line), an order or a seed that is no option's
// value (a random one, named).
static void test_refusals_end_the_program(void **state)
{
    (void)state;
    char bad_seed[32], bad_order[32], seed_line[96], order_line[128];
    snprintf(bad_seed, sizeof(bad_seed), "%dx", test_random_int(0, 99999));
    snprintf(bad_order, sizeof(bad_order), "sideways-%d", test_random_int(0, 99999));
    snprintf(seed_line, sizeof(seed_line), "STENCIL_EMU_SEED must be a number (got '%s')", bad_seed);
    snprintf(order_line, sizeof(order_line), "STENCIL_EMU_BLOCK_ORDER must be forward, reverse or shuffle (got '%s')", bad_order);
    const struct {
        const char *scenario, *variable, *value, *line;  // the child, what it is given, what it must say
    } refusals[] = {
        {"launch-in-kernel", NULL, NULL, "launches launched_child from inside a kernel; dynamic parallelism is not emulated"},
        {"reads-options", "STENCIL_EMU_SEED", bad_seed, seed_line},
        {"reads-options", "STENCIL_EMU_BLOCK_ORDER", bad_order, order_line},
    };
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        if (refusals[i].variable)
            setenv(refusals[i].variable, refusals[i].value, 1);
        child_result r = test_run_child(refusals[i].scenario);
        if (refusals[i].variable)
            unsetenv(refusals[i].variable);
        if (!r.exited || r.exit_code != 2)
            fail_msg("%s: expected exit 2, got %s %d; output: %.2000s", refusals[i].scenario, r.exited ? "exit" : "signal",
                     r.exited ? r.exit_code : r.signal, r.output);
        check_contains(r.output, "stencil-emu: ", refusals[i].line, NULL);
    }
    child_result r = test_run_child("launch-in-kernel");
    check_contains(r.output, source_site("mark: launch-in-kernel"), NULL);
}

// A fiber stack asked below the least the runtime gives (16 KiB) is raised to it: a block with barriers runs right.
static void test_small_stack_raised(void **state)
{
    (void)state;
    char kb[16];
    snprintf(kb, sizeof(kb), "%d", test_random_int(1, 15));
    setenv("STENCIL_EMU_STACK_KB", kb, 1);
    child_result r = test_run_child("small-stack");
    unsetenv("STENCIL_EMU_STACK_KB");
    if (!r.exited || r.exit_code != 0)
        fail_msg("STENCIL_EMU_STACK_KB=%s: expected exit 0, got %s %d; output: %.2000s", kb, r.exited ? "exit" : "signal",
                 r.exited ? r.exit_code : r.signal, r.output);
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
        cmocka_unit_test(test_refusals_end_the_program), cmocka_unit_test(test_small_stack_raised),
    };
    test_seed("faults");
    return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
