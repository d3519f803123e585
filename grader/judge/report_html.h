// grader/judge/report_html.h — the report as one self-contained HTML page
// (`make check HTML=1`): the verdict, a table of the cases, the hints, the
// technique, OP/B and score lines, and the pictures (grader/judge/pictures.h)
// embedded as data: URIs. No script and no external resource: a
// Content-Security-Policy in the page forbids both.
#ifndef STENCIL_REPORT_HTML_H
#define STENCIL_REPORT_HTML_H

#include <stdio.h>

#include "judge.h"

// The lab's rendered handout (make handouts) a report's hint keys link to:
// its path relative to the page and its contents (to link only the keys it
// has an anchor for). Both NULL: no links.
typedef struct report_handout {
    const char *href;
    const char *text;
} report_handout;

// Writes run's report as an HTML page to out, its hint keys linked to handout's anchors.
void report_html(const judge_run *run, const report_handout *handout, FILE *out);

#endif // STENCIL_REPORT_HTML_H
