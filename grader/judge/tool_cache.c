// grader/judge/tool_cache.c — a case's clean runs under a tool, remembered
// for the same built programs (tool_cache.h).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_cache.h"

// The keys the remembered outcome adds to the run's report.
#define TOOL_CACHE_LOADS_COUNTED "tool_cache.loads_counted"
#define TOOL_CACHE_GLOBAL_LOADS "tool_cache.global_loads"
#define TOOL_CACHE_SHARED_LOADS "tool_cache.shared_loads"

// FNV-1a over n bytes, continuing from h.
static uint64_t tool_cache_fnv(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// h continued over the whole file at path; -1 in *failed if it cannot be read.
static uint64_t tool_cache_fnv_file(uint64_t h, const char *path, int *failed)
{
    unsigned char buf[1 << 16];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *failed = -1;
        return h;
    }
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        h = tool_cache_fnv(h, buf, n);
    if (ferror(f))
        *failed = -1;
    fclose(f);
    return h;
}

int tool_cache_path(const char *dir, const char *tool, const lab_conf *conf, const lab_case *spec,
                    const char *const programs[], char *path, size_t len)
{
    char shape[1024];
    int failed = 0, n = snprintf(shape, sizeof(shape), "%s|%s|%s|%s|%s|%s|%d|%.9g|%.9g|%u,%u,%u|%d|%d", tool, conf->runner,
                                 conf->interface, conf->stencil, conf->update, conf->technique, conf->star_radius, conf->rtol,
                                 conf->atol, spec->nx, spec->ny, spec->nz, spec->timed, spec->sync);
    for (int i = 0; i < spec->nopts && n > 0 && (size_t)n < sizeof(shape); i++)
        n += snprintf(shape + n, sizeof(shape) - (size_t)n, "|%s=%s", spec->opt_key[i], spec->opt_value[i]);
    uint64_t h = tool_cache_fnv(14695981039346656037ull, shape, strlen(shape));
    for (int i = 0; programs[i]; i++)
        h = tool_cache_fnv_file(h ^ (uint64_t)(i + 1), programs[i], &failed);
    if (failed)
        return -1;
    snprintf(path, len, "%s/%s-%016llx.kv", dir, tool, (unsigned long long)h);
    return 0;
}

int tool_cache_load(const char *path, case_result *r, kv_list *report)
{
    kv_list rep;
    if (access(path, R_OK) != 0 || kv_load(path, &rep) != 0)
        return 0;
    if (!kv_get(&rep, TOOL_CACHE_LOADS_COUNTED)) {  // not written by tool_cache_save: not believed
        kv_free(&rep);
        return 0;
    }
    r->status = CASE_OK;
    snprintf(r->kind, sizeof(r->kind), "ok");
    r->reason[0] = r->detail[0] = r->hint[0] = '\0';
    r->hint_key = NULL;
    r->loads_counted = (int)kv_number(&rep, TOOL_CACHE_LOADS_COUNTED, 0);
    r->global_loads = kv_number(&rep, TOOL_CACHE_GLOBAL_LOADS, 0);
    r->shared_loads = kv_number(&rep, TOOL_CACHE_SHARED_LOADS, 0);
    *report = rep;
    return 1;
}

int tool_cache_save(const char *path, const case_result *r, const kv_list *report)
{
    char tmp[4200], value[64];
    kv_list kv;
    if (r->status != CASE_OK)
        return 0;
    memset(&kv, 0, sizeof(kv));
    for (int i = 0; i < report->n; i++)
        if (strncmp(report->key[i], "tool_cache.", 11) != 0 && kv_add(&kv, report->key[i], report->value[i]) != 0)
            return kv_free(&kv), -1;
    snprintf(value, sizeof(value), "%d", r->loads_counted);
    int rc = kv_add(&kv, TOOL_CACHE_LOADS_COUNTED, value);
    snprintf(value, sizeof(value), "%.17g", r->global_loads);
    rc |= kv_add(&kv, TOOL_CACHE_GLOBAL_LOADS, value);
    snprintf(value, sizeof(value), "%.17g", r->shared_loads);
    rc |= kv_add(&kv, TOOL_CACHE_SHARED_LOADS, value);
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    rc = rc || kv_save(tmp, &kv) != 0 || rename(tmp, path) != 0 ? -1 : 1;
    if (rc < 0)
        unlink(tmp);
    kv_free(&kv);
    return rc;
}
