// grader/class/grade_dashboard.c — class.html: the class at a glance, one
// self-contained page beside summary.csv (no script, no fetch: inline SVG and
// styles). It reads only the results the class grader keeps (each entry's
// summary, summary_keys.h) and prints every submission's text escaped.
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "html_text.h"
#include "kv.h"
#include "protocol.h"
#include "summary_keys.h"

#define DASH_BINS       10   // the score histogram's bars: tenths of the lab's points
#define DASH_MAX_HINTS  64   // distinct hint keys counted
#define DASH_SPEED_MAX  1.2  // the speed strip's right end, in fractions of the copy limit

// What the page counts over the class.
typedef struct dash_tally {
    int status[4];                   // graded, rejected, error, no result yet
    int bins[DASH_BINS];             // graded rows by score / lab's points
    int technique[3];                // ok, fail, not checked (graded rows)
    char hint[DASH_MAX_HINTS][48];   // hint keys seen
    int hint_count[DASH_MAX_HINTS];  // how many rows got each
    int nhints;
    double speed[GRADE_MAX_ENTRIES]; // each timed row's fraction of the copy limit
    int nspeed;
    char backend[16], device[256];   // from the first row that says
} dash_tally;

// Writes text to f as HTML text (after protocol_printable: no control characters).
static void dash_text(FILE *f, const char *text)
{
    char clean[1024];
    html_text(f, protocol_printable_copy(clean, sizeof(clean), text ? text : ""));
}

// 1 if key is a hint key as the judge writes them (letters, digits, '-'), safe in a URL fragment.
static int dash_is_key(const char *key)
{
    if (!key[0] || strlen(key) >= 48)
        return 0;
    for (const char *p = key; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return 0;
    return 1;
}

// Counts one row's summary into t.
static void dash_count(dash_tally *t, const kv_list *kv, double lab_max)
{
    const char *status = kv_get(kv, "status"), *hint = kv_get(kv, "hint"), *tech = kv_get(kv, "technique");
    const char *speed = kv_get(kv, "bandwidth_fraction"), *backend = kv_get(kv, "backend"), *device = kv_get(kv, "device");
    int graded = status && !strcmp(status, SUMMARY_GRADED);
    t->status[graded ? 0 : status && !strcmp(status, SUMMARY_REJECTED) ? 1 : 2]++;
    if (backend && backend[0] && !t->backend[0])
        snprintf(t->backend, sizeof(t->backend), "%s", backend);
    if (device && device[0] && !t->device[0])
        snprintf(t->device, sizeof(t->device), "%s", device);
    if (hint && dash_is_key(hint)) {
        int h = 0;
        while (h < t->nhints && strcmp(t->hint[h], hint))
            h++;
        if (h == t->nhints && t->nhints < DASH_MAX_HINTS)
            snprintf(t->hint[t->nhints++], sizeof(t->hint[0]), "%s", hint);
        if (h < t->nhints)
            t->hint_count[h]++;
    }
    if (!graded)
        return;
    double score = kv_number(kv, "score", 0), share = lab_max > 0 ? score / lab_max : 0;
    int bin = (int)(share * DASH_BINS);
    t->bins[bin < 0 ? 0 : bin >= DASH_BINS ? DASH_BINS - 1 : bin]++;
    t->technique[tech && !strcmp(tech, "ok") ? 0 : tech && !strcmp(tech, "fail") ? 1 : 2]++;
    if (speed && speed[0] && isfinite(atof(speed)))
        t->speed[t->nspeed++] = atof(speed);
}

// Reads the first line of the file kit/name (its newline dropped) into line; 0, or -1.
static int dash_first_line(const char *kit, const char *name, char *line, size_t len)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof(path), "%s/%s", kit, name);
    FILE *f = fopen(path, "r");
    int ok = f && fgets(line, (int)len, f);
    if (f)
        fclose(f);
    line[ok ? strcspn(line, "\n") : 0] = '\0';
    return ok ? 0 : -1;
}

// The kit's version: the commit its .git names, or "unknown" (no git call: the files are read).
static void dash_kit_version(const char *kit, char *out, size_t len)
{
    char line[256], ref[280];
    snprintf(out, len, "unknown");
    if (dash_first_line(kit, ".git/HEAD", line, sizeof(line)) != 0)
        return;
    if (!strncmp(line, "ref: ", 5)) {
        snprintf(ref, sizeof(ref), ".git/%s", line + 5);
        if (dash_first_line(kit, ref, line, sizeof(line)) != 0)
            return;
    }
    if (strlen(line) >= 12)
        snprintf(out, len, "%.12s", line);
}

// The score histogram as inline SVG.
static void dash_histogram(FILE *f, const dash_tally *t)
{
    int most = 1;
    for (int b = 0; b < DASH_BINS; b++)
        most = t->bins[b] > most ? t->bins[b] : most;
    fprintf(f, "<svg role=\"img\" aria-label=\"score histogram\" width=\"520\" height=\"190\" viewBox=\"0 0 520 190\">\n");
    for (int b = 0; b < DASH_BINS; b++) {
        double h = 140.0 * t->bins[b] / most;
        fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"44\" height=\"%.1f\" fill=\"#3b6ea5\"/>", 20 + 50 * b, 150 - h, h);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%d</text>", 42 + 50 * b, 145 - h, t->bins[b]);
        fprintf(f, "<text x=\"%d\" y=\"168\" font-size=\"11\" text-anchor=\"middle\">%d%%</text>\n", 42 + 50 * b, 10 * b);
    }
    fprintf(f, "<text x=\"260\" y=\"186\" font-size=\"12\" text-anchor=\"middle\">share of the lab's points (graded submissions)</text></svg>\n");
}

// Each timed submission's speed as a dot on a strip of fractions of the copy limit.
static void dash_speed_strip(FILE *f, const dash_tally *t)
{
    if (!t->nspeed) {
        fprintf(f, "<p>No submission was timed (%s): speed is measured on a GPU only.</p>\n",
                t->backend[0] ? t->backend : "no backend");
        return;
    }
    fprintf(f, "<svg role=\"img\" aria-label=\"speed strip\" width=\"520\" height=\"80\" viewBox=\"0 0 520 80\">\n");
    fprintf(f, "<line x1=\"20\" y1=\"40\" x2=\"500\" y2=\"40\" stroke=\"#888\"/>");
    for (int q = 0; q <= 12; q += 2) {
        double x = 20 + 480.0 * (q / 10.0) / DASH_SPEED_MAX;
        fprintf(f, "<text x=\"%.1f\" y=\"72\" font-size=\"11\" text-anchor=\"middle\">%d%%</text>", x, 10 * q);
    }
    double limit = 20 + 480.0 / DASH_SPEED_MAX;
    fprintf(f, "<line x1=\"%.1f\" y1=\"15\" x2=\"%.1f\" y2=\"55\" stroke=\"#b33\" stroke-dasharray=\"3,3\"/>", limit, limit);
    for (int s = 0; s < t->nspeed; s++) {
        double v = t->speed[s] < 0 ? 0 : t->speed[s] > DASH_SPEED_MAX ? DASH_SPEED_MAX : t->speed[s];
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"#3b6ea5\" fill-opacity=\"0.6\"/>", 20 + 480.0 * v / DASH_SPEED_MAX,
                32 + 4 * (s % 5));
    }
    fprintf(f, "\n</svg>\n<p>Each dot a timed submission, as a share of the copy limit measured in its own run (the dashed line: the limit).</p>\n");
}

// Counts the summary of every entry of the class into t (an entry without
// one counts as no result yet).
static void dash_tally_class(dash_tally *t, const grade_run *run)
{
    for (int i = 0; i < run->nentries; i++) {
        kv_list kv;
        if (grade_load_row(run, &run->entries[i], &kv) != 0) {
            t->status[3]++;
            continue;
        }
        dash_count(t, &kv, run->lab_max);
        kv_free(&kv);
    }
}

// The page's head and its first paragraph: the lab, how many submissions in
// each status, the backend, the GPU, the seed and the kit's version.
static void dash_head(FILE *f, const grade_run *run, const dash_tally *t)
{
    char version[32];
    dash_kit_version(run->kit, version, sizeof(version));
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Stencil Labs — ");
    dash_text(f, run->lab_name);
    fprintf(f, ": the class</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:1em auto;color:#222}"
               "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}"
               "th{background:#eee}.fail{color:#a22}.pass{color:#262}</style></head><body>\n");
    fprintf(f, "<h1>");
    dash_text(f, run->lab_name);
    fprintf(f, ": %d submissions</h1>\n<p>", run->nentries);
    fprintf(f, "%d graded, %d rejected, %d could not be graded, %d without a result yet. Backend: ", t->status[0], t->status[1],
            t->status[2], t->status[3]);
    dash_text(f, t->backend[0] ? t->backend : "none");
    fprintf(f, "; GPU: ");
    dash_text(f, t->device[0] ? t->device : "none");
    fprintf(f, "; seed %llu (every submission's); kit %s.</p>\n", (unsigned long long)run->seed, version);
}

// The technique's pass rate over the graded submissions, as one paragraph.
static void dash_technique(FILE *f, const dash_tally *t)
{
    int graded = t->technique[0] + t->technique[1] + t->technique[2];
    fprintf(f, "<h2>Technique</h2>\n<p>%d of %d graded submissions use the lab's idea (%.0f%%); %d do not; %d not checked.</p>\n",
            t->technique[0], graded, graded ? 100.0 * t->technique[0] / graded : 0.0, t->technique[1], t->technique[2]);
}

// The hints as a table, the most common first, each with its handout anchor;
// uses up t's hint counts (each row's is set to -1 once written).
static void dash_hints(FILE *f, const grade_run *run, dash_tally *t)
{
    fprintf(f, "<h2>Mistakes, most common first</h2>\n<table><tr><th>hint</th><th>submissions</th><th>in the handout (make handouts)</th></tr>\n");
    for (int done = 0; done < t->nhints; done++) {  // the most common left, each time
        int best = -1;
        for (int h = 0; h < t->nhints; h++)
            if (t->hint_count[h] >= 0 && (best < 0 || t->hint_count[h] > t->hint_count[best]))
                best = h;
        fprintf(f, "<tr><td>%s</td><td>%d</td><td><code>build/handouts/", t->hint[best], t->hint_count[best]);
        dash_text(f, run->lab_name);
        fprintf(f, ".html#%s</code></td></tr>\n", t->hint[best]);
        t->hint_count[best] = -1;
    }
    if (!t->nhints)
        fprintf(f, "<tr><td colspan=\"3\">no hint: nothing failed with a pattern to name</td></tr>\n");
    fprintf(f, "</table>\n");
}

// One submission's row: its name (linking its own report when there is one),
// status, verdict, score and the summary's last cells.
static void dash_row(FILE *f, const grade_run *run, const grade_entry *e)
{
    static const char *const tail[] = {"technique", "bandwidth_fraction", "hint", "message"};  // the row's last cells
    char path[PATH_MAX + 32];
    kv_list kv;
    int have = grade_load_row(run, e, &kv) == 0;
    grade_result_path(run, e, "html", 0, path, sizeof(path));
    fprintf(f, "<tr><td>");
    if (access(path, R_OK) == 0) {  // the submission's own report; its id is made of safe characters
        fprintf(f, "<a href=\"results/");
        dash_text(f, e->id);
        fprintf(f, ".html\">");
        dash_text(f, e->name);
        fprintf(f, "</a>");
    } else {
        dash_text(f, e->name);
    }
    const char *verdict = have ? kv_get(&kv, "verdict") : NULL;
    fprintf(f, "</td><td>");
    dash_text(f, have ? kv_get(&kv, "status") : "missing");
    fprintf(f, "</td><td class=\"%s\">", verdict && !strcmp(verdict, "pass") ? "pass" : "fail");
    dash_text(f, verdict);
    fprintf(f, "</td><td>");
    dash_text(f, have ? kv_get(&kv, "score") : "");
    fprintf(f, " / ");
    dash_text(f, have ? kv_get(&kv, "max_score") : "");
    for (size_t q = 0; q < sizeof(tail) / sizeof(tail[0]); q++) {
        fprintf(f, "</td><td>");
        dash_text(f, have ? kv_get(&kv, tail[q]) : !strcmp(tail[q], "message") ? "no result yet" : "");
    }
    fprintf(f, "</td></tr>\n");
    if (have)
        kv_free(&kv);
}

// Writes the page's body after the head: scores, speed, technique, hints and
// a row a submission, then the closing tags.
static void dash_body(FILE *f, const grade_run *run, dash_tally *t)
{
    fprintf(f, "<h2>Scores</h2>\n");
    dash_histogram(f, t);
    fprintf(f, "<h2>Speed against the copy limit</h2>\n");
    dash_speed_strip(f, t);
    dash_technique(f, t);
    dash_hints(f, run, t);
    fprintf(f, "<h2>Submissions</h2>\n<table><tr><th>submission</th><th>status</th><th>verdict</th><th>score</th>"
               "<th>technique</th><th>speed</th><th>hint</th><th>first problem</th></tr>\n");
    for (int i = 0; i < run->nentries; i++)
        dash_row(f, run, &run->entries[i]);
    fprintf(f, "</table>\n<p>Each row's report: results/&lt;id&gt;.html; every row in summary.csv and results.jsonl.</p>\n</body></html>\n");
}

// What the page is made of: the class and its tally.
typedef struct dash_page {
    const grade_run *run;        // the class
    dash_tally *t;               // what dash_tally_class counted (dash_body ranks its hints)
} dash_page;

// Fills class.html from the class and its tally.
static void dash_page_write(FILE *f, const void *ctx)
{
    const dash_page *page = ctx;
    dash_head(f, page->run, page->t);
    dash_body(f, page->run, page->t);
}

int grade_write_dashboard(const grade_run *run, char *err, size_t len)
{
    static dash_tally t;
    char path[PATH_MAX + 32];
    memset(&t, 0, sizeof(t));
    dash_tally_class(&t, run);
    dash_page page = {run, &t};
    snprintf(path, sizeof(path), "%s/class.html", run->out);
    return grade_write_beside(path, dash_page_write, &page, err, len);
}
