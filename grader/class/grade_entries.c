// grader/class/grade_entries.c — a class's submissions and their result
// files: which entries there are, their ids, the saved plan, and writing
// results so that a result on disk is always whole (see grade.h).
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "json_write.h"
#include "kv.h"
#include "protocol.h"
#include "summary_keys.h"

// ---------------------------------------------------------------------------
// Small tools
// ---------------------------------------------------------------------------

// FNV-1a over n bytes, continuing from h.
static uint64_t grade_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// The FNV-1a hash of a file's bytes; 0 if it cannot be read.
static uint64_t grade_hash_file(const char *path)
{
    unsigned char buf[65536];
    uint64_t h = 1469598103934665603ull;
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        h = grade_fnv(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    return bad ? 0 : (h ? h : 1);
}

// Writes s as hex into out (a plan field may hold any byte of a file name).
static void grade_hex(const char *s, char *out, size_t len)
{
    size_t n = 0;
    for (; *s && n + 3 < len; s++)
        n += (size_t)snprintf(out + n, len - n, "%02x", (unsigned char)*s);
    out[n] = '\0';
    if (n == 0 && len > 1)
        snprintf(out, len, "-");
}

// Reads hex back into out.
static void grade_unhex(const char *hex, char *out, size_t len)
{
    size_t n = 0;
    if (!strcmp(hex, "-"))
        hex = "";
    for (; isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]) && n + 1 < len; hex += 2) {
        char pair[3] = {hex[0], hex[1], 0};
        out[n++] = (char)strtol(pair, NULL, 16);
    }
    out[n] = '\0';
}

// An id for a name: its safe characters, then 8 hex digits of its hash, so
// "alice.cu" and "alice/" and names that differ only in unsafe characters
// never share result files.
static void grade_make_id(const char *name, char *id, size_t len)
{
    char safe[200];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof(safe); p++)
        safe[n++] = (isalnum((unsigned char)*p) || *p == '.' || *p == '-' || *p == '_') ? *p : '_';
    safe[n] = '\0';
    uint64_t h = grade_fnv(1469598103934665603ull, name, strlen(name));
    snprintf(id, len, "%s-%08x", safe[0] == '.' ? safe + 1 : safe, (unsigned)(h & 0xffffffffu));
}

// 1 if name ends with suffix.
static int grade_ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    return n >= m && !strcmp(name + n - m, suffix);
}

// ---------------------------------------------------------------------------
// The entries
// ---------------------------------------------------------------------------

// Finds the kernel file of a folder submission: the lab's skeleton name, or
// its only .cu file. Fills e->kernel, or e->reject with why not.
static void grade_folder_kernel(const grade_run *run, const char *dir, grade_entry *e)
{
    char path[PATH_MAX], found[2][256];
    struct stat st;
    int n = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, run->skeleton);
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(e->kernel, sizeof(e->kernel), "%s", path);
        return;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(e->reject, sizeof(e->reject), "the folder cannot be read: %s", strerror(errno));
        return;
    }
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        if (de->d_name[0] == '.' || !grade_ends_with(de->d_name, ".cu") || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n < 2)
            snprintf(found[n], sizeof(found[n]), "%s", de->d_name);
        n++;
    }
    closedir(d);
    if (n == 1)
        snprintf(e->kernel, sizeof(e->kernel), "%s/%s", dir, found[0]);
    else if (n == 0)
        snprintf(e->reject, sizeof(e->reject), "the folder holds no .cu file (expected %s)", run->skeleton);
    else
        snprintf(e->reject, sizeof(e->reject), "the folder holds %d .cu files (%s, %s%s) and none is named %s: keep one, or name the one to grade %s",
                 n, found[0], found[1], n > 2 ? ", ..." : "", run->skeleton, run->skeleton);
}

// Classifies one folder entry into e: a .cu file, a folder, or a rejection.
static void grade_classify(const grade_run *run, const char *name, grade_entry *e)
{
    char path[PATH_MAX];
    struct stat st;
    memset(e, 0, sizeof(*e));
    snprintf(e->name, sizeof(e->name), "%s", name);
    grade_make_id(name, e->id, sizeof(e->id));
    snprintf(path, sizeof(path), "%s/%s", run->submissions, name);
    if (lstat(path, &st) != 0)
        snprintf(e->reject, sizeof(e->reject), "cannot be read: %s", strerror(errno));
    else if (S_ISLNK(st.st_mode))
        snprintf(e->reject, sizeof(e->reject), "a symbolic link: put the file or folder itself in the submissions folder");
    else if (S_ISDIR(st.st_mode))
        grade_folder_kernel(run, path, e);
    else if (S_ISREG(st.st_mode) && grade_ends_with(name, ".cu"))
        snprintf(e->kernel, sizeof(e->kernel), "%s", path);
    else
        snprintf(e->reject, sizeof(e->reject), "not a .cu file or a folder: a submission is a kernel file or a folder holding one");
    struct stat kst;
    if (e->kernel[0] && stat(e->kernel, &kst) == 0 && kst.st_size > (off_t)KERNEL_FILE_MAX_BYTES) {
        snprintf(e->reject, sizeof(e->reject), "the kernel file is %lld bytes: a kernel file is at most %u bytes",
                 (long long)kst.st_size, KERNEL_FILE_MAX_BYTES);
        e->kernel[0] = '\0';  // not read, not hashed
    }
    if (e->kernel[0]) {
        e->content_hash = grade_hash_file(e->kernel);
        if (access(e->kernel, R_OK) != 0)  // the judge says so in its report: an error row, not a rejection
            e->content_hash = 0;
    }
}

int grade_find_entries(grade_run *run, char *err, size_t len)
{
    struct dirent **names = NULL;
    int n = scandir(run->submissions, &names, NULL, alphasort), too_many = 0;
    if (n < 0) {
        snprintf(err, len, "cannot read the submissions folder %s: %s", run->submissions, strerror(errno));
        return -1;
    }
    run->nentries = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            if (run->nentries < GRADE_MAX_ENTRIES)
                grade_classify(run, names[i]->d_name, &run->entries[run->nentries++]);
            else
                too_many = 1;
        }
        free(names[i]);
    }
    free(names);
    if (too_many)
        snprintf(err, len, "more than %d entries in %s: grade them in several folders", GRADE_MAX_ENTRIES, run->submissions);
    return too_many ? -1 : 0;
}

// ---------------------------------------------------------------------------
// Result files
// ---------------------------------------------------------------------------

void grade_result_path(const grade_run *run, const grade_entry *e, const char *ext, int tmp, char *path, size_t len)
{
    snprintf(path, len, "%s/results/%s%s.%s", run->out, tmp ? ".tmp-" : "", e->id, ext);
}

int grade_has_result(const grade_run *run, const grade_entry *e)
{
    char path[PATH_MAX], want[32];
    kv_list kv;
    if (e->reject[0])  // cheap to redo, and the folder may have changed
        return 0;
    grade_result_path(run, e, "kv", 0, path, sizeof(path));
    if (kv_load(path, &kv) != 0)
        return 0;
    snprintf(want, sizeof(want), "%016llx", (unsigned long long)e->content_hash);
    const char *have = kv_get(&kv, "content_hash"), *seed = kv_get(&kv, "seed");
    const char *status = kv_get(&kv, "status"), *stage = kv_get(&kv, "stage");
    int ok = have && !strcmp(have, want) && seed && strtoull(seed, NULL, 10) == run->seed;
    if (status && !strcmp(status, SUMMARY_ERROR) && !(stage && (!strcmp(stage, GRADE_STAGE_WALL) || !strcmp(stage, GRADE_STAGE_JUDGE))))
        ok = 0;  // the kit's error, said by the judge: graded again
    kv_free(&kv);
    return ok;
}

// Writes one key=value line, newlines in the value folded into spaces.
static void grade_kv_line(FILE *f, const char *key, const char *value)
{
    fprintf(f, "%s=", key);
    for (const char *p = value; *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
    fputc('\n', f);
}

// Writes the envelope keys of e's result (who, which file, which content).
static void grade_envelope(FILE *f, const grade_run *run, const grade_entry *e, double wall_s)
{
    char num[64];
    grade_kv_line(f, "id", e->id);
    grade_kv_line(f, "submission", e->name);
    grade_kv_line(f, "kernel", e->kernel);
    snprintf(num, sizeof(num), "%016llx", (unsigned long long)e->content_hash);
    grade_kv_line(f, "content_hash", num);
    snprintf(num, sizeof(num), "%llu", (unsigned long long)run->seed);
    grade_kv_line(f, "seed", num);
    snprintf(num, sizeof(num), "%.1f", wall_s);
    grade_kv_line(f, "wall_s", num);
}

// Moves e's temporary result file of extension ext into place; returns 0 or -1.
static int grade_move_result(const grade_run *run, const grade_entry *e, const char *ext)
{
    char tmp[PATH_MAX], final[PATH_MAX];
    grade_result_path(run, e, ext, 1, tmp, sizeof(tmp));
    grade_result_path(run, e, ext, 0, final, sizeof(final));
    return rename(tmp, final) == 0 ? 0 : -1;
}

// A result the class grader writes itself: a row the judge did not give.
typedef struct grade_own_result {
    const grade_run *run;        // the class
    const grade_entry *e;        // the submission
    const char *status;          // summary_keys.h's status (rejected, error)
    const char *stage;           // where it stopped (build, judge, ...)
    const char *message;         // why, in one line
    char max[32];                // the lab's maximum score, as the row shows it
    double wall_s;               // how long the submission took
} grade_own_result;

// Fills the JSON report: the judge's fields that a reader of results.jsonl needs.
static void grade_own_json(FILE *f, const void *ctx)
{
    const grade_own_result *o = ctx;
    fprintf(f, "{\"status\": ");
    json_write_to(f), json_string(o->status);
    fprintf(f, ", \"stage\": ");
    json_string(o->stage);
    fprintf(f, ", \"message\": ");
    json_string(o->message);
    fprintf(f, ", \"verdict\": \"error\", \"score\": {\"points\": 0, \"max\": %s, \"lab_max\": %s, \"items\": []}, \"cases\": []}\n", o->max, o->max);
}

// Fills the text report: the submission's name and why, made printable.
static void grade_own_text(FILE *f, const void *ctx)
{
    const grade_own_result *o = ctx;
    char shown_name[sizeof(o->e->name)], shown_message[1024];
    fprintf(f, "%s: %s\n", protocol_printable_copy(shown_name, sizeof(shown_name), o->e->name),
            protocol_printable_copy(shown_message, sizeof(shown_message), o->message));
}

// Fills the summary: the envelope, every summary key empty, then the row's own.
static void grade_own_summary(FILE *f, const void *ctx)
{
    const grade_own_result *o = ctx;
    grade_envelope(f, o->run, o->e, o->wall_s);
#define GRADE_EMPTY_KEY(key, type, what) grade_kv_line(f, #key, "");
    SUMMARY_KEYS(GRADE_EMPTY_KEY)
#undef GRADE_EMPTY_KEY
    grade_kv_line(f, "status", o->status);  // later lines win when read back
    grade_kv_line(f, "verdict", "error");
    grade_kv_line(f, "score", "0");
    grade_kv_line(f, "max_score", o->max);
    grade_kv_line(f, "lab_max_score", o->max);
    grade_kv_line(f, "stage", o->stage);
    grade_kv_line(f, "exit", "2");
    grade_kv_line(f, "message", o->message);
}

// Writes o's result file of extension ext whole, through its temporary name.
static int grade_own_file(const grade_own_result *o, const char *ext, grade_fill *fill)
{
    char tmp[PATH_MAX], final[PATH_MAX];
    grade_result_path(o->run, o->e, ext, 1, tmp, sizeof(tmp));
    grade_result_path(o->run, o->e, ext, 0, final, sizeof(final));
    return grade_write_whole(tmp, final, fill, o);
}

int grade_write_own_result(const grade_run *run, const grade_entry *e, const char *status, const char *stage, const char *message,
                           double wall_s)
{
    grade_own_result o = {run, e, status, stage, message, "", wall_s};
    char stale[PATH_MAX];
    snprintf(o.max, sizeof(o.max), "%.4g", run->lab_max);
    grade_result_path(run, e, "html", 1, stale, sizeof(stale));  // no judge's report stands for this row (a stopped judge's, an old one)
    unlink(stale);
    grade_result_path(run, e, "html", 0, stale, sizeof(stale));
    unlink(stale);
    if (grade_own_file(&o, "json", grade_own_json) != 0 || grade_own_file(&o, "txt", grade_own_text) != 0)
        return -1;
    return grade_own_file(&o, "kv", grade_own_summary);  // the summary, last: it marks the result whole
}

// What grade_commit_result's summary is made of: the envelope's facts and the judge's summary.
typedef struct grade_judged {
    const grade_run *run;        // the class
    const grade_entry *e;        // the submission
    double wall_s;               // how long it took
    FILE *summary;               // the judge's summary, open for reading
} grade_judged;

// Fills the summary: the envelope, then the judge's lines.
static void grade_judged_summary(FILE *f, const void *ctx)
{
    const grade_judged *j = ctx;
    char line[4096];
    grade_envelope(f, j->run, j->e, j->wall_s);
    while (fgets(line, sizeof(line), j->summary))
        fputs(line, f);
}

int grade_commit_result(const grade_run *run, const grade_entry *e, double wall_s)
{
    char tmp[PATH_MAX], final[PATH_MAX], judged[PATH_MAX];
    if (grade_move_result(run, e, "json") != 0 || grade_move_result(run, e, "txt") != 0)
        return -1;
    grade_result_path(run, e, "html", 1, tmp, sizeof(tmp));  // the HTML report, when the judge got as far as writing it
    grade_result_path(run, e, "html", 0, final, sizeof(final));
    if (access(tmp, F_OK) == 0 ? rename(tmp, final) != 0 : (unlink(final), 0))
        return -1;
    // The judge's summary, behind the envelope, into a new file renamed last.
    grade_judged j = {run, e, wall_s, NULL};
    grade_result_path(run, e, "summary", 1, judged, sizeof(judged));
    if (!(j.summary = fopen(judged, "r")))
        return -1;
    grade_result_path(run, e, "kv", 1, tmp, sizeof(tmp));
    grade_result_path(run, e, "kv", 0, final, sizeof(final));
    int rc = grade_write_whole(tmp, final, grade_judged_summary, &j);
    fclose(j.summary);
    unlink(judged);
    return rc;
}

// ---------------------------------------------------------------------------
// The saved plan (grade.meta, plan.tsv): what a resumed run or a Slurm task reads
// ---------------------------------------------------------------------------

// Fills grade.meta: the run's parameters.
static void grade_plan_meta(FILE *f, const void *ctx)
{
    const grade_run *run = ctx;
    char hex[3 * PATH_MAX];
    grade_hex(run->kit, hex, sizeof(hex));
    fprintf(f, "kit=%s\n", hex);
    grade_hex(run->submissions, hex, sizeof(hex));
    fprintf(f, "submissions=%s\n", hex);
    fprintf(f, "lab=%s\nlab_name=%s\nskeleton=%s\nbackend=%s\nseed=%llu\nwall_s=%g\nfail_fast=%d\nlab_max=%g\n", run->lab,
            run->lab_name, run->skeleton, run->backend, (unsigned long long)run->seed, run->wall_s, run->fail_fast, run->lab_max);
}

// Fills plan.tsv: a line an entry.
static void grade_plan_entries(FILE *f, const void *ctx)
{
    const grade_run *run = ctx;
    for (int i = 0; i < run->nentries; i++) {
        const grade_entry *e = &run->entries[i];
        char name[600], kernel[3 * PATH_MAX], reject[1200];
        grade_hex(e->name, name, sizeof(name));
        grade_hex(e->kernel, kernel, sizeof(kernel));
        grade_hex(e->reject, reject, sizeof(reject));
        fprintf(f, "%d\t%s\t%s\t%s\t%s\t%016llx\n", i, e->id, name, kernel, reject, (unsigned long long)e->content_hash);
    }
}

int grade_save_plan(const grade_run *run, char *err, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/grade.meta", run->out);
    if (grade_write_beside(path, grade_plan_meta, run, err, len) != 0)
        return -1;
    snprintf(path, sizeof(path), "%s/plan.tsv", run->out);
    return grade_write_beside(path, grade_plan_entries, run, err, len);
}

int grade_load_plan(const char *out, grade_run *run, char *err, size_t len)
{
    char path[PATH_MAX], line[4 * PATH_MAX];
    kv_list kv;
    snprintf(path, sizeof(path), "%s/grade.meta", out);
    if (kv_load(path, &kv) != 0) {
        snprintf(err, len, "%s is missing: not a results folder of make grade", path);
        return -1;
    }
    snprintf(run->out, sizeof(run->out), "%s", out);
    grade_unhex(kv_get(&kv, "kit") ? kv_get(&kv, "kit") : "", run->kit, sizeof(run->kit));
    grade_unhex(kv_get(&kv, "submissions") ? kv_get(&kv, "submissions") : "", run->submissions, sizeof(run->submissions));
    snprintf(run->lab, sizeof(run->lab), "%s", kv_get(&kv, "lab") ? kv_get(&kv, "lab") : "");
    snprintf(run->lab_name, sizeof(run->lab_name), "%s", kv_get(&kv, "lab_name") ? kv_get(&kv, "lab_name") : "");
    snprintf(run->skeleton, sizeof(run->skeleton), "%s", kv_get(&kv, "skeleton") ? kv_get(&kv, "skeleton") : "");
    snprintf(run->backend, sizeof(run->backend), "%s", kv_get(&kv, "backend") ? kv_get(&kv, "backend") : "auto");
    run->seed = strtoull(kv_get(&kv, "seed") ? kv_get(&kv, "seed") : "0", NULL, 10);
    run->wall_s = kv_number(&kv, "wall_s", 1800);
    run->fail_fast = (int)kv_number(&kv, "fail_fast", 0);
    run->lab_max = kv_number(&kv, "lab_max", 0);
    kv_free(&kv);
    if (!run->entries)  // the parameters only
        return 0;
    snprintf(path, sizeof(path), "%s/plan.tsv", out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, len, "%s is missing: not a results folder of make grade", path);
        return -1;
    }
    run->nentries = 0;
    while (run->nentries < GRADE_MAX_ENTRIES && fgets(line, sizeof(line), f)) {
        char *field[6], *save = NULL;
        int n = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *tok = strtok_r(line, "\t", &save); tok && n < 6; tok = strtok_r(NULL, "\t", &save))
            field[n++] = tok;
        if (n != 6)
            continue;
        grade_entry *e = &run->entries[run->nentries++];
        memset(e, 0, sizeof(*e));
        snprintf(e->id, sizeof(e->id), "%s", field[1]);
        grade_unhex(field[2], e->name, sizeof(e->name));
        grade_unhex(field[3], e->kernel, sizeof(e->kernel));
        grade_unhex(field[4], e->reject, sizeof(e->reject));
        e->content_hash = strtoull(field[5], NULL, 16);
    }
    fclose(f);
    return 0;
}
