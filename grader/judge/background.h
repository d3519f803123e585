// grader/judge/background.h — the helpers that work beside the student's
// build and the cases, each a process forked from the judge: the timed whole
// solves' references made ahead (judge_jacobi.h's jacobi_early), and the
// emulation runner that a GPU run's barrier checks use, built beside the GPU
// build. (The lab's solution timed early is yardstick.h's.)
#ifndef STENCIL_BACKGROUND_H
#define STENCIL_BACKGROUND_H

#include <limits.h>
#include <sys/types.h>

#include "conf.h"
#include "judge_error.h"
#include "judge_jacobi.h"

struct judge_session;

typedef struct background {
    jacobi_early early[CONF_MAX_CASES]; // the timed whole solves' references, by lab.conf's case (mem NULL: none)
    pid_t early_pid;                    // the helper making them, 0 if none
    char emu_runner[PATH_MAX];          // the barrier checks' emulation runner, or why it could not be built
    int emu_built;                      // 0 not tried, 1 built, -1 failed
    pid_t emu_pid;                      // the helper building it, 0 if none
} background;

// Starts the helper that solves the timed whole solves' references into
// memory shared with the judge, in lab.conf's order: on a GPU with --jobs 2
// or more (the CPUs are free while the student's file builds and the cases'
// runners wait on the GPU). Without it (or when it cannot start) each is
// solved when its case is judged.
void background_early_start(struct judge_session *s);

// Ends the references' helper (its work done or no longer needed) and frees
// their memory; safe to call at any time, and again.
void background_early_stop(background *bg);

// Starts building the barrier checks' emulation runner in a helper beside
// the GPU build, when the lab has a sync case (else it is built on first use).
void background_emu_start(struct judge_session *s);

// Waits for that helper and takes its runner (or leaves it to first use).
// The judge waits only when the barrier checks need the runner
// (background_emu_runner): the cases start as soon as the GPU build is done.
void background_emu_wait(struct judge_session *s);

// In a process forked from the judge (a tool run's helper): waits for the
// building helper's file, polling, without reaping it. Returns 1 once the
// runner is built (bg->emu_runner its path), 0 if it did not build or its
// helper ended without saying.
int background_emu_await(struct judge_session *s);

// The barrier checks' emulation runner, built now if no helper built it.
// Returns 1 (bg->emu_runner its path), 0 if the file does not build under
// emulation (emu_runner says why), -1 with err.
int background_emu_runner(struct judge_session *s, judge_error *err);

#endif // STENCIL_BACKGROUND_H
