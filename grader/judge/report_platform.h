// grader/judge/report_platform.h — a judge_run as the results file of an
// autograder platform (grader/platform/ runs the judge there):
//
//   Gradescope:   /autograder/results/results.json, the fields of
//                 https://gradescope-autograders.readthedocs.io/en/latest/specs/
//   PrairieLearn: /grade/results/results.json, the fields of
//                 https://prairielearn.readthedocs.io/en/latest/externalGrading/
//
// Both carry one test per rubric part (lab.conf's `points` lines) and are
// written on every exit path: a submission the kit rejects (does not compile,
// include refused, defines main) scores 0 with the compiler's messages; an
// error of the kit itself is reported as such (PrairieLearn: not gradable).
#ifndef STENCIL_REPORT_PLATFORM_H
#define STENCIL_REPORT_PLATFORM_H

#include <stdio.h>

#include "judge.h"

// Writes run (scored) as a Gradescope autograder results.json to out.
void report_gradescope(const judge_run *run, FILE *out);

// Writes run (scored) as a PrairieLearn external grader results.json to out.
void report_prairielearn(const judge_run *run, FILE *out);

#endif // STENCIL_REPORT_PLATFORM_H
