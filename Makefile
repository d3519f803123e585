# Stencil Labs — every user command. `make help` lists them.
#
# Variables (all optional): LAB=<n> the lab; KERNEL=<file.cu> grade another
# file; SOLUTION=1 grade the lab's instructor solution; SEED=<n> replay a run; EMU=1 CPU emulation, EMU=0 demand a GPU;
# CASE=<N> one case only; JSON=1 machine-readable report; SANITIZE=1 run
# under compute-sanitizer; PROFILE=1 measure the timed case's OP/B with Nsight
# Compute; ARCH=sm_XX override the detected GPU architecture; HTML=1 also
# write the report as a self-contained HTML page; REPORT_DIR=<dir> where
# `make check` writes its report and pictures (default build/reports/lab<n>);
# SLURM=1 run the check (or make grade) on a Slurm cluster, PARTITION=<p> and
# SBATCH_ARGS="<options>" for sbatch.

# The CPUs: the objects of the judge, the class grader and the unit tests compile side by side
# (a fresh clone's first make check waits for them), in a make -j of their own that the targets
# judge, check and unit-tests start (a MAKEFLAGS -j for every recipe made the test suites'
# own makes say 'jobserver unavailable').
NPROC := $(shell nproc 2>/dev/null || echo 1)
MAKE_SIDE_BY_SIDE = $(MAKE) -s --no-print-directory -j$(NPROC)

CC      ?= cc
CFLAGS  ?= -O2 -g
OPENMP  ?= -fopenmp
KIT_CFLAGS := $(OPENMP) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-format-truncation -Igrader/judge -Igrader/protocol -Igrader/sandbox -Ireference
BUILD   ?= build

# The judge: its driver and the steps that schedule cases (they call the driver's judge_fail, or
# start runners beside it), then the parts the unit tests and the class grader link (UNIT_LIB_SRCS):
# lab.conf's kinds (lab_kind.c) name the functions that run their cases, so those come too.
JUDGE_RUN_SRCS := grader/judge/judge.c grader/judge/backend.c \
              grader/judge/background.c grader/judge/yardstick.c \
              grader/judge/case_schedule.c grader/judge/barrier_checks.c grader/judge/load_count.c grader/judge/tool_runs.c
JUDGE_SRCS := $(JUDGE_RUN_SRCS) grader/judge/judge_case.c grader/judge/judge_jacobi.c grader/judge/conf.c grader/judge/lab_kind.c \
              grader/judge/kind_sweep.c grader/judge/kind_convolution.c grader/judge/kind_solve.c grader/judge/rng.c grader/judge/verdict.c grader/judge/verdict_image.c grader/judge/verdict_taps.c grader/judge/verdict_window.c \
              grader/judge/spawn.c grader/judge/kv.c grader/judge/technique.c grader/judge/report.c grader/judge/json_write.c grader/judge/report_platform.c grader/judge/score.c grader/judge/ncu.c grader/judge/tool_cache.c grader/judge/gpu_turns.c grader/judge/worker_pool.c reference/stencil_ref.c \
              grader/judge/jacobi_verdict.c reference/jacobi_ref.c grader/judge/build_check.c grader/judge/sanitizer_log.c grader/judge/hints.c grader/sandbox/sandbox.c \
              grader/judge/pictures.c grader/judge/report_html.c grader/judge/html_text.c grader/judge/yardstick_cache.c \
              grader/judge/judge_options.c grader/judge/judge_error.c grader/judge/judge_files.c grader/judge/runner_build.c grader/judge/report_files.c
JUDGE_HDRS := $(wildcard grader/judge/*.h grader/protocol/*.h grader/sandbox/*.h reference/*.h) kernels/conv_limits.h
UNIT_LIB_SRCS := $(filter-out $(JUDGE_RUN_SRCS),$(JUDGE_SRCS))
# The executor's part that runs without a GPU (its command line, the judge's requests): plain C,
# linked into the unit tests too (tests/unit/test_exec_args.c), so CI measures it.
UNIT_EXEC_SRCS := grader/executor/exec_args.c

# Each C source compiles once for the judge and the class grader, to an object under $(BUILD)/obj/,
# and once for all the unit tests, under $(BUILD)/tests/obj/: a unit test's confined children may
# write only beside the test programs, and their line counts (the coverage build) go beside the
# objects.
objects_of = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
unit_objects_of = $(patsubst %.c,$(BUILD)/tests/obj/%.o,$(1))

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
LAB_DIRS   := $(sort $(wildcard labs/[0-9][0-9]-*))
LAB_NUMBERS := $(foreach d,$(LAB_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(notdir $(d))))))

JUDGE_FLAGS = --kit "$(CURDIR)" --lab "$(LAB)" \
	$(if $(KERNEL),--kernel "$(KERNEL)") $(if $(filter 1,$(SOLUTION)),--solution) $(if $(SEED),--seed $(SEED)) $(if $(CASE),--case $(CASE)) \
	$(if $(filter 1,$(JSON)),--json) $(if $(filter 1,$(SANITIZE)),--sanitize) $(if $(filter 1,$(PROFILE)),--profile) $(if $(ARCH),--arch $(ARCH)) \
	$(if $(filter 1,$(EMU)),--backend emu,$(if $(filter 0,$(EMU)),--backend gpu))
# make check's report folder: the JSON report, the pictures (grader/pictures/), the HTML page with HTML=1.
REPORT_DIR ?= $(BUILD)/reports/lab$(LAB)
CHECK_REPORT_FLAGS = --pictures "$(REPORT_DIR)" --json-out "$(REPORT_DIR)/report.json" \
	$(if $(filter 1,$(HTML)),--html-out "$(REPORT_DIR)/report.html")

.PHONY: help check status grade unit-tests solutions-check test test-unit test-sandbox test-labs test-gpu coverage bench clean judge

help: ## list the commands
	@echo "Stencil Labs — make targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 26
	@echo "Variables: LAB=<n> KERNEL=<file.cu> SEED=<n> EMU=1|0 CASE=<N> JSON=1 SANITIZE=1 PROFILE=1 ARCH=sm_XX HTML=1 REPORT_DIR=<dir> SLURM=1 PARTITION=<p> SBATCH_ARGS=<opts>"
	@echo "Labs: $(notdir $(LAB_DIRS))"

judge: ## build the judge and the class grader (C only; never link student code)
	+@$(MAKE_SIDE_BY_SIDE) $(BUILD)/judge $(BUILD)/grade

GRADE_SRCS := grader/class/grade.c grader/class/grade_entries.c grader/class/grade_tables.c grader/class/grade_dashboard.c grader/class/grade_slurm.c \
              $(UNIT_LIB_SRCS)
$(BUILD)/grade: $(call objects_of,$(GRADE_SRCS))
	$(CC) $(CFLAGS) $(KIT_CFLAGS) $^ -o $@ -lm

$(BUILD)/judge: $(call objects_of,$(JUDGE_SRCS))
	$(CC) $(CFLAGS) $(KIT_CFLAGS) $^ -o $@ -lm

$(BUILD)/obj/%.o: %.c $(JUDGE_HDRS) grader/class/grade.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(KIT_CFLAGS) -Igrader/class -c $< -o $@

$(BUILD)/tests/obj/%.o: %.c $(JUDGE_HDRS) grader/executor/exec_args.h tests/unit/test_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(KIT_CFLAGS) -c $< -o $@

# The host unit tests (cmocka), a program each under $(BUILD)/tests/.
unit-tests:
	+@$(MAKE_SIDE_BY_SIDE) $(UNIT_TESTS)

$(BUILD)/bench_reference: tests/bench/bench_reference.c reference/stencil_ref.c grader/judge/rng.c $(JUDGE_HDRS)
	@mkdir -p $(BUILD)
	$(CC) -O2 $(KIT_CFLAGS) tests/bench/bench_reference.c reference/stencil_ref.c grader/judge/rng.c -o $@ -lm

BENCH_SAMPLE_SRCS := tests/bench/bench_judge_sample.c $(wildcard grader/judge/verdict*.c) reference/stencil_ref.c grader/judge/rng.c
$(BUILD)/bench_judge_sample: $(BENCH_SAMPLE_SRCS) $(JUDGE_HDRS)
	@mkdir -p $(BUILD)
	$(CC) -O2 $(KIT_CFLAGS) $(BENCH_SAMPLE_SRCS) -o $@ -lm

$(UNIT_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/obj/tests/unit/%.o $(call unit_objects_of,$(UNIT_LIB_SRCS) $(UNIT_EXEC_SRCS))
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) $(KIT_CFLAGS) $^ -o $@ -lcmocka -lm

check: ## grade a lab's kernel: make check LAB=1 (KERNEL=, SEED=, EMU=1, CASE=, JSON=1, HTML=1, SLURM=1 PARTITION= SBATCH_ARGS=); report and pictures in build/reports/lab1/
	+@$(MAKE_SIDE_BY_SIDE) $(BUILD)/judge
	@$(if $(LAB),,$(error which lab? make check LAB=<n>, one of: $(LAB_NUMBERS)))
	@$(if $(filter 1,$(SLURM)),PARTITION='$(PARTITION)' SBATCH_ARGS='$(SBATCH_ARGS)' grader/class/check_slurm.sh) $(BUILD)/judge $(JUDGE_FLAGS) $(CHECK_REPORT_FLAGS)

solutions-check: $(BUILD)/judge ## grade every lab's instructor solution (EMU=1 on a CPU)
	@[ -d reference/solutions ] || { echo "no solutions in this kit: reference/solutions/ is left out of the student kit (make export)"; exit 0; }; \
	status=0; for n in $(LAB_NUMBERS); do \
	  sol=$$($(BUILD)/judge --lab $$n --conf-get solution); \
	  echo "== lab $$n: $$sol"; \
	  $(MAKE) --no-print-directory check LAB=$$n KERNEL=$$sol || status=1; \
	done; exit $$status

status: $(BUILD)/judge ## where you stand: each lab's last check and what to do next
	@grader/class/status.sh

grade: $(BUILD)/judge $(BUILD)/grade ## grade a class: make grade LAB=3 SUBMISSIONS=dir/ (JOBS=n GPUS=n WALL=s FAIL_FAST=1 FRESH=1 OUT=dir SLURM=1 PARTITION= SBATCH_ARGS=)
	@$(if $(LAB),,$(error which lab? make grade LAB=<n> SUBMISSIONS=<folder>))
	@$(if $(SUBMISSIONS),,$(error which submissions? make grade LAB=$(LAB) SUBMISSIONS=<folder of .cu files or student folders>))
	@$(if $(filter 1,$(SLURM)),$(if $(PARTITION)$(SBATCH_ARGS),SLURM_OPTS='$(SLURM_OPTS) $(if $(PARTITION),--partition=$(PARTITION)) $(SBATCH_ARGS)')) \
	  $(BUILD)/grade --kit "$(CURDIR)" --lab "$(LAB)" --submissions "$(SUBMISSIONS)" \
	  $(if $(OUT),--out "$(OUT)") $(if $(JOBS),--jobs "$(JOBS)") $(if $(GPUS),--gpus "$(GPUS)") $(if $(WALL),--wall "$(WALL)") \
	  $(if $(SEED),--seed "$(SEED)") $(if $(filter 1,$(FAIL_FAST)),--fail-fast) $(if $(filter 1,$(FRESH)),--fresh) \
	  $(if $(filter 1,$(SLURM)),--slurm) $(if $(filter 1,$(EMU)),--backend emu,$(if $(filter 0,$(EMU)),--backend gpu))

test: ## the kit's own tests: host unit tests, labs through CPU emulation, GPU tests if a GPU is present; COVERAGE=1 runs them on the gcov build, then holds each room to its coverage floor (.ci/run)
	@$(if $(filter 1,$(COVERAGE)),tests/coverage.sh all,tests/run.sh)

test-unit: ## host unit tests only (cmocka)
	@tests/run.sh unit

test-sandbox: ## the sandbox under attack (grader/sandbox/): C compiler only, no cmocka, no GPU
	@tests/sandbox.sh

coverage: ## line coverage of every room that runs without a GPU, a line a room against its floor (fails under it); HTML in build/coverage/; with a GPU, the executor's room too (tests/device_coverage.sh)
	@tests/coverage.sh

bench: ## benchmarks: CPU reference sweep, emulated sweep, GPU solutions (when a GPU is present)
	@tests/bench.sh

clean: ## remove everything built
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------
# Autograder platforms and the student kit (grader/platform/)

.PHONY: gradescope export

gradescope: ## a Gradescope autograder for a lab: make gradescope LAB=1 writes build/gradescope/lab1.zip
	@$(if $(LAB),,$(error which lab? make gradescope LAB=<n>, one of: $(LAB_NUMBERS)))
	@$(if $(shell command -v zip 2>/dev/null),,$(error make gradescope needs zip, which is not installed: install the zip package (apt-get install zip) and run it again))
	@grader/platform/package.sh gradescope '$(LAB)' '$(BUILD)/gradescope/lab$(LAB).zip'

export: ## the student kit, without solutions, variants, mutants or hostile tests: build/export/stencil-labs-student.tar.gz
	@grader/platform/package.sh export '$(BUILD)/export/stencil-labs-student.tar.gz'

# ---------------------------------------------------------------------------
# Rendered handouts (handouts/render/)

.PHONY: handouts
PANDOC ?= pandoc

handouts: ## render every handout, English and Chinese, to self-contained HTML in build/handouts/ (needs pandoc)
	@$(if $(shell command -v '$(PANDOC)' 2>/dev/null),,$(error make handouts needs pandoc, which is not installed: install it (apt-get install pandoc, or https://pandoc.org/installing.html) and run it again))
	@PANDOC='$(PANDOC)' handouts/render/render.sh '$(BUILD)/handouts'
