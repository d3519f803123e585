// grader/emu/runtime/scheduler.cpp — runs the CUDA threads of one block.
//
// Threads start one after another as plain calls on the launching stack. A
// block none of whose threads synchronises never needs more: the naive sweep
// costs one call per thread. The first barrier or warp operation turns the
// block into fibers: the thread that reached it keeps the launching stack (it
// is suspended there), a scheduler fiber takes over, and every thread not yet
// started gets a stack of its own. The scheduler then runs passes: each pass
// resumes every runnable thread, in the configured order, until it waits or
// returns; between passes it releases the warp operations and the barrier all
// of whose threads arrived, and reports an error when nothing can be released
// although some thread waits.
//
// An error stops the block: every suspended thread is resumed once more and
// throws emu_abort, which unwinds its frames to its entry (so ASan sees every
// stack frame leave properly).
#include <cstdint>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"
#include "internal.h"

// Thrown into a thread to unwind it when the block stops.
struct emu_abort {};

enum thread_state {
    THREAD_NOT_STARTED,   // has not run yet
    THREAD_RUNNABLE,      // released from a wait, not resumed yet
    THREAD_RUNNING,       // runs now
    THREAD_AT_BARRIER,    // waits in __syncthreads() or a variant
    THREAD_AT_WARP_OP,    // waits in a warp operation
    THREAD_DONE           // returned from the kernel (or was unwound)
};

// Where a thread waits or returned.
typedef struct emu_site {
    const char *file;     // as __builtin_FILE() / __FILE__ gave it; NULL when unknown
    int line;             // line in it
} emu_site;

// One CUDA thread of the running block.
typedef struct emu_thread {
    unsigned char state;      // thread_state
    unsigned char kind;       // emu_barrier_kind or emu_warp_kind of its wait
    emu_site wait;            // where it waits
    emu_site exit;            // where it returned, when the translator told
    int predicate;            // the barrier predicate it brought
    unsigned int mask;        // the lanes its warp operation names
    uint64_t value;           // the value it brought to a warp operation
    int arg;                  // the operation's lane, delta or lane mask
    int width;                // the shuffle's segment width
    uint64_t result;          // what its warp operation returns
    emu_fiber fiber;          // its context while suspended
} emu_thread;

// The block being run.
static struct block_run {
    emu_thread threads[EMU_MAX_BLOCK_THREADS];  // indexed by linear thread id
    unsigned int order[EMU_MAX_BLOCK_THREADS];  // the order of a pass
    unsigned int place[EMU_MAX_BLOCK_THREADS];  // each thread's place in it (order[place[id]] == id)
    unsigned int count;                         // threads in the block
    int fibers;                                 // 1 once a thread synchronised
    int warp_ops;                               // 1 once a thread waited in a warp operation (none: no lane to release)
    unsigned int pass_at;                       // the place in the pass's order of the thread it ran last
    int in_pass;                                // 1 while the scheduler waits on a thread of its pass (threads hand on: thread_hand_on)
    unsigned int filled_count;                  // the block size order and place were last filled for (0: none)
    int filled_order;                           // and in which order (emu_opts.order then)
    int aborting;                               // 1 once an error stopped the block
    int barrier_result;                         // what the last released barrier computed
    emu_thread *running;                        // the thread running now, NULL between threads
    uint64_t random;                            // shuffle state
    emu_fiber scheduler;                        // the scheduler's context
    emu_fiber launch_return;                    // the launching stack, waiting for the block's end
} blk;

static emu_stack thread_stacks[EMU_MAX_BLOCK_THREADS];  // created on first use
static emu_stack scheduler_stack;                       // created on first use
static int stacks_need_forgetting;                      // 1 after an abort left frames behind

// ---------------------------------------------------------------------------
// Names and messages
// ---------------------------------------------------------------------------

// The CUDA function name of a wait kind, for messages.
static const char *wait_name(const emu_thread *t)
{
    static const char *const barriers[] = {"__syncthreads()", "__syncthreads_count()",
                                           "__syncthreads_and()", "__syncthreads_or()"};
    static const char *const warps[] = {"__syncwarp()", "__shfl_sync()", "__shfl_up_sync()",
                                        "__shfl_down_sync()", "__shfl_xor_sync()", "__all_sync()",
                                        "__any_sync()", "__ballot_sync()", "__reduce_add_sync()",
                                        "__reduce_min_sync()", "__reduce_max_sync()",
                                        "__reduce_min_sync()", "__reduce_max_sync()"};
    if (t->state == THREAD_AT_BARRIER)
        return barriers[t->kind];
    return warps[t->kind];
}

// The linear id of thread t.
static unsigned int thread_id(const emu_thread *t)
{
    return (unsigned int)(t - blk.threads);
}

// The kernel's name, for messages.
static const char *kernel_name(void)
{
    return emu_current_launch ? emu_current_launch->request->name : "?";
}

// Writes "thread (x,y,z)" for t.
static void describe_short(const emu_thread *t, char *out, size_t len)
{
    uint3 i = emu_current_launch->thread_index[thread_id(t)];
    snprintf(out, len, "thread (%u,%u,%u)", i.x, i.y, i.z);
}

// Writes what t is doing: "waits at f:L", "returned at f:L", ...
static void describe_state(const emu_thread *t, int name_the_call, char *out, size_t len)
{
    if (t->state == THREAD_DONE) {
        if (t->exit.file)
            snprintf(out, len, "returned at %s:%d", emu_basename(t->exit.file), t->exit.line);
        else
            snprintf(out, len, "returned from the kernel");
    } else if (name_the_call) {
        snprintf(out, len, "waits at %s at %s:%d", wait_name(t), emu_basename(t->wait.file), t->wait.line);
    } else {
        snprintf(out, len, "waits at %s:%d", emu_basename(t->wait.file), t->wait.line);
    }
}

void emu_describe_thread(char *out, size_t len, unsigned int tid)
{
    uint3 i = emu_current_launch->thread_index[tid];
    snprintf(out, len, "thread (%u,%u,%u) of block (%u,%u,%u)", i.x, i.y, i.z, blockIdx.x, blockIdx.y,
             blockIdx.z);
}

int emu_running_thread(void)
{
    return blk.running ? (int)thread_id(blk.running) : -1;
}

// ---------------------------------------------------------------------------
// Stacks
// ---------------------------------------------------------------------------

// Creates stack if it does not exist yet; exits when the system refuses.
static void stack_ensure(emu_stack *stack)
{
    if (stack->bottom)
        return;
    if (emu_stack_create(stack, emu_opts.stack_bytes) != 0) {
        fprintf(stderr, "stencil-emu: cannot map a %zu KiB stack for a CUDA thread\n",
                emu_opts.stack_bytes >> 10);
        exit(2);
    }
}

// Clears what ASan remembers of frames an abort left on the stacks.
static void stacks_forget_frames(void)
{
    for (unsigned int i = 0; i < EMU_MAX_BLOCK_THREADS; i++)
        if (thread_stacks[i].bottom)
            emu_stack_forget_frames(&thread_stacks[i]);
    if (scheduler_stack.bottom)
        emu_stack_forget_frames(&scheduler_stack);
    stacks_need_forgetting = 0;
}

int emu_stack_describe(const void *address, char *out, size_t len)
{
    size_t page = 4096;
    for (unsigned int i = 0; i < EMU_MAX_BLOCK_THREADS; i++) {
        const char *bottom = (const char *)thread_stacks[i].bottom;
        if (bottom && (const char *)address < bottom && (const char *)address >= bottom - page) {
            snprintf(out, len, "stack overflow (each CUDA thread that synchronises has %zu KiB; "
                               "STENCIL_EMU_STACK_KB sets it)", emu_opts.stack_bytes >> 10);
            return 1;
        }
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------

// Fills blk.order with the configured order of the block's threads, and blk.place.
static void order_fill(void)
{
    unsigned int n = blk.count;
    for (unsigned int i = 0; i < n; i++)
        blk.order[i] = emu_opts.order == EMU_ORDER_REVERSE ? n - 1 - i : i;
    if (emu_opts.order == EMU_ORDER_SHUFFLE) {
        for (unsigned int i = n; i > 1; i--) {
            unsigned int j = (unsigned int)(emu_random_next(&blk.random) % i);
            unsigned int t = blk.order[i - 1];
            blk.order[i - 1] = blk.order[j];
            blk.order[j] = t;
        }
    }
    for (unsigned int i = 0; i < n; i++)
        blk.place[blk.order[i]] = i;
    blk.filled_count = n, blk.filled_order = emu_opts.order;
}

// ---------------------------------------------------------------------------
// Running threads
// ---------------------------------------------------------------------------

// Makes t the running thread.
static void thread_enter(emu_thread *t)
{
    t->state = THREAD_RUNNING;
    blk.running = t;
    threadIdx = emu_current_launch->thread_index[thread_id(t)];
}

// Runs the kernel for the running thread; an abort ends it early.
static void thread_body(void)
{
    const emu::launch_request *r = emu_current_launch->request;
    try {
        r->run_thread(r->closure);
    } catch (const emu_abort &) {
        // the block stopped; the error is recorded
    }
    blk.running->state = THREAD_DONE;
    blk.running = NULL;
}

static void thread_fiber_main(void *arg);

// Makes t ready to be switched to: its fiber prepared on its stack if it has
// not started, its state running.
static void thread_make_ready(emu_thread *t)
{
    if (t->state == THREAD_NOT_STARTED) {
        emu_stack *stack = &thread_stacks[thread_id(t)];
        stack_ensure(stack);
        emu_fiber_prepare(&t->fiber, stack, thread_fiber_main, t);
    }
    t->state = THREAD_RUNNING;
}

// The thread that t (waiting at a barrier, or returned) hands the CPU on
// to, made ready to run, or NULL (back to the scheduler): the next in the
// pass's order that can run, as the scheduler itself would resume it, with
// no switch through it between the two (half the switches of a pass). Only
// while the scheduler runs its pass (not a warp's run-on, not an unwinding)
// and in a block no warp operation has waited in, where the scheduler would
// do nothing between the two threads (run_warp_on: no warp operation to complete).
static emu_thread *thread_hand_on(const emu_thread *t)
{
    if (!blk.in_pass || blk.warp_ops || blk.aborting || (t->state != THREAD_AT_BARRIER && t->state != THREAD_DONE))
        return NULL;
    for (unsigned int at = blk.pass_at + 1; at < blk.count; at++) {
        emu_thread *u = &blk.threads[blk.order[at]];
        if (u->state != THREAD_NOT_STARTED && u->state != THREAD_RUNNABLE)
            continue;
        thread_make_ready(u);
        blk.pass_at = at;
        return u;
    }
    return NULL;
}

// Entry of a thread's fiber: runs the kernel, then hands back to the scheduler.
static void thread_fiber_main(void *arg)
{
    emu_fiber_started();
    emu_thread *t = (emu_thread *)arg;
    thread_enter(t);
    if (blk.aborting) {
        t->state = THREAD_DONE;
        blk.running = NULL;
    } else {
        thread_body();
    }
    emu_thread *next = thread_hand_on(t);
    emu_fiber_exit(next ? &next->fiber : &blk.scheduler);
}

static void scheduler_main(void *arg);

// Suspends the running thread t (state and wait already set) until the
// scheduler releases it; throws emu_abort when the block stops meanwhile.
static void thread_wait(emu_thread *t)
{
    if (!blk.fibers) {
        // t runs on the launching stack: the switch below teaches its bounds to ASan's bookkeeping
        stack_ensure(&scheduler_stack);
        emu_fiber_prepare(&blk.scheduler, &scheduler_stack, scheduler_main, NULL);
        t->fiber.stack_bottom = NULL;
        t->fiber.stack_size = 0;
        blk.fibers = 1;
    }
    blk.running = NULL;
    emu_thread *next = thread_hand_on(t);
    emu_fiber_switch(&t->fiber, next ? &next->fiber : &blk.scheduler);
    thread_enter(t);
    if (blk.aborting)
        throw emu_abort();
}

// Runs thread t plainly on the launching stack. When the block turned into
// fibers meanwhile, lets the scheduler finish the block before returning.
static void thread_run_plain(emu_thread *t)
{
    thread_enter(t);
    thread_body();
    if (blk.fibers)
        emu_fiber_switch(&blk.launch_return, &blk.scheduler);
}

// Resumes (or starts) t from the scheduler; returns when t waits or returns
// (or the last of the threads it handed on to does).
static void scheduler_resume(emu_thread *t)
{
    thread_make_ready(t);
    emu_fiber_switch(&blk.scheduler, &t->fiber);
}

// ---------------------------------------------------------------------------
// Warp operations
// ---------------------------------------------------------------------------

// True when u waits in the same warp operation as t (same kind and mask;
// the same call site too, except for __syncwarp, which may join other sites).
static int warp_op_matches(const emu_thread *t, const emu_thread *u)
{
    if (u->state != THREAD_AT_WARP_OP || u->kind != t->kind || u->mask != t->mask)
        return 0;
    if (t->kind == EMU_WARP_SYNC)
        return 1;
    return u->wait.line == t->wait.line && (u->wait.file == t->wait.file || strcmp(u->wait.file, t->wait.file) == 0);
}

// The first lane named by t's mask that keeps t's warp operation from
// completing, or NULL when all of them are there (or have returned).
static emu_thread *warp_op_blocker(const emu_thread *t)
{
    unsigned int warp_base = thread_id(t) & ~31u;
    for (unsigned int lane = 0; lane < 32; lane++) {
        unsigned int id = warp_base + lane;
        if (!(t->mask >> lane & 1u) || id >= blk.count)
            continue;
        emu_thread *u = &blk.threads[id];
        if (u->state != THREAD_DONE && !warp_op_matches(t, u))
            return u;
    }
    return NULL;
}

// True when some lane named by t's mask keeps t's warp operation from
// completing (warp_op_blocker finds one). The lanes after t's own are looked
// at first: lanes mostly arrive in order, so the one not there yet is found
// at once and a warp operation costs its 32 arrivals about 64 checks, not a
// thousand (the scheduler's hot path; warp_op_blocker names the first lane).
static int warp_op_blocked(const emu_thread *t)
{
    unsigned int warp_base = thread_id(t) & ~31u, own = thread_id(t) & 31u;
    for (unsigned int k = 1; k <= 32; k++) {
        unsigned int lane = (own + k) & 31u, id = warp_base + lane;
        if (!(t->mask >> lane & 1u) || id >= blk.count)
            continue;
        const emu_thread *u = &blk.threads[id];
        if (u->state != THREAD_DONE && !warp_op_matches(t, u))
            return 1;
    }
    return 0;
}

// The lane thread t of a shuffle reads (0-31 of its warp), or its own lane.
static unsigned int shuffle_source(const emu_thread *t)
{
    unsigned int lane = thread_id(t) & 31u, width = (unsigned int)t->width;
    unsigned int segment = lane & ~(width - 1), arg = (unsigned int)t->arg;
    switch (t->kind) {
    case EMU_WARP_SHFL_IDX:
        return segment + (arg & (width - 1));
    case EMU_WARP_SHFL_UP:
        return lane - segment >= arg ? lane - arg : lane;
    case EMU_WARP_SHFL_DOWN:
        return lane - segment + arg < width ? lane + arg : lane;
    default:  // EMU_WARP_SHFL_XOR: later segments are out of reach
        return (lane ^ arg) < segment + width ? (lane ^ arg) : lane;
    }
}

// Records the error of a shuffle reading a lane that does not take part.
static void shuffle_source_error(const emu_thread *t, unsigned int source)
{
    char who[96];
    char why[96];
    unsigned int id = (thread_id(t) & ~31u) + source;
    emu_describe_thread(who, sizeof(who), thread_id(t));
    if (id >= blk.count)
        snprintf(why, sizeof(why), "which does not exist (the block has %u threads)", blk.count);
    else if (blk.threads[id].state == THREAD_DONE)
        snprintf(why, sizeof(why), "which has returned from the kernel");
    else
        snprintf(why, sizeof(why), "which is not in the mask 0x%08x", t->mask);
    emu_execution_error(cudaErrorLaunchFailure,
                        "%s in %s: %s at %s:%d reads lane %u of its warp, %s: the value is undefined on a GPU",
                        wait_name(t), kernel_name(), who, emu_basename(t->wait.file), t->wait.line, source,
                        why);
}

// Computes the result of t's shuffle from the participants; 0, or -1 on error.
static int shuffle_compute(emu_thread *t)
{
    unsigned int source = shuffle_source(t);
    unsigned int id = (thread_id(t) & ~31u) + source;
    if (source == (thread_id(t) & 31u)) {
        t->result = t->value;
        return 0;
    }
    if (source >= 32 || id >= blk.count || !(t->mask >> source & 1u) ||
        !warp_op_matches(t, &blk.threads[id])) {
        shuffle_source_error(t, source);
        return -1;
    }
    t->result = blk.threads[id].value;
    return 0;
}

// Computes a vote or reduction over the participants of t's warp operation.
static uint64_t warp_combine(const emu_thread *t)
{
    unsigned int warp_base = thread_id(t) & ~31u;
    uint64_t all = 1, any = 0, ballot = 0, sum = 0;
    uint32_t umin = UINT32_MAX, umax = 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    for (unsigned int lane = 0; lane < 32 && warp_base + lane < blk.count; lane++) {
        const emu_thread *u = &blk.threads[warp_base + lane];
        if (!(t->mask >> lane & 1u) || !warp_op_matches(t, u))
            continue;
        uint32_t v = (uint32_t)u->value;
        all &= v != 0;
        any |= v != 0;
        ballot |= (uint64_t)(v != 0) << lane;
        sum += v;
        umin = v < umin ? v : umin;
        umax = v > umax ? v : umax;
        smin = (int32_t)v < smin ? (int32_t)v : smin;
        smax = (int32_t)v > smax ? (int32_t)v : smax;
    }
    switch (t->kind) {
    case EMU_WARP_ALL: return all;
    case EMU_WARP_ANY: return any;
    case EMU_WARP_BALLOT: return ballot;
    case EMU_WARP_REDUCE_ADD: return (uint32_t)sum;
    case EMU_WARP_REDUCE_MIN: return umin;
    case EMU_WARP_REDUCE_MAX: return umax;
    case EMU_WARP_REDUCE_MIN_SIGNED: return (uint32_t)smin;
    default: return (uint32_t)smax;  // EMU_WARP_REDUCE_MAX_SIGNED
    }
}

// Completes the warp operation t waits in: computes every participant's
// result and makes them runnable. Returns 0, or -1 on error.
static int warp_op_release(emu_thread *t)
{
    unsigned int warp_base = thread_id(t) & ~31u;
    emu_thread *group[32];
    int n = 0;
    for (unsigned int lane = 0; lane < 32 && warp_base + lane < blk.count; lane++) {
        emu_thread *u = &blk.threads[warp_base + lane];
        if ((t->mask >> lane & 1u) && warp_op_matches(t, u))
            group[n++] = u;
    }
    for (int i = 0; i < n; i++) {
        if (t->kind >= EMU_WARP_SHFL_IDX && t->kind <= EMU_WARP_SHFL_XOR) {
            if (shuffle_compute(group[i]) != 0)
                return -1;
        } else if (t->kind != EMU_WARP_SYNC) {
            group[i]->result = warp_combine(group[i]);
        }
    }
    for (int i = 0; i < n; i++)
        group[i]->state = THREAD_RUNNABLE;
    return 0;
}

// Releases every warp operation all of whose lanes arrived; returns how many
// were released, or -1 on error.
static int warp_ops_release_ready(void)
{
    int released = 0;
    for (unsigned int id = 0; id < blk.count; id++) {
        emu_thread *t = &blk.threads[id];
        if (t->state != THREAD_AT_WARP_OP || warp_op_blocked(t))
            continue;
        if (warp_op_release(t) != 0)
            return -1;
        released++;
    }
    return released;
}

// ---------------------------------------------------------------------------
// Barriers
// ---------------------------------------------------------------------------

// True when every thread waits at the same barrier (none has returned).
static int barrier_complete(void)
{
    const emu_thread *first = &blk.threads[0];
    for (unsigned int id = 0; id < blk.count; id++) {
        const emu_thread *t = &blk.threads[id];
        if (t->state != THREAD_AT_BARRIER || t->wait.line != first->wait.line ||
            (t->wait.file != first->wait.file && strcmp(t->wait.file, first->wait.file) != 0))
            return 0;
    }
    return 1;
}

// Releases the barrier every thread reached: computes its result.
static void barrier_release(void)
{
    int count = 0;
    for (unsigned int id = 0; id < blk.count; id++) {
        count += blk.threads[id].predicate != 0;
        blk.threads[id].state = THREAD_RUNNABLE;
    }
    switch (blk.threads[0].kind) {
    case EMU_BARRIER_COUNT: blk.barrier_result = count; break;
    case EMU_BARRIER_AND: blk.barrier_result = count == (int)blk.count; break;
    case EMU_BARRIER_OR: blk.barrier_result = count > 0; break;
    default: blk.barrier_result = 0; break;
    }
}

// ---------------------------------------------------------------------------
// Stalls: nothing can proceed although some thread waits
// ---------------------------------------------------------------------------

// Reports a warp operation some lane of which is elsewhere; 1 if one was found.
static int report_warp_stall(void)
{
    for (unsigned int id = 0; id < blk.count; id++) {
        const emu_thread *t = &blk.threads[id];
        const emu_thread *u = t->state == THREAD_AT_WARP_OP ? warp_op_blocker(t) : NULL;
        if (!u)
            continue;
        char who[96], other[48], what[160];
        emu_describe_thread(who, sizeof(who), id);
        describe_short(u, other, sizeof(other));
        describe_state(u, 1, what, sizeof(what));
        if (u->state == THREAD_AT_WARP_OP && u->mask != t->mask)
            snprintf(what + strlen(what), sizeof(what) - strlen(what), " with mask 0x%08x", u->mask);
        emu_execution_error(cudaErrorLaunchFailure,
                            "warp divergence in %s: %s waits at %s at %s:%d (mask 0x%08x) but %s of the same warp %s",
                            kernel_name(), who, wait_name(t), emu_basename(t->wait.file), t->wait.line, t->mask,
                            other, what);
        return 1;
    }
    return 0;
}

// Reports a barrier not reached by every thread: names a waiting thread and
// one that returned or waits elsewhere.
static void report_barrier_stall(void)
{
    const emu_thread *waiting = NULL, *other = NULL;
    for (unsigned int id = 0; id < blk.count && !waiting; id++)
        if (blk.threads[id].state == THREAD_AT_BARRIER)
            waiting = &blk.threads[id];
    for (unsigned int id = 0; id < blk.count && waiting && !other; id++) {
        const emu_thread *t = &blk.threads[id];
        if (t->state == THREAD_AT_BARRIER &&
            (t->wait.line != waiting->wait.line || strcmp(t->wait.file, waiting->wait.file) != 0))
            other = t;
    }
    for (unsigned int id = 0; id < blk.count && waiting && !other; id++)
        if (blk.threads[id].state != THREAD_AT_BARRIER)
            other = &blk.threads[id];
    if (!waiting || !other) {
        emu_execution_error(cudaErrorLaunchFailure, "the block scheduler of %s stalled", kernel_name());
        return;
    }
    char who[96], name[48], what[160], where[160];
    emu_describe_thread(who, sizeof(who), thread_id(waiting));
    describe_short(other, name, sizeof(name));
    describe_state(waiting, 0, where, sizeof(where));
    describe_state(other, other->state != THREAD_AT_BARRIER, what, sizeof(what));
    emu_execution_error(cudaErrorLaunchFailure, "%s divergence in %s: %s %s but %s %s", wait_name(waiting),
                        kernel_name(), who, where, name, what);
}

// ---------------------------------------------------------------------------
// The scheduler
// ---------------------------------------------------------------------------

// How many of its warp operations a warp may complete in a row within one
// pass before the pass goes on to the next thread: a warp that polls, in a
// loop with a warp operation, what another warp of the block will set must
// let that warp run.
#define EMU_WARP_RUN_ON 32

// A lane of t's warp whose warp operation t completed by arriving at it (t
// itself) or by returning (a lane that waits for the others), or NULL. Only
// t's own operation is checked when it waits (warp_op_blocked: the lanes
// after t's first, where the one not there yet mostly is).
static emu_thread *warp_op_completed_by(emu_thread *t)
{
    if (t->state == THREAD_AT_WARP_OP)
        return warp_op_blocked(t) ? NULL : t;
    if (t->state != THREAD_DONE || !blk.warp_ops)
        return NULL;
    unsigned int warp_base = thread_id(t) & ~31u;
    for (unsigned int lane = 0; lane < 32 && warp_base + lane < blk.count; lane++) {
        emu_thread *u = &blk.threads[warp_base + lane];
        if (u->state == THREAD_AT_WARP_OP && !warp_op_blocked(u))
            return u;
    }
    return NULL;
}

// A warp does not wait for the block's other warps at a warp operation: once
// its last lane arrives at it (or returns), the operation completes and the
// warp's lanes run on at once (in the pass's order), before the threads of
// the pass after t have run, and so on for up to EMU_WARP_RUN_ON operations.
// (Released only between passes, every warp would reach its first
// __syncwarp() before any ran on, and __syncwarp() in place of a
// __syncthreads() would pass.) Returns 0, or -1 on error.
static int run_warp_on(emu_thread *t)
{
    unsigned int warp_base = thread_id(t) & ~31u;
    emu_thread *ready = warp_op_completed_by(t);
    for (int n = 0; n < EMU_WARP_RUN_ON && !blk.aborting && ready; n++) {
        if (warp_op_release(ready) != 0)
            return -1;
        // The warp's lanes in the pass's order (insertion-sorted by their place in it).
        unsigned int lanes[32], count = 0;
        for (unsigned int id = warp_base; id < warp_base + 32 && id < blk.count; id++) {
            unsigned int at = count++;
            while (at > 0 && blk.place[lanes[at - 1]] > blk.place[id]) {
                lanes[at] = lanes[at - 1];
                at--;
            }
            lanes[at] = id;
        }
        ready = NULL;
        for (unsigned int i = 0; i < count && !blk.aborting; i++) {
            emu_thread *u = &blk.threads[lanes[i]];
            if (u->state != THREAD_RUNNABLE)
                continue;
            scheduler_resume(u);
            if (!ready)
                ready = warp_op_completed_by(u);  // the next operation the run-on completes, if any
        }
    }
    return 0;
}

// Resumes every thread that can run, in this pass's order. Returns 0, or -1
// on error.
static int run_pass(void)
{
    if (emu_opts.order == EMU_ORDER_SHUFFLE)
        order_fill();
    for (blk.pass_at = 0; blk.pass_at < blk.count && !blk.aborting; blk.pass_at++) {
        emu_thread *t = &blk.threads[blk.order[blk.pass_at]];
        if (t->state == THREAD_NOT_STARTED || t->state == THREAD_RUNNABLE) {
            blk.in_pass = 1;
            scheduler_resume(t);  // (the threads after it in the order may run too, each handing on: blk.pass_at the last)
            blk.in_pass = 0;
            if (run_warp_on(&blk.threads[blk.order[blk.pass_at]]) != 0)
                return -1;
        }
    }
    return 0;
}

// True when every thread has returned.
static int all_done(void)
{
    for (unsigned int id = 0; id < blk.count; id++)
        if (blk.threads[id].state != THREAD_DONE)
            return 0;
    return 1;
}

// Resumes every suspended thread once more so that it unwinds (the block stopped).
static void unwind_all(void)
{
    blk.aborting = 1;
    stacks_need_forgetting = 1;
    for (unsigned int id = 0; id < blk.count; id++) {
        emu_thread *t = &blk.threads[id];
        if (t->state == THREAD_NOT_STARTED)
            t->state = THREAD_DONE;
        else if (t->state != THREAD_DONE)
            scheduler_resume(t);
    }
}

// Runs passes until every thread returned or an error stopped the block.
static void schedule_block(void)
{
    for (;;) {
        if (run_pass() != 0 || blk.aborting)
            break;
        int released = warp_ops_release_ready();
        if (released < 0)
            break;
        if (released > 0)
            continue;
        if (all_done())
            return;
        if (barrier_complete()) {
            barrier_release();
            continue;
        }
        if (!report_warp_stall())
            report_barrier_stall();
        break;
    }
    unwind_all();
}

// Entry of the scheduler fiber: finishes the block, then resumes the
// launching stack where its first thread returned.
static void scheduler_main(void *arg)
{
    (void)arg;
    emu_fiber_started();
    schedule_block();
    emu_fiber_exit(&blk.launch_return);
}

// ---------------------------------------------------------------------------
// Entry points: the block, and device code's synchronising calls
// ---------------------------------------------------------------------------

// Prepares the thread table and the order for the block whose blockIdx is set.
static void block_reset(void)
{
    const emu_running_launch *L = emu_current_launch;
    blk.count = L->block_threads;
    blk.fibers = 0;
    blk.warp_ops = 0;
    blk.in_pass = 0;
    blk.aborting = 0;
    blk.running = NULL;
    blk.launch_return.stack_bottom = NULL;
    blk.launch_return.stack_size = 0;
    blk.random = emu_opts.seed ^ (0x9e3779b97f4a7c15ull * (1 + blockIdx.x + 65536ull * blockIdx.y) +
                                  0xc2b2ae3d27d4eb4full * blockIdx.z);
    for (unsigned int id = 0; id < blk.count; id++) {
        emu_thread *t = &blk.threads[id];
        t->state = THREAD_NOT_STARTED;
        t->exit.file = NULL;
        t->exit.line = 0;
    }
    if (emu_opts.order == EMU_ORDER_SHUFFLE || blk.filled_count != blk.count || blk.filled_order != emu_opts.order)
        order_fill();  // (forward and reverse: the same for every block of a size)
}

int emu_run_block(void)
{
    if (stacks_need_forgetting)
        stacks_forget_frames();
    block_reset();
    for (unsigned int i = 0; i < blk.count && !blk.fibers && !blk.aborting; i++)
        thread_run_plain(&blk.threads[blk.order[i]]);
    blk.running = NULL;
    return blk.aborting || emu_execution_failed() ? -1 : 0;
}

// Stops the block from inside the running thread: records nothing (the
// caller did) and unwinds.
[[noreturn]] static void thread_abort(void)
{
    blk.aborting = 1;
    throw emu_abort();
}

// The running thread, or a stop when device code synchronises outside a kernel.
static emu_thread *running_or_die(const char *what, const char *file, int line)
{
    if (blk.running)
        return blk.running;
    fprintf(stderr, "stencil-emu: %s called outside a kernel at %s:%d\n", what, emu_basename(file), line);
    exit(2);
}

// Marks t as waiting at file:line in state (a barrier or a warp operation),
// its kind of wait the barrier's or the warp operation's kind.
static void thread_mark_wait(emu_thread *t, thread_state state, int kind, const char *file, int line)
{
    t->state = (unsigned char)state;
    t->kind = (unsigned char)kind;
    t->wait.file = file;
    t->wait.line = line;
}

int emu_barrier(enum emu_barrier_kind kind, int predicate, const char *file, int line)
{
    emu_thread *t = running_or_die("__syncthreads()", file, line);
    thread_mark_wait(t, THREAD_AT_BARRIER, kind, file, line);
    t->predicate = predicate;
    thread_wait(t);
    return blk.barrier_result;
}

// Checks a warp operation's mask and width; records the error and stops when they are wrong.
static void warp_op_check(const emu_thread *t, const char *file, int line)
{
    char who[96];
    unsigned int lane = thread_id(t) & 31u;
    const char *why = NULL;
    if (!(t->mask >> lane & 1u))
        why = "its mask does not name the calling lane";
    else if (t->width < 1 || t->width > 32 || (t->width & (t->width - 1)) != 0)
        why = "its width is not a power of two from 1 to 32";
    if (!why)
        return;
    emu_describe_thread(who, sizeof(who), thread_id(t));
    emu_execution_error(cudaErrorLaunchFailure, "%s at %s:%d in %s: %s (mask 0x%08x, width %d, %s)",
                        wait_name(t), emu_basename(file), line, kernel_name(), why, t->mask, t->width, who);
    thread_abort();
}

uint64_t emu_warp_op(enum emu_warp_kind kind, unsigned int mask, uint64_t value, int arg, int width,
                     const char *file, int line)
{
    emu_thread *t = running_or_die("a warp operation", file, line);
    thread_mark_wait(t, THREAD_AT_WARP_OP, kind, file, line);
    blk.warp_ops = 1;
    t->mask = mask;
    t->value = value;
    t->arg = arg;
    t->width = width;
    warp_op_check(t, file, line);
    thread_wait(t);
    return t->result;
}

unsigned int emu_active_mask(void)
{
    emu_thread *t = running_or_die("__activemask()", "?", 0);
    unsigned int warp_base = thread_id(t) & ~31u, mask = 0;
    for (unsigned int lane = 0; lane < 32 && warp_base + lane < blk.count; lane++)
        if (blk.threads[warp_base + lane].state != THREAD_DONE)
            mask |= 1u << lane;
    return mask;
}

void emu_kernel_exit(const char *file, int line)
{
    if (!blk.running)
        return;
    blk.running->exit.file = file;
    blk.running->exit.line = line;
}

void emu_trap(const char *what, const char *file, int line)
{
    char who[96];
    emu_thread *t = running_or_die(what, file, line);
    emu_describe_thread(who, sizeof(who), thread_id(t));
    emu_execution_error(cudaErrorLaunchFailure, "%s in %s: %s called it at %s:%d", what, kernel_name(), who,
                        emu_basename(file), line);
    thread_abort();
}
