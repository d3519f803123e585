// tests/emu/test_shared.cu — shared memory under CPU emulation: barriers
// between writers and readers, the thread orders that expose a missing one,
// extern __shared__ memory, NaN poisoning, multi-dimensional tiles in a
// template kernel, and the static size the runtime counts.
#include "emu_test.h"

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

#define REVERSE_BLOCK 256

// Reverses each block's slice of in into out through shared memory.
__global__ void reverse_with_barrier(const float *in, float *out)
{
    __shared__ float s[REVERSE_BLOCK];
    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - t];
}

// The same without the barrier: a thread may read a slot not written yet.
__global__ void reverse_without_barrier(const float *in, float *out)
{
    __shared__ float s[REVERSE_BLOCK];
    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    out[i] = s[blockDim.x - 1 - t];
}

// Rotates each block's slice by one through dynamic shared memory, and adds
// a second row written through another extern view of the same memory.
__global__ void rotate_dynamic(const float *in, float *out, int *same_address)
{
    extern __shared__ float row[];
    extern __shared__ int alias[];
    unsigned int t = threadIdx.x, n = blockDim.x, i = blockIdx.x * n + t;
    row[t] = in[i];
    row[n + t] = 2.0f * in[i];
    __syncthreads();
    out[i] = row[(t + 1) % n] + row[n + (n - 1 - t)];
    if (i == 0)
        *same_address = (void *)alias == (void *)row;
}

// Reads the shared slots only block 0 and even threads write: the others
// read what the runtime left there.
__global__ void read_unwritten(float *out)
{
    __shared__ float s[64];
    extern __shared__ float dyn[];
    unsigned int t = threadIdx.x;
    if (blockIdx.x == 0 || t % 2 == 0) {
        s[t] = (float)t;
        dyn[t] = (float)t;
    }
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t];
    out[blockIdx.x * 128 + 64 + t] = dyn[t];
}

// Transposes a rows x cols matrix through a padded TILE x TILE shared tile.
template <int TILE, typename T>
__global__ void transpose_tiled(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
    __shared__ T tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < rows && ty < cols)
        out[(size_t)ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

// Runs reverse_without_barrier (or with, when barrier) under order; copies
// the result into h_out.
static void run_reverse(int barrier, const char *order, const float *h_in, float *h_out, int blocks)
{
    size_t n = (size_t)blocks * REVERSE_BLOCK;
    float *d_in, *d_out;
    assert_int_equal(emu_set_order(order, 42), 0);
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    if (barrier)
        reverse_with_barrier<<<blocks, REVERSE_BLOCK>>>(d_in, d_out);
    else
        reverse_without_barrier<<<blocks, REVERSE_BLOCK>>>(d_in, d_out);
    check_cuda(cudaGetLastError(), "launch");
    check_cuda(cudaDeviceSynchronize(), "synchronize");
    check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    cudaFree(d_in);
    cudaFree(d_out);
    emu_set_order("forward", 1);
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// With the barrier, every order reverses every block exactly.
static void test_reverse_with_barrier_all_orders(void **state)
{
    (void)state;
    const char *orders[] = {"forward", "reverse", "shuffle"};
    int blocks = test_random_int(2, 9);
    size_t n = (size_t)blocks * REVERSE_BLOCK;
    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    test_fill_floats(h_in, n);
    for (int o = 0; o < 3; o++) {
        run_reverse(1, orders[o], h_in, h_out, blocks);
        for (size_t i = 0; i < n; i++) {
            size_t b = i / REVERSE_BLOCK, t = i % REVERSE_BLOCK;
            if (h_out[i] != h_in[b * REVERSE_BLOCK + REVERSE_BLOCK - 1 - t])
                fail_msg("order %s: out[%zu] = %g, expected %g", orders[o], i, h_out[i],
                         h_in[b * REVERSE_BLOCK + REVERSE_BLOCK - 1 - t]);
        }
    }
    free(h_in);
    free(h_out);
}

// Without it, forward and reverse orders give different results, and the
// early readers see NaN (never-written shared memory), not stale data.
static void test_reverse_without_barrier_differs_by_order(void **state)
{
    (void)state;
    int blocks = test_random_int(2, 5);
    size_t n = (size_t)blocks * REVERSE_BLOCK;
    float *h_in = (float *)malloc(n * sizeof(float));
    float *fwd = (float *)malloc(n * sizeof(float)), *rev = (float *)malloc(n * sizeof(float));
    test_fill_floats(h_in, n);
    run_reverse(0, "forward", h_in, fwd, blocks);
    run_reverse(0, "reverse", h_in, rev, blocks);
    size_t differ = 0, nan_fwd = 0;
    for (size_t i = 0; i < n; i++) {
        differ += memcmp(&fwd[i], &rev[i], sizeof(float)) != 0;
        nan_fwd += isnan(fwd[i]);
    }
    assert_int_equal(differ, n);                   // every slot read differs: one order sees NaN
    assert_int_equal(nan_fwd, n / 2);              // forward: the first half of each block reads unwritten slots
    for (size_t i = 0; i < n; i++)
        if (i % REVERSE_BLOCK >= REVERSE_BLOCK / 2)
            assert_true(fwd[i] == h_in[i - i % REVERSE_BLOCK + REVERSE_BLOCK - 1 - i % REVERSE_BLOCK]);
    free(h_in);
    free(fwd);
    free(rev);
}

// extern __shared__ arrays all start at the launch's dynamic shared memory.
static void test_dynamic_shared_memory(void **state)
{
    (void)state;
    int threads = test_random_int(2, 512), blocks = test_random_int(1, 6);
    size_t n = (size_t)threads * blocks;
    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    float *d_in, *d_out;
    int *d_same, h_same = 0;
    test_fill_floats(h_in, n);
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_same, sizeof(int)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    rotate_dynamic<<<blocks, threads, 2 * threads * sizeof(float)>>>(d_in, d_out, d_same);
    check_cuda(cudaGetLastError(), "launch");
    check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    check_cuda(cudaMemcpy(&h_same, d_same, sizeof(int), cudaMemcpyDeviceToHost), "download");
    assert_int_equal(h_same, 1);
    for (size_t i = 0; i < n; i++) {
        size_t base = i - i % threads, t = i % threads;
        float expected = h_in[base + (t + 1) % threads] + 2.0f * h_in[base + threads - 1 - t];
        if (h_out[i] != expected)
            fail_msg("out[%zu] = %g, expected %g (block of %d threads)", i, h_out[i], expected, threads);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_same);
    free(h_in);
    free(h_out);
}

// Shared memory a block did not write reads as NaN, in every block (static
// and dynamic), even after an earlier block wrote the same slots.
static void test_unwritten_shared_reads_nan(void **state)
{
    (void)state;
    int blocks = test_random_int(2, 4);
    float *d_out, h_out[4 * 128];
    check_cuda(cudaMalloc(&d_out, sizeof(h_out)), "cudaMalloc");
    read_unwritten<<<blocks, 64, 64 * sizeof(float)>>>(d_out);
    check_cuda(cudaMemcpy(h_out, d_out, blocks * 128 * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < 64; t++) {
            int written = b == 0 || t % 2 == 0;
            for (int half = 0; half < 2; half++) {
                float v = h_out[b * 128 + half * 64 + t];
                if (written ? v != (float)t : !isnan(v))
                    fail_msg("block %d thread %d (%s shared): read %g, expected %s", b, t,
                             half ? "dynamic" : "static", v, written ? "its index" : "NaN");
            }
        }
    cudaFree(d_out);
}

// A template kernel with a two-dimensional tile, launched over several
// lines, transposes a matrix whose sides are not multiples of the tile; its
// static shared size is known once it ran.
static void test_template_tile_transpose(void **state)
{
    (void)state;
    int rows = test_random_int(17, 70), cols = test_random_int(17, 70);
    size_t n = (size_t)rows * cols;
    float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
    float *d_in, *d_out;
    cudaFuncAttributes attr;
    test_fill_floats(h_in, n);
    check_cuda(cudaMalloc(&d_in, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc");
    check_cuda(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    transpose_tiled<16, float><<<grid,
                                 dim3(16, 16)>>>(d_in,
                                                 d_out, rows,
                                                 cols);
    check_cuda(cudaGetLastError(), "launch");
    check_cuda(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "download");
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            if (h_out[(size_t)x * rows + y] != h_in[(size_t)y * cols + x])
                fail_msg("transpose (%d x %d): out[%d][%d] = %g, expected %g", rows, cols, x, y,
                         h_out[(size_t)x * rows + y], h_in[(size_t)y * cols + x]);
    check_cuda(cudaFuncGetAttributes(&attr, transpose_tiled<16, float>), "cudaFuncGetAttributes");
    assert_int_equal(attr.sharedSizeBytes, 16 * 17 * sizeof(float));
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
}

// Runs the suite; exits non-zero when a test failed.
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_reverse_with_barrier_all_orders, test_reset_device),
        cmocka_unit_test_setup(test_reverse_without_barrier_differs_by_order, test_reset_device),
        cmocka_unit_test_setup(test_dynamic_shared_memory, test_reset_device),
        cmocka_unit_test_setup(test_unwritten_shared_reads_nan, test_reset_device),
        cmocka_unit_test_setup(test_template_tile_transpose, test_reset_device),
    };
    test_seed("shared");
    return cmocka_run_group_tests_name("shared", tests, NULL, NULL);
}
