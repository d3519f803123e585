// grader/judge/gpu_turns.h — judges side by side (--gpu-lock-dir) taking
// turns on their GPUs: each run picks one GPU of --gpu-slots, sees only that
// one, and holds its lock file DIR/gpu-K.lock shared for untimed work or
// alone for timing (a gate file, DIR/gpu-K.gate, keeps new shared turns out
// while a timer waits; a timer first waits for the long turns of tools,
// DIR/gpu-K.tools, without the gate: gpu_locks.h). Each turn's begin and end
// land in the run's report.
#ifndef STENCIL_GPU_TURNS_H
#define STENCIL_GPU_TURNS_H

#include <sys/types.h>

#include "gpu_locks.h"  // (GPU_TURN_*)
#include "judge.h"
#include "judge_error.h"

// Sets up the turns of this process (nothing is taken yet): the lock folder
// (NULL: no turns, every call below does nothing), the GPUs shared, and the
// run whose gpu_turns record them. Processes forked later take no turns of
// their own: they run inside the judge's.
void gpu_turns_init(const char *lock_dir, int slots, judge_run *run);

// Chooses this run's GPU (an idle one among the slots, else by pid) and
// shows the run only that GPU (CUDA_VISIBLE_DEVICES), once, before anything
// of the run starts on a GPU: every executor and helper started after it
// runs on that GPU and names its locks. Returns 0 (also without a lock
// folder, or chosen already), or -1 with err naming a lock file.
int gpu_turns_choose(judge_error *err);

// Takes a turn of mode on this run's GPU (GPU_TURN_*: alone, shared, or
// long: shared, for work of seconds, which a timer waits for without the
// gate), picking the GPU on the first turn. Returns 0 (also when a turn is
// held already), or -1 with err naming the lock folder.
int gpu_turns_take(int mode, judge_error *err);

// Ends the turn held, if any (judges waiting for the GPU go on).
void gpu_turns_give(void);


// A run under Nsight Compute or compute-sanitizer takes its locks itself,
// around its GPU work only (the executor's GPU_LOCKS_OPTION, gpu_locks.h):
// under Nsight Compute the profiler's lock first (tool_lock GPU_LOCK_PROFILER:
// a second profiling session on a GPU fails, "a driver resource was
// unavailable", and its loads go uncounted; NULL: none), then a turn of mode
// (GPU_TURN_*: alone; long, compute-sanitizer's; shared), so that the tool's
// start-up and end (seconds) hold neither and a timed case waits only for
// the tool's GPU work. Writes the option's value for this run's GPU into
// spec (len bytes); returns 1, or 0 where this process takes no turns (none,
// no GPU picked yet, or the judge holding a turn already: its runner works
// inside it, as does a worker's that said gpu_turns_worker_inside, unless
// mode is alone).
int gpu_turns_lock_spec(int mode, const char *tool_lock, char *spec, size_t len);

// Said by a worker the judge forked inside its shared turn, which lasts until
// the worker ends (cases side by side): its runners' tools run inside that
// turn too (gpu_turns_lock_spec), no turn of their own but alone.
void gpu_turns_worker_inside(void);

// The load count relayed into the judge's alone turn: a helper whose
// executor (started ahead, its CUDA context made) counts the loads runs its
// count inside the judge's first turn alone, right after the judge's own
// timed run, with no locks of its own: one wait for other judges' shared
// turns to drain a file, not two, and no other judge's count between them.
// In the judge, before forking the helper: arm makes the relay (0, or -1:
// then the helper takes its own locks); forked(pid) after the fork, in both
// processes. Giving the judge's first turn alone back then first lets the
// helper count and waits until it says its GPU work ended, if the helper
// said it waits ready (its executor serving, its input drawn; never waited
// for: one still starting, or counting by other means, takes its own locks). No profiler's
// lock is taken for it: that lock keeps two profilers' GPU work apart, and
// the turn alone keeps every other GPU work out (a profiler's included: each
// works under a turn), while a judge holding it to wait for a turn, or
// waiting for it inside one, kept others from the gate or went on without.
// release (idempotent) tells the helper to take its own locks instead: call
// it before waiting for or stopping the helper. skip (idempotent) tells it
// its count is not needed now, and it ends leaving no outcome: call it when
// the turn alone's timed run did not end well (it hung: it would hang again
// inside the turn, every judge of the GPU waiting; it crashed; the kit's
// check on the GPU found its output wrong: the case fails, and a case that
// failed is not the one counted, load_count.c); the judge counts in a run
// of its own if it needs the count after all. In the helper, await waits
// for the judge's word, saying it waits ready: 1 when its count runs inside
// the judge's turn (then
// done, once the count's GPU work ended), 0 when it takes its own locks (also
// when nothing was armed).
int gpu_turns_relay_arm(void);
void gpu_turns_relay_forked(pid_t pid);
void gpu_turns_relay_release(void);
void gpu_turns_relay_skip(void);
int gpu_turns_relay_await(void);
void gpu_turns_relay_done(void);

#endif // STENCIL_GPU_TURNS_H
