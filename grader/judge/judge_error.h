// grader/judge/judge_error.h — a kit-level error on its way to the one place
// that reports it and exits (judge.c): the judge's steps return -1 with the
// error filled in, and the driver ends the run with it.
#ifndef STENCIL_JUDGE_ERROR_H
#define STENCIL_JUDGE_ERROR_H

typedef struct judge_error {
    int code;                   // the exit status it ends the run with: JUDGE_EXIT_KIT or JUDGE_EXIT_NO_GPU
    char stage[24];             // the stage the run stops at (judge_run.stage), "" for the stage the run is at
    char message[2048];         // one line: the problem and what to do about it
} judge_error;

// Fills err with code, stage (NULL: the run's own) and a message in
// printf's format; returns -1, what a failing step returns.
int judge_error_set(judge_error *err, int code, const char *stage, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// Reports err (or, in a case's worker, hands it to the judge) and exits: the
// driver's one exit for a kit-level error (defined in judge.c).
void judge_fail(const judge_error *err) __attribute__((noreturn));

// judge_fail with a message made here, for the one place that cannot
// return an error: the stop signals' handler (spawn_stop_on_signals), which
// runs deep inside whatever step was waiting; recovery there is impossible.
void judge_die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

#endif // STENCIL_JUDGE_ERROR_H
