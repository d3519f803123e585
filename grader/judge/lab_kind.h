// grader/judge/lab_kind.h — the kinds of lab the judge grades, as a table of
// operations: a star's sweep (kind_sweep.c: the cube and grid interfaces), a
// 2D convolution (kind_convolution.c: the image interface) and a whole solve
// (kind_solve.c: the Jacobi and heat updates). lab.conf's runner and its
// interface or update key pick one entry (lab_kind_of); the judge calls the
// entry's operations and never asks which kind it has. Adding a kind is
// adding one file and one entry of lab_kind.c's table.
#ifndef STENCIL_LAB_KIND_H
#define STENCIL_LAB_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "kv.h"

struct judge_case_env;
struct case_result;
struct judge_hint_words;

// What every kind of one runner shares: the runner itself, the lab.conf key
// that picks one of its kinds, and how its cases run.
typedef struct lab_runner {
    const char *name;                 // lab.conf's runner: the executor's --kind, the build's KIND, grader/emu/runner_<name>.cu
    const char *key;                  // the lab.conf key that tells its kinds apart: "interface" or "update"
    int (*run_case)(const struct judge_case_env *env, const lab_case *spec, uint64_t seed, struct case_result *r,
                    kv_list *report_out);                       // runs and judges one case (judge_run_case's contract)
    size_t (*early_bytes)(const lab_conf *c, const lab_case *spec);  // memory for a timed case's reference made ahead, 0: none
    void (*early_make)(const lab_conf *c, const lab_case *spec, uint64_t seed, void *mem, size_t bytes);  // makes it there (a helper process)
} lab_runner;

typedef struct lab_kind {
    const char *name;                 // the kind in words, for messages ("cube sweep", "heat solve")
    const lab_runner *runner;         // its runner, shared with the runner's other kinds
    const char *value;                // the runner's key's value for this kind (protocol.h's INTERFACE_* or UPDATE_*)
    int is_default;                   // 1: its runner's kind when lab.conf leaves the key out
    int star_radius_max;              // the widest star lab.conf's stencil may name: 2 (star13), 1 (star7), 0 (no stencil key)
    const char *const *case_options;  // the key=value options its cases take (NULL-terminated); conf_load refuses others
    int (*check_case)(const lab_conf *c, const lab_case *lc, char *err, size_t errlen);  // 0 if it can grade case lc, else -1 with file:line in err
    double (*case_flops)(const lab_conf *c, const lab_case *lc);  // the flops of one output point, as the OP/B models count them
    int (*filter_radius)(const lab_case *lc);                   // a case's filter radius (its r=), 0 for a star's sweep or a solve
    struct {                          // the smallest kernel file of the kind that builds (lab_kind_probe):
        const char *header;           // the header it includes,
        const char *header_star13;    // another for a star of radius 2 (when not NULL),
        const char *entry;            // and the entry point it defines, with an empty body
    } probe;
    int (*sized_cases)(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap);  // cases sized from the kernel's blocks (lab_kind_sized_cases)
    const struct judge_hint_words *words;  // how its failures are worded (the student's function, a timeout, a fault)
    int verdict_words;                // a sweep's VERDICT_WORDS_*: whose names the verdict's hints use (0 for a solve)
    int solve_update;                 // a whole solve's JACOBI_UPDATE_*: the step the reference applies (0 for a sweep)
} lab_kind;

// The kind of lab c (its runner, and the value of the kind's key, the
// runner's default kind when that is empty), or NULL if no entry matches.
const lab_kind *lab_kind_of(const lab_conf *c);

// The table's entry i (0, 1, ...), or NULL past its end.
const lab_kind *lab_kind_at(int i);

// 1 if some kind of runner is picked by lab.conf's key (runner "sweep" takes
// "interface"), 0 if not.
int lab_kind_runner_takes(const char *runner, const char *key);

// The value of key that a lab.conf leaving it out has ("cube", "jacobi").
const char *lab_kind_default_value(const char *key);

// Writes into list (NULL-terminated, room for cap names with the NULL) the
// values lab.conf's key may take, in the table's order: for "runner" each
// runner once, for another key the values of the kinds it picks.
void lab_kind_values(const char *key, const char **list, int cap);

// The smallest kernel file of c's kind that builds (lab_kind_of(c): its
// probe.header, or probe.header_star13 for a star of radius 2, and its
// probe.entry) into out; out, or "" when len is too small.
const char *lab_kind_probe(const lab_conf *c, char *out, size_t len);

// The largest untimed case lab.conf runs on every backend (no `noemu`) of
// side LAB_SIZED_SIDE_MAX at most, or NULL: a case sized from the kernel's
// launch is no larger than its first side (so both backends run the same
// sized cases, each costing no more than a case of lab.conf's small sizes
// under emulation), and counts in its rubric group.
#define LAB_SIZED_SIDE_MAX 160
const lab_case *lab_kind_sized_cap(const lab_conf *c);

// The cases a kernel's own tiles call for, that lab.conf's cases leave out
// (kind_sweep.c's rule for cubes): into out (at most cap), each marked
// `sized`; returns how many. block is the block of the kernel's launch on
// the largest case that passed.
int lab_kind_sized_cases(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap);

// A sized case's sized_tile when replayed alone (CASE=N): the width it was
// sized for is not known then. Its seed is its side's (lab_kind_sized_seed_index).
#define LAB_SIZED_TILE_UNKNOWN 1u

// The index a sized case's seed is drawn under (rng_case_seed): its side's,
// past every lab.conf case's, so that a replay of it alone draws its input.
static inline int lab_kind_sized_seed_index(const lab_case *lc)
{
    return CONF_MAX_CASES + (int)lc->nx;
}

// The operations a kind may do without: no case refused beyond its
// options, no filter, no reference made ahead (none is asked for: 0 bytes).
int lab_kind_any_case(const lab_conf *c, const lab_case *lc, char *err, size_t errlen);
int lab_kind_no_filter(const lab_case *lc);
int lab_kind_no_sized_cases(const lab_conf *c, const unsigned long long block[3], lab_case *out, int cap);
size_t lab_kind_none_ahead(const lab_conf *c, const lab_case *spec);
void lab_kind_make_none(const lab_conf *c, const lab_case *spec, uint64_t seed, void *mem, size_t bytes);

// The runners (lab_kind.c) and the kinds, one or more entries per kind file.
extern const lab_runner lab_runner_sweep, lab_runner_jacobi;
extern const lab_kind lab_kind_sweep_cube, lab_kind_sweep_grid, lab_kind_convolution, lab_kind_jacobi, lab_kind_heat;

#endif // STENCIL_LAB_KIND_H
