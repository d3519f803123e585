// grader/judge/report_html.h — the report as one self-contained HTML page
// (`make check HTML=1`): the verdict, a table of the cases, the hints, the
// technique, OP/B and score lines, and the pictures (grader/judge/pictures.h)
// embedded as data: URIs. No script and no external resource: a
// Content-Security-Policy in the page forbids both.
#ifndef STENCIL_REPORT_HTML_H
#define STENCIL_REPORT_HTML_H

#include <stdio.h>

#include "judge.h"

// Writes run's report as an HTML page to out.
void report_html(const judge_run *run, FILE *out);

#endif // STENCIL_REPORT_HTML_H
