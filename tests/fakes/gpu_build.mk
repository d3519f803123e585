# tests/fakes/gpu_build.mk — grader/build.mk of the throw-away kit that
# tests/fake_gpu.sh points the judge at (--kit): the GPU backend's builds
# without the CUDA toolkit. The executor is tests/fakes/gpu_executor.c; the
# "student's program" is the emulation runner of the student's file (what
# the fake executor runs for the grids); every other build is the kit's own
# grader/build.mk. Never used by the kit itself.

FAKE_KIT := $(abspath $(dir $(realpath $(lastword $(MAKEFILE_LIST))))/../..)
FAKE_CC ?= cc

ifeq ($(BACKEND),gpu)
override BACKEND := emu
ifneq ($(STUDENT),)
RUNNER := $(STUDENT)
RUNNER_SRC := grader/emu/runner_$(KIND).cu
endif
endif

include $(FAKE_KIT)/grader/build.mk

# The niceness each build runs at, for tests/fake_gpu.sh (the judge's SPAWN_NICE_BESIDE).
ifneq ($(STENCIL_FAKE_NICE_LOG),)
$(shell echo "build $$(cut -d' ' -f19 /proc/self/stat)" >>$(STENCIL_FAKE_NICE_LOG))
endif

ifneq ($(EXECUTOR),)
$(EXECUTOR): $(FAKE_KIT)/tests/fakes/gpu_executor.c $(wildcard $(FAKE_KIT)/grader/protocol/*.h)
	@mkdir -p $(dir $@)
	$(FAKE_CC) -std=c11 -O1 -g -Wall -Wextra -I$(FAKE_KIT)/grader/protocol -o $@ $<
	@echo "the fake executor $@ built$(if $(EXEC_COVERAGE), with EXEC_COVERAGE=$(EXEC_COVERAGE))"
endif
