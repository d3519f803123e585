// grader/emu/launch_log_emu.cpp — the CPU emulation implementation of
// launch_log.h: the emulation runtime hands every launch to an observer; this
// file records them between launch_log_begin() and launch_log_end().
//
// The kernel's name is its linker symbol (mangled, as CUPTI reports it on a
// GPU) when the program exports it, else the kernel as written at the launch.
// Static shared memory is what the kernel's __shared__ declarations added up
// to once they ran, filled in at launch_log_end(); registers are unknown (-1).
#include <stdio.h>
#include <string.h>

#include "launch_log.h"
#include "runtime/internal.h"

static int log_recording;                          // 1 between begin and end
static long log_count;                             // launches seen in the bracket
static launch_record log_records[LAUNCH_LOG_MAX];  // the first LAUNCH_LOG_MAX of them
static const emu_kernel_info *log_kernels[LAUNCH_LOG_MAX]; // their kernels, for the static sizes

// The runtime's observer: appends one launch.
static void log_on_launch(const emu::launch_request *r, const emu_kernel_info *k)
{
    if (!log_recording)
        return;
    if (log_count < LAUNCH_LOG_MAX) {
        launch_record *rec = &log_records[log_count];
        memset(rec, 0, sizeof(*rec));
        snprintf(rec->kernel, sizeof(rec->kernel), "%.*s", (int)sizeof(rec->kernel) - 1, k->symbol);
        rec->grid[0] = r->grid.x;
        rec->grid[1] = r->grid.y;
        rec->grid[2] = r->grid.z;
        rec->block[0] = r->block.x;
        rec->block[1] = r->block.y;
        rec->block[2] = r->block.z;
        rec->dynamic_smem = r->dynamic_smem;
        rec->regs = -1;
        log_kernels[log_count] = k;
    }
    log_count++;
}

int launch_log_begin(char *why, size_t why_len)
{
    (void)why;
    (void)why_len;
    log_count = 0;
    log_recording = 1;
    emu_set_launch_observer(log_on_launch);
    return 0;
}

long launch_log_end(void)
{
    log_recording = 0;
    emu_set_launch_observer(NULL);
    for (long i = 0; i < log_count && i < LAUNCH_LOG_MAX; i++)
        log_records[i].static_smem = emu_kernel_static_smem(log_kernels[i]);
    return log_count;
}

const launch_record *launch_log_record(long idx)
{
    if (idx < 0 || idx >= log_count || idx >= LAUNCH_LOG_MAX)
        return NULL;
    return &log_records[idx];
}
