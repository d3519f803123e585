// grader/protocol/summary_keys.h — the one-line summary of a graded
// submission: written by the judge (--summary-out, key=value lines), read by
// the class grader (grader/class/) into summary.csv and the grade-book exports.
// One list, so both sides and the CSV header agree.
#ifndef STENCIL_SUMMARY_KEYS_H
#define STENCIL_SUMMARY_KEYS_H

// X(key, what it holds)
#define SUMMARY_KEYS(X) \
    X(status,             "graded; rejected (the submission's fault: does not compile, include refused, defines main); error (the kit could not grade it)") \
    X(verdict,            "pass, fail or error") \
    X(score,              "points earned under the lab's rubric") \
    X(max_score,          "what the parts measured on this backend are worth") \
    X(lab_max_score,      "what the whole rubric is worth") \
    X(passed,             "cases passed") \
    X(failed,             "cases failed") \
    X(skipped,            "cases skipped on this backend") \
    X(technique,          "ok, fail or not-checked") \
    X(median_ms,          "the (first, in lab.conf's order) timed case's median launch time (GPU only)") \
    X(gb_per_s,           "the timed case's throughput, 8 bytes per interior point") \
    X(bandwidth_fraction, "that throughput over the copy limit measured in the same run") \
    X(timed_cases,        "every timed case that ran, as name:fraction of the copy limit, separated by spaces (labs with several)") \
    X(backend,            "gpu or emu") \
    X(device,             "the GPU's name") \
    X(stage,              "where an error or rejection happened (compile, include, ...), empty when graded") \
    X(exit,               "the judge's exit status") \
    X(message,            "the first problem, one line")

// Summary status values.
#define SUMMARY_GRADED   "graded"
#define SUMMARY_REJECTED "rejected"
#define SUMMARY_ERROR    "error"

#endif // STENCIL_SUMMARY_KEYS_H
