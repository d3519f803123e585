#!/usr/bin/env bash
# setup.sh — Gradescope runs this once, as root, when it builds the
# autograder's image (Ubuntu): installs the C compiler, g++ and make when they
# are missing, builds the judge and the CPU emulation backend's tools, so each
# submission only compiles the student's file. `make gradescope LAB=n` puts it
# at the root of the autograder zip, beside the kit in stencil-labs/.
set -euo pipefail
kit="$(cd "$(dirname "$0")" && pwd)/stencil-labs"
if ! command -v cc >/dev/null || ! command -v g++ >/dev/null || ! command -v make >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends gcc g++ make libc6-dev
fi
make -C "$kit" -s judge
make -C "$kit" -s -f grader/emu/emu.mk emu-tools
echo "setup.sh: the judge and the emulation backend are built in $kit/build"
