// grader/judge/judge_files.c — the judge's own file chores (judge_files.h).
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge.h"
#include "judge_files.h"

// Removes one entry of a tree (nftw callback: its files and links first,
// each folder once emptied).
static int judge_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

void judge_remove_tree(const char *dir)
{
    if (dir && dir[0])
        nftw(dir, judge_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *judge_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

int judge_mkdirs(const char *path, judge_error *err)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot create %s: %s", buf, strerror(errno));
    return 0;
}

int judge_on_path(const char *program)
{
    char path[PATH_MAX + 64];
    const char *dirs = getenv("PATH");
    for (const char *p = dirs ? dirs : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, program);
        if (n && access(path, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}
