// grader/judge/sanitizer_log.h — what compute-sanitizer's log says, in one
// line for the report: memcheck's first error (SANITIZE=1) and racecheck's
// first hazard (the sync case on a GPU).
#ifndef STENCIL_SANITIZER_LOG_H
#define STENCIL_SANITIZER_LOG_H

#include <stddef.h>

// Replaces detail with memcheck's first error in the log at log_path: the
// access, where in the source, and which thread. Leaves detail as it is when
// the log holds no such report.
void sanitizer_memcheck_summary(const char *log_path, char *detail, size_t len);

// Writes racecheck's first hazard in the log at log_path into where (the
// hazard, the block, each access with its thread and source line). Returns
// 1 if there is one, 0 if not.
int sanitizer_racecheck_summary(const char *log_path, char *where, size_t len);

// 1 once the log at log_path holds racecheck's first hazard whole: its line
// and both accesses' lines, each ended. Nothing racecheck says after it
// changes the verdict (a race), while on a kernel with many hazards the tool
// goes on for tens of seconds holding the GPU (measured on an H200: a lab-4
// kernel missing a barrier, its first hazard whole 2.1 s after the start,
// the tool ending at 25.9 s): the judge ends the run there (spawn_limits's
// settled).
int sanitizer_racecheck_whole(const char *log_path);

#endif // STENCIL_SANITIZER_LOG_H
