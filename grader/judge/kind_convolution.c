// grader/judge/kind_convolution.c — lab 0's kind: a 2D convolution of a
// width×height image with a filter of radius R (a case's r=), through the
// sweep runner with the image interface (launch_convolution, kernels/conv.h).
// It differs from a star's sweep in its cases (WxH with r=), its flops
// (a multiply and an add a tap), its wording and its verdict's names. See
// lab_kind.h.
#include "lab_kind.h"

#include <stdio.h>

#include "judge_case.h"
#include "protocol.h"
#include "verdict.h"
#include "../../kernels/conv_limits.h"

static const char *const convolution_options[] = {"r", NULL};  // a convolution's filter radius

static const judge_hint_words convolution_words = {
    INTERFACE_IMAGE_FUNCTION, SWEEP_WORDS_TIMEOUT,
    SWEEP_WORDS_LAUNCH " (the grid from width in x and height in y; dynamic shared memory sized from r).",
    SWEEP_WORDS_FAULT "; a read of a ghost cell (outside the image) must be skipped, not made.",
};

// 0 if case lc is an image with a filter radius (WxH, r=1..CONV_MAX_RADIUS),
// else -1 with err naming the file and line.
static int convolution_check_case(const lab_conf *c, const lab_case *lc, char *err, size_t errlen)
{
    if (lc->nz != 1 || conf_case_radius(lc) < 1) {
        snprintf(err, errlen, "%s:%d: a case of the image interface (%s, kernels/conv.h) is WxH with a filter radius r=1..%d, e.g. 'case = 37x29 r=3'",
                 c->path, lc->line, INTERFACE_IMAGE_FUNCTION, CONV_MAX_RADIUS);
        return -1;
    }
    return 0;
}

// 2(2R+1)^2 flops a pixel: a multiply and an add a tap of the filter of radius R.
static double convolution_flops(const lab_conf *c, const lab_case *lc)
{
    (void)c;
    return 2.0 * FILTER_NWEIGHTS(conf_case_radius(lc));
}

const lab_kind lab_kind_convolution = {
    .name = "convolution", .runner = &lab_runner_sweep, .value = INTERFACE_IMAGE, .star_radius_max = 1,
    .case_options = convolution_options, .check_case = convolution_check_case, .case_flops = convolution_flops, .filter_radius = conf_case_radius,
    .sized_cases = lab_kind_no_sized_cases,
    .probe = {"conv.h", NULL, "void launch_convolution(const float *, float *, unsigned int, unsigned int, int) {}"},
    .words = &convolution_words, .verdict_words = VERDICT_WORDS_IMAGE,
};
