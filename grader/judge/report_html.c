// grader/judge/report_html.c — see report_html.h.
#include "html_text.h"
#include "report_html.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "hints.h"
#include "pictures.h"

// The page's style, inline (the policy allows no other).
#define HTML_STYLE \
    "body{font-family:sans-serif;margin:2em auto;max-width:70em;color:#222;line-height:1.4}" \
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ddd}" \
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;vertical-align:top;text-align:left}" \
    "th{background:#f4f4f4}.ok{color:#1a7f37;font-weight:bold}.fail{color:#b42318;font-weight:bold}.skip{color:#777}" \
    ".verdict{font-size:1.2em;padding:.5em .8em;border-radius:4px}.pass-bg{background:#e6f4ea}.fail-bg{background:#fdecea}" \
    ".banner{background:#fff4e5;padding:.4em .8em;border-left:4px solid #f0a020}" \
    "code,.mono{font-family:monospace;font-size:.95em}figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}" \
    "figcaption{color:#444;font-size:.95em}td.time{white-space:nowrap}"


// Writes the file at path as a base64 data: URI of type mime; returns 0, or -1 if unreadable.
static int html_data_uri(FILE *out, const char *path, const char *mime)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *f = fopen(path, "rb");
    unsigned char in[3];
    size_t n;
    if (!f)
        return -1;
    fprintf(out, "data:%s;base64,", mime);
    while ((n = fread(in, 1, 3, f)) > 0) {
        unsigned v = (unsigned)in[0] << 16 | (n > 1 ? (unsigned)in[1] << 8 : 0) | (n > 2 ? in[2] : 0);
        fputc(digits[v >> 18 & 63], out);
        fputc(digits[v >> 12 & 63], out);
        fputc(n > 1 ? digits[v >> 6 & 63] : '=', out);
        fputc(n > 2 ? digits[v & 63] : '=', out);
    }
    fclose(f);
    return 0;
}

// One table row of a case.
static void html_case_row(FILE *out, const judge_run *run, const case_result *c)
{
    static const char *classes[] = {"ok", "fail", "skip"};
    const char *word = c->status == CASE_OK ? "OK" : c->status == CASE_SKIPPED ? "skipped" : !strcmp(c->kind, "timeout") ? "TIMEOUT" : "FAIL";
    fprintf(out, "<tr><td class=\"mono\">");
    html_text(out, c->name);
    fprintf(out, "</td><td class=\"%s\">%s</td><td class=\"time\">", classes[c->status], word);
    if (c->status == CASE_OK && c->timed)
        fprintf(out, "%.3f ms median of %d; %.1f GPoints/s, %.0f GB/s = %.0f%% of the %.0f GB/s measured", c->time_ms,
                c->time_reps, c->gpoints, c->gbs, c->bandwidth_gbs > 0 ? 100.0 * c->gbs / c->bandwidth_gbs : 0.0, c->bandwidth_gbs);
    else if (c->status == CASE_OK && c->launch_ms >= 0)
        fprintf(out, "%.3f ms", c->launch_ms);
    else if (c->status == CASE_OK)
        fprintf(out, "%.2f s emulated", c->wall_s);
    fprintf(out, "</td><td>");
    if (c->status != CASE_OK)
        html_text(out, c->reason);
    if (c->status == CASE_FAIL && c->detail[0]) {
        fprintf(out, "<br>");
        html_text(out, c->detail);
    }
    if (c->status == CASE_FAIL && c->hint_key) {
        fprintf(out, "<br>hint <code>[");
        html_text(out, c->hint_key);
        fprintf(out, "]</code>");
    }
    if (c->status == CASE_FAIL)
        fprintf(out, "<br><span class=\"mono\">make check LAB=%d SEED=%llu CASE=%s</span>", run->lab_number,
                (unsigned long long)run->seed, c->name[0] == 'N' ? c->name + 2 : c->name);
    if (c->note[0]) {
        fprintf(out, "<br><span class=\"skip\">");
        html_text(out, c->note);
        fprintf(out, "</span>");
    }
    fprintf(out, "</td></tr>\n");
}

// The hints of the run, each once with its cases, its advice and the handout
// (each key a link to its anchor in the rendered handout, when there is one).
static void html_hints(FILE *out, const judge_run *run, const report_handout *handout)
{
    char where[300];
    int any = 0;
    for (const hint_entry *h = hint_all(); h->key; h++) {
        const case_result *first = NULL;
        for (int i = 0; i < run->ncases; i++) {
            const case_result *c = &run->cases[i];
            if (c->status != CASE_FAIL || !c->hint_key || strcmp(c->hint_key, h->key))
                continue;
            if (!first) {
                char id[96];
                snprintf(id, sizeof(id), "id=\"%s\"", h->key);
                int link = handout && handout->href && handout->text && strstr(handout->text, id);
                fprintf(out, "%s<li>", any ? "" : "<h2>Hints</h2>\n<ul>\n");
                if (link) {
                    fprintf(out, "<a href=\"");
                    html_text(out, handout->href);
                    fprintf(out, "#");
                    html_text(out, h->key);
                    fprintf(out, "\">");
                }
                fprintf(out, "<code>[");
                html_text(out, h->key);
                fprintf(out, "]</code>%s ", link ? "</a>" : "");
                html_text(out, h->title);
                fprintf(out, " — cases:");
                first = c;
                any = 1;
            }
            fprintf(out, " ");
            html_text(out, c->name);
        }
        if (first) {
            fprintf(out, "<br>");
            html_text(out, first->hint);
            fprintf(out, "</li>\n");
        }
    }
    if (any) {
        fprintf(out, "</ul>\n<p>What to do: ");
        html_text(out, hint_handout(run->lab_name, where, sizeof(where)));
        fprintf(out, "</p>\n");
    }
}

// The pictures: each PNG embedded, with its note; the notes of those not drawn.
static void html_pictures(FILE *out)
{
    const picture_result *r = pictures_results();
    int any = pictures_gnuplot_missing();
    for (int p = 0; p < PICTURE_COUNT; p++)
        any |= r[p].note[0] != '\0';
    if (!any)  // pictures were not asked for (the judge without --pictures)
        return;
    fprintf(out, "<h2>Pictures</h2>\n");
    if (pictures_gnuplot_missing())
        fprintf(out, "<p>gnuplot is not installed; install gnuplot to get them.</p>\n");
    for (int p = 0; p < PICTURE_COUNT; p++) {
        if (!r[p].note[0])
            continue;
        const char *png = r[p].path[PICTURE_FORMAT_png];
        if (png[0]) {
            fprintf(out, "<figure><img alt=\"");
            html_text(out, r[p].name);
            fprintf(out, "\" src=\"");
            if (html_data_uri(out, png, "image/png") != 0)
                fprintf(out, "data:,");
            fprintf(out, "\"><figcaption><b>");
            html_text(out, r[p].name);
            fprintf(out, "</b>: ");
            html_text(out, r[p].note);
            fprintf(out, " <span class=\"mono\">(");
            html_text(out, r[p].path[PICTURE_FORMAT_svg]);
            fprintf(out, ")</span></figcaption></figure>\n");
        } else {
            fprintf(out, "<p><b>");
            html_text(out, r[p].name);
            fprintf(out, "</b>: ");
            html_text(out, r[p].note);
            fprintf(out, "</p>\n");
        }
    }
}

// Technique, OP/B and score.
static void html_summary(FILE *out, const judge_run *run)
{
    fprintf(out, "<h2>Technique, OP/B, score</h2>\n<p>technique: <span class=\"%s\">%s</span> — ",
            run->technique.status == TECHNIQUE_FAIL ? "fail" : run->technique.status == TECHNIQUE_OK ? "ok" : "skip",
            run->technique.status == TECHNIQUE_OK ? "OK" : run->technique.status == TECHNIQUE_FAIL ? "FAIL" : "not checked");
    html_text(out, run->technique.detail);
    if (run->technique_case[0]) {
        fprintf(out, " (judged on ");
        html_text(out, run->technique_case);
        fprintf(out, ")");
    }
    fprintf(out, "</p>\n");
    if (run->opb_valid) {
        fprintf(out, "<p>OP/B (book's model): ");
        html_text(out, run->opb.formula);
        fprintf(out, "</p>\n");
    }
    fprintf(out, "<table><tr><th>part</th><th>points</th><th>of</th><th>how</th></tr>\n");
    for (int i = 0; i < run->score.nitems; i++) {
        const score_item *it = &run->score.items[i];
        fprintf(out, "<tr><td>");
        html_text(out, it->name);
        fprintf(out, "</td><td>%.4g</td><td>%.4g</td><td>", it->points, it->max);
        html_text(out, it->detail);
        fprintf(out, "%s</td></tr>\n", it->measured ? "" : " (not counted)");
    }
    fprintf(out, "<tr><th>score</th><th>%.4g</th><th>%.4g</th><th>%s</th></tr>\n</table>\n", run->score.points,
            run->score.max, run->score.max < run->score.lab_max ? "the rubric's whole, less what this backend cannot measure" : "");
}

void report_html(const judge_run *run, const report_handout *handout, FILE *out)
{
    int graded = run->exit_code == JUDGE_EXIT_PASS || run->exit_code == JUDGE_EXIT_FAIL;
    int passed = run->exit_code == JUDGE_EXIT_PASS;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
                 "<title>Stencil Labs — lab %d report</title>\n<style>%s</style></head><body>\n", run->lab_number, HTML_STYLE);
    fprintf(out, "<h1>Stencil Labs — lab %d: ", run->lab_number);
    html_text(out, run->conf.title);
    fprintf(out, " (");
    html_text(out, run->conf.chapter);
    fprintf(out, ")</h1>\n");
    if (!strcmp(run->backend, "emu")) {
        fprintf(out, "<p class=\"banner\">CPU emulation: correctness only, no timing");
        if (run->fallback[0]) {
            fprintf(out, " — no usable GPU: ");
            html_text(out, run->fallback);
        }
        fprintf(out, "</p>\n");
    }
    fprintf(out, "<p class=\"verdict %s\">verdict: <b>%s</b>", passed ? "pass-bg" : "fail-bg", passed ? "PASS" : graded ? "FAIL" : "ERROR");
    if (graded)
        fprintf(out, " — %d of %d cases passed%s%s%s", run->passed, run->passed + run->failed, run->skipped ? ", some skipped" : "",
                *report_technique_words(run) ? "; " : "", report_technique_words(run));
    else {
        fprintf(out, " — ");
        html_text(out, run->message);
    }
    fprintf(out, "</p>\n<table><tr><th>kernel</th><td class=\"mono\">");
    html_text(out, run->kernel);
    fprintf(out, "</td></tr><tr><th>%s</th><td>", strcmp(run->backend, "gpu") ? "backend" : "device");
    if (!strcmp(run->backend, "gpu")) {
        html_text(out, run->device);
        fprintf(out, " (");
        html_text(out, run->device_info);
        fprintf(out, ")");
    } else {
        fprintf(out, "CPU emulation (threads run as fibers; two thread orders per case)");
    }
    fprintf(out, "</td></tr><tr><th>seed</th><td>%llu (replay this run with <code>SEED=%llu</code>)</td></tr></table>\n",
            (unsigned long long)run->seed, (unsigned long long)run->seed);
    if (run->ncompiler) {
        fprintf(out, "<h2>Compiler messages</h2>\n<pre>");
        for (int i = 0; i < run->ncompiler; i++) {
            html_text(out, run->compiler[i]);
            fprintf(out, "\n");
        }
        fprintf(out, "</pre>\n");
    }
    if (run->ncases) {
        fprintf(out, "<h2>Cases</h2>\n<table><tr><th>case</th><th>result</th><th>time</th><th>what went wrong</th></tr>\n");
        for (int i = 0; i < run->ncases; i++)
            html_case_row(out, run, &run->cases[i]);
        fprintf(out, "</table>\n");
    }
    html_hints(out, run, handout);
    if (graded)
        html_summary(out, run);
    html_pictures(out);
    fprintf(out, "</body></html>\n");
}
