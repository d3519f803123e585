// Lab 6 solution — a seven-point sweep at the copy limit. Instructors only.
//
// What it does, in the order the handout teaches it:
//   1. One thread owns FOUR consecutive x points of one row (a float4), so a
//      warp's loads and stores are 512-byte coalesced vector accesses and the
//      GPU issues a quarter of the load instructions of one point a thread.
//   2. The thread marches in z through a chunk of planes. The z neighbours
//      live in registers: each step loads only the next plane's float4 and
//      slides the previous and current ones down (PMPP §8.5's register
//      tiling, with no shared memory at all: the in-plane neighbours, the rows
//      j-1 and j+1 and the single floats at k-1 and k+4, are loaded through
//      the read-only path (__ldg) and mostly hit L1, since the warps of a
//      block load those rows for themselves anyway).
//   3. A block is 32 x 16 threads: 128 float4 columns x 16 rows. Its rows'
//      y neighbours are each other's rows, already in L1, except the row
//      above the block and the row below it, which other blocks load: 18
//      rows read from L2 for 16 written, where a block of 4 rows reads 6
//      for 4. On an H200 this is what counts. Nsight Compute shows L2 at
//      94% of its throughput both in the kit's copy kernel and in a sweep
//      with 4-row blocks, whose L2 reads were 1.6 times its DRAM reads;
//      16-row blocks brought them to 1.25 times.
//   4. Every SM holds 2048 threads (4 blocks): __launch_bounds__(512, 4)
//      holds a thread to 32 registers (on GPUs of 1536 threads an SM, 3
//      blocks and at most 42 registers), and the z loop is left as the
//      compiler writes it (not unrolled). Many threads with one load of the
//      next plane in flight each cover DRAM's latency as well as fewer
//      threads with four, and leave more of L1 to the block's rows.
//   5. Results go out with plain stores, written once and never read again.
//      (Streaming stores, __stcs, were 1-4% slower on an H200.)
//   6. The z chunk follows the grid: 4 planes when a plane is small (1 MiB at
//      N = 512: many short chunks keep every SM busy, and the two extra
//      planes a chunk re-reads come from L2), 32 when a plane is large (64
//      MiB at 4096 x 4096: L2 cannot hold the re-read planes, so chunks are
//      made long). Longer chunks on small planes read less from L2 but were
//      slower: 6 planes 83%, 8 planes 82% at N = 512.
// Measured on an H200 (CUDA 13.0) through the kit's timing
// (tests/bench/past_book_sweep.sh, the copy limit measured in the same run):
// 89.9% to 90.4% of the copy limit at 4096 x 4096 x 32 and 89.3% to 89.6% at
// 512^3 in seven runs (copy limit 4220-4250 GB/s), with each repetition
// timed from when its launch reaches the GPU; timed from when the host began
// to submit it, as the kit did before, 90.4% to 91.1% and 88.5% to 88.9%,
// against 86.0-86.8% and 82.0-83.8% for the solution before (32 x 4 blocks,
// the z loop unrolled four times, 47 registers, streaming stores), which
// reached 90.7% and 91.3% on an H100. Nsight Compute: L2's busiest part is
// the fabric between its two halves (lts__ltcfabric2ltc_cycles_active),
// 95% busy in this sweep at 512^3 and 94% in the kit's copy.
// The settings tried and what each gave: handouts/06-past-the-book.md.
//
// Grids whose rows are not a multiple of 4 floats, or whose buffers are not
// 16-byte aligned, take a scalar kernel with the same z march.
//
// Tuning knobs. Every macro below may be set from outside (nvcc -D, or a
// #define in front of a copy of this file, as tests/bench/past_book_sweep.sh
// does); the defaults are the solution described above. Besides the sizes:
//   MIN_BLOCKS  __launch_bounds__'s second argument: blocks an SM must hold
//               at once, which caps the registers a thread (0: not given).
//   UNROLL      #pragma unroll UNROLL on the z loop (0: the compiler's choice).
//   MARCH 2     the restructured march, sweep_vec4_rows: the x neighbours
//               loaded without branches, the interior planes split evenly
//               among the chunks, and the three knobs below. MARCH 1 (the
//               default unless one of them is set) is sweep_vec4.
//   ROWS        rows a thread computes, 1 to 4: the rows between them are
//               loaded once and serve as each other's y neighbours. (A grid
//               with fewer interior rows takes the scalar kernel.)
//   PREFETCH    software pipelining, more loads in flight a thread. 1: a
//               step loads the plane after the next one (the z march's
//               DRAM traffic) before computing its own; 2: the next step's
//               rows above and below and its x neighbours too.
//   ZFLIP       1: on large planes, 2: on every grid, the chunks of a column
//               are neighbours in launch order and every odd chunk marches
//               down. Two chunks that share a boundary then read its two
//               planes at about the same time (both as they start, or both as
//               they end), the second read from L2: a grid of few planes can
//               take short chunks (more, shorter blocks, a smaller last wave)
//               without reading the planes at the chunk boundaries twice from
//               DRAM.
//   L2_AHEAD    planes ahead of its march a block asks L2 to fetch (0: none).
//               A prefetch costs no register: the loads it serves then wait
//               on L2, not on DRAM, and more bytes are on their way at once.
//               A hint only: a GPU may drop it, and CPU emulation (no
//               __CUDA_ARCH__) leaves it out, so results never depend on it.
//   XSHFL       1: the x neighbours k0-1 and k0+4 from the next lanes' float4s
//               (__shfl_up_sync, __shfl_down_sync) instead of two scalar loads
//               a step; only a warp's first and last lanes load them
//               (BLOCK_X a multiple of 32: a warp is one row's run).
//   STREAM      1: results written with streaming stores (__stcs); 0: plain.
//   CLUSTER_X, CLUSTER_Y, CLUSTER_Z
//               blocks a thread block cluster holds along each axis (MARCH
//               1; sm_90 and later, built by nvcc): a cluster's blocks run
//               at once on the SMs of one GPC, which share one half of L2,
//               so the planes and rows two of them both read come from that
//               half for the second. (CPU emulation has no clusters.)
//   TAIL_CHUNK  on small planes, the last TAIL_PLANES planes of a column in
//               chunks of TAIL_CHUNK planes (MARCH 1; 0: none). Those
//               blocks are launched last and end sooner, so the GPU's last
//               wave of blocks is short and few SMs wait idle at the end.
//   ZTURN       1: every odd chunk of a column marches down (MARCH 1). Two
//               chunks that meet then read the planes they share near the
//               same time (both at their ends, or both at their starts),
//               which keeps those planes in L2 for the second read when
//               chunks are long.
//   ZSPLIT      threads a block has along z (MARCH 1): the block's ZSPLIT
//               layers march ZSPLIT chunks of one column that follow each
//               other, side by side on one SM, so a plane where two of its
//               chunks meet is read from L2 once and from L1 after: a block
//               reads ZSPLIT * chunk + 2 planes from L2, not ZSPLIT *
//               (chunk + 2), and keeps the short chunks' many loads in
//               flight at the start of a march. On large planes each layer
//               marches LARGE_CHUNK / ZSPLIT planes (rounded up), so a
//               block still covers LARGE_CHUNK.
//   L2_HOW      1: each thread prefetches its own 16 bytes (prefetch.global.L2);
//               2: one thread a row of the block asks for the row's bytes in
//               one bulk prefetch (cp.async.bulk.prefetch.L2, sm_90 and
//               later; earlier GPUs take 1).
//   ZSHARE      1: the planes where two chunks of a column meet are read from
//               L2 once (MARCH 1, sweep_vec4_share). The upper chunk keeps
//               the two planes it loads first in shared memory; the lower one
//               takes them from there for its last two steps, rows and x
//               neighbours included. The upper chunk is the block's next
//               layer (ZSPLIT) or the next block of a cluster along z
//               (CLUSTER_Z: distributed shared memory, sm_90 and later; CPU
//               emulation has no clusters and reads L2 there). L2 then serves
//               about 4 planes for every 4 written, not 6. Measured on an
//               H200, it is much slower: 52-60% of the copy limit at 512^3
//               and 47-75% at 4096 x 4096 x 32 over clusters of 2, 4 and 8
//               blocks, two layers, 40 registers and a carveout; Nsight
//               Compute saw L1's hit rate fall from 60% to 36% and L2 serve
//               1.7 times the solution's sectors (48.7 M against 29.0 M).
//   SHARE_CARVEOUT  ZSHARE's shared memory share of L1, in percent
//               (cudaFuncAttributePreferredSharedMemoryCarveout; 0: the
//               driver's choice).
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

#ifndef BLOCK_X
#define BLOCK_X 32        // float4 columns a block covers along x (128 points)
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 16        // threads a block has along y (each computing ROWS rows)
#endif
#ifndef SMALL_CHUNK
#define SMALL_CHUNK 4     // planes a thread marches when a plane is small
#endif
#ifndef LARGE_CHUNK
#define LARGE_CHUNK 32    // ... and when it is large
#endif
#ifndef LARGE_PLANE
#define LARGE_PLANE (4u << 20)  // points in a plane from which a plane counts as large (16 MiB)
#endif
#ifndef ZSPLIT
#define ZSPLIT 1          // threads a block has along z, each layer marching its own chunk (MARCH 1)
#endif
#ifndef MIN_BLOCKS
// Threads an SM holds: 2048 on the GPUs of sm_70, 72, 80, 90 and 100 (and
// in the host pass, which ignores launch bounds), 1024 on sm_75, 1536 on the
// rest (sm_86, 87, 89, 120): asking more of ptxas only earns a warning.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 700 || __CUDA_ARCH__ == 720 || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000
#define SM_THREADS 2048
#elif __CUDA_ARCH__ == 750
#define SM_THREADS 1024
#else
#define SM_THREADS 1536
#endif
#define MIN_BLOCKS (SM_THREADS / (BLOCK_X * BLOCK_Y * ZSPLIT))  // blocks an SM must hold at once (__launch_bounds__): all its threads; 0: not given
#endif
#ifndef UNROLL
#define UNROLL 0          // the z loop unrolled this many times; 0: as the compiler chooses
#endif
#ifndef ROWS
#define ROWS 1            // rows a thread computes (MARCH 2)
#endif
#ifndef PREFETCH
#define PREFETCH 0        // 1: the next plane loaded a step early, 2: its in-plane neighbours too (MARCH 2)
#endif
#ifndef ZFLIP
#define ZFLIP 0           // 1: chunks alternate in direction on large planes, 2: on every grid (MARCH 2)
#endif
#ifndef L2_AHEAD
#define L2_AHEAD 0        // planes ahead of the march prefetched into L2; 0: none
#endif
#ifndef L2_HOW
#define L2_HOW 2          // 1: a prefetch a thread, 2: a bulk prefetch a row of the block
#endif
#ifndef XSHFL
#define XSHFL 0           // 1: x neighbours through warp shuffles (MARCH 1)
#endif
#ifndef TAIL_CHUNK
#define TAIL_CHUNK 0      // planes of each of the short chunks that end a column on small planes; 0: none (MARCH 1)
#endif
#ifndef TAIL_PLANES
#define TAIL_PLANES 16    // planes at the top of the column marched in TAIL_CHUNK chunks
#endif
#ifndef ZTURN
#define ZTURN 0           // 1: odd chunks march down (MARCH 1)
#endif
#ifndef CLUSTER_X
#define CLUSTER_X 1       // a cluster's blocks along x (MARCH 1; 1, 1, 1: no clusters)
#endif
#ifndef CLUSTER_Y
#define CLUSTER_Y 1       // ... along y
#endif
#ifndef CLUSTER_Z
#define CLUSTER_Z 1       // ... along z
#endif
#ifndef ZSHARE
#define ZSHARE 0          // 1: a chunk's last two steps take the next chunk's first planes from shared memory (MARCH 1)
#endif
#ifndef SHARE_CARVEOUT
#define SHARE_CARVEOUT 0  // ZSHARE: the percent of an SM's L1 and shared memory set aside as shared memory; 0: the driver's choice
#endif
#ifndef STREAM
#define STREAM 0          // 1: streaming stores (__stcs); 0: plain stores
#endif
#ifndef MARCH
#define MARCH (ROWS != 1 || PREFETCH != 0 || ZFLIP != 0 ? 2 : 1)  // the vector kernel: 1 sweep_vec4, 2 sweep_vec4_rows
#endif

#if BLOCK_X < 1 || BLOCK_Y < 1 || ZSPLIT < 1 || ZSPLIT > 64 || BLOCK_X * BLOCK_Y * ZSPLIT > 1024
#error "BLOCK_X * BLOCK_Y * ZSPLIT must be 1 to 1024 threads (ZSPLIT at most 64)"
#endif
#if SMALL_CHUNK < 1 || LARGE_CHUNK < 1
#error "SMALL_CHUNK and LARGE_CHUNK must be at least 1 plane"
#endif
#if ROWS < 1 || ROWS > 4 || PREFETCH < 0 || PREFETCH > 2 || ZFLIP < 0 || ZFLIP > 2 || MIN_BLOCKS < 0 || UNROLL < 0
#error "ROWS is 1 to 4, PREFETCH and ZFLIP 0 to 2, MIN_BLOCKS and UNROLL 0 or more"
#endif
#if L2_AHEAD < 0 || L2_AHEAD > 64 || L2_HOW < 1 || L2_HOW > 2
#error "L2_AHEAD is 0 to 64 planes, L2_HOW 1 or 2"
#endif
#if MARCH != 1 && MARCH != 2
#error "MARCH is 1 (sweep_vec4) or 2 (sweep_vec4_rows)"
#endif
#if MARCH == 2 && (L2_AHEAD != 0 || XSHFL != 0 || ZSPLIT != 1 || ZTURN != 0)
#error "L2_AHEAD, XSHFL, ZSPLIT and ZTURN belong to MARCH 1"
#endif
#if CLUSTER_X < 1 || CLUSTER_Y < 1 || CLUSTER_Z < 1 || CLUSTER_X * CLUSTER_Y * CLUSTER_Z > 8
#error "CLUSTER_X * CLUSTER_Y * CLUSTER_Z is 1 to 8 blocks"
#endif
#if MARCH == 2 && CLUSTER_X * CLUSTER_Y * CLUSTER_Z > 1
#error "CLUSTER_X, CLUSTER_Y and CLUSTER_Z belong to MARCH 1"
#endif
#if TAIL_CHUNK < 0 || TAIL_PLANES < 0 || (TAIL_CHUNK > 0 && (MARCH == 2 || ZSPLIT != 1))
#error "TAIL_CHUNK and TAIL_PLANES are 0 or more, and a TAIL_CHUNK belongs to MARCH 1 without ZSPLIT"
#endif
#if TAIL_CHUNK > 0
#define SWEEP_TAIL_PARAM , unsigned int head  // the chunks of chunk planes; after them, chunks of TAIL_CHUNK planes
#define SWEEP_TAIL_ARG , head
#else
#define SWEEP_TAIL_PARAM
#define SWEEP_TAIL_ARG
#endif
#if ZTURN != 0 && (ZTURN != 1 || L2_AHEAD != 0)
#error "ZTURN is 0 or 1, and 1 takes no L2_AHEAD"
#endif
#if XSHFL != 0 && (XSHFL != 1 || BLOCK_X % 32 != 0)
#error "XSHFL is 0 or 1, and 1 needs BLOCK_X a multiple of 32"
#endif
#if STREAM != 0 && STREAM != 1
#error "STREAM is 0 or 1"
#endif
#if ZSHARE != 0 && (ZSHARE != 1 || MARCH != 1 || CLUSTER_X != 1 || CLUSTER_Y != 1 || L2_AHEAD != 0 || XSHFL != 0 || ZTURN != 0 || TAIL_CHUNK != 0)
#error "ZSHARE is 0 or 1, and 1 belongs to MARCH 1 with clusters along z only, without L2_AHEAD, XSHFL, ZTURN or TAIL_CHUNK"
#endif
#if SHARE_CARVEOUT < 0 || SHARE_CARVEOUT > 100
#error "SHARE_CARVEOUT is 0 to 100 percent"
#endif
#if STREAM
#define STORE_OUT(q, v) __stcs(q, v)
#else
#define STORE_OUT(q, v) (*(q) = (v))
#endif
#if MARCH == 1 && (ROWS != 1 || PREFETCH != 0 || ZFLIP != 0)
#error "ROWS, PREFETCH and ZFLIP belong to MARCH 2"
#endif

#if MIN_BLOCKS > 0
#define SWEEP_BOUNDS_OF(threads) __launch_bounds__(threads, MIN_BLOCKS)
#else
#define SWEEP_BOUNDS_OF(threads) __launch_bounds__(threads)
#endif
#define SWEEP_BOUNDS SWEEP_BOUNDS_OF(BLOCK_X * BLOCK_Y)  // the kernels of 2D blocks
#if CLUSTER_X * CLUSTER_Y * CLUSTER_Z > 1 && defined(__NVCC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define SWEEP_CLUSTER __cluster_dims__(CLUSTER_X, CLUSTER_Y, CLUSTER_Z)  // (nvcc for sm_90 on; CPU emulation runs blocks one by one)
#else
#define SWEEP_CLUSTER
#endif
#define SWEEP_PRAGMA_TEXT(text) _Pragma(#text)
#define SWEEP_PRAGMA(text) SWEEP_PRAGMA_TEXT(text)  // expands the macros in text first
#if UNROLL > 0
#define Z_LOOP_UNROLL SWEEP_PRAGMA(unroll UNROLL)
#else
#define Z_LOOP_UNROLL
#endif

static __device__ __forceinline__ float seven(float m, float xm, float xp, float ym, float yp, float zm, float zp)
{
    return c0 * m + c1 * xm + c2 * xp + c3 * ym + c4 * yp + c5 * zm + c6 * zp;
}

// Stores the four points from k0 of a row at q: one vector store when all
// four are interior (inner), else only the interior ones (the first and last
// column of a row are boundary). (A macro: the measured kernel's code, as it was.)
#define STORE4(q, v, k0, nx, inner)                               \
    if (inner) {                                                  \
        STORE_OUT((float4 *)(q), v);                              \
    } else {                                                      \
        float w[4] = {(v).x, (v).y, (v).z, (v).w};                \
        for (unsigned int t = 0; t < 4; t++)                      \
            if ((k0) + t >= 1 && (k0) + t + 1 < (nx))             \
                STORE_OUT((q) + t, w[t]);                         \
    }

#if L2_AHEAD > 0
// Asks L2 for the float4 at p, or (L2_HOW 2, thread x 0 of its block row)
// for the block row's floats from p on, up to the row's end: a hint, which
// changes no result. Compiled for the GPU only.
static __device__ __forceinline__ void l2_prefetch(const float *p, unsigned int k0, unsigned int nx)
{
#if defined(__CUDA_ARCH__)
#if L2_HOW == 2 && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) {
        unsigned int bytes = 4 * min(4u * BLOCK_X, nx - k0);  // nx % 4 == 0: a multiple of 16
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
    }
#else
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
#else
    (void)p, (void)k0, (void)nx;
#endif
}
#endif

// Four points (k0 .. k0+3) of row j, planes i0 .. i0+chunk-1 (interior only):
// the block's layer threadIdx.z marches chunk blockIdx.z * ZSPLIT + threadIdx.z.
__global__ void SWEEP_BOUNDS_OF(BLOCK_X * BLOCK_Y * ZSPLIT) SWEEP_CLUSTER
sweep_vec4(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk SWEEP_TAIL_PARAM)
{
    unsigned int k0 = 4 * (blockIdx.x * BLOCK_X + threadIdx.x);
    unsigned int j = blockIdx.y * BLOCK_Y + threadIdx.y + 1;
#if ZSPLIT > 1
    unsigned int c = blockIdx.z * ZSPLIT + threadIdx.z;  // the thread's chunk
#else
    unsigned int c = blockIdx.z;
#endif
#if TAIL_CHUNK > 0
    bool tail = c >= head;  // one of the short chunks at the top of the column, launched last
    unsigned int i0 = (tail ? head * chunk + (c - head) * TAIL_CHUNK : c * chunk) + 1, len = tail ? TAIL_CHUNK : chunk;
#else
    unsigned int i0 = c * chunk + 1, len = chunk;
#endif
#if XSHFL
    // A warp is 32 columns of one row: j and i0 are the same in every lane, so
    // a warp leaves whole, and a lane past the row's end stays for the shuffles
    // (it loads its own column again, in bounds, and writes nothing).
    if (j >= ny - 1 || i0 >= nz - 1)
        return;
    bool mine = k0 < nx;
    unsigned int lane = threadIdx.x % 32;
    if (!mine)
        k0 = nx - 4;
#else
    if (k0 >= nx || j >= ny - 1 || i0 >= nz - 1)
        return;
#endif
    unsigned int iend = min(i0 + len, nz - 1);
    size_t plane = (size_t)nx * ny;
#if ZTURN
    // An odd chunk marches down: "below" is then the plane behind the march
    // (i+1) and "above" the one ahead (i-1), swapped back for the sum.
    bool turn = c & 1;
    ptrdiff_t zstep = turn ? -(ptrdiff_t)plane : (ptrdiff_t)plane;
    const float *p = in + GRID_INDEX(turn ? iend - 1 : i0, j, k0, ny, nx);
#else
    size_t zstep = plane;
    const float *p = in + GRID_INDEX(i0, j, k0, ny, nx);
#endif
    float4 below = __ldg((const float4 *)(p - zstep)), here = __ldg((const float4 *)p);
    bool inner = k0 >= 1 && k0 + 4 <= nx - 1;  // all four points interior: one vector store
#if L2_AHEAD > 1
    for (unsigned int d = 2; d <= L2_AHEAD && i0 + d <= iend; d++)
        l2_prefetch(p + d * plane, k0, nx);  // the planes the first steps load after the next
#endif
    Z_LOOP_UNROLL
    for (unsigned int i = i0; i < iend; i++, p += zstep) {
#if L2_AHEAD > 0
        if (i + 1 + L2_AHEAD <= iend)
            l2_prefetch(p + (1 + L2_AHEAD) * plane, k0, nx);  // the plane this thread loads L2_AHEAD steps on
#endif
        float4 above = __ldg((const float4 *)(p + zstep));
        float4 up = __ldg((const float4 *)(p - nx)), down = __ldg((const float4 *)(p + nx));
#if XSHFL
        float left = __shfl_up_sync(0xffffffffu, here.w, 1), right = __shfl_down_sync(0xffffffffu, here.x, 1);
        if (lane == 0)
            left = k0 > 0 ? __ldg(p - 1) : 0.0f;
        if (lane == 31 || k0 + 4 >= nx)
            right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
#else
        float left = k0 > 0 ? __ldg(p - 1) : 0.0f, right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
#endif
#if ZTURN
        float4 zm = turn ? above : below, zp = turn ? below : above;  // the planes i-1 and i+1
#else
        float4 zm = below, zp = above;
#endif
        float4 v;
        v.x = seven(here.x, left, here.y, up.x, down.x, zm.x, zp.x);
        v.y = seven(here.y, here.x, here.z, up.y, down.y, zm.y, zp.y);
        v.z = seven(here.z, here.y, here.w, up.z, down.z, zm.z, zp.z);
        v.w = seven(here.w, here.z, right, up.w, down.w, zm.w, zp.w);
#if XSHFL
        if (mine)  // (a lane past the row's end writes nothing)
#endif
        {
#if ZTURN
            float *q = out + (p - in);
#else
            float *q = out + GRID_INDEX(i, j, k0, ny, nx);
#endif
            STORE4(q, v, k0, nx, inner)
        }
        below = here;
        here = above;
    }
}

#if ZSHARE
// Two chunks that follow each other in a column read two planes each: the
// planes where they meet. Here the chunk above loads them as it starts and
// keeps them in shared memory; the chunk below takes them from there for its
// last two steps instead of from L2. The next chunk is the next layer of the
// block (ZSPLIT), or the first layer of the next block of the cluster
// (CLUSTER_Z, sm_90 and later: distributed shared memory); at the top of a
// block without such a neighbour the planes come from L2, as in sweep_vec4.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && CLUSTER_Z > 1
#define SHARE_CLUSTER 1
#else
#define SHARE_CLUSTER 0
#endif

// The thread's i-th neighbour's... (a float4 of a layer's first planes)
#define SHARE_AT(h, s, y, x) ((h)[((s) * BLOCK_Y + (y)) * BLOCK_X + (x)])

#if SHARE_CLUSTER
static __device__ __forceinline__ unsigned int share_rank(void)  // the block's place in its cluster (along z)
{
    unsigned int r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

static __device__ __forceinline__ unsigned int share_ranks(void)  // the blocks of its cluster
{
    unsigned int r;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
#endif

static __device__ __forceinline__ void share_arrive(void)
{
#if SHARE_CLUSTER
    asm volatile("barrier.cluster.arrive.release;" ::: "memory");
#endif
}

static __device__ __forceinline__ void share_wait(void)
{
#if SHARE_CLUSTER
    asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
#else
    __syncthreads();
#endif
}

// One step of the march at plane i: the four points' sums, stored.
static __device__ __forceinline__ void share_step(float *out, unsigned int i, unsigned int j, unsigned int k0, unsigned int ny, unsigned int nx,
                                                  float4 below, float4 here, float4 above, float4 up, float4 down, float left, float right)
{
    float4 v;
    v.x = seven(here.x, left, here.y, up.x, down.x, below.x, above.x);
    v.y = seven(here.y, here.x, here.z, up.y, down.y, below.y, above.y);
    v.z = seven(here.z, here.y, here.w, up.z, down.z, below.z, above.z);
    v.w = seven(here.w, here.z, right, up.w, down.w, below.w, above.w);
    float *q = out + GRID_INDEX(i, j, k0, ny, nx);
    STORE4(q, v, k0, nx, k0 >= 1 && k0 + 4 <= nx - 1)
}

__global__ void SWEEP_BOUNDS_OF(BLOCK_X * BLOCK_Y * ZSPLIT) SWEEP_CLUSTER
sweep_vec4_share(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk)
{
    __shared__ float4 head[ZSPLIT][2][BLOCK_Y][BLOCK_X];  // each layer's planes i0-1 and i0, as its threads loaded them
    unsigned int tx = threadIdx.x, ty = threadIdx.y, tz = ZSPLIT > 1 ? threadIdx.z : 0;
    // Every thread of a layer marches the same planes, and stays for the
    // barriers: a thread past the grid's rows or columns loads the last
    // column or row instead of its own, and stores nothing.
    unsigned int k0 = 4 * (blockIdx.x * BLOCK_X + tx), j = blockIdx.y * BLOCK_Y + ty + 1;
    bool mine = k0 < nx && j < ny - 1;
    unsigned int i0 = (blockIdx.z * ZSPLIT + tz) * chunk + 1;
    unsigned int iend = i0 < nz - 1 ? min(i0 + chunk, nz - 1) : i0;  // (no plane: a block that pads a cluster)
    size_t plane = (size_t)nx * ny;
    const float *p = in + GRID_INDEX(min(i0, nz - 2), min(j, ny - 2), min(k0, nx - 4), ny, nx);
    float4 below = __ldg((const float4 *)(p - plane)), here = __ldg((const float4 *)p);
    head[tz][0][ty][tx] = below;
    head[tz][1][ty][tx] = here;
    share_arrive();
    bool near = tz + 1 < ZSPLIT;  // the next chunk is the block's next layer
#if SHARE_CLUSTER
    near = near || share_rank() + 1 < share_ranks();  // ... or the next block's first layer
#endif
    // when the next chunk exists and its planes are at hand, the last two steps read them
    unsigned int stop = near && iend == i0 + chunk && iend < nz - 1 ? max(i0, iend - 2) : iend;
    for (unsigned int i = i0; i < stop; i++, p += plane) {
        float4 above = __ldg((const float4 *)(p + plane));
        float4 up = __ldg((const float4 *)(p - nx)), down = __ldg((const float4 *)(p + nx));
        float left = k0 > 0 ? __ldg(p - 1) : 0.0f, right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
        if (mine)
            share_step(out, i, j, k0, ny, nx, below, here, above, up, down, left, right);
        below = here;
        here = above;
    }
    share_wait();
    if (stop < iend) {
        const float4 *next = &head[tz + 1 < ZSPLIT ? tz + 1 : 0][0][0][0];  // the next chunk's first planes
#if SHARE_CLUSTER
        if (tz + 1 == ZSPLIT)
            asm("mapa.u64 %0, %1, %2;" : "=l"(next) : "l"(next), "r"(share_rank() + 1));
#endif
        if (stop + 2 == iend) {  // plane iend-1 ahead
            float4 above = SHARE_AT(next, 0, ty, tx);
            float4 up = __ldg((const float4 *)(p - nx)), down = __ldg((const float4 *)(p + nx));
            float left = k0 > 0 ? __ldg(p - 1) : 0.0f, right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
            if (mine)
                share_step(out, iend - 2, j, k0, ny, nx, below, here, above, up, down, left, right);
            below = here;
            p += plane;
        }
        // plane iend ahead, at plane iend-1: the next chunk's first plane, its rows and x neighbours too
        here = SHARE_AT(next, 0, ty, tx);
        float4 above = SHARE_AT(next, 1, ty, tx);
        float4 up = ty > 0 ? SHARE_AT(next, 0, ty - 1, tx) : __ldg((const float4 *)(p - nx));
        float4 down = ty + 1 < BLOCK_Y && j + 1 < ny - 1 ? SHARE_AT(next, 0, ty + 1, tx) : __ldg((const float4 *)(p + nx));
        float left = k0 == 0 ? 0.0f : tx > 0 ? SHARE_AT(next, 0, ty, tx - 1).w : __ldg(p - 1);
        float right = k0 + 4 >= nx ? 0.0f : tx + 1 < BLOCK_X ? SHARE_AT(next, 0, ty, tx + 1).x : __ldg(p + 4);
        if (mine)
            share_step(out, iend - 1, j, k0, ny, nx, below, here, above, up, down, left, right);
    }
#if SHARE_CLUSTER
    share_arrive();  // no block leaves while the block below may still read its planes
    share_wait();
#endif
}
#endif

#if MARCH == 2
// The in-plane neighbours one step of sweep_vec4_rows reads besides its own
// rows: the rows just before and after them, and each row's x neighbours.
typedef struct side_loads {
    float4 ym;            // row j-1
    float4 yp;            // row j+ROWS
    float xm[ROWS];       // each row's float at k0-1 (at k0 = 0 any float of the row: unused)
    float xp[ROWS];       // ... and at k0+4 (at the row's end any float of it: unused)
} side_loads;

// Loads the ROWS float4s at p, p + nx, ... (rows j .. j+ROWS-1 of one plane).
static __device__ __forceinline__ void load_rows(float4 *v, const float *p, unsigned int nx)
{
#pragma unroll
    for (int r = 0; r < ROWS; r++)
        v[r] = __ldg((const float4 *)(p + (size_t)r * nx));
}

// Loads s for the plane at p (row j, column k0); xm, xp: from k0 to the x
// neighbours' floats.
static __device__ __forceinline__ void load_side(side_loads &s, const float *p, unsigned int nx, int xm, int xp)
{
    s.ym = __ldg((const float4 *)(p - nx));
    s.yp = __ldg((const float4 *)(p + (size_t)ROWS * nx));
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        s.xm[r] = __ldg(p + (size_t)r * nx + xm);
        s.xp[r] = __ldg(p + (size_t)r * nx + xp);
    }
}

// Writes the four results v at q, only the interior ones when the float4
// holds a boundary column (inner: it holds none).
static __device__ __forceinline__ void store_four(float *q, float4 v, bool inner, unsigned int k0, unsigned int nx)
{
    if (inner) {
        STORE_OUT((float4 *)q, v);
    } else {
        float w[4] = {v.x, v.y, v.z, v.w};
        for (unsigned int t = 0; t < 4; t++)
            if (k0 + t >= 1 && k0 + t + 1 < nx)
                STORE_OUT(q + t, w[t]);
    }
}

// Four points (k0 .. k0+3) of ROWS rows j .. j+ROWS-1 each, through one of
// the nchunks chunks that split the interior planes evenly. alternate: the
// chunk is blockIdx.x % nchunks (the chunks of a column are neighbours in
// launch order) and an odd chunk marches down; otherwise the chunk is
// blockIdx.z and every chunk marches up. Needs ny - 2 >= ROWS.
__global__ void SWEEP_BOUNDS
sweep_vec4_rows(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz,
                unsigned int nchunks, int alternate)
{
    unsigned int bx = alternate ? blockIdx.x / nchunks : blockIdx.x;
    unsigned int c = alternate ? blockIdx.x % nchunks : blockIdx.z;
    unsigned int k0 = 4 * (bx * BLOCK_X + threadIdx.x);
    unsigned int jt = (blockIdx.y * BLOCK_Y + threadIdx.y) * ROWS + 1;  // the thread's first row
    if (k0 >= nx || jt >= ny - 1)
        return;
    // The last thread of a column moves up until its ROWS rows are interior,
    // and leaves the rows it then shares with the thread before to that one.
    unsigned int j = ROWS == 1 ? jt : min(jt, ny - 1 - ROWS);
    unsigned int skip = jt - j;  // its first rows, not written (0 in every other thread)
    unsigned int interior = nz - 2;  // >= 1; nchunks <= interior, so every chunk has a plane
    unsigned int lo = 1 + (unsigned int)((unsigned long long)c * interior / nchunks);
    unsigned int hi = 1 + (unsigned int)((unsigned long long)(c + 1) * interior / nchunks);  // planes lo .. hi-1
    bool down = alternate && (c & 1);
    size_t plane = (size_t)nx * ny;
    ptrdiff_t step = down ? -(ptrdiff_t)plane : (ptrdiff_t)plane;  // to the next plane of the march
    float cb = down ? c6 : c5, ca = down ? c5 : c6;                 // the coefficients of the planes behind and ahead
    int xm = k0 > 0 ? -1 : 0, xp = k0 + 4 < nx ? 4 : 3;
    bool inner = k0 >= 1 && k0 + 4 <= nx - 1;  // all four points interior: one vector store

    size_t at = GRID_INDEX(down ? hi - 1 : lo, j, k0, ny, nx);  // the first step's plane, row j, column k0
    float4 behind[ROWS], here[ROWS], ahead[ROWS];
    side_loads side;
    load_rows(behind, in + at - step, nx);
    load_rows(here, in + at, nx);
#if PREFETCH >= 1
    load_rows(ahead, in + at + step, nx);
#endif
#if PREFETCH >= 2
    load_side(side, in + at, nx, xm, xp);
#endif
    const float *p = in + at;  // the step's plane, row j, column k0
    Z_LOOP_UNROLL
    for (unsigned int n = hi - lo; n > 0; n--, p += step) {
#if PREFETCH >= 1
        // The next step's plane (the last step takes its own again: in bounds, unused).
        const float *pn = n > 1 ? p + step : p;
        float4 ahead_next[ROWS];
        load_rows(ahead_next, pn + step, nx);
#else
        load_rows(ahead, p + step, nx);
#endif
#if PREFETCH >= 2
        side_loads side_next;
        load_side(side_next, pn, nx, xm, xp);
#else
        load_side(side, p, nx, xm, xp);
#endif
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            float4 h = here[r], b = behind[r], a = ahead[r];
            float4 ym = r == 0 ? side.ym : here[r == 0 ? 0 : r - 1];             // the row before: loaded, or the slot before
            float4 yp = r == ROWS - 1 ? side.yp : here[r == ROWS - 1 ? r : r + 1];  // the row after: loaded, or the slot after
            float4 v;
            v.x = c0 * h.x + c1 * side.xm[r] + c2 * h.y + c3 * ym.x + c4 * yp.x + cb * b.x + ca * a.x;
            v.y = c0 * h.y + c1 * h.x + c2 * h.z + c3 * ym.y + c4 * yp.y + cb * b.y + ca * a.y;
            v.z = c0 * h.z + c1 * h.y + c2 * h.w + c3 * ym.z + c4 * yp.z + cb * b.z + ca * a.z;
            v.w = c0 * h.w + c1 * h.z + c2 * side.xp[r] + c3 * ym.w + c4 * yp.w + cb * b.w + ca * a.w;
            if ((unsigned int)r >= skip)
                store_four(out + (p - in) + (size_t)r * nx, v, inner, k0, nx);
        }
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            behind[r] = here[r];
            here[r] = ahead[r];
#if PREFETCH >= 1
            ahead[r] = ahead_next[r];
#endif
        }
#if PREFETCH >= 2
        side = side_next;
#endif
    }
}
#endif

// The same march, one point a thread: for rows that are not whole float4s.
__global__ void SWEEP_BOUNDS
sweep_scalar(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk)
{
    unsigned int k = blockIdx.x * (BLOCK_X * BLOCK_Y) + threadIdx.y * BLOCK_X + threadIdx.x + 1;
    unsigned int i0 = blockIdx.z * chunk + 1;
    if (k >= nx - 1 || i0 >= nz - 1)
        return;
    unsigned int iend = min(i0 + chunk, nz - 1);
    size_t plane = (size_t)nx * ny;
    for (unsigned int j = blockIdx.y + 1; j < ny - 1; j += gridDim.y) {  // rows beyond a grid's 65535 limit
        const float *p = in + GRID_INDEX(i0, j, k, ny, nx);
        float below = __ldg(p - plane), here = __ldg(p);
        Z_LOOP_UNROLL
        for (unsigned int i = i0; i < iend; i++, p += plane) {
            float above = __ldg(p + plane);
            STORE_OUT(out + GRID_INDEX(i, j, k, ny, nx), seven(here, __ldg(p - 1), __ldg(p + 1), __ldg(p - nx), __ldg(p + nx), below, above));
            below = here;
            here = above;
        }
    }
}

void launch_sweep(float *d_in, float *d_out, unsigned int nx, unsigned int ny, unsigned int nz)
{
    if (nx < 3 || ny < 3 || nz < 3)
        return;  // no interior point
    bool large = (size_t)nx * ny >= LARGE_PLANE;
    unsigned int chunk = large ? LARGE_CHUNK : SMALL_CHUNK;
    unsigned int layers = MARCH == 1 ? ZSPLIT : 1;  // chunks a block of the vector kernel marches side by side
    if (large)
        chunk = (chunk + layers * (ZSHARE ? CLUSTER_Z : 1) - 1) / (layers * (ZSHARE ? CLUSTER_Z : 1));  // a block (a sharing cluster) still covers LARGE_CHUNK planes
    if ((nz - 2 + chunk - 1) / chunk > 65535)
        chunk = (nz - 2 + 65534) / 65535;  // a grid's z limit: longer chunks on grids of very many planes
    unsigned int nchunks = (nz - 2 + chunk - 1) / chunk;
    dim3 block(BLOCK_X, BLOCK_Y);
    unsigned int gx = (nx / 4 + BLOCK_X - 1) / BLOCK_X, gy = (ny - 2 + BLOCK_Y * ROWS - 1) / (BLOCK_Y * ROWS);
    bool vec = nx % 4 == 0 && ((uintptr_t)d_in % 16) == 0 && ((uintptr_t)d_out % 16) == 0 &&
               gy <= 65535 && ny - 2 >= ROWS;  // gy: ny up to 262,000 at 4 rows a block
    if (vec) {
#if MARCH == 2
        int alternate = (ZFLIP == 2 || (ZFLIP == 1 && large)) && nchunks > 1 && (unsigned long long)gx * nchunks <= 0x7fffffffu;
        dim3 grid(alternate ? gx * nchunks : gx, gy, alternate ? 1 : nchunks);
        sweep_vec4_rows<<<grid, block>>>(d_in, d_out, nx, ny, nz, nchunks, alternate);
#else
#if TAIL_CHUNK > 0
        unsigned int head = 0xffffffffu, interior = nz - 2;  // (on large planes every chunk is chunk planes long)
        if (!large) {
            unsigned int h = interior > TAIL_PLANES ? (interior - TAIL_PLANES) / chunk : 0;
            unsigned int n = h + (interior - h * chunk + TAIL_CHUNK - 1) / TAIL_CHUNK;
            if (n <= 65535)
                head = h, nchunks = n;
        }
#endif
        unsigned int gz = (nchunks + layers - 1) / layers;
        // a whole number of clusters along each axis (the blocks past the grid leave at once)
        dim3 grid((gx + CLUSTER_X - 1) / CLUSTER_X * CLUSTER_X, (gy + CLUSTER_Y - 1) / CLUSTER_Y * CLUSTER_Y,
                  (gz + CLUSTER_Z - 1) / CLUSTER_Z * CLUSTER_Z);
#if ZSHARE
        static bool carved = false;  // (once: the attribute stays with the kernel)
        if (SHARE_CARVEOUT > 0 && !carved)
            cudaFuncSetAttribute(sweep_vec4_share, cudaFuncAttributePreferredSharedMemoryCarveout, SHARE_CARVEOUT);
        carved = true;
        sweep_vec4_share<<<grid, dim3(BLOCK_X, BLOCK_Y, layers)>>>(d_in, d_out, nx, ny, nz, chunk);
#else
        sweep_vec4<<<grid, dim3(BLOCK_X, BLOCK_Y, layers)>>>(d_in, d_out, nx, ny, nz, chunk SWEEP_TAIL_ARG);
#endif
#endif
    } else {
        dim3 grid((nx - 2 + BLOCK_X * BLOCK_Y - 1) / (BLOCK_X * BLOCK_Y), ny - 2 < 65535 ? ny - 2 : 65535, nchunks);
        sweep_scalar<<<grid, block>>>(d_in, d_out, nx, ny, nz, chunk);
    }
}
