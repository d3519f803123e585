// grader/judge/ncu.h — reads Nsight Compute's CSV output (ncu --csv --print-units base).
#ifndef STENCIL_NCU_H
#define STENCIL_NCU_H

// Kernels whose names start with this are the kit's own (the executor's
// fill, check and copy kernels): their counters never count as the student's.
#define NCU_KIT_KERNEL_PREFIX "trusted_"

// The sum of metric's values over the student's kernels listed in the CSV
// file at path: the rows under ncu's header line ("Kernel Name", "Metric
// Name", "Metric Value" columns, found by name), values written with
// thousands separators. Rows of the kit's own kernels, and rows whose value
// is not a number ("n/a"), are left out. 0 when
// the file, the header or the metric is missing. *rows, when not NULL,
// receives how many rows were summed.
double ncu_metric_sum(const char *path, const char *metric);
double ncu_metric_sum_rows(const char *path, const char *metric, int *rows);

#endif // STENCIL_NCU_H
