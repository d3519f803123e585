// grader/judge/build_check.c — see build_check.h.
//
// Two passes. The text scan (no compiler) refuses what the file shows itself:
// an #include by an absolute path, through "..", or by a path a macro supplies
// (so every included name is visible here); #embed; the word incbin anywhere;
// string literals that spell an assembler directive reading a file. Then the
// preprocessor lists every file the compile would open (the compiler, include
// path and -D of grader/build.mk, under a time and memory limit), and anything
// outside the kit's headers and the toolchain's folders is refused.
#include "build_check.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spawn.h"

#define BC_TIMEOUT_S 30.0               // the preprocessor's time limit: a listing takes under a second
#define BC_ADDRESS_SPACE (2ull << 30)   // its memory: ample for a listing, stops a read of /dev/zero early
#define BC_LOG_BYTES (64ull << 20)      // the largest log or dependency file it may write
#define BC_MAX_SOURCE (16u << 20)       // the largest kernel file checked (they are a few KB)
#define BC_MAX_INCLUDES 256             // #include lines remembered, to name the line of a refusal
#define BC_MAX_DIRS 24                  // allowed folders
#define BC_ALLOWED "a kernel file may read no other file: it may include only the kit's headers (lab.h, star13.h, grid.h, jacobi.h) and the toolchain's (<stdio.h>, <math.h>, ...)"

typedef struct bc_include {
    int line;                           // the student's line of the directive
    char name[256];                     // the path as written between the quotes or brackets
} bc_include;

typedef struct bc_source {
    char *spliced;                      // the file after line splicing (comments kept)
    int *spliced_line;                  // the student's line of each character of spliced
    size_t spliced_len;                 // characters in spliced
    char *text;                         // spliced with each comment replaced by a space
    int *line;                          // the student's line of each character of text
    size_t len;                         // characters in text
    bc_include inc[BC_MAX_INCLUDES];    // the #include lines, in order
    int ninc;                           // entries in inc
} bc_source;

typedef struct bc_check {
    const char *kit;                    // the kit's root
    int gpu;                            // 1: nvcc builds it, 0: the emulation backend's g++
    const char *staged;                 // the staged copy being checked
    const char *name;                   // the student's file, as printed
    char staged_real[PATH_MAX];         // staged, resolved
    char student_real[PATH_MAX];        // the file its leading #line names, resolved ("" if none)
    char kernels[PATH_MAX];             // <kit>/kernels, resolved: its *.h are the kit's headers
    char dirs[BC_MAX_DIRS][PATH_MAX];   // other allowed folders, resolved: everything below them
    int ndirs;                          // entries in dirs
    char *why;                          // the reason, on refusal
    size_t why_len;                     // its size
} bc_check;

// Writes "<file> line <line>: <message>; <what is allowed>" (no line when line
// is 0) into c->why as one printable line, and returns -1.
static int bc_refuse(bc_check *c, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(c->why, c->why_len, "%s line %d: %s; %s", c->name, line, msg, BC_ALLOWED);
    else
        snprintf(c->why, c->why_len, "%s: %s; %s", c->name, msg, BC_ALLOWED);
    for (char *p = c->why; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return -1;
}

// Reads a whole file (at most BC_LOG_BYTES) into a new NUL-terminated buffer;
// NULL (errno set) if it cannot.
static char *bc_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1u << 16, n = 0, got;
    char *buf = f ? malloc(cap + 1) : NULL;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = cap < BC_LOG_BYTES ? realloc(buf, cap * 2 + 1) : NULL;
            if (!bigger)
                free(buf), errno = EFBIG;
            buf = bigger;
            cap *= 2;
        }
    }
    if (f)
        fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

// Case-insensitive search for word in t[0..n); returns its index or n.
static size_t bc_find_nocase(const char *t, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++) {
        size_t k = 0;
        while (k < w && tolower((unsigned char)t[i + k]) == word[k])
            k++;
        if (k == w)
            return i;
    }
    return n;
}

// 1 if ch can be part of an identifier or a preprocessing number.
static int bc_ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

// 1 if the quote at t[i] is a C++14 digit separator (1'000'000), not a literal.
static int bc_digit_separator(const char *t, size_t i)
{
    size_t s = i;
    while (s > 0 && (bc_ident_char(t[s - 1]) || t[s - 1] == '.' || t[s - 1] == '\''))
        s--;
    return s < i && (isdigit((unsigned char)t[s]) || (t[s] == '.' && isdigit((unsigned char)t[s + 1])));
}

// 1 if the R at t[i] starts a raw string: R" after no identifier, or after u8, u, U or L.
static int bc_raw_start(const char *t, size_t n, size_t i)
{
    if (t[i] != 'R' || i + 1 >= n || t[i + 1] != '"')
        return 0;
    size_t s = i;
    while (s > 0 && bc_ident_char(t[s - 1]))
        s--;
    size_t plen = i - s;
    return plen == 0 || (plen == 1 && strchr("uUL", t[s])) || (plen == 2 && t[s] == 'u' && t[s + 1] == '8');
}

// Ends a raw string R"delim( ... )delim" whose R is at t[i]: returns the index
// past it and its contents in [*body, *body_end); returns i if it is malformed.
static size_t bc_raw_literal(const char *t, size_t n, size_t i, size_t *body, size_t *body_end)
{
    char close[20] = ")";
    size_t d = i + 2, k = 1;
    while (d < n && k < 17 && t[d] != '(' && t[d] != ')' && t[d] != '\\' && !isspace((unsigned char)t[d]))
        close[k++] = t[d++];
    if (d >= n || t[d] != '(')
        return i;
    close[k++] = '"';
    close[k] = '\0';
    for (size_t j = d + 1; j + k <= n; j++)
        if (!memcmp(t + j, close, k)) {
            *body = d + 1;
            *body_end = j;
            return j + k;
        }
    *body = d + 1;
    *body_end = n;
    return n;
}

// If a string or character literal (raw strings included) starts at t[i],
// returns the index just past it (an unterminated one ends at the line's end)
// and its contents in [*body, *body_end); else returns i.
static size_t bc_literal(const char *t, size_t n, size_t i, size_t *body, size_t *body_end)
{
    if (bc_raw_start(t, n, i))
        return bc_raw_literal(t, n, i, body, body_end);
    if (t[i] != '"' && (t[i] != '\'' || bc_digit_separator(t, i)))
        return i;
    size_t j = i + 1;
    while (j < n && t[j] != t[i] && t[j] != '\n')
        j += (t[j] == '\\' && j + 1 < n) ? 2 : 1;
    *body = i + 1;
    *body_end = j < n ? j : n;
    return j < n && t[j] == t[i] ? j + 1 : j;
}

// Translation phase 2: joins lines ended by a backslash into s->spliced, with
// the student's line of each character (the #line directive judge.c puts in
// front of the staged copy is dropped, so line 1 is the student's line 1).
static void bc_splice(bc_source *s, const char *raw, size_t n)
{
    size_t i = 0, o = 0;
    int line = 1;
    if (!strncmp(raw, "#line ", 6))
        while (i < n && raw[i++] != '\n') { }
    while (i < n) {
        size_t eol = raw[i] == '\\' ? i + 1 : n;
        while (eol < n && raw[eol] != '\n' && isspace((unsigned char)raw[eol]))  // gcc splices "\ \n" too
            eol++;
        if (eol < n && raw[eol] == '\n') {
            i = eol + 1;
            line++;
            continue;
        }
        s->spliced_line[o] = line;
        s->spliced[o++] = raw[i];
        line += raw[i++] == '\n';
    }
    s->spliced[o] = '\0';
    s->spliced_len = o;
}

// Translation phase 3: copies s->spliced into s->text with each comment
// replaced by one space; string and character literals are kept as they are.
static void bc_strip_comments(bc_source *s)
{
    const char *t = s->spliced;
    size_t n = s->spliced_len, i = 0, o = 0, b, e;
    while (i < n) {
        size_t j = bc_literal(t, n, i, &b, &e);
        if (j == i && t[i] == '/' && i + 1 < n && (t[i + 1] == '/' || t[i + 1] == '*')) {
            int block = t[i + 1] == '*';
            s->line[o] = s->spliced_line[i];
            s->text[o++] = ' ';
            for (j = i + 2; j < n && (block ? !(t[j] == '*' && j + 1 < n && t[j + 1] == '/') : t[j] != '\n'); j++) { }
            i = block ? (j < n ? j + 2 : n) : j;
            continue;
        }
        if (j == i)
            j = i + 1;
        for (; i < j; i++, o++) {
            s->line[o] = s->spliced_line[i];
            s->text[o] = t[i];
        }
    }
    s->text[o] = '\0';
    s->len = o;
}

// Resolves the file that the staged copy's leading `#line 1 "..."` names (the
// student's own file, which nvcc lists as a dependency) into c->student_real.
static void bc_find_student_file(bc_check *c, const char *raw, size_t n)
{
    char path[PATH_MAX];
    size_t i = 9, k = 0;
    c->student_real[0] = '\0';
    if (n < 9 || strncmp(raw, "#line 1 \"", 9) != 0)
        return;
    for (; i < n && raw[i] != '"' && raw[i] != '\n' && k + 1 < sizeof(path); i++, k++)
        path[k] = raw[i] == '\\' && i + 1 < n ? raw[++i] : raw[i];  // judge.c escapes " and \ there
    path[k] = '\0';
    if (i < n && raw[i] == '"' && !realpath(path, c->student_real))
        c->student_real[0] = '\0';
}

// Reads the staged copy and prepares its spliced and comment-free texts.
// Returns 0, or -1 with the reason in c->why.
static int bc_load(bc_check *c, bc_source *s)
{
    size_t n = 0;
    char *raw = bc_read(c->staged, &n);
    if (!raw)
        return bc_refuse(c, 0, "cannot read the staged copy %s (%s)", c->staged, strerror(errno));
    if (n > BC_MAX_SOURCE) {
        free(raw);
        return bc_refuse(c, 0, "the file has %zu bytes, more than a kernel file needs (at most %u)", n, BC_MAX_SOURCE);
    }
    s->spliced = malloc(n + 1);
    s->text = malloc(n + 1);
    s->spliced_line = malloc((n + 1) * sizeof(int));
    s->line = malloc((n + 1) * sizeof(int));
    if (!s->spliced || !s->text || !s->spliced_line || !s->line) {
        free(raw);
        return bc_refuse(c, 0, "out of memory reading the file");
    }
    bc_find_student_file(c, raw, n);
    bc_splice(s, raw, n);
    free(raw);
    bc_strip_comments(s);
    return 0;
}

// Checks the path text[from..to) of an #include written at line: not absolute,
// no "..". Remembers it in s->inc. Returns 0 or -1 (refused).
static int bc_check_include_name(bc_check *c, bc_source *s, int line, const char *word, size_t from, size_t to)
{
    char name[256];
    const char *path = s->text + from;
    size_t len = to - from;
    snprintf(name, sizeof(name), "%.*s", (int)(len < 255 ? len : 255), path);
    if (len > 0 && path[0] == '/')
        return bc_refuse(c, line, "#%s %c%s%c names an absolute path", word, path[-1], name, path[-1] == '<' ? '>' : '"');
    if (memmem(path, len, "..", 2))
        return bc_refuse(c, line, "#%s %c%s%c climbs out of its folder with \"..\"", word, path[-1], name, path[-1] == '<' ? '>' : '"');
    if (s->ninc < BC_MAX_INCLUDES) {
        s->inc[s->ninc].line = line;
        snprintf(s->inc[s->ninc].name, sizeof(s->inc[0].name), "%s", name);
        s->ninc++;
    }
    return 0;
}

// Looks at one logical line text[i..end): refuses #embed, and an #include
// (#include_next, #import) that a macro names or whose path is not allowed.
// Returns 0 or -1 (refused).
static int bc_scan_directive(bc_check *c, bc_source *s, size_t i, size_t end)
{
    const char *t = s->text;
    char word[16] = "";
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    if (i < end && t[i] == '#')
        i++;
    else if (i + 1 < end && t[i] == '%' && t[i + 1] == ':')  // the digraph of #
        i += 2;
    else
        return 0;
    int line = s->line[i - 1];
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    size_t w = i;
    while (i < end && bc_ident_char(t[i]))
        i++;
    snprintf(word, sizeof(word), "%.*s", (int)(i - w < 15 ? i - w : 15), t + w);
    if (!strcmp(word, "embed"))
        return bc_refuse(c, line, "#embed reads a file into the program");
    if (strcmp(word, "include") && strcmp(word, "include_next") && strcmp(word, "import"))
        return 0;
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    char open = i < end ? t[i] : '\0', close = open == '"' ? '"' : open == '<' ? '>' : '\0';
    if (!close)
        return bc_refuse(c, line, "#%s %.*s takes its path from a macro (write the header's name: \"lab.h\")",
                         word, (int)(end - i < 60 ? end - i : 60), t + i);
    size_t p = i + 1;
    while (p < end && t[p] != close)
        p++;
    return bc_check_include_name(c, s, line, word, i + 1, p);
}

// Runs bc_scan_directive on every logical line. Returns 0 or -1 (refused).
static int bc_scan_directives(bc_check *c, bc_source *s)
{
    for (size_t i = 0; i < s->len;) {
        size_t end = i;
        while (end < s->len && s->text[end] != '\n')
            end++;
        if (bc_scan_directive(c, s, i, end))
            return -1;
        i = end + 1;
    }
    return 0;
}

// Refuses "incbin" anywhere (comments included), and string literals that
// together spell an assembler directive that reads a file or builds directive
// names (".inc" "bin" is one string to the compiler). Returns 0 or -1.
static int bc_scan_assembler(bc_check *c, bc_source *s)
{
    static const char *words[] = {"incbin", ".include", ".macro", ".irp"};
    size_t at = bc_find_nocase(s->spliced, s->spliced_len, "incbin"), n = 0, b, e;
    if (at < s->spliced_len)
        return bc_refuse(c, s->spliced_line[at], "'incbin' may not appear anywhere in the file (the assembler's .incbin reads a file into the program)");
    char *lits = malloc(s->len + 1);
    int *lit_line = malloc((s->len + 1) * sizeof(int));
    int rc = lits && lit_line ? 0 : bc_refuse(c, 0, "out of memory reading the file");
    for (size_t i = 0; i < s->len && !rc;) {
        size_t j = bc_literal(s->text, s->len, i, &b, &e);
        if (j == i) {
            i++;
            continue;
        }
        int is_string = s->text[i] != '\'';  // character literals cannot be assembler text
        for (; is_string && b < e; b++, n++) {
            lits[n] = s->text[b];
            lit_line[n] = s->line[b];
        }
        i = j;
    }
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]) && !rc; k++)
        if ((at = bc_find_nocase(lits, n, words[k])) < n)
            rc = bc_refuse(c, lit_line[at], "string literals spell the assembler directive '%s', which reads a file or builds directive names", words[k]);
    free(lits);
    free(lit_line);
    return rc;
}

// Refuses the names of the sanitizers' own functions anywhere (comments
// included): under emulation the load checks AddressSanitizer calls are what
// the emulator counts a kernel's loads by (grader/emu/runtime/loads.cpp), so
// a file may not make such calls itself. Returns 0 or -1.
static int bc_scan_sanitizer_names(bc_check *c, bc_source *s)
{
    static const char *words[] = {"__asan", "__sanitizer", "__ubsan", "__lsan"};
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
        size_t at = bc_find_nocase(s->spliced, s->spliced_len, words[k]);
        if (at < s->spliced_len)
            return bc_refuse(c, s->spliced_line[at], "'%s' may not appear anywhere in the file: the sanitizers' own functions are the kit's (the emulator counts a kernel's loads by their calls)", words[k]);
    }
    return 0;
}

// Adds dir, resolved, to the allowed folders when it exists.
static void bc_allow(bc_check *c, const char *dir)
{
    if (dir && *dir && c->ndirs < BC_MAX_DIRS && realpath(dir, c->dirs[c->ndirs]))
        c->ndirs++;
}

// Finds a program as execvp does (a name with a slash as it is, else on PATH)
// and resolves it into real. Returns 0, or -1 if it is not found.
static int bc_which(const char *prog, char *real)
{
    char try_path[PATH_MAX];
    const char *path = getenv("PATH");
    if (strchr(prog, '/'))
        return realpath(prog, real) ? 0 : -1;
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        if (len)
            snprintf(try_path, sizeof(try_path), "%.*s/%s", (int)len, p, prog);
        else
            snprintf(try_path, sizeof(try_path), "./%s", prog);
        if (access(try_path, X_OK) == 0 && realpath(try_path, real))
            return 0;
        p += len + (p[len] == ':');
    }
    return -1;
}

// Allows <root>/<sub> for each sub, root being the installation prefix of the
// program prog (the folder above its bin/).
static void bc_allow_installation(bc_check *c, const char *prog, const char *const subs[])
{
    char root[PATH_MAX], dir[PATH_MAX + 32];
    if (!prog || bc_which(prog, root) != 0)
        return;
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(root, '/');
        if (slash)
            *slash = '\0';
    }
    for (int i = 0; subs[i]; i++) {
        snprintf(dir, sizeof(dir), "%s/%s", root, subs[i]);
        bc_allow(c, dir);
    }
}

// The compiler the build uses (grader/build.mk): NVCC or nvcc on the GPU,
// EMU_CXX or g++ under emulation.
static const char *bc_compiler(const bc_check *c)
{
    const char *cc = getenv(c->gpu ? "NVCC" : "EMU_CXX");
    return cc && *cc ? cc : (c->gpu ? "nvcc" : "g++");
}

// Fills the allowed folders: the backend's own headers, the C/C++ system
// folders, and the include folders of the compiler's installation.
static void bc_allow_toolchain(bc_check *c)
{
    static const char *const system_dirs[] = {"/usr/include", "/usr/local/include", "/usr/lib/gcc", "/usr/lib64/gcc", NULL};
    static const char *const gcc_subs[] = {"include", "lib/gcc", "lib64/gcc", NULL};
    static const char *const cuda_subs[] = {"include", "targets", NULL};
    char dir[PATH_MAX + 32];
    snprintf(dir, sizeof(dir), "%s/kernels", c->kit);
    if (!realpath(dir, c->kernels))
        c->kernels[0] = '\0';
    for (int i = 0; system_dirs[i]; i++)
        bc_allow(c, system_dirs[i]);
    bc_allow_installation(c, c->gpu ? "g++" : bc_compiler(c), gcc_subs);
    if (c->gpu) {
        bc_allow_installation(c, bc_compiler(c), cuda_subs);
        const char *home = getenv("CUDA_HOME");
        snprintf(dir, sizeof(dir), "%s/include", home ? home : "");
        bc_allow(c, home ? dir : NULL);
    } else {
        snprintf(dir, sizeof(dir), "%s/grader/emu/include", c->kit);
        bc_allow(c, dir);
    }
}

// 1 if real (a resolved path) is a file the compile may read: the staged copy
// (or the student's file it copies), a header directly in <kit>/kernels, or
// anything below an allowed folder.
static int bc_allowed(const bc_check *c, const char *real)
{
    size_t k = strlen(c->kernels), len = strlen(real);
    if (!strcmp(real, c->staged_real) || !strcmp(real, c->student_real))
        return 1;
    if (k && !strncmp(real, c->kernels, k) && real[k] == '/' && !strchr(real + k + 1, '/') &&
        len > 2 && !strcmp(real + len - 2, ".h"))
        return 1;
    for (int i = 0; i < c->ndirs; i++) {
        size_t d = strlen(c->dirs[i]);
        if (d > 1 && !strncmp(real, c->dirs[i], d) && real[d] == '/')
            return 1;
    }
    return 0;
}

// The line of the #include whose name ends in real's file name; 0 if none.
static int bc_include_line(const bc_source *s, const char *real, const char **name)
{
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    for (int i = 0; i < s->ninc; i++) {
        const char *n = s->inc[i].name, *nbase = strrchr(n, '/') ? strrchr(n, '/') + 1 : n;
        if (!strcmp(nbase, base)) {
            *name = n;
            return s->inc[i].line;
        }
    }
    return 0;
}

// Checks one file the preprocessor listed (-M's rule: listed 1) or opened
// (-H's log: listed 0). A relative name that does not exist is a missing
// header (the compile reports it). -H's lines come from every process nvcc
// starts, on one stream: two writing at once can cut a line, so a line of
// the log that names no regular file is no header and is passed over (-M's
// rule, written by one process, lists every header and stays strict).
// Returns 0 or -1.
static int bc_check_dependency(bc_check *c, const bc_source *s, const char *path, int listed)
{
    char real[PATH_MAX];
    const char *name = NULL;
    struct stat st;
    if (!*path)
        return 0;
    if (!listed && (!realpath(path, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)))
        return 0;
    if (!realpath(path, real)) {
        if (path[0] != '/' && (errno == ENOENT || errno == ENOTDIR))
            return 0;
        return bc_refuse(c, 0, "an #include pulls in %s, which cannot be resolved (%s)", path, strerror(errno));
    }
    if (bc_allowed(c, real))
        return 0;
    if (stat(real, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;  // a folder is no file the compile read (a listing's odd word: "/" was seen on a loaded machine)
    int line = bc_include_line(s, real, &name);
    if (line)
        return bc_refuse(c, line, "#include \"%s\" pulls in %s, which is neither a kit header nor the toolchain's", name, real);
    return bc_refuse(c, 0, "an #include (or a header it includes) pulls in %s, which is neither a kit header nor the toolchain's", real);
}

// Checks every prerequisite of the make rule in dep_path (the preprocessor's
// -M output: backslash-newline continuations, "\ " and "\#" escapes, "$$").
// A missing file checks nothing. Returns 0 or -1.
static int bc_check_dep_file(bc_check *c, const bc_source *s, const char *dep_path)
{
    size_t n = 0, i = 0, w = 0;
    char *d = bc_read(dep_path, &n), word[PATH_MAX];
    int rc = 0;
    if (!d)
        return 0;
    while (i < n && !(d[i] == ':' && (i + 1 == n || isspace((unsigned char)d[i + 1]))))  // past the target
        i++;
    for (i++; i <= n && !rc; i++) {
        char ch = i < n ? d[i] : '\n';
        if (ch == '\\' && i + 1 < n && (d[i + 1] == '\n' || d[i + 1] == '\r')) {  // a continuation
            i += d[i + 1] == '\r' && i + 2 < n && d[i + 2] == '\n' ? 2 : 1;
            ch = ' ';
        } else if ((ch == '\\' && i + 1 < n && (d[i + 1] == ' ' || d[i + 1] == '#')) || (ch == '$' && i + 1 < n && d[i + 1] == '$')) {
            ch = d[++i];
            if (w + 1 < sizeof(word))
                word[w++] = ch;
            continue;
        }
        if (!isspace((unsigned char)ch)) {
            if (w + 1 < sizeof(word))
                word[w++] = ch;
            continue;
        }
        word[w] = '\0';
        w = 0;
        rc = bc_check_dependency(c, s, word, 1);
        if (ch == '\n')
            break;
    }
    free(d);
    return rc;
}

// Checks every header the preprocessor's -H option printed into log_path
// (one per line: dots for the depth, a space, the path). Returns 0 or -1.
static int bc_check_header_log(bc_check *c, const bc_source *s, const char *log_path)
{
    char line[PATH_MAX + 64];
    int rc = 0;
    FILE *f = fopen(log_path, "r");
    while (f && !rc && fgets(line, sizeof(line), f)) {
        size_t dots = strspn(line, ".");
        if (dots == 0 || line[dots] != ' ')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        rc = bc_check_dependency(c, s, line + dots + 1, 0);
    }
    if (f)
        fclose(f);
    return rc;
}

// 1 if the preprocessor's log says it ran out of memory or a tool it ran died.
static int bc_log_says_exhausted(const char *log_path)
{
    static const char *signs[] = {"out of memory", "memory exhausted", "signal terminated program", "Killed"};
    size_t n = 0;
    char *log = bc_read(log_path, &n);
    int found = 0;
    for (size_t i = 0; log && i < sizeof(signs) / sizeof(signs[0]); i++)
        found |= strstr(log, signs[i]) != NULL;
    free(log);
    return found;
}

// Runs the preprocessor's dependency listing of the staged copy, with the
// include path and macros of its real compile: the rule into dep_path, the
// headers it opens (-H) and its messages into log_path.
static spawn_result bc_run_preprocessor(const bc_check *c, const char *dep_path, const char *log_path)
{
    static const char *const emu_dirs[] = {"grader/emu/include", "grader/emu", "grader/protocol", "grader", "kernels", NULL};
    char inc[6][PATH_MAX + 16];
    char *argv[40];
    int n = 0, k = 0;
    argv[n++] = (char *)bc_compiler(c);
    argv[n++] = "-M";
    if (!c->gpu)
        argv[n++] = "-MG";  // missing headers listed, not fatal: the listing survives an #error
    argv[n++] = "-MF";
    argv[n++] = (char *)dep_path;
    if (c->gpu)
        argv[n++] = "-Xcompiler";
    argv[n++] = "-H";
    argv[n++] = "-x";
    argv[n++] = c->gpu ? "cu" : "c++";
    argv[n++] = "-std=c++17";
    if (c->gpu) {
        snprintf(inc[k], sizeof(inc[k]), "-I%s/kernels", c->kit);
        argv[n++] = inc[k++];
    } else {
        argv[n++] = "-DLAB_EMU";
        for (int i = 0; emu_dirs[i]; i++, k++) {  // as grader/emu/emu.mk compiles the runner
            snprintf(inc[k], sizeof(inc[k]), "-I%s/%s", c->kit, emu_dirs[i]);
            argv[n++] = inc[k];
        }
        argv[n++] = "-include";
        argv[n++] = "cuda_runtime.h";
    }
    argv[n++] = (char *)c->staged;
    argv[n] = NULL;
    spawn_limits lim = {BC_TIMEOUT_S, BC_LOG_BYTES, BC_ADDRESS_SPACE, NULL, 0, 0, SPAWN_NICE_BESIDE, 0, NULL, NULL, NULL};
    return spawn_run(argv, NULL, log_path, &lim);
}

// Lists what the preprocessor opens and refuses anything outside the allowed
// folders; a time-out, running out of memory or a crash is refused too, any
// other preprocessor error is left to the compile (it names the student's
// lines). Returns 0 or -1.
static int bc_check_dependencies(bc_check *c, const bc_source *s)
{
    char dep_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
    snprintf(dep_path, sizeof(dep_path), "%s.deps", c->staged);
    snprintf(log_path, sizeof(log_path), "%s.check.log", c->staged);
    unlink(dep_path);
    spawn_result r = bc_run_preprocessor(c, dep_path, log_path);
    if (!r.started)
        return 0;  // no compiler: the build says so in its own words
    if (bc_check_header_log(c, s, log_path) || bc_check_dep_file(c, s, dep_path))
        return -1;
    if (r.timed_out)
        return bc_refuse(c, 0, "listing its #include files took longer than %.0f s (does it include a device such as /dev/zero?)", BC_TIMEOUT_S);
    if (r.signaled || (r.exit_code != 0 && bc_log_says_exhausted(log_path)))
        return bc_refuse(c, 0, "the preprocessor ran out of memory or died listing its #include files (does it include a device such as /dev/zero, or itself?); its log: %s", log_path);
    return 0;
}

int build_check_source(const char *kit, const char *backend, const char *staged_path,
                       const char *student_name, char *why, size_t why_len)
{
    bc_check *c = calloc(1, sizeof(*c));
    bc_source *s = calloc(1, sizeof(*s));
    int rc = -1;
    if (!c || !s) {
        snprintf(why, why_len, "%s: out of memory checking the file", student_name);
        goto free_all;
    }
    c->kit = kit;
    c->gpu = !strcmp(backend, "gpu");
    c->staged = staged_path;
    c->name = student_name;
    c->why = why;
    c->why_len = why_len;
    if (!realpath(staged_path, c->staged_real))
        rc = bc_refuse(c, 0, "cannot find the staged copy %s (%s)", staged_path, strerror(errno));
    else if (bc_load(c, s) == 0 && bc_scan_directives(c, s) == 0 && bc_scan_assembler(c, s) == 0 && bc_scan_sanitizer_names(c, s) == 0) {
        bc_allow_toolchain(c);
        rc = bc_check_dependencies(c, s);
    }
free_all:
    if (s) {
        free(s->spliced);
        free(s->spliced_line);
        free(s->text);
        free(s->line);
    }
    free(s);
    free(c);
    return rc;
}
