// grader/judge/judge.h — the data of one grading run: a lab, a kernel file, a
// backend, a seed, and what each case gave. judge.c fills it, report.c prints
// it (report.h).
#ifndef STENCIL_JUDGE_H
#define STENCIL_JUDGE_H

#include <stdint.h>

#include "conf.h"
#include "score.h"
#include "technique.h"

// Exit statuses of the judge (and of `make check`).
#define JUDGE_EXIT_PASS   0   // every case passed
#define JUDGE_EXIT_FAIL   1   // a case failed
#define JUDGE_EXIT_KIT    2   // the kit could not run: bad lab.conf, missing file, compile error
#define JUDGE_EXIT_NO_GPU 77  // no usable GPU (EMU=0 demanded one)

#define JUDGE_COMPILER_LINES 12  // compiler error lines kept for the report
#define JUDGE_MAX_GPU_TURNS 80   // GPU turns recorded: the probe, each case, the solution's timing

// The seconds a timed case's repetitions may take before they stop (one
// at least): JUDGE_TIME_BUDGET_S, or a quarter of the case's time limit
// timeout_s when that is less. The solutions' repetitions take under a
// second; a kernel slow enough to reach it holds the GPU alone (every
// other judge side by side waiting) for its checked call and a few calls
// more, not for a quarter of its limit, and its median of fewer calls of
// a second or more is no less exact.
#define JUDGE_TIME_BUDGET_S 2.0
static inline double judge_time_budget_s(double timeout_s)
{
    return timeout_s / 4.0 < JUDGE_TIME_BUDGET_S ? timeout_s / 4.0 : JUDGE_TIME_BUDGET_S;
}

typedef enum case_status { CASE_OK, CASE_FAIL, CASE_SKIPPED } case_status;

typedef struct case_result {
    char name[48];              // "N=33"
    lab_case spec;              // the case as lab.conf gives it
    uint64_t seed;              // this case's own seed
    case_status status;         // OK, FAIL or SKIPPED
    char kind[16];              // ok, wrong, timeout, launch, fault, crash, memory, exited, kit, skipped
    char reason[512];           // what went wrong (empty when OK)
    char detail[512];           // the first wrong cell, or the runner's last words
    const char *hint_key;       // stable hint name (verdict.h), or NULL
    char hint[512];             // what to do about it
    size_t wrong;               // interior cells wrong
    size_t interior;            // interior cells
    double launch_ms;           // the checked launch's time, or -1
    double wall_s;              // wall time of the runner(s)
    int timed;                  // 1: timing figures below are valid
    double time_ms;             // median of the timed launches
    double time_min_ms;         // fastest timed launch
    double time_max_ms;         // slowest timed launch
    int time_reps;              // timed launches
    double time_reps_cut_s;     // > 0: the repetitions stopped at this time budget (seconds), fewer than the lab's
    double gpoints;             // interior points per second / 1e9
    double gbs;                 // 8 bytes per interior point over time_ms, GB/s
    double bandwidth_gbs;       // the device's copy bandwidth measured in the same run: the better of the two below
    double bandwidth_kernel_gbs;// ... by a float4 copy kernel (one element a thread)
    double bandwidth_memcpy_gbs;// ... by cudaMemcpy device to device over the same bytes
    char bandwidth_by[16];      // which of the two set it: COPY_LIMIT_BY_KERNEL or _MEMCPY (protocol.h); "" when not measured
    double solution_gbs;        // the lab's solution's GB/s on this (timed) case in this run (0: not timed)
    char note[256];             // one more line printed under the case (e.g. iterations, residual), or ""
    int profiled;               // 1: the traffic figures below were measured with ncu
    double load_bytes;          // bytes requested by global loads (L1 view)
    double dram_bytes;          // bytes that crossed DRAM, read + write
    double flops;               // the book's count: 13 per interior point
    char loads_why[256];        // why the count of the loads is missing (the executor's LOADS_MISSING_KEY, ncu's error), or ""
    int loads_missing;          // its kind (protocol.h's enum loads_missing_kind): LOADS_MISSING_NONE when counted
    int loads_counted;          // 1: the load counts below were measured (ncu's JUDGE_NCU_LOADS, or the executor's count)
    double global_loads;        // floats the student's kernels loaded from global memory (bytes / 4, over the threads that loaded)
    double shared_loads;        // floats loaded from shared memory, likewise
} case_result;

// Where a run's wall time went, in seconds (the report's time line).
typedef struct judge_seconds {
    double build;               // choosing the backend, building the student's program and the solution's
    double build_student;       //   of which building the student's program
    double build_waits;         //   and then waiting for the helpers beside it (the solution timed early, the emulation runner)
    double cases;               // every case, the runners and the judge's checks
    double loads;               // the technique case again under Nsight Compute (the load floors)
    double solution;            // timing the lab's solution (speed against the solution)
    double report;              // the OP/B model, the pictures
    double total;               // from the start to the report
} judge_seconds;

typedef struct judge_run {
    lab_conf conf;              // the lab's parameters
    char lab_dir[512];          // labs/NN-name
    char lab_name[128];         // NN-name
    int lab_number;             // NN
    char kernel[1024];          // the graded file, as given
    char backend[8];            // "gpu" or "emu"
    char arch[16];              // the GPU architecture builds are for (sm_90): --arch, else the device probe's, else empty (make asks the toolkit)
    int emu_loads_counted;      // emulation: the technique's case came with the emulator's load counts (judged with it)
    char fallback[512];         // why emulation was used without being asked for ("" if asked or GPU)
    char device[256];           // device name
    char device_info[256];      // SMs, compute capability, driver and runtime versions
    double device_mem_bytes;    // the GPU's memory (0: unknown, or emulation)
    uint64_t seed;              // master seed (SEED=)
    int ncases;                 // cases in results
    case_result cases[CONF_MAX_CASES];
    technique_result technique; // the technique line
    char technique_case[48];    // the case it was judged on
    char technique_launches[320]; // its launches and first launch (technique_launches_of), for the load count's run
    size_t technique_cells;     // its rank among the cases (case_schedule.c: its cells, those every backend runs first)
    unsigned long long sized_block[3]; // its first launch's block (0s: none): what the cases sized from the launch are sized from
    technique_result technique_timed; // the same rule on a timed case's launches (GPU): TECHNIQUE_FAIL on the first that breaks it, else NA
    char timed_case[48];        // the largest timed case that passed with launch records ("" if none): the loads are counted there
    size_t timed_cells;         // its cells
    char timed_launches[320];   // its launches and first launch, as technique_launches
    opb_model opb;              // the book's model for the declared tiles
    int opb_valid;              // 1 if opb holds a value
    int in_tile;                // IN_TILE_DIM the kernel declared (0: none)
    int out_tile;               // OUT_TILE_DIM the kernel declared (0: none)
    int passed, failed, skipped;// case counts
    int exit_code;              // JUDGE_EXIT_*
    score_result score;         // the grade under the lab's rubric
    char stage[24];             // where the run stopped on a kit-level exit: options, lab, config, kernel-file, backend, include, compile, defines-main, kit-build, cases, report, interrupted
    char message[1024];         // the one-line reason of a kit-level exit ("" when graded)
    int ngpu_turns;             // turns this run took on its GPU (--gpu-lock-dir)
    double gpu_turns[JUDGE_MAX_GPU_TURNS][3]; // each: begin, end (seconds since the epoch), 1 if exclusive (timed)
    judge_seconds seconds;      // where the wall time went
    int ncompiler;              // compiler lines kept from a failed build
    char compiler[JUDGE_COMPILER_LINES][400]; // the compiler's first error lines
} judge_run;

#endif // STENCIL_JUDGE_H
