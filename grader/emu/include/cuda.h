// grader/emu/include/cuda.h — included by some CUDA code out of habit; the driver API is not
// emulated, the runtime API is in cuda_runtime.h.
#include "cuda_runtime.h"
