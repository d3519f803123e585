// grader/judge/kv.c — see kv.h.
#include "kv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kv_load(const char *path, kv_list *kv)
{
    char line[2048];
    FILE *f = fopen(path, "r");
    memset(kv, 0, sizeof(*kv));
    if (!f)
        return -1;
    kv->key = calloc(KV_MAX, sizeof(char *));
    kv->value = calloc(KV_MAX, sizeof(char *));
    if (!kv->key || !kv->value) {
        fclose(f);
        kv_free(kv);
        return -1;
    }
    while (kv->n < KV_MAX && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq || eq == line)
            continue;
        *eq = '\0';
        kv->key[kv->n] = strdup(line);
        kv->value[kv->n] = strdup(eq + 1);
        if (!kv->key[kv->n] || !kv->value[kv->n])
            break;
        kv->n++;
    }
    fclose(f);
    return 0;
}

int kv_add(kv_list *kv, const char *key, const char *value)
{
    if (!kv->key)
        kv->key = calloc(KV_MAX, sizeof(char *));
    if (!kv->value)
        kv->value = calloc(KV_MAX, sizeof(char *));
    if (!kv->key || !kv->value || kv->n >= KV_MAX)
        return -1;
    char *k = strdup(key), *v = strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    kv->key[kv->n] = k;
    kv->value[kv->n] = v;
    kv->n++;
    return 0;
}

const char *kv_get(const kv_list *kv, const char *key)
{
    for (int i = kv->n - 1; i >= 0; i--)
        if (!strcmp(kv->key[i], key))
            return kv->value[i];
    return NULL;
}

double kv_number(const kv_list *kv, const char *key, double fallback)
{
    const char *v = kv_get(kv, key);
    char *end = NULL;
    if (!v)
        return fallback;
    double d = strtod(v, &end);
    return end == v ? fallback : d;
}

int kv_save(const char *path, const kv_list *kv)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = 1;
    for (int i = 0; i < kv->n; i++)
        ok &= fprintf(f, "%s=%s\n", kv->key[i], kv->value[i]) > 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

void kv_free(kv_list *kv)
{
    for (int i = 0; i < kv->n; i++) {
        free(kv->key[i]);
        free(kv->value[i]);
    }
    free(kv->key);
    free(kv->value);
    memset(kv, 0, sizeof(*kv));
}
