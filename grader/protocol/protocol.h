// grader/protocol/protocol.h — what the judge and a runner agree on.
//
// The judge starts a runner as a child process: on a GPU the trusted executor
// (grader/executor/, which serves the student's program over the messages of
// wire.h), under CPU emulation the emulation runner (grader/emu/). The runner reads the case from files, writes the
// grids it got back and a report of key=value lines, and exits with one of
// the codes below. The judge trusts only these files, never the runner's
// standard output, so a kernel that prints "PASS" or calls exit(0) forges nothing.
#ifndef STENCIL_PROTOCOL_H
#define STENCIL_PROTOCOL_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define RUNNER_OK            0   // ran; the grids are in the output files
#define RUNNER_USAGE         2   // bad arguments or unreadable case files: a kit problem
#define RUNNER_LAUNCH_FAILED 3   // the launch itself failed (e.g. invalid configuration)
#define RUNNER_KERNEL_FAULT  4   // the kernel faulted while running (e.g. illegal address)
#define RUNNER_NO_MEMORY     5   // the case does not fit in device memory
#define RUNNER_REFUSED       6   // the student's code made a call the lab forbids (the report's error= names it)
#define RUNNER_VIOLATION     7   // the student's program broke the protocol: a late call, an exit, a crash (violation_kind=)
#define PROTOCOL_VIOLATION_RECORDS "forged-records"  // violation_kind of launch records tampered with (emulation)
// The emulation runner's load counts of the checked call (launch_log_loads), in bytes.
#define PROTOCOL_EMU_GLOBAL_LOAD_BYTES "emu_global_load_bytes"
#define PROTOCOL_EMU_SHARED_LOAD_BYTES "emu_shared_load_bytes"
// The emulation runner's record of the first kernel read of a guard cell around
// a kit grid (emu_guard_read: kernel, block, thread, the cell, the source line),
// where loads are counted; the judge fails the case with it.
#define PROTOCOL_EMU_GUARD_READ "emu_guard_read"
#define RUNNER_REP_WRONG     8   // a timed repetition's output was wrong (timed_rep_* keys say how)
#define RUNNER_NO_GPU        77  // no usable GPU (the report's error= quotes CUDA)

// Bit patterns written around and into the output buffers. Both are signalling
// NaNs (the quiet bit, 0x00400000, clear) with payloads no arithmetic produces,
// so the judge can tell "never written" and "written outside the buffer" from a
// NaN the kernel computed. Signalling, so that no value computed from one keeps
// its bits: a GPU's arithmetic gives its canonical NaN, and x86's (the CPU
// emulation) sets the quiet bit, where a quiet NaN's payload would pass through
// unchanged and a guard overwritten with a value computed from a guard would
// look untouched.
#define POISON_BITS 0x7FB0DEADu  // every interior output cell before the launch
#define GUARD_BITS  0x7F8A11EDu  // the guard zones before and after each buffer

// The memory a student's program may hold on the host: on the GPU backend the
// address space of its sandboxed process (the grids live in the executor); under
// CPU emulation, where its code, its cudaMalloc and the kit's grids share one
// process, the resident memory beyond the kit's grids (at most a quarter of the
// machine's memory, so that judges side by side cannot exhaust it).
#define STUDENT_MEMORY_BYTES (8ull << 30)
#define KERNEL_FILE_MAX_BYTES (1u << 20)  // a kernel file larger than this is not graded (the judge and the class grader)
#define GUARD_MIN_FLOATS 4096    // guard zone length: at least this, and at least one plane
#define GUARD_ALIGN_FLOATS 64    // and a multiple of this: 256 bytes, as cudaMalloc aligns

// The names of the kit's own kernels (the executor's fill, check and copy
// kernels) begin so: Nsight Compute's counts leave their rows out, and the
// executor refuses a student's kernel named so.
#define PROTOCOL_KIT_KERNEL_PREFIX "trusted_"

// One executor serves every case of a run (`executor --serve`, one CUDA
// context for the whole check). The judge writes a case on the executor's
// standard input as one request: the decimal length of the block, a newline,
// then the case's arguments (as a single case's command line takes them),
// each ending in a NUL byte. The executor runs the case, writing its report,
// grids and log (--log) as a single case would, and answers on its file
// descriptor PROTOCOL_SERVE_REPLY_FD with one byte, PROTOCOL_SERVE_DONE, then
// waits for the next request. Any case that does not end RUNNER_OK ends the
// executor with that exit code instead (the judge starts another for the next
// case): nothing a failed case left in the context reaches another case. Its
// first answer, before any request, is the device probe's (--outdir DIR gets
// the probe's report). End of input ends it with RUNNER_OK. Before its
// PROTOCOL_SERVE_DONE, a case may answer PROTOCOL_SERVE_GPU_IDLE once: its
// work on the GPU is over (every kernel, copy and free of the case ended;
// what is left is host work: the wait for a late call, the files), so that
// the judge's GPU turn ends there and not after the case's host work.
// PROTOCOL_SERVE_GPU_IDLE_WRONG says the same, adding that the kit's check
// on the GPU found the case's output wrong (its checked call's or a timed
// repetition's): the case fails, so no count of its loads is needed inside
// the judge's turn (gpu_turns.h).
#define PROTOCOL_SERVE_REPLY_FD   3
#define PROTOCOL_SERVE_DONE       'd'
#define PROTOCOL_SERVE_GPU_IDLE   'g'
#define PROTOCOL_SERVE_GPU_IDLE_WRONG 'w'
#define PROTOCOL_SERVE_MAX_BYTES  65536   // the longest request
#define PROTOCOL_SERVE_MAX_ARGS   64      // the most arguments in one request

// Why a host copy of the kit's grids is refused, in both backends' words
// (the executor's serve.cu, the emulation's memory.cpp): the answer must be
// computed on the GPU, from the grid the kit gave.
#define PROTOCOL_REFUSE_HOST_INTO_KIT "cudaMemcpy from the host into a grid of the kit's"
#define PROTOCOL_REFUSE_KIT_TO_HOST   "cudaMemcpy of a grid of the kit's to the host"

// The copy limit a timed run reports (bandwidth_by): which measurement set it.
#define COPY_LIMIT_BY_KERNEL "kernel"   // the float4 copy kernel, one element a thread
#define COPY_LIMIT_BY_MEMCPY "memcpy"   // cudaMemcpy device to device over the same bytes

// Guard cells on each side of a grid whose planes hold plane_cells cells: one
// plane at least, rounded up to 256 bytes, so that the grid handed to the
// student's code starts where a cudaMalloc'd buffer would (a float4 or
// float2 path that trusts cudaMalloc's alignment works on every grid). The
// judge computes it too, rather than believe the runner.
static inline unsigned long long protocol_guard_cells(unsigned long long plane_cells)
{
    unsigned long long g = plane_cells > GUARD_MIN_FLOATS ? plane_cells : GUARD_MIN_FLOATS;
    return (g + GUARD_ALIGN_FLOATS - 1) / GUARD_ALIGN_FLOATS * GUARD_ALIGN_FLOATS;
}

// Makes text from a student's process or file printable in place: control
// characters (terminal escapes among them), DEL, the C1 controls (0x80-0x9f
// alone, or as UTF-8 spells them, C2 80..9F), the bidirectional overrides and
// isolates (U+202A-202E, U+2066-2069, U+200E-200F, U+061C) and bytes that are
// no valid UTF-8 become '?' (a tab stays; a newline too when keep_newlines).
// Other UTF-8 (Chinese, accents) is kept. A report, a class table or a CSV
// cell then cannot be redrawn or reordered by what the text holds.
static inline void protocol_printable(char *s, int keep_newlines)
{
    unsigned char *p = (unsigned char *)s;
    while (p && *p) {
        unsigned char c = *p;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && !(keep_newlines && c == '\n')) || c == 0x7f)
                *p = '?';
            p++;
            continue;
        }
        int len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        for (int k = 1; k < len; k++)
            if ((p[k] & 0xc0) != 0x80)
                len = 0;  // a continuation byte missing (the text's end included)
        int hidden = len == 2 && ((c == 0xc2 && p[1] <= 0x9f) || (c == 0xd8 && p[1] == 0x9c));
        hidden |= len == 3 && c == 0xe2 &&
                  ((p[1] == 0x80 && ((p[2] >= 0xaa && p[2] <= 0xae) || p[2] == 0x8e || p[2] == 0x8f)) ||
                   (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
        if (len == 0) {
            *p++ = '?';
            continue;
        }
        for (int k = 0; k < len; k++, p++)
            if (hidden)
                *p = '?';
    }
}

// Copies src into dst (len bytes at most) made printable (protocol_printable,
// newlines not kept); returns dst. For printing a text that stays as it is.
static inline char *protocol_printable_copy(char *dst, size_t len, const char *src)
{
    if (!len)
        return dst;
    size_t n = 0;
    for (; src[n] && n + 1 < len; n++)
        dst[n] = src[n];
    dst[n] = '\0';
    protocol_printable(dst, 0);
    return dst;
}

// Makes s one line in place: each newline or carriage return becomes a
// space, so a message fits a key=value line or a one-line report. Returns s.
static inline char *protocol_one_line(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return s;
}

// The sweep labs' student interfaces (lab.conf's `interface`): the host
// function a runner built for each calls, as the judge names it in its
// messages. A runner is built for one (grader/build.mk INTERFACE=, which
// defines STENCIL_INTERFACE_GRID for the grid one, STENCIL_INTERFACE_IMAGE for
// the image one); every sweep runner takes the case's size as --size NX,NY,NZ.
#define INTERFACE_CUBE          "cube"            // kernels/lab.h, labs 1-4: N×N×N grids only
#define INTERFACE_CUBE_FUNCTION "launch_stencil"  // launch_stencil(d_in, d_out, N)
#define INTERFACE_GRID          "grid"            // kernels/grid.h: any nx×ny×nz grid
#define INTERFACE_GRID_FUNCTION "launch_sweep"    // launch_sweep(d_in, d_out, nx, ny, nz)
#include "../../kernels/conv_limits.h"
#define INTERFACE_IMAGE          "image"              // kernels/conv.h, lab 0: a 2D convolution on width×height images (nz = 1)
#define INTERFACE_IMAGE_FUNCTION "launch_convolution" // launch_convolution(d_in, d_out, width, height, r)

#ifdef __CUDACC__
#define PROTOCOL_HOST_DEVICE __host__ __device__
#else
#define PROTOCOL_HOST_DEVICE
#endif

// The sweep labs' stencil: a star of radius r (lab.conf's `stencil`: star7 is
// r = 1, star13 r = 2) reaches r cells along each axis, 6r + 1 points, one
// coefficient each. Coefficient 0 is the centre; the neighbour of axis a (0 x,
// 1 y, 2 z), side s (0 the minus side, 1 the plus side) at distance d (1..r)
// is coefficient STENCIL_COEF_INDEX(a, s, d): c1..c6 are the seven-point
// star's x-1, x+1, y-1, y+1, z-1, z+1 and c7..c12 the same two cells away.
// Interior points lie at least r cells from every face; the boundary layers,
// r thick, keep their input values. Runners take the coefficients as one
// --coef list and read the star's radius from its length. (The star's radius
// is not lab 0's filter radius, which --radius R gives: see below.)
#define STENCIL_MAX_RADIUS 2
#define STENCIL_NCOEF(r) (6 * (r) + 1)
#define STENCIL_MAX_NCOEF STENCIL_NCOEF(STENCIL_MAX_RADIUS)
#define STENCIL_COEF_INDEX(a, s, d) (1 + 6 * ((d) - 1) + 2 * (a) + (s))
// The book's operations a point of a star of radius r: a multiply for each of
// its 6r + 1 points and an add for all but one, 12r + 1 (13 for star7).
#define STENCIL_FLOPS(r) (2.0 * STENCIL_NCOEF(r) - 1.0)

// A convolution's filter of radius R (lab 0, the image interface: --radius R)
// holds (2R+1)^2 weights, row by row. --coef carries the star's 6r + 1
// coefficients or such a filter, at most PROTOCOL_MAX_WEIGHTS numbers.
#define FILTER_NWEIGHTS(R) ((2 * (R) + 1) * (2 * (R) + 1))
#define PROTOCOL_MAX_WEIGHTS (CONV_MAX_WIDTH * CONV_MAX_WIDTH)  // a 9x9 filter, more than any star's coefficients

// The radius of a star with ncoef coefficients (7: 1, 13: 2), or 0 if no
// star of the kit has that many.
static inline int protocol_radius_of(int ncoef)
{
    return ncoef >= STENCIL_NCOEF(1) && ncoef <= STENCIL_MAX_NCOEF && (ncoef - 1) % 6 == 0 ? (ncoef - 1) / 6 : 0;
}

// Parses a comma list of at most max floats ("0.5,-0.25,...") into out;
// returns how many, or -1 when the list holds anything else or more.
static inline int runner_parse_floats(const char *text, float *out, int max)
{
    int n = 0;
    for (const char *p = text; *p;) {
        char *end = NULL;
        if (n == max)
            return -1;
        out[n++] = strtof(p, &end);
        if (end == p || (*end != ',' && *end != '\0'))
            return -1;
        p = *end ? end + 1 : end;
    }
    return n;
}

// The star's radius a sweep runner's weights give: ncoef numbers on --coef
// are the star's c0..c(6r) (7: radius 1, 13: radius 2) or, with --radius R
// (filter_radius > 0), lab 0's filter of (2R+1)^2 weights. Returns the star's
// radius, 0 for a whole filter, or -1 if the count fits neither.
static inline int runner_star_radius(int ncoef, int filter_radius)
{
    if (filter_radius)
        return filter_radius >= 1 && filter_radius <= CONV_MAX_RADIUS && ncoef == FILTER_NWEIGHTS(filter_radius) ? 0 : -1;
    return protocol_radius_of(ncoef) ? protocol_radius_of(ncoef) : -1;
}


// 1 if (i, j, k) of an nx×ny×nz grid is an interior point of a star of
// radius r: at least r cells from every face. Host and device code both call it.
PROTOCOL_HOST_DEVICE static inline int protocol_is_interior(unsigned long long nx, unsigned long long ny,
                                                            unsigned long long nz, unsigned long long i,
                                                            unsigned long long j, unsigned long long k, int r)
{
    unsigned long long w = (unsigned long long)r;
    return i >= w && j >= w && k >= w && i + w < nz && j + w < ny && k + w < nx;
}

// The two boundary rules of a sweep runner's case. A star's sweep (cube,
// grid) writes only interior cells (protocol_is_interior for its radius): the
// boundary, star_radius layers thick, keeps its input values. A convolution
// (image, --radius R: every_cell) writes every cell, its ghost cells (outside
// the image) counting as 0. 1 if cell (i, j, k) of an nx×ny×nz grid is one
// the student's kernel must write; the judge, the executor's prepare and
// check kernels and the emulation runner all ask here.
PROTOCOL_HOST_DEVICE static inline int protocol_cell_written(int every_cell, int star_radius, unsigned long long i,
                                                             unsigned long long j, unsigned long long k,
                                                             unsigned long long nx, unsigned long long ny,
                                                             unsigned long long nz)
{
    return every_cell || protocol_is_interior(nx, ny, nz, i, j, k, star_radius);
}

// How many cells of an nx×ny×nz grid protocol_cell_written() names: every
// one, or the interior of the star of radius star_radius (0 when there is none).
PROTOCOL_HOST_DEVICE static inline unsigned long long protocol_cells_written(int every_cell, int star_radius,
                                                                              unsigned long long nx,
                                                                              unsigned long long ny,
                                                                              unsigned long long nz)
{
    unsigned long long w = every_cell ? 0 : 2ull * (unsigned long long)star_radius;
    return nx > w && ny > w && nz > w ? (nx - w) * (ny - w) * (nz - w) : 0;
}

// lab.conf's runner, which the judge passes the executor as --kind: a sweep
// (one call, one output grid: labs 0-4, 6-8) or a whole solve (labs 5, 9, 10).
#define RUNNER_SWEEP "sweep"
#define RUNNER_JACOBI "jacobi"
typedef enum runner_kind { RUNNER_KIND_NONE = -1, RUNNER_KIND_SWEEP, RUNNER_KIND_JACOBI } runner_kind;

// The runner named name; RUNNER_KIND_NONE for any other name.
static inline runner_kind runner_kind_of(const char *name)
{
    return !name ? RUNNER_KIND_NONE : !strcmp(name, RUNNER_SWEEP) ? RUNNER_KIND_SWEEP : !strcmp(name, RUNNER_JACOBI) ? RUNNER_KIND_JACOBI : RUNNER_KIND_NONE;
}

// The whole-solve labs (runner = jacobi) and the update one step applies,
// lab.conf's `update`: one formula for each, defined here once for the
// reference, the judge, the emulation runner and the executor's kernels.
//   jacobi  labs 5 and 9: Jacobi iteration for ∇²u = f on an nx×ny×nz grid,
//           v = (six neighbours − h²f) / 6, with a boundary condition (kernels/jacobi.h)
//   heat2d  lab 10: explicit time steps of the heat equation u_t = α∇²u on an
//           nx×ny grid (nz = 1), v = u + r·(four neighbours − 4u), r = α·dt/h² in
//           (0, 1/4], the boundary cells fixed (Dirichlet), rows padded (kernels/heat2d.h)
#define UPDATE_JACOBI "jacobi"
#define UPDATE_HEAT2D "heat2d"

// The heat lab's rows are padded: a row of nx points is stored in pitch floats,
// nx rounded up to a multiple of HEAT_PITCH_FLOATS (128 bytes), so every row
// starts 128-byte aligned (the buffers themselves are, and the guard zones are
// multiples of it) and float4 loads of a row are aligned. The padding cells,
// columns nx..pitch-1 of each row, are the kit's: they hold PAD_BITS before the
// solve and must hold it after (a kernel may read them, never write them).
#define HEAT_PITCH_FLOATS 32
#define PAD_BITS 0x7F8AD0D0u  // a signalling NaN, as POISON_BITS and GUARD_BITS

// The row pitch of a heat grid whose rows hold nx points.
PROTOCOL_HOST_DEVICE static inline unsigned long long protocol_heat_pitch(unsigned long long nx)
{
    return (nx + HEAT_PITCH_FLOATS - 1) / HEAT_PITCH_FLOATS * HEAT_PITCH_FLOATS;
}

// One explicit heat step at an interior point from its value u and its four
// neighbours, in the order every kit side sums them.
PROTOCOL_HOST_DEVICE static inline double protocol_heat_update(double u, double west, double east, double south,
                                                               double north, double r)
{
    return u + r * (west + east + south + north - 4.0 * u);
}

// The edge of the heat grid cell (j, k) lies on: 0 the first row (y = 0), 1 the
// last row, 2 the first column (x = 0), 3 the last column; the corners belong
// to the rows. -1 for an interior cell. Each edge holds one temperature, drawn
// for each case.
PROTOCOL_HOST_DEVICE static inline int protocol_heat_edge(unsigned long long j, unsigned long long k,
                                                          unsigned long long nx, unsigned long long ny)
{
    return j == 0 ? 0 : j + 1 == ny ? 1 : k == 0 ? 2 : k + 1 == nx ? 3 : -1;
}

// A large sweep case checked on the GPU (the executor's --gpu-check UNITS):
// the kit's kernels check every cell of the output (and the timed output,
// the same bits) where the grids are; when all is right the report says
// gpu_check=pass and only the units the judge named come back
// (CASE_SAMPLE), which the judge checks against its own reference on the
// CPU; anything wrong and every grid comes back as without the option, for
// the judge's whole verdict and its hints, except the input buffer when the
// same check found it as drawn (its keyed hash the same, no guard cell of
// either buffer changed): the report then says GPU_CHECK_INPUT_KEPT_KEY=1,
// CASE_INPUT_AFTER is not written, and the judge's own input (GUARD_BITS
// around it) stands for it.
#define GPU_CHECK_KEY       "gpu_check"  // the report key: GPU_CHECK_PASS or GPU_CHECK_FAIL
#define GPU_CHECK_PASS      "pass"
#define GPU_CHECK_FAIL      "fail"
#define GPU_CHECK_INPUT_KEPT_KEY "gpu_check_input_kept"
#define GPU_CHECK_MAX_UNITS 8            // the most units (protocol_sample_unit) a sample holds

// The unit a GPU check's sample is made of: a plane across the slowest axis
// that has more than one cell. A z-plane (nx*ny cells) when nz > 1; a row (nx
// cells, y its number) when nz == 1, so that a 2D image's sample is a few
// rows, not the whole image (a one-row image is one unit, the row). Unit u
// holds the grid's cells u*stride .. u*stride + cells - 1; --gpu-check's list
// names units by u, and CASE_SAMPLE holds them one after another, in its order.
typedef struct protocol_sample_unit {
    unsigned long long cells;  // cells in one unit: nx*ny (a z-plane) or nx (a row)
    unsigned long long count;  // units in the grid: nz planes or ny rows
    unsigned long long stride; // cells from one unit's first cell to the next one's
    int axis;                  // the axis units are numbered along: 2 (z, planes) or 1 (y, rows)
} protocol_sample_unit;

// The sample unit of an nx×ny×nz grid; the judge, the executor and the
// kit's test double of it all ask here.
static inline protocol_sample_unit protocol_sample_unit_of(unsigned long long nx, unsigned long long ny,
                                                           unsigned long long nz)
{
    protocol_sample_unit u;
    u.axis = nz > 1 ? 2 : 1;
    u.cells = nz > 1 ? nx * ny : nx;
    u.count = nz > 1 ? nz : ny;
    u.stride = u.cells;
    return u;
}

// A large whole solve (labs 5, 9, 10) drawn on the GPU (FILL_OPTION) comes with
// --gpu-check GPU_CHECK_SOLVE and --scale (the judge's scale of the tolerance):
// the executor judges the checked solve against the kit's double-precision
// solve by rules no looser than the judge's, reports the reference's last
// residual (GPU_REF_RESIDUAL_KEY), and when all is right (gpu_check=pass) no
// grid comes back; anything else and every grid comes back for the judge.
#define GPU_CHECK_SOLVE      "solve"
#define GPU_REF_RESIDUAL_KEY "gpu_ref_residual"

// A sweep case's input on a GPU: the judge draws it (grid_fill.h) from a seed
// it passes as FILL_OPTION (hexadecimal) instead of writing CASE_INPUT, the
// executor draws the same grid on the GPU and reports its plain sum
// (grid_fill_term under key 0) as INPUT_SUM_KEY; the judge holds it to the
// sum of its own grid (a difference is the kit's fault, not the student's).
#define FILL_OPTION          "--fill"
#define INPUT_SUM_KEY        "input_sum"  // decimal

// The technique's load counts taken by the executor itself (the judge's
// STENCIL_LOADS=cupti, grader/judge/load_count.h): with LOADS_OPTION the
// executor counts, with CUPTI's range profiler, the bytes the student's
// kernels loaded in the checked call (global loads, asynchronous copies from
// global memory, shared loads: the judge's JUDGE_NCU_* metrics), and reports
// them, or why they are missing (LOADS_MISSING_KEY).
#define LOADS_OPTION         "--count-loads"
#define LOADS_GLOBAL_KEY     "loads_global_bytes"
#define LOADS_ASYNC_KEY      "loads_async_bytes"
#define LOADS_SHARED_KEY     "loads_shared_bytes"
#define LOADS_MISSING_KEY    "loads_missing"
#define LOADS_AHEAD_WHY_KEY  "loads_ahead_failed"  // why a counting executor's preparation at its start failed (STENCIL_TRACE=1 prints it)

// What kind of reason a missing count has (LOADS_MISSING_KIND_KEY, beside
// LOADS_MISSING_KEY), as the executor tells it from where the count failed
// and CUPTI's error: only a machine that cannot count leaves the technique's
// floors unchecked; every other missing count ends in a verdict that is no
// pass (grader/judge/load_count.c says which).
#define LOADS_MISSING_KIND_KEY "loads_missing_kind"
enum loads_missing_kind {
    LOADS_MISSING_NONE = 0,   // counted (or no count asked)
    LOADS_MISSING_CANNOT,     // this machine cannot count: no CUPTI, a toolkit before the range profiler, counters without permission, a device it does not support; before the student's call
    LOADS_MISSING_BUSY,       // another profiler held this GPU's counters all the while the count waited for them
    LOADS_MISSING_LAUNCHES,   // the call launched more kernels than the profiler holds ranges (LOADS_MAX_RANGES)
    LOADS_MISSING_FAULT,      // any other failure, once the student's call had run
    LOADS_MISSING_KINDS
};
static const char *const loads_missing_kind_names[LOADS_MISSING_KINDS] = {"none", "cannot-count-here", "counters-busy", "too-many-launches", "fault"};

// The kind a report's LOADS_MISSING_KIND_KEY value names; LOADS_MISSING_FAULT
// for a value that names none (or none at all beside a missing count).
static inline int loads_missing_kind_of(const char *name)
{
    for (int k = 0; name && k < LOADS_MISSING_KINDS; k++)
        if (!strcmp(name, loads_missing_kind_names[k]))
            return k;
    return LOADS_MISSING_FAULT;
}

// File names inside the case directory the judge hands the runner.
#define CASE_INPUT     "in.bin"        // nx*ny*nz floats, written by the judge (not for FILL_OPTION)
#define CASE_OUTPUT    "out.bin"       // guard | grid | guard of the output after the checked launch
#define CASE_INPUT_AFTER "in_after.bin" // guard | grid | guard of the input buffer after it
#define CASE_TIMED     "out_timed.bin" // guard | grid | guard of the output after the timed launches
#define CASE_SAMPLE    "sample.bin"    // a GPU-checked case (--gpu-check): the judge's sample units of the output (protocol_sample_unit), in its order
#define CASE_REPORT    "report.txt"    // key=value lines
#define CASE_LOG       "runner.log"    // the runner's (and the student's program's) standard output and error
#define CASE_JACOBI_F       "f.bin"        // lab 5: f, written by the judge
#define CASE_JACOBI_A       "u_a.bin"      // lab 5: guard | d_a | guard after the checked solve
#define CASE_JACOBI_B       "u_b.bin"      // lab 5: guard | d_b | guard after it
#define CASE_JACOBI_F_AFTER "f_after.bin"  // lab 5: guard | d_f | guard after it

#endif // STENCIL_PROTOCOL_H
