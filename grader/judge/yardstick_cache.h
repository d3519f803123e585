// grader/judge/yardstick_cache.h — the lab's solution's speed (the speed
// score's yardstick, `against=solution`), measured once per GPU and kit
// version and kept in the kit's build folder, so a class run and every later
// `make check` reuse it instead of timing the solution again.
#ifndef STENCIL_YARDSTICK_CACHE_H
#define STENCIL_YARDSTICK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define YARDSTICK_CACHE_CASES 64   // lab.conf's cases a file holds figures for (CONF_MAX_CASES at most)

// A key for the figures: FNV-1a over the bytes of every file in files (the
// solution, lab.conf, the executor, the build rules) and every string in
// texts (the GPU's name and versions), each list NULL-terminated; a file
// that cannot be read counts as its path. Any change gives another key.
uint64_t yardstick_cache_key(const char *const files[], const char *const texts[]);

// Reads the figures at path into gbs[0..n): gbs[k] the solution's GB/s on
// lab.conf's case k, 0 where the file has none. Returns how many it read, 0
// when the file is missing or malformed (then gbs is all 0).
int yardstick_cache_load(const char *path, double gbs[], int n);

// Writes the figures gbs[0..n) that are above 0 to path (atomically: a
// temporary file renamed). Returns 0 on success.
int yardstick_cache_save(const char *path, const double gbs[], int n);

#endif // STENCIL_YARDSTICK_CACHE_H
