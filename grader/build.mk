# grader/build.mk — builds one runner: the kit's runner source with one
# student kernel file compiled into it. The judge calls it; so can you:
#
#   make -f grader/build.mk BACKEND=gpu KERNEL=k.cu RUNNER=out/runner RUNNER_SRC=grader/emu/runner_sweep.cu
#   make -f grader/build.mk BACKEND=gpu PROBE=out/gpu_probe       (the GPU probe alone)
#
# BACKEND=emu builds the same runner for the CPU emulation backend (grader/emu/emu.mk).
# Run from the kit's root. ARCH=sm_XX overrides the detected GPU architecture.

BACKEND    ?= gpu
NVCC       ?= nvcc
KIT        := .
NVCC_PATH  := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOME  ?= $(patsubst %/bin/,%,$(dir $(realpath $(NVCC_PATH))))
CUDA_LIB   ?= $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib $(CUDA_HOME)/lib))

# The first GPU's compute capability (e.g. 90), from the toolkit's own query tool.
DETECTED_CC := $(firstword $(subst $(comma), ,$(shell $(CUDA_HOME)/bin/__nvcc_device_query 2>/dev/null)))
comma      := ,
ARCH       ?= $(if $(DETECTED_CC),sm_$(DETECTED_CC),native)

RUNNER_HEADERS := $(wildcard $(KIT)/grader/emu/*.h $(KIT)/grader/protocol/*.h) $(wildcard $(KIT)/kernels/*.h)
GPU_FLAGS  := -O3 -lineinfo -std=c++17 -I$(KIT)/grader/emu -I$(KIT)/grader/protocol -I$(KIT)/kernels
GPU_LIBS   := -L$(CUDA_LIB) -lcupti -ldl -Xlinker -rpath -Xlinker $(CUDA_LIB)

.PHONY: all
all: $(if $(PROBE),$(PROBE)) $(if $(RUNNER),$(RUNNER))

ifeq ($(BACKEND),gpu)
ifeq ($(NVCC_PATH),)
$(error nvcc not found: install the CUDA Toolkit and put its bin/ on PATH, or set NVCC=/path/to/nvcc; without a GPU use EMU=1)
endif

$(RUNNER): $(KERNEL) $(RUNNER_SRC) $(KIT)/grader/executor/launch_log_cupti.cu $(RUNNER_HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(GPU_FLAGS) -arch=$(ARCH) -DLAB_KERNEL_FILE='"$(abspath $(KERNEL))"' $(RUNNER_SRC) $(KIT)/grader/executor/launch_log_cupti.cu -o $@ $(GPU_LIBS)

$(PROBE): $(KIT)/grader/executor/gpu_probe.cu $(KIT)/grader/executor/launch_log_cupti.cu $(RUNNER_HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(GPU_FLAGS) $(KIT)/grader/executor/gpu_probe.cu $(KIT)/grader/executor/launch_log_cupti.cu -o $@ $(GPU_LIBS)
else ifeq ($(BACKEND),emu)
include $(KIT)/grader/emu/emu.mk
else
$(error BACKEND must be gpu or emu, not '$(BACKEND)')
endif
