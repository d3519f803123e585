// grader/judge/ncu.h — reads Nsight Compute's CSV output (ncu --csv --print-units base).
#ifndef STENCIL_NCU_H
#define STENCIL_NCU_H

#include "protocol.h"  // PROTOCOL_KIT_KERNEL_PREFIX: the kit's own kernels, whose counters never count as the student's

// The sum of metric's values over the student's kernels listed in the CSV
// file at path: the rows under ncu's header line ("Kernel Name", "Metric
// Name", "Metric Value" columns, found by name), values written with
// thousands separators. Rows of the kit's own kernels, and rows whose value
// is not a number ("n/a"), are left out. 0 when
// the file, the header or the metric is missing. *rows, when not NULL,
// receives how many rows were summed.
double ncu_metric_sum(const char *path, const char *metric);
double ncu_metric_sum_rows(const char *path, const char *metric, int *rows);

// The rows of the kit's own kernels with a value of metric: more than 0 when
// Nsight Compute counted in this run (a table with those and none of the
// student's means the student's kernels were not counted, not that they
// loaded nothing).
int ncu_metric_kit_rows(const char *path, const char *metric);

#endif // STENCIL_NCU_H
