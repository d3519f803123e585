// grader/judge/judge_files.h — the judge's own file chores: reading a file
// whole, making a folder and its parents, removing one whole, finding a
// program on PATH.
#ifndef STENCIL_JUDGE_FILES_H
#define STENCIL_JUDGE_FILES_H

#include <stddef.h>

#include "judge_error.h"

// Reads a whole file into a new buffer (NUL-terminated, its length in *len);
// returns NULL if it cannot.
char *judge_read_file(const char *path, size_t *len);

// Creates every folder of path (like mkdir -p); returns 0, or -1 with err.
int judge_mkdirs(const char *path, judge_error *err);

// Removes dir and everything in it (links removed, never followed); what
// cannot be removed is left. Nothing for NULL or "".
void judge_remove_tree(const char *dir);

// 1 if program is on PATH.
int judge_on_path(const char *program);

#endif // STENCIL_JUDGE_FILES_H
