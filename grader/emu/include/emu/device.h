// grader/emu/include/emu/device.h — what CUDA C gives device code, for the
// CPU emulation backend: qualifiers, built-in index variables, barriers, warp
// operations, atomics, and the intrinsics and math functions common code uses.
//
// Every CUDA thread of a block runs on the one host thread, one at a time;
// threads switch only inside the synchronising calls below, so atomics are
// plain read-modify-writes and fences are no-ops. The synchronising calls take
// their call site (file, line) as default arguments: a barrier or a warp
// operation reached from different places by the threads it joins is an error
// the runtime can then name precisely.
#ifndef STENCIL_EMU_DEVICE_H
#define STENCIL_EMU_DEVICE_H

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <atomic>
#include <cmath>
#include <type_traits>

#include "types.h"

// ---------------------------------------------------------------------------
// Qualifiers: all code is host code here
// ---------------------------------------------------------------------------

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __cudart_builtin__
// The launch translator rewrites every __shared__ of the student's file; this
// fallback serves headers it did not see (storage without poisoning).
#define __shared__ static

// ---------------------------------------------------------------------------
// Built-in variables (set by the runtime for the running CUDA thread)
// ---------------------------------------------------------------------------

extern uint3 threadIdx;  // the running thread's index in its block
extern uint3 blockIdx;   // the running block's index in the grid
extern dim3 blockDim;    // the launch's block size
extern dim3 gridDim;     // the launch's grid size
constexpr int warpSize = 32;

// ---------------------------------------------------------------------------
// Runtime entry points device code calls (grader/emu/runtime/)
// ---------------------------------------------------------------------------

// What a warp operation does with the values its lanes bring.
enum emu_warp_kind {
    EMU_WARP_SYNC,        // __syncwarp: nothing exchanged
    EMU_WARP_SHFL_IDX,    // __shfl_sync: read lane arg
    EMU_WARP_SHFL_UP,     // __shfl_up_sync: read lane - arg
    EMU_WARP_SHFL_DOWN,   // __shfl_down_sync: read lane + arg
    EMU_WARP_SHFL_XOR,    // __shfl_xor_sync: read lane ^ arg
    EMU_WARP_ALL,         // __all_sync
    EMU_WARP_ANY,         // __any_sync
    EMU_WARP_BALLOT,      // __ballot_sync
    EMU_WARP_REDUCE_ADD,  // __reduce_add_sync (unsigned)
    EMU_WARP_REDUCE_MIN,  // __reduce_min_sync (unsigned)
    EMU_WARP_REDUCE_MAX,  // __reduce_max_sync (unsigned)
    EMU_WARP_REDUCE_MIN_SIGNED, // __reduce_min_sync (int)
    EMU_WARP_REDUCE_MAX_SIGNED  // __reduce_max_sync (int)
};

// What a block-wide barrier computes from its threads' predicates.
enum emu_barrier_kind {
    EMU_BARRIER_PLAIN,    // __syncthreads
    EMU_BARRIER_COUNT,    // __syncthreads_count
    EMU_BARRIER_AND,      // __syncthreads_and
    EMU_BARRIER_OR        // __syncthreads_or
};

// Waits until every thread of the block reached this barrier; returns what
// kind asks of the threads' predicates (0 for a plain barrier).
int emu_barrier(enum emu_barrier_kind kind, int predicate, const char *file, int line);
// Joins the warp operation kind with the lanes of mask; returns this lane's
// result (the bits of a value for a shuffle).
uint64_t emu_warp_op(enum emu_warp_kind kind, unsigned int mask, uint64_t value, int arg, int width,
                     const char *file, int line);
// The lanes of the running thread's warp that have not returned.
unsigned int emu_active_mask(void);
// Records where the running thread returns from its kernel (inserted by the translator).
void emu_kernel_exit(const char *file, int line);
// Stops the kernel with an execution error naming the thread and line (__trap).
[[noreturn]] void emu_trap(const char *what, const char *file, int line);
// Allocates the storage of a __shared__ variable (the first time its
// declaration runs): guarded by ASan, poisoned with NaN bytes at every block
// start, counted in the running kernel's static shared memory.
void *emu_shared_allocate_bytes(size_t size, size_t alignment, const char *name, const char *file, int line);
// The launch's dynamic (extern __shared__) shared memory.
void *emu_dynamic_shared(void);

// The storage of a __shared__ variable of type T (the translator binds a
// static reference to it).
template <class T>
static inline T &emu_shared_allocate(const char *name, const char *file, int line)
{
    return *static_cast<T *>(emu_shared_allocate_bytes(sizeof(T), alignof(T), name, file, line));
}

// The dynamic shared memory, as the pointer type P an extern __shared__
// array has become.
template <class P>
static inline P emu_dynamic_shared_as(void)
{
    return (P)emu_dynamic_shared();
}

// ---------------------------------------------------------------------------
// Barriers and fences
// ---------------------------------------------------------------------------

// Waits until every thread of the block reached this call site.
static inline void __syncthreads(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_barrier(EMU_BARRIER_PLAIN, 0, file, line);
}

// Waits like __syncthreads(); returns how many threads brought a non-zero predicate.
static inline int __syncthreads_count(int predicate, const char *file = __builtin_FILE(),
                                      int line = __builtin_LINE())
{
    return emu_barrier(EMU_BARRIER_COUNT, predicate, file, line);
}

// Waits like __syncthreads(); returns 1 when every thread brought a non-zero predicate.
static inline int __syncthreads_and(int predicate, const char *file = __builtin_FILE(),
                                    int line = __builtin_LINE())
{
    return emu_barrier(EMU_BARRIER_AND, predicate, file, line);
}

// Waits like __syncthreads(); returns 1 when some thread brought a non-zero predicate.
static inline int __syncthreads_or(int predicate, const char *file = __builtin_FILE(),
                                   int line = __builtin_LINE())
{
    return emu_barrier(EMU_BARRIER_OR, predicate, file, line);
}

// Waits until every lane of mask reached a __syncwarp().
static inline void __syncwarp(unsigned int mask = 0xffffffffu, const char *file = __builtin_FILE(),
                              int line = __builtin_LINE())
{
    emu_warp_op(EMU_WARP_SYNC, mask, 0, 0, 32, file, line);
}

// Fences: threads switch only at synchronising calls, so ordering holds already.
static inline void __threadfence(void) { std::atomic_signal_fence(std::memory_order_seq_cst); }
static inline void __threadfence_block(void) { std::atomic_signal_fence(std::memory_order_seq_cst); }
static inline void __threadfence_system(void) { std::atomic_signal_fence(std::memory_order_seq_cst); }

// Stops the kernel with an execution error.
static inline void __trap(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_trap("__trap()", file, line);
}

// Stops the kernel with an execution error (no debugger here).
static inline void __brkpt(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu_trap("__brkpt()", file, line);
}

// ---------------------------------------------------------------------------
// Warp operations (warps are 32 consecutive linear thread ids)
// ---------------------------------------------------------------------------

// A shuffle: lanes exchange the bits of var (at most 8 bytes, as on a GPU).
template <class T>
static inline T emu_shuffle(enum emu_warp_kind kind, unsigned int mask, T var, int arg, int width,
                            const char *file, int line)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp shuffles move values of at most 8 bytes");
    uint64_t bits = 0;
    memcpy(&bits, &var, sizeof(T));
    bits = emu_warp_op(kind, mask, bits, arg, width, file, line);
    T out;
    memcpy(&out, &bits, sizeof(T));
    return out;
}

// Reads var from lane src_lane of this width-lane segment.
template <class T>
static inline T __shfl_sync(unsigned int mask, T var, int src_lane, int width = 32,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu_shuffle(EMU_WARP_SHFL_IDX, mask, var, src_lane, width, file, line);
}

// Reads var from lane - delta (its own when that leaves the segment).
template <class T>
static inline T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                               const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu_shuffle(EMU_WARP_SHFL_UP, mask, var, (int)delta, width, file, line);
}

// Reads var from lane + delta (its own when that leaves the segment).
template <class T>
static inline T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32,
                                 const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu_shuffle(EMU_WARP_SHFL_DOWN, mask, var, (int)delta, width, file, line);
}

// Reads var from lane ^ lane_mask (its own when that is a later segment).
template <class T>
static inline T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32,
                                const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu_shuffle(EMU_WARP_SHFL_XOR, mask, var, lane_mask, width, file, line);
}

// 1 when every lane of mask brought a non-zero predicate.
static inline int __all_sync(unsigned int mask, int predicate, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return (int)emu_warp_op(EMU_WARP_ALL, mask, predicate != 0, 0, 32, file, line);
}

// 1 when some lane of mask brought a non-zero predicate.
static inline int __any_sync(unsigned int mask, int predicate, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return (int)emu_warp_op(EMU_WARP_ANY, mask, predicate != 0, 0, 32, file, line);
}

// Bit n set when lane n of mask brought a non-zero predicate.
static inline unsigned int __ballot_sync(unsigned int mask, int predicate, const char *file = __builtin_FILE(),
                                         int line = __builtin_LINE())
{
    return (unsigned int)emu_warp_op(EMU_WARP_BALLOT, mask, predicate != 0, 0, 32, file, line);
}

// The reductions over the lanes of mask, each for an unsigned int and an int
// as CUDA offers them: __reduce_add_sync the sum, __reduce_min_sync the least
// value, __reduce_max_sync the greatest (an int's compared signed).
#define EMU_REDUCTION(name, type, kind)                                                                       \
    static inline type name(unsigned int mask, type value, const char *file = __builtin_FILE(),              \
                            int line = __builtin_LINE())                                                      \
    {                                                                                                         \
        return (type)emu_warp_op(kind, mask, (uint32_t)value, 0, 32, file, line);                            \
    }
EMU_REDUCTION(__reduce_add_sync, unsigned int, EMU_WARP_REDUCE_ADD)
EMU_REDUCTION(__reduce_add_sync, int, EMU_WARP_REDUCE_ADD)
EMU_REDUCTION(__reduce_min_sync, unsigned int, EMU_WARP_REDUCE_MIN)
EMU_REDUCTION(__reduce_min_sync, int, EMU_WARP_REDUCE_MIN_SIGNED)
EMU_REDUCTION(__reduce_max_sync, unsigned int, EMU_WARP_REDUCE_MAX)
EMU_REDUCTION(__reduce_max_sync, int, EMU_WARP_REDUCE_MAX_SIGNED)
#undef EMU_REDUCTION

// The lanes of this warp that have not returned.
static inline unsigned int __activemask(void) { return emu_active_mask(); }

// ---------------------------------------------------------------------------
// Atomics (one CUDA thread runs at a time: a read-modify-write is atomic)
// ---------------------------------------------------------------------------

// Replaces *address with update(*address) and returns the old value.
template <class T, class F>
static inline T emu_atomic_update(T *address, F update)
{
    T old = *address;
    *address = update(old);
    return old;
}

static inline int atomicAdd(int *a, int v) { return emu_atomic_update(a, [v](int o) { return (int)((unsigned)o + (unsigned)v); }); }
static inline unsigned int atomicAdd(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o + v; }); }
static inline unsigned long long atomicAdd(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o + v; }); }
static inline float atomicAdd(float *a, float v) { return emu_atomic_update(a, [v](float o) { return o + v; }); }
static inline double atomicAdd(double *a, double v) { return emu_atomic_update(a, [v](double o) { return o + v; }); }
static inline int atomicSub(int *a, int v) { return emu_atomic_update(a, [v](int o) { return (int)((unsigned)o - (unsigned)v); }); }
static inline unsigned int atomicSub(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o - v; }); }
static inline int atomicExch(int *a, int v) { return emu_atomic_update(a, [v](int) { return v; }); }
static inline unsigned int atomicExch(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int) { return v; }); }
static inline unsigned long long atomicExch(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long) { return v; }); }
static inline float atomicExch(float *a, float v) { return emu_atomic_update(a, [v](float) { return v; }); }
static inline int atomicMin(int *a, int v) { return emu_atomic_update(a, [v](int o) { return o < v ? o : v; }); }
static inline unsigned int atomicMin(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o < v ? o : v; }); }
static inline long long atomicMin(long long *a, long long v) { return emu_atomic_update(a, [v](long long o) { return o < v ? o : v; }); }
static inline unsigned long long atomicMin(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o < v ? o : v; }); }
static inline int atomicMax(int *a, int v) { return emu_atomic_update(a, [v](int o) { return o > v ? o : v; }); }
static inline unsigned int atomicMax(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o > v ? o : v; }); }
static inline long long atomicMax(long long *a, long long v) { return emu_atomic_update(a, [v](long long o) { return o > v ? o : v; }); }
static inline unsigned long long atomicMax(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o > v ? o : v; }); }
static inline unsigned int atomicInc(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o >= v ? 0u : o + 1; }); }
static inline unsigned int atomicDec(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o == 0 || o > v ? v : o - 1; }); }
static inline int atomicCAS(int *a, int cmp, int v) { return emu_atomic_update(a, [cmp, v](int o) { return o == cmp ? v : o; }); }
static inline unsigned int atomicCAS(unsigned int *a, unsigned int cmp, unsigned int v) { return emu_atomic_update(a, [cmp, v](unsigned int o) { return o == cmp ? v : o; }); }
static inline unsigned long long atomicCAS(unsigned long long *a, unsigned long long cmp, unsigned long long v) { return emu_atomic_update(a, [cmp, v](unsigned long long o) { return o == cmp ? v : o; }); }
static inline unsigned short atomicCAS(unsigned short *a, unsigned short cmp, unsigned short v) { return emu_atomic_update(a, [cmp, v](unsigned short o) { return o == cmp ? v : o; }); }
static inline int atomicAnd(int *a, int v) { return emu_atomic_update(a, [v](int o) { return o & v; }); }
static inline unsigned int atomicAnd(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o & v; }); }
static inline unsigned long long atomicAnd(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o & v; }); }
static inline int atomicOr(int *a, int v) { return emu_atomic_update(a, [v](int o) { return o | v; }); }
static inline unsigned int atomicOr(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o | v; }); }
static inline unsigned long long atomicOr(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o | v; }); }
static inline int atomicXor(int *a, int v) { return emu_atomic_update(a, [v](int o) { return o ^ v; }); }
static inline unsigned int atomicXor(unsigned int *a, unsigned int v) { return emu_atomic_update(a, [v](unsigned int o) { return o ^ v; }); }
static inline unsigned long long atomicXor(unsigned long long *a, unsigned long long v) { return emu_atomic_update(a, [v](unsigned long long o) { return o ^ v; }); }

// ---------------------------------------------------------------------------
// Loads and stores with cache hints: plain accesses here
// ---------------------------------------------------------------------------

template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

// ---------------------------------------------------------------------------
// Math beyond <math.h>: CUDA's intrinsics, computed the accurate way
// ---------------------------------------------------------------------------

static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline float __fdividef(float a, float b) { return a / b; }
// glibc declares these names (without defining them): define them with its linkage.
extern "C" {
inline float __expf(float x) noexcept { return expf(x); }
inline float __exp10f(float x) noexcept { return powf(10.0f, x); }
inline float __logf(float x) noexcept { return logf(x); }
inline float __log2f(float x) noexcept { return log2f(x); }
inline float __log10f(float x) noexcept { return log10f(x); }
inline float __sinf(float x) noexcept { return sinf(x); }
inline float __cosf(float x) noexcept { return cosf(x); }
inline float __tanf(float x) noexcept { return tanf(x); }
inline float __powf(float a, float b) noexcept { return powf(a, b); }
inline void __sincosf(float x, float *s, float *c) noexcept
{
    *s = sinf(x);
    *c = cosf(x);
}
}
static inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
static inline unsigned int __float2uint_rn(float x) { return (unsigned int)nearbyintf(x); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned int x) { return (float)x; }
static inline int __double2int_rn(double x) { return (int)nearbyint(x); }

// Reinterprets the bits of from as a To.
template <class To, class From>
static inline To emu_bit_cast(From from)
{
    To to;
    memcpy(&to, &from, sizeof(to));
    return to;
}

static inline int __float_as_int(float x) { return emu_bit_cast<int>(x); }
static inline unsigned int __float_as_uint(float x) { return emu_bit_cast<unsigned int>(x); }
static inline float __int_as_float(int x) { return emu_bit_cast<float>(x); }
static inline float __uint_as_float(unsigned int x) { return emu_bit_cast<float>(x); }
static inline long long __double_as_longlong(double x) { return emu_bit_cast<long long>(x); }
static inline double __longlong_as_double(long long x) { return emu_bit_cast<double>(x); }

static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }

// Reverses the bit order of x.
static inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int b = 0; b < 32; b++)
        r |= ((x >> b) & 1u) << (31 - b);
    return r;
}

static inline int __mul24(int a, int b) { return (int)((a << 8) >> 8) * (int)((b << 8) >> 8); }
static inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned int __umulhi(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }

// min and max for every pair of types CUDA's math header pairs.
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
static inline unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static inline unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static inline unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static inline unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
static inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }

// A cycle counter: nanoseconds of host time (timing means nothing here).
static inline long long clock64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// Returns at once: sleeping lets no other thread run here.
static inline void __nanosleep(unsigned int ns) { (void)ns; }

#endif // STENCIL_EMU_DEVICE_H
