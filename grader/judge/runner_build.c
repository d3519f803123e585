// grader/judge/runner_build.c — building what runs a kernel file through
// grader/build.mk (runner_build.h).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_check.h"
#include "judge_files.h"
#include "protocol.h"
#include "runner_build.h"
#include "lab_kind.h"
#include "spawn.h"

// A 64-bit FNV-1a hash of s, naming a kernel's build folder.
static uint64_t runner_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

// Appended to a kernel file built for the GPU: its tile macros as device
// variables the executor can read (names shared with grader/executor/executor.cu).
#define RUNNER_TILES_TRAILER "\n#ifdef IN_TILE_DIM\n__device__ int stencil_kit_in_tile_dim = (int)(IN_TILE_DIM);\n#endif\n" \
    "#ifdef OUT_TILE_DIM\n__device__ int stencil_kit_out_tile_dim = (int)(OUT_TILE_DIM);\n#endif\n" \
    "#ifdef BLOCK_DIM\n__device__ int stencil_kit_block_dim = (int)(BLOCK_DIM);\n#endif\n"

// The staged copy's text: a #line directive naming src_abs (a C string:
// quotes, backslashes and control characters escaped), the file's len bytes
// of text, and the tiles trailer when asked for. Returns a new buffer (its
// length in *n), or NULL when out of memory.
static char *runner_staged_text(const char *src_abs, const char *text, size_t len, int tiles_trailer, size_t *n_out)
{
    size_t cap = len + strlen(src_abs) * 4 + 64 + sizeof(RUNNER_TILES_TRAILER);
    char *staged = malloc(cap);
    if (!staged)
        return NULL;
    size_t n = (size_t)snprintf(staged, cap, "#line 1 \"");
    for (const char *p = src_abs; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            n += (size_t)snprintf(staged + n, cap - n, "\\%03o", (unsigned char)*p);
            continue;
        }
        if (*p == '"' || *p == '\\')
            staged[n++] = '\\';
        staged[n++] = *p;
    }
    n += (size_t)snprintf(staged + n, cap - n, "\"\n");
    memcpy(staged + n, text, len);
    n += len;
    if (tiles_trailer)  // the declared tile sizes, for the OP/B model: the executor reads them from the device code
        n += (size_t)snprintf(staged + n, cap - n, "%s", RUNNER_TILES_TRAILER);
    *n_out = n;
    return staged;
}

// 1 if copy holds staged, n bytes, already.
static int runner_staged_same(const char *copy, const char *staged, size_t n)
{
    size_t old_len = 0;
    char *old = judge_read_file(copy, &old_len);
    int same = old && old_len == n && memcmp(old, staged, n) == 0;
    free(old);
    return same;
}

// The staged text a source check passed (runner_check_early): the build of
// the same copy with the same text skips the check. One per judge: its own
// kernel file's build.
static struct {
    char copy[PATH_MAX + 16];  // the staged copy's path ("" when none passed)
    char backend[8];           // the backend it was checked for
    char *text;                // its text as checked
    size_t len;
} runner_checked;

// The staged copies this judge rewrote (their text changed: the student's
// file, the solution it is timed against): a program built from a copy's
// older text may carry the same second as its mtime, so runner_unchanged
// takes this judge's word over the times.
#define RUNNER_REWRITTEN_MAX 4
static char runner_rewritten[RUNNER_REWRITTEN_MAX][PATH_MAX + 16];
static int runner_nrewritten;

// 1 if this judge rewrote copy (or more copies than the list holds: any may be one).
static int runner_rewrote(const char *copy)
{
    if (runner_nrewritten > RUNNER_REWRITTEN_MAX)
        return 1;
    for (int i = 0; i < runner_nrewritten; i++)
        if (!strcmp(runner_rewritten[i], copy))
            return 1;
    return 0;
}

// Adds copy to the copies this judge rewrote.
static void runner_note_rewritten(const char *copy)
{
    if (runner_rewrote(copy))
        return;
    if (runner_nrewritten < RUNNER_REWRITTEN_MAX)
        snprintf(runner_rewritten[runner_nrewritten], sizeof(runner_rewritten[0]), "%s", copy);
    runner_nrewritten++;  // (past the list's size: runner_rewrote answers 1 for every copy)
}

// Copies the student's file into the build folder behind a #line directive
// (compiler messages still name the student's file and lines), so the build
// never writes next to it and a lab.h lying beside it is not picked up.
// Rewrites the copy only when it changed, so make can skip rebuilding.
// *checked (when not NULL) is 1 when runner_checked holds this copy's text for
// backend: its includes need no second check. *text_out (when not NULL)
// receives the staged text (its length in *len_out), the caller's to free.
// Returns 0, or -1 with err.
static int runner_stage_kernel(const char *src_abs, const char *copy, const char *backend, int *checked, char **text_out,
                               size_t *len_out, judge_error *err)
{
    size_t len = 0, n = 0;
    struct stat st;
    int rc = 0;
    if (stat(src_abs, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)KERNEL_FILE_MAX_BYTES)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the kernel file %s is %lld bytes: a kernel file is at most %u bytes; submit the kernel's source alone",
                               src_abs, (long long)st.st_size, KERNEL_FILE_MAX_BYTES);
    char *text = judge_read_file(src_abs, &len);
    if (!text)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot read the kernel file %s: %s", src_abs, strerror(errno));
    char *staged = runner_staged_text(src_abs, text, len, !strcmp(backend, "gpu"), &n);
    if (!staged) {
        free(text);
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "out of memory");
    }
    if (!runner_staged_same(copy, staged, n)) {
        FILE *f = fopen(copy, "wb");
        if (!f || fwrite(staged, 1, n, f) != n || fclose(f) != 0)
            rc = judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot write %s: %s", copy, strerror(errno));
        runner_note_rewritten(copy);
    }
    if (checked)
        *checked = rc == 0 && runner_checked.text && runner_checked.len == n && !strcmp(runner_checked.copy, copy) &&
                   !strcmp(runner_checked.backend, backend) && !memcmp(runner_checked.text, staged, n);
    if (text_out && rc == 0)
        *text_out = staged, *len_out = n, staged = NULL;
    free(staged);
    free(text);
    return rc;
}

// path relative to the kit's root when it lies inside it (make runs there):
// the kit's own path, which may hold spaces, never reaches the emulation's
// makefile. (The GPU build still gets absolute paths: a kit path with spaces
// is not supported there yet.)
static const char *runner_in_kit(const judge_args *a, const char *path)
{
    size_t n = strlen(a->kit);
    if (n && !strncmp(path, a->kit, n) && path[n] == '/')
        return path + n + 1;
    return path;
}

// Judges side by side (make grade JOBS=n) may build the same thing (the
// executor, the lab's solution): one at a time per build folder. Takes the
// lock beside log_path; returns its descriptor (close it to let go), or -1.
static int runner_build_lock(const char *log_path)
{
    char lock_path[PATH_MAX + 16];
    snprintf(lock_path, sizeof(lock_path), "%s", log_path);
    char *slash = strrchr(lock_path, '/');
    snprintf(slash ? slash + 1 : lock_path, sizeof(lock_path) - (size_t)(slash ? slash + 1 - lock_path : 0), ".build.lock");
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    while (lock >= 0 && flock(lock, LOCK_EX) != 0 && errno == EINTR)
        spawn_check_stop();
    return lock;
}

// Builds what every student's build of backend links (build.mk's shared-parts:
// the shim, or the emulation's translator and runtime) with the make command
// argv (n words) of a student's build, one judge at a time for the whole kit:
// judges side by side (make grade JOBS=n, the GPU suite) building different
// files must not write these files at once (a half-written runtime library
// fails another's link). Its log goes beside log_path; a failure shows again
// in the student's build, which makes the same files.
static void runner_make_shared(const judge_args *a, const char *backend, char **argv, int n, const char *log_path,
                               const spawn_limits *lim)
{
    char lock_log[PATH_MAX + 64], shared_log[PATH_MAX + 16];
    snprintf(lock_log, sizeof(lock_log), "%s/build/%s/shared.log", a->kit, backend);
    snprintf(shared_log, sizeof(shared_log), "%s.shared", log_path);
    argv[n] = "shared-parts";
    argv[n + 1] = NULL;
    int lock = runner_build_lock(lock_log);
    spawn_run(argv, NULL, shared_log, lim);
    if (lock >= 0)
        close(lock);
    argv[n] = NULL;
}

int runner_make(const judge_args *a, const judge_run *run, const char *backend, const char *const vars[],
                const char *log_path, judge_error *err)
{
    char *argv[23] = {"make", "-s", "--no-print-directory", "-C", (char *)a->kit, "-f", "grader/build.mk"};
    char backend_var[32], arch_var[64], jobs[32];
    int n = 7;
    snprintf(jobs, sizeof(jobs), "-j%d", a->cpus > 1 ? a->cpus : 1);  // the executor's and the shim's sources side by side
    argv[n++] = jobs;
    snprintf(backend_var, sizeof(backend_var), "BACKEND=%s", backend);
    argv[n++] = backend_var;
    const char *arch = a->arch ? a->arch : run->arch;
    if (arch[0]) {
        snprintf(arch_var, sizeof(arch_var), "ARCH=%s", arch);
        argv[n++] = arch_var;
    }
    if (!strcmp(backend, "gpu") && runner_executor_coverage())
        argv[n++] = "EXEC_COVERAGE=1";  // every GPU build names the instrumented executor (runner_executor_path)
    int student_file = 0;
    for (int i = 0; vars[i] && n < 21; i++) {  // two left: shared-parts and the closing NULL
        argv[n++] = (char *)vars[i];
        student_file |= !strncmp(vars[i], "KERNEL=", 7);
    }
    argv[n] = NULL;
    // A student's file gets 5 minutes and 8 GiB of address space (nvcc's cicc needs a few GiB).
    spawn_limits lim = {student_file ? 300.0 : 600.0, 0, student_file ? 8ull << 30 : 0, NULL, 0, 0, SPAWN_NICE_BESIDE, 1, NULL, NULL, NULL};
    if (student_file && n < 21)
        runner_make_shared(a, backend, argv, n, log_path, &lim);
    int lock = runner_build_lock(log_path);
    spawn_result s = spawn_run(argv, NULL, log_path, &lim);
    if (lock >= 0)
        close(lock);
    if (!s.started)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot run make: %s (GNU Make is required)", strerror(errno));
    FILE *log = s.timed_out ? fopen(log_path, "a") : NULL;
    if (log) {  // runner_compile_error shows the lines that say "error"
        fprintf(log, "error: the build took longer than %.0f s and was stopped\n", lim.timeout_s);
        fclose(log);
    }
    return s.exited && s.exit_code == 0;
}

// 1 if the build log f names a main() of the student's file's own (the
// linker's or compiler's word for a second main()).
static int runner_defines_main(FILE *f)
{
    char line[1024];
    int defines_main = 0;
    while (f && fgets(line, sizeof(line), f))
        defines_main |= strstr(line, "multiple definition of `main'") || strstr(line, "redefinition of 'int main") ||
                        strstr(line, "declaration of C function ‘int main") || strstr(line, "redefinition of ‘int main") ||
                        strstr(line, "multiple definition of 'main'");
    if (f)
        rewind(f);
    return defines_main;
}

// Keeps line (the compiler may quote the student's words) as the run's next compiler line.
static void runner_keep_line(judge_run *run, char *line)
{
    line[strcspn(line, "\n")] = '\0';
    protocol_printable(line, 0);
    snprintf(run->compiler[run->ncompiler++], sizeof(run->compiler[0]), "%s", line);
}

// Keeps the first error lines of the build log f in run->compiler (the
// start of the log when no line says "error").
static void runner_keep_errors(judge_run *run, FILE *f)
{
    char line[1024];
    int total = 0;
    while (f && fgets(line, sizeof(line), f))
        if ((strstr(line, "error") || strstr(line, "Error")) && strncmp(line, "make", 4) != 0) {  // (make's own "Error 1" names the kit's files)
            total++;
            if (run->ncompiler < JUDGE_COMPILER_LINES)
                runner_keep_line(run, line);
        }
    if (!total && f) {
        rewind(f);
        while (run->ncompiler < JUDGE_COMPILER_LINES && fgets(line, sizeof(line), f))
            runner_keep_line(run, line);
    }
}

// A failed build of the student's file: keeps the first compiler error lines
// in run (for the JSON report) and prints them unless the report is JSON.
// Returns -1 with err (stage compile, or defines-main).
static int runner_compile_error(const judge_args *a, judge_run *run, const char *log_path, judge_error *err)
{
    const char *kernel = run->kernel;
    FILE *f = fopen(log_path, "r");
    if (runner_defines_main(f)) {
        if (f)
            fclose(f);
        return judge_error_set(err, JUDGE_EXIT_KIT, "defines-main", "%s defines main(): the kit provides the program's main() and calls your host function itself; remove your main (full log: %s)", kernel, log_path);
    }
    runner_keep_errors(run, f);
    if (f)
        fclose(f);
    if (!a->json) {
        char shown[PATH_MAX];
        fprintf(stderr, "stencil-labs: %s does not compile; the compiler's first errors:\n",
                protocol_printable_copy(shown, sizeof(shown), kernel));
        for (int i = 0; i < run->ncompiler; i++)
            fprintf(stderr, "  %s\n", run->compiler[i]);
        fprintf(stderr, "hint: fix the first error first (later ones often follow from it); the file must define the kernel and the host function the lab's skeleton declares, with the same names. Full log: %s\n", log_path);
    }
    return judge_error_set(err, JUDGE_EXIT_KIT, "compile", "compile error in %s (full log: %s)", kernel, log_path);
}

int runner_executor_coverage(void)
{
    const char *on = getenv(RUNNER_EXECUTOR_COVERAGE_ENV);
    return on && *on && strcmp(on, "0") != 0;
}

void runner_executor_path(const judge_args *a, char *path, size_t len)
{
    snprintf(path, len, "%s/build/gpu/%s/executor%s", a->kit, a->arch ? a->arch : "detected",
             runner_executor_coverage() ? "-coverage" : "");
}

// 1 if the build log at log_path places an error in the student's file.
static int runner_error_is_theirs(const judge_run *run, const char *log_path)
{
    char line[1024];
    const char *base = strrchr(run->kernel, '/') ? strrchr(run->kernel, '/') + 1 : run->kernel;
    int theirs = 0;
    FILE *f = fopen(log_path, "r");
    while (f && fgets(line, sizeof(line), f))
        theirs |= (strstr(line, base) || strstr(line, "kernel.cu")) && (strstr(line, "error") || strstr(line, "Error"));
    if (f)
        fclose(f);
    return theirs;
}

// The first error line of the build log at path into first ("" if none).
static void runner_first_error(const char *path, char *first, size_t len)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    first[0] = '\0';
    while (f && fgets(line, sizeof(line), f) && !first[0])
        if ((strstr(line, "error") || strstr(line, "Error")) && strncmp(line, "make", 4) != 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(first, len, "%s", line);
        }
    if (f)
        fclose(f);
}

// A build that failed with no error in the student's own file may be the
// kit's fault (a toolchain the kit does not build with, a kit file broken):
// the smallest file of the lab's kind is built the same way, and when it
// fails too the run ends as a kit-level error (stage kit-build), not as the
// student's compile error. Returns 0 when the failure is the file's, -1 with err.
static int runner_kit_builds(const judge_args *a, judge_run *run, const char *backend, const char *log_path, judge_error *err)
{
    char probe[PATH_MAX + 64], dir[PATH_MAX + 32], runner[PATH_MAX + 32], student[PATH_MAX + 32], first[400], source[512];
    if (runner_error_is_theirs(run, log_path))
        return 0;
    snprintf(dir, sizeof(dir), "%s/build/%s/%s", a->kit, backend, run->lab_name);
    if (judge_mkdirs(dir, err) != 0)
        return snprintf(err->stage, sizeof(err->stage), "compile"), -1;
    snprintf(probe, sizeof(probe), "%s/kit-probe.cu", dir);
    FILE *p = fopen(probe, "w");
    if (!p || !lab_kind_probe(&run->conf, source, sizeof(source))[0] || fputs(source, p) < 0) {
        if (p)
            fclose(p);
        return 0;
    }
    fclose(p);
    char kernel[sizeof(run->kernel)];
    snprintf(kernel, sizeof(kernel), "%s", run->kernel);
    int probe_rc = runner_build(a, run, backend, 0, probe, runner, sizeof(runner), student, sizeof(student), err);
    snprintf(run->kernel, sizeof(run->kernel), "%s", kernel);
    if (probe_rc < 0 && !err->stage[0])
        snprintf(err->stage, sizeof(err->stage), "compile");
    if (probe_rc <= 0)
        return probe_rc;  // the kit builds: the failure is the file's (a macro of its own breaking a kit header, say)
    runner_first_error(runner, first, sizeof(first));  // (the probe's log)
    return judge_error_set(err, JUDGE_EXIT_KIT, "kit-build", "the kit itself does not build here on the %s backend: the smallest kernel file of this lab fails too (%s; full log: %s). This is no fault of %s: check the toolchain (the kit's own make test says more) or tell your instructor",
                           backend, first[0] ? first : "no error line", runner, kernel);
}

// The build folder of kernel_abs for backend: one per file, interface, star
// and update (a lab.conf whose interface, stencil or update changed builds afresh).
static void runner_build_dir(const judge_args *a, const judge_run *run, const char *backend, const char *kernel_abs,
                             char *dir, size_t len)
{
    uint64_t hash = runner_hash(kernel_abs);
    const lab_kind *kind = lab_kind_of(&run->conf);
    if (!kind->is_default)  // a kind not its runner's default: its interface or update
        hash = hash * 1099511628211ull ^ runner_hash(kind->value);
    if (run->conf.star_radius != 1)
        hash = hash * 1099511628211ull ^ runner_hash(run->conf.stencil);
    snprintf(dir, len, "%s/build/%s/%s/k-%016llx", a->kit, backend, run->lab_name, (unsigned long long)hash);
}

// The make variables of one build of the kernel file.
typedef struct runner_vars {
    char kernel[PATH_MAX + 16];     // KERNEL=, the staged copy
    char name[PATH_MAX + 16];       // KERNEL_NAME=, the student's file as compiler messages name it
    char runner[PATH_MAX + 16];     // STUDENT= (GPU) or RUNNER= (emulation): what is built
    char kind[256];                 // KIND= (GPU) or RUNNER_SRC= (emulation): the lab's kind of runner
    char extra[PATH_MAX + 16];      // EXECUTOR= (GPU) or KERNEL_NAME= again (emulation)
    char interface[64];             // INTERFACE=
    char radius[32];                // STAR_RADIUS=
    char update[32];                // UPDATE=
    const char *list[10];           // the above (and LOAD_COUNTS=1 where emulation counts loads), NULL-terminated
} runner_vars;

// Fills v for building the staged copy of kernel_abs in dir (gpu: the
// student's program, else the emulation runner), and the built paths into
// runner and student ("" under emulation).
static void runner_fill_vars(const judge_args *a, const judge_run *run, int gpu, const char *copy, const char *dir,
                             const char *kernel_abs, char *runner, size_t len, char *student, size_t student_len, runner_vars *v)
{
    snprintf(v->kernel, sizeof(v->kernel), "KERNEL=%s", gpu ? copy : runner_in_kit(a, copy));
    snprintf(v->name, sizeof(v->name), "KERNEL_NAME=%s", kernel_abs);
    student[0] = '\0';
    if (gpu) {
        runner_executor_path(a, runner, len);
        snprintf(student, student_len, "%s/student", dir);
        snprintf(v->extra, sizeof(v->extra), "EXECUTOR=%s", runner);
        snprintf(v->runner, sizeof(v->runner), "STUDENT=%s", student);
        snprintf(v->kind, sizeof(v->kind), "KIND=%s", run->conf.runner);
    } else {
        snprintf(runner, len, "%s/runner", dir);
        snprintf(v->extra, sizeof(v->extra), "KERNEL_NAME=%s", kernel_abs);
        snprintf(v->runner, sizeof(v->runner), "RUNNER=%s", runner_in_kit(a, runner));
        snprintf(v->kind, sizeof(v->kind), "RUNNER_SRC=grader/emu/runner_%s.cu", run->conf.runner);
    }
    snprintf(v->interface, sizeof(v->interface), "INTERFACE=%s", run->conf.interface);
    snprintf(v->radius, sizeof(v->radius), "STAR_RADIUS=%d", run->conf.star_radius);
    snprintf(v->update, sizeof(v->update), "UPDATE=%s", run->conf.update);
    // Emulation counts the kernels' loads where the technique has load floors (it costs time).
    const char *loads = !gpu && technique_counts_loads(run->conf.technique) ? "LOAD_COUNTS=1" : NULL;
    const char *list[] = {v->kernel, v->name, v->runner, v->kind, v->extra, v->interface, v->radius, v->update, loads, NULL};
    memcpy(v->list, list, sizeof(list));
}

int runner_build(const judge_args *a, judge_run *run, const char *backend, int fatal, const char *kernel_abs,
                 char *runner, size_t len, char *student, size_t student_len, judge_error *err)
{
    char dir[PATH_MAX], copy[PATH_MAX + 16], log_path[PATH_MAX + 16], why[1024];
    runner_vars vars;
    int gpu = !strcmp(backend, "gpu");
    runner_build_dir(a, run, backend, kernel_abs, dir, sizeof(dir));
    if (judge_mkdirs(dir, err) != 0)
        return -1;
    snprintf(copy, sizeof(copy), "%s/kernel.cu", dir);
    int checked = 0;
    if (runner_stage_kernel(kernel_abs, copy, backend, &checked, NULL, NULL, err) != 0)
        return -1;
    if (!checked && build_check_source(a->kit, backend, copy, run->kernel, why, sizeof(why)) != 0) {
        if (!fatal)
            return snprintf(runner, len, "%s", why), 1;
        return judge_error_set(err, JUDGE_EXIT_KIT, "include", "%s", why);  // why ends with what a kernel file may include
    }
    snprintf(log_path, sizeof(log_path), "%s/build.log", dir);
    runner_fill_vars(a, run, gpu, copy, dir, kernel_abs, runner, len, student, student_len, &vars);
    const char *program = gpu ? student : runner;
    if (access(program, F_OK) == 0 && access(program, X_OK) != 0)
        unlink(program);  // half-written by an older kit's stopped link: make would take it as made
    int built = runner_make(a, run, backend, vars.list, log_path, err);
    if (built < 0)
        return snprintf(err->stage, sizeof(err->stage), "compile"), -1;
    if (built)
        return 0;
    if (!fatal)
        return snprintf(runner, len, "%s", log_path), 1;
    if (runner_kit_builds(a, run, backend, log_path, err) != 0)
        return -1;
    return runner_compile_error(a, run, log_path, err);
}

void runner_check_early(const judge_args *a, const judge_run *run, const char *backend, const char *kernel_abs)
{
    char dir[PATH_MAX], copy[PATH_MAX + 16], why[1024], *text = NULL;
    judge_error ignored = {0};
    size_t n = 0;
    runner_build_dir(a, run, backend, kernel_abs, dir, sizeof(dir));
    snprintf(copy, sizeof(copy), "%s/kernel.cu", dir);
    if (judge_mkdirs(dir, &ignored) != 0 || runner_stage_kernel(kernel_abs, copy, backend, NULL, &text, &n, &ignored) != 0 ||
        build_check_source(a->kit, backend, copy, run->kernel, why, sizeof(why)) != 0) {
        free(text);
        return;  // runner_build checks again, and says what is wrong
    }
    free(runner_checked.text);
    runner_checked.text = text, runner_checked.len = n;
    snprintf(runner_checked.copy, sizeof(runner_checked.copy), "%s", copy);
    snprintf(runner_checked.backend, sizeof(runner_checked.backend), "%s", backend);
}

int runner_unchanged(const judge_args *a, const judge_run *run, const char *backend, const char *kernel_abs)
{
    char dir[PATH_MAX], copy[PATH_MAX + 16], built[PATH_MAX + 16];
    size_t len = 0, n = 0;
    struct stat copy_st, built_st;
    int gpu = !strcmp(backend, "gpu"), same = 0;
    runner_build_dir(a, run, backend, kernel_abs, dir, sizeof(dir));
    snprintf(copy, sizeof(copy), "%s/kernel.cu", dir);
    snprintf(built, sizeof(built), "%s/%s", dir, gpu ? "student" : "runner");
    // (a program that is not executable is no program built: the build writes it whole under another
    // name and renames it, build.mk and emu.mk, but an older kit's interrupted link left one half-written)
    // (a copy this judge rewrote is newer than any program built before, whatever the clock's grain:
    // runner_check_early stages it before the build)
    if (runner_rewrote(copy) || stat(copy, &copy_st) != 0 || stat(built, &built_st) != 0 ||
        built_st.st_mtime < copy_st.st_mtime || access(built, X_OK) != 0)
        return 0;
    char *text = judge_read_file(kernel_abs, &len);
    char *staged = text ? runner_staged_text(kernel_abs, text, len, gpu, &n) : NULL;
    same = staged && runner_staged_same(copy, staged, n);
    free(staged);
    free(text);
    return same;
}
