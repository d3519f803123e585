// grader/class/grade.h — grading a class: the submissions of one folder, each
// judged by build/judge in a process of its own, results kept per submission
// so a stopped run resumes, gathered into summary.csv and results.jsonl.
#ifndef STENCIL_GRADE_H
#define STENCIL_GRADE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "kv.h"

#define GRADE_MAX_ENTRIES 4096   // submissions in one folder
#define GRADE_MAX_JOBS    64     // judges at once (--jobs)

// Exit statuses of `make grade`.
#define GRADE_EXIT_ALL_GRADED 0  // every submission has a graded row (failing ones included)
#define GRADE_EXIT_UNGRADED   1  // some submission could not be graded (its row says why)
#define GRADE_EXIT_KIT        2  // the class could not be graded at all (bad folder, lab, options)
#define GRADE_EXIT_STOPPED    130 // stopped by a signal; what finished is kept

// One entry of the submissions folder.
typedef struct grade_entry {
    char name[256];              // the entry's name as it is in the folder
    char id[320];                // a unique id made of safe characters: result file names, the CSV's id column
    char kernel[PATH_MAX];       // the kernel file to judge ("" when rejected)
    char reject[512];            // why it cannot be judged ("" when it can)
    uint64_t content_hash;       // FNV-1a of the kernel file's bytes (0 when unreadable or rejected)
} grade_entry;

// One class run: what the options and the saved run (grade.meta) say.
typedef struct grade_run {
    char kit[PATH_MAX];          // the kit's root
    char lab[64];                // the lab, as given (number or folder)
    char lab_name[128];          // NN-name
    char skeleton[256];          // the lab's kernel file name (a folder submission may hold it)
    char submissions[PATH_MAX];  // the submissions folder, absolute
    char out[PATH_MAX];          // the results folder
    char backend[8];             // auto, gpu or emu
    uint64_t seed;               // one seed for the whole class
    int jobs;                    // judges at once
    int judge_jobs;              // cases side by side in each judge (its --jobs): the CPUs shared among the judges
    int gpus;                    // GPUs the judges share (one timed run per GPU at a time)
    double wall_s;               // a submission's wall-clock limit
    int fail_fast;               // 1: each judge stops at its first failing case
    double lab_max;              // what the lab's rubric is worth (a row that could not be judged earns 0 of it)
    int nentries;                // entries found
    grade_entry *entries;        // GRADE_MAX_ENTRIES of them
} grade_run;

// Loads entry e's summary into kv (kv_free it): a row that could not be
// graded (rejected, an error) reads the maximum a graded row of the class
// reads (on emulation speed is not counted: 0 of 9, not 0 of 10, beside 9 of
// 9). Returns 0, or -1 when it has no result yet.
int grade_load_row(const grade_run *run, const grade_entry *e, kv_list *kv);

// Writes OUT/class.html (grade_dashboard.c): the class on one self-contained
// page (the score histogram, speed against the copy limit, the technique's
// pass rate, the hints ranked, a row a submission linking its own report).
// Returns 0, or -1 with the reason in err.
int grade_write_dashboard(const grade_run *run, char *err, size_t len);

// What fills a file the class run writes whole: f's contents from ctx.
typedef void grade_fill(FILE *f, const void *ctx);

// Writes a file whole: fill writes into tmp, which then takes path's place,
// so a reader never meets half a file. Returns 0, or -1 (tmp removed, errno
// saying why).
int grade_write_whole(const char *tmp, const char *path, grade_fill *fill, const void *ctx);

// grade_write_whole through path's sibling path.tmp. Returns 0, or -1 with
// "cannot write PATH: reason" in err.
int grade_write_beside(const char *path, grade_fill *fill, const void *ctx, char *err, size_t len);

// Fills run->entries from the submissions folder (sorted by name, hidden
// entries skipped). Returns 0, or -1 with the reason in err.
int grade_find_entries(grade_run *run, char *err, size_t len);

// The paths of entry e's result files: ext is "kv", "json" or "txt".
void grade_result_path(const grade_run *run, const grade_entry *e, const char *ext, int tmp, char *path, size_t len);

// The stages of the rows the class grader writes itself when the judge gave
// no report (grade_write_own_result): past the wall limit, or the judge
// ended without one.
#define GRADE_STAGE_WALL "wall-limit"
#define GRADE_STAGE_JUDGE "judge"

// 1 if entry e already has a complete result for its current content (with
// this seed) to keep; a row of the kit's error the judge reported itself
// (status error, another stage than the two above: its load count's
// counters busy, say) is none, so the next run grades it again.
int grade_has_result(const grade_run *run, const grade_entry *e);

// Writes e's result files for a submission that cannot be judged (reject),
// or that the judge left without a report (status error, message why).
// Returns 0 or -1.
int grade_write_own_result(const grade_run *run, const grade_entry *e, const char *status, const char *stage, const char *message,
                           double wall_s);

// Moves e's temporary result files into place, the summary last (it marks
// the result complete), adding the envelope keys. Returns 0 or -1.
int grade_commit_result(const grade_run *run, const grade_entry *e, double wall_s);

// Writes summary.csv and results.jsonl from the results of every entry,
// each atomically. Returns 0 or -1 with err.
int grade_write_tables(const grade_run *run, char *err, size_t len);

// Prints the class table on stdout and the submissions not graded, with why.
// Returns how many were not graded.
int grade_print_table(const grade_run *run);

// Grades entry index of the saved plan in out (a Slurm array task). Returns
// an exit status.
int grade_task(const char *out, int index);

// Submits the entries without a result (the caller has some) as one Slurm
// job array and waits for it (sbatch --wait); returns 0 or -1 with err.
int grade_slurm(const grade_run *run, char *err, size_t len);

// Runs the judge on entry e and commits its result; used by the workers and
// the Slurm tasks. lock_dir: GPU lock files (NULL: none). Returns 0 or -1.
int grade_judge_entry(const grade_run *run, const grade_entry *e, const char *lock_dir);

// Saves run's parameters (grade.meta) and the plan of entries (plan.tsv) in out.
int grade_save_plan(const grade_run *run, char *err, size_t len);

// Loads a run saved by grade_save_plan from out (its entries too, unless
// run->entries is NULL). Returns 0 or -1 with err.
int grade_load_plan(const char *out, grade_run *run, char *err, size_t len);

#endif // STENCIL_GRADE_H
