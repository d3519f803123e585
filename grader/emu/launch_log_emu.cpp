// grader/emu/launch_log_emu.cpp — the CPU emulation implementation of
// launch_log.h: the emulation runtime hands every launch to an observer; this
// file records them between launch_log_begin() and launch_log_end().
//
// The kernel's name is its linker symbol (mangled, as CUPTI reports it on a
// GPU) when the program exports it, else the kernel as written at the launch.
// Static shared memory is what the kernel's __shared__ declarations added up
// to once they ran, filled in at launch_log_end(); registers are unknown (-1).
//
// The student's code shares this process, so the records are kept where its
// file cannot name them (static) and sealed: each record's fields are hashed
// with a key drawn from the kernel's random source when it is made, and
// launch_log_end() checks every seal, that no begin or end came inside the
// bracket, that the recording stayed on, and that the runtime counted no
// launch it did not see. Anything else returns LAUNCH_LOG_FORGED. What
// remains is raw memory forging (finding the key and the seals by scanning
// the process's memory), which the report's threat table names.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "launch_log.h"
#include "runtime/internal.h"

static int log_recording;                          // 1 between begin and end
static long log_count;                             // launches seen in the bracket
static launch_record log_records[LAUNCH_LOG_MAX];  // the first LAUNCH_LOG_MAX of them
static const emu_kernel_info *log_kernels[LAUNCH_LOG_MAX]; // their kernels, for the static sizes
static uint64_t log_seals[LAUNCH_LOG_MAX];         // each record's keyed hash, made with it
static uint64_t log_key;                           // the seals' key
static long log_total_at_begin;                    // the runtime's launch count when the bracket began
static char log_forged[200];                       // how the records were tampered with ("": not)
static unsigned long long log_global_bytes, log_shared_bytes;  // the loads of the last bracket, at its end
static double log_copies_at_begin, log_copy_bytes; // the runtime's device-to-device bytes when the bracket began; the bracket's, at its end

// The keyed hash of record r (every field the launch set; static_smem is filled at the end).
static uint64_t log_seal(const launch_record *r)
{
    launch_record c;
    memcpy(&c, r, sizeof(c));
    c.static_smem = 0;
    uint64_t h = log_key ^ 0x9E3779B97F4A7C15ull;
    const unsigned char *p = (const unsigned char *)&c;
    for (size_t i = 0; i < sizeof(c); i++) {
        h ^= p[i];
        h *= 0x100000001B3ull;
        h ^= h >> 29;
    }
    return h ^ (h >> 32) ^ log_key;
}

static void log_forge(const char *what)
{
    if (!log_forged[0])
        snprintf(log_forged, sizeof(log_forged), "%s", what);
}

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
        log_seals[log_count] = log_seal(rec);
    }
    log_count++;
}

int launch_log_begin(char *why, size_t why_len)
{
    (void)why;
    (void)why_len;
    if (log_recording)
        log_forge("the recording was begun again inside the launch function");
    if (!log_key && getrandom(&log_key, sizeof(log_key), 0) != (ssize_t)sizeof(log_key))
        log_key = (uint64_t)(uintptr_t)&log_key * 0x9E3779B97F4A7C15ull;
    log_count = 0;
    log_recording = 1;
    log_total_at_begin = emu_launch_total();
    log_copies_at_begin = emu_device_copy_total();
    emu_load_counts_reset();
    emu_set_launch_observer(log_on_launch);
    return 0;
}

long launch_log_end(void)
{
    if (!log_recording)
        log_forge("the recording was ended inside the launch function");
    else if (emu_launch_observer_now() != log_on_launch)
        log_forge("the recording of launches was switched off inside the launch function");
    else if (emu_launch_total() - log_total_at_begin != log_count)
        log_forge("launches were made that the records do not hold");
    for (long i = 0; i < log_count && i < LAUNCH_LOG_MAX; i++)
        if (log_seals[i] != log_seal(&log_records[i])) {
            char what[160];
            snprintf(what, sizeof(what), "launch record %ld (its kernel, grid, block or shared memory) was changed after the launch", i);
            log_forge(what);
        }
    log_recording = 0;
    emu_set_launch_observer(NULL);
    emu_load_counts(&log_global_bytes, &log_shared_bytes);
    log_copy_bytes = emu_device_copy_total() - log_copies_at_begin;
    for (long i = 0; i < log_count && i < LAUNCH_LOG_MAX; i++)
        log_records[i].static_smem = emu_kernel_static_smem(log_kernels[i]);
    return log_forged[0] ? LAUNCH_LOG_FORGED : log_count;
}

int launch_log_loads(double *global_bytes, double *shared_bytes)
{
    *global_bytes = (double)log_global_bytes;
    *shared_bytes = (double)log_shared_bytes;
#if defined(__GNUC__) && !defined(__clang__)  // runtime/loads.cpp's calls exist (the runner knows whether its file makes them)
    return 1;
#else
    return 0;
#endif
}

double launch_log_device_copies(void)
{
    return log_copy_bytes;
}

const char *launch_log_forged(void)
{
    return log_forged[0] ? log_forged : NULL;
}

const launch_record *launch_log_record(long idx)
{
    if (idx < 0 || idx >= log_count || idx >= LAUNCH_LOG_MAX)
        return NULL;
    return &log_records[idx];
}
