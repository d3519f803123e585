// grader/judge/backend.c — choosing the run's backend and probing its GPU (backend.h).
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "judge_files.h"
#include "kv.h"
#include "runner_build.h"

// The architecture the last device probe reported, kept beside the detected
// executor (build/gpu/detected/arch), so builds need not ask the toolkit's
// query tool, which starts the driver; when the probe reports another GPU the
// executor is built again for it.
static void backend_arch_cache_path(const judge_args *a, char *path, size_t len)
{
    snprintf(path, len, "%s/build/gpu/detected/arch", a->kit);
}

// Reads the kept architecture into arch ("" when there is none, or it is no architecture).
static void backend_arch_cache_read(const judge_args *a, char *arch, size_t len)
{
    char path[PATH_MAX + 32];
    backend_arch_cache_path(a, path, sizeof(path));
    arch[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(arch, (int)len, f))
        arch[0] = '\0';
    fclose(f);
    arch[strcspn(arch, "\n")] = '\0';
    if (strncmp(arch, "sm_", 3) != 0 || strspn(arch + 3, "0123456789") != strlen(arch + 3) || !arch[3])
        arch[0] = '\0';  // not an architecture: ask the toolkit instead
}

// "9.0" (the probe's compute_capability) as "sm_90"; "" when it is not one.
static void backend_arch_of_capability(const char *capability, char *arch, size_t len)
{
    unsigned major = 0, minor = 0;
    arch[0] = '\0';
    if (capability && sscanf(capability, "%u.%u", &major, &minor) == 2 && major > 0 && major < 100 && minor < 10)
        snprintf(arch, len, "sm_%u%u", major, minor);
}

// Builds the executor (its path into executor); returns 1 if built, 0 if not
// (why says so), -1 with err.
static int backend_build_executor(const judge_args *a, const judge_run *run, char *executor, size_t len, char *why,
                                  size_t why_len, judge_error *err)
{
    char exec_var[PATH_MAX + 16], log_path[PATH_MAX + 32], tail[400];
    runner_executor_path(a, executor, len);
    snprintf(exec_var, sizeof(exec_var), "EXECUTOR=%s", executor);
    snprintf(log_path, sizeof(log_path), "%s.log", executor);
    *strrchr(executor, '/') = '\0';
    int made = judge_mkdirs(executor, err);
    executor[strlen(executor)] = '/';
    if (made != 0)
        return -1;
    const char *vars[] = {exec_var, NULL};
    int built = runner_make(a, run, "gpu", vars, log_path, err);
    if (built < 0)
        return -1;
    if (!built) {
        spawn_log_tail(log_path, 1, tail, sizeof(tail));
        tail[strcspn(tail, "\n")] = '\0';
        snprintf(why, why_len, "the GPU executor did not build: %s", tail);
    }
    return built;
}

// Starts executor in ex as the device probe (a folder of its own for its
// report, p->dir: judges running side by side must not share it), without
// waiting for its answer (backend_probe_answer). Returns 0, or -1 with err.
static int backend_probe_begin(judge_executor *ex, const char *executor, const char *tmp_root, backend_probe *p,
                               judge_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(p->dir, sizeof(p->dir), "%s/stencil-probe-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p->dir)) {
        judge_error_set(err, JUDGE_EXIT_KIT, NULL, "cannot create a temporary folder %s: %s", p->dir, strerror(errno));
        p->dir[0] = '\0';
        return -1;
    }
    snprintf(ex->program, sizeof(ex->program), "%s", executor);
    snprintf(ex->log, sizeof(ex->log), "%s/executor.log", tmp_root);
    p->launched = judge_executor_begin(ex, p->dir);
    return 0;
}

// Waits for the probe p began: its report into rep, its outcome into *s; its folder removed.
static void backend_probe_answer(judge_executor *ex, backend_probe *p, kv_list *rep, spawn_result *s)
{
    char report[PATH_MAX + 16];
    *s = p->launched.started ? judge_executor_ready(ex) : p->launched;
    snprintf(report, sizeof(report), "%s/report.txt", p->dir);
    kv_load(report, rep);
    unlink(report);
    rmdir(p->dir);
    p->dir[0] = '\0';
}

// After a probe (outcome s, report rep): 1 if it must run again, the executor
// built afresh, because the architecture kept was another GPU's — the probe
// reported another (a cluster's nodes sharing one home folder), or failed
// with the kept one (it may be another GPU's, the probe unable to say: once
// more as on a first run, the toolkit asked). Keeps a newly probed architecture.
static int backend_probe_again(const judge_args *a, judge_run *run, const spawn_result *s, const kv_list *rep, int again)
{
    char probed[16], path[PATH_MAX + 32];
    backend_arch_of_capability(kv_get(rep, "compute_capability"), probed, sizeof(probed));
    backend_arch_cache_path(a, path, sizeof(path));
    if (!a->arch && probed[0] && strcmp(probed, run->arch) != 0) {
        int other_gpu = run->arch[0] != '\0';
        FILE *f = fopen(path, "w");
        if (f)
            fprintf(f, "%s\n", probed), fclose(f);
        snprintf(run->arch, sizeof(run->arch), "%s", probed);
        return other_gpu && !again;
    }
    if (!a->arch && !probed[0] && run->arch[0] && !again && !(s->exited && (s->exit_code == 0 || s->exit_code == 127))) {
        unlink(path);
        run->arch[0] = '\0';
        return 1;
    }
    return 0;
}

// Takes the probe's answer: the GPU and its lines into run, or why there is none into why.
static void backend_take_device(judge_run *run, const spawn_result *s, const kv_list *rep, char *why, size_t len)
{
    if (s->exited && s->exit_code == 0) {
        snprintf(run->backend, sizeof(run->backend), "gpu");
        snprintf(run->device, sizeof(run->device), "%s", kv_get(rep, "device") ? kv_get(rep, "device") : "?");
        run->device_mem_bytes = kv_number(rep, "global_mem_bytes", 0);
        snprintf(run->device_info, sizeof(run->device_info), "%s SMs, compute capability %s, driver %s, runtime %s",
                 kv_get(rep, "sm_count"), kv_get(rep, "compute_capability"),
                 kv_get(rep, "driver_version"), kv_get(rep, "runtime_version"));
    } else if (s->exited && s->exit_code == 127) {
        snprintf(why, len, "the NVIDIA driver library (libcuda.so.1) is not installed");  // (the loader's words are in the executor's log)
    } else {
        snprintf(why, len, "%s", kv_get(rep, "error") ? kv_get(rep, "error") : "the GPU probe failed");
    }
}

// The backend as the probe left it (why: the reason a GPU is not used): 0,
// or -1 with err when --backend gpu has none.
static int backend_decide(const judge_args *a, judge_run *run, const char *why, judge_error *err)
{
    if (!strcmp(run->backend, "gpu"))
        return 0;
    if (!strcmp(a->backend, "gpu"))
        return judge_error_set(err, JUDGE_EXIT_NO_GPU, NULL, "no usable GPU: %s. Without an NVIDIA GPU, grade on the CPU with EMU=1 (correctness only).", why);
    snprintf(run->fallback, sizeof(run->fallback), "%s", why);
    return 0;
}

// backend_pick_begin, again 1 on a second probe (then waited for here).
static int backend_pick_once(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, int again,
                             backend_probe *p, judge_error *err)
{
    char executor[PATH_MAX], why[512] = "";
    snprintf(run->backend, sizeof(run->backend), "emu");
    p->dir[0] = '\0', p->again = again;
    if (!strcmp(a->backend, "emu"))
        return 0;
    if (!a->arch)
        backend_arch_cache_read(a, run->arch, sizeof(run->arch));
    int built = backend_build_executor(a, run, executor, sizeof(executor), why, sizeof(why), err);
    if (built < 0)
        return -1;
    if (!built)
        return backend_decide(a, run, why, err);
    // the probe is the executor that will serve the run's cases: its context is made once, now
    if (backend_probe_begin(ex, executor, tmp_root, p, err) != 0)
        return -1;
    if ((a->arch || run->arch[0]) && !again)
        return 0;  // the build knows its architecture: the caller's work meanwhile, then backend_pick_end
    return backend_pick_end(a, run, ex, tmp_root, p, err);
}

int backend_pick_begin(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, backend_probe *p,
                       judge_error *err)
{
    return backend_pick_once(a, run, ex, tmp_root, 0, p, err);
}

int backend_pick_end(const judge_args *a, judge_run *run, judge_executor *ex, const char *tmp_root, backend_probe *p,
                     judge_error *err)
{
    char why[512] = "";
    kv_list rep = {0};
    spawn_result s = {0};
    if (!p->dir[0])
        return 0;  // decided by backend_pick_begin
    backend_probe_answer(ex, p, &rep, &s);
    if (backend_probe_again(a, run, &s, &rep, p->again)) {
        kv_free(&rep);
        spawn_server_stop(&ex->server);
        unlink(ex->program);
        return backend_pick_once(a, run, ex, tmp_root, 1, p, err);
    }
    backend_take_device(run, &s, &rep, why, sizeof(why));
    kv_free(&rep);
    return backend_decide(a, run, why, err);
}

int backend_check_sanitizer(const judge_args *a, const judge_run *run, judge_error *err)
{
    if (!a->sanitize)
        return 0;
    if (strcmp(run->backend, "gpu") != 0)
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "SANITIZE=1 runs the cases under compute-sanitizer on a GPU, and this run is emulated%s: drop SANITIZE=1 (emulation checks every memory access and barrier itself)",
                               run->fallback[0] ? " (no usable GPU here)" : "");
    if (!judge_on_path("compute-sanitizer"))
        return judge_error_set(err, JUDGE_EXIT_KIT, NULL, "SANITIZE=1 needs compute-sanitizer, which is not on PATH: it comes with the CUDA Toolkit (put the toolkit's bin/ on PATH), or check without SANITIZE=1");
    return 0;
}
