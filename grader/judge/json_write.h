// grader/judge/json_write.h — the JSON value writers every JSON file of the
// kit uses (report.c, report_platform.c, the class grader's results.jsonl):
// strings escaped and kept valid UTF-8, numbers that are never NaN or infinite.
#ifndef STENCIL_JSON_WRITE_H
#define STENCIL_JSON_WRITE_H

#include <stdio.h>

extern FILE *json_out;  // where they write now

// Directs json_string and json_number to out until the next call (report_json
// does this for its own file).
void json_write_to(FILE *out);

// Prints s as a JSON string, escaped; NULL prints "", bytes that are not UTF-8 print '?'.
void json_string(const char *s);

// Prints a number, or null when it is not finite.
void json_number(double v);

#endif // STENCIL_JSON_WRITE_H
