// grader/judge/tool_cache.h — the clean outcomes of a case's runs under a
// tool (Nsight Compute's load count, compute-sanitizer's racecheck, the
// emulator's strict barriers) remembered for the same built programs: a check
// of an unchanged file runs none of them again. Only a run the case passed is
// remembered; a failure, a timeout or a profiler's own trouble is run afresh
// every time. The files live beside the student's build (the kit's build/
// folder, which the student's confined program cannot write).
#ifndef STENCIL_TOOL_CACHE_H
#define STENCIL_TOOL_CACHE_H

#include <stddef.h>

#include "judge.h"
#include "kv.h"

// Fills path with the file that remembers tool's run of case spec (with the
// lab conf's tolerances and kind) by the programs named (paths, NULL-ended;
// their bytes are the key, so a rebuilt program misses), under folder dir.
// Returns 0, or -1 if a program cannot be read (then nothing is remembered).
int tool_cache_path(const char *dir, const char *tool, const lab_conf *conf, const lab_case *spec,
                    const char *const programs[], char *path, size_t len);

// 1 if path remembers a clean outcome: r is then the case passed (its load
// counts when the tool counted them) and report the run's report (kv_free
// it); 0 if nothing is remembered there (r and report untouched).
int tool_cache_load(const char *path, case_result *r, kv_list *report);

// Remembers r's outcome with its report at path if r passed (written whole,
// then renamed into place: a judge beside reads all of it or nothing).
// Returns 1 if remembered, 0 if r did not pass, -1 if it could not be written.
int tool_cache_save(const char *path, const case_result *r, const kv_list *report);

#endif // STENCIL_TOOL_CACHE_H
