// grader/protocol/gpu_locks.h — the GPU's lock files, taken the same way by
// the judge (grader/judge/gpu_turns.c) and by the executor around the GPU
// work of a run under Nsight Compute (its --gpu-locks): DIR/gpu-K.lock held
// shared for untimed work and alone for timing, DIR/gpu-K.gate held while
// taking it (a timer waiting keeps new shared turns out), DIR/gpu-K.profiler
// held alone by one profiler at a time on the GPU, always before the turn
// (a run waiting for the profiler holds no turn, so no timer waits behind it).
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
#define GPU_LOCK_NO_TOOL "-"          // in place of a tool's lock path: a run that takes only its turn (compute-sanitizer's)
#define GPU_LOCKS_OPTION "--gpu-locks" // the executor's option: "PROFILER,GATE,TURN[,alone]", the three paths

// The path of lock file name (GPU_LOCK_*) of GPU k in the folder dir.
static inline void gpu_lock_path(char *path, size_t len, const char *dir, int k, const char *name)
{
    snprintf(path, len, "%s/gpu-%d.%s", dir, k, name);
}

// The GPUs a CUDA_VISIBLE_DEVICES value names, in order (indices, UUIDs or
// MIG names, between commas or spaces; "" names none): their count, the
// first max of them copied into names. The judges of a class share as many
// GPUs as it names at most (gpu_turns.c, grader/class/).
#define GPU_VISIBLE_NAME_BYTES 96
static inline int gpu_visible_names(const char *value, char names[][GPU_VISIBLE_NAME_BYTES], int max)
{
    int n = 0;
    for (const char *p = value ? value : ""; *p;) {
        size_t len = strcspn(p, ", ");
        if (len && n < max)
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

// Takes a turn on the lock turn (through its gate), alone or shared.
static inline int gpu_lock_turn(int gate, int turn, int alone, void (*interrupted)(void))
{
    int ok = gpu_lock_flock(gate, LOCK_EX, interrupted) == 0 && gpu_lock_flock(turn, alone ? LOCK_EX : LOCK_SH, interrupted) == 0;
    gpu_lock_flock(gate, LOCK_UN, interrupted);
    return ok ? 0 : -1;
}

// Takes the locks spec names (GPU_LOCKS_OPTION's value, "PROFILER,GATE,TURN
// [,alone]"): the profiler's (none when PROFILER is GPU_LOCK_NO_TOOL), then a
// turn through the gate. fds gets the three descriptors (closing them gives
// the locks back; -1 each on failure or for no tool lock).
// Returns 0, or -1 with errno (EINVAL: spec is not three paths).
static inline int gpu_locks_take(const char *spec, int fds[3])
{
    char paths[3][4096], alone[16] = "";
    fds[0] = fds[1] = fds[2] = -1;
    if (sscanf(spec, "%4095[^,],%4095[^,],%4095[^,],%15s", paths[0], paths[1], paths[2], alone) < 3)
        return errno = EINVAL, -1;
    int tool = strcmp(paths[0], GPU_LOCK_NO_TOOL) != 0, i = tool ? 0 : 1;
    for (; i < 3; i++)
        if ((fds[i] = open(paths[i], O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
            break;
    if (fds[2] >= 0 && (!tool || gpu_lock_flock(fds[0], LOCK_EX, NULL) == 0) &&
        gpu_lock_turn(fds[1], fds[2], !strcmp(alone, "alone"), NULL) == 0)
        return 0;
    int saved = errno;
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]), fds[i] = -1;
    return errno = saved, -1;
}

#endif // STENCIL_GPU_LOCKS_H
