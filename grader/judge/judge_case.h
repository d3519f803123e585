// grader/judge/judge_case.h — runs one case of a sweep lab through a built runner.
#ifndef STENCIL_JUDGE_CASE_H
#define STENCIL_JUDGE_CASE_H

#include <stdint.h>

#include "judge.h"
#include "kv.h"
#include "protocol.h"
#include "spawn.h"

#define JUDGE_RACECHECK 2       // judge_case_env.sanitize: compute-sanitizer --tool racecheck
// The racecheck run of a sync case ends after this many seconds. A kernel
// full of hazards slows racecheck a hundredfold (lab 9's no-barrier mutant, a
// 29x41x11 solve of 5 iterations: 122 s on an H200, against 1.4 s for lab 4's
// solution at N=34), and a class or the kit's GPU suite waits on it. Past the
// limit the check is inconclusive, and the emulator's strict barriers, which
// run next, decide.
#define JUDGE_RACECHECK_LIMIT_S 30.0

typedef struct judge_case_env {
    const lab_conf *conf;       // the lab (tolerances, time limit, timed repetitions)
    const char *runner;         // the built runner executable
    int emu;                    // 1: CPU emulation (two thread orders, no timing)
    int sanitize;               // 1: run under compute-sanitizer's memcheck; JUDGE_RACECHECK: its racecheck (the sync case)
    int keep;                   // 1: keep the case directories (for debugging)
    int out_tile;               // OUT_TILE_DIM the kernel declared, for the tile-edge hint
    int planes_first;           // 1: prefer the whole-planes hint (z-marching labs)
    int profile;                // 1: measure the timed case's traffic with Nsight Compute (ncu)
    const char *student;        // GPU: the student's program the executor (runner) serves; NULL under emulation
    int yardstick;              // GPU: the lab's solution timed for the speed score (the executor's --yardstick):
                                // no grid comes back and none is judged; only the times are read
    const char *ncu_metrics;    // GPU: run the runner under Nsight Compute collecting these metrics (comma list),
                                // its table written by ncu itself to the case folder's JUDGE_NCU_TABLE; NULL: not
    const struct jacobi_early *early;  // a whole solve's timed case: its reference made ahead (judge_jacobi.h), or NULL
    struct judge_executor *executor;   // GPU: the executor serving the run's cases (one process, one context), or NULL:
                                       // a process a case (the profiler's and the sanitizer's runs always take that way)
    void (*gpu_turn)(int exclusive);   // GPU: takes a turn on the GPU around each runner (judges side by side): alone
                                       // for a timed run or a profiler's, shared otherwise; NULL: no turns
    void (*gpu_turn_end)(void);        // and ends it (the judge's own work before and after holds none)
    int (*gpu_locks)(int mode, const char *tool_lock, char *spec, size_t len); // GPU: a run under Nsight Compute or
                                       // compute-sanitizer takes the GPU's locks itself around its GPU work, a turn
                                       // of mode GPU_TURN_* (gpu_turns_lock_spec: 1 and the executor's option value), NULL
    unsigned long long emu_memory_bytes; // emulation: the memory a student's program may hold (--emu-memory; 0: judge_emu_resident_limit's)
    int count_loads;            // GPU: the executor counts the student's loads in the checked call itself (LOADS_OPTION;
                                // STENCIL_LOADS=cupti, load_count.h), the profiler's lock and a turn alone held around it
    int (*gpu_relay_await)(void);  // GPU: waited for just before the executor is asked to take its locks, once the
                                   // case's input is drawn (the load count's helper: gpu_turns_relay_await); 1: the
                                   // run is inside the judge's turn, no locks of its own; NULL: none
    void (*gpu_relay_done)(void);  // then called once that run's GPU work ended (gpu_turns_relay_done)
    void (*gpu_relay_skip)(void);  // GPU, the judge: a run alone that did not end well (hung, crashed, never started,
                                   // its output wrong on the GPU) lets no count follow it inside its turn, nor later
                                   // (gpu_turns_relay_skip): a hung kernel would hang again; a failed case is not counted
} judge_case_env;

// The executor of a GPU run, serving every case (`executor --serve`): made
// as the device probe, before the student's file builds, so its context is
// ready by the first case. A case that fails ends it; the next case starts
// another (judge_spawn_runner).
typedef struct judge_executor {
    spawn_server server;        // the process (server.pid 0: none runs)
    char program[4096];         // the executor
    char log[4200];             // its output between cases
    char ncu_table[4200];       // under Nsight Compute (judge_profiler_start): the table ncu writes as it ends; "" if not
    int counts_loads;           // 1: started with LOADS_OPTION, the load count's host side prepared before its case
    int started;                // processes started so far (1 when every case passed)
    int cases;                  // cases it served
} judge_executor;

// Starts ex's executor (the program and log set) and waits for its probe's
// answer; with outdir, the probe's report is written there. Returns the
// outcome (exited with RUNNER_OK when it serves).
spawn_result judge_executor_start(judge_executor *ex, const char *outdir);

// judge_executor_start in two steps, for work that needs no GPU meanwhile:
// judge_executor_begin starts the executor and returns at once (started 0
// when it could not); judge_executor_ready waits for its answer, as
// judge_executor_start does.
spawn_result judge_executor_begin(judge_executor *ex, const char *outdir);
spawn_result judge_executor_ready(judge_executor *ex);

// Starts ex's executor (the program and log set) serving under Nsight
// Compute, which counts env->ncu_metrics in the kernels of the student's
// calls and writes its table to table as it ends, and waits for the probe's
// answer, as judge_executor_start. It serves one case: judge_spawn_runner
// then ends it and moves the table into the case's folder. Started while
// the student's file builds, its start-up (seconds) overlaps the build.
spawn_result judge_profiler_start(judge_executor *ex, const judge_case_env *env, const char *table);

// The memory a student's program may hold under emulation: env's
// emu_memory_bytes when set, else STUDENT_MEMORY_BYTES, at most a quarter of
// the machine's memory.
unsigned long long judge_emu_student_memory(const judge_case_env *env);

// The resident memory an emulation runner of a case with buffers of
// buffer_floats floats may hold: judge_emu_student_memory beyond the kit's grids.
unsigned long long judge_emu_resident_limit(const judge_case_env *env, size_t buffer_floats);

// The file ncu writes its table to (--log-file), apart from the program's
// own output, which a kernel's printf reaches and so cannot be believed.
#define JUDGE_NCU_TABLE "ncu.csv"
// The metrics of a profiled timed case (PROFILE=1): traffic.
#define JUDGE_NCU_TRAFFIC "dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"
// The metrics of the load-count run (technique floors): the bytes the
// student's kernels loaded from global memory (plain loads, and async copies
// into shared memory) and from shared memory, counted over the threads that
// executed each load (so a load a few threads of a warp execute counts for
// those few).
#define JUDGE_NCU_GLOBAL_LOADS "smsp__sass_data_bytes_mem_global_op_ld.sum"
#define JUDGE_NCU_GLOBAL_ASYNC "smsp__sass_data_bytes_mem_global_op_ldgsts.sum"
#define JUDGE_NCU_SHARED_LOADS "smsp__sass_data_bytes_mem_shared_op_ld.sum"
#define JUDGE_NCU_LOADS JUDGE_NCU_GLOBAL_LOADS "," JUDGE_NCU_GLOBAL_ASYNC "," JUDGE_NCU_SHARED_LOADS
// The kernels Nsight Compute profiles (--kernel-name): every one not named
// like the kit's (the executor refuses a student's kernel named so).
#define JUDGE_NCU_STUDENT_KERNELS "regex:^(?!" PROTOCOL_KIT_KERNEL_PREFIX ")"

// Copies what a timed run measured into r, its median median_ms: the times,
// the repetitions (and the time budget that cut them short, if one did), the
// copy limit (bandwidth_gbs, and the float4 kernel's and cudaMemcpy's figures
// with which one set it).
void judge_read_timed(const kv_list *report, double median_ms, case_result *r);

// A sweep case of at least this many cells is checked where its grids are,
// by the kit's kernels on the GPU (protocol.h's GPU_CHECK_*): only a sample
// of planes comes back to the judge when the output is right, every grid
// when it is not. Smaller grids come back whole and are checked here.
#define JUDGE_GPU_CHECK_MIN_CELLS (1u << 23)

// 1 (errno EPROTO) when the input the executor drew on the GPU
// (FILL_OPTION) is not the judge's: the report's INPUT_SUM_KEY is missing or
// not want, the sum of the judge's own grids (rng_grid_sum). The kit's
// fault, never the student's: the case's runner returns -1 and the run ends
// with JUDGE_DRAWN_INPUT_DIFFERS. 0 when they are the same.
int judge_drawn_input_differs(const kv_list *report, uint64_t want);
#define JUDGE_DRAWN_INPUT_DIFFERS "the input the executor drew on the GPU is not the judge's (the kit's fault, not the kernel's): rebuild the kit (make clean judge) and report it if it stays"

// An emulated runner's wall-clock backstop, in multiples of the lab's time
// limit, which it gets in CPU time (spawn_limits.cpu_s).
#define JUDGE_EMU_WALL_FACTOR 4
// Emulation's time limit is this many times the lab's where it counts the kernels' loads
// (grader/emu/runtime/loads.cpp: every access through a call, two to three times slower).
#define JUDGE_EMU_LOAD_COUNT_FACTOR 3

// The text of a failure, as each kind of lab words it.
typedef struct judge_hint_words {
    const char *function;       // the student's host function ("launch_stencil")
    const char *timeout;        // what a timeout means here
    const char *launch;         // what to check after a failed launch
    const char *fault;          // what to check after a kernel fault (GPU, without the sanitizer)
} judge_hint_words;

// The words the sweep runner's kinds share (a kernel launched by the
// student's host function): a timeout, and the beginnings of a failed
// launch's and a fault's advice, which each kind ends in its own words.
#define SWEEP_WORDS_TIMEOUT "the kernel never returned: a loop whose end is never reached, or a __syncthreads() that some threads of a block never reach."
#define SWEEP_WORDS_LAUNCH "the kernel could not be launched: read CUDA's message above; check the grid, block and shared-memory arguments of the launch"
#define SWEEP_WORDS_FAULT "an out-of-bounds access: rerun this case under compute-sanitizer to see the faulting line: add SANITIZE=1 to the make check command (with CASE= to pick the case)"

// Fills r (status FAIL, kind, reason, hint, detail) from a runner that did
// not finish normally: timeout, launch failure, fault, refused call, late
// call, a wrong timed repetition, a crash. words holds the lab kind's wording.
void judge_explain_runner(const judge_case_env *env, const spawn_result *s, const kv_list *report,
                          const char *log_path, const judge_hint_words *words, case_result *r);

// Under emulation, a kernel's read of a guard cell around a kit grid (the
// runner's PROTOCOL_EMU_GUARD_READ, naming the thread and the line) fails r:
// a case already failed keeps its hint and reason and gains the read in its
// detail; a right one fails as out-of-bounds, the read its reason.
void judge_guard_read(const kv_list *report, case_result *r);

// Writes the runner's program and its kit arguments into argv (the executor
// with --kind, --student and --accuracy on the GPU); returns how many.
int judge_runner_argv(const judge_case_env *env, char **argv);

// Starts env's runner once with args (NULL-terminated, after the program's
// name) on the case folder dir: under compute-sanitizer when asked, with the
// emulation's thread order and seed or the GPU's eager module loading, the
// lab's time limit, and files capped near buffer_floats floats; in a turn
// on the GPU (env->gpu_turn) alone when timed (or profiled). report
// receives the runner's report. Returns the outcome.
spawn_result judge_spawn_runner(const judge_case_env *env, char *const args[], const char *dir,
                                size_t buffer_floats, const char *order, uint64_t seed, int timed, kv_list *report);

// Runs the case spec with its seed; fills r (status, reason, hint, timing).
// report_out receives the runner's report of the first run (free it with
// kv_free). Returns 0, or -1 if the kit itself failed (temporary files,
// memory, starting the runner) — r is then incomplete.
int judge_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                   kv_list *report_out);

// Seconds on a monotonic clock.
double judge_case_clock(void);

// With STENCIL_TRACE=1, one line "trace: <clock> <text>" on stderr (printf's
// format; the clock: the wall clock's seconds within the hour).
void judge_trace_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// With STENCIL_TRACE=1 in the environment: one line on stderr of where a
// case's time went (drawing and writing the input, the runner, and with the
// executor its phases, then judging), for whoever makes the kit faster; the
// runner's start on the trace clock (judge_trace_runner_began, called by
// judge_spawn_runner once its turn is held) lays the executor's phases on the
// class's timeline (tests/bench/class_timeline.py).
void judge_trace_runner_began(void);
void judge_case_trace(const char *name, const kv_list *report, double input_s, double runner_s, double judged_s);

#endif // STENCIL_JUDGE_CASE_H
