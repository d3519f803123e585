// grader/emu/runner_tail.h — what an emulation runner reads from the student's
// file, included right after it, at the very end of the runner.
//
// Data only: a macro of the student's can change these values (they feed the
// OP/B model and the kernel attributes line), never run code in the runner.
// The runner declares them extern before its own code.

const int runner_declared_tiles[3] = {  // IN_TILE_DIM, OUT_TILE_DIM, BLOCK_DIM; 0 where not declared
#ifdef IN_TILE_DIM
    (int)(IN_TILE_DIM),
#else
    0,
#endif
#ifdef OUT_TILE_DIM
    (int)(OUT_TILE_DIM),
#else
    0,
#endif
#ifdef BLOCK_DIM
    (int)(BLOCK_DIM),
#else
    0,
#endif
};

#ifdef RUNNER_REPORTS_LAB_KERNEL
const void *const runner_lab_kernel = (const void *)stencil_kernel;  // the sweep labs' kernel, by name
#endif
