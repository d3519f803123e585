# grader/build.mk — builds what the judge runs: the trusted executor and a
# student's program (GPU), or an emulation runner (CPU). The judge calls it; so can you:
#
#   make -f grader/build.mk BACKEND=gpu EXECUTOR=build/gpu/sm_90/executor      the trusted executor
#   make -f grader/build.mk BACKEND=gpu EXECUTOR=... KERNEL=k.cu STUDENT=out/student KIND=sweep|jacobi [INTERFACE=grid] [STAR_RADIUS=2] [UPDATE=heat2d]
#       the student's program: k.cu compiled alone, linked with the kit's CUDA runtime shim
#   make -f grader/build.mk BACKEND=emu KERNEL=k.cu RUNNER=out/runner RUNNER_SRC=grader/emu/runner_sweep.cu [INTERFACE=grid] [STAR_RADIUS=2] [UPDATE=heat2d] [LOAD_COUNTS=1]
#       the CPU emulation runner (grader/emu/emu.mk): k.cu included at the end of the runner;
#       LOAD_COUNTS=1 counts the loads of its kernels (the labs whose technique has load floors)
# Run from the kit's root. ARCH=sm_XX overrides the detected GPU architecture.
# INTERFACE (sweep labs, lab.conf's `interface`): cube calls launch_stencil
# (kernels/lab.h), grid calls launch_sweep (kernels/grid.h), image calls
# launch_convolution (kernels/conv.h). STAR_RADIUS (sweep labs, lab.conf's
# `stencil`: star7 1, star13 2): the star's radius; above 1 both backends
# compile with -DSTENCIL_RADIUS=r, so kernels/coefficients.h declares the far
# coefficients c7..c12 and the runner sets all 6r + 1. (A convolution's filter
# radius is no build setting: each case passes its own, --radius R.)
# UPDATE (whole-solve labs, KIND=jacobi, lab.conf's `update`): jacobi calls
# jacobi_solve (kernels/jacobi.h), heat2d calls heat_solve (kernels/heat2d.h):
# the student's main() and the emulation runner are built for one of them.
# EXEC_COVERAGE=1 builds the executor with gcov's line counts in its host code
# (tests/device_coverage.sh): EXECUTOR must then end in -coverage, the judge's
# name for it under STENCIL_EXECUTOR_COVERAGE=1 (grader/judge/README.md), so the
# plain executor is never replaced; each object's counts land in its .gcda beside it.

BACKEND    ?= gpu
INTERFACE  ?= cube
STAR_RADIUS ?= 1
UPDATE     ?= jacobi
EXEC_COVERAGE ?=
NVCC       ?= nvcc
KIT        := .
NVCC_PATH  := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOME  ?= $(patsubst %/bin/,%,$(dir $(realpath $(NVCC_PATH))))
CUDA_LIB   ?= $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib $(CUDA_HOME)/lib))

# The first GPU's compute capability (e.g. 90), from the toolkit's own query tool,
# asked only when ARCH is not given: the query starts the driver (most of a
# second), and the judge passes the architecture its device probe reported.
comma      := ,
ifeq ($(origin ARCH),undefined)
DETECTED_CC := $(firstword $(subst $(comma), ,$(shell $(CUDA_HOME)/bin/__nvcc_device_query 2>/dev/null)))
ARCH       := $(if $(DETECTED_CC),sm_$(DETECTED_CC),native)
endif

RUNNER_HEADERS := $(wildcard $(KIT)/grader/emu/*.h $(KIT)/grader/protocol/*.h) $(wildcard $(KIT)/kernels/*.h)
CC         ?= cc
HOST_CXX   ?= g++
GPU_FLAGS  := -O3 -lineinfo -std=c++17 -I$(KIT)/grader/protocol -I$(KIT)/grader/sandbox -I$(KIT)/kernels
EXEC_SRCS  := $(wildcard $(KIT)/grader/executor/*.cu)
# gcov's counts in the executor's host code (nvcc hands --coverage to the host compiler; libgcov
# linked); -DEXEC_COVERAGE makes runner_fail write them before its _exit (grader/protocol/case_io.h).
# fork and execve stay plain calls (gcc may wrap them to write the counts first): the student's
# child, between the two, runs under the sandbox's seccomp filter and must write nothing.
EXEC_COVERAGE_COMPILE := $(if $(filter 1,$(EXEC_COVERAGE)),-Xcompiler --coverage -Xcompiler -fno-builtin-fork -Xcompiler -fno-builtin-execve -DEXEC_COVERAGE)
EXEC_COVERAGE_LINK    := $(if $(filter 1,$(EXEC_COVERAGE)),-lgcov)
EXEC_HDRS  := $(wildcard $(KIT)/grader/executor/*.h $(KIT)/grader/protocol/*.h $(KIT)/grader/sandbox/*.h) $(KIT)/kernels/jacobi.h $(KIT)/kernels/heat2d.h $(KIT)/kernels/conv_limits.h
SHIM_DIR   := $(dir $(EXECUTOR))shim
SHIM_FLAGS := -O2 -g -std=c++17 -Wall -Wextra -I$(CUDA_HOME)/include -I$(KIT)/grader/protocol -I$(KIT)/kernels
SHIM_OBJS  := $(SHIM_DIR)/shim.o $(SHIM_DIR)/student_main_$(KIND)$(if $(filter sweep-grid sweep-image,$(KIND)-$(INTERFACE)),_$(INTERFACE))$(if $(filter jacobi-heat2d,$(KIND)-$(UPDATE)),_heat2d).o
# The star's radius, for the student's file and the runner alike (nothing for the seven-point star).
STAR_RADIUS_DEFINES := $(if $(filter-out 1,$(STAR_RADIUS)),-DSTENCIL_RADIUS=$(STAR_RADIUS))
# The emulation runner of the grid interface calls launch_sweep, of the image one launch_convolution (grader/emu/runner_sweep.cu).
# The whole-solve runner of the heat update calls heat_solve (grader/emu/runner_jacobi.cu).
EMU_RUNNER_DEFINES := $(if $(filter grid,$(INTERFACE)),-DSTENCIL_INTERFACE_GRID)$(if $(filter image,$(INTERFACE)),-DSTENCIL_INTERFACE_IMAGE) $(STAR_RADIUS_DEFINES) \
                      $(if $(filter heat2d,$(UPDATE)),-DSTENCIL_UPDATE_HEAT2D)

.PHONY: all shared-parts
all: $(if $(EXECUTOR),$(EXECUTOR)) $(if $(STUDENT),$(STUDENT)) $(if $(RUNNER),$(RUNNER))
# What every student's build of this backend links (the shim and main() of the kind, or the
# emulation's translator and runtime): built first, one judge at a time (the judge's build lock).
shared-parts: $(if $(filter gpu,$(BACKEND)),$(SHIM_OBJS),emu-tools)

ifeq ($(BACKEND),gpu)
ifeq ($(NVCC_PATH),)
$(error nvcc not found: install the CUDA Toolkit and put its bin/ on PATH, or set NVCC=/path/to/nvcc; without a GPU use EMU=1)
endif
ifeq ($(EXEC_COVERAGE)-$(filter %-coverage,$(EXECUTOR)),1-)
$(error EXEC_COVERAGE=1 with EXECUTOR=$(EXECUTOR): the instrumented executor must not replace the plain one; name it apart, e.g. EXECUTOR=build/gpu/sm_90/executor-coverage)
endif

# The trusted executor: kit code only, built once per architecture; it links the driver (libcuda).
# Its sources compile side by side (make -j: the judge passes it), then link. CUPTI, for the load
# counts it takes itself (loads.cu), is opened at run time from the toolkit's folders (its run path).
EXEC_OBJS := $(patsubst $(KIT)/grader/executor/%.cu,$(EXECUTOR).obj/%.o,$(EXEC_SRCS))
EXEC_CUPTI := $(CUDA_HOME)/extras/CUPTI
$(EXECUTOR).obj/%.o: $(KIT)/grader/executor/%.cu $(EXEC_HDRS)
	@mkdir -p $(dir $@)
	$(NVCC) $(GPU_FLAGS) $(EXEC_COVERAGE_COMPILE) -I$(EXEC_CUPTI)/include -arch=$(ARCH) -c $< -o $@
$(EXECUTOR).obj/sandbox.o: $(KIT)/grader/sandbox/sandbox.c $(KIT)/grader/sandbox/sandbox.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -c $< -o $@
# Its command line and the judge's requests, plain C (the unit tests build it too, without a GPU).
$(EXECUTOR).obj/exec_args.o: $(KIT)/grader/executor/exec_args.c $(EXEC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-format-truncation -I$(KIT)/grader/protocol -c $< -o $@
$(EXECUTOR): $(EXEC_OBJS) $(EXECUTOR).obj/sandbox.o $(EXECUTOR).obj/exec_args.o
	$(NVCC) -arch=$(ARCH) $^ -o $@.part -L$(CUDA_LIB)/stubs -lcuda -ldl -Xlinker -rpath=$(CUDA_LIB):$(EXEC_CUPTI)/lib64 $(EXEC_COVERAGE_LINK) && mv -f $@.part $@

# The kit's CUDA runtime shim and the student program's main(), once per kind of lab.
$(SHIM_DIR)/shim.o: $(KIT)/grader/shim/shim.cpp $(KIT)/grader/protocol/wire.h $(KIT)/grader/protocol/cuda_errors.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -c $< -o $@
$(SHIM_DIR)/student_main_jacobi.o: $(KIT)/grader/shim/student_main.cpp $(KIT)/grader/protocol/wire.h $(KIT)/kernels/jacobi.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -DSTUDENT_KIND_JACOBI -c $< -o $@
$(SHIM_DIR)/student_main_jacobi_heat2d.o: $(KIT)/grader/shim/student_main.cpp $(KIT)/grader/protocol/wire.h $(KIT)/kernels/heat2d.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -DSTUDENT_KIND_JACOBI -DSTUDENT_UPDATE_HEAT2D -c $< -o $@
$(SHIM_DIR)/student_main_sweep.o: $(KIT)/grader/shim/student_main.cpp $(KIT)/grader/protocol/wire.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -c $< -o $@
$(SHIM_DIR)/student_main_sweep_grid.o: $(KIT)/grader/shim/student_main.cpp $(KIT)/grader/protocol/wire.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -DSTUDENT_INTERFACE_GRID -c $< -o $@
$(SHIM_DIR)/student_main_sweep_image.o: $(KIT)/grader/shim/student_main.cpp $(KIT)/grader/protocol/wire.h
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(SHIM_FLAGS) -DSTUDENT_INTERFACE_IMAGE -c $< -o $@

# The student's program: the kernel file as its own translation unit, without
# cudart, linked statically with the shim (it may open no file once it runs).
$(STUDENT): $(KERNEL) $(SHIM_OBJS) $(wildcard $(KIT)/kernels/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -lineinfo -std=c++17 -arch=$(ARCH) -cudart none $(STAR_RADIUS_DEFINES) -I$(KIT)/kernels -c -x cu $(KERNEL) -o $@.o
	$(HOST_CXX) -static -o $@.part $@.o $(SHIM_OBJS) -pthread || { echo "error: the kernel file links only with the kit's CUDA runtime: a 'multiple definition of main' means the file defines main() (the kit provides it); an 'undefined reference to cuda...' names a call the labs do not offer"; exit 1; }
	mv -f $@.part $@
else ifeq ($(BACKEND),emu)
include $(KIT)/grader/emu/emu.mk
else
$(error BACKEND must be gpu or emu, not '$(BACKEND)')
endif
