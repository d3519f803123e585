// grader/emu/runner_steps.h — the steps both emulation runners take
// (runner_sweep.cu, runner_jacobi.cu): opening the report, the student's one
// call with launch recording on, how that call ended, and the closing lines.
//
// Included after case_io.h and before the student's file, once per program:
// everything here is static and named runner_, out of the student's way.
#ifndef STENCIL_RUNNER_STEPS_H
#define STENCIL_RUNNER_STEPS_H

// Opens the report file in dir (under emulation, also where a kernel fault is
// reported); exits with RUNNER_USAGE if it cannot.
static void runner_open_report(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, CASE_REPORT);
    runner_report_file = fopen(path, "w");
    if (!runner_report_file) {
        fprintf(stderr, "runner: cannot write %s: %s\n", path, strerror(errno));
        exit(RUNNER_USAGE);
    }
#ifdef LAB_EMU
    emu_set_fault_report(path);  // a fault inside a kernel is reported here, naming the CUDA thread
#endif
}

// Opens the report in dir, reports the backend and opens the device; a probe
// (probe 1) ends here, exiting RUNNER_OK with its status reported.
static void runner_begin(const char *dir, int probe)
{
    runner_open_report(dir);
#ifdef LAB_EMU
    runner_report("backend", "emu");
#else
    runner_report("backend", "gpu");
#endif
    (void)runner_open_device();
    if (probe) {
        runner_report("status", "ok");
        fclose(runner_report_file);
        exit(RUNNER_OK);
    }
}

// Calls call(arg), the student's function, once with launch recording on and
// the kit's copies allowed around it; reports its time when it raised no
// error, fills *launch_err and *sync_err, and returns the launches recorded,
// or -1 when recording could not begin (the reason reported). Exits through
// runner_forged_records when the records were tampered with.
static long runner_recorded_call(void (*call)(void *), void *arg, cudaError_t *launch_err, cudaError_t *sync_err)
{
    char why[256] = "";
    cudaEvent_t start, stop;
    if (launch_log_begin(why, sizeof(why)) != 0)
        runner_report("launch_log_error", "%s", why);
    runner_check(cudaEventCreate(&start), "create an event");
    runner_check(cudaEventCreate(&stop), "create an event");
    cudaEventRecord(start);
    emu_kit_copies(1);
    call(arg);
    emu_kit_copies(0);
    cudaEventRecord(stop);
    *launch_err = cudaGetLastError();
    *sync_err = cudaDeviceSynchronize();
    float ms = 0;
    if (*launch_err == cudaSuccess && *sync_err == cudaSuccess && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess)
        runner_report("launch_ms", "%.6f", ms);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    long launches = why[0] == '\0' ? launch_log_end() : -1;
    if (launches == LAUNCH_LOG_FORGED)
        runner_forged_records();
    return launches;
}

// Judges how the student's call ended: reports a read of a guard cell (the
// judge fails the case), and exits through runner_fail on a call the GPU's
// executor refuses or on the CUDA error the call left behind.
static void runner_check_outcome(cudaError_t launch_err, cudaError_t sync_err)
{
    if (emu_guard_read()[0])  // a read past a grid: the run goes on, the judge fails the case
        runner_report(PROTOCOL_EMU_GUARD_READ, "%s", emu_guard_read());
    if (emu_refusal()[0])  // a call the GPU's executor refuses: the same verdict here
        runner_fail(RUNNER_REFUSED, "refused", "%s", emu_refusal());
    runner_check_student(launch_err, sync_err);
}

// Reports the case done, closes the report and exits RUNNER_OK.
static void runner_end(void) __attribute__((noreturn));
static void runner_end(void)
{
    runner_report("status", "ok");
    fclose(runner_report_file);
    fflush(NULL);
    _exit(RUNNER_OK);  // not return: no atexit handler or static destructor of the student's runs after the results
}

#endif // STENCIL_RUNNER_STEPS_H
