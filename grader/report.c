// grader/report.c — prints a judge_run for people (text) and for tools (JSON).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"

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

// One case's line, and the reason, detail and hint under it when it failed.
static void report_text_case(const case_result *c, uint64_t master_seed, int lab)
{
    if (c->status == CASE_SKIPPED) {
        printf("  %s: skipped (%s)\n", c->name, c->reason);
        return;
    }
    if (c->status == CASE_OK && c->timed)
        printf("  %s: OK (%.3f ms median of %d; %.1f GPoints/s, %.0f GB/s = %.0f%% of the %.0f GB/s measured)\n",
               c->name, c->time_ms, c->time_reps, c->gpoints, c->gbs,
               c->bandwidth_gbs > 0 ? 100.0 * c->gbs / c->bandwidth_gbs : 0.0, c->bandwidth_gbs);
    else if (c->status == CASE_OK && c->launch_ms >= 0)
        printf("  %s: OK (%.3f ms)\n", c->name, c->launch_ms);
    else if (c->status == CASE_OK)
        printf("  %s: OK (%.2f s emulated)\n", c->name, c->wall_s);
    else
        printf("  %s: %s\n", c->name, !strcmp(c->kind, "timeout") ? "TIMEOUT" : "FAIL");
    if (c->note[0])
        printf("      %s\n", c->note);
    if (c->status != CASE_FAIL)
        return;
    printf("      %s\n", c->reason);
    if (c->detail[0])
        printf("      %s\n", c->detail);
    if (c->hint[0])
        printf("      hint: %s\n", c->hint);
    printf("      replay: make check LAB=%d SEED=%llu CASE=%s\n", lab, (unsigned long long)master_seed,
           c->name[0] == 'N' ? c->name + 2 : c->name);
}

void report_text(const judge_run *run)
{
    report_banner(run);
    printf("Stencil Labs — lab %d: %s (%s)\n", run->lab_number, run->conf.title, run->conf.chapter);
    printf("kernel:  %s\n", run->kernel);
    if (!strcmp(run->backend, "gpu"))
        printf("device:  %s (%s)\n", run->device, run->device_info);
    else
        printf("backend: CPU emulation (threads run as fibers; two thread orders per case)\n");
    printf("seed:    %llu   (replay this run with SEED=%llu)\n\n", (unsigned long long)run->seed,
           (unsigned long long)run->seed);
    for (int i = 0; i < run->ncases; i++)
        report_text_case(&run->cases[i], run->seed, run->lab_number);
    printf("\n");
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
    printf("verdict: %s — %d of %d cases passed%s%s%s\n",
           run->exit_code == JUDGE_EXIT_PASS ? "PASS" : "FAIL", run->passed,
           run->passed + run->failed, run->skipped ? ", " : "",
           run->skipped ? "some skipped" : "",
           run->technique.status == TECHNIQUE_FAIL ? "; technique check failed" : "");
    report_banner(run);
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

// Prints s as a JSON string, escaped.
static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p == '\n')
            printf("\\n");
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

// Prints a number, or null when it is not finite.
static void json_number(double v)
{
    if (isfinite(v))
        printf("%.6g", v);
    else
        printf("null");
}

// Prints "key": "value", with a leading comma unless first.
static void json_kv_string(const char *key, const char *value, int first)
{
    printf("%s\"%s\": ", first ? "" : ", ", key);
    json_string(value);
}

// Prints "key": number, with a leading comma.
static void json_kv_number(const char *key, double value)
{
    printf(", \"%s\": ", key);
    json_number(value);
}

// One case as a JSON object.
static void report_json_case(const case_result *c)
{
    static const char *status_names[] = {"ok", "fail", "skipped"};
    printf("{");
    json_kv_string("name", c->name, 1);
    printf(", \"size\": [%u, %u, %u]", c->spec.nx, c->spec.ny, c->spec.nz);
    printf(", \"seed\": %llu", (unsigned long long)c->seed);
    json_kv_string("status", status_names[c->status], 0);
    json_kv_string("kind", c->kind, 0);
    json_kv_string("reason", c->reason, 0);
    json_kv_string("detail", c->detail, 0);
    printf(", \"hint_key\": ");
    if (c->hint_key)
        json_string(c->hint_key);
    else
        printf("null");
    json_kv_string("hint", c->hint, 0);
    json_kv_string("note", c->note, 0);
    printf(", \"wrong_cells\": %zu, \"interior_cells\": %zu", c->wrong, c->interior);
    json_kv_number("launch_ms", c->launch_ms >= 0 ? c->launch_ms : NAN);
    json_kv_number("wall_s", c->wall_s);
    if (c->timed) {
        printf(", \"timing\": {\"reps\": %d", c->time_reps);
        json_kv_number("median_ms", c->time_ms);
        json_kv_number("min_ms", c->time_min_ms);
        json_kv_number("max_ms", c->time_max_ms);
        json_kv_number("gpoints_per_s", c->gpoints);
        json_kv_number("gb_per_s", c->gbs);
        json_kv_number("bandwidth_gb_per_s", c->bandwidth_gbs);
        json_kv_number("bandwidth_fraction", c->bandwidth_gbs > 0 ? c->gbs / c->bandwidth_gbs : NAN);
        printf("}");
    } else {
        printf(", \"timing\": null");
    }
    printf("}");
}

void report_json(const judge_run *run)
{
    static const char *tech_names[] = {"fail", "ok"};
    printf("{\"lab\": %d", run->lab_number);
    json_kv_string("lab_name", run->lab_name, 0);
    json_kv_string("title", run->conf.title, 0);
    json_kv_string("kernel", run->kernel, 0);
    json_kv_string("backend", run->backend, 0);
    json_kv_string("fallback", run->fallback, 0);
    json_kv_string("device", run->device, 0);
    json_kv_string("device_info", run->device_info, 0);
    printf(", \"seed\": %llu, \"cases\": [", (unsigned long long)run->seed);
    for (int i = 0; i < run->ncases; i++) {
        printf(i ? ", " : "");
        report_json_case(&run->cases[i]);
    }
    printf("], \"technique\": {");
    json_kv_string("status", run->technique.status == TECHNIQUE_NA ? "not-checked" : tech_names[run->technique.status], 1);
    json_kv_string("detail", run->technique.detail, 0);
    json_kv_string("case", run->technique_case, 0);
    printf("}, \"opb\": ");
    if (run->opb_valid) {
        printf("{\"book_model\": ");
        json_number(run->opb.book);
        json_kv_number("bound", run->opb.bound);
        json_kv_number("halo_fraction", run->opb.halo_fraction);
        json_kv_number("smem_bytes", run->opb.smem_bytes);
        json_kv_string("formula", run->opb.formula, 0);
        printf("}");
    } else {
        printf("null");
    }
    printf(", \"passed\": %d, \"failed\": %d, \"skipped\": %d", run->passed, run->failed, run->skipped);
    json_kv_string("verdict", run->exit_code == JUDGE_EXIT_PASS ? "pass" : "fail", 0);
    printf(", \"exit\": %d}\n", run->exit_code);
}

void report_json_error(int exit_code, const char *message)
{
    printf("{\"verdict\": \"error\", \"exit\": %d, ", exit_code);
    json_kv_string("error", message, 1);
    printf("}\n");
}
