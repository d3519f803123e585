# grader/emu/emu.mk — builds CUDA C programs for the CPU emulation backend.
#
# Run from the kit root. Included by grader/build.mk when BACKEND=emu, or
# used on its own:
#
#   make -f grader/emu/emu.mk KERNEL=k.cu RUNNER=build/x/runner RUNNER_SRC=grader/emu/runner_sweep.cu
#       a runner: the kit's runner source with the student's kernel file
#   make -f grader/emu/emu.mk EMU_MAIN=prog.cu EMU_PROGRAM=build/x/prog [EMU_LDLIBS=-lcmocka]
#       any single-file CUDA C program (the backend's tests use this)
#   make -f grader/emu/emu.mk emu-tools      the translator and the runtime library only
#   make -f grader/emu/emu.mk emu-clean      removes $(EMU_BUILD)
#
# A .cu file is first rewritten by the launch translator (its <<<...>>>
# launches, __shared__ declarations and kernel exits; line numbers kept, and a
# #line naming the original file), then compiled as C++17 by EMU_CXX with the
# shim headers of grader/emu/include (cuda_runtime.h is included first, as
# nvcc does), AddressSanitizer and UBSan, and linked with the runtime.

EMU_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
EMU_IS_MAIN := $(if $(filter 1,$(words $(MAKEFILE_LIST))),yes,)
EMU_PREVIOUS_DEFAULT_GOAL := $(.DEFAULT_GOAL)

EMU_BUILD ?= build/emu
EMU_CXX ?= g++
# Student code: C++17, light optimisation, full debug information.
EMU_CXXFLAGS ?= -std=c++17 -O1 -g -fno-strict-aliasing
# Out-of-bounds accesses and undefined behaviour stop the program, naming the CUDA thread.
# UBSan's bounds check is left out: it flags tile[y][x - 1] at x = 0, which a GPU reads
# as the row before (ASan still stops any access outside the whole array).
EMU_SANITIZE ?= -fsanitize=address,undefined -fno-sanitize=bounds -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
# The runtime itself: optimised; it works with and without sanitizers.
EMU_RUNTIME_CXXFLAGS ?= -std=c++17 -O2 -g -fno-omit-frame-pointer -Wall -Wextra
# The kit's coverage build (tests/coverage.sh) sets --coverage -DSTENCIL_COVERAGE: the translator,
# the runtime and the programs linked with it are instrumented, and a fault writes the counts before
# the process dies. Empty otherwise; the judge's runners never set it.
EMU_COVERAGE ?=
EMU_LDLIBS ?=
# Defines for a runner's own source (grader/build.mk: -DSTENCIL_INTERFACE_GRID for the grid interface).
EMU_RUNNER_DEFINES ?=
# The translator runs at build time: built by the host's compiler (differs when cross-compiling).
EMU_HOST_CXX ?= $(EMU_CXX)
EMU_AR ?= ar

EMU_TRANSLATE := $(EMU_BUILD)/tools/emu-translate
EMU_LIBRARY := $(EMU_BUILD)/lib/libstencil_emu.a
EMU_RUNTIME_SOURCES := $(wildcard $(EMU_DIR)/runtime/*.cpp) $(EMU_DIR)/launch_log_emu.cpp
EMU_RUNTIME_OBJECTS := $(patsubst $(EMU_DIR)/%.cpp,$(EMU_BUILD)/obj/%.o,$(EMU_RUNTIME_SOURCES))
EMU_INCLUDES := -I$(EMU_DIR)/include -I$(EMU_DIR) -I$(EMU_DIR)/../protocol -include cuda_runtime.h
# Compiles one translated .cu file (first prerequisite) into the program $@.
# With GCC and AddressSanitizer every access is checked through a call, which
# the runtime counts for loads (runtime/loads.cpp: the technique's load floors);
# STENCIL_EMU_LOAD_COUNTS tells the runner the counts exist.
EMU_IS_CLANG := $(shell $(EMU_CXX) --version 2>/dev/null | head -1 | grep -qi clang && echo 1)
# LOAD_COUNTS=1 asks for them (grader/build.mk: the labs whose technique has load
# floors); each access through a call makes the emulation two to three times slower.
EMU_LOAD_COUNTS := $(if $(and $(filter 1,$(LOAD_COUNTS)),$(findstring address,$(EMU_SANITIZE)),$(if $(EMU_IS_CLANG),,1)),--param asan-instrumentation-with-call-threshold=0 -DSTENCIL_EMU_LOAD_COUNTS=1)
EMU_LINK = $(EMU_CXX) -x c++ $(EMU_CXXFLAGS) $(EMU_COVERAGE) $(EMU_SANITIZE) $(EMU_LOAD_COUNTS) $(EMU_INCLUDES) -MMD -MP -MT $@ -MF $@.d

ifeq ($(shell command -v $(EMU_CXX) 2>/dev/null),)
$(error CPU emulation needs a C++17 compiler: '$(EMU_CXX)' was not found (install g++, or set EMU_CXX))
endif

.PHONY: emu-tools emu-clean emu-help

## emu-tools: build the launch translator and the runtime library
emu-tools: $(EMU_TRANSLATE) $(EMU_LIBRARY)

## emu-clean: remove everything the emulation backend built
emu-clean:
	rm -rf $(EMU_BUILD)

## emu-help: list these targets
emu-help:
	@sed -n 's/^## //p' $(EMU_DIR)/emu.mk

$(EMU_TRANSLATE): $(EMU_DIR)/translate/emu_translate.cpp
	@mkdir -p $(dir $@)
	$(EMU_HOST_CXX) -std=c++17 -O2 -Wall -Wextra $(EMU_COVERAGE) -MMD -MP -o $@ $<

$(EMU_BUILD)/obj/%.o: $(EMU_DIR)/%.cpp
	@mkdir -p $(dir $@)
	$(EMU_CXX) $(EMU_RUNTIME_CXXFLAGS) $(EMU_COVERAGE) -I$(EMU_DIR)/include -I$(EMU_DIR) -I$(EMU_DIR)/../protocol -MMD -MP -c -o $@ $<

$(EMU_LIBRARY): $(EMU_RUNTIME_OBJECTS)
	@mkdir -p $(dir $@)
	rm -f $@ $@.part
	$(EMU_AR) rcs $@.part $^ && mv -f $@.part $@

-include $(EMU_TRANSLATE).d $(EMU_RUNTIME_OBJECTS:.o=.d)

# ---------------------------------------------------------------------------
# A runner: RUNNER_SRC (which includes LAB_KERNEL_FILE) with the student's KERNEL
# ---------------------------------------------------------------------------
ifneq ($(RUNNER),)
ifeq ($(KERNEL),)
$(error RUNNER=$(RUNNER) needs KERNEL=<the student's .cu file>)
endif
ifeq ($(RUNNER_SRC),)
$(error RUNNER=$(RUNNER) needs RUNNER_SRC=<the kit's runner source, e.g. grader/emu/runner_sweep.cu>)
endif

$(RUNNER).kernel.cu: $(KERNEL) $(EMU_TRANSLATE)
	@mkdir -p $(dir $@)
	$(EMU_TRANSLATE) $< $@.part && mv -f $@.part $@

$(RUNNER).runner.cu: $(RUNNER_SRC) $(EMU_TRANSLATE)
	@mkdir -p $(dir $@)
	$(EMU_TRANSLATE) $< $@.part && mv -f $@.part $@

$(RUNNER): $(RUNNER).runner.cu $(RUNNER).kernel.cu $(EMU_LIBRARY) $(EMU_DIR)/emu.mk
	$(EMU_LINK) -DLAB_EMU $(EMU_RUNNER_DEFINES) -DLAB_KERNEL_FILE='"$(abspath $(RUNNER).kernel.cu)"' \
	    -iquote $(dir $(KERNEL)) -iquote $(dir $(RUNNER_SRC)) -Igrader -Ikernels \
	    -o $@.part $< -x none $(EMU_LIBRARY) -rdynamic $(EMU_LDLIBS) -ldl && mv -f $@.part $@

-include $(RUNNER).d
endif

# ---------------------------------------------------------------------------
# Any single-file program: EMU_MAIN (a .cu file with main) into EMU_PROGRAM
# ---------------------------------------------------------------------------
ifneq ($(EMU_PROGRAM),)
ifeq ($(EMU_MAIN),)
$(error EMU_PROGRAM=$(EMU_PROGRAM) needs EMU_MAIN=<the .cu file with main>)
endif

$(EMU_PROGRAM).emu.cu: $(EMU_MAIN) $(EMU_TRANSLATE)
	@mkdir -p $(dir $@)
	$(EMU_TRANSLATE) $< $@.part && mv -f $@.part $@

$(EMU_PROGRAM): $(EMU_PROGRAM).emu.cu $(EMU_LIBRARY) $(EMU_DIR)/emu.mk
	$(EMU_LINK) -iquote $(dir $(EMU_MAIN)) -o $@.part $< -x none $(EMU_LIBRARY) -rdynamic $(EMU_LDLIBS) -ldl && mv -f $@.part $@

-include $(EMU_PROGRAM).d
endif

# Included: leave the includer's default goal alone. On its own: build what was asked for.
ifeq ($(EMU_IS_MAIN),yes)
.DEFAULT_GOAL := $(firstword $(RUNNER) $(EMU_PROGRAM) emu-tools)
else
.DEFAULT_GOAL := $(EMU_PREVIOUS_DEFAULT_GOAL)
endif
