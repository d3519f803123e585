// grader/emu/runtime/fiber.cpp — the context switch, fiber stacks, and the
// AddressSanitizer annotations every switch needs.
#include "fiber.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Weak references: present when the program links a sanitizer runtime, NULL
// otherwise, so one runtime object serves ASan and plain builds.
extern "C" {
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size)
    __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old)
    __attribute__((weak));
void __asan_unpoison_memory_region(const volatile void *addr, size_t size) __attribute__((weak));
}

static emu_fiber *fiber_leaving;  // the context the last switch left: learns its stack bounds

// ---------------------------------------------------------------------------
// Stacks
// ---------------------------------------------------------------------------

int emu_stack_create(emu_stack *stack, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size = (size + page - 1) / page * page;
    void *base = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                      -1, 0);
    if (base == MAP_FAILED)
        return -1;
    if (mprotect(base, page, PROT_NONE) != 0) {
        munmap(base, size + page);
        return -1;
    }
    stack->bottom = (char *)base + page;
    stack->size = size;
    return 0;
}

void emu_stack_forget_frames(const emu_stack *stack)
{
    if (__asan_unpoison_memory_region)
        __asan_unpoison_memory_region(stack->bottom, stack->size);
}

// ---------------------------------------------------------------------------
// ASan bookkeeping around a switch
// ---------------------------------------------------------------------------

// Tells ASan that to's stack is about to run; a NULL save means the running
// fiber is leaving for good.
static void fiber_announce(void **save, const emu_fiber *to)
{
    if (__sanitizer_start_switch_fiber)
        __sanitizer_start_switch_fiber(save, to->stack_bottom, to->stack_size);
}

// Tells ASan the switch into the running context is complete, and records the
// bounds of the stack left behind if they were not known yet.
static void fiber_arrived(void *fake_stack)
{
    const void *bottom = NULL;
    size_t size = 0;
    if (!__sanitizer_finish_switch_fiber)
        return;
    __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
    if (fiber_leaving && !fiber_leaving->stack_bottom) {
        fiber_leaving->stack_bottom = bottom;
        fiber_leaving->stack_size = size;
    }
}

// Records the stack a new fiber runs on, for the annotations of its first
// switch; it has no fake stack yet.
static void fiber_runs_on(emu_fiber *fiber, const emu_stack *stack)
{
    fiber->stack_bottom = stack->bottom;
    fiber->stack_size = stack->size;
    fiber->asan_fake_stack = NULL;
}

// ---------------------------------------------------------------------------
// The switch itself
// ---------------------------------------------------------------------------

#ifdef EMU_FIBER_UCONTEXT

// Runs a ucontext fiber's entry; makecontext passes ints, so the fiber's
// address arrives in two halves.
static void fiber_ucontext_entry(unsigned int high, unsigned int low)
{
    emu_fiber *fiber = (emu_fiber *)(((uintptr_t)high << 16 << 16) | (uintptr_t)low);
    fiber->entry(fiber->entry_arg);
}

void emu_fiber_prepare(emu_fiber *fiber, const emu_stack *stack, void (*entry)(void *), void *arg)
{
    uintptr_t bits = (uintptr_t)fiber;
    getcontext(&fiber->context);
    fiber->context.uc_stack.ss_sp = stack->bottom;
    fiber->context.uc_stack.ss_size = stack->size;
    fiber->context.uc_link = NULL;
    fiber->entry = entry;
    fiber->entry_arg = arg;
    makecontext(&fiber->context, (void (*)(void))fiber_ucontext_entry, 2, (unsigned int)(bits >> 16 >> 16),
                (unsigned int)(bits & 0xffffffffu));
    fiber_runs_on(fiber, stack);
}

// The C library's own swapcontext: ASan intercepts the one programs link
// to and clears the whole target stack's shadow at every switch (thirty
// times slower); the annotations above already keep ASan informed.
static int (*libc_swapcontext(void))(ucontext_t *, const ucontext_t *)
{
    static int (*real)(ucontext_t *, const ucontext_t *);
    if (real)
        return real;
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    real = libc ? (int (*)(ucontext_t *, const ucontext_t *))dlsym(libc, "swapcontext") : NULL;
    if (!real)
        real = swapcontext;
    return real;
}

// Saves the running context into from and resumes to.
static void fiber_jump(emu_fiber *from, emu_fiber *to)
{
    libc_swapcontext()(&from->context, &to->context);
}

#else

extern "C" void emu_fiber_swap(void **save_stack_pointer, void *load_stack_pointer);
extern "C" void emu_fiber_trampoline(void);

#if defined(__x86_64__)

// Lays out below top (16-byte aligned) the frame emu_fiber_swap pops, return
// address last, for a new fiber that runs entry(arg); returns its stack pointer.
static uint64_t *fiber_first_frame(uintptr_t top, void (*entry)(void *), void *arg)
{
    uint64_t *frame = (uint64_t *)(top - 72);
    uint32_t mxcsr = 0x1f80;                   // all exceptions masked, round to nearest
    uint16_t x87_control = 0x037f;             // the same for x87
    memset(frame, 0, 72);
    memcpy(&frame[0], &x87_control, sizeof(x87_control));
    memcpy(&frame[1], &mxcsr, sizeof(mxcsr));
    frame[4] = (uint64_t)(uintptr_t)arg;       // r13: the entry's argument
    frame[5] = (uint64_t)(uintptr_t)entry;     // r12: the entry
    frame[7] = 0;                              // rbp: ends frame-pointer walks
    frame[8] = (uint64_t)(uintptr_t)&emu_fiber_trampoline;
    return frame;
}

// emu_fiber_swap saves the callee-saved registers, the SSE and x87 control
// words and the stack pointer of the running context, then restores another's.
// emu_fiber_trampoline is where a new fiber's first switch returns to: it calls
// the entry function kept in r12 with the argument kept in r13.
__asm__(
    ".text\n"
    ".globl emu_fiber_swap\n"
    ".type emu_fiber_swap,@function\n"
    "emu_fiber_swap:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    subq $16, %rsp\n"
    "    stmxcsr 8(%rsp)\n"
    "    fnstcw (%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr 8(%rsp)\n"
    "    fldcw (%rsp)\n"
    "    addq $16, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size emu_fiber_swap, .-emu_fiber_swap\n"
    ".globl emu_fiber_trampoline\n"
    ".type emu_fiber_trampoline,@function\n"
    "emu_fiber_trampoline:\n"
    "    movq %r13, %rdi\n"
    "    callq *%r12\n"
    "    ud2\n"
    ".size emu_fiber_trampoline, .-emu_fiber_trampoline\n");

#else // __aarch64__

// Lays out below top (16-byte aligned) the frame emu_fiber_swap restores for
// a new fiber that runs entry(arg); returns its stack pointer.
static uint64_t *fiber_first_frame(uintptr_t top, void (*entry)(void *), void *arg)
{
    uint64_t *frame = (uint64_t *)(top - 176);
    memset(frame, 0, 176);
    frame[0] = (uint64_t)(uintptr_t)entry;      // x19: the entry
    frame[1] = (uint64_t)(uintptr_t)arg;        // x20: its argument
    frame[10] = 0;                              // x29: ends frame-pointer walks
    frame[11] = (uint64_t)(uintptr_t)&emu_fiber_trampoline;  // x30: where the switch returns
    frame[20] = 0;                              // fpcr: round to nearest, no traps
    return frame;
}

// emu_fiber_swap saves x19-x30, d8-d15 and the floating-point control
// register of the running context below its stack pointer, then restores
// another's and returns through its x30. emu_fiber_trampoline is where a new
// fiber's first switch returns to: it calls the entry function kept in x19
// with the argument kept in x20.
__asm__(
    ".text\n"
    ".globl emu_fiber_swap\n"
    ".type emu_fiber_swap,%function\n"
    "emu_fiber_swap:\n"
    "    sub sp, sp, #176\n"
    "    stp x19, x20, [sp, #0]\n"
    "    stp x21, x22, [sp, #16]\n"
    "    stp x23, x24, [sp, #32]\n"
    "    stp x25, x26, [sp, #48]\n"
    "    stp x27, x28, [sp, #64]\n"
    "    stp x29, x30, [sp, #80]\n"
    "    stp d8, d9, [sp, #96]\n"
    "    stp d10, d11, [sp, #112]\n"
    "    stp d12, d13, [sp, #128]\n"
    "    stp d14, d15, [sp, #144]\n"
    "    mrs x9, fpcr\n"
    "    str x9, [sp, #160]\n"
    "    mov x9, sp\n"
    "    str x9, [x0]\n"
    "    mov sp, x1\n"
    "    ldr x9, [sp, #160]\n"
    "    msr fpcr, x9\n"
    "    ldp x19, x20, [sp, #0]\n"
    "    ldp x21, x22, [sp, #16]\n"
    "    ldp x23, x24, [sp, #32]\n"
    "    ldp x25, x26, [sp, #48]\n"
    "    ldp x27, x28, [sp, #64]\n"
    "    ldp x29, x30, [sp, #80]\n"
    "    ldp d8, d9, [sp, #96]\n"
    "    ldp d10, d11, [sp, #112]\n"
    "    ldp d12, d13, [sp, #128]\n"
    "    ldp d14, d15, [sp, #144]\n"
    "    add sp, sp, #176\n"
    "    ret\n"
    ".size emu_fiber_swap, .-emu_fiber_swap\n"
    ".globl emu_fiber_trampoline\n"
    ".type emu_fiber_trampoline,%function\n"
    "emu_fiber_trampoline:\n"
    "    mov x0, x20\n"
    "    blr x19\n"
    "    brk #0\n"
    ".size emu_fiber_trampoline, .-emu_fiber_trampoline\n");

#endif

void emu_fiber_prepare(emu_fiber *fiber, const emu_stack *stack, void (*entry)(void *), void *arg)
{
    uintptr_t top = ((uintptr_t)stack->bottom + stack->size) & ~(uintptr_t)15;
    fiber->stack_pointer = fiber_first_frame(top, entry, arg);
    fiber_runs_on(fiber, stack);
}

// Saves the running context into from and resumes to.
static void fiber_jump(emu_fiber *from, emu_fiber *to)
{
    emu_fiber_swap(&from->stack_pointer, to->stack_pointer);
}

#endif

void emu_fiber_switch(emu_fiber *from, emu_fiber *to)
{
    fiber_announce(&from->asan_fake_stack, to);
    fiber_leaving = from;
    fiber_jump(from, to);
    fiber_arrived(from->asan_fake_stack);
}

void emu_fiber_started(void)
{
    fiber_arrived(NULL);
}

void emu_fiber_exit(emu_fiber *to)
{
    static emu_fiber abandoned;  // where the dying fiber's registers go; never resumed
    fiber_announce(NULL, to);
    fiber_leaving = &abandoned;
    fiber_jump(&abandoned, to);
    __builtin_unreachable();
}
