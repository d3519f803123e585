// grader/class/grade_tables.c — what a class run leaves for people and grade
// books: summary.csv (RFC 4180, formula-safe), results.jsonl (one whole report
// per line) and the table printed at the end (see grade.h).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "grade.h"
#include "judge_files.h"
#include "json_write.h"
#include "kv.h"
#include "protocol.h"
#include "summary_keys.h"

// Writes s to f as a JSON string (json_write.h: escaped, valid UTF-8).
static void grade_json_string(FILE *f, const char *s)
{
    json_write_to(f);
    json_string(s);
}

// 1 if text is a plain decimal number (written bare in the CSV).
static int grade_is_number(const char *text)
{
    char *end = NULL;
    if (!*text)
        return 0;
    strtod(text, &end);
    return *end == '\0' && (text[0] == '-' || text[0] == '.' || (text[0] >= '0' && text[0] <= '9'));
}

// Writes a summary value as its key's type says (summary_keys.h): a number
// bare (null when empty or not a finite number), text as a JSON string.
static void grade_json_value(FILE *f, int type, const char *value)
{
    if (type != SUMMARY_NUMBER) {
        grade_json_string(f, value);
        return;
    }
    char *end = NULL;
    double v = grade_is_number(value) ? strtod(value, &end) : NAN;
    if (isfinite(v))
        fputs(value, f);
    else
        fputs("null", f);
}

// Writes one CSV cell: numbers bare; text quoted (quotes doubled), and a
// leading = + - @ tab or CR neutralised with a ' so no spreadsheet runs it as a formula.
static void grade_csv_cell(FILE *f, const char *text, int first)
{
    if (!first)
        fputc(',', f);
    if (grade_is_number(text)) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    if (strchr("=+-@\t\r", text[0]) && text[0])
        fputc('\'', f);
    char *shown = strdup(text);  // a student's words and file names: no terminal escapes in the table
    if (shown)
        protocol_printable(shown, 1);
    for (const char *p = shown ? shown : text; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
    free(shown);
    fputc('"', f);
}

// The value of key in kv, or "".
static const char *grade_get(const kv_list *kv, const char *key)
{
    const char *v = kv_get(kv, key);
    return v ? v : "";
}

// The envelope columns around the summary keys, in order.
static const char *const grade_front_columns[] = {"id", "submission", NULL};
static const char *const grade_back_columns[] = {"kernel", "wall_s", "seed", NULL};

// Reads the whole file at path (a one-line JSON report) into a new buffer
// without its trailing newline; NULL if absent.
static char *grade_read_line_file(const char *path)
{
    size_t n = 0;
    char *buf = judge_read_file(path, &n);
    if (!buf)
        return NULL;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    if (strchr(buf, '\n') || buf[0] != '{')  // not one JSON object on one line: not embedded
        free(buf), buf = NULL;
    return buf;
}

// Opens path's temporary sibling for writing; fills tmp.
static FILE *grade_open_tmp(const char *path, char *tmp, size_t len)
{
    snprintf(tmp, len, "%s.tmp", path);
    return fopen(tmp, "w");
}

int grade_write_whole(const char *tmp, const char *path, grade_fill *fill, const void *ctx)
{
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fill(f, ctx);
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int why = errno;
        unlink(tmp);
        errno = why;
        return -1;
    }
    return 0;
}

int grade_write_beside(const char *path, grade_fill *fill, const void *ctx, char *err, size_t len)
{
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    if (grade_write_whole(tmp, path, fill, ctx) != 0) {
        snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int grade_load_row(const grade_run *run, const grade_entry *e, kv_list *kv)
{
    static const grade_run *for_run;  // the run graded_max was found for
    static char graded_max[32];       // a graded row's max_score ("" when no row is graded)
    char path[PATH_MAX];
    if (for_run != run) {
        for_run = run;
        graded_max[0] = '\0';
        for (int i = 0; i < run->nentries && !graded_max[0]; i++) {
            kv_list any;
            grade_result_path(run, &run->entries[i], "kv", 0, path, sizeof(path));
            if (kv_load(path, &any) != 0)
                continue;
            const char *status = kv_get(&any, "status"), *max = kv_get(&any, "max_score");
            if (status && !strcmp(status, SUMMARY_GRADED) && max && max[0])
                snprintf(graded_max, sizeof(graded_max), "%s", max);
            kv_free(&any);
        }
    }
    grade_result_path(run, e, "kv", 0, path, sizeof(path));
    if (kv_load(path, kv) != 0)
        return -1;
    const char *status = kv_get(kv, "status");
    if (graded_max[0] && status && strcmp(status, SUMMARY_GRADED) != 0 && kv_add(kv, "max_score", graded_max) != 0) {
        kv_free(kv);
        return -1;
    }
    return 0;
}

int grade_write_tables(const grade_run *run, char *err, size_t len)
{
    char csv_path[PATH_MAX], jsonl_path[PATH_MAX], csv_tmp[PATH_MAX + 8], jsonl_tmp[PATH_MAX + 8], path[PATH_MAX];
    snprintf(csv_path, sizeof(csv_path), "%s/summary.csv", run->out);
    snprintf(jsonl_path, sizeof(jsonl_path), "%s/results.jsonl", run->out);
    FILE *csv = grade_open_tmp(csv_path, csv_tmp, sizeof(csv_tmp));
    FILE *jsonl = grade_open_tmp(jsonl_path, jsonl_tmp, sizeof(jsonl_tmp));
    if (!csv || !jsonl) {
        snprintf(err, len, "cannot write in %s: %s", run->out, strerror(errno));
        if (csv)
            fclose(csv);
        if (jsonl)
            fclose(jsonl);
        return -1;
    }
    // The header: one list of columns (summary_keys.h) between the envelope's.
    int first = 1;
    for (int i = 0; grade_front_columns[i]; i++, first = 0)
        grade_csv_cell(csv, grade_front_columns[i], first);
#define GRADE_HEADER(key, type, what) grade_csv_cell(csv, #key, 0);
    SUMMARY_KEYS(GRADE_HEADER)
#undef GRADE_HEADER
    for (int i = 0; grade_back_columns[i]; i++)
        grade_csv_cell(csv, grade_back_columns[i], 0);
    fputs("\r\n", csv);
    for (int i = 0; i < run->nentries; i++) {
        const grade_entry *e = &run->entries[i];
        kv_list kv;
        if (grade_load_row(run, e, &kv) != 0) {  // no result yet (a stopped run): a row saying so, the next run fills it
            grade_csv_cell(csv, e->id, 1);
            grade_csv_cell(csv, e->name, 0);
#define GRADE_MISSING_CELL(key, type, what) grade_csv_cell(csv, !strcmp(#key, "status") ? "missing" : !strcmp(#key, "message") ? "no result yet: run the same make grade again to finish" : "", 0);
            SUMMARY_KEYS(GRADE_MISSING_CELL)
#undef GRADE_MISSING_CELL
            for (int k = 0; grade_back_columns[k]; k++)
                grade_csv_cell(csv, "", 0);
            fputs("\r\n", csv);
            continue;
        }
        first = 1;
        for (int k = 0; grade_front_columns[k]; k++, first = 0)
            grade_csv_cell(csv, grade_get(&kv, grade_front_columns[k]), first);
#define GRADE_CELL(key, type, what) grade_csv_cell(csv, grade_get(&kv, #key), 0);
        SUMMARY_KEYS(GRADE_CELL)
#undef GRADE_CELL
        for (int k = 0; grade_back_columns[k]; k++)
            grade_csv_cell(csv, grade_get(&kv, grade_back_columns[k]), 0);
        fputs("\r\n", csv);
        // The JSON line: the envelope, the summary, and the judge's whole report.
        fprintf(jsonl, "{\"id\": ");
        grade_json_string(jsonl, e->id);
        fprintf(jsonl, ", \"submission\": ");
        grade_json_string(jsonl, e->name);
        fprintf(jsonl, ", \"summary\": {");
        first = 1;
#define GRADE_JSON_KEY(key, type, what) fprintf(jsonl, "%s\"" #key "\": ", first ? "" : ", "), grade_json_value(jsonl, type, grade_get(&kv, #key)), first = 0;
        SUMMARY_KEYS(GRADE_JSON_KEY)
#undef GRADE_JSON_KEY
        grade_result_path(run, e, "json", 0, path, sizeof(path));
        char *report = grade_read_line_file(path);
        fprintf(jsonl, "}, \"report\": %s}\n", report ? report : "null");
        free(report);
        kv_free(&kv);
    }
    int bad = ferror(csv) || ferror(jsonl);
    bad |= fclose(csv) != 0;
    bad |= fclose(jsonl) != 0;
    if (bad || rename(csv_tmp, csv_path) != 0 || rename(jsonl_tmp, jsonl_path) != 0) {
        snprintf(err, len, "cannot write %s or %s: %s", csv_path, jsonl_path, strerror(errno));
        return -1;
    }
    return 0;
}

int grade_print_table(const grade_run *run)
{
    int ungraded = 0;
    printf("%-28s %-9s %-7s %-9s %-11s %9s  %s\n", "submission", "status", "verdict", "score", "technique", "ms", "first problem");
    for (int i = 0; i < run->nentries; i++) {
        const grade_entry *e = &run->entries[i];
        kv_list kv;
        if (grade_load_row(run, e, &kv) != 0) {
            char name[256];
            printf("%-28.28s %-9s\n", protocol_printable_copy(name, sizeof(name), e->name), "missing");
            ungraded++;
            continue;
        }
        char score[32];
        snprintf(score, sizeof(score), "%s/%s", grade_get(&kv, "score"), grade_get(&kv, "max_score"));
        char name[256], message[256];
        char problem[300];  // the hint first (what to re-teach), then the reason
        const char *hint = grade_get(&kv, "hint");
        snprintf(problem, sizeof(problem), "%s%s%s%s", hint[0] ? "[" : "", hint, hint[0] ? "] " : "", grade_get(&kv, "message"));
        printf("%-28.28s %-9s %-7s %-9s %-11s %9s  %.70s\n", protocol_printable_copy(name, sizeof(name), e->name), grade_get(&kv, "status"),
               grade_get(&kv, "verdict"), score, grade_get(&kv, "technique"), grade_get(&kv, "median_ms"),
               protocol_printable_copy(message, sizeof(message), problem));
        ungraded += strcmp(grade_get(&kv, "status"), SUMMARY_GRADED) != 0;
        kv_free(&kv);
    }
    if (ungraded) {
        printf("\nnot graded (%d): each has a row with score 0 and the reason:\n", ungraded);
        for (int i = 0; i < run->nentries; i++) {
            kv_list kv;
            char name[256], message[1024];
            protocol_printable_copy(name, sizeof(name), run->entries[i].name);
            if (grade_load_row(run, &run->entries[i], &kv) != 0) {
                printf("  %s: no result (the run was stopped before it; run make grade again to finish)\n", name);
                continue;
            }
            if (strcmp(grade_get(&kv, "status"), SUMMARY_GRADED) != 0)
                printf("  %s: %s: %s\n", name, grade_get(&kv, "status"), protocol_printable_copy(message, sizeof(message), grade_get(&kv, "message")));
            kv_free(&kv);
        }
    }
    return ungraded;
}
