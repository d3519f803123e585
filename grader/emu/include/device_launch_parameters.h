// grader/emu/include/device_launch_parameters.h — included by some CUDA code; everything is in cuda_runtime.h.
#include "cuda_runtime.h"
