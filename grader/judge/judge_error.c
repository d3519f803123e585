// grader/judge/judge_error.c — filling a kit-level error (judge_error.h).
#include <stdarg.h>
#include <stdio.h>

#include "judge_error.h"

int judge_error_set(judge_error *err, int code, const char *stage, const char *fmt, ...)
{
    va_list ap;
    err->code = code;
    snprintf(err->stage, sizeof(err->stage), "%s", stage ? stage : "");
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return -1;
}
