// grader/judge/report_files.c — the report's files (report_files.h).
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge_files.h"
#include "report.h"
#include "report_files.h"
#include "report_html.h"
#include "report_platform.h"

// The lab's rendered handout (build/handouts/<lab>.html, from make handouts)
// as a path relative to the folder of page, into buf; NULL when it is not
// rendered (or the page's folder cannot be resolved).
static const char *report_files_handout_href(const char *kit, const char *page, const judge_run *run, char *buf, size_t len)
{
    char target[PATH_MAX + 64], dir[PATH_MAX], here[PATH_MAX];
    snprintf(target, sizeof(target), "%s/build/handouts/%s.html", kit, run->lab_name);
    snprintf(dir, sizeof(dir), "%s", page);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), ".");
    if (!run->lab_name[0] || access(target, R_OK) != 0 || !realpath(dir, here))
        return NULL;
    char real[PATH_MAX];
    if (!realpath(target, real))
        return NULL;
    // The folders here and real share, then a "../" for each folder of here past them, then the rest of real.
    char *h[PATH_MAX / 2], *r[PATH_MAX / 2], *save = NULL;
    int nh = 0, nr = 0, common = 0;
    for (char *t = strtok_r(here, "/", &save); t && nh < PATH_MAX / 2; t = strtok_r(NULL, "/", &save))
        h[nh++] = t;
    for (char *t = strtok_r(real, "/", &save); t && nr < PATH_MAX / 2; t = strtok_r(NULL, "/", &save))
        r[nr++] = t;
    while (common < nh && common < nr - 1 && !strcmp(h[common], r[common]))
        common++;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = common; i < nh && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "../");
    for (int i = common; i < nr && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", r[i], i + 1 < nr ? "/" : "");
    return used < len ? buf : NULL;
}

// Writes the HTML page to f, linking the rendered handout (and quoting it) when there is one.
static void report_files_html(const char *kit, const char *page, const judge_run *run, FILE *f)
{
    char href[PATH_MAX], path[PATH_MAX + 64];
    size_t len = 0;
    report_handout handout = {report_files_handout_href(kit, page, run, href, sizeof(href)), NULL};
    snprintf(path, sizeof(path), "%s/build/handouts/%s.html", kit, run->lab_name);
    handout.text = handout.href ? judge_read_file(path, &len) : NULL;
    report_html(run, &handout, f);
    free((char *)handout.text);
}

int report_files_write(const judge_args *a, judge_run *run, judge_error *err)
{
    static const char *what[5] = {"JSON report", "summary", "Gradescope results", "PrairieLearn results", "HTML report"};
    const char *paths[5] = {a->json_out, a->summary_out, a->gradescope_out, a->prairielearn_out, a->html_out};
    report_score(run);
    for (int i = 0; i < 5; i++) {
        if (!paths[i])
            continue;
        FILE *f = fopen(paths[i], "w");
        if (!f)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot write the %s %s: %s", what[i], paths[i], strerror(errno));
        if (i == 0)
            report_json(run, f);
        else if (i == 1)
            report_summary(run, f);
        else if (i == 2)
            report_gradescope(run, f);
        else if (i == 3)
            report_prairielearn(run, f);
        else
            report_files_html(a->kit, paths[i], run, f);
        if (fclose(f) != 0)
            return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot write the %s %s: %s", what[i], paths[i], strerror(errno));
    }
    return 0;
}

int report_files_save_status(const judge_args *a, const judge_run *run, judge_error *err)
{
    char dir[PATH_MAX], path[PATH_MAX + 160];
    snprintf(dir, sizeof(dir), "%s/build/status", a->kit);
    if (judge_mkdirs(dir, err) != 0)
        return -1;
    snprintf(path, sizeof(path), "%s/%s.json", dir, run->lab_name);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;  // status is a convenience: a check is never failed for it
    report_json(run, f);
    fclose(f);
    // and as key=value lines (summary_keys.h), which make status reads with the shell alone
    snprintf(path, sizeof(path), "%s/%s.summary", dir, run->lab_name);
    if ((f = fopen(path, "w"))) {
        report_summary(run, f);
        fclose(f);
    }
    return 0;
}
