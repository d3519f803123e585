// grader/judge/judge_options.c — the judge's command line (judge_options.h):
// one table of options, read into judge_args; --help prints the table.
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"
#include "judge_options.h"

// The judge's options, each once: its name, the value it takes, where it
// lands in judge_args and what it does (--help prints this table; an
// unknown option is named with the list).
enum judge_option_kind {
    OPTION_TEXT,    // a const char * field: the value itself (it points into argv)
    OPTION_FLAG,    // an int field set to 1
    OPTION_NUMBER,  // a number with its range, read by judge_options_number
    OPTION_KIT,     // the kit's folder, copied into judge_args.kit
    OPTION_HELP,    // --help
};
#define AT(field) offsetof(judge_args, field)
static const struct judge_option {
    const char *name;           // "--lab"
    const char *value;          // what it takes ("N|DIR"), or NULL for a flag
    enum judge_option_kind kind;
    size_t at;                  // its field's offset in judge_args (OPTION_TEXT and OPTION_FLAG)
    const char *help;           // one line for --help
} judge_options[] = {
    {"--lab", "N|DIR", OPTION_TEXT, AT(lab), "the lab: its number or its folder (required)"},
    {"--kernel", "FILE", OPTION_TEXT, AT(kernel), "the kernel file to grade (default: the lab's skeleton in kernels/)"},
    {"--backend", "auto|gpu|emu", OPTION_TEXT, AT(backend), "the GPU, CPU emulation, or the GPU when one is usable (default auto)"},
    {"--seed", "S", OPTION_NUMBER, 0, "replay a run: the seed its report printed"},
    {"--case", "NAME", OPTION_TEXT, AT(case_name), "one case only, by its size as lab.conf writes it (33, 64x32x16)"},
    {"--json", NULL, OPTION_FLAG, AT(json), "the report as JSON on standard output"},
    {"--json-out", "FILE", OPTION_TEXT, AT(json_out), "the JSON report into FILE as well (on every exit path)"},
    {"--summary-out", "FILE", OPTION_TEXT, AT(summary_out), "one summary line (make status, the class grader)"},
    {"--gradescope-out", "FILE", OPTION_TEXT, AT(gradescope_out), "a Gradescope results.json"},
    {"--prairielearn-out", "FILE", OPTION_TEXT, AT(prairielearn_out), "a PrairieLearn results.json"},
    {"--pictures", "DIR", OPTION_TEXT, AT(pictures), "the report's pictures into DIR (gnuplot)"},
    {"--html-out", "FILE", OPTION_TEXT, AT(html_out), "the report as one self-contained HTML page"},
    {"--sanitize", NULL, OPTION_FLAG, AT(sanitize), "every case under compute-sanitizer's memcheck (GPU)"},
    {"--profile", NULL, OPTION_FLAG, AT(profile), "the timed case's traffic measured with Nsight Compute (OP/B)"},
    {"--keep", NULL, OPTION_FLAG, AT(keep), "keep each case's folder (grids, report, log) and print where"},
    {"--fail-fast", NULL, OPTION_FLAG, AT(fail_fast), "stop at the first case that fails"},
    {"--timeout", "S", OPTION_NUMBER, 0, "each case's time limit in seconds (default: lab.conf's)"},
    {"--gpu-lock-dir", "DIR", OPTION_TEXT, AT(gpu_lock_dir), "judges side by side take turns on the GPUs through lock files in DIR"},
    {"--gpu-slots", "N", OPTION_NUMBER, 0, "the GPUs those judges share (with --gpu-lock-dir)"},
    {"--jobs", "N", OPTION_NUMBER, 0, "cases side by side under emulation (default: the CPUs, at most 8)"},
    {"--arch", "sm_XX", OPTION_TEXT, AT(arch), "the GPU architecture to build for (default: detected)"},
    {"--emu-memory", "MB", OPTION_NUMBER, 0, "the memory a student's program may hold under emulation (default: 8192, at most a quarter of the machine's)"},
    {"--kit", "DIR", OPTION_KIT, 0, "the kit's root (default .)"},
    {"--solution", NULL, OPTION_FLAG, AT(solution), "grade the lab's instructor solution (lab.conf's solution) instead of --kernel"},
    {"--conf-get", "KEY", OPTION_TEXT, AT(conf_get), "print the lab.conf value of KEY (title, kernel, solution, timed, points, ...) and exit"},
    {"--help", NULL, OPTION_HELP, 0, "this list"},
};
#undef AT
#define JUDGE_NOPTIONS (sizeof(judge_options) / sizeof(judge_options[0]))

// Prints the options (--help).
static void judge_options_help(void)
{
    printf("usage: judge --lab N [--kernel FILE] [options]   (make check LAB=N runs it for you)\n");
    for (size_t k = 0; k < JUDGE_NOPTIONS; k++) {
        char left[48];
        snprintf(left, sizeof(left), "%s%s%s", judge_options[k].name, judge_options[k].value ? " " : "",
                 judge_options[k].value ? judge_options[k].value : "");
        printf("  %-30s %s\n", left, judge_options[k].help);
    }
    printf("exit status: 0 every case passed, 1 a case failed, 2 the kit could not run, 77 no usable GPU\n");
}

// The table's entry for opt; NULL (err naming every option) if there is none.
static const struct judge_option *judge_options_find(const char *opt, judge_error *err)
{
    char list[600] = "";
    for (size_t k = 0; k < JUDGE_NOPTIONS; k++)
        if (!strcmp(opt, judge_options[k].name))
            return &judge_options[k];
    for (size_t k = 0; k < JUDGE_NOPTIONS; k++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof(list) - used, "%s%s", k ? " " : "", judge_options[k].name);
    }
    judge_error_set(err, JUDGE_EXIT_KIT, NULL, "unknown option '%s' (options: %s; judge --help says what each does)", opt, list);
    return NULL;
}

// Sets the option opt that takes a number from its value v; returns 0, or -1 with err.
static int judge_options_number(judge_args *a, const char *opt, const char *v, judge_error *err)
{
    char *end = NULL;
    if (!strcmp(opt, "--gpu-slots")) {
        a->gpu_slots = (int)strtol(v, &end, 10);
        if (!end || *end || a->gpu_slots < 1 || a->gpu_slots > 64)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "--gpu-slots takes the number of GPUs to share (1 to 64), got '%s'", v);
    } else if (!strcmp(opt, "--emu-memory")) {
        a->emu_memory_mb = strtoull(v, &end, 10);
        if (!end || *end || a->emu_memory_mb < 16 || a->emu_memory_mb > (1ull << 24))
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "--emu-memory takes megabytes (16 to 16777216), got '%s'", v);
    } else if (!strcmp(opt, "--jobs")) {
        a->jobs = (int)strtol(v, &end, 10);
        if (!end || *end || a->jobs < 1 || a->jobs > JUDGE_MAX_JOBS)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "--jobs takes how many cases run side by side (1 to %d), got '%s'", JUDGE_MAX_JOBS, v);
    } else if (!strcmp(opt, "--timeout")) {
        a->timeout_s = strtod(v, NULL);
        if (!(a->timeout_s > 0))
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "TIMEOUT must be a positive number of seconds, got '%s'", v);
    } else if (!strcmp(opt, "--seed")) {
        errno = 0;
        a->seed = strtoull(v, &end, 10);
        if (errno || !end || *end || !isdigit((unsigned char)*v))
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "SEED must be a whole number (as printed by an earlier run), got '%s'", v);
        a->have_seed = 1;
    }
    return 0;
}

// Sets option o (its value v, NULL for a flag) in a; returns 0, or -1 with err.
static int judge_options_set(judge_args *a, const struct judge_option *o, const char *v, judge_error *err)
{
    switch (o->kind) {
    case OPTION_TEXT:
        *(const char **)((char *)a + o->at) = v;
        return 0;
    case OPTION_FLAG:
        *(int *)((char *)a + o->at) = 1;
        return 0;
    case OPTION_KIT:
        snprintf(a->kit, sizeof(a->kit), "%s", v);
        return 0;
    default:
        return judge_options_number(a, o->name, v, err);
    }
}

// What the options leave to be decided once all are read: the lab is
// required, the backend one of three, and --jobs by default the CPUs this
// process may run on (a Slurm task's or a container's share). Returns 0, or -1 with err.
static int judge_options_finish(judge_args *a, judge_error *err)
{
    if (!a->lab)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "which lab? give LAB=<number> (e.g. make check LAB=1)");
    if (strcmp(a->backend, "auto") && strcmp(a->backend, "gpu") && strcmp(a->backend, "emu"))
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "backend must be auto, gpu or emu, not '%s'", a->backend);
    if (a->gpu_lock_dir && !a->gpu_slots)
        a->gpu_slots = 1;
    if (!a->jobs) {
        cpu_set_t set;
        long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
        a->jobs = cpus < 1 ? 1 : cpus < JUDGE_DEFAULT_JOBS ? (int)cpus : JUDGE_DEFAULT_JOBS;
        a->cpus = cpus < 1 ? 1 : (int)cpus;
    } else {
        a->cpus = a->jobs;  // a class or a suite gives each judge its share
    }
    return 0;
}

int judge_options_parse(int argc, char **argv, judge_args *a, judge_error *err)
{
    memset(a, 0, sizeof(*a));
    a->backend = "auto";
    snprintf(a->kit, sizeof(a->kit), ".");
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const struct judge_option *known = judge_options_find(opt, err);
        if (!known)
            return -1;
        if (known->kind == OPTION_HELP) {
            judge_options_help();
            return 1;
        }
        if (known->value && !v)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "option %s needs a value (%s: %s)", opt, known->value, known->help);
        if (judge_options_set(a, known, known->value ? v : NULL, err) != 0)
            return -1;
        i += known->value != NULL;
    }
    return judge_options_finish(a, err);
}

int judge_options_case_selected(const judge_args *a, const lab_case *spec, const char *name)
{
    lab_case want;
    char err[256];
    if (!a->case_name)
        return 1;
    if (!strcmp(a->case_name, name) || (name[0] == 'N' && !strcmp(a->case_name, name + 2)))
        return 1;
    return !strchr(a->case_name, ' ') && conf_parse_case(a->case_name, &want, err, sizeof(err)) == 0 &&
           want.nx == spec->nx && want.ny == spec->ny && want.nz == spec->nz;
}
