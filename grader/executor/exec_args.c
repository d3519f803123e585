// grader/executor/exec_args.c — the executor's command line and the
// judge's requests, read with no GPU (exec_args.h).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_args.h"
#include "gpu_locks.h"
#include "pipe_io.h"

// Reads FILL_OPTION's seed (hexadecimal) into seed; returns 1, or 0 when malformed.
static int exec_parse_seed(const char *text, uint64_t *seed)
{
    char *end = NULL;
    errno = 0;
    *seed = (uint64_t)strtoull(text, &end, 16);
    return errno == 0 && end != text && *end == '\0';
}

// Reads --gpu-check's unit list ("3,17,200") into units; returns 1, or 0
// when it is malformed or longer than GPU_CHECK_MAX_UNITS.
static int exec_parse_units(const char *text, unsigned *units, int *n)
{
    *n = 0;
    for (const char *p = text; *p;) {
        char *end = NULL;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || *n == GPU_CHECK_MAX_UNITS || v > 1u << 20)
            return 0;
        units[(*n)++] = (unsigned)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    return *n > 0;
}

// What the options read into a must make together (a case, or a serving
// executor's own line); its derived fields filled in, a copied to out.
// 0, or -1 with why.
static int exec_args_whole(exec_args *ap, int (*bc_of)(const char *name), exec_args *out, char *why, size_t len)
{
    exec_args a = *ap;
    int sweep = a.kind == RUNNER_KIND_SWEEP, jacobi = a.kind == RUNNER_KIND_JACOBI;
    a.star_radius = runner_star_radius(a.ncoef, a.filter_radius);
    if (a.pitch == 0)
        a.pitch = a.n[0];
    int heat_ok = a.heat ? a.n[2] == 1 && a.bc == bc_of("dirichlet") && a.pitch % HEAT_PITCH_FLOATS == 0 && a.rate > 0 && a.rate <= 0.25f
                         : a.pitch == a.n[0] && a.n[2] >= 3;
    *out = a;
    if (a.serve)
        return 0;  // its cases come as requests, each parsed as a command line
    protocol_sample_unit unit = protocol_sample_unit_of(a.n[0], a.n[1], a.n[2]);
    for (int q = 0; q < a.nsample; q++)
        if (a.sample[q] >= unit.count || !sweep) {
            snprintf(why, len, "--gpu-check names unit %u of a grid of %llu %s (or a whole solve)", a.sample[q],
                     unit.count, unit.axis == 2 ? "planes" : "rows");
            return -1;
        }
    if (!a.outdir || (!a.probe && (!a.student || (!sweep && !jacobi) || a.n[0] < 1 || a.n[1] < 1 || a.n[2] < 1 ||
                                   (sweep && (a.star_radius < 0 || (a.filter_radius && a.n[2] != 1))) ||
                                   (jacobi && (a.bc < 0 || a.iters < 0 || a.n[0] < 3 || a.n[1] < 3 || a.pitch < a.n[0] || !heat_ok))))) {
        snprintf(why, len, "usage: see grader/executor/exec_args.h (the judge starts this program)");
        return -1;
    }
    return 0;
}

// The options one by one, then what they make together (exec_args_whole).
int exec_args_parse(int argc, char **argv, int (*bc_of)(const char *name), exec_args *out, char *why, size_t len)
{
    exec_args a;
    memset(&a, 0, sizeof(a));
    a.bc = -1;
    a.kind = RUNNER_KIND_SWEEP;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = v != NULL;
        if (!strcmp(o, "--probe")) {
            a.probe = 1;
            continue;
        }
        if (!strcmp(o, "--yardstick")) {
            a.yardstick = 1;
            continue;
        }
        if (!strcmp(o, "--serve")) {
            a.serve = 1;
            continue;
        }
        if (!strcmp(o, LOADS_OPTION)) {
            a.count_loads = 1;
            continue;
        }
        if (!v) ok = 0;
        else if (!strcmp(o, "--outdir")) a.outdir = v;
        else if (!strcmp(o, "--student")) a.student = v;
        else if (!strcmp(o, "--kind")) a.kind = runner_kind_of(v);  // (another name: the usage error below)
        else if (!strcmp(o, "--n")) ok = sscanf(v, "%u", &a.n[0]) == 1, a.n[1] = a.n[2] = a.n[0];
        else if (!strcmp(o, "--size")) ok = sscanf(v, "%u,%u,%u", &a.n[0], &a.n[1], &a.n[2]) == 3;
        else if (!strcmp(o, "--coef")) ok = (a.ncoef = runner_parse_floats(v, a.coef, PROTOCOL_MAX_WEIGHTS)) > 0;
        else if (!strcmp(o, "--radius")) ok = sscanf(v, "%d", &a.filter_radius) == 1 && a.filter_radius >= 1 && a.filter_radius <= CONV_MAX_RADIUS;
        else if (!strcmp(o, "--h")) ok = sscanf(v, "%g", &a.h) == 1;
        else if (!strcmp(o, "--bc")) ok = (a.bc = bc_of(v)) >= 0;
        else if (!strcmp(o, "--iters")) ok = sscanf(v, "%d", &a.iters) == 1;
        else if (!strcmp(o, "--check")) ok = sscanf(v, "%d", &a.check_every) == 1;
        else if (!strcmp(o, "--tol")) ok = sscanf(v, "%g", &a.tol) == 1;
        else if (!strcmp(o, "--time")) ok = sscanf(v, "%d", &a.time_reps) == 1;
        else if (!strcmp(o, "--time-budget")) ok = sscanf(v, "%lg", &a.time_budget_s) == 1 && a.time_budget_s >= 0;
        else if (!strcmp(o, "--update")) ok = a.heat = !strcmp(v, UPDATE_HEAT2D);
        else if (!strcmp(o, "--rate")) ok = sscanf(v, "%g", &a.rate) == 1;
        else if (!strcmp(o, "--pitch")) ok = sscanf(v, "%u", &a.pitch) == 1;
        else if (!strcmp(o, "--accuracy")) ok = sscanf(v, "%lg,%lg", &a.rtol, &a.atol) == 2;
        else if (!strcmp(o, "--log")) a.log = v;
        else if (!strcmp(o, "--gpu-check")) ok = (a.gpu_check = !strcmp(v, GPU_CHECK_SOLVE) || exec_parse_units(v, a.sample, &a.nsample)) == 1;
        else if (!strcmp(o, "--scale")) ok = sscanf(v, "%lg", &a.scale) == 1 && a.scale >= 0;
        else if (!strcmp(o, "--file-bytes")) ok = sscanf(v, "%llu", &a.file_bytes) == 1;
        else if (!strcmp(o, GPU_LOCKS_OPTION)) a.gpu_locks = v;
        else if (!strcmp(o, FILL_OPTION)) ok = a.fill_given = exec_parse_seed(v, &a.fill);
        else ok = 0;
        if (!ok) {
            snprintf(why, len, "unexpected argument '%s' (the judge starts this program; run make check)", o);
            return -1;
        }
        i++;
    }
    return exec_args_whole(&a, bc_of, out, why, len);
}

int exec_args_read_request(int fd, char *block, char **argv)
{
    char head[24];
    size_t used = 0, len = 0;
    while (used + 1 < sizeof(head)) {  // the length's digits, up to the newline
        if (pipe_read_all(fd, head + used, 1) != 0)
            return 0;
        if (head[used] == '\n')
            break;
        used++;
    }
    head[used] = '\0';
    if (sscanf(head, "%zu", &len) != 1 || len == 0 || len > PROTOCOL_SERVE_MAX_BYTES || block == NULL ||
        pipe_read_all(fd, block, len) != 0 || block[len - 1] != '\0')
        return -1;
    int argc = 1;
    for (size_t at = 0; at < len && argc < PROTOCOL_SERVE_MAX_ARGS + 1; at += strlen(block + at) + 1)
        argv[argc++] = block + at;
    argv[argc] = NULL;
    return argc;
}
