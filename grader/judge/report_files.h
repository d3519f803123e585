// grader/judge/report_files.h — the report's files: the ones the options
// name (--json-out, --summary-out, --gradescope-out, --prairielearn-out,
// --html-out, written on every exit path) and the status `make status` reads.
#ifndef STENCIL_REPORT_FILES_H
#define STENCIL_REPORT_FILES_H

#include "judge.h"
#include "judge_error.h"
#include "judge_options.h"

// Scores the run as it stands and writes the report files a's options name.
// Returns 0, or -1 with err naming the file that could not be written.
int report_files_write(const judge_args *a, judge_run *run, judge_error *err);

// Writes run's JSON report to build/status/<lab>.json and its summary to
// <lab>.summary, which `make status` reads (a file that cannot be written is
// left out: a check is never failed for it). Returns 0, or -1 with err when
// the folder cannot be made.
int report_files_save_status(const judge_args *a, const judge_run *run, judge_error *err);

#endif // STENCIL_REPORT_FILES_H
