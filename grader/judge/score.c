// grader/judge/score.c — see score.h.
#include "score.h"

#include <stdio.h>
#include <string.h>

// Points for a group of cases: its share of cases that passed, counted over
// the cases this backend ran.
static void score_group(score_item *it, const score_case *cases, int ncases)
{
    int ran = 0, passed = 0;
    for (int i = 0; i < ncases; i++) {
        if (strcmp(cases[i].group, it->name) != 0 || cases[i].status == 2)
            continue;
        ran++;
        passed += cases[i].status == 0;
    }
    it->measured = ran > 0;
    it->points = ran ? it->max * passed / ran : 0;
    if (ran)
        snprintf(it->detail, sizeof(it->detail), "%d of %d cases passed", passed, ran);
    else
        snprintf(it->detail, sizeof(it->detail), "no case of this group ran on this backend");
}

// Points for speed: linear in a timed case's share of the yardstick (the
// copy limit measured in the same run, or the lab's solution timed on the same
// GPU by the same kit, kept from its first timing: yardstick_cache.h), from
// nothing at zero_at to full marks at full_at; with several timed cases, the
// mean of their points. Nothing if a timed case failed.
static void score_speed(score_item *it, const rubric_part *p, const score_case *cases, int ncases)
{
    const char *yardstick = p->against_solution ? "the lab's solution timed on this GPU" : "the copy limit measured in the same run";
    char each[120] = "";
    double sum = 0, only = 0;
    int timed = 0;
    for (int i = 0; i < ncases; i++) {
        if (!cases[i].timed || cases[i].status == 2)
            continue;
        it->measured = 1;
        if (cases[i].status != 0 || !(cases[i].bandwidth_fraction >= 0)) {
            it->points = 0;
            snprintf(it->detail, sizeof(it->detail), "the timed case%s%s failed: no speed points", cases[i].name ? " " : "", cases[i].name ? cases[i].name : "");
            return;
        }
        double f = p->against_solution ? cases[i].solution_fraction : cases[i].bandwidth_fraction;
        if (!(f >= 0)) {
            it->measured = 0;
            snprintf(it->detail, sizeof(it->detail), "not scored here: speed is scored against the lab's solution, which this kit does not hold "
                     "(your instructor times it when grading on a GPU); your kernel reached %.0f%% of the copy limit measured in the same run",
                     100.0 * cases[i].bandwidth_fraction);
            return;
        }
        double share = (f - p->zero_at) / (p->full_at - p->zero_at);
        sum += share < 0 ? 0 : share > 1 ? 1 : share;
        only = f;
        size_t used = strlen(each);
        snprintf(each + used, sizeof(each) - used, "%s%s%s%.0f%%", timed ? ", " : "", cases[i].name ? cases[i].name : "",
                 cases[i].name ? " " : "", 100.0 * f);
        timed++;
    }
    if (!timed) {
        snprintf(it->detail, sizeof(it->detail), "no timed case ran (timing needs the GPU backend)");
        return;
    }
    it->points = it->max * sum / timed;
    if (timed == 1)
        snprintf(it->detail, sizeof(it->detail), "%.0f%% of %s (full points at %.0f%%, none at %.0f%%)", 100.0 * only, yardstick,
                 100.0 * p->full_at, 100.0 * p->zero_at);
    else
        snprintf(it->detail, sizeof(it->detail), "mean of %d timed cases (%s) of %s (full points at %.0f%%, none at %.0f%%)", timed, each,
                 yardstick, 100.0 * p->full_at, 100.0 * p->zero_at);
}

score_result score_compute(const lab_conf *c, const score_case *cases, int ncases, int technique, int error)
{
    score_result s;
    memset(&s, 0, sizeof(s));
    for (int i = 0; i < c->nparts; i++) {
        const rubric_part *p = &c->parts[i];
        score_item *it = &s.items[s.nitems++];
        snprintf(it->name, sizeof(it->name), "%s", p->name);
        it->kind = p->kind;
        it->max = p->points;
        s.lab_max += p->points;
        if (error) {
            it->measured = 1;
            snprintf(it->detail, sizeof(it->detail), "not graded: the kit could not run this submission");
        } else if (p->kind == RUBRIC_CASES) {
            score_group(it, cases, ncases);
        } else if (p->kind == RUBRIC_TECHNIQUE) {
            it->measured = 1;  // a run where nothing passed, or nothing with interior points, earns nothing here either
            it->points = technique > 0 ? it->max : 0;
            snprintf(it->detail, sizeof(it->detail), "%s",
                     technique > 0                               ? "technique check passed"
                     : technique == 0                            ? "technique check failed"
                     : technique == SCORE_TECHNIQUE_UNJUDGED ? "technique not judged: no case with interior points passed"
                                                                 : "technique not checked (no case ran to the end)");
        } else {
            score_speed(it, p, cases, ncases);
        }
        if (it->measured) {
            s.points += it->points;
            s.max += it->max;
        }
    }
    return s;
}
