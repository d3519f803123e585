// tests/shim/fake_executor.c — the executor's side of grader/protocol/wire.h,
// without a GPU, for tests/shim.sh: starts a student's program (the shim,
// student_main.cpp and tests/shim/student_calls.cpp) with the wire on its
// descriptors 3 and 4, reads its registration, makes one call of a size drawn
// from the seed, answers every request as tests/shim/fake_wire.h says and
// checks what the program sent (sizes, the bytes copied, the packed launch
// arguments, every kind of refusal), then a call of size 0 and WIRE_EXIT.
//
// usage: fake_executor PROGRAM SEED
// Prints "ok - NAME" or "not ok - NAME<tab>WHY" a check; exits 1 if one failed, 2 on a broken wire.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_wire.h"
#include "wire.h"

typedef struct fake_session {
    int from_program;         // the executor reads requests here
    int to_program;           // and writes answers here
    uint64_t kernel_handle;   // the registered kernel's host handle
    uint64_t symbol_handle;   // the registered symbol's host address
    uint64_t d_in, d_out;     // the call's grids
    unsigned n;               // the call's size
    float symbol[FAKE_SYMBOL_FLOATS];  // the symbol's value, as last copied to it
    unsigned refusals;        // bit r: refusal r was reported
    int launches;             // launches with the right arguments
    int bad_launches;         // launches with others
    int copies_right;         // host-to-device copies whose bytes are the pattern
    int copies_wrong;         // and those whose bytes are not
    int failures_reported;    // the student side's count of failed checks (-1: not reported)
    int failed;               // checks of this side that failed
} fake_session;

// Prints one check's outcome; counts a failure.
static void report(fake_session *s, int ok, const char *name, const char *why_fmt, ...)
{
    if (ok) {
        printf("ok - %s\n", name);
        return;
    }
    va_list ap;
    va_start(ap, why_fmt);
    printf("not ok - %s\t", name);
    vprintf(why_fmt, ap);
    printf("\n");
    va_end(ap);
    s->failed++;
}

// Reads exactly n bytes; ends the test (status 2) if the program closed the wire.
static void read_exact(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r <= 0) {
            printf("not ok - the wire: the program closed it mid-message\n");
            exit(2);
        }
        p += r;
        n -= (size_t)r;
    }
}

// Writes one message: a header, the status (when has_status) and len bytes of data.
static void send_message(fake_session *s, uint32_t op, int has_status, int32_t status, const void *data, uint32_t len)
{
    wire_header h = {op, len + (has_status ? 4u : 0u)};
    if (write(s->to_program, &h, sizeof(h)) != sizeof(h) ||
        (has_status && write(s->to_program, &status, 4) != 4) ||
        (len && write(s->to_program, data, len) != (ssize_t)len)) {
        printf("not ok - the wire: the program stopped reading\n");
        exit(2);
    }
}

// Answers a request: a status and len bytes.
static void answer(fake_session *s, int32_t status, const void *data, uint32_t len)
{
    send_message(s, 0, 1, status, data, len);
}

// Starts program with the wire on its descriptors 3 and 4; fills s's ends. Returns the child's pid.
static pid_t start_program(fake_session *s, const char *program)
{
    int requests[2], answers[2];
    if (pipe(requests) != 0 || pipe(answers) != 0)
        exit(2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int to = fcntl(requests[1], F_DUPFD, 10), from = fcntl(answers[0], F_DUPFD, 10);
        for (int i = 0; i < 2; i++) {  // the pipes' first descriptors may be 3 and 4 themselves
            close(requests[i]);
            close(answers[i]);
        }
        dup2(to, WIRE_FD_TO_EXECUTOR);
        dup2(from, WIRE_FD_FROM_EXECUTOR);
        execl(program, program, (char *)NULL);
        _exit(127);
    }
    close(requests[1]);
    close(answers[0]);
    s->from_program = requests[0];
    s->to_program = answers[1];
    return pid;
}

// Reads the registration up to WIRE_READY and checks it: the image, the kernel, the symbol, the managed variable refused.
static void read_registration(fake_session *s)
{
    int fatbin = 0, function = 0, var = 0;
    for (;;) {
        wire_header h;
        static char payload[4096];
        read_exact(s->from_program, &h, sizeof(h));
        if (h.len > sizeof(payload)) {
            printf("not ok - registration: a message of %u bytes\n", h.len);
            exit(2);
        }
        read_exact(s->from_program, payload, h.len);
        if (h.op == WIRE_READY)
            break;
        if (h.op == WIRE_FATBIN)
            fatbin = h.len == 16 + FAKE_FATBIN_BYTES;
        if (h.op == WIRE_FUNCTION && h.len > 8) {
            memcpy(&s->kernel_handle, payload, 8);
            function = h.len - 8 == strlen(FAKE_KERNEL_NAME) && !memcmp(payload + 8, FAKE_KERNEL_NAME, h.len - 8);
        }
        if (h.op == WIRE_VAR && h.len > 20) {
            uint64_t size;
            memcpy(&s->symbol_handle, payload, 8);
            memcpy(&size, payload + 8, 8);
            var = size == FAKE_SYMBOL_FLOATS * 4 && !memcmp(payload + 20, FAKE_SYMBOL_NAME, h.len - 20);
        }
        if (h.op == WIRE_REFUSED && h.len == 4)
            s->refusals |= 1u << *(uint32_t *)payload;
    }
    report(s, fatbin, "registration: the whole image", "no WIRE_FATBIN of %d bytes", 16 + FAKE_FATBIN_BYTES);
    report(s, function, "registration: the kernel by its mangled name", "no WIRE_FUNCTION naming %s", FAKE_KERNEL_NAME);
    report(s, var, "registration: the symbol, its size and name", "no WIRE_VAR of %s", FAKE_SYMBOL_NAME);
}

// Checks a launch's payload: the kernel, the block, the arguments packed as 8, 8 and 4 bytes.
static void check_launch(fake_session *s, const char *p, uint32_t len)
{
    uint64_t handle, d_in, d_out;
    uint32_t block[3], n;
    enum { head = 8 + 12 + 12 + 8 + 8 };
    if (len != head + 20) {
        s->bad_launches++;
        return;
    }
    memcpy(&handle, p, 8);
    memcpy(block, p + 20, 12);
    memcpy(&d_in, p + head, 8);
    memcpy(&d_out, p + head + 8, 8);
    memcpy(&n, p + head + 16, 4);
    if (handle == s->kernel_handle && block[0] == FAKE_BLOCK && d_in == s->d_in && d_out == s->d_out && n == s->n)
        s->launches++;
    else
        s->bad_launches++;
}

// Answers a copy to or from memory or a symbol; checks the bytes a host-to-device copy carries.
static void serve_copy(fake_session *s, uint32_t op, const char *p, uint32_t len)
{
    static uint8_t data[FAKE_MAX_BYTES + 64];
    uint64_t bytes;
    uint32_t kind;
    memcpy(&bytes, p + 16, 8);
    memcpy(&kind, p + 24, 4);
    int to_device = kind == 1;  // cudaMemcpyHostToDevice, or to_symbol
    int to_host = op == WIRE_MEMCPY ? kind == 2 : kind == 0;  // cudaMemcpyDeviceToHost, or from the symbol
    if (op == WIRE_SYMBOL_COPY && to_device && len == 28 + bytes && bytes <= sizeof(s->symbol))
        memcpy(s->symbol, p + 28, bytes);
    if (op == WIRE_MEMCPY && to_device) {
        int same = len == 28 + bytes;
        for (uint64_t i = 0; same && i < bytes; i++)
            same = (uint8_t)p[28 + i] == fake_pattern_byte(s->n, i);
        same ? s->copies_right++ : s->copies_wrong++;
    }
    if (!to_host || bytes > FAKE_MAX_BYTES) {
        answer(s, 0, NULL, 0);
        return;
    }
    for (uint64_t i = 0; i < bytes; i++)
        data[i] = fake_pattern_byte(s->n + 1, i);
    answer(s, 0, op == WIRE_MEMCPY ? (const void *)data : (const void *)s->symbol, (uint32_t)bytes);
}

// Answers one request p of len bytes as fake_wire.h says.
static void serve_request(fake_session *s, uint32_t op, const char *p, uint32_t len)
{
    uint64_t u64 = 0;
    int32_t i32 = 0;
    if (len >= 8)
        memcpy(&u64, p, 8);
    if (len >= 4)
        memcpy(&i32, p, 4);
    if (op == WIRE_PARAMS) {
        uint32_t params[4] = {3, 8, 8, 4};
        u64 == s->kernel_handle ? answer(s, 0, params, sizeof(params)) : answer(s, FAKE_NOT_A_KERNEL, NULL, 0);
    } else if (op == WIRE_MALLOC) {
        uint64_t ptr = fake_malloc_answer(u64);
        answer(s, 0, &ptr, 8);
    } else if (op == WIRE_MEMCPY || op == WIRE_SYMBOL_COPY) {
        serve_copy(s, op, p, len);
    } else if (op == WIRE_MEMSET) {
        uint64_t bytes;
        memcpy(&bytes, p + 12, 8);
        if (bytes == 0 && u64 == s->d_out)
            memcpy(&s->failures_reported, p + 8, 4);
        answer(s, 0, NULL, 0);
    } else if (op == WIRE_SYMBOL_ADDRESS) {
        uint64_t a[2] = {FAKE_SYMBOL_ADDRESS, FAKE_SYMBOL_FLOATS * 4};
        answer(s, u64 == s->symbol_handle ? 0 : 13, a, sizeof(a));
    } else if (op == WIRE_LAST_ERROR) {
        answer(s, i32 ? 0 : FAKE_STICKY_ERROR, NULL, 0);
    } else if (op == WIRE_DEVICE_ATTR) {
        int32_t v = fake_attribute(i32);
        answer(s, 0, &v, 4);
    } else if (op == WIRE_DEVICE_NAME) {
        answer(s, 0, FAKE_DEVICE_NAME, sizeof(FAKE_DEVICE_NAME) - 1);
    } else if (op == WIRE_FUNC_ATTRS) {
        wire_func_attrs a = {(uint64_t)s->n * 4, 0, 0, 1024, (int32_t)(s->n % 200), 90, 90, 48 * 1024};
        answer(s, 0, &a, sizeof(a));
    } else if (op == WIRE_OCCUPANCY) {
        int32_t blocks = FAKE_OCCUPANCY;
        answer(s, 0, &blocks, 4);
    } else {  // WIRE_FREE, WIRE_SYNC, WIRE_FUNC_SET_ATTR: nothing to say
        answer(s, 0, NULL, 0);
    }
}

// Sends one call of size n and serves the program's requests until its WIRE_RETURN.
static void serve_call(fake_session *s, unsigned n)
{
    wire_sweep_call call = {s->d_in, s->d_out, n, n, n, 0};
    static char payload[FAKE_MAX_BYTES + 1024];
    s->n = n;
    send_message(s, WIRE_CALL, 0, 0, &call, sizeof(call));
    for (;;) {
        wire_header h;
        read_exact(s->from_program, &h, sizeof(h));
        if (h.len > sizeof(payload)) {
            printf("not ok - the wire: a request of %u bytes (op %u)\n", h.len, h.op);
            exit(2);
        }
        read_exact(s->from_program, payload, h.len);
        if (h.op == WIRE_RETURN)
            return;
        if (h.op == WIRE_LAUNCH)
            check_launch(s, payload, h.len);
        else if (h.op == WIRE_REFUSED && h.len == 4)
            s->refusals |= 1u << *(uint32_t *)payload;
        else
            serve_request(s, h.op, payload, h.len);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fake_executor PROGRAM SEED\n");
        return 2;
    }
    fake_session s;
    memset(&s, 0, sizeof(s));
    s.failures_reported = -1;
    srandom((unsigned)strtoul(argv[2], NULL, 10));
    s.d_in = 0x7f0000000000ull + ((uint64_t)random() << 8);
    s.d_out = s.d_in + 0x100000000ull;
    unsigned n = 1 + (unsigned)random() % 1000;
    printf("# call size N = %u, d_in = 0x%llx\n", n, (unsigned long long)s.d_in);
    pid_t pid = start_program(&s, argv[1]);
    read_registration(&s);
    serve_call(&s, n);
    report(&s, s.failures_reported == 0, "the program's own checks of every answer", "%d failed (its stderr names them)",
           s.failures_reported);
    report(&s, s.launches == 2 && s.bad_launches == 0, "launches: the kernel, its block, its arguments packed",
           "%d right, %d wrong (expected 2 right)", s.launches, s.bad_launches);
    report(&s, s.copies_right == 2 && s.copies_wrong == 0, "host-to-device copies carry the program's bytes",
           "%d right, %d wrong (expected 2 right)", s.copies_right, s.copies_wrong);
    unsigned every = 0;
    for (unsigned r = 1; r < WIRE_REFUSE_COUNT; r++)
        every |= 1u << r;
    report(&s, s.refusals == every, "every kind of refused call is reported", "refusals seen 0x%x, expected 0x%x",
           s.refusals, every);
    serve_call(&s, 0);
    send_message(&s, WIRE_EXIT, 0, 0, NULL, 0);
    int status = 0;
    waitpid(pid, &status, 0);
    report(&s, WIFEXITED(status) && WEXITSTATUS(status) == 0, "WIRE_EXIT ends the program with status 0",
           "status 0x%x", status);
    return s.failed ? 1 : 0;
}
