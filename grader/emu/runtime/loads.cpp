// grader/emu/runtime/loads.cpp — the bytes a kernel's threads load from global
// and from shared memory under emulation, the counts Nsight Compute gives on a
// GPU (smsp__sass_data_bytes_mem_global_op_ld and _shared_op_ld: every load a
// thread executes, by its size), so that the technique's load floors apply on
// both backends.
//
// How: a student's file is compiled with AddressSanitizer checking every
// access through a call (GCC's asan-instrumentation-with-call-threshold=0,
// grader/emu/emu.mk), and this file defines those calls for loads: each adds
// its size to the global count when the address is in the emulated device
// memory (cudaMalloc's arena), or to the shared count when it is in a
// __shared__ variable or the launch's dynamic shared memory, while a kernel
// runs, and records the first read of a kit grid's guard cell (naming the
// CUDA thread and line, memory.cpp's emu_guard_read); then it hands the
// address to the sanitizer's own check. Host code's
// loads and the kit's own (the runtime is not instrumented) count nothing.
// Only with GCC (clang links its sanitizer statically, and these calls would
// be defined twice): STENCIL_EMU_LOAD_COUNTS says whether the counts exist.
#include <dlfcn.h>
#include <stdint.h>

#include "internal.h"

static unsigned long long loads_global_bytes, loads_shared_bytes;

void emu_load_counts(unsigned long long *global_bytes, unsigned long long *shared_bytes)
{
    *global_bytes = loads_global_bytes;
    *shared_bytes = loads_shared_bytes;
}

void emu_load_counts_reset(void)
{
    loads_global_bytes = loads_shared_bytes = 0;
}

#if defined(__GNUC__) && !defined(__clang__)
// Counts a load of n bytes at address a (a kernel running, the address the
// device's), made by the code at pc; a load of a kit grid's guard cell is
// recorded (emu_kit_guard_read).
static inline void loads_count(uintptr_t a, uintptr_t n, const void *pc)
{
    if (!emu_current_launch)
        return;
    if (emu_arena_holds((const void *)a)) {
        loads_global_bytes += n;
        emu_kit_guard_read((const void *)a, n, pc);
    } else if (emu_shared_holds((const void *)a)) {
        loads_shared_bytes += n;
    }
}

typedef void (*loads_check_fn)(uintptr_t);
typedef void (*loads_check_n_fn)(uintptr_t, uintptr_t);

#define LOADS_HOOK(N)                                                                   \
    extern "C" void __asan_load##N(uintptr_t a)                                         \
    {                                                                                   \
        static loads_check_fn check;                                                    \
        if (!check)                                                                     \
            check = (loads_check_fn)dlsym(RTLD_NEXT, "__asan_load" #N);                 \
        loads_count(a, N, __builtin_return_address(0));                                 \
        if (check)                                                                      \
            check(a);                                                                   \
    }
LOADS_HOOK(1)
LOADS_HOOK(2)
LOADS_HOOK(4)
LOADS_HOOK(8)
LOADS_HOOK(16)

extern "C" void __asan_loadN(uintptr_t a, uintptr_t n)
{
    static loads_check_n_fn check;
    if (!check)
        check = (loads_check_n_fn)dlsym(RTLD_NEXT, "__asan_loadN");
    loads_count(a, n, __builtin_return_address(0));
    if (check)
        check(a, n);
}
#endif
