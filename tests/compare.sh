#!/usr/bin/env bash
# tests/compare.sh — the parity test: a kernel file graded on the GPU and
# through CPU emulation gets the same verdict and the same hint keys, unless
# its header declares the difference with its reason (tests/parity/parity.py
# states the grammar: "// parity: verdict — reason", "// parity: hints KEY... —
# reason"; "// backends:" files run on one backend and are not compared). It
# reads the results lines of tests/labs.sh runs (RESULTS=FILE): it never runs a
# file a second time for itself.
#
# usage: tests/compare.sh emu EMU_RESULTS            the emulation half (no GPU): against tests/parity/gpu.tsv
#        tests/compare.sh gpu [GPU_RESULTS [EMU_RESULTS]]
#                                                    on a GPU: the results given, or tests/labs.sh runs of every lab
#        tests/compare.sh record [LAB...]            on a GPU: tests/labs.sh gpu LAB... (all: every lab), its lines
#                                                    replacing those labs' lines of tests/parity/gpu.tsv
# GPU_RECORD=FILE reads or writes another record than tests/parity/gpu.tsv.
# Prints the parity table (file, emulation's verdict and hints, the GPU's, same,
# declared, one backend only, SKIPPED or DIFFERENT) and "N passed, M failed, K skipped".
set -u
mode=${1:-}
shift
cd "$(dirname "$0")/.." || exit 2
record=${GPU_RECORD:-tests/parity/gpu.tsv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# lab_results BACKEND FILE [LAB...] — tests/labs.sh on BACKEND with its results lines in FILE.
lab_results() {
    local backend=$1 file=$2
    shift 2
    RESULTS="$file" tests/labs.sh "$backend" "$@" >"$work/labs-$backend.log" 2>&1
    tail -1 "$work/labs-$backend.log"
}

case $mode in
emu)
    results=${1:?usage: tests/compare.sh emu EMU_RESULTS (a tests/labs.sh emu run with RESULTS=EMU_RESULTS)}
    python3 tests/parity/parity.py compare "$results" "$record"
    ;;
gpu)
    gpu_results=${1:-}
    emu_results=${2:-}
    if [ -z "$gpu_results" ]; then
        gpu_results=$work/gpu.tsv
        lab_results gpu "$gpu_results"
    fi
    if [ -z "$emu_results" ]; then
        emu_results=$work/emu.tsv
        lab_results emu "$emu_results"
    fi
    python3 tests/parity/parity.py compare "$emu_results" "$gpu_results"
    ;;
record)
    lab_results gpu "$work/new.tsv" "$@"
    labs=$(cut -f2 "$work/new.tsv" | sort -u)
    touch "$record"
    # the other labs' lines stay; the labs run now get their new lines
    awk -F'\t' -v labs="$(tr '\n' ' ' <<<"$labs")" 'BEGIN { n = split(labs, l, " "); for (i = 1; i <= n; i++) run[l[i]] = 1 }
        !($2 in run)' "$record" >"$work/kept.tsv"
    sort -t"$(printf '\t')" -k3,3 "$work/kept.tsv" "$work/new.tsv" >"$record"
    echo "recorded $(wc -l <"$work/new.tsv") GPU lines of $(wc -w <<<"$labs") lab(s) in $record"
    ;;
*)
    echo "usage: tests/compare.sh emu EMU_RESULTS | gpu [GPU_RESULTS [EMU_RESULTS]] | record [LAB...]" >&2
    exit 2
    ;;
esac
