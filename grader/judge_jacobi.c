// grader/judge_jacobi.c — lab 5's cases (see judge_jacobi.h). Until lab 5's
// runner exists, a lab whose runner is "jacobi" is reported as a kit error.
#include "judge_jacobi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int jacobi_run_case(const judge_case_env *env, const lab_case *spec, uint64_t seed, case_result *r,
                    kv_list *report_out)
{
    (void)env;
    (void)spec;
    (void)seed;
    (void)r;
    memset(report_out, 0, sizeof(*report_out));
    errno = ENOSYS;
    return -1;
}
