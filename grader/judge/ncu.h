// grader/judge/ncu.h — reads Nsight Compute's CSV output (ncu --csv --print-units base).
#ifndef STENCIL_NCU_H
#define STENCIL_NCU_H

// The sum of metric's values over every kernel listed in the CSV file at
// path (each line: quoted fields, the metric's name in one, its value in the
// last, written with thousands separators). 0 when the file or metric is missing.
double ncu_metric_sum(const char *path, const char *metric);

#endif // STENCIL_NCU_H
