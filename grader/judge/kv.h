// grader/judge/kv.h — the runner's report: key=value lines, read back by the judge.
#ifndef STENCIL_KV_H
#define STENCIL_KV_H

#include <stddef.h>

#define KV_MAX 8192    // lines kept (the launch records can be many)

typedef struct kv_list {
    int n;             // pairs read
    char **key;        // keys, n of them
    char **value;      // values, n of them
} kv_list;

// Reads path into kv. Returns 0, or -1 if it cannot be read (kv is then empty).
// Later duplicates win on lookup.
int kv_load(const char *path, kv_list *kv);

// The value of key, or NULL.
const char *kv_get(const kv_list *kv, const char *key);

// The value of key as a number, or fallback when absent or not a number.
double kv_number(const kv_list *kv, const char *key, double fallback);

// Appends key=value to kv (a list kv_load filled, or an empty one): the
// judge's own facts beside the runner's, winning on lookup as the last line.
// Returns 0, or -1 when out of memory or kv is full.
int kv_add(kv_list *kv, const char *key, const char *value);

// Writes kv to path as key=value lines, as kv_load reads them back (a case
// run in a worker process hands its report to the judge so). Returns 0, or -1.
int kv_save(const char *path, const kv_list *kv);

// Frees what kv_load and kv_add allocated.
void kv_free(kv_list *kv);

#endif // STENCIL_KV_H
