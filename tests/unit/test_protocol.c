// tests/unit/test_protocol.c — grader/protocol/'s own helpers from both
// sides' point of view: protocol_printable (random bytes come out as printable
// UTF-8 of the same length, every kept character unchanged, every hidden one
// '?'), the whole reads and writes of pipe_io.h (short counts, a signal
// in the middle of a read, the end of input, a reader gone) and the GPU's
// lock files of gpu_locks.h (which lock each taking holds, a wait broken by
// a signal, a spec or a folder that is wrong), and the unit a GPU check's
// sample is made of (every cell of a grid in exactly one unit, a 2D grid's
// units its rows). Random inputs, the seed printed.
#include "test_util.h"

#include <signal.h>
#include <sys/wait.h>

#include "gpu_locks.h"
#include "pipe_io.h"
#include "protocol.h"

// ---------------------------------------------------------------------------
// protocol_printable
// ---------------------------------------------------------------------------

// Decodes the character at s as protocol_printable reads UTF-8 (a lead byte
// C2-F4 and its continuation bytes) into *code; returns its length, or 0 if s
// holds no such sequence. *code is UINT32_MAX for a sequence of that shape
// that is no character (overlong, a surrogate, past U+10FFFF), which
// protocol_printable keeps as it is.
static int utf8_decode(const unsigned char *s, unsigned *code)
{
    int len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                                : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (len == 0)
        return 0;
    unsigned c = len == 1 ? s[0] : s[0] & (0x7f >> len);
    for (int k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[k] & 0x3f);
    }
    static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    int character = c >= least[len] && c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff);
    *code = character ? c : UINT32_MAX;
    return len;
}

// 1 if code may not be printed: a control (C0 but tab and, when kept, newline; DEL; C1) or a bidirectional control.
static int code_hidden(unsigned code, int keep_newlines)
{
    if (code == '\t' || (keep_newlines && code == '\n') || code == UINT32_MAX)
        return 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code == 0x61c || code == 0x200e || code == 0x200f ||
           (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

// Writes code as UTF-8 at out; returns its length.
static int utf8_encode(unsigned code, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (code < 0x80) {
        o[0] = (unsigned char)code;
        return 1;
    }
    int len = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = {0, 0, 0xc0, 0xe0, 0xf0};
    for (int k = len - 1; k > 0; k--, code >>= 6)
        o[k] = (unsigned char)(0x80 | (code & 0x3f));
    o[0] = (unsigned char)(lead[len] | code);
    return len;
}

// Asserts that out is in of the same length: each whole, printable character of in kept, the rest '?'.
static void expect_printable_of(const char *in, const char *out, int keep_newlines)
{
    const unsigned char *a = (const unsigned char *)in, *b = (const unsigned char *)out;
    assert_int_equal(strlen(in), strlen(out));
    while (*a) {
        unsigned code = 0;
        int len = utf8_decode(a, &code);
        if (len > 0 && !code_hidden(code, keep_newlines)) {
            assert_memory_equal(a, b, (size_t)len);
        } else {
            len = len > 0 ? len : 1;
            for (int k = 0; k < len; k++)
                assert_int_equal(b[k], '?');
        }
        a += len;
        b += len;
    }
}

// Random text: ASCII, controls, raw bytes, cut sequences and whole characters (hidden ones among them).
static void random_text(rng *r, char *text, size_t size)
{
    static const unsigned picks[] = {'a', 'Z', '\t', '\n', 0x1b, 0x7f, 0xe9, 0x85, 0x9b, 0x61c, 0x4e2d, 0x200e,
                                     0x202e, 0x2067, 0x2069, 0x2070, 0x1f600, 0xfeff};
    size_t n = 0;
    while (n + 5 < size) {
        unsigned kind = (unsigned)(rng_next(r) % 4);
        if (kind == 0) {
            text[n++] = (char)(1 + rng_next(r) % 255);  // any byte but the end
        } else if (kind == 1) {
            char whole[4];
            int len = utf8_encode(picks[rng_next(r) % (sizeof(picks) / sizeof(picks[0]))], whole);
            int cut = 1 + (int)(rng_next(r) % (unsigned)len);  // a sequence cut short, or whole
            memcpy(text + n, whole, (size_t)cut);
            n += (size_t)cut;
        } else {
            n += (size_t)utf8_encode(picks[rng_next(r) % (sizeof(picks) / sizeof(picks[0]))], text + n);
        }
    }
    text[n] = '\0';
}

// Random texts: what comes out has the same length, printable characters unchanged, the rest '?'; a second pass changes nothing.
static void test_printable_random(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x9e17ab1e);
    for (int round = 0; round < 2000; round++) {
        char in[200], out[200], again[200];
        random_text(&r, in, 6 + rng_next(&r) % (sizeof(in) - 6));
        int keep_newlines = (int)(rng_next(&r) & 1);
        memcpy(out, in, sizeof(in));
        protocol_printable(out, keep_newlines);
        expect_printable_of(in, out, keep_newlines);
        memcpy(again, out, sizeof(out));
        protocol_printable(again, keep_newlines);
        assert_string_equal(again, out);
    }
}

// Each hidden character alone becomes as many '?' as its bytes; a newline stays only when asked; a null text is left alone.
static void test_printable_each_hidden(void **state)
{
    (void)state;
    static const unsigned hidden[] = {0x1b, 0x7f, 0x80, 0x9f, 0x61c, 0x200e, 0x200f, 0x202a,
                                      0x202e, 0x2066, 0x2069};
    for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
        char text[8] = "";
        int len = utf8_encode(hidden[i], text);
        protocol_printable(text, 1);
        assert_int_equal(strspn(text, "?"), (size_t)len);
        assert_int_equal(strlen(text), (size_t)len);
    }
    char lines[] = "a\nb\tc";
    protocol_printable(lines, 1);
    assert_string_equal(lines, "a\nb\tc");
    protocol_printable(lines, 0);
    assert_string_equal(lines, "a?b\tc");
    protocol_printable(NULL, 0);
}

// protocol_printable_copy: cut to its room (random sizes), made printable; no room at all leaves dst untouched.
static void test_printable_copy(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0xc0b1);
    for (int round = 0; round < 500; round++) {
        char src[120], dst[120], expected[120];
        random_text(&r, src, sizeof(src));
        size_t room = 1 + rng_next(&r) % sizeof(dst);
        size_t kept = strnlen(src, room - 1);
        memcpy(expected, src, kept);
        expected[kept] = '\0';
        protocol_printable(expected, 0);
        assert_ptr_equal(protocol_printable_copy(dst, room, src), dst);
        assert_string_equal(dst, expected);
    }
    char untouched[4] = "abc";
    assert_ptr_equal(protocol_printable_copy(untouched, 0, "\x1b[2J"), untouched);
    assert_string_equal(untouched, "abc");
}

// ---------------------------------------------------------------------------
// pipe_io.h
// ---------------------------------------------------------------------------

static volatile sig_atomic_t interruptions; // SIGUSR1s the reading process took

// Counts an interruption (installed without SA_RESTART: the read it breaks returns EINTR).
static void count_interruption(int sig)
{
    (void)sig;
    interruptions++;
}

// Writes len bytes of data to fd in pieces of random sizes, signalling reader with SIGUSR1 before the first; ends the process.
static void write_in_pieces(int fd, const unsigned char *data, size_t len, pid_t reader, uint64_t seed)
{
    rng r;
    rng_init(&r, seed);
    usleep(50000);  // the reader is blocked in read() by now
    kill(reader, SIGUSR1);
    usleep(50000);
    for (size_t at = 0; at < len;) {
        size_t piece = 1 + rng_next(&r) % 700;
        piece = piece < len - at ? piece : len - at;
        if (pipe_write_all(fd, data + at, piece) != 0)
            _exit(1);
        at += piece;
    }
    _exit(0);
}

// A read broken by a signal goes on, pieces of random sizes come out whole, and input that ends early is an error.
static void test_pipe_read_whole(void **state)
{
    (void)state;
    rng r;
    rng_init(&r, test_seed() ^ 0x919e);
    static unsigned char sent[20000], got[20001];
    size_t len = 1000 + rng_next(&r) % (sizeof(sent) - 1000);
    for (size_t i = 0; i < len; i++)
        sent[i] = (unsigned char)rng_next(&r);
    struct sigaction on_usr1 = {.sa_handler = count_interruption}, before;
    assert_int_equal(sigaction(SIGUSR1, &on_usr1, &before), 0);
    interruptions = 0;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    pid_t writer = fork();
    assert_true(writer >= 0);
    if (writer == 0)
        write_in_pieces(fds[1], sent, len, getppid(), rng_next(&r));
    close(fds[1]);
    assert_int_equal(pipe_read_all(fds[0], got, len), 0);
    assert_memory_equal(got, sent, len);
    assert_int_equal(pipe_read_all(fds[0], got, 1), -1);  // the writer is done: the end of input
    int status = 0;
    assert_int_equal(waitpid(writer, &status, 0), writer);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fds[0]);
    sigaction(SIGUSR1, &before, NULL);
    printf("# %zu bytes read whole, %d interruption(s)\n", len, (int)interruptions);
    assert_true(interruptions >= 1);
}

// A write whose reader is gone fails (SIGPIPE ignored, as the kit's sides do), and so does a read of a closed descriptor.
static void test_pipe_reader_gone(void **state)
{
    (void)state;
    int fds[2];
    char byte = 'x';
    assert_int_equal(pipe(fds), 0);
    struct sigaction ignore = {.sa_handler = SIG_IGN}, before;
    assert_int_equal(sigaction(SIGPIPE, &ignore, &before), 0);
    close(fds[0]);
    assert_int_equal(pipe_write_all(fds[1], &byte, 1), -1);
    assert_int_equal(errno, EPIPE);
    close(fds[1]);
    assert_int_equal(pipe_read_all(fds[1], &byte, 1), -1);
    sigaction(SIGPIPE, &before, NULL);
}

// ---------------------------------------------------------------------------
// gpu_locks.h
// ---------------------------------------------------------------------------

// 1 if a new descriptor of path could take the flock op (LOCK_SH or LOCK_EX) now; it is given back at once.
static int lock_free(const char *path, int op)
{
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    int got = flock(fd, op | LOCK_NB) == 0;
    close(fd);
    return got;
}

// A new folder in dir (a mkdtemp template) and the paths of GPU k's five lock
// files in it, in GPU_LOCKS_OPTION's order (the profiler's, tools' gate,
// tools, the gate, the turn), k drawn from seed.
enum { L_PROFILER, L_TOOLS_GATE, L_TOOLS, L_GATE, L_TURN };
static void lock_paths(char *dir, char paths[GPU_LOCKS_FILES][256], uint64_t seed)
{
    rng r;
    rng_init(&r, seed);
    assert_non_null(mkdtemp(dir));
    int k = (int)(rng_next(&r) % 8);
    const char *names[] = {GPU_LOCK_PROFILER, GPU_LOCK_TOOLS_GATE, GPU_LOCK_TOOLS, GPU_LOCK_GATE, GPU_LOCK_TURN};
    for (int i = 0; i < GPU_LOCKS_FILES; i++)
        gpu_lock_path(paths[i], sizeof(paths[i]), dir, k, names[i]);
}

// Removes what lock_paths made.
static void lock_paths_remove(char *dir, char paths[GPU_LOCKS_FILES][256])
{
    for (int i = 0; i < GPU_LOCKS_FILES; i++)
        unlink(paths[i]);
    rmdir(dir);
}

// The option's value for paths, mode "" (shared), "alone" or "long".
static void lock_spec(char *spec, size_t len, char paths[GPU_LOCKS_FILES][256], const char *mode)
{
    snprintf(spec, len, "%s,%s,%s,%s,%s%s%s", paths[0], paths[1], paths[2], paths[3], paths[4], *mode ? "," : "", mode);
}

// gpu_locks_take holds the profiler's lock alone and a turn (shared, alone
// or long, as the spec says) and gives the gates back; a long turn holds
// tools shared, an alone one has given it back; gpu_locks_give gives every
// lock back; a spec of fewer than five paths, an unknown mode and a folder
// that does not exist are refused, no descriptor left open.
static void test_gpu_locks_take(void **state)
{
    (void)state;
    char dir[] = "/tmp/stencil-locks-XXXXXX", paths[GPU_LOCKS_FILES][256], spec[2048];
    int fds[GPU_LOCKS_FILES];
    const char *modes[] = {"", "alone", "long"};
    lock_paths(dir, paths, test_seed() ^ 0x10c5);
    for (int m = 0; m < 3; m++) {
        int alone = m == 1, long_turn = m == 2;
        lock_spec(spec, sizeof(spec), paths, modes[m]);
        assert_int_equal(gpu_locks_take(spec, fds), 0);
        assert_false(lock_free(paths[L_PROFILER], LOCK_SH));       // the profiler's: one run at a time
        assert_true(lock_free(paths[L_GATE], LOCK_EX));             // the gates: given back
        assert_true(lock_free(paths[L_TOOLS_GATE], LOCK_EX));
        assert_int_equal(lock_free(paths[L_TURN], LOCK_SH), !alone);
        assert_false(lock_free(paths[L_TURN], LOCK_EX));
        assert_int_equal(lock_free(paths[L_TOOLS], LOCK_EX), !long_turn);  // a long turn's mark; a timer's given back
        assert_true(lock_free(paths[L_TOOLS], LOCK_SH));
        gpu_locks_give(fds);
        for (int i = 0; i < GPU_LOCKS_FILES; i++)
            assert_true(fds[i] == -1 && lock_free(paths[i], LOCK_EX));
    }
    snprintf(spec, sizeof(spec), "%s,%s,%s", paths[0], paths[1], paths[2]);
    assert_int_equal(gpu_locks_take(spec, fds), -1);
    assert_int_equal(errno, EINVAL);
    lock_spec(spec, sizeof(spec), paths, "later");
    assert_int_equal(gpu_locks_take(spec, fds), -1);
    assert_int_equal(errno, EINVAL);
    for (int missing = 0; missing < GPU_LOCKS_FILES; missing++) {  // each file in turn in a folder that is gone
        char gone[GPU_LOCKS_FILES][256];
        for (int i = 0; i < GPU_LOCKS_FILES; i++)
            snprintf(gone[i], sizeof(gone[i]), "%s%.240s", i == missing ? "/gone" : "", paths[i]);
        lock_spec(spec, sizeof(spec), gone, "alone");
        assert_int_equal(gpu_locks_take(spec, fds), -1);
        assert_int_equal(errno, ENOENT);
        for (int i = 0; i < GPU_LOCKS_FILES; i++)
            assert_int_equal(fds[i], -1);
        assert_true(lock_free(paths[L_PROFILER], LOCK_EX));  // nothing kept when a later file failed
    }
    lock_paths_remove(dir, paths);
}

// gpu_locks_give gives every lock back at once although a child forked while
// they were held (the student's program, forked inside the case's turn) still
// has their descriptors open: the GPU is not kept waiting on the child.
static void test_gpu_locks_give_beside_a_child(void **state)
{
    (void)state;
    char dir[] = "/tmp/stencil-locks-XXXXXX", paths[GPU_LOCKS_FILES][256], spec[2048];
    int fds[GPU_LOCKS_FILES], hold[2];
    const char *modes[] = {"", "alone", "long"};
    lock_paths(dir, paths, test_seed() ^ 0x91e5);
    for (int m = 0; m < 3; m++) {
        lock_spec(spec, sizeof(spec), paths, modes[m]);
        assert_int_equal(gpu_locks_take(spec, fds), 0);
        assert_int_equal(pipe(hold), 0);
        pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0) {  // keeps its copies of the descriptors until the pipe closes
            char byte;
            close(hold[1]);
            _exit(read(hold[0], &byte, 1) < 0);
        }
        close(hold[0]);
        assert_false(lock_free(paths[L_TURN], LOCK_EX));
        gpu_locks_give(fds);
        for (int i = 0; i < GPU_LOCKS_FILES; i++)  // every lock free (a long turn's tools too), the child still there
            assert_true(fds[i] == -1 && lock_free(paths[i], LOCK_EX));
        assert_int_equal(kill(child, 0), 0);
        close(hold[1]);
        int status;
        assert_int_equal(waitpid(child, &status, 0), child);
    }
    int none[GPU_LOCKS_FILES] = {-1, -1, -1, -1, -1};
    gpu_locks_give(none);  // nothing taken: nothing to do
    assert_true(none[0] == -1 && none[4] == -1);
    lock_paths_remove(dir, paths);
}

static int lock_interruptions; // calls of count_lock_interruption

// The interrupted callback of gpu_lock_flock: counts.
static void count_lock_interruption(void)
{
    lock_interruptions++;
}

// A wait for a lock that another process holds goes on after a signal (the
// callback told each time) and takes the lock once that process ends; a
// descriptor that is no file fails at once.
static void test_gpu_lock_waits_through_signals(void **state)
{
    (void)state;
    char path[64];
    int ready[2];
    test_write_file(path, sizeof(path), "");
    struct sigaction on_usr1 = {.sa_handler = count_interruption}, before;
    assert_int_equal(sigaction(SIGUSR1, &on_usr1, &before), 0);
    assert_int_equal(pipe(ready), 0);
    fflush(stdout);
    pid_t holder = fork();
    assert_true(holder >= 0);
    if (holder == 0) {  // holds the lock, tells the parent, interrupts its wait, then ends (the lock given back)
        int fd = open(path, O_RDWR);
        if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(ready[1], "x", 1) != 1)
            _exit(1);
        usleep(100000);
        kill(getppid(), SIGUSR1);
        usleep(100000);
        _exit(0);
    }
    char byte;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    int fd = open(path, O_RDWR);
    lock_interruptions = 0;
    assert_int_equal(gpu_lock_flock(fd, LOCK_EX, count_lock_interruption), 0);
    printf("# the lock taken after %d interruption(s)\n", lock_interruptions);
    assert_true(lock_interruptions >= 1);
    int status = 0;
    assert_int_equal(waitpid(holder, &status, 0), holder);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
    assert_int_equal(gpu_lock_flock(fd, LOCK_SH, NULL), -1);
    assert_int_equal(errno, EBADF);
    close(ready[0]);
    close(ready[1]);
    sigaction(SIGUSR1, &before, NULL);
    unlink(path);
}

// ---------------------------------------------------------------------------
// protocol_sample_unit_of
// ---------------------------------------------------------------------------

// Random grids, 3D and 2D: the units tile the grid (every cell in exactly one
// unit), cell (i, j, k) lies in unit i of a 3D grid and unit j of a 2D one
// (a row of nx cells: a 2D image's sample is never the whole image).
static void test_sample_unit_tiles_grid(void **state)
{
    (void)state;
    rng g;
    rng_init(&g, test_seed() ^ 0x756e6974ull);
    unsigned char *seen = malloc(40 * 40 * 40);
    for (int trial = 0; trial < 200; trial++) {
        unsigned long long nx = 1 + rng_next(&g) % 40, ny = 1 + rng_next(&g) % 40;
        unsigned long long nz = trial % 2 ? 1 : 1 + rng_next(&g) % 40, cells = nx * ny * nz;
        protocol_sample_unit u = protocol_sample_unit_of(nx, ny, nz);
        assert_true(u.axis == (nz > 1 ? 2 : 1));
        assert_true(u.cells == (nz > 1 ? nx * ny : nx) && u.count == (nz > 1 ? nz : ny));
        memset(seen, 0, cells);
        for (unsigned long long q = 0; q < u.count; q++)
            for (unsigned long long p = 0; p < u.cells; p++) {
                unsigned long long at = q * u.stride + p, i = at / (nx * ny), j = at / nx % ny;
                assert_true(at < cells);
                assert_true((u.axis == 2 ? i : j) == q);
                seen[at]++;
            }
        for (unsigned long long at = 0; at < cells; at++)
            if (seen[at] != 1)
                fail_msg("%llux%llux%llu: cell %llu lies in %d units", nx, ny, nz, at, seen[at]);
    }
    free(seen);
}

// The GPUs a CUDA_VISIBLE_DEVICES value names: random indices between commas
// and spaces, UUIDs and MIG names whole, none in an empty value or in
// separators alone, and only the first max copied.
static void test_gpu_visible_names(void **state)
{
    (void)state;
    char names[8][GPU_VISIBLE_NAME_BYTES], value[256], want[8][16];
    unsigned seed = (unsigned)test_seed();
    int n = 1 + (int)(seed % 8), used = 0;
    for (int k = 0; k < n; k++) {
        snprintf(want[k], sizeof(want[k]), "%u", (seed >> (k + 2)) % 16);
        used += snprintf(value + used, sizeof(value) - (size_t)used, "%s%s", k ? ((seed >> k) & 1 ? ", " : ",") : " ", want[k]);
    }
    assert_int_equal(gpu_visible_names(value, names, 8), n);
    for (int k = 0; k < n; k++)
        assert_string_equal(names[k], want[k]);
    assert_int_equal(gpu_visible_names("GPU-8f3a2c1e-0000-1111-2222-333344445555,MIG-1c2d/3/0", names, 8), 2);
    assert_string_equal(names[0], "GPU-8f3a2c1e-0000-1111-2222-333344445555");
    assert_string_equal(names[1], "MIG-1c2d/3/0");
    assert_int_equal(gpu_visible_names("", names, 8), 0);
    assert_int_equal(gpu_visible_names(NULL, names, 8), 0);
    assert_int_equal(gpu_visible_names(" , ,", names, 8), 0);
    strcpy(names[1], "untouched");
    assert_int_equal(gpu_visible_names("4,5,6", names, 1), 3);  // counted all, copied one
    assert_int_equal(gpu_visible_names(value, NULL, 0), n);  // counted only
    assert_string_equal(names[0], "4");
    assert_string_equal(names[1], "untouched");
}

// ---------------------------------------------------------------------------
// loads_missing_kind_of: the kind of a missing count, as the judge reads it
// ---------------------------------------------------------------------------

// Every kind reads back from its name; any other value, a name changed in
// one letter, a prefix of a name or none at all reads as a fault (never as
// a machine that cannot count, which alone leaves the floors unchecked).
static void test_loads_missing_kind_names(void **state)
{
    (void)state;
    char changed[64];
    rng r;
    rng_init(&r, test_seed() ^ 0x10ad5);
    for (int k = 0; k < LOADS_MISSING_KINDS; k++) {
        assert_int_equal(loads_missing_kind_of(loads_missing_kind_names[k]), k);
        snprintf(changed, sizeof(changed), "%s", loads_missing_kind_names[k]);
        changed[rng_next(&r) % strlen(changed)] ^= 0x20;  // (a letter's case, or '-' made '\r')
        assert_int_equal(loads_missing_kind_of(changed), LOADS_MISSING_FAULT);
        snprintf(changed, sizeof(changed), "%.*s", (int)strlen(loads_missing_kind_names[k]) - 1, loads_missing_kind_names[k]);
        assert_int_equal(loads_missing_kind_of(changed), LOADS_MISSING_FAULT);
    }
    assert_int_equal(loads_missing_kind_of(NULL), LOADS_MISSING_FAULT);
    assert_int_equal(loads_missing_kind_of(""), LOADS_MISSING_FAULT);
    assert_int_equal(loads_missing_kind_of("cannot-count-here "), LOADS_MISSING_FAULT);
    for (int a = 0; a < LOADS_MISSING_KINDS; a++)  // the names are distinct
        for (int b = a + 1; b < LOADS_MISSING_KINDS; b++)
            assert_string_not_equal(loads_missing_kind_names[a], loads_missing_kind_names[b]);
}

int main(void)
{
    test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printable_random),
        cmocka_unit_test(test_printable_each_hidden),
        cmocka_unit_test(test_printable_copy),
        cmocka_unit_test(test_pipe_read_whole),
        cmocka_unit_test(test_pipe_reader_gone),
        cmocka_unit_test(test_gpu_locks_take),
        cmocka_unit_test(test_gpu_locks_give_beside_a_child),
        cmocka_unit_test(test_gpu_visible_names),
        cmocka_unit_test(test_gpu_lock_waits_through_signals),
        cmocka_unit_test(test_sample_unit_tiles_grid),
        cmocka_unit_test(test_loads_missing_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
