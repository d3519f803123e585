// grader/judge/report_platform.c — see report_platform.h. The texts a student
// reads on the platform (the overview, each rubric part's output) are written
// once here and placed in each platform's own fields.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "report.h"
#include "report_platform.h"
#include "summary_keys.h"

// ---------------------------------------------------------------------------
// The texts
// ---------------------------------------------------------------------------

// A text writer: prints something about run (and arg) to out.
typedef void (*platform_text_fn)(const judge_run *run, const void *arg, FILE *out);

// 1 if the run was graded (every case ran or was skipped), 0 if it stopped at a kit-level exit.
static int platform_graded(const judge_run *run)
{
    return run->exit_code == JUDGE_EXIT_PASS || run->exit_code == JUDGE_EXIT_FAIL;
}

// The run's status word, as the JSON report and the summary give it: graded,
// rejected (the submission's fault) or error (the kit's).
static const char *platform_status(const judge_run *run)
{
    if (platform_graded(run))
        return SUMMARY_GRADED;
    return judge_stage_rejects(run->stage) ? SUMMARY_REJECTED : SUMMARY_ERROR;
}

// The lab's title line (or what is known of it when lab.conf was not read).
static void platform_title(const judge_run *run, FILE *out)
{
    if (run->conf.title[0])
        fprintf(out, "Stencil Labs — lab %d: %s (%s)\n", run->lab_number, run->conf.title, run->conf.chapter);
    else
        fprintf(out, "Stencil Labs\n");
}

// The one-line verdict: PASS or FAIL with the case count and points, or why nothing was graded.
static void platform_verdict(const judge_run *run, FILE *out)
{
    if (!strcmp(platform_status(run), SUMMARY_ERROR)) {
        fprintf(out, "error: %s", run->message);
        return;
    }
    if (!platform_graded(run)) {
        fprintf(out, "rejected: %s; %.4g of %.4g points", run->message, run->score.points, run->score.max);
        return;
    }
    fprintf(out, "%s — %d of %d cases passed%s%s; %.4g of %.4g points",
            run->exit_code == JUDGE_EXIT_PASS ? "PASS" : "FAIL", run->passed, run->passed + run->failed,
            *report_technique_words(run) ? ", " : "", report_technique_words(run), run->score.points, run->score.max);
}

// Why the run was not graded, the compiler's first errors, and what to do.
static void platform_problem(const judge_run *run, FILE *out)
{
    if (!strcmp(platform_status(run), SUMMARY_ERROR)) {
        fprintf(out, "not graded: the grader itself could not run (at stage '%s'): %s\n", run->stage, run->message);
        fprintf(out, "This is not a fault of your file; tell your instructor, who can rerun it.\n");
        return;
    }
    fprintf(out, "rejected: %s\n", run->message);
    if (run->ncompiler > 0) {
        fprintf(out, "the compiler's first errors:\n");
        for (int i = 0; i < run->ncompiler; i++)
            fprintf(out, "  %s\n", run->compiler[i]);
    }
    if (!strcmp(run->stage, "compile"))
        fprintf(out, "what to do: fix the first error first (later ones often follow from it); the file must define the kernel and the host function the lab's skeleton declares, with the same names.\n");
    fprintf(out, "`make check LAB=%d` on your own machine runs the same checks.\n", run->lab_number);
}

// The overview a student reads first: lab, verdict, score, backend and seed,
// or why the run was not graded.
static void platform_overview(const judge_run *run, const void *arg, FILE *out)
{
    (void)arg;
    platform_title(run, out);
    if (!platform_graded(run)) {
        platform_problem(run, out);
        if (strcmp(platform_status(run), SUMMARY_ERROR))
            fprintf(out, "score: %.4g of %.4g points\n", run->score.points, run->score.max);
        return;
    }
    fprintf(out, "verdict: ");
    platform_verdict(run, out);
    fprintf(out, "\n");
    if (run->score.max < run->score.lab_max)
        fprintf(out, "         (the rubric is worth %.4g; this backend cannot measure the rest)\n", run->score.lab_max);
    if (!strcmp(run->backend, "gpu"))
        fprintf(out, "device:  %s (%s)\n", run->device, run->device_info);
    else if (run->fallback[0])
        fprintf(out, "backend: CPU emulation — correctness only, no timing (no usable GPU: %s)\n", run->fallback);
    else
        fprintf(out, "backend: CPU emulation — correctness only, no timing\n");
    fprintf(out, "seed:    %llu (make check LAB=%d SEED=%llu replays this run on your machine)\n",
            (unsigned long long)run->seed, run->lab_number, (unsigned long long)run->seed);
}

// One failing case: its reason, the first wrong cell, the hint and the replay command.
static void platform_failed_case(const judge_run *run, const case_result *c, FILE *out)
{
    fprintf(out, "%s: %s — %s\n", c->name, !strcmp(c->kind, "timeout") ? "TIMEOUT" : "FAIL", c->reason);
    if (c->detail[0])
        fprintf(out, "    %s\n", c->detail);
    if (c->note[0])
        fprintf(out, "    %s\n", c->note);
    if (c->hint[0])
        fprintf(out, "    hint: %s\n", c->hint);
    fprintf(out, "    replay: make check LAB=%d SEED=%llu CASE=%s\n", run->lab_number,
            (unsigned long long)run->seed, c->name[0] == 'N' ? c->name + 2 : c->name);
}

// The cases of one rubric group: those that passed on one line, then each
// failing case with its explanation, then each skipped case with its reason.
static void platform_group_cases(const judge_run *run, const char *group, FILE *out)
{
    int npassed = 0;
    for (int i = 0; i < run->ncases; i++) {
        const case_result *c = &run->cases[i];
        if (strcmp(c->spec.group, group) || c->status != CASE_OK)
            continue;
        fprintf(out, "%s%s", npassed++ ? ", " : "passed: ", c->name);
    }
    if (npassed)
        fprintf(out, "\n");
    for (int i = 0; i < run->ncases; i++)
        if (!strcmp(run->cases[i].spec.group, group) && run->cases[i].status == CASE_FAIL)
            platform_failed_case(run, &run->cases[i], out);
    for (int i = 0; i < run->ncases; i++)
        if (!strcmp(run->cases[i].spec.group, group) && run->cases[i].status == CASE_SKIPPED)
            fprintf(out, "%s: skipped (%s)\n", run->cases[i].name, run->cases[i].reason);
}

// Every timed case's figures, a line each, or nothing when no case was timed.
static void platform_timing(const judge_run *run, FILE *out)
{
    for (int i = 0; i < run->ncases; i++) {
        const case_result *c = &run->cases[i];
        if (!c->timed)
            continue;
        fprintf(out, "%s: %.3f ms median of %d; %.1f GPoints/s, %.0f GB/s = %.0f%% of the %.0f GB/s measured\n",
                c->name, c->time_ms, c->time_reps, c->gpoints, c->gbs,
                c->bandwidth_gbs > 0 ? 100.0 * c->gbs / c->bandwidth_gbs : 0.0, c->bandwidth_gbs);
    }
}

// The long text of one rubric part: how its points were reached, then what explains them.
static void platform_item_output(const judge_run *run, const void *arg, FILE *out)
{
    const score_item *it = arg;
    fprintf(out, "%s%s\n", it->detail, it->measured ? "" : " — not counted: this backend cannot measure it");
    if (!platform_graded(run))
        return;
    if (it->kind == RUBRIC_CASES)
        platform_group_cases(run, it->name, out);
    else if (it->kind == RUBRIC_TECHNIQUE && run->technique_case[0])
        fprintf(out, "%s (judged on %s)\n", run->technique.detail, run->technique_case);
    else if (it->kind == RUBRIC_TECHNIQUE)
        fprintf(out, "%s\n", run->technique.detail);
    else
        platform_timing(run, out);
}

// The problem text of a run that was not graded (platform_problem as a text writer).
static void platform_problem_text(const judge_run *run, const void *arg, FILE *out)
{
    (void)arg;
    platform_problem(run, out);
}

// The one-line verdict as a text writer.
static void platform_verdict_text(const judge_run *run, const void *arg, FILE *out)
{
    (void)arg;
    platform_verdict(run, out);
}

// Prints what fn writes as one JSON string, without its last newline.
// Shortens every absolute path in text, in place, to its last part: a
// student on a platform sees "kernel.cu:12:5: error", never the grader's
// folders (the kit's build folders, its temporary case folders, the
// platform's own mount points). A path begins with '/' at the start of the
// text or after a space, a bracket, a quote, '=' or ':', and runs to the next
// space, bracket, quote, comma or ';'.
static void platform_shorten_paths(char *text)
{
    char *w = text;
    for (const char *r = text; *r;) {
        int starts = *r == '/' && (r == text || strchr(" \t\n([{'\"=:", r[-1])) &&
                     (isalnum((unsigned char)r[1]) || (r[1] && strchr("._-~", r[1])));  // a path, not "13 / 28" nor "://"
        if (!starts) {
            *w++ = *r++;
            continue;
        }
        const char *end = r, *last = r;
        while (*end && !strchr(" \t\n)]}'\",;", *end)) {
            if (*end == '/')
                last = end;
            end++;
        }
        for (const char *q = last + 1; q < end; q++)
            *w++ = *q;
        r = end;
    }
    *w = '\0';
}

// text as a JSON string, its paths shortened (platform_shorten_paths).
static void platform_json_shortened(const char *text)
{
    char *copy = strdup(text);
    if (copy)
        platform_shorten_paths(copy);
    json_string(copy ? copy : "");
    free(copy);
}

static void platform_json_text(platform_text_fn fn, const judge_run *run, const void *arg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        fn(run, arg, mem);
        fclose(mem);
    }
    if (text)
        platform_shorten_paths(text);
    len = text ? strlen(text) : 0;
    while (text && len > 0 && text[len - 1] == '\n')
        text[--len] = '\0';
    json_string(text ? text : "");
    free(text);
}

// A rubric part's name as the platforms show it.
static void platform_item_name(const score_item *it, char *name, size_t len)
{
    if (it->kind == RUBRIC_CASES)
        snprintf(name, len, "cases: %s", it->name);
    else
        snprintf(name, len, "%s", it->name);
    if (!it->measured)
        snprintf(name + strlen(name), len - strlen(name), " (not counted on this backend)");
}

// The name of the one test a run that was not graded carries.
static const char *platform_problem_name(const judge_run *run)
{
    return strcmp(platform_status(run), SUMMARY_ERROR) ? "your file builds with the kit" : "the grader ran";
}

// Writes the name of a test into name (size bytes): the rubric part it,
// or, when it is NULL, the one test of a run that was not graded.
static void platform_test_name(const judge_run *run, const score_item *it, char *name, size_t size)
{
    if (it)
        platform_item_name(it, name, size);
    else
        snprintf(name, size, "%s", platform_problem_name(run));
}

// Writes a platform's tests, comma-separated, to out with write_test: one a
// rubric part of a graded run, else the one that says why it was not graded.
static void platform_write_tests(const judge_run *run, void (*write_test)(const judge_run *, const score_item *, FILE *),
                                 FILE *out)
{
    if (platform_graded(run))
        for (int i = 0; i < run->score.nitems; i++) {
            fprintf(out, "%s\n  ", i ? "," : "");
            write_test(run, &run->score.items[i], out);
        }
    else {
        fprintf(out, "\n  ");
        write_test(run, NULL, out);
    }
}

// ---------------------------------------------------------------------------
// Gradescope
// ---------------------------------------------------------------------------

// One Gradescope test: a rubric part (it) or, when it is NULL, the reason the run was not graded.
static void gradescope_test(const judge_run *run, const score_item *it, FILE *out)
{
    char name[96];
    platform_test_name(run, it, name, sizeof(name));
    double points = it ? it->points : 0, max = it ? (it->measured ? it->max : 0) : run->score.lab_max;
    fprintf(out, "{\"name\": ");
    json_string(name);
    fprintf(out, ", \"score\": ");
    json_number(points);
    fprintf(out, ", \"max_score\": ");
    json_number(max);
    if (!it || it->measured)
        fprintf(out, ", \"status\": \"%s\"", it && it->points >= it->max ? "passed" : "failed");
    fprintf(out, ", \"output\": ");
    platform_json_text(it ? platform_item_output : platform_problem_text, run, it);
    fprintf(out, ", \"visibility\": \"visible\"}");
}

void report_gradescope(const judge_run *run, FILE *out)
{
    json_write_to(out);
    fprintf(out, "{\"score\": ");
    json_number(run->score.points);
    fprintf(out, ",\n \"output\": ");
    platform_json_text(platform_overview, run, NULL);
    // Everything a student needs is in output; stdout holds the kit's build
    // logs, for the instructor.
    fprintf(out, ",\n \"visibility\": \"visible\", \"stdout_visibility\": \"hidden\"");
    fprintf(out, ",\n \"extra_data\": {\"status\": \"%s\", \"stage\": ", platform_status(run));
    json_string(run->stage);
    fprintf(out, ", \"backend\": ");
    json_string(run->backend);
    fprintf(out, ", \"seed\": %llu, \"exit\": %d, \"max_score\": ", (unsigned long long)run->seed, run->exit_code);
    json_number(run->score.max);
    fprintf(out, ", \"lab_max_score\": ");
    json_number(run->score.lab_max);
    fprintf(out, "},\n \"tests\": [");
    platform_write_tests(run, gradescope_test, out);
    fprintf(out, "\n ]}\n");
}

// ---------------------------------------------------------------------------
// PrairieLearn
// ---------------------------------------------------------------------------

// One PrairieLearn test: a rubric part (it) or, when it is NULL, the reason the run was not graded.
static void prairielearn_test(const judge_run *run, const score_item *it, FILE *out)
{
    int gradable = strcmp(platform_status(run), SUMMARY_ERROR) != 0;
    static const char *kinds[] = {"a group of cases: its share of the cases that passed",
                                  "the idea the lab teaches, seen in the launches and the kernel's shared memory",
                                  "speed of the timed cases against the yardstick of the lab's rubric, measured in the same run"};
    char name[96];
    platform_test_name(run, it, name, sizeof(name));
    fprintf(out, "{\"name\": ");
    json_string(name);
    fprintf(out, ", \"description\": ");
    if (it)
        json_string(kinds[it->kind]);
    else if (gradable)
        json_string("the file is compiled alone, after an include check, and linked with the kit");
    else
        json_string("the grader's own run: the lab, its lab.conf and the backend");
    fprintf(out, ", \"points\": ");
    json_number(it ? it->points : 0);
    fprintf(out, ", \"max_points\": ");
    json_number(it ? (it->measured ? it->max : 0) : run->score.lab_max);
    fprintf(out, ", \"message\": ");
    platform_json_shortened(it ? it->detail : run->message);
    fprintf(out, ", \"output\": ");
    platform_json_text(it ? platform_item_output : platform_problem_text, run, it);
    fprintf(out, "}");
}

void report_prairielearn(const judge_run *run, FILE *out)
{
    json_write_to(out);
    int gradable = strcmp(platform_status(run), SUMMARY_ERROR) != 0;
    double score = run->score.max > 0 ? run->score.points / run->score.max : 0;
    fprintf(out, "{\"gradable\": %s, \"score\": ", gradable ? "true" : "false");
    json_number(score < 0 ? 0 : score > 1 ? 1 : score);
    fprintf(out, ",\n \"message\": ");
    platform_json_text(platform_verdict_text, run, NULL);
    fprintf(out, ",\n \"output\": ");
    platform_json_text(platform_overview, run, NULL);
    fprintf(out, ",\n \"tests\": [");
    platform_write_tests(run, prairielearn_test, out);
    fprintf(out, "\n ]}\n");
}
