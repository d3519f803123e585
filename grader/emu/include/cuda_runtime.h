// grader/emu/include/cuda_runtime.h — CUDA's runtime header, as the CPU
// emulation backend provides it (see grader/emu/README.md). A kernel file that
// nvcc builds compiles against it unchanged, once the launch translator has
// rewritten its <<<...>>> launches and __shared__ declarations.
#ifndef STENCIL_EMU_CUDA_RUNTIME_H
#define STENCIL_EMU_CUDA_RUNTIME_H

#ifndef __cplusplus
#error "the CPU emulation backend compiles CUDA C as C++17: build with grader/emu/emu.mk"
#endif

#ifndef __CUDACC__
#define __CUDACC__ 1            // CUDA C is being compiled, as nvcc says
#endif
#define STENCIL_EMU 1           // ...by the CPU emulation backend

#include "emu/types.h"
#include "emu/host_api.h"
#include "emu/device.h"
#include "emu/launch.h"

#endif // STENCIL_EMU_CUDA_RUNTIME_H
