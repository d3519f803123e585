// grader/judge/build_check.h — refuses a student's kernel file that would read
// any file other than the kit's headers and the toolchain's while it compiles
// (a classmate's submission, /etc/..., /dev/zero), before the compiler runs it.
#ifndef STENCIL_BUILD_CHECK_H
#define STENCIL_BUILD_CHECK_H

#include <stddef.h>

// Checks the staged copy of a student's kernel file before it is compiled. backend is "gpu" or "emu".
// Returns 0 if it may be compiled, or -1 with a one-line reason in why (naming the offending include
// or construct and the line, and saying what is allowed).
int build_check_source(const char *kit, const char *backend, const char *staged_path,
                       const char *student_name, char *why, size_t why_len);

#endif // STENCIL_BUILD_CHECK_H
