// grader/judge/judge_options.h — the judge's command line: every option once
// (its name, its value, its help line), read into judge_args.
#ifndef STENCIL_JUDGE_OPTIONS_H
#define STENCIL_JUDGE_OPTIONS_H

#include <limits.h>
#include <stdint.h>

#include "conf.h"
#include "judge_error.h"

// Cases side by side: each in a worker process forked from the judge (worker_pool.h).
#define JUDGE_MAX_JOBS 16            // workers at most (--jobs)
#define JUDGE_DEFAULT_JOBS 8         // workers when --jobs is not given: this or the CPUs, the fewer (12 was slower on an H100: CUDA contexts made at once wait on each other)

typedef struct judge_args {
    const char *lab;            // lab number or folder
    const char *kernel;         // kernel file (default: the lab's skeleton)
    const char *backend;        // auto, gpu or emu
    const char *case_name;      // only this case ("33", "N=33", "64x32x16")
    const char *arch;           // sm_XX, or NULL to detect
    unsigned long long emu_memory_mb; // --emu-memory: what a student's program may hold under emulation (0: the default)
    char kit[PATH_MAX];         // the kit's root
    uint64_t seed;              // master seed
    int have_seed;              // 1 if --seed was given
    int json;                   // 1: JSON report
    int sanitize;               // 1: runs under compute-sanitizer
    int keep;                   // 1: keep case directories
    int fail_fast;              // 1: stop after the first failing case (the kit's mutant tests)
    int jobs;                   // cases run side by side (--jobs; default: the CPUs, at most JUDGE_DEFAULT_JOBS)
    int cpus;                   // the CPUs this run may use: its OpenMP threads (with --jobs given, that number: the
                                // caller's share of the machine, judges side by side)
    double timeout_s;           // per-case time limit overriding lab.conf's (0: lab.conf's)
    const char *json_out;       // also write the JSON report to this file
    const char *summary_out;    // also write the one-line summary (summary_keys.h) to this file
    const char *conf_get;       // print this lab.conf value and exit (--conf-get)
    int solution;               // 1: grade lab.conf's solution (--solution)
    const char *gradescope_out; // also write a Gradescope results.json to this file
    const char *prairielearn_out; // also write a PrairieLearn results.json to this file
    const char *gpu_lock_dir;   // judges side by side: take turns on the GPUs through lock files here
    int gpu_slots;              // GPUs to share (with gpu_lock_dir)
    int profile;                // 1: measure the timed case's traffic with ncu
    const char *pictures;       // draw the report's pictures into this folder (made if missing)
    const char *html_out;       // also write the report as an HTML page to this file
} judge_args;

// Reads argv into a (the values point into argv). Returns 0; 1 after
// printing the options for --help (the run then ends with status 0); -1 with
// err naming the option and what it takes.
int judge_options_parse(int argc, char **argv, judge_args *a, judge_error *err);

// 1 if case spec (named name) is the one --case names (or no case was
// named): by its name ("N=33", "64x32x16"), or by its size however written
// ("33", "3x3x3" for the case named N=3).
int judge_options_case_selected(const judge_args *a, const lab_case *spec, const char *name);

#endif // STENCIL_JUDGE_OPTIONS_H
