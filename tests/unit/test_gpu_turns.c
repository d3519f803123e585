// tests/unit/test_gpu_turns.c — judges and their helpers taking turns on a
// GPU through lock files (grader/judge/gpu_turns.c, grader/protocol/gpu_locks.h),
// without a GPU: compute-sanitizer's run (the executor taking its shared turn
// around its GPU work, no profiler lock) keeps a timer out while it holds it;
// Nsight Compute's runs (the executor taking the locks gpu_turns_lock_spec
// names) go one at a time; and a run waiting for the profiler holds no turn,
// so a timer is not kept waiting behind it (the convoy a GPU suite of 12
// judges met); and the relay runs a judge's load count inside its turn alone.
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "gpu_locks.h"
#include "gpu_turns.h"

static judge_run the_run;          // the run the turns are recorded in
static char lock_dir[64];          // this test's lock folder

// 1 if lock file NAME of GPU 0 can be taken alone right now (nobody holds it).
static int lock_free(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/gpu-0.%s", lock_dir, name);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    assert_true(fd >= 0);
    int free_now = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return free_now;
}

// Waits (up to 5 s) until lock NAME is held by someone, or released (want_held 0).
static int lock_becomes(const char *name, int want_held)
{
    for (int i = 0; i < 500; i++) {
        if (lock_free(name) != want_held)
            return 1;
        usleep(10000);
    }
    return 0;
}

static int setup(void **state)
{
    (void)state;
    (void)test_seed();
    snprintf(lock_dir, sizeof(lock_dir), "/tmp/stencil-turns-XXXXXX");
    assert_non_null(mkdtemp(lock_dir));
    gpu_turns_init(lock_dir, 1, &the_run);
    judge_error err;
    assert_int_equal(gpu_turns_take(0, &err), 0);  // the judge's first turn picks GPU 0
    gpu_turns_give();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", lock_dir);
    return system(cmd);
}

// A run under compute-sanitizer: the executor's process, taking the turn the
// judge names for it (no profiler's lock), long (shared), holding it until killed.
static pid_t sanitized_run(void)
{
    char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
    assert_int_equal(gpu_turns_lock_spec(GPU_TURN_LONG, NULL, spec, sizeof(spec)), 1);
    assert_int_equal(strncmp(spec, GPU_LOCK_NO_TOOL ",", 2), 0);
    assert_non_null(strstr(spec, ",long"));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fds[GPU_LOCKS_FILES];
        if (gpu_locks_take(spec, fds) != 0 || fds[0] != -1)
            _exit(3);
        for (;;)
            pause();
    }
    return pid;
}

// A run under Nsight Compute, or the load count: the executor's process,
// taking the locks the judge names for it (alone or shared), holding them
// until killed.
static pid_t profiled_run(int alone)
{
    char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
    assert_int_equal(gpu_turns_lock_spec(alone, GPU_LOCK_PROFILER, spec, sizeof(spec)), 1);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fds[GPU_LOCKS_FILES];
        if (gpu_locks_take(spec, fds) != 0)
            _exit(3);
        for (;;)
            pause();
    }
    return pid;
}

static void end(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_sanitizer_turn_keeps_timer_out(void **state)
{
    (void)state;
    pid_t h = sanitized_run();
    assert_true(lock_becomes("lock", 1));   // the sanitizer's shared turn, and no profiler lock
    assert_false(lock_free("lock"));        // a timer (exclusive) cannot start beside it
    assert_false(lock_free(GPU_LOCK_TOOLS)); // a long turn: tools held too
    assert_true(lock_free("profiler"));
    end(h);
    assert_true(lock_becomes("lock", 0));   // its turn ends with it
    assert_true(lock_becomes(GPU_LOCK_TOOLS, 0));
}

// The judge's turn of mode in a process of its own (a judge beside), held until killed; it
// touches done once it holds it.
static pid_t judge_beside(int exclusive, const char *done)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        judge_error err;
        gpu_turns_init(lock_dir, 1, &the_run);
        if (gpu_turns_take(exclusive, &err) != 0)
            _exit(3);
        close(open(done, O_WRONLY | O_CREAT, 0644));
        for (;;)
            pause();
    }
    return pid;
}

// 1 once path exists (up to 5 s).
static int appears(const char *path)
{
    for (int i = 0; i < 500; i++) {
        if (access(path, F_OK) == 0)
            return 1;
        usleep(10000);
    }
    return 0;
}

// A timer waiting for a long turn (compute-sanitizer's: 20 s with a race) holds no gate: the
// short shared turns of judges beside go on meanwhile (before, the GPU sat idle, every judge
// behind the timer's gate); a second long turn asked for meanwhile waits for the timer; the
// timer goes once the long turn ends, and gives tools back while it times.
static void test_timer_waits_for_long_turn_without_gate(void **state)
{
    (void)state;
    char timed[PATH_MAX], shared[PATH_MAX], second_done[PATH_MAX];
    snprintf(timed, sizeof(timed), "%s/timed", lock_dir);
    snprintf(shared, sizeof(shared), "%s/shared", lock_dir);
    snprintf(second_done, sizeof(second_done), "%s/second", lock_dir);
    pid_t sanitizer = sanitized_run();
    assert_true(lock_becomes(GPU_LOCK_TOOLS, 1) && lock_becomes("lock", 1));
    pid_t timer = judge_beside(1, timed);
    assert_true(lock_becomes(GPU_LOCK_TOOLS_GATE, 1));  // the timer waits for tools, through its gate
    usleep(50000 + (useconds_t)(test_seed() % 100000));
    assert_int_equal(access(timed, F_OK), -1);          // not beside the long turn
    assert_true(lock_free("gate"));                      // and the turn's gate is free:
    pid_t judge = judge_beside(0, shared);
    assert_true(appears(shared));                        // a short shared turn goes on
    end(judge);
    pid_t second = fork();                               // a second long turn, asked for now
    assert_true(second >= 0);
    if (second == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
        int fds[GPU_LOCKS_FILES];
        if (gpu_turns_lock_spec(GPU_TURN_LONG, NULL, spec, sizeof(spec)) != 1 || gpu_locks_take(spec, fds) != 0)
            _exit(3);
        close(open(second_done, O_WRONLY | O_CREAT, 0644));
        for (;;)
            pause();
    }
    usleep(50000 + (useconds_t)(test_seed() % 100000));
    assert_int_equal(access(second_done, F_OK), -1);    // waits behind the timer
    end(sanitizer);
    assert_true(appears(timed));                         // the timer, alone
    assert_false(lock_free("lock"));
    assert_true(lock_becomes(GPU_LOCK_TOOLS_GATE, 0));
    usleep(50000);
    assert_int_equal(access(second_done, F_OK), -1);    // the second long turn still waits for the timer's turn
    end(timer);
    assert_true(appears(second_done));
    end(second);
    assert_true(lock_becomes("lock", 0) && lock_becomes(GPU_LOCK_TOOLS, 0));
}

static void test_one_profiler_at_a_time(void **state)
{
    (void)state;
    pid_t first = profiled_run(0);
    assert_true(lock_becomes("profiler", 1));
    assert_true(lock_becomes("lock", 1));   // and its shared turn
    pid_t second = profiled_run((int)(test_seed() % 2));
    usleep(100000 + (useconds_t)(test_seed() % 100000));
    // The second waits for the profiler: it holds no turn, so only the first's shared turn is held.
    // A judge's exclusive turn must wait for the first alone: once the first ends, the lock is free
    // (the second has not taken a turn, as it has no profiler yet) until the second gets both.
    end(first);
    assert_true(lock_becomes("profiler", 1));  // the second has it now
    assert_true(lock_becomes("lock", 1));
    end(second);
    assert_true(lock_becomes("profiler", 0));
    assert_true(lock_becomes("lock", 0));
}

static void test_waiting_for_profiler_holds_no_turn(void **state)
{
    (void)state;
    pid_t holder = profiled_run(0);       // a load count running: the profiler held
    assert_true(lock_becomes("profiler", 1));
    end(holder);                          // (its turn given back: only the profiler is held below)
    holder = fork();
    assert_true(holder >= 0);
    if (holder == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char path[PATH_MAX];
        gpu_lock_path(path, sizeof(path), lock_dir, 0, GPU_LOCK_PROFILER);
        int fd = open(path, O_RDWR | O_CREAT, 0644);
        if (fd < 0 || gpu_lock_flock(fd, LOCK_EX, NULL) != 0)
            _exit(3);
        for (;;)
            pause();
    }
    assert_true(lock_becomes("profiler", 1));
    pid_t waiting = profiled_run(0);      // another profiled run waiting for it
    usleep(100000 + (useconds_t)(test_seed() % 100000));
    assert_true(lock_free("lock"));       // it holds no turn: a timer could start now
    judge_error err;
    alarm(5);                             // a timer's exclusive turn must not block (SIGALRM would end the test)
    assert_int_equal(gpu_turns_take(1, &err), 0);
    alarm(0);
    gpu_turns_give();
    end(holder);
    assert_true(lock_becomes("lock", 1));  // the waiting run got the profiler, then its turn
    end(waiting);
}

// 1 while the child pid has not ended.
static int still_running(pid_t pid)
{
    return waitpid(pid, NULL, WNOHANG) == 0;
}

// The exit status of the child pid, once it ends.
static int status_of(pid_t pid)
{
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

// The load count's helper: waits for the judge's word; inside the judge's
// turn it checks that the judge holds the GPU alone and the profiler's lock,
// "counts" for a while, leaves the file counted, and says it ended.
// Exits 0 when it ran as expected (inside: want_inside), else 4-6.
static pid_t count_helper(int want_inside, const char *counted)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    gpu_turns_relay_forked(pid);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int inside = gpu_turns_relay_await();
        if (inside != want_inside)
            _exit(4);
        if (inside && lock_free("lock"))
            _exit(5);
        usleep(50000 + (useconds_t)(test_seed() % 50000));
        int fd = open(counted, O_WRONLY | O_CREAT, 0644);
        if (fd < 0)
            _exit(6);
        close(fd);
        gpu_turns_relay_done();
        _exit(0);
    }
    return pid;
}

// The relay: the count runs inside the judge's first turn alone, after the
// judge's own run there, and the judge gives the turn back only once the
// count says its GPU work ended.
static void test_relay_counts_inside_the_judges_turn(void **state)
{
    (void)state;
    char counted[PATH_MAX];
    judge_error err;
    snprintf(counted, sizeof(counted), "%s/counted", lock_dir);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    assert_int_equal(gpu_turns_relay_arm(), -1);  // one at a time
    pid_t count = count_helper(1, counted);
    usleep(50000 + (useconds_t)(test_seed() % 50000));
    assert_true(still_running(count));       // it waits for the judge's word
    assert_true(lock_free("profiler"));      // nothing taken before the judge's turn alone
    assert_int_equal(gpu_turns_take(0, &err), 0);
    gpu_turns_give();                        // a shared turn says nothing to it
    usleep(50000);
    assert_true(still_running(count));
    assert_true(lock_free("profiler"));
    assert_int_equal(gpu_turns_take(1, &err), 0);  // the judge times: alone, the profiler's lock not held for it
    assert_true(lock_free("profiler"));
    assert_false(lock_free("lock"));
    usleep(50000);
    assert_true(still_running(count));       // not during the judge's own run
    assert_int_equal(access(counted, F_OK), -1);
    gpu_turns_give();                        // the count runs now, inside the turn: given back after it
    assert_int_equal(access(counted, F_OK), 0);
    assert_true(lock_free("lock"));
    assert_true(lock_free("profiler"));
    assert_int_equal(status_of(count), 0);   // it found the judge's turn held around its count
    gpu_turns_relay_release();               // (told already: nothing more)
}

// The profiler's lock held by another judge's count as the judge's timed
// run ends (it waits for a turn, holding it): the count still runs inside
// the judge's turn, which keeps the other's GPU work out; the other gets its
// turn after.
static void test_relay_profiler_held_elsewhere(void **state)
{
    (void)state;
    char counted[PATH_MAX];
    judge_error err;
    char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
    snprintf(counted, sizeof(counted), "%s/counted", lock_dir);
    assert_int_equal(gpu_turns_lock_spec(1, GPU_LOCK_PROFILER, spec, sizeof(spec)), 1);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t count = count_helper(1, counted);
    assert_int_equal(gpu_turns_take(1, &err), 0);
    pid_t other = fork();                    // another judge's count: the profiler's lock, then waiting for a turn
    assert_true(other >= 0);
    if (other == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fds[GPU_LOCKS_FILES];
        _exit(gpu_locks_take(spec, fds) == 0 ? (pause(), 0) : 3);
    }
    assert_true(lock_becomes("profiler", 1));
    gpu_turns_give();                        // the count ran inside, then the turn ended
    assert_int_equal(access(counted, F_OK), 0);
    assert_int_equal(status_of(count), 0);
    assert_true(lock_becomes("lock", 1));    // the other run got its turn
    end(other);
}

// A helper not yet waiting when the judge's run alone ends (its executor
// still starting, or it counts by other means and never reads the relay):
// the judge's turn ends at once, and the helper later takes its own locks.
// A load count's helper not waiting yet (its executor still starting): it
// waits for the judge's word only once a byte comes on go (the pipe's ends),
// then exits own when told to take its own locks, 4 when told to count
// inside (a helper skipped ends inside its wait, with 0).
static pid_t late_helper(int go[2], int own)
{
    pid_t late = fork();
    assert_true(late >= 0);
    gpu_turns_relay_forked(late);
    if (late == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char byte;
        close(go[1]);
        if (read(go[0], &byte, 1) != 1)
            _exit(6);
        _exit(gpu_turns_relay_await() == 0 ? own : 4);
    }
    close(go[0]);
    return late;
}

static void test_relay_helper_not_ready(void **state)
{
    (void)state;
    judge_error err;
    int go[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t late = late_helper(go, 0);  // not waiting until the judge's turn has ended
    assert_int_equal(gpu_turns_take(1, &err), 0);
    gpu_turns_give();                        // nobody waits ready: ends at once (a wait would hang this test)
    assert_true(lock_free("lock"));
    assert_int_equal(write(go[1], "g", 1), 1);
    close(go[1]);
    assert_int_equal(status_of(late), 0);    // told to take its own locks
}

// Released with no turn alone taken (the judge waiting for its helpers, or
// ending the run): the count takes its own locks.
static void test_relay_released_without_a_turn(void **state)
{
    (void)state;
    char counted[PATH_MAX];
    snprintf(counted, sizeof(counted), "%s/counted", lock_dir);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t count = count_helper(0, counted);
    usleep(50000 + (useconds_t)(test_seed() % 50000));
    assert_true(still_running(count));
    gpu_turns_relay_release();
    assert_int_equal(status_of(count), 0);
}

// Skipped (the judge's timed run did not end well: its output wrong on the
// GPU, a crash): the helper waiting ready ends at once counting nothing, and
// the judge's turn alone then ends without waiting for any count.
static void test_relay_skipped(void **state)
{
    (void)state;
    char counted[PATH_MAX];
    judge_error err;
    snprintf(counted, sizeof(counted), "%s/counted", lock_dir);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t count = count_helper(1, counted);
    usleep(50000 + (useconds_t)(test_seed() % 50000));
    assert_true(still_running(count));
    assert_int_equal(gpu_turns_take(1, &err), 0);
    gpu_turns_relay_skip();
    assert_int_equal(status_of(count), 0);   // ended in its wait (count_helper's own ends exit 4-6 or count)
    assert_int_equal(access(counted, F_OK), -1);
    gpu_turns_give();                        // nothing relayed: given back at once
    assert_true(lock_free("lock"));
    gpu_turns_relay_skip();                  // (told already: nothing more)
    gpu_turns_relay_release();
}

// Skipped before the helper waits (its executor still starting): when it
// comes to wait, it reads the judge's word all the same and ends, neither
// counting in its own turn nor returning.
static void test_relay_skipped_before_ready(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t late = late_helper(go, 7);  // not waiting until the judge has skipped it; 7: it returned, to count
    gpu_turns_relay_skip();
    assert_int_equal(write(go[1], "g", 1), 1);
    close(go[1]);
    assert_int_equal(status_of(late), 0);
}

// A helper gone before its count (stopped, or its file remembered): the
// judge's turn alone ends at once, nothing waited for.
static void test_relay_helper_gone(void **state)
{
    (void)state;
    judge_error err;
    assert_int_equal(gpu_turns_relay_arm(), 0);
    pid_t gone = fork();
    assert_true(gone >= 0);
    gpu_turns_relay_forked(gone);
    if (gone == 0)
        _exit(0);
    assert_int_equal(status_of(gone), 0);
    assert_int_equal(gpu_turns_take(1, &err), 0);
    gpu_turns_give();
    assert_true(lock_free("lock"));
    assert_true(lock_free("profiler"));
}

// The judge holding a turn names no locks for a runner (it runs inside that
// turn); a spec that is not five paths and a mode is refused.
static void test_lock_spec(void **state)
{
    (void)state;
    char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
    int fds[GPU_LOCKS_FILES];
    assert_int_equal(gpu_turns_lock_spec(1, GPU_LOCK_PROFILER, spec, sizeof(spec)), 1);
    assert_non_null(strstr(spec, ",alone"));
    assert_non_null(strstr(spec, "/gpu-0.profiler,"));
    judge_error err;
    assert_int_equal(gpu_turns_take(0, &err), 0);
    assert_int_equal(gpu_turns_lock_spec(0, GPU_LOCK_PROFILER, spec, sizeof(spec)), 0);
    gpu_turns_give();
    assert_int_equal(gpu_turns_lock_spec(0, GPU_LOCK_PROFILER, spec, 8), 0);  // too short for the paths
    assert_int_equal(gpu_locks_take("/tmp/only-one", fds), -1);
    assert_int_equal(fds[0], -1);
    assert_int_equal(gpu_turns_lock_spec(GPU_TURN_LONG, NULL, spec, sizeof(spec)), 1);
    assert_non_null(strstr(spec, "/gpu-0.tools-gate,"));
    assert_non_null(strstr(spec, "/gpu-0.tools,"));
    assert_non_null(strstr(spec, ",long"));
    char *mode = strrchr(spec, ',');
    snprintf(mode, 16, ",soon");  // an unknown mode: refused, nothing held
    errno = 0;
    assert_int_equal(gpu_locks_take(spec, fds), -1);
    assert_int_equal(errno, EINVAL);
    assert_true(fds[0] == -1 && fds[4] == -1 && lock_free("lock"));
}

// The judge's own long turn (its workers' memcheck runs side by side under
// SANITIZE=1): tools held shared with it, so a timer beside waits for it
// without the gate; both given back with the turn.
static void test_judge_long_turn(void **state)
{
    (void)state;
    judge_error err;
    char timed[PATH_MAX];
    snprintf(timed, sizeof(timed), "%s/timed-long", lock_dir);
    assert_int_equal(gpu_turns_take(GPU_TURN_LONG, &err), 0);
    assert_false(lock_free(GPU_LOCK_TOOLS));
    assert_false(lock_free("lock"));
    pid_t timer = judge_beside(1, timed);
    assert_true(lock_becomes(GPU_LOCK_TOOLS_GATE, 1));  // the timer waits for tools
    assert_true(lock_free("gate"));                      // not at the turn's gate
    gpu_turns_give();
    assert_true(appears(timed));                         // then times
    end(timer);
    assert_true(lock_becomes("lock", 0) && lock_becomes(GPU_LOCK_TOOLS, 0));
}

// The spec a process forked while the judge holds a shared turn gets: a worker
// that said gpu_turns_worker_inside (cases side by side, the turn held until
// it ends) runs its long and shared tool runs inside that turn, no locks of
// its own (one would wait behind another judge's timer, which waits for the
// judge's turn); a run alone still takes its own; a helper that did not say
// so (it outlives the turn) takes its own for every mode.
static void test_worker_inside_shared_turn(void **state)
{
    (void)state;
    judge_error err;
    assert_int_equal(gpu_turns_take(0, &err), 0);
    for (int worker = 0; worker < 2; worker++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
            if (worker)
                gpu_turns_worker_inside();
            int own_long = gpu_turns_lock_spec(GPU_TURN_LONG, NULL, spec, sizeof(spec));
            int own_shared = gpu_turns_lock_spec(GPU_TURN_SHARED, NULL, spec, sizeof(spec));
            int own_alone = gpu_turns_lock_spec(GPU_TURN_ALONE, GPU_LOCK_PROFILER, spec, sizeof(spec));
            // A run alone inside the worker is the kit's fault, said in one line (it had taken locks of
            // its own and waited for the very turn the judge held); a helper's takes its own locks.
            judge_error werr;
            int refused = gpu_turns_take(GPU_TURN_ALONE, &werr) != 0 && strstr(werr.message, "inside a worker") != NULL;
            int shared_ok = gpu_turns_take(GPU_TURN_SHARED, &werr) == 0;
            _exit(own_long == !worker && own_shared == !worker && own_alone == !worker && refused == worker && shared_ok ? 0 : 1);
        }
        assert_int_equal(status_of(pid), 0);
    }
    gpu_turns_give();
    pid_t pid = fork();  // a worker once no turn is held: its own locks
    assert_true(pid >= 0);
    if (pid == 0) {
        char spec[GPU_LOCKS_FILES * PATH_MAX + 16];
        gpu_turns_worker_inside();
        _exit(gpu_turns_lock_spec(GPU_TURN_LONG, NULL, spec, sizeof(spec)) == 1 ? 0 : 1);
    }
    assert_int_equal(status_of(pid), 0);
}

// gpu_turns_choose picks the GPU before any turn: an idle slot (here slot 1,
// another judge holding slot 0), the caller's GPU of that rank shown alone,
// the spec naming its locks; once only; nothing without a lock folder.
static void test_choose_before_any_turn(void **state)
{
    (void)state;
    char path[PATH_MAX], spec[GPU_LOCKS_FILES * PATH_MAX + 16];
    judge_error err;
    unsigned first = 2 + (unsigned)(test_seed() % 6), second = first + 1 + (unsigned)(test_seed() % 3);
    char visible[32];
    snprintf(visible, sizeof(visible), "%u,%u", first, second);
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    gpu_turns_init(lock_dir, 2, &the_run);
    assert_int_equal(gpu_turns_lock_spec(0, NULL, spec, sizeof(spec)), 0);  // no GPU chosen: no locks to name
    snprintf(path, sizeof(path), "%s/gpu-0.lock", lock_dir);
    int other = open(path, O_RDWR | O_CREAT, 0644);
    assert_true(other >= 0 && flock(other, LOCK_EX) == 0);  // another judge's turn alone on slot 0
    assert_int_equal(gpu_turns_choose(&err), 0);
    snprintf(visible, sizeof(visible), "%u", second);
    assert_string_equal(getenv("CUDA_VISIBLE_DEVICES"), visible);
    assert_int_equal(gpu_turns_lock_spec(1, GPU_LOCK_PROFILER, spec, sizeof(spec)), 1);
    assert_non_null(strstr(spec, "/gpu-1.profiler,"));
    close(other);
    assert_int_equal(gpu_turns_choose(&err), 0);  // chosen once: slot 0 free now changes nothing
    assert_string_equal(getenv("CUDA_VISIBLE_DEVICES"), visible);
    unsetenv("CUDA_VISIBLE_DEVICES");
    gpu_turns_init(NULL, 1, &the_run);
    assert_int_equal(gpu_turns_choose(&err), 0);
    assert_null(getenv("CUDA_VISIBLE_DEVICES"));
    // Fewer GPUs named than slots: refused in one line (two slots would share a GPU under other locks).
    snprintf(visible, sizeof(visible), "%u", first);
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    gpu_turns_init(lock_dir, 2, &the_run);
    assert_int_equal(gpu_turns_choose(&err), -1);
    assert_non_null(strstr(err.message, "names 1: give at most 1"));
    // Spaces around the names are no part of them; set and empty is no GPU, as CUDA reads it.
    snprintf(visible, sizeof(visible), " %u , %u", first, second);
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    gpu_turns_init(lock_dir, 2, &the_run);
    assert_int_equal(gpu_turns_choose(&err), 0);
    snprintf(visible, sizeof(visible), "%u", first);
    assert_string_equal(getenv("CUDA_VISIBLE_DEVICES"), visible);  // slot 0 idle now
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    gpu_turns_init(lock_dir, 1, &the_run);
    assert_int_equal(gpu_turns_choose(&err), 0);
    assert_string_equal(getenv("CUDA_VISIBLE_DEVICES"), "");
    unsetenv("CUDA_VISIBLE_DEVICES");
    gpu_turns_init(lock_dir, 1, &the_run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sanitizer_turn_keeps_timer_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer_waits_for_long_turn_without_gate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_profiler_at_a_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_waiting_for_profiler_holds_no_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lock_spec, setup, teardown),
        cmocka_unit_test_setup_teardown(test_worker_inside_shared_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_judge_long_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_choose_before_any_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_counts_inside_the_judges_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_helper_gone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_helper_not_ready, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_profiler_held_elsewhere, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_released_without_a_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relay_skipped_before_ready, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
