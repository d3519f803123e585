// MUTANT: the second point of a float4 (lane y) takes its y-1 neighbour from lane x (up.x for up.y)
// expect-hint: term-wrong-cell
// (lab 6 solution with this one mistake.) Only rows of whole float4s take the
// vector path (64x12x10, 132x40x12): there every fourth column (k = 1, 5, 9,
// ...) has c3 on in[i][j-1][k-1], the cell diagonal to the point, not on
// in[i][j-1][k]. That cell is no term's cell of the star, so the one-term
// alternatives missed it (wrong-values); the verdict now tries every term
// read up to three columns away (a float4's other lanes) and names the term,
// the cell and the lane.
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

#ifndef BLOCK_X
#define BLOCK_X 32        // float4 columns a block covers along x (128 points)
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 4         // threads a block has along y (each computing ROWS rows)
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
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0      // blocks an SM must hold at once (__launch_bounds__); 0: not given
#endif
#ifndef UNROLL
#define UNROLL 4          // the z loop unrolled this many times; 0: as the compiler chooses
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
#ifndef MARCH
#define MARCH (ROWS != 1 || PREFETCH != 0 || ZFLIP != 0 ? 2 : 1)  // the vector kernel: 1 sweep_vec4, 2 sweep_vec4_rows
#endif

#if BLOCK_X < 1 || BLOCK_Y < 1 || BLOCK_X * BLOCK_Y > 1024
#error "BLOCK_X * BLOCK_Y must be 1 to 1024 threads"
#endif
#if SMALL_CHUNK < 1 || LARGE_CHUNK < 1
#error "SMALL_CHUNK and LARGE_CHUNK must be at least 1 plane"
#endif
#if ROWS < 1 || ROWS > 4 || PREFETCH < 0 || PREFETCH > 2 || ZFLIP < 0 || ZFLIP > 2 || MIN_BLOCKS < 0 || UNROLL < 0
#error "ROWS is 1 to 4, PREFETCH and ZFLIP 0 to 2, MIN_BLOCKS and UNROLL 0 or more"
#endif
#if MARCH != 1 && MARCH != 2
#error "MARCH is 1 (sweep_vec4) or 2 (sweep_vec4_rows)"
#endif
#if MARCH == 1 && (ROWS != 1 || PREFETCH != 0 || ZFLIP != 0)
#error "ROWS, PREFETCH and ZFLIP belong to MARCH 2"
#endif

#if MIN_BLOCKS > 0
#define SWEEP_BOUNDS __launch_bounds__(BLOCK_X * BLOCK_Y, MIN_BLOCKS)
#else
#define SWEEP_BOUNDS __launch_bounds__(BLOCK_X * BLOCK_Y)
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

// Four points (k0 .. k0+3) of row j, planes i0 .. i0+chunk-1 (interior only).
__global__ void SWEEP_BOUNDS
sweep_vec4(const float *__restrict__ in, float *__restrict__ out, unsigned int nx, unsigned int ny, unsigned int nz, unsigned int chunk)
{
    unsigned int k0 = 4 * (blockIdx.x * BLOCK_X + threadIdx.x);
    unsigned int j = blockIdx.y * BLOCK_Y + threadIdx.y + 1;
    unsigned int i0 = blockIdx.z * chunk + 1;
    if (k0 >= nx || j >= ny - 1 || i0 >= nz - 1)
        return;
    unsigned int iend = min(i0 + chunk, nz - 1);
    size_t plane = (size_t)nx * ny;
    const float *p = in + GRID_INDEX(i0, j, k0, ny, nx);
    float4 below = __ldg((const float4 *)(p - plane)), here = __ldg((const float4 *)p);
    bool inner = k0 >= 1 && k0 + 4 <= nx - 1;  // all four points interior: one vector store
    Z_LOOP_UNROLL
    for (unsigned int i = i0; i < iend; i++, p += plane) {
        float4 above = __ldg((const float4 *)(p + plane));
        float4 up = __ldg((const float4 *)(p - nx)), down = __ldg((const float4 *)(p + nx));
        float left = k0 > 0 ? __ldg(p - 1) : 0.0f, right = k0 + 4 < nx ? __ldg(p + 4) : 0.0f;
        float4 v;
        v.x = seven(here.x, left, here.y, up.x, down.x, below.x, above.x);
        v.y = seven(here.y, here.x, here.z, up.x, down.y, below.y, above.y);  // MUTANT: up.x
        v.z = seven(here.z, here.y, here.w, up.z, down.z, below.z, above.z);
        v.w = seven(here.w, here.z, right, up.w, down.w, below.w, above.w);
        float *q = out + GRID_INDEX(i, j, k0, ny, nx);
        if (inner) {
            __stcs((float4 *)q, v);
        } else {  // the first and last column of a row are boundary: write only interior points
            float w[4] = {v.x, v.y, v.z, v.w};
            for (unsigned int t = 0; t < 4; t++)
                if (k0 + t >= 1 && k0 + t + 1 < nx)
                    __stcs(q + t, w[t]);
        }
        below = here;
        here = above;
    }
}

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
        __stcs((float4 *)q, v);
    } else {
        float w[4] = {v.x, v.y, v.z, v.w};
        for (unsigned int t = 0; t < 4; t++)
            if (k0 + t >= 1 && k0 + t + 1 < nx)
                __stcs(q + t, w[t]);
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
            __stcs(out + GRID_INDEX(i, j, k, ny, nx), seven(here, __ldg(p - 1), __ldg(p + 1), __ldg(p - nx), __ldg(p + nx), below, above));
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
        dim3 grid(gx, gy, nchunks);
        sweep_vec4<<<grid, block>>>(d_in, d_out, nx, ny, nz, chunk);
#endif
    } else {
        dim3 grid((nx - 2 + BLOCK_X * BLOCK_Y - 1) / (BLOCK_X * BLOCK_Y), ny - 2 < 65535 ? ny - 2 : 65535, nchunks);
        sweep_scalar<<<grid, block>>>(d_in, d_out, nx, ny, nz, chunk);
    }
}
