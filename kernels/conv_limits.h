// kernels/conv_limits.h — the sizes of lab 0's filter, one definition for the
// student's header (conv.h) and the grader (judge, executor, runners), which
// includes this file alone (conv.h defines a __constant__ variable).
#ifndef STENCIL_CONV_LIMITS_H
#define STENCIL_CONV_LIMITS_H

#define CONV_MAX_RADIUS 4                          // the largest filter radius a case draws
#define CONV_MAX_WIDTH (2 * CONV_MAX_RADIUS + 1)   // F's rows and columns: 9
#define CONV_FILTER_SYMBOL "F"                     // the kit copies the filter into the variable of this name

#endif // STENCIL_CONV_LIMITS_H
