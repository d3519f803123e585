// grader/protocol/gpu_locks.h — the GPU's lock files, taken the same way by
// the judge (grader/judge/gpu_turns.c) and by the executor around the GPU
// work of a run under a tool (its --gpu-locks): DIR/gpu-K.lock held shared
// for untimed work and alone for timing, DIR/gpu-K.gate held while taking it
// (a timer waiting keeps new shared turns out), DIR/gpu-K.profiler held alone
// by one profiler at a time on the GPU, always before the turn (a run waiting
// for the profiler holds no turn, so no timer waits behind it), and
// DIR/gpu-K.tools, through DIR/gpu-K.tools-gate: held shared by each long
// shared turn (a compute-sanitizer run's: seconds, tens of seconds when its
// racecheck finds a race), taken alone by a timer before its gate and given
// back once its turn is held. A timer waits for the long turns without the
// gate, so the short shared turns go on meanwhile (before, a timer holding
// the gate behind a racecheck of 20 s left the GPU idle for as long, every
// judge waiting); a long turn asked for while a timer waits waits too.
#ifndef STENCIL_GPU_LOCKS_H
#define STENCIL_GPU_LOCKS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define GPU_LOCK_TURN "lock"          // the turn: shared or alone
#define GPU_LOCK_GATE "gate"          // held while a turn is taken
#define GPU_LOCK_PROFILER "profiler"  // one Nsight Compute run's GPU work at a time
#define GPU_LOCK_TOOLS "tools"        // long shared turns: shared by each; alone by a timer until it holds its turn
#define GPU_LOCK_TOOLS_GATE "tools-gate"  // held while taking tools
#define GPU_LOCK_NO_TOOL "-"          // in place of the profiler's lock path: a run that takes no profiler's lock (compute-sanitizer's)
#define GPU_LOCKS_OPTION "--gpu-locks" // the executor's option: "PROFILER,TOOLS_GATE,TOOLS,GATE,TURN[,alone|,long]", the five paths
#define GPU_LOCKS_FILES 5             // the descriptors gpu_locks_take fills, in the option's order

// The turns: shared (untimed work), alone (timing; a count), long (shared, a
// tool's run of seconds: it holds tools shared, so no timer waits at the gate for it).
enum { GPU_TURN_SHARED = 0, GPU_TURN_ALONE = 1, GPU_TURN_LONG = 2 };

// The path of lock file name (GPU_LOCK_*) of GPU k in the folder dir.
static inline void gpu_lock_path(char *path, size_t len, const char *dir, int k, const char *name)
{
    snprintf(path, len, "%s/gpu-%d.%s", dir, k, name);
}

// The GPUs a CUDA_VISIBLE_DEVICES value names, in order (indices, UUIDs or
// MIG names, between commas or spaces; "" names none): their count, the
// first max of them copied into names (NULL with max 0: counted only). The judges of a class share as many
// GPUs as it names at most (gpu_turns.c, grader/class/).
#define GPU_VISIBLE_NAME_BYTES 96
static inline int gpu_visible_names(const char *value, char names[][GPU_VISIBLE_NAME_BYTES], int max)
{
    int n = 0;
    for (const char *p = value ? value : ""; *p;) {
        size_t len = strcspn(p, ", ");
        if (len && names && n < max)
            snprintf(names[n], GPU_VISIBLE_NAME_BYTES, "%.*s", (int)len, p);
        n += len > 0;
        p += len + (p[len] != '\0');
    }
    return n;
}

// flock(fd, op) that goes on after a signal's interruption, calling
// interrupted (if not NULL) each time; 0, or -1 with errno.
static inline int gpu_lock_flock(int fd, int op, void (*interrupted)(void))
{
    while (flock(fd, op) != 0) {
        if (errno != EINTR)
            return -1;
        if (interrupted)
            interrupted();
    }
    return 0;
}

// Takes lock (alone or shared) through its gate: the gate held while waiting.
static inline int gpu_lock_through(int gate, int lock, int alone, void (*interrupted)(void))
{
    int ok = gpu_lock_flock(gate, LOCK_EX, interrupted) == 0 && gpu_lock_flock(lock, alone ? LOCK_EX : LOCK_SH, interrupted) == 0;
    gpu_lock_flock(gate, LOCK_UN, interrupted);
    return ok ? 0 : -1;
}

// Takes a turn of mode (GPU_TURN_*) on a GPU's locks fds: [0] tools' gate,
// [1] tools, [2] the gate, [3] the turn. A timer first waits alone for
// every long turn (without the turn's gate: short shared turns go on), then
// takes its turn through the gate and gives tools back; a long turn holds
// tools shared until its turn is given back (gpu_locks_give, or the judge's
// gpu_turns); a shared turn takes the turn only. 0, or -1 with errno.
static inline int gpu_lock_turn(const int fds[4], int mode, void (*interrupted)(void))
{
    if (mode != GPU_TURN_SHARED && gpu_lock_through(fds[0], fds[1], mode == GPU_TURN_ALONE, interrupted) != 0)
        return -1;
    if (gpu_lock_through(fds[2], fds[3], mode == GPU_TURN_ALONE, interrupted) != 0) {
        int saved = errno;
        if (mode != GPU_TURN_SHARED)
            gpu_lock_flock(fds[1], LOCK_UN, interrupted);
        return errno = saved, -1;
    }
    return mode == GPU_TURN_ALONE ? gpu_lock_flock(fds[1], LOCK_UN, interrupted) : 0;
}

// Gives back the locks gpu_locks_take took (the turn first, the profiler's
// last) and closes their descriptors (each -1 after). Unlocked before
// closed: a process forked while they were held (the student's program,
// started inside the case's turn; a tool's own children) shares their
// descriptions, and a close would leave its copy holding the lock until it
// closed or ended, the GPU idle and every other run waiting behind it.
static inline void gpu_locks_give(int fds[GPU_LOCKS_FILES])
{
    for (int i = GPU_LOCKS_FILES - 1; i >= 0; i--)
        if (fds[i] >= 0) {
            gpu_lock_flock(fds[i], LOCK_UN, NULL);
            close(fds[i]);
            fds[i] = -1;
        }
}

// Takes the locks spec names (GPU_LOCKS_OPTION's value,
// "PROFILER,TOOLS_GATE,TOOLS,GATE,TURN[,alone|,long]"): the profiler's (none
// when PROFILER is GPU_LOCK_NO_TOOL), then a turn (gpu_lock_turn: shared
// unless the spec ends alone or long). fds gets the five descriptors (-1
// each on failure, or for no profiler's lock); gpu_locks_give gives them back.
// Returns 0, or -1 with errno (EINVAL: spec is not five paths and a mode).
static inline int gpu_locks_take(const char *spec, int fds[GPU_LOCKS_FILES])
{
    char paths[GPU_LOCKS_FILES][4096], mode[16] = "";
    for (int i = 0; i < GPU_LOCKS_FILES; i++)
        fds[i] = -1;
    if (sscanf(spec, "%4095[^,],%4095[^,],%4095[^,],%4095[^,],%4095[^,],%15s", paths[0], paths[1], paths[2], paths[3], paths[4],
               mode) < GPU_LOCKS_FILES || (mode[0] && strcmp(mode, "alone") && strcmp(mode, "long")))
        return errno = EINVAL, -1;
    int tool = strcmp(paths[0], GPU_LOCK_NO_TOOL) != 0, i = tool ? 0 : 1;
    for (; i < GPU_LOCKS_FILES; i++)
        if ((fds[i] = open(paths[i], O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
            break;
    int turn = !strcmp(mode, "alone") ? GPU_TURN_ALONE : !strcmp(mode, "long") ? GPU_TURN_LONG : GPU_TURN_SHARED;
    if (i == GPU_LOCKS_FILES && (!tool || gpu_lock_flock(fds[0], LOCK_EX, NULL) == 0) && gpu_lock_turn(fds + 1, turn, NULL) == 0)
        return 0;
    int saved = errno;
    gpu_locks_give(fds);
    return errno = saved, -1;
}

#endif // STENCIL_GPU_LOCKS_H
