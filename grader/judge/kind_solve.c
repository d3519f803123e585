// grader/judge/kind_solve.c — the whole-solve labs' kinds (the jacobi
// runner): Jacobi iterations with boundary conditions (labs 5 and 9,
// jacobi_solve, kernels/jacobi.h) and the 2D heat equation's steps (lab 10,
// heat_solve, kernels/heat2d.h). A case is a whole solve, run and judged by
// judge_jacobi.c; its timed cases' references can be made ahead. See
// lab_kind.h.
#include "lab_kind.h"

#include "jacobi_ref.h"
#include "judge_case.h"
#include "judge_jacobi.h"
#include "protocol.h"

static const char *const jacobi_options[] = {"bc", "iters", "check", "tol", "h", "mms", NULL};
static const char *const heat_options[] = {"steps", "r", NULL};  // steps, and the rate r = alpha dt / dx^2

// The whole-solve labs' wording of failures: Jacobi's and the heat step's.
static const judge_hint_words solve_words_heat = {
    "heat_solve",
    "the solve never returned: a loop that never ends (is the step counter incremented up to p->steps?), or a __syncthreads() some threads never reach.",
    "check the grid and block of every launch in heat_solve: at most 1024 threads a block, at most 65535 blocks along y and z, no dimension 0 (a grid of 0 blocks when nx or ny is small?).",
    "an out-of-bounds access (an index outside the grid: rows are p->pitch floats apart, and a float4 must not run past the last row): rerun with SANITIZE=1 on a GPU, or read the emulator's message naming the thread.",
};
static const judge_hint_words solve_words_jacobi = {
    "jacobi_solve",
    "the solve never returned: a loop that never ends (is t incremented? does the early stop compare with p->tol?), or a __syncthreads() some threads never reach.",
    "check the grid and block of every launch in jacobi_solve: at most 1024 threads a block, at most 65535 blocks along y and z, no dimension 0 (a grid of 0 blocks when a size is small?).",
    "an out-of-bounds access (an index outside the grid, or a boundary kernel reading past a face): rerun with SANITIZE=1 on a GPU, or read the emulator's message naming the thread.",
};

// (six neighbours - h²f) / 6: 8 flops a point.
static double solve_flops_jacobi(const lab_conf *c, const lab_case *lc)
{
    (void)c, (void)lc;
    return 8.0;
}

// u + r(w + e + s + n - 4u): 7 flops a point.
static double solve_flops_heat(const lab_conf *c, const lab_case *lc)
{
    (void)c, (void)lc;
    return 7.0;
}

const lab_kind lab_kind_jacobi = {
    .name = "Jacobi solve", .runner = &lab_runner_jacobi, .value = UPDATE_JACOBI, .is_default = 1,
    .case_options = jacobi_options, .check_case = lab_kind_any_case, .case_flops = solve_flops_jacobi, .filter_radius = lab_kind_no_filter,
    .sized_cases = lab_kind_no_sized_cases,
    .probe = {"jacobi.h", NULL, "int jacobi_solve(float *, float *, const float *, const jacobi_problem *, int *, float *) { return 0; }"},
    .words = &solve_words_jacobi, .solve_update = JACOBI_UPDATE_JACOBI,
};

const lab_kind lab_kind_heat = {
    .name = "heat solve", .runner = &lab_runner_jacobi, .value = UPDATE_HEAT2D,
    .case_options = heat_options, .check_case = lab_kind_any_case, .case_flops = solve_flops_heat, .filter_radius = lab_kind_no_filter,
    .sized_cases = lab_kind_no_sized_cases,
    .probe = {"heat2d.h", NULL, "int heat_solve(float *, float *, const heat_problem *) { return 0; }"},
    .words = &solve_words_heat, .solve_update = JACOBI_UPDATE_HEAT2D,
};
