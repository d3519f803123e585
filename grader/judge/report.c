// grader/judge/report.c — prints a judge_run for people (text) and for tools (JSON).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hints.h"
#include "json_write.h"
#include "lab_kind.h"
#include "judge.h"
#include "pictures.h"
#include "protocol.h"
#include "report.h"
#include "summary_keys.h"

// What emulation does not guarantee, said in every emulated report.
#define REPORT_EMU_GUARANTEES "lacks: your code shares the runner's process, so the launch records and load counts (technique) are sealed but not beyond reach, and no time is measured; grids are still judged here"

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

// The emulation banner, printed at the top and at the bottom of the report.
static void report_banner(const judge_run *run)
{
    if (strcmp(run->backend, "emu") != 0)
        return;
    printf("== CPU EMULATION: correctness only, no timing%s%s ==\n",
           run->fallback[0] ? " — no usable GPU: " : "", run->fallback);
}

// The hints a text report has printed so far, and the case each came with.
static const char *report_hint_seen[CONF_MAX_CASES];
static const char *report_hint_first[CONF_MAX_CASES];
static int report_hint_count;

// The case that first printed hint key, or NULL (and then remembers it for name).
static const char *report_hint_once(const char *key, const char *name)
{
    for (int i = 0; i < report_hint_count; i++)
        if (!strcmp(report_hint_seen[i], key))
            return report_hint_first[i];
    if (report_hint_count < CONF_MAX_CASES) {
        report_hint_seen[report_hint_count] = key;
        report_hint_first[report_hint_count++] = name;
    }
    return NULL;
}

// Prints text indented six columns, in lines of at most 72 bytes (broken at a
// space where one is near, never inside a UTF-8 character), the later ones
// indented eight: a terminal never wraps them, so text a program printed,
// quoted here, cannot start a line of its own at the left edge, where the
// report's own lines stand.
static void report_wrapped(const char *text)
{
    const size_t width = 72;
    const char *indent = "      ";
    while (*text) {
        size_t n = strlen(text);
        if (n > width) {
            n = width;
            while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
                n--;  // not inside a character
            size_t space = n;
            while (space > width / 2 && text[space] != ' ')
                space--;
            if (text[space] == ' ')
                n = space;
        }
        printf("%s%.*s\n", indent, (int)n, text);
        text += n;
        while (*text == ' ')
            text++;
        indent = "        ";
    }
}

// One case's line, and the reason, detail and hint under it when it failed.
// A hint already printed for an earlier case is named, not repeated.
static void report_text_case(const case_result *c, uint64_t master_seed, int lab)
{
    if (c->status == CASE_SKIPPED) {
        printf("  %s: skipped (%s)\n", c->name, c->reason);
        return;
    }
    if (c->status == CASE_OK && c->timed) {
        printf("  %s: OK (%.3f ms median of %d; %.1f GPoints/s, %.0f GB/s = %.0f%% of the %.0f GB/s measured)\n",
               c->name, c->time_ms, c->time_reps, c->gpoints, c->gbs,
               c->bandwidth_gbs > 0 ? 100.0 * c->gbs / c->bandwidth_gbs : 0.0, c->bandwidth_gbs);
        if (c->time_reps_cut_s > 0)
            printf("      timed on %d repetition%s: they stop once they have taken %g s (a timed case's budget: %g s, or a quarter of its time limit when less)\n",
                   c->time_reps, c->time_reps == 1 ? "" : "s", c->time_reps_cut_s, JUDGE_TIME_BUDGET_S);
        if (c->bandwidth_by[0])
            printf("      copy limit: %.0f GB/s, set by %s (float4 copy kernel %.0f GB/s, cudaMemcpy device to device %.0f GB/s, measured in this run)\n",
                   c->bandwidth_gbs, !strcmp(c->bandwidth_by, COPY_LIMIT_BY_KERNEL) ? "the float4 copy kernel" : "cudaMemcpy",
                   c->bandwidth_kernel_gbs, c->bandwidth_memcpy_gbs);
    }
    else if (c->status == CASE_OK && c->launch_ms >= 0)
        printf("  %s: OK (%.3f ms)\n", c->name, c->launch_ms);
    else if (c->status == CASE_OK)
        printf("  %s: OK (%.2f s emulated)\n", c->name, c->wall_s);
    else
        printf("  %s: %s\n", c->name, !strcmp(c->kind, "timeout") ? "TIMEOUT" : "FAIL");
    if (c->note[0])
        printf("      %s\n", c->note);
    if (c->spec.sized_tile > LAB_SIZED_TILE_UNKNOWN)
        printf("      (no case of lab.conf: sized from your kernel's blocks, %s two whole tiles of %u points)\n",
               c->spec.nx == 2 * c->spec.sized_tile ? "each side" : "the interior of each side", c->spec.sized_tile);
    else if (c->spec.sized_tile)
        printf("      (no case of lab.conf: its input drawn as for a case sized from your kernel's blocks)\n");
    if (c->status != CASE_FAIL)
        return;
    report_wrapped(c->reason);
    if (c->detail[0])
        report_wrapped(c->detail);
    const char *earlier = c->hint[0] && c->hint_key ? report_hint_once(c->hint_key, c->name) : NULL;
    if (earlier)
        printf("      hint: as for %s above [%s]\n", earlier, c->hint_key);
    else if (c->hint[0])
        printf("      hint: %s%s%s%s\n", c->hint, c->hint_key ? " [" : "", c->hint_key ? c->hint_key : "", c->hint_key ? "]" : "");
    printf("      replay: make check LAB=%d SEED=%llu CASE=%s\n", lab, (unsigned long long)master_seed,
           c->name[0] == 'N' ? c->name + 2 : c->name);
}

// The hints of the run, each once, with the cases it applies to and where
// the handout explains it (the registry's words: grader/judge/hints.c).
static void report_text_hints(const judge_run *run)
{
    char where[300];
    int any = 0;
    for (const hint_entry *h = hint_all(); h->key; h++) {
        char cases[400] = "";
        int n = 0;
        for (int i = 0; i < run->ncases; i++) {
            const case_result *c = &run->cases[i];
            if (c->status != CASE_FAIL || !c->hint_key || strcmp(c->hint_key, h->key))
                continue;
            size_t used = strlen(cases);
            if (n++ < 8)
                snprintf(cases + used, sizeof(cases) - used, "%s%s", used ? ", " : "", c->name);
            else if (n == 9)
                snprintf(cases + used, sizeof(cases) - used, ", ...");
        }
        if (!n)
            continue;
        printf("%s [%s] %s: %s\n", any ? "      " : "hints:", h->key, h->title, cases);
        any = 1;
    }
    if (any)
        printf("       what to do: %s\n", hint_handout(run->lab_name, where, sizeof(where)));
}

// The time line: where this run's wall time went, and its longest case.
static void report_time_text(const judge_run *run)
{
    const judge_seconds *t = &run->seconds;
    const case_result *longest = NULL;
    for (int i = 0; i < run->ncases; i++)
        if (run->cases[i].status != CASE_SKIPPED && (!longest || run->cases[i].wall_s > longest->wall_s))
            longest = &run->cases[i];
    printf("time:    %.1f s: building %.1f s, cases %.1f s", t->total, t->build, t->cases);
    if (longest && longest->wall_s > 0)
        printf(" (the longest, %s: %.1f s)", longest->name, longest->wall_s);
    if (t->loads >= 0.05)
        printf(", load counts %.1f s", t->loads);
    if (t->solution >= 0.05)
        printf(", the solution's timing %.1f s", t->solution);
    printf(", report %.1f s\n", t->report);
}

void report_text(const judge_run *run)
{
    report_banner(run);
    printf("Stencil Labs — lab %d: %s (%s)\n", run->lab_number, run->conf.title, run->conf.chapter);
    char kernel[sizeof(run->kernel)];  // a class's file names are the students'
    printf("kernel:  %s\n", protocol_printable_copy(kernel, sizeof(kernel), run->kernel));
    if (!strcmp(run->backend, "gpu"))
        printf("device:  %s (%s)\n", run->device, run->device_info);
    else
        printf("backend: CPU emulation (threads run as fibers; two thread orders per case)\n"
               "         %s\n", REPORT_EMU_GUARANTEES);
    printf("seed:    %llu   (replay this run with SEED=%llu)\n\n", (unsigned long long)run->seed,
           (unsigned long long)run->seed);
    report_hint_count = 0;
    for (int i = 0; i < run->ncases; i++)
        report_text_case(&run->cases[i], run->seed, run->lab_number);
    printf("\n");
    report_text_hints(run);
    if (run->technique_case[0])
        printf("technique: %s — %s (judged on %s)\n",
               run->technique.status == TECHNIQUE_OK ? "OK" : run->technique.status == TECHNIQUE_FAIL ? "FAIL" : "not checked",
               run->technique.detail, run->technique_case);
    else
        printf("technique: not checked — %s\n", run->technique.detail);
    if (run->opb_valid) {
        printf("OP/B (book's model): %s", run->opb.formula);
        if (run->opb.halo_fraction > 0)
            printf("; halo %.0f%% of the input tile; bound %.2f as T grows; %.1f KB shared per block",
                   100.0 * run->opb.halo_fraction, run->opb.bound, run->opb.smem_bytes / 1024.0);
        printf("\n");
    }
    printf("score:   %.4g of %.4g points", run->score.points, run->score.max);
    if (run->score.max < run->score.lab_max)
        printf(" (the rubric's %.4g, less what this backend cannot measure)", run->score.lab_max);
    printf("\n");
    for (int i = 0; i < run->score.nitems; i++) {
        const score_item *it = &run->score.items[i];
        printf("         %-12s %5.4g / %-5.4g %s%s\n", it->name, it->points, it->max, it->detail,
               it->measured ? "" : " (not counted)");
    }
    pictures_report_text(stdout);
    report_time_text(run);
    printf("verdict: %s — %d of %d cases passed%s%s%s%s\n",
           run->exit_code == JUDGE_EXIT_PASS ? "PASS" : "FAIL", run->passed,
           run->passed + run->failed, run->skipped ? ", " : "",
           run->skipped ? "some skipped" : "",
           *report_technique_words(run) ? "; " : "", report_technique_words(run));
    report_banner(run);
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

// Prints "key": "value", with a leading comma unless first.
static void json_kv_string(const char *key, const char *value, int first)
{
    fprintf(json_out, "%s\"%s\": ", first ? "" : ", ", key);
    json_string(value);
}

// Prints "key": number, with a leading comma.
static void json_kv_number(const char *key, double value)
{
    fprintf(json_out, ", \"%s\": ", key);
    json_number(value);
}

// One case as a JSON object.
static void report_json_case(const case_result *c)
{
    static const char *status_names[] = {"ok", "fail", "skipped"};
    fprintf(json_out, "{");
    json_kv_string("name", c->name, 1);
    if (c->spec.sized_tile)
        json_kv_number("sized_tile", c->spec.sized_tile > LAB_SIZED_TILE_UNKNOWN ? c->spec.sized_tile : 0);
    fprintf(json_out, ", \"size\": [%u, %u, %u]", c->spec.nx, c->spec.ny, c->spec.nz);
    fprintf(json_out, ", \"seed\": %llu", (unsigned long long)c->seed);
    json_kv_string("status", status_names[c->status], 0);
    json_kv_string("kind", c->kind, 0);
    json_kv_string("reason", c->reason, 0);
    json_kv_string("detail", c->detail, 0);
    fprintf(json_out, ", \"hint_key\": ");
    if (c->hint_key)
        json_string(c->hint_key);
    else
        fprintf(json_out, "null");
    json_kv_string("hint", c->hint, 0);
    json_kv_string("note", c->note, 0);
    fprintf(json_out, ", \"wrong_cells\": %zu, \"interior_cells\": %zu", c->wrong, c->interior);
    json_kv_number("launch_ms", c->launch_ms >= 0 ? c->launch_ms : NAN);
    json_kv_number("wall_s", c->wall_s);
    if (c->timed) {
        fprintf(json_out, ", \"timing\": {\"reps\": %d", c->time_reps);
        if (c->time_reps_cut_s > 0)
            json_kv_number("reps_cut_at_s", c->time_reps_cut_s);
        json_kv_number("median_ms", c->time_ms);
        json_kv_number("min_ms", c->time_min_ms);
        json_kv_number("max_ms", c->time_max_ms);
        json_kv_number("gpoints_per_s", c->gpoints);
        json_kv_number("gb_per_s", c->gbs);
        json_kv_number("bandwidth_gb_per_s", c->bandwidth_gbs);
        json_kv_number("bandwidth_fraction", c->bandwidth_gbs > 0 ? c->gbs / c->bandwidth_gbs : NAN);
        json_kv_number("bandwidth_kernel_gb_per_s", c->bandwidth_kernel_gbs);
        json_kv_number("bandwidth_memcpy_gb_per_s", c->bandwidth_memcpy_gbs);
        json_kv_string("bandwidth_by", c->bandwidth_by, 0);
        fprintf(json_out, "}");
        if (c->profiled)
            fprintf(json_out, ", \"measured_opb\": {\"flops\": %.6g, \"load_bytes\": %.6g, \"dram_bytes\": %.6g, \"requested\": %.6g, \"dram\": %.6g}",
                    c->flops, c->load_bytes, c->dram_bytes, c->flops / c->load_bytes, c->flops / c->dram_bytes);
    } else {
        fprintf(json_out, ", \"timing\": null");
    }
    fprintf(json_out, "}");
}

int judge_stage_rejects(const char *stage)
{
    return !strcmp(stage, "include") || !strcmp(stage, "compile") || !strcmp(stage, "defines-main");
}

// The report's status: graded, or why it could not be.
static const char *report_status(const judge_run *run)
{
    if (run->exit_code == JUDGE_EXIT_PASS || run->exit_code == JUDGE_EXIT_FAIL)
        return SUMMARY_GRADED;
    return judge_stage_rejects(run->stage) ? SUMMARY_REJECTED : SUMMARY_ERROR;
}

// The verdict word of the report.
static const char *report_verdict(const judge_run *run)
{
    return run->exit_code == JUDGE_EXIT_PASS ? "pass" : run->exit_code == JUDGE_EXIT_FAIL ? "fail" : "error";
}

// The score as a JSON object.
static void report_json_score(const score_result *s)
{
    static const char *kinds[] = {"cases", "technique", "speed"};
    fprintf(json_out, "{\"points\": ");
    json_number(s->points);
    json_kv_number("max", s->max);
    json_kv_number("lab_max", s->lab_max);
    fprintf(json_out, ", \"items\": [");
    for (int i = 0; i < s->nitems; i++) {
        const score_item *it = &s->items[i];
        fprintf(json_out, "%s{", i ? ", " : "");
        json_kv_string("name", it->name, 1);
        json_kv_string("kind", kinds[it->kind], 0);
        json_kv_number("points", it->points);
        json_kv_number("max", it->max);
        fprintf(json_out, ", \"measured\": %s", it->measured ? "true" : "false");
        json_kv_string("detail", it->detail, 0);
        fprintf(json_out, "}");
    }
    fprintf(json_out, "]}");
}

// The report's "hints" list: each hint the failed cases got, in the registry's order, with those cases.
static void report_json_hints(const judge_run *run)
{
    fprintf(json_out, ", \"hints\": [");
    int nh = 0;
    for (const hint_entry *h = hint_all(); h->key; h++) {
        int first = 1;
        for (int i = 0; i < run->ncases; i++) {
            const case_result *c = &run->cases[i];
            if (c->status != CASE_FAIL || !c->hint_key || strcmp(c->hint_key, h->key))
                continue;
            if (first) {
                fprintf(json_out, "%s{", nh++ ? ", " : "");
                json_kv_string("key", h->key, 1);
                json_kv_string("title", h->title, 0);
                json_kv_string("detector", h->detector, 0);
                fprintf(json_out, ", \"cases\": [");
            }
            fprintf(json_out, first ? "" : ", ");
            json_string(c->name);
            first = 0;
        }
        if (!first)
            fprintf(json_out, "]}");
    }
    fprintf(json_out, "]");
}

void report_json(const judge_run *run, FILE *out)
{
    json_out = out;
    static const char *tech_names[] = {"fail", "ok"};
    fprintf(json_out, "{\"lab\": %d", run->lab_number);
    json_kv_string("status", report_status(run), 0);
    json_kv_string("message", run->message, 0);
    json_kv_string("stage", run->stage, 0);
    json_kv_string("lab_name", run->lab_name, 0);
    json_kv_string("title", run->conf.title, 0);
    json_kv_string("kernel", run->kernel, 0);
    json_kv_string("backend", run->backend, 0);
    if (strcmp(run->backend, "gpu"))
        json_kv_string("backend_lacks", REPORT_EMU_GUARANTEES, 0);
    json_kv_string("fallback", run->fallback, 0);
    json_kv_string("device", run->device, 0);
    json_kv_string("device_info", run->device_info, 0);
    fprintf(json_out, ", \"seed\": %llu, \"cases\": [", (unsigned long long)run->seed);
    for (int i = 0; i < run->ncases; i++) {
        fprintf(json_out, i ? ", " : "");
        report_json_case(&run->cases[i]);
    }
    fprintf(json_out, "], \"technique\": {");
    json_kv_string("status", run->technique.status == TECHNIQUE_NA ? "not-checked" : tech_names[run->technique.status], 1);
    json_kv_string("detail", run->technique.detail, 0);
    json_kv_string("case", run->technique_case, 0);
    fprintf(json_out, "}, \"opb\": ");
    if (run->opb_valid) {
        fprintf(json_out, "{\"book_model\": ");
        json_number(run->opb.book);
        json_kv_number("bound", run->opb.bound);
        json_kv_number("halo_fraction", run->opb.halo_fraction);
        json_kv_number("smem_bytes", run->opb.smem_bytes);
        json_kv_string("formula", run->opb.formula, 0);
        fprintf(json_out, "}");
    } else {
        fprintf(json_out, "null");
    }
    fprintf(json_out, ", \"score\": ");
    report_json_score(&run->score);
    fprintf(json_out, ", \"gpu_turns\": [");
    for (int i = 0; i < run->ngpu_turns; i++)
        fprintf(json_out, "%s[%.6f, %.6f, %d]", i ? ", " : "", run->gpu_turns[i][0], run->gpu_turns[i][1], (int)run->gpu_turns[i][2]);
    fprintf(json_out, "], \"seconds\": {\"build\": %.3f, \"build_student\": %.3f, \"build_waits\": %.3f, \"cases\": %.3f, \"loads\": %.3f, \"solution\": %.3f, \"report\": %.3f, \"total\": %.3f}",
            run->seconds.build, run->seconds.build_student, run->seconds.build_waits, run->seconds.cases, run->seconds.loads, run->seconds.solution,
            run->seconds.report, run->seconds.total);
    report_json_hints(run);
    pictures_report_json(json_out);
    fprintf(json_out, ", \"compiler_messages\": [");
    for (int i = 0; i < run->ncompiler; i++) {
        fprintf(json_out, i ? ", " : "");
        json_string(run->compiler[i]);
    }
    fprintf(json_out, "], \"passed\": %d, \"failed\": %d, \"skipped\": %d", run->passed, run->failed, run->skipped);
    json_kv_string("verdict", report_verdict(run), 0);
    if (run->exit_code != JUDGE_EXIT_PASS && run->exit_code != JUDGE_EXIT_FAIL)
        json_kv_string("error", run->message, 0);
    fprintf(json_out, ", \"exit\": %d}\n", run->exit_code);
}

// The first timed case that carries a timing, or NULL.
static const case_result *report_timed_case(const judge_run *run)
{
    for (int i = 0; i < run->ncases; i++)
        if (run->cases[i].timed)
            return &run->cases[i];
    return NULL;
}

// Writes one summary value for key, newlines folded.
static void report_summary_value(FILE *out, const char *key, const char *value)
{
    fprintf(out, "%s=", key);
    for (const char *p = value ? value : ""; *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
    fputc('\n', out);
}

void report_summary(const judge_run *run, FILE *out)
{
    const case_result *t = report_timed_case(run);
    const char *first = run->message;
    char num[64];
    for (int i = 0; !first[0] && i < run->ncases; i++)
        if (run->cases[i].status == CASE_FAIL)
            first = run->cases[i].reason;
    if (!first[0] && run->technique.status == TECHNIQUE_FAIL)
        first = run->technique.detail;
#define REPORT_SUMMARY_NUMBER(key, fmt, v) (snprintf(num, sizeof(num), fmt, v), report_summary_value(out, key, num))
    report_summary_value(out, "status", report_status(run));
    report_summary_value(out, "verdict", report_verdict(run));
    REPORT_SUMMARY_NUMBER("score", "%.4g", run->score.points);
    REPORT_SUMMARY_NUMBER("max_score", "%.4g", run->score.max);
    REPORT_SUMMARY_NUMBER("lab_max_score", "%.4g", run->score.lab_max);
    REPORT_SUMMARY_NUMBER("passed", "%d", run->passed);
    REPORT_SUMMARY_NUMBER("failed", "%d", run->failed);
    REPORT_SUMMARY_NUMBER("skipped", "%d", run->skipped);
    report_summary_value(out, "technique", run->technique.status == TECHNIQUE_NA ? "not-checked" : run->technique.status == TECHNIQUE_OK ? "ok" : "fail");
    if (t) {
        REPORT_SUMMARY_NUMBER("median_ms", "%.4f", t->time_ms);
        REPORT_SUMMARY_NUMBER("gb_per_s", "%.1f", t->gbs);
        REPORT_SUMMARY_NUMBER("bandwidth_fraction", "%.4f", t->bandwidth_gbs > 0 ? t->gbs / t->bandwidth_gbs : 0.0);
    } else {  // not timed here: the keys are still there, empty
        report_summary_value(out, "median_ms", "");
        report_summary_value(out, "gb_per_s", "");
        report_summary_value(out, "bandwidth_fraction", "");
    }
    char every[512] = "";
    for (int i = 0; i < run->ncases; i++) {
        const case_result *c = &run->cases[i];
        size_t used = strlen(every);
        if (c->timed && used < sizeof(every))
            snprintf(every + used, sizeof(every) - used, "%s%s:%.4f", used ? " " : "", c->name,
                     c->bandwidth_gbs > 0 ? c->gbs / c->bandwidth_gbs : 0.0);
    }
    report_summary_value(out, "timed_cases", every);
    report_summary_value(out, "backend", run->backend);
    report_summary_value(out, "device", run->device);
    report_summary_value(out, "stage", run->stage);
    REPORT_SUMMARY_NUMBER("exit", "%d", run->exit_code);
    report_summary_value(out, "message", first);
    const char *hint = "";
    for (int i = 0; !hint[0] && i < run->ncases; i++)
        if (run->cases[i].status == CASE_FAIL && run->cases[i].hint_key)
            hint = run->cases[i].hint_key;
    if (!hint[0] && run->technique.status == TECHNIQUE_FAIL)
        hint = "technique";
    report_summary_value(out, "hint", hint);
    const char *failed_case = "";
    for (int i = 0; !failed_case[0] && i < run->ncases; i++)
        if (run->cases[i].status == CASE_FAIL)
            failed_case = run->cases[i].name;
    report_summary_value(out, "first_failed", failed_case);
#undef REPORT_SUMMARY_NUMBER
}

// Everything of run's that a student's file or process may have written
// (reasons, the runner's last words, hints) made printable, before any report
// is written (protocol_printable); the compiler's lines are made so as they
// are kept (judge_build_failed prints them at once).
static void report_printable(judge_run *run)
{
    for (int i = 0; i < run->ncases; i++) {
        protocol_printable(run->cases[i].reason, 0);
        protocol_printable(run->cases[i].detail, 0);
        protocol_printable(run->cases[i].hint, 0);
    }
    protocol_printable(run->technique.detail, 0);
    protocol_printable(run->message, 0);
}

const char *report_technique_words(const judge_run *run)
{
    if (run->technique.status != TECHNIQUE_FAIL)
        return "";
    return run->technique_case[0] ? "technique check failed" : "technique not judged (no case with interior points passed)";
}

void report_score(judge_run *run)
{
    report_printable(run);
    score_case cases[CONF_MAX_CASES];
    int error = run->exit_code != JUDGE_EXIT_PASS && run->exit_code != JUDGE_EXIT_FAIL;
    for (int i = 0; i < run->ncases; i++) {
        const case_result *c = &run->cases[i];
        cases[i].group = c->spec.group;
        cases[i].status = (int)c->status;
        cases[i].timed = c->spec.timed;
        cases[i].bandwidth_fraction = c->timed && c->bandwidth_gbs > 0 ? c->gbs / c->bandwidth_gbs : -1;
        cases[i].solution_fraction = c->timed && c->solution_gbs > 0 ? c->gbs / c->solution_gbs : -1;
        cases[i].name = c->name;
    }
    int technique = run->technique.status == TECHNIQUE_OK ? 1 : run->technique.status != TECHNIQUE_FAIL ? -1 : run->technique_case[0] ? 0 : SCORE_TECHNIQUE_UNJUDGED;
    run->score = score_compute(&run->conf, cases, error ? 0 : run->ncases, technique, error);
}
