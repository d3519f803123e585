// grader/judge/gpu_turns.h — judges side by side (--gpu-lock-dir) taking
// turns on their GPUs: each run picks one GPU of --gpu-slots, sees only that
// one, and holds its lock file DIR/gpu-K.lock shared for untimed work or
// alone for timing (a gate file, DIR/gpu-K.gate, keeps new shared turns out
// while a timer waits). Each turn's begin and end land in the run's report.
#ifndef STENCIL_GPU_TURNS_H
#define STENCIL_GPU_TURNS_H

#include "judge.h"
#include "judge_error.h"

// Sets up the turns of this process (nothing is taken yet): the lock folder
// (NULL: no turns, every call below does nothing), the GPUs shared, and the
// run whose gpu_turns record them. Processes forked later take no turns of
// their own: they run inside the judge's.
void gpu_turns_init(const char *lock_dir, int slots, judge_run *run);

// Takes a turn on this run's GPU, alone (exclusive) or shared, picking the
// GPU on the first turn. Returns 0 (also when a turn is held already), or -1
// with err naming a lock file that cannot be opened.
int gpu_turns_take(int exclusive, judge_error *err);

// Ends the turn held, if any (judges waiting for the GPU go on).
void gpu_turns_give(void);


// A run under Nsight Compute or compute-sanitizer takes its locks itself,
// around its GPU work only (the executor's GPU_LOCKS_OPTION, gpu_locks.h):
// under Nsight Compute the profiler's lock first (tool_lock GPU_LOCK_PROFILER:
// a second profiling session on a GPU fails, "a driver resource was
// unavailable", and its loads go uncounted; NULL: none), then a turn, alone
// or shared, so that the tool's start-up and end (seconds) hold neither and
// a timed case waits only for the tool's GPU work. Writes the option's value
// for this run's GPU into spec (len bytes); returns 1, or 0 where this
// process takes no turns (none, no GPU picked yet, or the judge holding a
// turn already: its runner works inside it).
int gpu_turns_lock_spec(int alone, const char *tool_lock, char *spec, size_t len);

// 1 if this run takes turns (--gpu-lock-dir): a timed turn then waits for
// every shared one, the helpers' included.
int gpu_turns_shared(void);

// The alone turn relayed: a helper that will take a turn alone itself (the
// load count's executor) asks for it only once the judge holds one, so that
// it waits at the gate while the judge times and gets the turn the moment
// the judge gives it back, with no other judge's shared work (and no wait
// for it to drain) between the two. In the judge, before forking the
// helper: arm holds the relay file path alone (returns 0, or -1 when it
// cannot: then no helper waits). The judge's first alone turn releases it,
// and so does release (idempotent: call it before waiting for or stopping
// the helper). In the helper, await returns once released (at once when
// nothing was armed, or the relay cannot be opened).
int gpu_turns_relay_arm(const char *path);
void gpu_turns_relay_release(void);
void gpu_turns_relay_await(void);

#endif // STENCIL_GPU_TURNS_H
