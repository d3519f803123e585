// grader/judge/report.c — prints a judge_run for people (text) and for tools (JSON).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"

// What emulation does not guarantee, said in every emulated report.
#define REPORT_EMU_GUARANTEES "lacks: your code shares the runner's process, so launch records (technique) are not tamper-proof and no time is measured; grids are still judged here"

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
        printf("backend: CPU emulation (threads run as fibers; two thread orders per case)\n"
               "         %s\n", REPORT_EMU_GUARANTEES);
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

static FILE *json_out;  // where the JSON functions write (set by report_json)

// Prints s as a JSON string, escaped.
static void json_string(const char *s)
{
    fputc('"', json_out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(json_out, "\\%c", *p);
        else if (*p == '\n')
            fprintf(json_out, "\\n");
        else if (*p < 0x20)
            fprintf(json_out, "\\u%04x", *p);
        else
            fputc(*p, json_out);
    }
    fputc('"', json_out);
}

// Prints a number, or null when it is not finite.
static void json_number(double v)
{
    if (isfinite(v))
        fprintf(json_out, "%.6g", v);
    else
        fprintf(json_out, "null");
}

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
        json_kv_number("median_ms", c->time_ms);
        json_kv_number("min_ms", c->time_min_ms);
        json_kv_number("max_ms", c->time_max_ms);
        json_kv_number("gpoints_per_s", c->gpoints);
        json_kv_number("gb_per_s", c->gbs);
        json_kv_number("bandwidth_gb_per_s", c->bandwidth_gbs);
        json_kv_number("bandwidth_fraction", c->bandwidth_gbs > 0 ? c->gbs / c->bandwidth_gbs : NAN);
        fprintf(json_out, "}");
        if (c->profiled)
            fprintf(json_out, ", \"measured_opb\": {\"flops\": %.6g, \"load_bytes\": %.6g, \"dram_bytes\": %.6g, \"requested\": %.6g, \"dram\": %.6g}",
                    c->flops, c->load_bytes, c->dram_bytes, c->flops / c->load_bytes, c->flops / c->dram_bytes);
    } else {
        fprintf(json_out, ", \"timing\": null");
    }
    fprintf(json_out, "}");
}

void report_json(const judge_run *run, FILE *out)
{
    json_out = out;
    static const char *tech_names[] = {"fail", "ok"};
    fprintf(json_out, "{\"lab\": %d", run->lab_number);
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
    fprintf(json_out, ", \"passed\": %d, \"failed\": %d, \"skipped\": %d", run->passed, run->failed, run->skipped);
    json_kv_string("verdict", run->exit_code == JUDGE_EXIT_PASS ? "pass" : "fail", 0);
    fprintf(json_out, ", \"exit\": %d}\n", run->exit_code);
}

void report_json_error(int exit_code, const char *message)
{
    json_out = stdout;
    fprintf(json_out, "{\"verdict\": \"error\", \"exit\": %d, ", exit_code);
    json_kv_string("error", message, 1);
    fprintf(json_out, "}\n");
}
