// grader/emu/include/cuda_runtime_api.h — included by some CUDA code; everything is in cuda_runtime.h.
#include "cuda_runtime.h"
