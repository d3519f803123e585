// grader/executor/trusted.cu — the kit's own kernels: fresh inputs for every
// timed repetition, the checks of each repetition's output, the reference
// whole solves (Jacobi, the heat update) and the copy-limit yardstick.
//
// Nothing the program computes is used here: inputs come from a seed drawn
// after the program started, the reference from the kit's own code, and the
// input's keyed hash (its key never leaves this process) shows whether the
// program changed the input it was given.
#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "executor.h"
#include "jacobi.h"
#include "protocol.h"

#define TRUSTED_BLOCK 256   // threads per block of every kernel here
#define TRUSTED_GRID  4096  // blocks of a grid-stride kernel

// ---------------------------------------------------------------------------
// Random values and hashes
// ---------------------------------------------------------------------------

// The keyed hash term of cell index holding v (grid_fill.h: summed, so the
// hash does not depend on the order cells are visited).
__device__ static inline unsigned long long trusted_term(uint64_t key, uint64_t index, float v)
{
    return (unsigned long long)grid_fill_term(key, index, __float_as_uint(v));
}

// Adds a block's partial hash and counts to the totals (one atomic each).
__device__ static void trusted_flush(check_counts *c, unsigned long long hash, unsigned long long wrong,
                                     unsigned long long unwritten, unsigned long long boundary,
                                     unsigned long long guards, unsigned long long first)
{
    if (hash) atomicAdd(&c->input_hash, hash);
    if (wrong) atomicAdd(&c->wrong, wrong);
    if (unwritten) atomicAdd(&c->unwritten, unwritten);
    if (boundary) atomicAdd(&c->boundary, boundary);
    if (guards) atomicAdd(&c->guards, guards);
    if (first != ~0ull) atomicMin(&c->first, first);
}

// Allocates a zeroed check_counts on the device (first = ~0).
static check_counts *trusted_counts(void)
{
    check_counts zero, *d = NULL;
    memset(&zero, 0, sizeof(zero));
    zero.first = ~0ull;
    if (cudaMalloc((void **)&d, sizeof(zero)) != cudaSuccess)
        return NULL;
    cudaMemcpy(d, &zero, sizeof(zero), cudaMemcpyHostToDevice);
    return d;
}

// Copies the device counts into c and frees them.
static void trusted_take(check_counts *d, check_counts *c)
{
    memset(c, 0, sizeof(*c));
    c->first = ~0ull;
    if (!d || cudaMemcpy(c, d, sizeof(*c), cudaMemcpyDeviceToHost) != cudaSuccess)
        c->wrong = ~0ull;  // could not check: count it as wrong
    cudaFree(d);
}

__device__ static inline bool trusted_same_bits(float a, uint32_t bits) { return __float_as_uint(a) == bits; }

// A grid's size, passed to kernels by value.
typedef struct trusted_dims {
    unsigned n[3];   // nx, ny, nz
} trusted_dims;

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------

// Writes the input grid, the output's kept cells and poison, and both guards;
// hashes the input as written.
__global__ void trusted_sweep_fill(float *in_base, float *out_base, size_t guard, trusted_dims d, int every_cell,
                                   int star_radius, uint64_t seed, uint64_t key, check_counts *c)
{
    const unsigned nx = d.n[0], ny = d.n[1], nz = d.n[2];
    size_t cells = (size_t)nx * ny * nz, total = cells + 2 * guard;
    unsigned long long hash = 0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        if (q < guard || q >= guard + cells) {
            in_base[q] = __uint_as_float(GUARD_BITS);
            out_base[q] = __uint_as_float(GUARD_BITS);
            continue;
        }
        size_t p = q - guard;
        unsigned k = (unsigned)(p % nx), j = (unsigned)((p / nx) % ny), i = (unsigned)(p / ((size_t)nx * ny));
        float v = grid_fill_value(seed, p);
        bool written = protocol_cell_written(every_cell, star_radius, i, j, k, nx, ny, nz);
        in_base[q] = v;
        out_base[q] = written ? __uint_as_float(POISON_BITS) : v;
        hash += trusted_term(key, p, v);
    }
    atomicAdd(&c->input_hash, hash);
}

// Writes the output's kept cells (the input's), poison and guards.
__global__ void trusted_sweep_poison(const float *in_base, float *out_base, size_t guard, trusted_dims d, int every_cell,
                                     int star_radius)
{
    const unsigned nx = d.n[0], ny = d.n[1], nz = d.n[2];
    size_t cells = (size_t)nx * ny * nz, total = cells + 2 * guard;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        if (q < guard || q >= guard + cells) {
            out_base[q] = __uint_as_float(GUARD_BITS);
            continue;
        }
        size_t p = q - guard;
        unsigned k = (unsigned)(p % nx), j = (unsigned)((p / nx) % ny), i = (unsigned)(p / ((size_t)nx * ny));
        out_base[q] = protocol_cell_written(every_cell, star_radius, i, j, k, nx, ny, nz) ? __uint_as_float(POISON_BITS) : in_base[q];
    }
}

cudaError_t trusted_sweep_output(const float *in_base, float *out_base, size_t guard, const unsigned n[3], int every_cell,
                          int star_radius)
{
    trusted_dims dims = {{n[0], n[1], n[2]}};
    trusted_sweep_poison<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(in_base, out_base, guard, dims, every_cell, star_radius);
    return cudaDeviceSynchronize();
}

uint64_t trusted_sweep_prepare(float *in_base, float *out_base, size_t guard, const unsigned n[3], int every_cell,
                               int star_radius, uint64_t seed, uint64_t key)
{
    check_counts *d = trusted_counts(), c;
    trusted_dims dims = {{n[0], n[1], n[2]}};
    trusted_sweep_fill<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(in_base, out_base, guard, dims, every_cell, star_radius, seed, key, d);
    trusted_take(d, &c);
    return c.input_hash;
}

// The weights of a check, passed to kernels by value: a star's c0..c(6r) in
// protocol.h's order (filter_radius 0), or a convolution's (2R+1)^2 filter
// row by row.
typedef struct trusted_weights {
    float w[PROTOCOL_MAX_WEIGHTS];   // the weights
    int star_radius;                 // a star's radius r: 6r + 1 points, a boundary r layers thick; 0 with a filter
    int filter_radius;               // a convolution's filter radius R (every cell written); 0: a star's sweep
} trusted_weights;

// The expected value of cell p = (i, j, k) and the sum of its terms'
// magnitudes, in double: the star (an interior cell; the centre, then
// distance by distance x-, x+, y-, y+, z-, z+: reference_point's order), or
// the convolution at pixel (j, k) with ghost cells 0.
__device__ static double trusted_expected(const float *in, size_t p, unsigned j, unsigned k, trusted_dims d,
                                          const trusted_weights *wt, double *mag)
{
    const size_t row = d.n[0], plane = (size_t)d.n[0] * d.n[1];
    if (!wt->filter_radius) {
        const size_t stride[3] = {1, row, plane};
        double want = (double)wt->w[0] * in[p];
        *mag = fabs(want);
        for (int dist = 1; dist <= wt->star_radius; dist++)
            for (int a = 0; a < 3; a++)
                for (int side = 0; side < 2; side++) {
                    size_t off = (size_t)dist * stride[a];
                    double t = (double)wt->w[STENCIL_COEF_INDEX(a, side, dist)] * in[side ? p + off : p - off];
                    want += t;
                    *mag += fabs(t);
                }
        return want;
    }
    const int r = wt->filter_radius, width = 2 * r + 1;
    double want = 0.0;
    *mag = 0.0;
    for (int i = -r; i <= r; i++) {
        long y = (long)j + i;
        if (y < 0 || y >= (long)d.n[1])
            continue;  // a ghost row: 0
        for (int q = -r; q <= r; q++) {
            long x = (long)k + q;
            if (x < 0 || x >= (long)d.n[0])
                continue;
            double t = (double)wt->w[(i + r) * width + (q + r)] * in[(size_t)y * row + (size_t)x];
            want += t;
            *mag += fabs(t);
        }
    }
    return want;
}

// 1 if position q of two guarded buffers (guard cells, the grid's cells,
// guard cells) lies in a guard zone, where it adds 1 to *guards if either
// buffer's cell lost GUARD_BITS; 0 for a cell of the grid.
__device__ static inline bool trusted_in_guard(size_t q, size_t guard, size_t cells, const float *a_base, const float *b_base,
                                               unsigned long long *guards)
{
    if (q >= guard && q < guard + cells)
        return false;
    *guards += !trusted_same_bits(a_base[q], GUARD_BITS) || !trusted_same_bits(b_base[q], GUARD_BITS);
    return true;
}

// Checks every cell of a sweep's output (see trusted_sweep_check).
__global__ void trusted_sweep_verify(const float *in_base, const float *out_base, size_t guard, trusted_dims d,
                                     trusted_weights wt, double rtol, double atol, uint64_t key, check_counts *c)
{
    const unsigned nx = d.n[0], ny = d.n[1], nz = d.n[2];
    size_t cells = (size_t)nx * ny * nz, total = cells + 2 * guard, plane = (size_t)nx * ny;
    unsigned long long hash = 0, wrong = 0, unwritten = 0, boundary = 0, guards = 0, first = ~0ull;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        if (trusted_in_guard(q, guard, cells, in_base, out_base, &guards))
            continue;
        size_t p = q - guard;
        const float *in = in_base + guard;
        unsigned k = (unsigned)(p % nx), j = (unsigned)((p / nx) % ny), i = (unsigned)(p / plane);
        float x = in[p], got = out_base[q];
        hash += trusted_term(key, p, x);
        bool interior = protocol_cell_written(wt.filter_radius > 0, wt.star_radius, i, j, k, nx, ny, nz);
        if (!interior) {
            if (__float_as_uint(got) != __float_as_uint(x)) {
                boundary++;
                first = min(first, (unsigned long long)p);
            }
            continue;
        }
        if (trusted_same_bits(got, POISON_BITS)) {
            unwritten++;
            first = min(first, (unsigned long long)p);
            continue;
        }
        double mag, want = trusted_expected(in, p, j, k, d, &wt, &mag);
        if (!(fabs((double)got - want) <= atol + rtol * mag)) {  // a NaN fails too
            wrong++;
            first = min(first, (unsigned long long)p);
        }
    }
    trusted_flush(c, hash, wrong, unwritten, boundary, guards, first);
}

void trusted_sweep_check(const float *in_base, const float *out_base, size_t guard, const unsigned n[3], const float *coef,
                         int star_radius, int filter_radius, double rtol, double atol, uint64_t key, check_counts *c)
{
    check_counts *d = trusted_counts();
    trusted_dims dims = {{n[0], n[1], n[2]}};
    trusted_weights wt;
    memset(&wt, 0, sizeof(wt));
    wt.star_radius = filter_radius ? 0 : star_radius;
    wt.filter_radius = filter_radius;
    memcpy(wt.w, coef, sizeof(float) * (size_t)(filter_radius ? FILTER_NWEIGHTS(filter_radius) : STENCIL_NCOEF(star_radius)));
    if (d)
        trusted_sweep_verify<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(in_base, out_base, guard, dims, wt, rtol, atol, key, d);
    trusted_take(d, c);
}

// Counts the cells whose bits differ between a and b.
__global__ void trusted_differ(const float *a, const float *b, size_t n, check_counts *c)
{
    unsigned long long differ = 0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < n; q += (size_t)gridDim.x * blockDim.x)
        differ += __float_as_uint(a[q]) != __float_as_uint(b[q]);
    if (differ)
        atomicAdd(&c->wrong, differ);
}

unsigned long long trusted_count_differ(const float *a, const float *b, size_t n)
{
    check_counts *d = trusted_counts(), c;
    if (d)
        trusted_differ<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(a, b, n, d);
    trusted_take(d, &c);
    return c.wrong;
}

// ---------------------------------------------------------------------------
// Whole solves: Jacobi (labs 5, 9) and the heat update (lab 10)
// ---------------------------------------------------------------------------

// jacobi.h's source s(x) of position x on an axis of m points (grid_fill.h).
__host__ __device__ static inline unsigned trusted_source(unsigned x, unsigned m, int bc)
{
    return grid_fill_source(x, m, bc);
}

// Where stored cell p (rows of s.pitch floats) lies: (i, j, k); 0 for a padding cell (k >= nx), 1 otherwise.
__device__ static inline int trusted_locate(const trusted_solve &s, size_t p, unsigned *i, unsigned *j, unsigned *k)
{
    *k = (unsigned)(p % s.pitch);
    *j = (unsigned)((p / s.pitch) % s.n[1]);
    *i = (unsigned)(p / ((size_t)s.pitch * s.n[1]));
    return *k < s.n[0];
}

// The initial grid's value at (i, j, k) (grid_fill.h's rule: a Jacobi
// boundary cell copies its source; a heat edge holds one temperature).
__device__ static inline float trusted_u0(uint64_t seed, unsigned i, unsigned j, unsigned k, const trusted_solve &s)
{
    if (s.heat) {
        int e = protocol_heat_edge(j, k, s.n[0], s.n[1]);
        return e >= 0 ? grid_fill_heat_edge(seed, e) : grid_fill_solve_u0(seed, (size_t)j * s.n[0] + k);
    }
    unsigned si = trusted_source(i, s.n[2], s.bc), sj = trusted_source(j, s.n[1], s.bc), sk = trusted_source(k, s.n[0], s.bc);
    return grid_fill_solve_u0(seed, ((size_t)si * s.n[1] + sj) * s.n[0] + sk);
}

// f at (i, j, k), in float as the program reads it; 0 for the heat update.
__device__ static inline float trusted_f(uint64_t seed, unsigned i, unsigned j, unsigned k, const trusted_solve &s)
{
    return s.heat ? 0.0f : grid_fill_solve_f(seed, ((size_t)i * s.n[1] + j) * s.n[0] + k, s.h);
}

// Writes d_a = d_b = u0 and d_f, padding and guards around all three; hashes
// f under key, and adds the plain sum of u0 and f (grid_fill_term keys 0 and
// 1, unpadded indices) to c->plain_sum.
__global__ void trusted_jacobi_fill(float *a_base, float *b_base, float *f_base, size_t guard, trusted_solve s,
                                    uint64_t seed, uint64_t key, check_counts *c)
{
    size_t cells = (size_t)s.pitch * s.n[1] * s.n[2], total = cells + 2 * guard;
    unsigned long long hash = 0, plain = 0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        if (q < guard || q >= guard + cells) {
            float g = __uint_as_float(GUARD_BITS);
            a_base[q] = g, b_base[q] = g, f_base[q] = g;
            continue;
        }
        size_t p = q - guard;
        unsigned i, j, k;
        float u = __uint_as_float(PAD_BITS), f = __uint_as_float(PAD_BITS);
        if (trusted_locate(s, p, &i, &j, &k)) {
            size_t at = ((size_t)i * s.n[1] + j) * s.n[0] + k;
            u = trusted_u0(seed, i, j, k, s), f = trusted_f(seed, i, j, k, s);
            plain += grid_fill_term(0, at, __float_as_uint(u)) + grid_fill_term(1, at, __float_as_uint(f));
        }
        a_base[q] = u, b_base[q] = u, f_base[q] = f;
        hash += trusted_term(key, p, f);
    }
    atomicAdd(&c->input_hash, hash);
    atomicAdd(&c->plain_sum, plain);
}

uint64_t trusted_jacobi_prepare(float *a_base, float *b_base, float *f_base, size_t guard, const trusted_solve *s,
                                uint64_t seed, uint64_t key, uint64_t *plain_sum)
{
    check_counts *d = trusted_counts(), c;
    trusted_jacobi_fill<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(a_base, b_base, f_base, guard, *s, seed, key, d);
    trusted_take(d, &c);
    if (plain_sum)
        *plain_sum = c.plain_sum;
    return c.input_hash;
}

// The reference's passes are 3D launches, one thread a point (the sweep: one
// thread a column of points): (x, y) from the block's 32x8 threads, z from the
// block's layer; an axis past a grid's limits is looped over. No division per
// point (a pass is one of hundreds a solve).
#define TRUSTED_TILE_X 32
#define TRUSTED_TILE_Y 8
#define TRUSTED_FOR3(nx, ny, nz, col, row_, layer)                                                                   \
    for (unsigned layer = blockIdx.z; layer < (nz); layer += gridDim.z)                                                 \
        for (unsigned row_ = blockIdx.y * blockDim.y + threadIdx.y; row_ < (ny); row_ += gridDim.y * blockDim.y)         \
            for (unsigned col = blockIdx.x * blockDim.x + threadIdx.x; col < (nx); col += gridDim.x * blockDim.x)

// The launch of a 3D pass over nx x ny x nz points (each at least 1 block).
static void trusted_shape3(unsigned nx, unsigned ny, unsigned nz, dim3 *grid, dim3 *block)
{
    *block = dim3(TRUSTED_TILE_X, TRUSTED_TILE_Y, 1);
    *grid = dim3(std::max(1u, (nx + TRUSTED_TILE_X - 1) / TRUSTED_TILE_X),
                 std::max(1u, std::min(65535u, (ny + TRUSTED_TILE_Y - 1) / TRUSTED_TILE_Y)), std::max(1u, std::min(65535u, nz)));
}

// m - 2, the interior points of an axis of m (0 below 2).
__host__ __device__ static inline unsigned trusted_inner(unsigned m) { return m > 2 ? m - 2 : 0; }

// The interior's layers (z): Jacobi's nz - 2, the heat update's every one (a 2D grid, nz 1).
__host__ __device__ static inline unsigned trusted_layers(const trusted_solve &s) { return s.heat ? s.n[2] : trusted_inner(s.n[2]); }

// u = u0 in double and ff = f in float (f is float as the program reads it), as stored (0 in the padding).
__global__ void trusted_ref_init(double *u, float *ff, trusted_solve s, uint64_t seed)
{
    size_t cells = (size_t)s.pitch * s.n[1] * s.n[2];
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < cells; p += (size_t)gridDim.x * blockDim.x) {
        unsigned i, j, k;
        int located = trusted_locate(s, p, &i, &j, &k);
        u[p] = located ? (double)trusted_u0(seed, i, j, k, s) : 0.0;
        if (ff)
            ff[p] = located ? trusted_f(seed, i, j, k, s) : 0.0f;
    }
}

// The heat update's reference step, in double (protocol_heat_update), each
// thread one (j, k) column of the interior through every layer.
__global__ void trusted_ref_heat(const double *u, double *v, trusted_solve s)
{
    size_t row = s.pitch, plane = (size_t)s.pitch * s.n[1];
    TRUSTED_FOR3(trusted_inner(s.n[0]), trusted_inner(s.n[1]), 1u, k, j, column) {
        size_t p = (size_t)(j + 1) * row + k + 1;
        for (unsigned i = 0; i < s.n[2]; i++, p += plane)
            v[p] = protocol_heat_update(u[p], u[p - 1], u[p + 1], u[p - row], u[p + row], (double)s.rate);
    }
}

// Jacobi's reference step, interior only, in double: v = (six neighbours -
// h^2 f) / 6, each thread a (j, k) column marching up a chunk of
// TRUSTED_MARCH layers (blockIdx.z the chunk) with the centre values of the
// planes below and above in registers (each u read once from memory a step,
// two more a chunk), so that a grid of few columns still has threads enough
// to keep the memory busy.
#define TRUSTED_MARCH 16
__global__ void trusted_ref_march(const double *u, double *v, const float *ff, trusted_solve s)
{
    size_t row = s.pitch, plane = (size_t)s.pitch * s.n[1];
    double h2 = (double)s.h * (double)s.h;
    unsigned layers = trusted_inner(s.n[2]), chunks = (layers + TRUSTED_MARCH - 1) / TRUSTED_MARCH;
    unsigned rows = trusted_inner(s.n[1]), cols = trusted_inner(s.n[0]);
    // (not TRUSTED_FOR3, whose layer loop starts at blockIdx.z: here the chunk's)
    for (unsigned chunk = blockIdx.z; chunk < chunks; chunk += gridDim.z)
        for (unsigned j = blockIdx.y * blockDim.y + threadIdx.y; j < rows; j += gridDim.y * blockDim.y)
            for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < cols; k += gridDim.x * blockDim.x) {
                unsigned first = chunk * TRUSTED_MARCH, last = min(first + TRUSTED_MARCH, layers);
                size_t p = (size_t)first * plane + (size_t)(j + 1) * row + k + 1;  // layer `first`: below the chunk's first
                double below = u[p], centre = u[p + plane];
                p += plane;
                for (unsigned i = first; i < last; i++, p += plane) {
                    double above = u[p + plane];
                    v[p] = (u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + below + above - h2 * (double)ff[p]) / 6.0;
                    below = centre, centre = above;
                }
            }
}

// The boundary step on v: every boundary cell copies its source (Neumann,
// periodic; never padded). Only the six faces are visited (a cell on an edge
// twice, a corner three times: the same copy): the interior is its own source.
__global__ void trusted_ref_boundary(double *v, trusted_solve s)
{
    size_t nx = s.n[0], ny = s.n[1], nz = s.n[2], a = nx * ny, b = nx * nz, c = ny * nz, total = 2 * (a + b + c);
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        size_t r = q;
        unsigned i, j, k;
        if (r < 2 * a) {  // the first and last layers
            i = r < a ? 0 : (unsigned)nz - 1, r %= a, j = (unsigned)(r / nx), k = (unsigned)(r % nx);
        } else if ((r -= 2 * a) < 2 * b) {  // the first and last rows of every layer
            j = r < b ? 0 : (unsigned)ny - 1, r %= b, i = (unsigned)(r / nx), k = (unsigned)(r % nx);
        } else {  // the first and last columns of every layer
            r -= 2 * b;
            k = r < c ? 0 : (unsigned)nx - 1, r %= c, i = (unsigned)(r / ny), j = (unsigned)(r % ny);
        }
        unsigned si = trusted_source(i, s.n[2], s.bc), sj = trusted_source(j, s.n[1], s.bc), sk = trusted_source(k, s.n[0], s.bc);
        if (si != i || sj != j || sk != k)
            v[((size_t)i * s.n[1] + j) * s.pitch + k] = v[((size_t)si * s.n[1] + sj) * s.pitch + sk];
    }
}

// Adds the sum over the interior of the squared scaled defect d (jacobi.h) to *sum (Jacobi only).
__global__ void trusted_ref_residual(const double *u, const float *ff, trusted_solve s, double *sum)
{
    size_t row = s.pitch, plane = (size_t)s.pitch * s.n[1];
    double h2 = (double)s.h * (double)s.h, acc = 0.0;
    TRUSTED_FOR3(trusted_inner(s.n[0]), trusted_inner(s.n[1]), trusted_layers(s), k, j, i) {
        size_t p = (size_t)(i + 1) * plane + (size_t)(j + 1) * row + k + 1;
        double e = u[p - 1] + u[p + 1] + u[p - row] + u[p + row] + u[p - plane] + u[p + plane] - 6.0 * u[p] - h2 * (double)ff[p];
        acc += e * e;
    }
    __shared__ double warps[TRUSTED_TILE_X * TRUSTED_TILE_Y / 32];  // one add to *sum a block, not one a point
    for (int d = 16; d > 0; d /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, d);
    unsigned lane = threadIdx.y * blockDim.x + threadIdx.x;
    if (lane % 32 == 0)
        warps[lane / 32] = acc;
    __syncthreads();
    if (lane == 0) {
        for (unsigned w = 1; w < TRUSTED_TILE_X * TRUSTED_TILE_Y / 32; w++)
            acc += warps[w];
        atomicAdd(sum, acc);
    }
}

// Compares the program's newest grid with the reference, hashes f as the
// program left it, and checks the guards around the program's grid and f and
// the padding of its rows (a padding cell that lost PAD_BITS counts as a guard).
__global__ void trusted_jacobi_verify(const float *got_base, const float *f_base, size_t guard, const double *ref,
                                      trusted_solve s, double allowed, uint64_t key, check_counts *c)
{
    size_t cells = (size_t)s.pitch * s.n[1] * s.n[2], total = cells + 2 * guard;
    unsigned long long hash = 0, wrong = 0, guards = 0, first = ~0ull;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        if (trusted_in_guard(q, guard, cells, got_base, f_base, &guards))
            continue;
        size_t p = q - guard;
        unsigned i, j, k;
        hash += trusted_term(key, p, f_base[q]);
        if (!trusted_locate(s, p, &i, &j, &k)) {
            guards += !trusted_same_bits(got_base[q], PAD_BITS);
            continue;
        }
        if (!(fabs((double)got_base[q] - ref[p]) <= allowed)) {
            wrong++;
            first = min(first, ((unsigned long long)i * s.n[1] + j) * s.n[0] + k);  // as the judge counts cells: unpadded
        }
    }
    trusted_flush(c, hash, wrong, 0, 0, guards, first);
}

// The reference's grids, kept from one check to the next of a case (a timed
// case checks every solve) and freed by trusted_ref_release.
static struct {
    double *u, *v;  // the reference's two grids, in double
    float *ff;      // f as the program reads it (Jacobi only)
    double *sum;    // the residual's sum
    size_t cells;   // stored points u, v and ff have room for
} trusted_ref;

void trusted_ref_release(void)
{
    cudaFree(trusted_ref.u);
    cudaFree(trusted_ref.v);
    cudaFree(trusted_ref.ff);
    cudaFree(trusted_ref.sum);
    memset(&trusted_ref, 0, sizeof(trusted_ref));
}

// Room in trusted_ref for a solve of cells stored points; 0, or -1 when the GPU has none.
static int trusted_ref_fit(size_t cells)
{
    if (trusted_ref.sum && trusted_ref.cells >= cells)
        return 0;
    trusted_ref_release();
    if (cudaMalloc((void **)&trusted_ref.u, cells * sizeof(double)) != cudaSuccess ||
        cudaMalloc((void **)&trusted_ref.v, cells * sizeof(double)) != cudaSuccess ||
        cudaMalloc((void **)&trusted_ref.ff, cells * sizeof(float)) != cudaSuccess ||
        cudaMalloc((void **)&trusted_ref.sum, sizeof(double)) != cudaSuccess) {
        cudaGetLastError();
        trusted_ref_release();
        return -1;
    }
    trusted_ref.cells = cells;
    return 0;
}

void trusted_jacobi_check(const float *got, const float *f_base, size_t guard, const trusted_solve *s,
                          const trusted_stop *stop, uint64_t seed, uint64_t key, check_counts *c, trusted_ref_end *end)
{
    size_t cells = (size_t)s->pitch * s->n[1] * s->n[2];
    size_t interior = (size_t)trusted_inner(s->n[0]) * trusted_inner(s->n[1]) * trusted_layers(*s);
    end->iters = 0, end->residual = -1.0;
    if (trusted_ref_fit(cells) != 0) {
        memset(c, 0, sizeof(*c));
        c->wrong = ~0ull;
        return;
    }
    double *u = trusted_ref.u, *v = trusted_ref.v, *sum = trusted_ref.sum;
    float *ff = s->heat ? NULL : trusted_ref.ff;
    dim3 grid, block;
    trusted_shape3(s->n[0], s->n[1], s->n[2], &grid, &block);
    dim3 columns(grid.x, grid.y, 1);  // the heat step: one thread a column of the interior
    dim3 chunks(grid.x, grid.y,  // Jacobi's: one thread a chunk of a column
                std::max(1u, std::min(65535u, (trusted_inner(s->n[2]) + TRUSTED_MARCH - 1) / TRUSTED_MARCH)));
    size_t faces = 2 * ((size_t)s->n[0] * s->n[1] + (size_t)s->n[0] * s->n[2] + (size_t)s->n[1] * s->n[2]);
    unsigned face_blocks = (unsigned)std::min<size_t>(TRUSTED_GRID, (faces + TRUSTED_BLOCK - 1) / TRUSTED_BLOCK);
    trusted_ref_init<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(u, ff, *s, seed);
    cudaMemcpy(v, u, cells * sizeof(double), cudaMemcpyDeviceToDevice);
    for (int t = 1; t <= stop->max_iters; t++) {
        if (s->heat)
            trusted_ref_heat<<<columns, block>>>(u, v, *s);
        else
            trusted_ref_march<<<chunks, block>>>(u, v, ff, *s);
        if (s->bc != LAB_BC_DIRICHLET)
            trusted_ref_boundary<<<face_blocks, TRUSTED_BLOCK>>>(v, *s);
        std::swap(u, v);
        end->iters = t;
        if (stop->check_every > 0 && t % stop->check_every == 0 && !s->heat) {
            double r = 0.0;
            cudaMemset(sum, 0, sizeof(double));
            trusted_ref_residual<<<grid, block>>>(u, ff, *s, sum);
            cudaMemcpy(&r, sum, sizeof(double), cudaMemcpyDeviceToHost);
            end->residual = sqrt(r / (double)interior);
            if (end->residual < (double)stop->tol)
                break;
        }
    }
    // Without the judge's scale, its bound: max |u0| + h^2 max |f| / 6, both at most 1 (the heat update has no f).
    double scale = stop->scale > 0 ? stop->scale : s->heat ? 1.0 : 1.0 + 1.0 / 6.0;
    check_counts *dc = trusted_counts();
    if (dc)
        trusted_jacobi_verify<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(got - guard, f_base, guard, u, *s,
                                                               stop->atol + (double)end->iters * stop->rtol * scale, key, dc);
    trusted_take(dc, c);
}

// Counts, in a guarded stored grid, the cells whose bits are not u0's
// (padding left out) and the guard and padding cells that lost their bits.
__global__ void trusted_solve_scan(const float *base, size_t guard, trusted_solve s, uint64_t seed, unsigned long long *counts)
{
    size_t cells = (size_t)s.pitch * s.n[1] * s.n[2], total = cells + 2 * guard;
    unsigned long long unlike = 0, damaged = 0;
    for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (size_t)gridDim.x * blockDim.x) {
        unsigned bits = __float_as_uint(base[q]), i, j, k;
        if (q < guard || q >= guard + cells)
            damaged += bits != GUARD_BITS;
        else if (!trusted_locate(s, q - guard, &i, &j, &k))
            damaged += bits != PAD_BITS;
        else
            unlike += bits != __float_as_uint(trusted_u0(seed, i, j, k, s));
    }
    if (unlike)
        atomicAdd(&counts[0], unlike);
    if (damaged)
        atomicAdd(&counts[1], damaged);
}

trusted_damage trusted_solve_damage(const float *base, size_t guard, const trusted_solve *s, uint64_t seed)
{
    unsigned long long *d = NULL, n[2] = {~0ull, ~0ull};
    if (cudaMalloc((void **)&d, sizeof(n)) == cudaSuccess && cudaMemset(d, 0, sizeof(n)) == cudaSuccess) {
        trusted_solve_scan<<<TRUSTED_GRID, TRUSTED_BLOCK>>>(base, guard, *s, seed, d);
        if (cudaMemcpy(n, d, sizeof(n), cudaMemcpyDeviceToHost) != cudaSuccess)
            n[0] = n[1] = ~0ull;
    }
    cudaGetLastError();
    cudaFree(d);
    trusted_damage r = {n[0], n[1]};
    return r;
}

// ---------------------------------------------------------------------------
// The copy limit
// ---------------------------------------------------------------------------

// Copies n float4s, one per thread.
__global__ void trusted_copy(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

// The median of n floats (sorts them).
static float trusted_median(float *v, int n)
{
    std::sort(v, v + n);
    return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

// Holds the stream until *open is 1, or for limit_ns.
__global__ void trusted_gate_kernel(const volatile unsigned int *open, unsigned long long limit_ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        if (*open)
            return;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < limit_ns);
}

int trusted_gate_init(trusted_gate *g)
{
    void *p = NULL, *d = NULL;
    g->open = NULL;
    g->d_open = NULL;
    g->held = 0;
    if (cudaHostAlloc(&p, sizeof(unsigned int), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer(&d, p, 0) != cudaSuccess) {
        cudaGetLastError();
        if (p)
            cudaFreeHost(p);
        return -1;
    }
    g->open = (volatile unsigned int *)p;
    g->d_open = (const unsigned int *)d;
    *g->open = 1;
    return 0;
}

void trusted_gate_hold(trusted_gate *g)
{
    if (!g->open || g->held)
        return;
    *g->open = 0;
    __sync_synchronize();
    trusted_gate_kernel<<<1, 1>>>(g->d_open, TRUSTED_GATE_LIMIT_NS);
    g->held = 1;
}

void trusted_gate_open(trusted_gate *g)
{
    if (!g->held)
        return;
    __sync_synchronize();  // (the host's own order: what it submitted before, then the flag)
    *g->open = 1;
    g->held = 0;
}

void trusted_gate_free(trusted_gate *g)
{
    trusted_gate_open(g);
    if (g->open) {
        cudaDeviceSynchronize();
        cudaFreeHost((void *)g->open);
    }
    g->open = NULL;
    g->d_open = NULL;
}

double trusted_copy_limit(int reps, double *kernel_gbs, double *memcpy_gbs, const char **by)
{
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    size_t bytes = std::max((size_t)l2 * 16, (size_t)512 << 20), n4 = bytes / sizeof(float4);
    float4 *src = NULL, *dst = NULL;
    float ms_kernel[64], ms_copy[64];
    cudaEvent_t a, b;
    reps = std::min(std::max(reps, 1), 64);
    *kernel_gbs = *memcpy_gbs = 0;
    *by = "none";
    if (cudaMalloc((void **)&src, bytes) != cudaSuccess || cudaMalloc((void **)&dst, bytes) != cudaSuccess) {
        cudaGetLastError();
        cudaFree(src);
        return 0.0;
    }
    cudaMemset(src, 0x3c, bytes);
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    trusted_gate gate;
    if (trusted_gate_init(&gate) != 0)
        fprintf(stderr, "executor: no gate for the copy limit (no mapped host memory): its runs count each launch's submission\n");
    for (int r = -2; r < reps; r++) {  // two warm-ups of each; each queued behind the gate, as a timed call is
        trusted_gate_hold(&gate);
        cudaEventRecord(a);
        trusted_copy<<<(unsigned)((n4 + TRUSTED_BLOCK - 1) / TRUSTED_BLOCK), TRUSTED_BLOCK>>>(src, dst, n4);
        trusted_gate_open(&gate);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        if (r >= 0)
            cudaEventElapsedTime(&ms_kernel[r], a, b);
        trusted_gate_hold(&gate);
        cudaEventRecord(a);
        cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0);
        trusted_gate_open(&gate);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        if (r >= 0)
            cudaEventElapsedTime(&ms_copy[r], a, b);
    }
    trusted_gate_free(&gate);
    *kernel_gbs = 2.0 * bytes / (trusted_median(ms_kernel, reps) * 1e-3) / 1e9;
    *memcpy_gbs = 2.0 * bytes / (trusted_median(ms_copy, reps) * 1e-3) / 1e9;
    *by = *kernel_gbs >= *memcpy_gbs ? COPY_LIMIT_BY_KERNEL : COPY_LIMIT_BY_MEMCPY;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(src);
    cudaFree(dst);
    return std::max(*kernel_gbs, *memcpy_gbs);
}
