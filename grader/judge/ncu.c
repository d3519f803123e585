// grader/judge/ncu.c — see ncu.h.
#include "ncu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCU_MAX_FIELDS 32

// Splits a CSV line of quoted fields in place ("a","b,c","1,024"); returns
// the number of fields, or 0 if the line is not such a line.
static int ncu_fields(char *line, char **field)
{
    int n = 0;
    char *p = line;
    while (*p == '"' && n < NCU_MAX_FIELDS) {
        char *start = ++p, *end = strchr(p, '"');
        if (!end)
            return 0;
        *end = '\0';
        field[n++] = start;
        p = end + 1;
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

// The number in a value field: digits and '.' only (ncu writes 1,020,160).
static double ncu_number(const char *text)
{
    char digits[64];
    int n = 0;
    for (const char *q = text; *q && n < 63; q++)
        if ((*q >= '0' && *q <= '9') || *q == '.')
            digits[n++] = *q;
    digits[n] = '\0';
    return strtod(digits, NULL);
}

// The sum of metric over the student's kernels' rows (kit 0) or the kit's
// own (kit 1); *rows, when not NULL, the number of rows summed.
static double ncu_walk(const char *path, const char *metric, int kit, int *rows)
{
    char line[8192], *field[NCU_MAX_FIELDS];
    int kernel_col = -1, name_col = -1, value_col = -1, count = 0;
    double total = 0;
    FILE *f = fopen(path, "r");
    if (rows)
        *rows = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        int n = ncu_fields(line, field);
        if (n == 0)
            continue;
        if (name_col < 0) {  // the header names the columns
            for (int i = 0; i < n; i++) {
                if (!strcmp(field[i], "Kernel Name"))
                    kernel_col = i;
                else if (!strcmp(field[i], "Metric Name"))
                    name_col = i;
                else if (!strcmp(field[i], "Metric Value"))
                    value_col = i;
            }
            if (kernel_col < 0 || value_col < 0)
                name_col = -1;
            continue;
        }
        if (n <= name_col || n <= value_col || n <= kernel_col || strcmp(field[name_col], metric) != 0)
            continue;
        if ((strncmp(field[kernel_col], PROTOCOL_KIT_KERNEL_PREFIX, strlen(PROTOCOL_KIT_KERNEL_PREFIX)) == 0) != kit)
            continue;
        if (!strpbrk(field[value_col], "0123456789"))
            continue;  // "n/a": the metric could not be collected for this kernel
        total += ncu_number(field[value_col]);
        count++;
    }
    fclose(f);
    if (rows)
        *rows = count;
    return total;
}

double ncu_metric_sum_rows(const char *path, const char *metric, int *rows)
{
    return ncu_walk(path, metric, 0, rows);
}

double ncu_metric_sum(const char *path, const char *metric)
{
    return ncu_walk(path, metric, 0, NULL);
}

int ncu_metric_kit_rows(const char *path, const char *metric)
{
    int rows = 0;
    ncu_walk(path, metric, 1, &rows);
    return rows;
}
