// grader/judge/json_write.c — see json_write.h.
#include "json_write.h"

#include <math.h>

FILE *json_out;  // where the JSON functions write (set by json_write_to)

void json_write_to(FILE *out)
{
    json_out = out;
}

// Length of the valid UTF-8 sequence starting at p, or 0 if it is not one.
static int utf8_length(const unsigned char *p)
{
    int n = *p >= 0xF0 && *p <= 0xF4 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC2 && *p < 0xE0 ? 2 : 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

// Prints s as a JSON string, escaped; bytes that are not UTF-8 (a compiler
// quoting a file in another encoding) become '?', so the report stays valid JSON.
void json_string(const char *s)
{
    fputc('"', json_out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(json_out, "\\%c", *p);
        else if (*p == '\n')
            fprintf(json_out, "\\n");
        else if (*p < 0x20 || *p == 0x7F)
            fprintf(json_out, "\\u%04x", *p);
        else if (*p < 0x80)
            fputc(*p, json_out);
        else {
            int n = utf8_length(p);
            if (n == 0)
                fputc('?', json_out);
            else
                fwrite(p, 1, (size_t)n, json_out), p += n - 1;
        }
    }
    fputc('"', json_out);
}

// Prints a number, or null when it is not finite.
void json_number(double v)
{
    if (isfinite(v))
        fprintf(json_out, "%.6g", v);
    else
        fprintf(json_out, "null");
}

