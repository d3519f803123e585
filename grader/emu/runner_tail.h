// grader/emu/runner_tail.h — what an emulation runner reads from the student's
// file, included right after it, at the very end of the runner.
//
// Data only: a macro of the student's can change these values (they feed the
// OP/B model), never run code in the runner. Nothing here names the student's
// kernel: a kernel that is a template, or overloaded, must build as well (the
// launch records carry each launched kernel's shared memory).
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
