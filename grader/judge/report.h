// grader/judge/report.h — the report of one grading run (report.c): the text
// a student reads, the JSON and the summary lines tools read, and the score
// they carry. judge.h holds the run they print.
#ifndef STENCIL_REPORT_H
#define STENCIL_REPORT_H

#include <stdio.h>

#include "judge.h"

// 1 if a kit-level exit at stage is the submission's own fault (it is then
// "rejected" rather than an error of the kit).
int judge_stage_rejects(const char *stage);

// Prints the report as text (for people) on stdout.
void report_text(const judge_run *run);

// Writes the report as one JSON object to out.
void report_json(const judge_run *run, FILE *out);

// Writes the one-line summary (grader/protocol/summary_keys.h) as key=value lines to out.
void report_summary(const judge_run *run, FILE *out);

// Fills run->score from its cases and technique line (or, on a kit-level
// exit, as nothing earned).
void report_score(judge_run *run);

// What the verdict line says of the technique: "technique check failed",
// "technique not judged" (no case with interior points passed, so there was
// nothing to judge it on), or "" when it did not fail. One text for the
// terminal, the HTML page and the autograder platforms.
const char *report_technique_words(const judge_run *run);

#endif // STENCIL_REPORT_H
