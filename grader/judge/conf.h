// grader/judge/conf.h — a lab's lab.conf: every grading parameter of one lab.
#ifndef STENCIL_CONF_H
#define STENCIL_CONF_H

#include <stddef.h>

#define CONF_MAX_CASES 64     // case lines per lab
#define CONF_MAX_OPTS 8       // key=value options on one case line
#define CONF_TEXT 256         // longest text value
#define CONF_MAX_PARTS 16     // `points` lines (rubric parts) per lab
#define CONF_DEFAULT_GROUP "cases"  // the rubric group of a case line without group=

typedef struct lab_case {
    unsigned int nx, ny, nz;                // grid size; N×N×N written as one number, an image WxH as two (nz = 1)
    int axes;                               // how many sizes the case line wrote: 1, 2 or 3
    int timed;                              // 1: this case is timed on a GPU
    int noemu;                              // 1: skipped under CPU emulation (too slow there)
    int sync;                               // 1: on a GPU also checked for barrier mistakes (racecheck, the emulator's strict barriers)
    unsigned int sized_tile;                // not in lab.conf: a case sized from the kernel's launch, its interior (or whole side) a whole number of tiles this wide (lab_kind_sized_cases); 0 for lab.conf's
    int line;                               // its line in lab.conf, for messages
    char group[32];                         // its rubric group (group=NAME; CONF_DEFAULT_GROUP if none)
    int nopts;                              // key=value options that follow the size
    char opt_key[CONF_MAX_OPTS][32];        // option names (lab-specific, e.g. bc)
    char opt_value[CONF_MAX_OPTS][64];      // option values
} lab_case;

typedef enum rubric_kind { RUBRIC_CASES, RUBRIC_TECHNIQUE, RUBRIC_SPEED } rubric_kind;

// One `points = ...` line of lab.conf: what a part of the grade is worth.
typedef struct rubric_part {
    rubric_kind kind;              // a group of cases, the technique line, or speed
    char name[32];                 // the group's name, "technique" or "speed"
    double points;                 // what the part is worth
    double full_at;                // speed: full points at or above this fraction of the copy limit
    double zero_at;                // speed: no points at or below this fraction
    int against_solution;          // speed: 1 if the fractions are of the lab's solution's speed on the same GPU, 0 of the copy limit
    int line;                      // its line in lab.conf, for messages
} rubric_part;

typedef struct lab_conf {
    char path[CONF_TEXT * 2];      // where it was read from
    char title[CONF_TEXT];         // lab title for the report
    char chapter[CONF_TEXT];       // the book's section and figure
    char runner[32];               // which runner builds and runs the kernel: sweep | jacobi
    char interface[16];            // sweep labs: the student's host function, cube (launch_stencil, N×N×N only; the default) | grid (launch_sweep) | image (launch_convolution)
    int interface_line;            // its line in lab.conf (0: not given)
    char stencil[16];              // sweep labs: the star swept, star7 (radius 1, the default) | star13 (radius 2)
    int star_radius;               // the star's radius r: 6r + 1 points, a boundary r layers thick (1 for star7, Jacobi and images; not lab 0's filter radius, a case's r=)
    int stencil_line;              // its line in lab.conf (0: not given)
    char update[16];               // whole-solve labs (runner = jacobi): the update a step applies, jacobi (the default) | heat2d (protocol.h's UPDATE_*)
    int update_line;               // its line in lab.conf (0: not given)
    char kernel[CONF_TEXT];        // the student's file, relative to the kit root
    char solution[CONF_TEXT];      // the instructor solution, relative to the kit root
    char technique[32];            // which technique check applies
    char opb_model[32];            // which of the book's OP/B models applies
    double timeout_s;              // seconds one case may run before it is killed
    int time_reps;                 // timed repetitions on a GPU
    double rtol;                   // relative tolerance (on the sum of term magnitudes)
    double atol;                   // absolute tolerance
    int ncases;                    // cases read
    lab_case cases[CONF_MAX_CASES];
    int nparts;                    // rubric parts (`points` lines; a default when none)
    rubric_part parts[CONF_MAX_PARTS];
} lab_conf;

// Reads and validates path into c. Returns 0, or -1 with a one-line message
// naming the file, the line and the key in err.
int conf_load(const char *path, lab_conf *c, char *err, size_t errlen);

// Parses one case value ("33", "64x32x16", "512 timed noemu", "64 bc=periodic")
// into out: a size is N (the cube N×N×N) or NXxNYxNZ, each 1..65536. Returns
// 0, or -1 with the problem in err.
int conf_parse_case(const char *value, lab_case *out, char *err, size_t errlen);

// Parses one rubric value ("cases 6", "technique 2", "speed 2 full_at=0.5
// zero_at=0.1") into out. Returns 0, or -1 with the problem in err.
int conf_parse_points(const char *value, rubric_part *out, char *err, size_t errlen);

// What the whole rubric is worth.
double conf_total_points(const lab_conf *c);

// Writes the value of lab.conf's key for the scripts that need one (so no
// script parses lab.conf itself: `judge --lab N --conf-get KEY`): title,
// chapter, runner, kernel, solution, technique, opb_model, interface,
// stencil, update, timeout, time_reps, rtol, atol as read; `timed` the
// sizes of the timed cases as lab.conf writes them (space-separated),
// `largest` the size of the largest case every backend runs (no noemu);
// `points` what the whole rubric is worth. Returns 0, or -1 for a key it
// does not know (out then lists the keys).
int conf_get(const lab_conf *c, const char *key, char *out, size_t len);

// The filter radius of an image case (its r=R option, 1..CONV_MAX_RADIUS), or 0.
int conf_case_radius(const lab_case *c);

// The value of option key on case c, or NULL.
const char *conf_case_opt(const lab_case *c, const char *key);

// A short name for case c ("N=33", "64x32x16", an image "37x29,r=3"), written into buf.
const char *conf_case_name(const lab_case *c, char *buf, size_t len);

#endif // STENCIL_CONF_H
