// grader/emu/runtime/fiber.h — execution contexts with stacks of their own,
// for the CUDA threads of a block that synchronise.
//
// A fiber is switched to and from explicitly; nothing preempts it. On x86-64
// and AArch64 the switch is a few instructions of assembly (callee-saved
// registers and the stack pointer); elsewhere, or with -DEMU_FIBER_UCONTEXT,
// it is swapcontext.
// Every switch tells AddressSanitizer which stack is about to run, so ASan
// builds see no false positives.
#ifndef STENCIL_EMU_FIBER_H
#define STENCIL_EMU_FIBER_H

#include <stddef.h>

#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(EMU_FIBER_UCONTEXT)
#define EMU_FIBER_UCONTEXT 1
#endif
#ifdef EMU_FIBER_UCONTEXT
#include <ucontext.h>
#endif

// One execution context.
typedef struct emu_fiber {
#ifdef EMU_FIBER_UCONTEXT
    ucontext_t context;        // saved registers while suspended
    void (*entry)(void *);     // what a new fiber runs
    void *entry_arg;           // and its argument
#else
    void *stack_pointer;       // saved stack pointer while suspended
#endif
    const void *stack_bottom;  // lowest address of its stack; NULL until known (the launching stack)
    size_t stack_size;         // bytes of its stack
    void *asan_fake_stack;     // ASan's fake-stack handle while suspended
} emu_fiber;

// A stack for fibers: usable bytes above a guard page.
typedef struct emu_stack {
    void *bottom;              // lowest usable address
    size_t size;               // usable bytes
} emu_stack;

// Maps a stack of size bytes (rounded up to pages) with a guard page below
// it; returns 0, or -1 when the system refuses.
int emu_stack_create(emu_stack *stack, size_t size);

// Forgets what ASan knew about the stack's frames (after frames were abandoned).
void emu_stack_forget_frames(const emu_stack *stack);

// Makes fiber ready to run entry(arg) on stack at its first switch. entry must
// end with emu_fiber_exit, never return.
void emu_fiber_prepare(emu_fiber *fiber, const emu_stack *stack, void (*entry)(void *), void *arg);

// Suspends the running context into from and resumes to; returns when some
// context switches back to from.
void emu_fiber_switch(emu_fiber *from, emu_fiber *to);

// The first call of a fiber's entry function: completes the switch into it.
void emu_fiber_started(void);

// Leaves a fiber for good (its stack may be reused) and resumes to.
[[noreturn]] void emu_fiber_exit(emu_fiber *to);

#endif // STENCIL_EMU_FIBER_H
