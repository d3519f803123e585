// grader/judge/lab_kind.c — the table of lab kinds and its lookups (see lab_kind.h).
#include "lab_kind.h"

#include <stdio.h>
#include <string.h>

#include "judge_case.h"
#include "judge_jacobi.h"

// The runners, each: its name, the lab.conf key that picks among its kinds,
// how a case runs and is judged, and the reference a timed case may have made
// ahead. The sweep runner's kinds (a star's sweep, lab 0's convolution) run a
// case as a launch of the student's function (judge_case.c), nothing made
// ahead; the jacobi runner's as a whole solve (judge_jacobi.c).
const lab_runner lab_runner_sweep = {RUNNER_SWEEP, "interface", judge_run_case, lab_kind_none_ahead, lab_kind_make_none};
const lab_runner lab_runner_jacobi = {RUNNER_JACOBI, "update", jacobi_run_case, jacobi_early_bytes, jacobi_early_make};

// Every kind, in the order lab.conf's errors list the runners and values.
static const lab_kind *const lab_kinds[] = {
    &lab_kind_sweep_cube, &lab_kind_sweep_grid, &lab_kind_convolution, &lab_kind_jacobi, &lab_kind_heat,
};

const lab_kind *lab_kind_at(int i)
{
    return i >= 0 && i < (int)(sizeof(lab_kinds) / sizeof(lab_kinds[0])) ? lab_kinds[i] : NULL;
}

const lab_kind *lab_kind_of(const lab_conf *c)
{
    char value[CONF_TEXT];
    for (int i = 0; lab_kind_at(i); i++) {
        const lab_kind *k = lab_kinds[i];
        if (strcmp(k->runner->name, c->runner) != 0 || conf_get(c, k->runner->key, value, sizeof(value)) != 0)
            continue;
        if (!strcmp(value, k->value) || (!value[0] && k->is_default))
            return k;
    }
    return NULL;
}

int lab_kind_runner_takes(const char *runner, const char *key)
{
    for (int i = 0; lab_kind_at(i); i++)
        if (!strcmp(lab_kinds[i]->runner->name, runner) && !strcmp(lab_kinds[i]->runner->key, key))
            return 1;
    return 0;
}

const char *lab_kind_default_value(const char *key)
{
    for (int i = 0; lab_kind_at(i); i++)
        if (lab_kinds[i]->is_default && !strcmp(lab_kinds[i]->runner->key, key))
            return lab_kinds[i]->value;
    return "";
}

void lab_kind_values(const char *key, const char **list, int cap)
{
    int n = 0, runners = !strcmp(key, "runner");
    for (int i = 0; lab_kind_at(i) && n < cap - 1; i++) {
        const char *v = runners ? lab_kinds[i]->runner->name : lab_kinds[i]->value;
        int seen = !runners && strcmp(lab_kinds[i]->runner->key, key) != 0;
        for (int q = 0; q < n && !seen; q++)
            seen = !strcmp(list[q], v);
        if (!seen)
            list[n++] = v;
    }
    list[n] = NULL;
}

const char *lab_kind_probe(const lab_conf *c, char *out, size_t len)
{
    const lab_kind *k = lab_kind_of(c);
    const char *header = k && c->star_radius == 2 && k->probe.header_star13 ? k->probe.header_star13 : k ? k->probe.header : NULL;
    int n = header ? snprintf(out, len, "#include \"%s\"\n%s\n", header, k->probe.entry) : -1;
    if ((n < 0 || (size_t)n >= len) && len > 0)
        out[0] = '\0';
    return out;
}

int lab_kind_any_case(const lab_conf *c, const lab_case *lc, char *err, size_t errlen)
{
    (void)c, (void)lc, (void)err, (void)errlen;
    return 0;
}

int lab_kind_no_filter(const lab_case *lc)
{
    (void)lc;
    return 0;
}

int lab_kind_no_sized_cases(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap)
{
    (void)c, (void)block, (void)out, (void)cap;
    return 0;
}

const lab_case *lab_kind_sized_cap(const lab_conf *c)
{
    const lab_case *most = NULL;
    for (int i = 0; i < c->ncases; i++)
        if (!c->cases[i].noemu && !c->cases[i].timed && !c->cases[i].sized_tile && c->cases[i].nx <= LAB_SIZED_SIDE_MAX &&
            (!most || c->cases[i].nx > most->nx))
            most = &c->cases[i];
    return most;
}

int lab_kind_sized_cases(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap)
{
    const lab_kind *k = lab_kind_of(c);
    return k ? k->sized_cases(c, block, out, cap) : 0;
}

size_t lab_kind_none_ahead(const lab_conf *c, const lab_case *spec)
{
    (void)c, (void)spec;
    return 0;
}

void lab_kind_make_none(const lab_conf *c, const lab_case *spec, uint64_t seed, void *mem, size_t bytes)
{
    (void)c, (void)spec, (void)seed, (void)mem, (void)bytes;
}
