// grader/judge/html_text.h — text written into an HTML page, escaped: the
// student's report (report_html.c) and the class page (grader/class/) share it.
#ifndef STENCIL_HTML_TEXT_H
#define STENCIL_HTML_TEXT_H

#include <stdio.h>

// Writes s (NULL: nothing) to out with the characters HTML gives a meaning
// (< > & " ') escaped, so it is shown as text in an element or an attribute.
void html_text(FILE *out, const char *s);

#endif // STENCIL_HTML_TEXT_H
