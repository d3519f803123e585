// tests/unit/test_parts.c — the judge's smaller parts: random numbers, the
// runner's report, technique checks and OP/B models, child processes, and
// the JSON report (checked with a real JSON parser).
#include "test_util.h"
#include "launch_log.h"

#include <math.h>
#include <omp.h>
#include <time.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "judge.h"
#include "judge_files.h"
#include "grid_fill.h"
#include "grid_memory.h"
#include "rng.h"
#include "kv.h"
#include "ncu.h"
#include "report.h"
#include "spawn.h"
#include "technique.h"
#include "worker_pool.h"
#include "yardstick_cache.h"

// ---------------------------------------------------------------------------
// rng
// ---------------------------------------------------------------------------

static void test_rng_reproducible_and_in_range(void **state)
{
    (void)state;
    rng a, b;
    uint64_t seed = test_seed();
    rng_init(&a, seed);
    rng_init(&b, seed);
    int negative = 0, positive = 0;
    for (int i = 0; i < 10000; i++) {
        float x = rng_unit(&a);
        assert_true(x == rng_unit(&b));
        assert_true(x >= -1.0f && x < 1.0f);
        negative += x < 0;
        positive += x > 0;
    }
    assert_true(negative > 4000 && positive > 4000);
    assert_true(rng_case_seed(seed, 0) != rng_case_seed(seed, 1));
    assert_true(rng_case_seed(seed, 3) == rng_case_seed(seed, 3));
}

// rng_fill gives the same grid on one thread and on several, each cell the
// value grid_fill.h gives its index under the seed returned (what the
// executor draws on the GPU), every value in range, and the next draw moves
// on; rng_grid_sum is the same on one thread and several and changes when
// two cells change places.
static void test_rng_fill_threads(void **state)
{
    (void)state;
    size_t n = ((size_t)1 << 22) + 12345;  // past the size filled in parallel
    float *one = malloc(n * sizeof(float)), *many = malloc(n * sizeof(float));
    assert_non_null(one);
    assert_non_null(many);
    uint64_t seed = test_seed() + 11;
    rng a, b;
    rng_init(&a, seed);
    rng_init(&b, seed);
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    uint64_t drawn = rng_fill(&a, one, n);
    uint64_t sum_one = rng_grid_sum(one, n, 0);
    omp_set_num_threads(threads > 1 ? threads : 3);
    assert_true(rng_fill(&b, many, n) == drawn);
    assert_true(rng_grid_sum(many, n, 0) == sum_one);
    omp_set_num_threads(threads);
    assert_memory_equal(one, many, n * sizeof(float));
    assert_true(rng_next(&a) == rng_next(&b));
    size_t repeats = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(one[i] >= -1.0f && one[i] < 1.0f);
        assert_true(one[i] == grid_fill_value(drawn, i));
        repeats += i > 0 && one[i] == one[i - 1];
    }
    assert_true(repeats < n / 1000);  // values about 2^-23 apart: neighbours equal rarely
    size_t i = n / 3, j = 2 * n / 3;
    while (one[i] == one[j])
        j++;
    float t = one[i];
    one[i] = one[j], one[j] = t;
    assert_true(rng_grid_sum(one, n, 0) != sum_one);  // a value moved shows
    rng_fill(&a, many, n);                         // the next fill from the same generator is another grid
    assert_true(memcmp(one, many, 4096 * sizeof(float)) != 0);
    free(one);
    free(many);
}

// 1 if /proc/self/smaps says the mapping holding p may take huge pages
// (THPeligible: 1), 0 if not, -1 if it cannot tell.
static int test_thp_eligible(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int inside = 0, eligible = -1;
    while (f && eligible < 0 && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        int value;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (inside && sscanf(line, "THPeligible: %d", &value) == 1)
            eligible = value;
    }
    if (f)
        fclose(f);
    return eligible;
}

// protocol_grid_alloc gives n floats' memory, writable, that free() frees, small or large;
// where the kernel lends transparent huge pages (not "[never]"), a grid of
// megabytes may take them (its mapping THPeligible), and rng_fill draws into
// it what it draws anywhere.
static void test_grid_alloc(void **state)
{
    (void)state;
    size_t sizes[] = {1, 1000, ((size_t)16 << 20) + 7};  // 16 Mi floats and a few: 64 MiB
    FILE *mode = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char modes[128] = "";
    if (mode) {
        if (!fgets(modes, sizeof(modes), mode))
            modes[0] = '\0';
        fclose(mode);
    }
    for (int q = 0; q < 3; q++) {
        float *g = (float *)protocol_grid_alloc(sizes[q] * sizeof(float)), *plain = malloc(sizes[q] * sizeof(float));
        assert_non_null(g);
        assert_non_null(plain);
        rng a, b;
        rng_init(&a, test_seed() + 31 + (uint64_t)q);
        b = a;
        rng_fill(&a, g, sizes[q]);
        rng_fill(&b, plain, sizes[q]);
        assert_memory_equal(g, plain, sizes[q] * sizeof(float));
        if (q == 2 && modes[0] && !strstr(modes, "[never]"))
            assert_int_equal(test_thp_eligible(g + sizes[q] / 2), 1);
        else if (q == 2)
            print_message("  (this kernel lends no transparent huge pages: %s)\n", modes[0] ? "[never]" : "no setting to read");
        free(g);
        free(plain);
    }
}

// rng_fill_seed takes the seed rng_fill draws from and moves the generator
// as it does; rng_fill_range draws any part of that grid, cell for cell the
// whole grid's; rng_fill_sum is the whole grid's rng_grid_sum under any key,
// on one thread and several, with no grid, and both the sum of the plain
// loop over grid_fill_term (the CPU's vector code, where RNG_WIDE picks it,
// gives the same bits).
static void test_rng_fill_parts(void **state)
{
    (void)state;
    size_t n = ((size_t)1 << 22) + 777;
    float *whole = malloc(n * sizeof(float)), *part = malloc(n * sizeof(float));
    assert_non_null(whole);
    assert_non_null(part);
    rng a, b;
    rng_init(&a, test_seed() + 23);
    rng_init(&b, test_seed() + 23);
    uint64_t seed = rng_fill(&a, whole, n);
    assert_true(rng_fill_seed(&b) == seed);
    assert_true(rng_next(&a) == rng_next(&b));
    size_t from = n / 5 + (size_t)(test_seed() % 1000), to = n - 3;
    memset(part, 0, n * sizeof(float));
    rng_fill_range(seed, part, from, to);
    assert_memory_equal(part + from, whole + from, (to - from) * sizeof(float));
    assert_true(part[from - 1] == 0.0f && part[to] == 0.0f);  // nothing drawn outside the range
    uint64_t key = test_seed() | 1, plain = 0;
    for (size_t i = 0; i < n; i++) {  // cell by cell in this file's plain code: RNG_WIDE's vectors give the same bits
        uint32_t bits;
        memcpy(&bits, &whole[i], sizeof(bits));
        plain += grid_fill_term(key, i, bits);
    }
    assert_true(rng_grid_sum(whole, n, key) == plain);
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    assert_true(rng_fill_sum(seed, n, key) == rng_grid_sum(whole, n, key));
    omp_set_num_threads(threads > 1 ? threads : 3);
    assert_true(rng_fill_sum(seed, n, 0) == rng_grid_sum(whole, n, 0));
    omp_set_num_threads(threads);
    assert_true(rng_fill_sum(seed, n - 1, 0) != rng_grid_sum(whole, n, 0));
    free(whole);
    free(part);
}

static void test_coefficients_distinct(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() + 7);
    for (int round = 0; round < 200; round++) {
        float c[7];
        rng_coefficients(&r, c, 7);
        for (int i = 0; i < 7; i++) {
            assert_true(fabsf(c[i]) >= 0.1f && fabsf(c[i]) <= 1.0f);
            for (int j = 0; j < i; j++) {
                assert_true(fabsf(c[i] - c[j]) >= 0.05f);
                assert_true(fabsf(fabsf(c[i]) - fabsf(c[j])) >= 0.05f);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// kv, technique, OP/B
// ---------------------------------------------------------------------------

// Loads a report from text.
static void load_report(const char *text, kv_list *kv)
{
    char path[64];
    test_write_file(path, sizeof(path), text);
    assert_int_equal(kv_load(path, kv), 0);
    unlink(path);
}

static void test_kv(void **state)
{
    (void)state;
    kv_list kv;
    load_report("a=1\nname=NVIDIA H200\nnot a pair\n=x\na=2.5\n", &kv);
    assert_int_equal(kv.n, 3);
    assert_string_equal(kv_get(&kv, "name"), "NVIDIA H200");
    assert_true(kv_number(&kv, "a", 0) == 2.5);  // the later line wins
    assert_true(kv_number(&kv, "name", -1) == -1);
    assert_null(kv_get(&kv, "missing"));
    kv_free(&kv);
    assert_int_equal(kv_load("/nonexistent/report.txt", &kv), -1);
}

// A report with one launch of the given grid, block and shared memory.
static technique_result check_launch(const char *technique, int tile, const char *grid, const char *block,
                                     int smem, unsigned int n)
{
    char text[512];
    kv_list kv;
    snprintf(text, sizeof(text), "in_tile_dim=%d\nlaunches=1\nlaunch.0=kernel=stencil_kernel grid=%s block=%s dynamic_smem=0 static_smem=%d regs=32\n",
             tile, grid, block, smem);
    load_report(text, &kv);
    technique_result r = technique_check(technique, &kv, n, 1);
    kv_free(&kv);
    return r;
}

static void test_techniques(void **state)
{
    (void)state;
    // Lab 1: one thread per point, a grid-stride loop or a z loop; not one block.
    assert_int_equal(check_launch("naive", 0, "32,32,32", "8,8,8", 0, 256).status, TECHNIQUE_OK);
    technique_result stride = check_launch("naive", 0, "1024,1,1", "256,1,1", 0, 256);
    assert_int_equal(stride.status, TECHNIQUE_OK);
    assert_non_null(strstr(stride.detail, "threads that loop"));
    assert_int_equal(check_launch("naive", 0, "16,16,1", "16,16,1", 0, 256).status, TECHNIQUE_OK);   // 2D grid, threads loop over z
    assert_int_equal(check_launch("naive", 0, "1,1,1", "1024,1,1", 0, 256).status, TECHNIQUE_FAIL);  // one block
    assert_int_equal(check_launch("naive", 0, "1,1,1", "1,1,1", 0, 3).status, TECHNIQUE_OK);         // one interior point: one thread
    // Lab 2: any 3D tile in shared memory, block = input or output tile.
    assert_int_equal(check_launch("shared-tile", 8, "43,43,43", "8,8,8", 2048, 256).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("shared-tile", 8, "43,43,43", "6,6,6", 2048, 256).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("shared-tile", 4, "128,128,128", "4,4,4", 256, 256).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("shared-tile", 0, "11,43,43", "16,8,4", 2048, 256).status, TECHNIQUE_OK);  // rectangular, tile not declared
    assert_int_equal(check_launch("shared-tile", 8, "32,32,32", "8,8,8", 0, 256).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch("shared-tile", 16, "22,22,22", "16,16,1", 16384, 129).status, TECHNIQUE_OK);  // a plane of threads loading a 3D tile
    assert_int_equal(check_launch("shared-tile", 8, "4096,1,1", "256,1,1", 2048, 129).status, TECHNIQUE_OK);   // a flat block loading it
    assert_int_equal(check_launch("shared-tile", 8, "32,32,256", "8,8,1", 64, 256).status, TECHNIQUE_FAIL);    // less than the block's floats
    // Lab 3: any T, rectangular tiles, output-tile blocks, whole-z marches; three planes.
    assert_int_equal(check_launch("z-coarsening", 32, "9,9,9", "32,32,1", 12288, 256).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("z-coarsening", 8, "22,22,22", "8,8,1", 768, 129).status, TECHNIQUE_OK);     // T=8: the old rule failed it
    assert_int_equal(check_launch("z-coarsening", 16, "9,9,1", "16,16,1", 3072, 129).status, TECHNIQUE_OK);    // the whole z range per block
    assert_int_equal(check_launch("z-coarsening", 8, "22,22,22", "6,6,1", 768, 129).status, TECHNIQUE_OK);     // block = output tile
    assert_int_equal(check_launch("z-coarsening", 32, "5,22,5", "32,8,1", 3072, 129).status, TECHNIQUE_OK);    // 32x8 tile
    assert_int_equal(check_launch("z-coarsening", 32, "9,9,9", "32,32,1", 4096, 256).status, TECHNIQUE_FAIL);
    technique_result naive3 = check_launch("z-coarsening", 32, "8,8,256", "32,32,1", 12288, 256);
    assert_int_equal(naive3.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(naive3.detail, "march"));
    assert_int_equal(check_launch("z-coarsening", 8, "17,17,129", "8,8,1", 768, 129).status, TECHNIQUE_FAIL);   // one thread per point
    assert_int_equal(check_launch("z-coarsening", 8, "22,22,22", "8,8,8", 6144, 129).status, TECHNIQUE_FAIL);   // lab 2's 3D tile
    assert_int_equal(check_launch("z-coarsening", 0, "8000,1,1", "256,1,1", 3072, 129).status, TECHNIQUE_FAIL); // flat, one per point
    // Lab 4: a plane in shared memory, fewer than three.
    assert_int_equal(check_launch("register-tiling", 32, "9,9,9", "32,32,1", 4096, 256).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("register-tiling", 8, "22,22,22", "8,8,1", 256, 129).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("register-tiling", 8, "22,22,22", "6,6,1", 256, 129).status, TECHNIQUE_OK);   // output-tile block, 8x8 plane
    assert_int_equal(check_launch("register-tiling", 16, "9,9,9", "16,16,1", 2048, 129).status, TECHNIQUE_OK);  // two planes (double buffer)
    assert_int_equal(check_launch("register-tiling", 32, "9,9,9", "32,32,1", 12288, 256).status, TECHNIQUE_FAIL); // three planes: lab 3
    assert_int_equal(check_launch("register-tiling", 32, "9,9,9", "32,32,1", 0, 256).status, TECHNIQUE_FAIL);     // no plane at all
    // Threads computing several rows each: 32x8 threads on a 32x32 tile (30x30 computed, 5x5 blocks
    // at N=129) keep one 32x32 plane, 4096 B, four of the block's planes; or two, double-buffered;
    // not three (lab 3's). The same with 32x16 threads two rows each, and at N=256.
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,8,1", 4096, 129).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,8,1", 8192, 129).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,8,1", 12288, 129).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch("register-tiling", 32, "9,9,9", "32,16,1", 4224, 256).status, TECHNIQUE_OK);  // a padded 33x32 plane
    // ... at N=129, where 5x5 blocks say only that a tile is at least 26x26 (more than 32x16 points):
    // two 32x32 planes double-buffered pass, three do not
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,16,1", 8192, 129).status, TECHNIQUE_OK);
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,16,1", 12288, 129).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,32,1", 12288, 129).status, TECHNIQUE_FAIL);  // a point a thread: three planes
    assert_int_equal(check_launch("register-tiling", 32, "9,9,9", "32,16,1", 12288, 256).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch("register-tiling", 32, "5,5,5", "32,8,1", 512, 129).status, TECHNIQUE_FAIL);   // less than the block's plane
    // A block the size of the output tile with one plane and its halo, double-buffered: a 16x16 block of
    // radius 2 (2 x 20 x 20 floats, 3200 B, more than three of the block's 1024 B planes) passes; three
    // planes of a 16x16 block of radius 1 (3072 B, over two 18x18 planes, 2592 B) do not.
    kv_list kv2;
    load_report("launches=1\nlaunch.0=kernel=stencil_kernel grid=8,8,8 block=16,16,1 dynamic_smem=0 static_smem=3200 regs=32\n", &kv2);
    assert_int_equal(technique_check("register-tiling", &kv2, 129, 2).status, TECHNIQUE_OK);
    kv_list kv3;  // radius 2, 32x8 threads on a 32x32 tile (28x28 computed: 5x5 blocks at N=129): one plane, not three
    load_report("launches=1\nlaunch.0=kernel=stencil_kernel grid=5,5,5 block=32,8,1 dynamic_smem=0 static_smem=4096 regs=40\n", &kv3);
    assert_int_equal(technique_check("register-tiling", &kv3, 129, 2).status, TECHNIQUE_OK);
    kv_free(&kv3);
    load_report("launches=1\nlaunch.0=kernel=stencil_kernel grid=5,5,5 block=32,8,1 dynamic_smem=0 static_smem=12288 regs=40\n", &kv3);
    assert_int_equal(technique_check("register-tiling", &kv3, 129, 2).status, TECHNIQUE_FAIL);
    kv_free(&kv3);
    kv_free(&kv2);
    assert_int_equal(check_launch("register-tiling", 16, "8,8,8", "16,16,1", 3072, 129).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch("unheard-of", 32, "9,9,9", "32,32,1", 0, 256).status, TECHNIQUE_NA);
    // No launch records, or two launches.
    kv_list kv;
    load_report("launch_log_error=CUPTI unavailable\n", &kv);
    technique_result r = technique_check("naive", &kv, 64, 1);
    assert_int_equal(r.status, TECHNIQUE_NA);
    assert_non_null(strstr(r.detail, "CUPTI unavailable"));
    kv_free(&kv);
    load_report("launches=2\n", &kv);
    assert_int_equal(technique_check("naive", &kv, 64, 1).status, TECHNIQUE_FAIL);
    kv_free(&kv);
}

// A report with one launch, judged on an nx×ny×nz grid.
static technique_result check_launch_grid(const char *technique, const char *grid, const char *block, int smem,
                                          unsigned int nx, unsigned int ny, unsigned int nz)
{
    char text[512];
    kv_list kv;
    const unsigned int size[3] = {nx, ny, nz};
    snprintf(text, sizeof(text), "launches=1\nlaunch.0=kernel=sweep_kernel grid=%s block=%s dynamic_smem=0 static_smem=%d regs=32\n",
             grid, block, smem);
    load_report(text, &kv);
    technique_result r = technique_check_grid(technique, &kv, size, 1);
    kv_free(&kv);
    return r;
}

// The rules on grids that are no cube: interior points and planes from each axis's own size.
static void test_techniques_grid(void **state)
{
    (void)state;
    // The speed technique: the naive rule, said for a lab graded on its speed; z-marching 2D grids pass.
    technique_result big = check_launch_grid("speed", "128,512,1", "32,8,1", 0, 4096, 4096, 32);
    assert_int_equal(big.status, TECHNIQUE_OK);
    assert_non_null(strstr(big.detail, "4096x4096x32"));
    assert_non_null(strstr(big.detail, "16777216 threads for 502825080 interior points"));
    assert_non_null(strstr(big.detail, "speed line"));
    technique_result one = check_launch_grid("speed", "1,1,1", "1024,1,1", 0, 257, 129, 65);
    assert_int_equal(one.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(one.detail, "too few threads"));
    // A z march of a 4x4 patch a thread (2048 threads, about 1000 points each) is spread enough for
    // the speed lab (the floor: one thread a 1024 points, 1993 here), not for lab 1's rule (4096).
    technique_result patch = check_launch_grid("speed", "3,6,1", "32,4,1", 0, 257, 129, 65);
    assert_int_equal(patch.status, TECHNIQUE_OK);
    assert_non_null(strstr(patch.detail, "2304 threads for 2040255 interior points"));
    assert_non_null(strstr(patch.detail, "at least 1993 needed"));
    assert_int_equal(check_launch_grid("naive", "3,6,1", "32,4,1", 0, 257, 129, 65).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch_grid("speed", "1,1,1", "1992,1,1", 0, 257, 129, 65).status, TECHNIQUE_FAIL);
    // An interior one layer thick in y: 35 points, all of them need a thread.
    assert_int_equal(check_launch_grid("naive", "1,1,1", "4,1,8", 0, 7, 3, 9).status, TECHNIQUE_FAIL);
    assert_int_equal(check_launch_grid("naive", "1,1,1", "5,1,7", 0, 7, 3, 9).status, TECHNIQUE_OK);
    // A z march counts the grid's own z planes: 30 marching layers of 62 interior planes.
    technique_result z = check_launch_grid("register-tiling", "5,9,1", "32,32,1", 4096, 130, 258, 64);
    assert_int_equal(z.status, TECHNIQUE_OK);
    assert_non_null(strstr(z.detail, "for 62 planes"));
    // A cube judged through the grid entry: the same verdict and words as technique_check.
    technique_result cube = check_launch_grid("naive", "32,32,32", "8,8,8", 0, 256, 256, 256);
    technique_result old = check_launch("naive", 0, "32,32,32", "8,8,8", 0, 256);
    assert_int_equal(cube.status, old.status);
    assert_non_null(strstr(old.detail, "(N=256;"));
}

static void test_opb_models(void **state)
{
    (void)state;
    opb_model m;
    assert_int_equal(opb_book_model("naive", 0, 0, 1, &m), 0);
    assert_true(fabs(m.book - 13.0 / 28.0) < 1e-12);
    assert_int_equal(opb_book_model("shared-tile", 8, 0, 1, &m), 0);
    assert_true(fabs(m.book - 1.37) < 0.005);
    assert_true(fabs(m.halo_fraction - 0.578) < 0.001);
    assert_true(m.bound == 3.25 && m.smem_bytes == 2048);
    assert_int_equal(opb_book_model("z-coarsening", 32, 0, 1, &m), 0);
    assert_true(fabs(m.book - 2.68) < 0.005);
    assert_true(m.smem_bytes == 12288);
    assert_int_equal(opb_book_model("register-tiling", 32, 0, 1, &m), 0);
    assert_true(m.smem_bytes == 4096);
    assert_int_equal(opb_book_model("speed", 0, 0, 1, &m), 0);  // the streaming bound: one read and one write a point
    assert_true(fabs(m.book - 13.0 / 8.0) < 1e-12 && m.bound == m.book && m.halo_fraction == 0);
    assert_int_equal(opb_book_model("shared-tile", 0, 0, 1, &m), -1);
    assert_int_equal(opb_book_model("unknown", 8, 0, 1, &m), -1);
    // Several iterations a launch: a 32-wide tile writing its inner 24, 4 iterations: 32/9 = 3.56 OP/B.
    assert_int_equal(opb_book_model("time-blocking", 32, 24, 1, &m), 0);
    assert_true(fabs(m.book - 32.0 / (8.0 * 1024.0 / 576.0 + 4.0)) < 1e-12);
    assert_true(fabs(m.halo_fraction - (1.0 - 576.0 / 1024.0)) < 1e-12 && m.smem_bytes == 4 * 32 * 32 * 4);
    assert_int_equal(opb_book_model("time-blocking", 32, 0, 1, &m), -1);   // no output tile declared
    assert_int_equal(opb_book_model("time-blocking", 32, 32, 1, &m), -1);  // no halo: no iteration to block
}

// Which techniques have load floors, so the judge runs Nsight Compute for them only.
static void test_technique_counts_loads(void **state)
{
    (void)state;
    const char *counted[] = {"shared-tile", "z-coarsening", "register-tiling", "convolution"};
    const char *not_counted[] = {"naive", "speed", "jacobi", "time-blocking", "unknown"};
    for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
        assert_int_equal(technique_counts_loads(counted[i]), 1);
    for (size_t i = 0; i < sizeof(not_counted) / sizeof(not_counted[0]); i++)
        assert_int_equal(technique_counts_loads(not_counted[i]), 0);
}

// Lab 9's rule: at least two iterations a launch on average, whatever the kernels.
static void test_technique_time_blocking(void **state)
{
    (void)state;
    kv_list kv;
    unsigned int size[3] = {45, 38, 21};
    unsigned int seed = (unsigned int)time(NULL);
    srand(seed);
    int iters = 8 + rand() % 60;
    printf("time-blocking rule: seed %u, %d iterations\n", seed, iters);
    struct { long launches; int ok; } runs[] = {{(iters + 3) / 4, 1}, {iters / 2 + 1, 1}, {iters / 2 + 2, 0}, {iters, 0}, {2L * iters, 0}};
    for (size_t q = 0; q < sizeof(runs) / sizeof(runs[0]); q++) {
        char text[128];
        snprintf(text, sizeof(text), "launches=%ld\niterations=%d\n", runs[q].launches, iters);
        load_report(text, &kv);
        technique_result r = technique_check_grid("time-blocking", &kv, size, 1);
        assert_int_equal(r.status, runs[q].ok ? TECHNIQUE_OK : TECHNIQUE_FAIL);
        assert_non_null(strstr(r.detail, "iterations a launch") && strstr(r.detail, "0 residual checks"));
        kv_free(&kv);
    }
    // Residual checks add their own launches: two a check are not counted (10 iterations, checks at 3, 6, 9).
    load_report("launches=7\niterations=10\n" TECHNIQUE_KEY_CHECK_EVERY "=3\n", &kv);
    technique_result checked = technique_check_grid("time-blocking", &kv, size, 1);
    assert_int_equal(checked.status, TECHNIQUE_OK);
    assert_non_null(strstr(checked.detail, "3 residual checks: at most 12 allowed"));
    kv_free(&kv);
    load_report("launches=13\niterations=10\n" TECHNIQUE_KEY_CHECK_EVERY "=3\n", &kv);  // one a launch, one a check
    assert_int_equal(technique_check_grid("time-blocking", &kv, size, 1).status, TECHNIQUE_FAIL);
    kv_free(&kv);
    load_report("launches=1\niterations=1\n", &kv);  // one iteration: nothing to block
    assert_int_equal(technique_check_grid("time-blocking", &kv, size, 1).status, TECHNIQUE_FAIL);
    kv_free(&kv);
}

// The load floors on a launch that passed the rules above: per-point
// figures as an H100 measured them for correct kernels (tests/device_loads.sh)
// and for the kernels that cheat (tests/mutants/*/.*from-global.cu).
static technique_result check_loads(const char *technique, const char *grid, const char *block, int smem,
                                    int counted, double global_per_point, double shared_per_point)
{
    char text[512];
    kv_list kv;
    unsigned int n = 129;
    double points = 127.0 * 127.0 * 127.0;
    snprintf(text, sizeof(text), "launches=1\nlaunch.0=kernel=stencil_kernel grid=%s block=%s dynamic_smem=0 static_smem=%d regs=32\n",
             grid, block, smem);
    load_report(text, &kv);
    technique_result r = technique_check(technique, &kv, n, 1);
    assert_int_equal(r.status, TECHNIQUE_OK);
    technique_loads(technique, &kv, n, 1, counted, global_per_point * points, shared_per_point * points, "not measured here", &r);
    kv_free(&kv);
    return r;
}

// Lab 10's rule: the steps are launches of a kernel, at most one a step
// (fewer when a launch does several), at least one; and the OP/B bound 7/8.
static void test_technique_heat2d(void **state)
{
    (void)state;
    kv_list kv;
    unsigned int size[3] = {97, 50, 1};
    unsigned int seed = (unsigned int)time(NULL);
    srand(seed);
    int steps = 2 + rand() % 60;
    printf("heat2d rule: seed %u, %d steps\n", seed, steps);
    struct { long launches; int ok; } runs[] = {{steps, 1}, {1, 1}, {(steps + 1) / 2, 1}, {steps + 1, 0}, {2L * steps, 0}, {0, 0}};
    for (size_t q = 0; q < sizeof(runs) / sizeof(runs[0]); q++) {
        char text[160];
        snprintf(text, sizeof(text), "launches=%ld\niterations=%d\nkernels=1\nkernel.0=%ld heat_step\n", runs[q].launches, steps, runs[q].launches);
        load_report(text, &kv);
        technique_result r = technique_check_grid("heat2d", &kv, size, 1);
        assert_int_equal(r.status, runs[q].ok ? TECHNIQUE_OK : TECHNIQUE_FAIL);
        assert_non_null(strstr(r.detail, "time steps"));
        if (runs[q].launches > 0)
            assert_non_null(strstr(r.detail, "heat_step"));
        kv_free(&kv);
    }
    opb_model m;
    assert_int_equal(opb_book_model("heat2d", 0, 0, 1, &m), 0);  // no tile needed: the bound itself
    assert_true(fabs(m.book - 0.875) < 1e-12 && fabs(m.bound - 0.875) < 1e-12);
}

// Every whole solve (labs 5, 9, 10): a copy back instead of a swap, with
// cudaMemcpy device to device, fails the technique line whatever the launch
// counts say; a buffer set up once, or a copy of less than half a grid a
// step, passes. A grid's bytes are its rows as stored (pitch).
static void test_technique_solve_copies(void **state)
{
    (void)state;
    unsigned int seed = (unsigned int)time(NULL);
    srand(seed);
    int steps = 6 + rand() % 60;
    unsigned int nx = 17 + rand() % 90, ny = 5 + rand() % 40, nz = 3 + rand() % 20, pitch = (nx + 31) / 32 * 32;
    printf("solve copies: seed %u, %d steps, %ux%ux%u\n", seed, steps, nx, ny, nz);
    const struct { const char *technique; unsigned int size[3]; unsigned int pitch; const char *launches; } solves[] = {
        {"jacobi", {nx, ny, nz}, nx, "launches=%d\nkernels=2\nkernel.0=%d jacobi_sweep\nkernel.1=%d jacobi_boundary\nbc=neumann\n"},
        {"time-blocking", {nx, ny, nz}, nx, "launches=%d\n"},
        {"heat2d", {nx, ny, 1}, pitch, "launches=%d\nkernels=1\nkernel.0=%d heat_step\n"},
    };
    for (size_t q = 0; q < sizeof(solves) / sizeof(solves[0]); q++) {
        double grid = 4.0 * solves[q].pitch * solves[q].size[1] * solves[q].size[2];
        int launches = !strcmp(solves[q].technique, "jacobi") ? 2 * steps : !strcmp(solves[q].technique, "time-blocking") ? steps / 3 : steps;
        int per_kernel = !strcmp(solves[q].technique, "jacobi") ? steps : launches;
        const struct { double grids; int ok; } copies[] = {{0, 1}, {1, 1}, {2.5, 1}, {0.4 * steps, 1}, {(double)steps, 0}, {0.55 * steps + 3, 0}};
        for (size_t c = 0; c < sizeof(copies) / sizeof(copies[0]); c++) {
            char text[512], counts[256];
            kv_list kv;
            snprintf(counts, sizeof(counts), solves[q].launches, launches, per_kernel, per_kernel);
            snprintf(text, sizeof(text), "%siterations=%d\npitch=%u\n" LAUNCH_LOG_KEY_DEVICE_COPIES "=%.0f\n", counts, steps, solves[q].pitch,
                     copies[c].grids * grid);
            load_report(text, &kv);
            technique_result r = technique_check_grid(solves[q].technique, &kv, solves[q].size, 1);
            printf("  %s, %.1f grids copied: %s\n", solves[q].technique, copies[c].grids, r.detail);
            assert_int_equal(r.status, copies[c].ok ? TECHNIQUE_OK : TECHNIQUE_FAIL);
            assert_true(copies[c].ok == !strstr(r.detail, "copy back instead of a swap"));
            kv_free(&kv);
        }
    }
}

static void test_technique_loads(void **state)
{
    (void)state;
    // Lab 2: the solution reads 7 floats a point from the tile; a kernel that fills it and reads global memory, 1.
    assert_int_equal(check_loads("shared-tile", "22,22,22", "8,8,8", 2048, 1, 2.44, 7.0).status, TECHNIQUE_OK);
    assert_int_equal(check_loads("shared-tile", "65,65,65", "4,4,4", 256, 1, 8.29, 7.0).status, TECHNIQUE_OK);  // T=4: much halo, still fine
    technique_result g2 = check_loads("shared-tile", "22,22,22", "8,8,8", 2048, 1, 8.44, 1.0);
    assert_int_equal(g2.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(g2.detail, "from global memory"));
    // Lab 4: T=32, T=8 and a 32x8 tile pass; z neighbours from global memory (one or two more floats a point) fail.
    assert_int_equal(check_loads("register-tiling", "5,5,5", "32,32,1", 4096, 1, 1.26, 4.0).status, TECHNIQUE_OK);
    assert_int_equal(check_loads("register-tiling", "22,22,22", "8,8,1", 256, 1, 2.44, 4.0).status, TECHNIQUE_OK);
    assert_int_equal(check_loads("register-tiling", "5,22,5", "32,8,1", 1024, 1, 1.52, 4.0).status, TECHNIQUE_OK);
    technique_result z4 = check_loads("register-tiling", "5,5,5", "32,32,1", 4096, 1, 3.22, 4.0);
    assert_int_equal(z4.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(z4.detail, "registers"));
    assert_int_equal(check_loads("register-tiling", "5,5,5", "32,32,1", 4096, 1, 2.26, 4.0).status, TECHNIQUE_FAIL);  // one z neighbour
    assert_int_equal(check_loads("register-tiling", "22,22,22", "8,8,1", 256, 1, 4.44, 4.0).status, TECHNIQUE_FAIL);
    assert_int_equal(check_loads("register-tiling", "5,5,5", "32,32,1", 4096, 1, 1.26, 1.0).status, TECHNIQUE_FAIL); // in-plane from global
    // Lab 3: the three planes read (about 10 floats a point with the rotation); z from global fails.
    assert_int_equal(check_loads("z-coarsening", "5,5,5", "32,32,1", 12288, 1, 1.26, 10.2).status, TECHNIQUE_OK);
    assert_int_equal(check_loads("z-coarsening", "5,5,5", "32,32,1", 12288, 1, 2.26, 8.2).status, TECHNIQUE_FAIL);
    // Not measured (emulation, no ncu): the verdict stands and the line says why.
    technique_result none = check_loads("register-tiling", "5,5,5", "32,32,1", 4096, 0, 0, 0);
    assert_int_equal(none.status, TECHNIQUE_OK);
    assert_non_null(strstr(none.detail, "not checked: not measured here"));
    // Other techniques: untouched.
    technique_result naive = check_launch("naive", 0, "32,32,32", "8,8,8", 0, 256);
    char before[sizeof(naive.detail)];
    snprintf(before, sizeof(before), "%s", naive.detail);
    technique_loads("naive", NULL, 256, 1, 1, 99, 0, "", &naive);
    assert_string_equal(naive.detail, before);
}

// The book's OP/B for a star of radius r (handouts/04-register-tiling.md,
// section 8): (12r+1)/(4(6r+1)) naive, (12r+1)(T-2r)^3/(4T^3) tiled, bound
// (12r+1)/4; the formulas printed with the star's own numbers.
static void test_opb_radius(void **state)
{
    (void)state;
    opb_model m;
    assert_int_equal(opb_book_model("naive", 0, 0, 2, &m), 0);
    assert_true(fabs(m.book - 25.0 / 52.0) < 1e-12 && m.bound == 6.25);
    assert_string_equal(m.formula, "25 / (13 * 4) = 0.48");
    assert_int_equal(opb_book_model("naive", 0, 0, 1, &m), 0);
    assert_string_equal(m.formula, "13 / (7 * 4) = 0.46");
    assert_int_equal(opb_book_model("register-tiling", 32, 0, 2, &m), 0);
    assert_true(fabs(m.book - 25.0 * 28 * 28 * 28 / (4.0 * 32 * 32 * 32)) < 1e-12);
    assert_string_equal(m.formula, "25 * (T-4)^3 / (4 * T^3) = 4.19 at T=32");
    assert_true(fabs(m.halo_fraction - (1.0 - 21952.0 / 32768.0)) < 1e-12 && m.bound == 6.25 && m.smem_bytes == 4096);
    assert_int_equal(opb_book_model("register-tiling", 32, 0, 1, &m), 0);
    assert_string_equal(m.formula, "13 * (T-2)^3 / (4 * T^3) = 2.68 at T=32");
    assert_int_equal(opb_book_model("z-coarsening", 32, 0, 2, &m), 0);
    assert_true(m.smem_bytes == 5 * 32 * 32 * 4);  // the 2r + 1 planes a point reads
    assert_int_equal(opb_book_model("speed", 0, 0, 2, &m), 0);
    assert_true(m.book == 25.0 / 8.0);
    assert_int_equal(opb_book_model("register-tiling", 4, 0, 2, &m), -1);  // no output tile left
    assert_int_equal(opb_book_model("naive", 0, 0, 3, &m), -1);            // no such star in the kit
    assert_int_equal(opb_book_model("jacobi", 8, 0, 2, &m), -1);
    rng g;  // any tile and radius: the formula, as the handout writes it
    rng_init(&g, test_seed() + 5);
    for (int t = 0; t < 200; t++) {
        int r = 1 + (int)(rng_next(&g) % 2), tile = 2 * r + 1 + (int)(rng_next(&g) % 60);
        double f = 12.0 * r + 1, in = (double)(tile - 2 * r);
        assert_int_equal(opb_book_model("shared-tile", tile, 0, r, &m), 0);
        assert_true(fabs(m.book - f * in * in * in / (4.0 * tile * tile * tile)) < 1e-12);
        assert_true(m.book < m.bound && m.bound == f / 4.0);
        assert_int_equal(opb_book_model("naive", tile, 0, r, &m), 0);
        assert_true(fabs(m.book - f / (4.0 * (6 * r + 1))) < 1e-12);
    }
}

// A report of one launch, judged for a star of the given radius on an n^3
// grid, then its load counts (floats a point) against the floors.
static technique_result check_radius(const char *technique, unsigned int n, int radius, const char *grid, const char *block,
                                     int smem, double global_per_point, double shared_per_point)
{
    char text[512];
    kv_list kv;
    double inner = (double)(n - 2 * radius);
    snprintf(text, sizeof(text), "launches=1\nlaunch.0=kernel=stencil_kernel grid=%s block=%s dynamic_smem=0 static_smem=%d regs=40\n",
             grid, block, smem);
    load_report(text, &kv);
    technique_result r = technique_check(technique, &kv, n, radius);
    if (r.status == TECHNIQUE_OK && global_per_point >= 0)
        technique_loads(technique, &kv, n, radius, 1, global_per_point * inner * inner * inner,
                        shared_per_point * inner * inner * inner, "not measured here", &r);
    kv_free(&kv);
    return r;
}

// The rules and floors for the star of radius 2: the interior N-4 points an
// axis, a halo 2 deep, 2r = 4 floats a point from shared memory for lab 4's
// variant (half the 8 in-plane neighbours), 3r = 6 for the others, five
// planes for z-coarsening, the global ceiling halo * (P + 2r) / P + 0.75.
static void test_technique_radius(void **state)
{
    (void)state;
    technique_result naive = check_radius("naive", 64, 2, "8,64,64", "8,1,1", 0, -1, 0);  // 4096 threads: enough
    assert_int_equal(naive.status, TECHNIQUE_OK);
    assert_non_null(strstr(naive.detail, "for 216000 interior points"));  // 60^3
    assert_int_equal(check_radius("naive", 5, 2, "1,1,1", "1,1,1", 0, -1, 0).status, TECHNIQUE_OK);  // N = 5: one point, one thread
    // Lab 8 (register tiling, T = 32, output tile 28): 3x3x3 blocks of 32x32 threads on N = 64.
    technique_result rt = check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 4096, -1, 0);
    assert_int_equal(rt.status, TECHNIQUE_OK);
    assert_non_null(strstr(rt.detail, "for 60 planes"));
    launch_info li = {"stencil_kernel", {3, 3, 3}, {32, 32, 1}, 4096};
    const unsigned int n64[3] = {64, 64, 64};
    double halo = (32.0 / 28.0) * (32.0 / 28.0), planes = 60.0 * 60 * 60 / (27.0 * 1024) * halo;
    double ceiling = technique_global_ceiling(&li, n64, 2);
    assert_true(fabs(ceiling - (halo * (planes + 4.0) / planes + 0.75)) < 1e-9);
    assert_true(ceiling < technique_global_ceiling(&li, n64, 1) + 1.0);  // a deeper halo costs, yet less than a load a point
    double fill = halo * (planes + 4.0) / planes;  // what filling the planes loads
    assert_int_equal(check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 4096, fill, 4.0).status, TECHNIQUE_OK);
    assert_int_equal(check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 4096, fill + 1.0, 4.0).status, TECHNIQUE_FAIL);  // one z neighbour from global
    assert_int_equal(check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 4096, fill + 4.0, 4.0).status, TECHNIQUE_FAIL);  // all four
    technique_result few = check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 4096, fill, 3.0);  // 3 < 2r from shared
    assert_int_equal(few.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(few.detail, "at least 4 from shared"));
    assert_int_equal(check_radius("register-tiling", 64, 2, "3,3,3", "32,32,1", 12288, -1, 0).status, TECHNIQUE_FAIL);  // three shared planes
    // z-coarsening of the star of radius 2 keeps the 2r + 1 = 5 planes a point reads.
    assert_int_equal(check_radius("z-coarsening", 64, 2, "3,3,3", "32,32,1", 20480, -1, 0).status, TECHNIQUE_OK);
    technique_result three = check_radius("z-coarsening", 64, 2, "3,3,3", "32,32,1", 12288, -1, 0);
    assert_int_equal(three.status, TECHNIQUE_FAIL);
    assert_non_null(strstr(three.detail, "five planes of the block"));
    assert_int_equal(check_radius("shared-tile", 64, 2, "8,8,8", "8,8,8", 2048, 3.0, 6.0).status, TECHNIQUE_OK);
    assert_int_equal(check_radius("shared-tile", 64, 2, "8,8,8", "8,8,8", 2048, 3.0, 5.0).status, TECHNIQUE_FAIL);
}

static void test_ncu_csv(void **state)
{
    (void)state;
    char path[64];
    test_write_file(path, sizeof(path),
        "==PROF== Connected to process 7939\n"
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"stencil_kernel(float *, float *, unsigned int)\",\"dram__bytes_read.sum\",\"byte\",\"1,020,160\"\n"
        "\"0\",\"stencil_kernel(float *, float *, unsigned int)\",\"dram__bytes_write.sum\",\"byte\",\"0\"\n"
        "\"1\",\"boundary_kernel\",\"dram__bytes_read.sum\",\"byte\",\"2,000.5\"\n"
        "\"2\",\"trusted_sweep_verify(const float *, const float *)\",\"dram__bytes_read.sum\",\"byte\",\"9,999\"\n"
        "\"3\",\"other_kernel\",\"dram__bytes_read.sum\",\"\",\"n/a\"\n");
    int rows = -1;
    assert_true(ncu_metric_sum_rows(path, "dram__bytes_read.sum", &rows) == 1022160.5);  // the kit's kernel left out
    assert_int_equal(rows, 2);
    assert_true(ncu_metric_sum(path, "dram__bytes_read.sum") == 1022160.5);
    assert_true(ncu_metric_sum(path, "dram__bytes_write.sum") == 0);
    assert_true(ncu_metric_sum(path, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum") == 0);
    assert_int_equal(ncu_metric_kit_rows(path, "dram__bytes_read.sum"), 1);
    unlink(path);
    test_write_file(path, sizeof(path),  // only rows named like the kit's: counted by ncu, none the student's
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"trusted_stencil(float *, float *, unsigned int)\",\"smsp__sass_data_bytes_mem_global_op_ld.sum\",\"byte\",\"4,096\"\n"
        "\"1\",\"trusted_sweep_verify(const float *)\",\"smsp__sass_data_bytes_mem_global_op_ld.sum\",\"byte\",\"512\"\n");
    rows = -1;
    assert_true(ncu_metric_sum_rows(path, "smsp__sass_data_bytes_mem_global_op_ld.sum", &rows) == 0);
    assert_int_equal(rows, 0);
    assert_int_equal(ncu_metric_kit_rows(path, "smsp__sass_data_bytes_mem_global_op_ld.sum"), 2);
    unlink(path);
    test_write_file(path, sizeof(path),
        "\"0\",\"stencil_kernel\",\"dram__bytes_read.sum\",\"byte\",\"1,000\"\n");  // no header: not ncu's table
    assert_true(ncu_metric_sum(path, "dram__bytes_read.sum") == 0);
    unlink(path);
    assert_true(ncu_metric_sum("/nonexistent/ncu.log", "dram__bytes_read.sum") == 0);
}

// ---------------------------------------------------------------------------
// spawn
// ---------------------------------------------------------------------------

// judge_remove_tree: a case folder of random files and folders (a GPU-checked
// case's sample among them, which a list of names had left behind) goes
// whole; a link in it to a file outside is removed, never followed.
static void test_remove_tree(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed());
    char root[] = "/tmp/stencil-tree-XXXXXX", outside[] = "/tmp/stencil-outside-XXXXXX", path[512], dir[512];
    assert_non_null(mkdtemp(root));
    int fd = mkstemp(outside);
    assert_true(fd >= 0 && write(fd, "keep", 4) == 4);
    close(fd);
    snprintf(dir, sizeof(dir), "%s", root);
    int files = 3 + (int)(rng_next(&r) % 10);
    for (int k = 0; k < files; k++) {
        if (rng_next(&r) % 3 == 0) {  // one level deeper
            snprintf(path, sizeof(path), "%s/d%d", dir, k);
            assert_int_equal(mkdir(path, 0755), 0);
            snprintf(dir, sizeof(dir), "%s", path);
        }
        snprintf(path, sizeof(path), "%s/%s", dir, k == 0 ? "sample.bin" : k == 1 ? "ncu-table.csv" : "f.bin");
        if (k > 1)
            snprintf(path, sizeof(path), "%s/file%u.bin", dir, (unsigned)rng_next(&r));
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fprintf(f, "%u", (unsigned)rng_next(&r));
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/link", dir);
    assert_int_equal(symlink(outside, path), 0);
    judge_remove_tree(root);
    struct stat st;
    assert_int_equal(stat(root, &st), -1);
    assert_int_equal(stat(outside, &st), 0);
    assert_int_equal(st.st_size, 4);
    unlink(outside);
    judge_remove_tree("");  // nothing
    judge_remove_tree(NULL);
}

// A settled callback: 1 once the log has a line "done".
static int test_spawn_log_says_done(const char *log_path)
{
    char line[64];
    int done = 0;
    FILE *f = fopen(log_path, "r");
    while (f && !done && fgets(line, sizeof(line), f))
        done = !strcmp(line, "done\n");
    if (f)
        fclose(f);
    return done;
}

static void test_spawn(void **state)
{
    (void)state;
    char log[] = "/tmp/stencil-spawn-XXXXXX", tail[256];
    close(mkstemp(log));
    spawn_limits lim = {5.0, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    char *exit3[] = {"sh", "-c", "echo one; echo two; echo three; exit 3", NULL};
    spawn_result r = spawn_run(exit3, NULL, log, &lim);
    assert_true(r.started && r.exited && r.exit_code == 3);
    assert_string_equal(spawn_log_tail(log, 2, tail, sizeof(tail)), "two\nthree\n");
    char *env[] = {"STENCIL_SPAWN_TEST=yes", NULL};
    char *show_env[] = {"sh", "-c", "test \"$STENCIL_SPAWN_TEST\" = yes", NULL};
    assert_int_equal(spawn_run(show_env, env, log, &lim).exit_code, 0);
    // Niceness: a child given limits.nice runs that much nicer than this process (at most 19).
    spawn_limits nicer = {5.0, 0, 0, NULL, 0, 0, SPAWN_NICE_BESIDE, 0, NULL, NULL, NULL};
    char want_nice[64];
    int own = getpriority(PRIO_PROCESS, 0), beside = own + SPAWN_NICE_BESIDE > 19 ? 19 : own + SPAWN_NICE_BESIDE;
    snprintf(want_nice, sizeof(want_nice), "test \"$(cut -d' ' -f19 /proc/self/stat)\" = %d", beside);
    char *show_nice[] = {"sh", "-c", want_nice, NULL};
    assert_int_equal(spawn_run(show_nice, NULL, log, &nicer).exit_code, 0);
    snprintf(want_nice, sizeof(want_nice), "test \"$(cut -d' ' -f19 /proc/self/stat)\" = %d", own);
    assert_int_equal(spawn_run(show_nice, NULL, log, &lim).exit_code, 0);
    char *killed[] = {"sh", "-c", "kill -SEGV $$", NULL};
    r = spawn_run(killed, NULL, log, &lim);
    assert_true(r.signaled && r.signal == SIGSEGV);
    spawn_limits short_lim = {0.3, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    char *hang[] = {"sleep", "30", NULL};
    r = spawn_run(hang, NULL, log, &short_lim);
    assert_true(r.timed_out && !r.exited && r.seconds < 5.0);
    // A CPU-time limit: a spinning child is stopped at it, a waiting one is not (its wall time is no CPU time).
    spawn_limits cpu_lim = {20.0, 0, 0, NULL, 1.0, 0, 0, 0, NULL, NULL, NULL};
    char *spin[] = {"sh", "-c", "while :; do :; done", NULL};
    r = spawn_run(spin, NULL, log, &cpu_lim);
    assert_true(r.timed_out && !r.exited && !r.signaled && r.seconds < 10.0);
    char *nap[] = {"sh", "-c", "sleep 1.5; exit 4", NULL};
    r = spawn_run(nap, NULL, log, &cpu_lim);
    assert_true(!r.timed_out && r.exited && r.exit_code == 4 && r.seconds >= 1.4);
    // A resident-memory limit: a child that fills 256 MiB is stopped at 64 MiB; under no limit it ends by itself.
    spawn_limits mem_lim = {20.0, 0, 0, NULL, 0, 64ull << 20, 0, 0, NULL, NULL, NULL};
    char *hog[] = {"dd", "if=/dev/zero", "of=/dev/null", "bs=256M", "count=4", "status=none", NULL};
    r = spawn_run(hog, NULL, log, &mem_lim);
    assert_true(r.over_memory && !r.exited && !r.timed_out);
    r = spawn_run(hog, NULL, log, &lim);
    assert_true(!r.over_memory && r.exited && r.exit_code == 0);
    char *small[] = {"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=200", "status=none", NULL};
    r = spawn_run(small, NULL, log, &mem_lim);
    assert_true(!r.over_memory && r.exited && r.exit_code == 0);
    // Settled: a child whose log says all the caller needs is ended there (its group too), its status
    // not read; one whose log never does runs to its own end.
    spawn_limits settle_lim = {20.0, 0, 0, NULL, 0, 0, 0, 0, NULL, test_spawn_log_says_done, NULL};
    char *lingers[] = {"sh", "-c", "echo working; sleep 0.3; echo done; sleep 30 & sleep 30", NULL};
    r = spawn_run(lingers, NULL, log, &settle_lim);
    assert_true(r.settled && !r.exited && !r.signaled && !r.timed_out && r.seconds >= 0.3 && r.seconds < 5.0);
    char *never[] = {"sh", "-c", "echo working; sleep 0.3; echo still working; exit 5", NULL};
    r = spawn_run(never, NULL, log, &settle_lim);
    assert_true(!r.settled && r.exited && r.exit_code == 5);
    char *missing[] = {"/nonexistent/program", NULL};
    r = spawn_run(missing, NULL, log, &lim);
    assert_false(r.started);
    unlink(log);
    assert_string_equal(spawn_log_tail("/nonexistent/log", 3, tail, sizeof(tail)), "");
}

// spawn_pid_ended: a running child is not ended; once it exits (a zombie its
// parent has not waited for, as a helper sees its sibling) it is; a pid that
// is gone is. The child's name holds a space and a parenthesis, which must
// not be taken for its state.
static void test_spawn_pid_ended(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char byte;
        prctl(PR_SET_NAME, "a) b Z", 0, 0, 0);
        close(go[1]);
        _exit(read(go[0], &byte, 1) == 1 ? 0 : 1);
    }
    close(go[0]);
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    assert_false(spawn_pid_ended(pid));
    assert_int_equal(write(go[1], "x", 1), 1);
    close(go[1]);
    for (int k = 0; k < 500 && !spawn_pid_ended(pid); k++)
        nanosleep(&nap, NULL);
    assert_true(spawn_pid_ended(pid));  // a zombie: not yet waited for
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(spawn_pid_ended(pid));  // gone
}

// A stand-in for `executor --serve` (protocol.h's PROTOCOL_SERVE_*): it
// answers its probe, then each request by what its --act says: ok (writes
// the case's --log and answers), exit6 (ends with code 6, as a refused call
// ends the executor), hang (never answers), idle (says its GPU work is over
// twice, then answers 0.3 s later), idle-exit6 (says so, then ends with 6),
// idle-wrong (says so adding that the output was found wrong, then answers).
static const char fake_server[] =
    "printf d >&3\n"
    "while read -r len; do\n"
    "  args=$(head -c \"$len\" | tr '\\000' '\\n')\n"
    "  log=$(printf '%s\\n' \"$args\" | sed -n '/^--log$/{n;p;}')\n"
    "  act=$(printf '%s\\n' \"$args\" | sed -n '/^--act$/{n;p;}')\n"
    "  echo \"case $act $$\" > \"$log\"\n"
    "  case $act in ok) printf d >&3 ;; exit6) exit 6 ;; hang) sleep 60 ;;\n"
    "    idle) printf gg >&3; sleep 0.3; printf d >&3 ;; idle-exit6) printf g >&3; exit 6 ;;\n"
    "    idle-wrong) printf wg >&3; printf d >&3 ;; esac\n"
    "done\n"
    "exit 0\n";

// The pid a served case wrote to its log ("case ACT PID"), or -1.
static long served_by(const char *log)
{
    char act[32];
    long pid = -1;
    FILE *f = fopen(log, "r");
    if (f && fscanf(f, "case %31s %ld", act, &pid) != 2)
        pid = -1;
    if (f)
        fclose(f);
    return pid;
}

// The server's word that a case's GPU work is over: when it came, how often.
static double server_idle_at;
static int server_idle_calls;
static void server_idle(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    server_idle_at = (double)now.tv_sec + now.tv_nsec * 1e-9;
    server_idle_calls++;
}

// The word's "found wrong": how often, and gpu_idle's calls when it came.
static int server_wrong_calls, server_idle_calls_at_wrong;
static void server_wrong(void)
{
    server_wrong_calls++;
    server_idle_calls_at_wrong = server_idle_calls;
}

static void test_spawn_server(void **state)
{
    (void)state;
    char log[] = "/tmp/stencil-server-XXXXXX", case_log[] = "/tmp/stencil-served-XXXXXX";
    close(mkstemp(log));
    close(mkstemp(case_log));
    char *argv[] = {"sh", "-c", (char *)fake_server, NULL};
    spawn_limits lim = {5.0, 1u << 20, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    spawn_server srv;
    memset(&srv, 0, sizeof(srv));
    spawn_result r = spawn_server_start(&srv, argv, NULL, log, 5.0);
    assert_true(r.started && r.exited && r.exit_code == RUNNER_OK && srv.pid > 0);
    // Several cases, one process: every one answered by the same pid.
    int cases = 2 + (int)(test_seed() % 4);
    pid_t first = srv.pid;
    char *ok[] = {"--act", "ok", "--outdir", "/tmp/a dir with spaces", NULL};
    for (int i = 0; i < cases; i++) {
        r = spawn_server_run(&srv, ok, case_log, &lim);
        assert_true(r.started && r.exited && r.exit_code == RUNNER_OK);
        assert_int_equal(srv.pid, first);
        assert_int_equal(served_by(case_log), (long)first);
    }
    assert_int_equal(srv.cases, cases);
    assert_false(r.gpu_idle);
    // Its word that the case's GPU work is over (PROTOCOL_SERVE_GPU_IDLE) calls gpu_idle once, at once,
    // before the case's answer; the case goes on to its answer.
    spawn_limits idle_lim = lim;
    idle_lim.gpu_idle = server_idle;
    char *idle[] = {"--act", "idle", NULL};
    server_idle_calls = 0;
    r = spawn_server_run(&srv, idle, case_log, &idle_lim);
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    assert_true(r.started && r.exited && r.exit_code == RUNNER_OK && r.gpu_idle && srv.pid == first);
    assert_int_equal(server_idle_calls, 1);
    assert_true((double)end.tv_sec + end.tv_nsec * 1e-9 - server_idle_at > 0.2);
    assert_false(r.gpu_wrong);
    r = spawn_server_run(&srv, ok, case_log, &idle_lim);  // a case that never says so: not called
    assert_true(r.exited && r.exit_code == RUNNER_OK && !r.gpu_idle && server_idle_calls == 1);
    // The word adding that the output was found wrong (PROTOCOL_SERVE_GPU_IDLE_WRONG): gpu_wrong, then
    // gpu_idle, once each (its second word ignored); without gpu_wrong only gpu_idle and the mark.
    idle_lim.gpu_wrong = server_wrong;
    char *idle_wrong[] = {"--act", "idle-wrong", NULL};
    r = spawn_server_run(&srv, idle_wrong, case_log, &idle_lim);
    assert_true(r.exited && r.exit_code == RUNNER_OK && r.gpu_idle && r.gpu_wrong && srv.pid == first);
    assert_int_equal(server_wrong_calls, 1);
    assert_int_equal(server_idle_calls, 2);
    assert_int_equal(server_idle_calls_at_wrong, 1);  // (before this case's gpu_idle)
    r = spawn_server_run(&srv, idle, case_log, &idle_lim);  // a plain word: gpu_idle alone
    assert_true(r.gpu_idle && !r.gpu_wrong && server_wrong_calls == 1 && server_idle_calls == 3);
    idle_lim.gpu_wrong = NULL;
    r = spawn_server_run(&srv, idle_wrong, case_log, &idle_lim);
    assert_true(r.exited && r.gpu_idle && r.gpu_wrong && server_wrong_calls == 1 && server_idle_calls == 4);
    // Said, then failed: the word noted, the failure still the outcome.
    char *idle_fail[] = {"--act", "idle-exit6", NULL};
    r = spawn_server_run(&srv, idle_fail, case_log, &idle_lim);
    assert_true(r.exited && r.exit_code == 6 && r.gpu_idle && server_idle_calls == 5 && srv.pid == 0);
    r = spawn_server_start(&srv, argv, NULL, log, 5.0);
    assert_true(r.exited && r.exit_code == RUNNER_OK);
    first = srv.pid;
    // A case that fails ends the server with its code; no server, no case.
    char *fail[] = {"--act", "exit6", NULL};
    r = spawn_server_run(&srv, fail, case_log, &lim);
    assert_true(r.started && r.exited && r.exit_code == 6 && srv.pid == 0);
    r = spawn_server_run(&srv, ok, case_log, &lim);
    assert_false(r.started);
    // A case that never answers is timed out, and its server (with what it started) killed.
    r = spawn_server_start(&srv, argv, NULL, log, 5.0);
    assert_true(r.exited && r.exit_code == RUNNER_OK);
    pid_t hung = srv.pid;
    spawn_limits short_lim = {0.3, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    char *hang[] = {"--act", "hang", NULL};
    r = spawn_server_run(&srv, hang, case_log, &short_lim);
    assert_true(r.timed_out && !r.exited && r.seconds < 5.0 && srv.pid == 0);
    assert_true(kill(hung, 0) != 0);
    // A server that ends before its first answer: its code, as a probe's.
    char *no_gpu[] = {"sh", "-c", "exit 77", NULL};
    r = spawn_server_start(&srv, no_gpu, NULL, log, 5.0);
    assert_true(r.started && r.exited && r.exit_code == 77 && srv.pid == 0);
    char *missing[] = {"/nonexistent/executor", NULL};
    r = spawn_server_start(&srv, missing, NULL, log, 5.0);
    assert_false(r.started);
    // In two steps (the judge's probe beside the file's check): the launch returns before the
    // server's first answer (it answers after a second), the wait takes its start-up, and the
    // server then serves.
    char slow_script[sizeof(fake_server) + 32];
    snprintf(slow_script, sizeof(slow_script), "sleep 1\n%s", fake_server);
    char *slow[] = {"sh", "-c", slow_script, NULL};
    struct timespec t0, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    r = spawn_server_launch(&srv, slow, NULL, log);
    assert_true(r.started && !r.exited && srv.pid > 0);
    struct pollfd answer = {srv.replies, POLLIN, 0};
    assert_int_equal(poll(&answer, 1, 0), 0);  // no answer yet: the launch did not wait for it
    r = spawn_server_ready(&srv, 5.0);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    assert_true(r.started && r.exited && r.exit_code == RUNNER_OK && srv.pid > 0);
    assert_true((double)(t2.tv_sec - t0.tv_sec) + (t2.tv_nsec - t0.tv_nsec) * 1e-9 >= 0.95);  // (a lower bound: no load shortens it)
    r = spawn_server_run(&srv, ok, case_log, &lim);
    assert_true(r.exited && r.exit_code == RUNNER_OK && served_by(case_log) == (long)srv.pid);
    spawn_server_stop(&srv);
    r = spawn_server_ready(&srv, 5.0);  // none runs: nothing to wait for
    assert_false(r.started);
    r = spawn_server_launch(&srv, no_gpu, NULL, log);  // one that ends before its answer: its code
    assert_true(r.started);
    r = spawn_server_ready(&srv, 5.0);
    assert_true(r.exited && r.exit_code == 77 && srv.pid == 0);
    r = spawn_server_launch(&srv, missing, NULL, log);
    assert_false(r.started);
    // Stopped at the end of its input.
    r = spawn_server_start(&srv, argv, NULL, log, 5.0);
    assert_true(r.exited && srv.pid > 0);
    pid_t last = srv.pid;
    spawn_server_stop(&srv);
    assert_int_equal(srv.pid, 0);
    assert_true(kill(last, 0) != 0);
    unlink(log);
    unlink(case_log);
}

static void test_ignore_stop(int sig)
{
    (void)sig;
}

// A helper forked from the judge and stopped by SIGTERM (tool_runs_stop) kills
// only what it started: the judge's serving child lives on and serves the next
// case; a server gone is an error for the judge, not a SIGPIPE that ends it.
static void test_helper_stop_leaves_server(void **state)
{
    (void)state;
    char log[] = "/tmp/stencil-server-XXXXXX", case_log[] = "/tmp/stencil-served-XXXXXX";
    close(mkstemp(log));
    close(mkstemp(case_log));
    char dir[] = "/tmp/stencil-pool-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *argv[] = {"sh", "-c", (char *)fake_server, NULL};
    spawn_limits lim = {5.0, 1u << 20, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL};
    char *ok[] = {"--act", "ok", NULL};
    spawn_server srv;
    memset(&srv, 0, sizeof(srv));
    spawn_stop_on_signals(test_ignore_stop);
    spawn_result r = spawn_server_start(&srv, argv, NULL, log, 5.0);
    assert_true(r.started && r.exited && r.exit_code == RUNNER_OK && srv.pid > 0);
    worker_pool pool;
    memset(&pool, 0, sizeof(pool));
    pool.dir = dir;
    int helpers = 1 + (int)(test_seed() % 3);
    for (int i = 0; i < helpers; i++) {
        pid_t helper = worker_pool_fork(&pool, -1);
        if (helper == 0) {
            pause();  // until the judge's SIGTERM, whose handler kills the groups this process owns
            _exit(0);
        }
        assert_true(helper > 0);
        struct timespec nap = {0, 20 * 1000 * 1000};
        nanosleep(&nap, NULL);
        kill(helper, SIGTERM);
        waitpid(helper, NULL, 0);
        assert_int_equal(kill(srv.pid, 0), 0);
        r = spawn_server_run(&srv, ok, case_log, &lim);
        assert_true(r.started && r.exited && r.exit_code == RUNNER_OK);
    }
    // The server killed from outside: the next case is an error, and this process lives.
    kill(-srv.pid, SIGKILL);
    struct timespec nap = {0, 50 * 1000 * 1000};
    nanosleep(&nap, NULL);
    r = spawn_server_run(&srv, ok, case_log, &lim);
    assert_false(r.exited && r.exit_code == RUNNER_OK);
    assert_int_equal(srv.pid, 0);
    unlink(log);
    unlink(case_log);
    rmdir(dir);
}

// ---------------------------------------------------------------------------
// the solution's figures kept between runs
// ---------------------------------------------------------------------------

static void test_yardstick_cache(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed());
    char dir[] = "/tmp/stencil-yardstick-XXXXXX", file[128], figures[128];
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/solution.cu", dir);
    snprintf(figures, sizeof(figures), "%s/lab.txt", dir);
    FILE *f = fopen(file, "w");
    fprintf(f, "// %f\n", rng_unit(&g));
    fclose(f);
    const char *files[] = {file, NULL};
    const char *gpu[] = {"NVIDIA H200", "132 SMs", NULL}, *other_gpu[] = {"NVIDIA H100", "132 SMs", NULL};
    uint64_t key = yardstick_cache_key(files, gpu);
    assert_true(key == yardstick_cache_key(files, gpu));
    assert_true(key != yardstick_cache_key(files, other_gpu));
    f = fopen(file, "a");  // the solution edited: another key
    fprintf(f, " ");
    fclose(f);
    assert_true(key != yardstick_cache_key(files, gpu));
    // Round trip, with cases left out.
    double want[YARDSTICK_CACHE_CASES] = {0}, got[YARDSTICK_CACHE_CASES];
    int n = 5 + (int)(test_seed() % 10), kept = 0;
    for (int k = 0; k < n; k++)
        if (k % 3 != 1)
            want[k] = 100.0 + 4000.0 * (rng_unit(&g) + 1.0) / 2.0, kept++;
    assert_int_equal(yardstick_cache_save(figures, want, n), 0);
    assert_int_equal(yardstick_cache_load(figures, got, n), kept);
    for (int k = 0; k < n; k++)
        assert_true(fabs(got[k] - want[k]) < 1e-5);
    // Missing, foreign or damaged files are not believed.
    assert_int_equal(yardstick_cache_load("/nonexistent/figures.txt", got, n), 0);
    const char *bad[] = {"case 0 gbs 100\n", "stencil-labs yardstick 1\ncase 0 gbs nan\n",
                         "stencil-labs yardstick 1\ncase 0 gbs 100\ncase 1 gbs -3\n", "stencil-labs yardstick 1\ncase 99 gbs 5\n",
                         "stencil-labs yardstick 1\ncase 0 gbs 100 extra\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        f = fopen(figures, "w");
        fputs(bad[i], f);
        fclose(f);
        assert_int_equal(yardstick_cache_load(figures, got, n < 20 ? n : 20), 0);
        for (int k = 0; k < n; k++)
            assert_true(got[k] == 0);
    }
    unlink(figures);
    unlink(file);
    rmdir(dir);
}

// ---------------------------------------------------------------------------
// report
// ---------------------------------------------------------------------------

// report_json on stdout, to capture like report_text.
static void report_json_stdout(const judge_run *run)
{
    report_json(run, stdout);
}

// Runs print (report_text or report_json_stdout) on run with stdout sent to a file; returns the path.
static void capture(void (*print)(const judge_run *), const judge_run *run, char *path, size_t len)
{
    snprintf(path, len, "/tmp/stencil-report-XXXXXX");
    int fd = mkstemp(path);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    print(run);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
}

// A run with one passing timed case and one failing case.
static void sample_run(judge_run *run)
{
    memset(run, 0, sizeof(*run));
    run->lab_number = 1;
    snprintf(run->lab_name, sizeof(run->lab_name), "01-naive-sweep");
    snprintf(run->conf.title, sizeof(run->conf.title), "The naive \"sweep\"");
    snprintf(run->kernel, sizeof(run->kernel), "kernels/01-naive-sweep.cu");
    snprintf(run->backend, sizeof(run->backend), "gpu");
    run->seed = 42;
    run->ncases = 4;
    case_result *a = &run->cases[0], *b = &run->cases[1], *c = &run->cases[2], *d = &run->cases[3];
    snprintf(a->name, sizeof(a->name), "N=512");
    a->status = CASE_OK;
    a->timed = 1;
    a->time_ms = 0.5;
    a->gbs = 2000;
    a->bandwidth_gbs = 4000;
    a->launch_ms = 0.6;
    a->time_reps = 3;
    a->time_reps_cut_s = 2;  // the repetitions stopped at the time budget
    snprintf(b->name, sizeof(b->name), "N=33");
    b->status = CASE_FAIL;
    b->hint_key = "centre-missing";
    b->launch_ms = -1;
    snprintf(b->kind, sizeof(b->kind), "wrong");
    snprintf(b->reason, sizeof(b->reason), "1 of 2 cells wrong\twith a tab");
    snprintf(b->hint, sizeof(b->hint), "add c0*in[i][j][k]");
    snprintf(c->name, sizeof(c->name), "N=1024");
    c->status = CASE_SKIPPED;
    snprintf(c->reason, sizeof(c->reason), "too large for CPU emulation");
    *d = *b;  // a second case with the same hint: printed once, then named
    snprintf(d->name, sizeof(d->name), "N=65");
    run->passed = 1;
    run->failed = 2;
    run->skipped = 1;
    run->technique.status = TECHNIQUE_OK;
    snprintf(run->technique_case, sizeof(run->technique_case), "N=512");
    run->opb_valid = opb_book_model("shared-tile", 8, 0, 1, &run->opb) == 0;
    run->exit_code = JUDGE_EXIT_FAIL;
}

// The timed repetitions' budget: JUDGE_TIME_BUDGET_S for every lab's limit
// (20 to 120 s), a quarter of a limit under 4 * JUDGE_TIME_BUDGET_S, never more
// than either, on random limits.
static void test_time_budget(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() + 23);
    assert_float_equal(judge_time_budget_s(120), JUDGE_TIME_BUDGET_S, 1e-12);
    assert_float_equal(judge_time_budget_s(20), JUDGE_TIME_BUDGET_S, 1e-12);
    assert_float_equal(judge_time_budget_s(4), 1.0, 1e-12);
    for (int i = 0; i < 1000; i++) {
        double limit = 100.005 + 100.0 * (double)rng_unit(&r);  // 0.005 to 200 s
        double b = judge_time_budget_s(limit);
        assert_true(b <= JUDGE_TIME_BUDGET_S && b <= limit / 4.0 + 1e-12);
        assert_true(b == JUDGE_TIME_BUDGET_S || b == limit / 4.0);
    }
}

static void test_json_parses(void **state)
{
    (void)state;
    static judge_run run;
    char path[64], cmd[1024];
    sample_run(&run);
    capture(report_json_stdout, &run, path, sizeof(path));
    snprintf(cmd, sizeof(cmd),
             "python3 -c 'import json,sys; r=json.load(open(\"%s\")); "
             "assert r[\"verdict\"]==\"fail\" and r[\"exit\"]==1 and r[\"seed\"]==42; "
             "assert r[\"cases\"][1][\"hint_key\"]==\"centre-missing\"; "
             "assert r[\"cases\"][0][\"timing\"][\"bandwidth_fraction\"]==0.5; "
             "assert r[\"cases\"][0][\"timing\"][\"reps\"]==3 and r[\"cases\"][0][\"timing\"][\"reps_cut_at_s\"]==2; "
             "assert r[\"cases\"][1][\"launch_ms\"] is None and r[\"cases\"][2][\"status\"]==\"skipped\"; "
             "assert r[\"title\"]==\"The naive \\\"sweep\\\"\"; "
             "assert abs(r[\"opb\"][\"book_model\"]-1.37)<0.01'", path);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    snprintf(path, sizeof(path), "/tmp/stencil-report-XXXXXX");
    int fd = mkstemp(path);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    static judge_run err_run;
    memset(&err_run, 0, sizeof(err_run));
    err_run.exit_code = 2;
    snprintf(err_run.stage, sizeof(err_run.stage), "compile");
    snprintf(err_run.message, sizeof(err_run.message), "bad \"lab.conf\"\n\xff");
    snprintf(err_run.compiler[err_run.ncompiler++], sizeof(err_run.compiler[0]), "k.cu:3: error: \xc3\xa9 \xc3");
    report_json(&err_run, stdout);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    snprintf(cmd, sizeof(cmd), "python3 -c 'import json; r=json.load(open(\"%s\", encoding=\"utf-8\")); assert r[\"exit\"]==2 and r[\"verdict\"]==\"error\" and r[\"status\"]==\"rejected\"; "
             "assert r[\"compiler_messages\"]==[\"k.cu:3: error: \\u00e9 ?\"] and r[\"error\"].endswith(\"?\")'", path);
    assert_int_equal(system(cmd), 0);
    unlink(path);
}

static void test_text_report(void **state)
{
    (void)state;
    static judge_run run;
    char path[64], text[8192];
    sample_run(&run);
    capture(report_text, &run, path, sizeof(path));
    FILE *f = fopen(path, "r");
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    unlink(path);
    text[n] = '\0';
    assert_non_null(strstr(text, "  N=512: OK (0.500 ms median"));
    assert_non_null(strstr(text, "= 50% of the 4000 GB/s measured"));
    assert_non_null(strstr(text, "  N=512: OK (0.500 ms median of 3;"));
    assert_non_null(strstr(text, "timed on 3 repetitions: they stop once they have taken 2 s (a timed case's budget: 2 s"));
    assert_non_null(strstr(text, "  N=33: FAIL\n      1 of 2 cells wrong"));
    assert_non_null(strstr(text, "      hint: add c0*in[i][j][k] [centre-missing]"));
    assert_non_null(strstr(text, "      hint: as for N=33 above [centre-missing]"));
    assert_null(strstr(strstr(text, "add c0*in[i][j][k]") + 1, "add c0*in[i][j][k]"));  // the hint's text once
    assert_non_null(strstr(text, "hints: [centre-missing] the centre term is missing: N=33, N=65"));
    assert_non_null(strstr(text, "handouts/01-naive-sweep.md, \"Hints you may meet in this lab\""));
    assert_non_null(strstr(text, "replay: make check LAB=1 SEED=42 CASE=33"));
    assert_non_null(strstr(text, "  N=1024: skipped (too large for CPU emulation)"));
    assert_non_null(strstr(text, "halo 58% of the input tile"));
    assert_non_null(strstr(text, "verdict: FAIL — 1 of 3 cases passed"));
    assert_null(strstr(text, "CPU EMULATION"));
    snprintf(run.backend, sizeof(run.backend), "emu");
    snprintf(run.fallback, sizeof(run.fallback), "no driver");
    capture(report_text, &run, path, sizeof(path));
    f = fopen(path, "r");
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    unlink(path);
    text[n] = '\0';
    char *first = strstr(text, "CPU EMULATION");
    assert_non_null(first);
    assert_non_null(strstr(first + 1, "CPU EMULATION"));  // banner at the top and at the bottom
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_reproducible_and_in_range),
        cmocka_unit_test(test_rng_fill_threads),
        cmocka_unit_test(test_rng_fill_parts),
        cmocka_unit_test(test_grid_alloc),
        cmocka_unit_test(test_coefficients_distinct),
        cmocka_unit_test(test_kv),
        cmocka_unit_test(test_techniques),
        cmocka_unit_test(test_technique_loads),
        cmocka_unit_test(test_opb_radius),
        cmocka_unit_test(test_technique_radius),
        cmocka_unit_test(test_techniques_grid),
        cmocka_unit_test(test_opb_models),
        cmocka_unit_test(test_technique_time_blocking),
        cmocka_unit_test(test_technique_counts_loads),
        cmocka_unit_test(test_technique_heat2d),
        cmocka_unit_test(test_technique_solve_copies),
        cmocka_unit_test(test_spawn),
        cmocka_unit_test(test_remove_tree),
        cmocka_unit_test(test_spawn_server),
        cmocka_unit_test(test_spawn_pid_ended),
        cmocka_unit_test(test_helper_stop_leaves_server),
        cmocka_unit_test(test_yardstick_cache),
        cmocka_unit_test(test_ncu_csv),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_json_parses),
        cmocka_unit_test(test_text_report),
    };
    return cmocka_run_group_tests_name("parts", tests, NULL, NULL);
}
