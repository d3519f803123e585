// grader/judge/score.h — the grade a run earns under its lab's rubric (the
// `points` lines of lab.conf): points per group of cases, for the technique
// line and for speed against the copy limit measured in the same run.
#ifndef STENCIL_SCORE_H
#define STENCIL_SCORE_H

#include "conf.h"

typedef struct score_item {
    char name[32];              // the rubric part: a case group, "technique" or "speed"
    rubric_kind kind;           // which kind of part
    double points;              // points earned
    double max;                 // what the part is worth
    int measured;               // 0: this backend cannot measure it (cases skipped, no timing): left out of max
    char detail[200];           // how the points were reached, one line
} score_item;

typedef struct score_result {
    int nitems;                 // parts of the rubric
    score_item items[CONF_MAX_PARTS];
    double points;              // earned, over the measured parts
    double max;                 // what the measured parts are worth
    double lab_max;             // what the whole rubric is worth
} score_result;

// One case as the score sees it.
typedef struct score_case {
    const char *group;          // its rubric group
    int status;                 // 0 ok, 1 fail, 2 skipped (case_status)
    int timed;                  // 1: lab.conf times this case
    double bandwidth_fraction;  // its GB/s over the copy limit measured in the same run; -1 if not timed
    double solution_fraction;   // its GB/s over the lab's solution's on the same GPU (timed in this run, or kept); -1 if not measured
    const char *name;           // its name ("N=512"), for the speed line; NULL: none
} score_case;

// Scores ncases cases and the technique verdict (1 ok, 0 failed, -1 not
// checked, SCORE_TECHNIQUE_UNJUDGED failed for want of evidence: no case with
// interior points passed) under c's rubric. A kit-level error scores with
// ncases = 0 and technique = 0: nothing earned, every part counted.
#define SCORE_TECHNIQUE_UNJUDGED (-2)
score_result score_compute(const lab_conf *c, const score_case *cases, int ncases, int technique, int error);

#endif // STENCIL_SCORE_H
