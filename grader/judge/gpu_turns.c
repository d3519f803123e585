// grader/judge/gpu_turns.c — judges side by side taking turns on their GPUs
// through lock files (gpu_turns.h).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gpu_locks.h"
#include "gpu_turns.h"
#include "judge_case.h"
#include "spawn.h"

// This process's turns. One per process, static: judge_case_env's turn
// callbacks (gpu_turns_case_take, gpu_turns_give) take no context.
static struct gpu_turns {
    const char *lock_dir;       // --gpu-lock-dir, NULL: no turns
    int slots;                  // --gpu-slots
    judge_run *run;             // whose gpu_turns record the turns
    pid_t owner;                // the judge: a process forked from it runs in the judge's turn
    int slot;                   // the GPU this run uses, -1 until chosen
    int lock_fd;                // its lock: shared for untimed work, exclusive for timing
    int gate_fd;                // its gate: held while taking the lock (a waiting timer keeps new turns out)
    int tools_fd;               // the long turns' lock: a timer takes it alone before the gate (gpu_locks.h)
    int tools_gate_fd;          // its gate
    int held;                   // 1 while this run holds a turn
    int alone;                  // 1 when that turn is alone
    int relay_fd;               // the relay's end of this process (the judge's or the count helper's), -1: none
    int relay_peer;             // the judge: the helper's end until it is forked, -1: none
    int inside;                 // the helper: 1 while its count runs inside the judge's turn
    int worker_inside;          // a worker: 1 when it runs inside the judge's shared turn, to its end
    int long_turn;              // 1 when the turn held is long (tools held shared too)
} turns = {NULL, 0, NULL, 0, -1, -1, -1, -1, -1, 0, 0, -1, -1, 0, 0, 0};

// What the judge tells the load count's helper through the relay: its count
// runs inside the judge's alone turn (no locks of its own), takes its own, or
// is not needed now (the timed run it counts did not end well: the helper ends).
#define GPU_TURNS_RELAY_INSIDE 'i'
#define GPU_TURNS_RELAY_OWN 'o'
#define GPU_TURNS_RELAY_NONE 'n'
#define GPU_TURNS_RELAY_READY 'r'  // the helper to the judge: its count's executor serves, its input drawn, waiting

static void gpu_turns_relay_send(char how);
static int gpu_turns_relay_ready(void);

void gpu_turns_init(const char *lock_dir, int slots, judge_run *run)
{
    int fds[6] = {turns.lock_fd, turns.gate_fd, turns.tools_fd, turns.tools_gate_fd, turns.relay_fd, turns.relay_peer};
    for (int i = 0; i < 6; i++)  // (a second set-up forgets the first's GPU and files: the unit tests make one a test)
        if (fds[i] >= 0)
            close(fds[i]);
    turns.lock_dir = lock_dir, turns.slots = slots, turns.run = run;
    turns.owner = getpid();
    turns.slot = -1, turns.lock_fd = turns.gate_fd = turns.tools_fd = turns.tools_gate_fd = turns.relay_fd = turns.relay_peer = -1;
    turns.held = turns.alone = turns.long_turn = 0, turns.inside = turns.worker_inside = 0;
}

void gpu_turns_worker_inside(void)
{
    turns.worker_inside = turns.held && getpid() != turns.owner;
}

// Seconds since the epoch (the GPU turns of judges side by side are compared).
static double gpu_turns_wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Opens (creating) the lock file DIR/gpu-K.NAME into *fd; 0, or -1 with err.
static int gpu_turns_open(int k, const char *name, int *fd, judge_error *err)
{
    char path[PATH_MAX];
    gpu_lock_path(path, sizeof(path), turns.lock_dir, k, name);
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*fd < 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot open the GPU lock %s: %s", path, strerror(errno));
    return 0;
}

// flock that goes on after a signal's interruption (and stops the run on a stop signal).
static void gpu_turns_flock(int fd, int op)
{
    gpu_lock_flock(fd, op, spawn_check_stop);
}

// Picks this run's GPU among the slots (an idle one if any, else by pid)
// and shows the run only that GPU; done once, before the first turn.
// Returns 0, or -1 with err.
static int gpu_turns_pick_slot(judge_error *err)
{
    static char gpu[64][GPU_VISIBLE_NAME_BYTES];
    char visible[GPU_VISIBLE_NAME_BYTES] = "";
    const char *given = getenv("CUDA_VISIBLE_DEVICES");
    int slot = (int)(getpid() % turns.slots), fd, ngpus = gpu_visible_names(given, gpu, 64);
    if (given && *given && ngpus < turns.slots)  // slot k would run on another slot's GPU, under other locks
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "the judges are to share %d GPUs (--gpu-slots, GPUS=) but CUDA_VISIBLE_DEVICES=%s names %d: give at most %d",
                               turns.slots, given, ngpus, ngpus);
    for (int k = 0; k < turns.slots; k++) {
        if (gpu_turns_open(k, GPU_LOCK_TURN, &fd, err) != 0)
            return -1;
        int idle = flock(fd, LOCK_EX | LOCK_NB) == 0;
        close(fd);
        if (idle) {
            slot = k;
            break;
        }
    }
    if (given)  // slot k is the k-th GPU the caller made visible (set and empty: none, as CUDA reads it)
        snprintf(visible, sizeof(visible), "%s", ngpus && slot < 64 ? gpu[slot] : "");
    else
        snprintf(visible, sizeof(visible), "%d", slot);
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    turns.slot = slot;
    if (gpu_turns_open(slot, GPU_LOCK_GATE, &turns.gate_fd, err) != 0 || gpu_turns_open(slot, GPU_LOCK_TOOLS, &turns.tools_fd, err) != 0 ||
        gpu_turns_open(slot, GPU_LOCK_TOOLS_GATE, &turns.tools_gate_fd, err) != 0)
        return -1;
    return gpu_turns_open(slot, GPU_LOCK_TURN, &turns.lock_fd, err);
}

int gpu_turns_choose(judge_error *err)
{
    if (!turns.lock_dir || turns.slot >= 0 || getpid() != turns.owner)
        return 0;
    return gpu_turns_pick_slot(err);
}

int gpu_turns_take(int mode, judge_error *err)
{
    judge_run *run = turns.run;
    int exclusive = mode == GPU_TURN_ALONE;
    if (turns.lock_dir && turns.worker_inside && mode == GPU_TURN_ALONE)  // (no such run today: a timed case runs in the judge)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "a run alone was asked inside a worker of the cases side by side, which runs in "
                               "the judge's shared turn: it would be timed beside other work, or wait for a turn that turn keeps out");
    if (!turns.lock_dir || turns.held || getpid() != turns.owner)  // a worker runs in the judge's turn
        return 0;
    if (turns.slot < 0 && gpu_turns_pick_slot(err) != 0)
        return -1;
    double asked = gpu_turns_wall_clock();
    int fds[4] = {turns.tools_gate_fd, turns.tools_fd, turns.gate_fd, turns.lock_fd};  // (a timer waits for the long turns first)
    if (gpu_lock_turn(fds, mode, spawn_check_stop) != 0)  // never timed without it
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot take a turn on the GPU's lock in %s: %s", turns.lock_dir, strerror(errno));
    turns.held = 1, turns.alone = exclusive, turns.long_turn = mode == GPU_TURN_LONG;
    judge_trace_note("gpu turn %s: waited %.2f s", exclusive ? "alone" : "shared", gpu_turns_wall_clock() - asked);
    if (run->ngpu_turns < JUDGE_MAX_GPU_TURNS) {
        run->gpu_turns[run->ngpu_turns][0] = gpu_turns_wall_clock();
        run->gpu_turns[run->ngpu_turns][2] = exclusive;
    }
    return 0;
}

void gpu_turns_give(void)
{
    judge_run *run = turns.run;
    if (!turns.held || getpid() != turns.owner)  // the lock is the judge's (a worker shares its file)
        return;
    if (turns.alone && turns.relay_fd >= 0)  // the load count runs now, inside this turn, if it waits ready
        gpu_turns_relay_send(gpu_turns_relay_ready() ? GPU_TURNS_RELAY_INSIDE : GPU_TURNS_RELAY_OWN);
    if (run->ngpu_turns < JUDGE_MAX_GPU_TURNS)
        run->gpu_turns[run->ngpu_turns++][1] = gpu_turns_wall_clock();
    gpu_turns_flock(turns.lock_fd, LOCK_UN);
    if (turns.long_turn)  // (a long turn's mark on tools, which a timer waits for without the gate)
        gpu_turns_flock(turns.tools_fd, LOCK_UN);
    turns.held = 0;
}

int gpu_turns_lock_spec(int mode, const char *tool_lock, char *spec, size_t len)
{
    char paths[GPU_LOCKS_FILES][PATH_MAX];
    const char *names[GPU_LOCKS_FILES] = {tool_lock, GPU_LOCK_TOOLS_GATE, GPU_LOCK_TOOLS, GPU_LOCK_GATE, GPU_LOCK_TURN};
    if (!turns.lock_dir || turns.slot < 0)
        return 0;
    // Inside the judge's turn: its own runner, or a worker's inside its shared turn (gpu_turns_worker_inside):
    // a long turn of the worker's own there would wait behind another judge's timer, which waits for the
    // very turn the judge holds until the worker ends, and one alone would wait for that turn itself.
    // (A helper forked while the judge held a turn outlives it: its own locks.)
    if (turns.held && (getpid() == turns.owner || turns.worker_inside))
        return 0;  // (a worker's run alone: none of its own either, gpu_turns_take refuses it)
    for (int i = 0; i < GPU_LOCKS_FILES; i++)
        if (names[i])
            gpu_lock_path(paths[i], sizeof(paths[i]), turns.lock_dir, turns.slot, names[i]);
        else
            snprintf(paths[i], sizeof(paths[i]), "%s", GPU_LOCK_NO_TOOL);
    int n = snprintf(spec, len, "%s,%s,%s,%s,%s%s", paths[0], paths[1], paths[2], paths[3], paths[4],
                     mode == GPU_TURN_ALONE ? ",alone" : mode == GPU_TURN_LONG ? ",long" : "");
    return n > 0 && (size_t)n < len;
}

int gpu_turns_relay_arm(void)
{
    int ends[2];
    if (!turns.lock_dir || getpid() != turns.owner || turns.relay_fd >= 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        return -1;
    turns.relay_fd = ends[0], turns.relay_peer = ends[1];
    return 0;
}

void gpu_turns_relay_forked(pid_t pid)
{
    if (turns.relay_peer < 0)
        return;
    if (pid == 0) {  // the helper keeps its end only
        close(turns.relay_fd);
        turns.relay_fd = turns.relay_peer;
    } else {
        close(turns.relay_peer);
        if (pid < 0)  // no helper: nothing to relay to
            close(turns.relay_fd), turns.relay_fd = -1;
    }
    turns.relay_peer = -1;
}

// In the judge: 1 if the helper said it waits ready to count (its executor
// serving, its CUDA context made: nothing of it starts inside the turn), at
// once, never waiting for it: a helper still starting, or counting by other
// means, takes its own locks.
static int gpu_turns_relay_ready(void)
{
    struct pollfd p = {turns.relay_fd, POLLIN, 0};
    char word = 0;
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN) && recv(turns.relay_fd, &word, 1, MSG_DONTWAIT) == 1 &&
           word == GPU_TURNS_RELAY_READY;
}

// In the judge: tells the helper how its count runs (GPU_TURNS_RELAY_*) and
// forgets the relay; inside the judge's turn, waits for the helper's word
// that the count's GPU work ended (or for its end).
static void gpu_turns_relay_send(char how)
{
    char done;
    if (turns.relay_fd < 0 || getpid() != turns.owner)
        return;
    int sent = send(turns.relay_fd, &how, 1, MSG_NOSIGNAL) == 1;  // (a helper ended already: nothing to wait for)
    if (sent && how == GPU_TURNS_RELAY_INSIDE) {
        judge_trace_note("gpu turn relayed: the load count runs inside it");
        while (recv(turns.relay_fd, &done, 1, 0) < 0 && errno == EINTR)
            spawn_check_stop();
        judge_trace_note("gpu turn relayed: the load count ended");
    }
    close(turns.relay_fd);
    turns.relay_fd = -1;
}

void gpu_turns_relay_release(void)
{
    gpu_turns_relay_send(GPU_TURNS_RELAY_OWN);
}

void gpu_turns_relay_skip(void)
{
    gpu_turns_relay_send(GPU_TURNS_RELAY_NONE);
}

int gpu_turns_relay_await(void)
{
    char how = GPU_TURNS_RELAY_OWN, ready = GPU_TURNS_RELAY_READY;
    if (turns.relay_fd < 0 || getpid() == turns.owner)
        return 0;
    if (send(turns.relay_fd, &ready, 1, MSG_NOSIGNAL) != 1) {  // the judge told it before it was ready, and closed; or is gone
        if (recv(turns.relay_fd, &how, 1, MSG_DONTWAIT) != 1)
            how = GPU_TURNS_RELAY_OWN;  // gone: its own locks
    } else
        while (recv(turns.relay_fd, &how, 1, 0) < 0 && errno == EINTR)
            spawn_check_stop();
    if (how == GPU_TURNS_RELAY_NONE)
        spawn_child_exit(0);  // no outcome left: the judge counts itself if it needs the count after all
    turns.inside = how == GPU_TURNS_RELAY_INSIDE;
    if (!turns.inside)
        close(turns.relay_fd), turns.relay_fd = -1;
    return turns.inside;
}

void gpu_turns_relay_done(void)
{
    char done = 'd';
    if (!turns.inside)
        return;
    (void)send(turns.relay_fd, &done, 1, MSG_NOSIGNAL);  // (a judge gone: nothing waits)
    close(turns.relay_fd);
    turns.relay_fd = -1, turns.inside = 0;
}
