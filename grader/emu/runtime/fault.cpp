// grader/emu/runtime/fault.cpp — fatal faults: out-of-bounds accesses (ASan),
// undefined behaviour (UBSan), segmentation faults (device memory touched by
// host code, wild pointers, stack overflows) and failed assertions.
//
// Whatever catches the fault, this file says which CUDA thread caused it —
// kernel, block, thread — in one line on stderr and, when the runner named a
// report file, as `error_stage=execute` and `error=...` lines appended to it,
// before the process dies. It also words an access that is not fatal (a read
// of a kit grid's guard cell, which memory.cpp records) the same way.
#include <cstdint>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"
#include "protocol.h"

extern "C" {
void __asan_set_error_report_callback(void (*callback)(const char *)) __attribute__((weak));
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
void __asan_report_error(void *pc, void *bp, void *sp, void *addr, int is_write, size_t size) __attribute__((weak));
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf, size_t out_buf_size) __attribute__((weak));
#ifdef STENCIL_COVERAGE
void __gcov_dump(void);  // the coverage build's counts, written before a fault ends the process
#endif
}

static char fault_report_path[4096];     // the runner's report file; empty when none
static volatile sig_atomic_t fault_done; // 1 once a fault was reported
static char ubsan_line[512];             // the last "runtime error:" line UBSan printed
static struct sigaction previous_segv;   // handlers before ours (ASan's, or the default)
static struct sigaction previous_bus;

// Default sanitizer options for every emulated program: no leak report at
// exit (the runner exits without freeing), our SIGSEGV handler first, and the
// runner's exit code for a kernel fault.
#define EMU_STR2(x) #x
#define EMU_STR(x) EMU_STR2(x)
extern "C" const char *__asan_default_options(void)
{
    return "detect_leaks=0:allow_user_segv_handler=1:exitcode=" EMU_STR(RUNNER_KERNEL_FAULT);
}

// UBSan's defaults: stop at the first error, with a stack trace.
extern "C" const char *__ubsan_default_options(void)
{
    return "print_stacktrace=1:halt_on_error=1:exitcode=" EMU_STR(RUNNER_KERNEL_FAULT);
}

void emu_set_fault_report(const char *path)
{
    snprintf(fault_report_path, sizeof(fault_report_path), "%s", path ? path : "");
}

// ---------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------

// Writes who faulted: "kernel K, block (..), thread (..)" or "host code".
static void fault_context(char *out, size_t len)
{
    int tid = emu_running_thread();
    if (!emu_current_launch) {
        snprintf(out, len, "host code");
    } else if (tid >= 0) {
        uint3 t = emu_current_launch->thread_index[tid];
        snprintf(out, len, "kernel %s, block (%u,%u,%u), thread (%u,%u,%u)", emu_current_launch->request->name,
                 blockIdx.x, blockIdx.y, blockIdx.z, t.x, t.y, t.z);
    } else {
        snprintf(out, len, "kernel %s, block (%u,%u,%u)", emu_current_launch->request->name, blockIdx.x,
                 blockIdx.y, blockIdx.z);
    }
}

// Appends the one-line message to the report file, if there is one.
static void fault_append_report(const char *one_line)
{
    char text[1100];
    int fd = fault_report_path[0] ? open(fault_report_path, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
    if (fd < 0)
        return;
    snprintf(text, sizeof(text), "error_stage=execute\nerror=%s\n", one_line);
    if (write(fd, text, strlen(text)) < 0)
        text[0] = '\0';
    close(fd);
}

// Appends message (made one line) to the report file and stderr, once per
// process. The process dies next (abort, a signal, the sanitizer): the
// coverage build (EMU_COVERAGE) writes its line counts here.
static void fault_publish(const char *message)
{
    char one_line[1000], text[1100];
    if (fault_done)
        return;
    fault_done = 1;
    snprintf(one_line, sizeof(one_line), "%s", message);
    protocol_one_line(one_line);
    snprintf(text, sizeof(text), "stencil-emu: fatal: %s\n", one_line);
    if (write(2, text, strlen(text)) >= 0)
        fault_append_report(one_line);
#ifdef STENCIL_COVERAGE
    __gcov_dump();
#endif
}

// Describes address from what the runtime knows: device memory, shared
// memory, thread stacks. Returns 0 when none of them holds it.
static int fault_describe_address(const void *address, char *out, size_t len)
{
    return emu_memory_describe(address, out, len) || emu_shared_describe(address, out, len) ||
           emu_stack_describe(address, out, len);
}

// ---------------------------------------------------------------------------
// AddressSanitizer
// ---------------------------------------------------------------------------

// Copies the text after key in report up to the end of its line (at most
// len - 1 bytes); returns 0 when key is absent.
static int report_field(const char *report, const char *key, char *out, size_t len)
{
    const char *p = strstr(report, key);
    size_t n = 0;
    if (!p)
        return 0;
    p += strlen(key);
    while (p[n] && p[n] != '\n' && n + 1 < len)
        n++;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

// Finds the first stack frame of the report in program code (not in the
// sanitizer's interceptors) and writes its file:line.
static void report_location(const char *report, char *out, size_t len)
{
    const char *p = report;
    out[0] = '\0';
    while ((p = strstr(p, "    #")) != NULL) {
        char frame[512];
        report_field(p, "    #", frame, sizeof(frame));
        p += 5;
        if (strstr(frame, "__interceptor_") || strstr(frame, "libasan") || strstr(frame, "libc.so") ||
            strstr(frame, "__asan") || strstr(frame, "/emu/runtime/"))
            continue;
        const char *space = strrchr(frame, ' ');
        if (space && strchr(space, ':'))
            snprintf(out, len, "; the access is at %s", emu_basename(space + 1));
        return;
    }
}

// ASan's error report callback: turns the report into the one-line message.
static void fault_on_asan_report(const char *report)
{
    char kind[64] = "memory error", access[64] = "", detail[320] = "", where[160] = "", who[200];
    char message[1000];
    unsigned long long address = 0;
    const char *a = strstr(report, "address 0x");
    int size = 0;
    report_field(report, "AddressSanitizer: ", kind, sizeof(kind));
    kind[strcspn(kind, " ")] = '\0';
    if (a)
        address = strtoull(a + strlen("address "), NULL, 16);
    if (sscanf(strstr(report, "READ of size ") ? strstr(report, "READ of size ") : "", "READ of size %d", &size) == 1)
        snprintf(access, sizeof(access), "read of %d bytes", size);
    else if (sscanf(strstr(report, "WRITE of size ") ? strstr(report, "WRITE of size ") : "", "WRITE of size %d",
                    &size) == 1)
        snprintf(access, sizeof(access), "write of %d bytes", size);
    else
        snprintf(access, sizeof(access), "access");
    if (strcmp(kind, "SEGV") == 0)
        snprintf(access, sizeof(access), "on an access");
    if (fault_describe_address((const void *)(uintptr_t)address, detail, sizeof(detail)))
        snprintf(kind, sizeof(kind), "%s", strstr(detail, "freed") ? "use-after-free" : "out-of-bounds");
    else if (report_field(report, " is located ", detail + strlen("is located "),
                          sizeof(detail) - strlen("is located ")))
        memcpy(detail, "is located ", strlen("is located "));
    report_location(report, where, sizeof(where));
    fault_context(who, sizeof(who));
    snprintf(message, sizeof(message), "%s: %s %s at 0x%llx%s%s%s", who, kind, access, address,
             detail[0] ? ", " : "", detail, where);
    fault_publish(message);
}

void emu_fault_where(const char *access, const void *pc, char *out, size_t len)
{
    char who[200], line[300] = "";
    fault_context(who, sizeof(who));
    // pc is the return address, inside the access's line: one byte back stays on it
    if (__sanitizer_symbolize_pc)
        __sanitizer_symbolize_pc((void *)((uintptr_t)pc - 1), "%s:%l", line, sizeof(line));
    snprintf(out, len, "%s: %s; the access is at %s", who, access,
             line[0] && !strstr(line, "??") ? emu_basename(line) : "an unknown line (no debug information)");
}

// UBSan prints through the sanitizers' common printer: remember its error line.
extern "C" void __sanitizer_on_print(const char *text)
{
    const char *p = text ? strstr(text, "runtime error: ") : NULL;
    if (!p)
        return;
    while (p > text && p[-1] != '\n')
        p--;
    size_t n = strcspn(p, "\n");
    if (n >= sizeof(ubsan_line))
        n = sizeof(ubsan_line) - 1;
    memcpy(ubsan_line, p, n);
    ubsan_line[n] = '\0';
}

// The sanitizers' death callback: reports faults no other path reported
// (UBSan's, mostly).
static void fault_on_death(void)
{
    char who[200], message[1000];
    fault_context(who, sizeof(who));
    if (ubsan_line[0])
        snprintf(message, sizeof(message), "%s: undefined behaviour: %s", who, emu_basename(ubsan_line));
    else
        snprintf(message, sizeof(message), "%s: the sanitizer stopped the program (its report is above)", who);
    fault_publish(message);
}

// ---------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------

// " on a read" or " on a write" when the CPU says which (x86-64); under ASan
// only for device memory, whose shadow is valid (elsewhere the fault may be
// ASan reading the shadow of a wild address). Empty otherwise.
static const char *signal_access(void *context, int in_device_memory)
{
#if defined(__x86_64__)
    const ucontext_t *uc = (const ucontext_t *)context;
    if (__asan_report_error && !in_device_memory)
        return "";
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? " on a write" : " on a read";
#else
    (void)context;
    (void)in_device_memory;
    return "";
#endif
}

// SIGSEGV/SIGBUS: explains the address, then lets the previous handler (ASan's,
// or the default action) end the process when the access repeats.
static void fault_on_signal(int sig, siginfo_t *info, void *context)
{
    char who[200], detail[320], message[1000];
    const void *address = info->si_addr;
    const char *name = sig == SIGBUS ? "SIGBUS" : "SEGV";
    int device = emu_memory_describe(address, detail, sizeof(detail));
    const char *access = signal_access(context, device);
    fault_context(who, sizeof(who));
    if (device && !emu_current_launch)
        snprintf(message, sizeof(message),
                 "host code: %s%s at %p, %s: device pointers are only for kernels and cudaMemcpy", name, access,
                 address, detail);
    else if (device || fault_describe_address(address, detail, sizeof(detail)))
        snprintf(message, sizeof(message), "%s: %s%s at %p, %s", who, name, access, address, detail);
    else if ((uintptr_t)address < 65536)
        snprintf(message, sizeof(message), "%s: %s%s at %p: a null pointer dereferenced", who, name, access, address);
    else
        snprintf(message, sizeof(message), "%s: %s%s at %p, an address no allocation covers (a wild index or pointer)",
                 who, name, access, address);
    fault_publish(message);
    sigaction(sig, sig == SIGBUS ? &previous_bus : &previous_segv, NULL);
}

// Gives signal handlers a stack of their own when nobody did (stack overflows).
static void fault_alternate_stack(void)
{
    static char stack[64 * 1024];
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
        return;
    stack_t mine = {};
    mine.ss_sp = stack;
    mine.ss_size = sizeof(stack);
    sigaltstack(&mine, NULL);
}

// Registers the death callback with every sanitizer runtime loaded: with
// ASan and UBSan each library keeps its own (a weak reference reaches one).
static int fault_register_death_callback(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    if (!name || (!strstr(name, "libubsan") && !strstr(name, "libasan")))
        return 0;
    void *library = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    void (*set_callback)(void (*)(void)) =
        library ? (void (*)(void (*)(void)))dlsym(library, "__sanitizer_set_death_callback") : NULL;
    if (set_callback)
        set_callback(fault_on_death);
    if (library)
        dlclose(library);
    return 0;
}

void emu_fault_install(void)
{
    struct sigaction sa = {};
    sa.sa_sigaction = fault_on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    fault_alternate_stack();
    sigaction(SIGSEGV, &sa, &previous_segv);
    sigaction(SIGBUS, &sa, &previous_bus);
    if (__asan_set_error_report_callback)
        __asan_set_error_report_callback(fault_on_asan_report);
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(fault_on_death);
    dl_iterate_phdr(fault_register_death_callback, NULL);
}

// ---------------------------------------------------------------------------
// assert()
// ---------------------------------------------------------------------------

// Replaces the C library's assertion failure: in a kernel it is CUDA's
// device-side assert, reported with the thread that failed it.
extern "C" void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
    char who[200], message[1000];
    fault_context(who, sizeof(who));
    snprintf(message, sizeof(message), "%s: %s at %s:%u: assertion `%s` failed in %s", who,
             emu_current_launch ? "device-side assert triggered" : "assertion failed", emu_basename(file), line,
             assertion, function);
    fault_publish(message);
    abort();
}
