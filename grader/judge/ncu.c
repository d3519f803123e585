// grader/judge/ncu.c — see ncu.h.
#include "ncu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The value of a CSV line's last quoted field, digits and '.' only (ncu writes 1,020,160).
static double ncu_last_field(const char *line)
{
    const char *end = strrchr(line, '"');
    const char *start = end;
    char digits[64];
    int n = 0;
    if (!end)
        return 0;
    while (start > line && start[-1] != '"')
        start--;
    for (const char *q = start; q < end && n < 63; q++)
        if ((*q >= '0' && *q <= '9') || *q == '.')
            digits[n++] = *q;
    digits[n] = '\0';
    return strtod(digits, NULL);
}

double ncu_metric_sum(const char *path, const char *metric)
{
    char line[4096], quoted[160];
    double total = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    snprintf(quoted, sizeof(quoted), "\"%s\"", metric);
    while (fgets(line, sizeof(line), f))
        if (strstr(line, quoted))
            total += ncu_last_field(line);
    fclose(f);
    return total;
}
