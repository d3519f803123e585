// grader/protocol/summary_keys.h — the one-line summary of a graded
// submission: written by the judge (--summary-out, key=value lines), read by
// the class grader (grader/class/) into summary.csv and the grade-book exports.
// One list, so both sides and the CSV header agree; each key's type says
// how results.jsonl writes it (a number, or null when empty; or a string).
#ifndef STENCIL_SUMMARY_KEYS_H
#define STENCIL_SUMMARY_KEYS_H

// X(key, type, what it holds)
#define SUMMARY_TEXT   0   // written as a JSON string
#define SUMMARY_NUMBER 1   // written as a JSON number (null when empty)
#define SUMMARY_KEYS(X) \
    X(status,             SUMMARY_TEXT  , "graded; rejected (the submission's fault: does not compile, include refused, defines main); error (the kit could not grade it)") \
    X(verdict,            SUMMARY_TEXT  , "pass, fail or error") \
    X(score,              SUMMARY_NUMBER, "points earned under the lab's rubric") \
    X(max_score,          SUMMARY_NUMBER, "what the parts measured on this backend are worth") \
    X(lab_max_score,      SUMMARY_NUMBER, "what the whole rubric is worth") \
    X(passed,             SUMMARY_NUMBER, "cases passed") \
    X(failed,             SUMMARY_NUMBER, "cases failed") \
    X(skipped,            SUMMARY_NUMBER, "cases skipped on this backend") \
    X(technique,          SUMMARY_TEXT  , "ok, fail or not-checked") \
    X(median_ms,          SUMMARY_NUMBER, "the (first, in lab.conf's order) timed case's median launch time (GPU only)") \
    X(gb_per_s,           SUMMARY_NUMBER, "the timed case's throughput, 8 bytes per interior point") \
    X(bandwidth_fraction, SUMMARY_NUMBER, "that throughput over the copy limit measured in the same run") \
    X(timed_cases,        SUMMARY_TEXT  , "every timed case that ran, as name:fraction of the copy limit, separated by spaces (labs with several)") \
    X(backend,            SUMMARY_TEXT  , "gpu or emu") \
    X(device,             SUMMARY_TEXT  , "the GPU's name") \
    X(stage,              SUMMARY_TEXT  , "where an error or rejection happened (compile, include, ...), empty when graded") \
    X(exit,               SUMMARY_NUMBER, "the judge's exit status") \
    X(message,            SUMMARY_TEXT  , "the first problem, one line") \
    X(hint,               SUMMARY_TEXT  , "the first failed case's hint key (its anchor in the lab's handout), or technique") \
    X(first_failed,       SUMMARY_TEXT  , "the first failed case's name (replay it with CASE=), empty when none failed")

// Summary status values.
#define SUMMARY_GRADED   "graded"
#define SUMMARY_REJECTED "rejected"
#define SUMMARY_ERROR    "error"

#endif // STENCIL_SUMMARY_KEYS_H
