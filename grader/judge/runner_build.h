// grader/judge/runner_build.h — building what runs a kernel file, through
// grader/build.mk: the student's file copied into a build folder of its own
// (behind a #line directive), its includes checked, then the student's
// program (GPU) or the emulation runner built; the trusted executor; and, when
// a build fails with no error in the student's file, the smallest file of the
// lab's kind, to tell the kit's fault from the student's.
#ifndef STENCIL_RUNNER_BUILD_H
#define STENCIL_RUNNER_BUILD_H

#include <stddef.h>

#include "judge.h"
#include "judge_error.h"
#include "judge_options.h"

// Builds what runs kernel_abs for backend ("gpu" or "emu"): on the GPU the
// student's program (the file alone, linked with the kit's CUDA runtime shim;
// the executor is the runner), under emulation the runner with the file
// included; the paths go to runner and student ("" under emulation). Returns
// 0; when fatal is 0, 1 for a file that does not build (runner then holds why,
// or the build log's path); -1 with err (a compile error when fatal, its
// first lines kept in run->compiler and printed unless the report is JSON).
// 1 if kernel_abs is as its last build for backend staged it, and what that
// build made is there (the build would change nothing); 0 otherwise.
int runner_unchanged(const judge_args *a, const judge_run *run, const char *backend, const char *kernel_abs);

int runner_build(const judge_args *a, judge_run *run, const char *backend, int fatal, const char *kernel_abs,
                 char *runner, size_t len, char *student, size_t student_len, judge_error *err);

// Stages kernel_abs for backend and checks what it includes (runner_build's
// first step), so the check can run while the judge waits on something else
// (the GPU's probe making its context): runner_build then skips the check when
// the staged text is still the one that passed. A file the check refuses is
// left for runner_build to refuse again, in its own words.
void runner_check_early(const judge_args *a, const judge_run *run, const char *backend, const char *kernel_abs);

// Runs `make -f grader/build.mk` with BACKEND=backend, the run's architecture
// and vars (NULL-terminated); the log goes to log_path. Returns 1 if the build
// succeeded, 0 if not, -1 with err when make cannot be run.
int runner_make(const judge_args *a, const judge_run *run, const char *backend, const char *const vars[],
                const char *log_path, judge_error *err);

// The environment variable that points the judge at the executor built with
// gcov's line counts (tests/device_coverage.sh): set and not "0", the executor
// is build/gpu/<arch>/executor-coverage, built with EXEC_COVERAGE=1; the plain
// one beside it is left as it is.
#define RUNNER_EXECUTOR_COVERAGE_ENV "STENCIL_EXECUTOR_COVERAGE"

// 1 when RUNNER_EXECUTOR_COVERAGE_ENV asks for the instrumented executor, else 0.
int runner_executor_coverage(void);

// The trusted executor's path for this run (one per architecture asked for).
void runner_executor_path(const judge_args *a, char *path, size_t len);

#endif // STENCIL_RUNNER_BUILD_H
