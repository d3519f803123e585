# labs/lab.mk — shared by every lab folder's Makefile: forwards its targets to
# the kit's top-level Makefile with LAB set, so `make check` works in the lab's
# folder. A KERNEL= given here is taken relative to this folder.
KIT_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
FORWARD  := -C $(KIT_ROOT) LAB=$(LAB_NUMBER) $(if $(KERNEL),KERNEL=$(abspath $(KERNEL)))

.PHONY: check solution-check help
check: ## grade this lab's kernel (SEED=, EMU=1, KERNEL=, CASE=, JSON=1 as at the top level)
	@$(MAKE) --no-print-directory $(FORWARD) check
solution-check: ## grade this lab's instructor solution
	@$(MAKE) --no-print-directory -C $(KIT_ROOT) check LAB=$(LAB_NUMBER) SOLUTION=1
help:
	@echo "make check            grade your kernel for lab $(LAB_NUMBER) (KERNEL=, SEED=, EMU=1, CASE=, JSON=1)"
	@echo "make solution-check   grade the instructor solution"
