#!/usr/bin/env bash
# tests/slurm.sh — `make grade SLURM=1` on a real one-node Slurm cluster
# (tests/slurm/cluster.sh: slurmctld, slurmd, munged, one fake GPU), through
# the CPU emulation backend: one job array with a task per submission and
# --gres=gpu:1 (so tasks take turns on the GPU), gathered without sacct; a
# second call submits only the submissions whose result is missing.
#
# usage: tests/slurm.sh   Prints a line per check and "slurm: N passed, M failed";
# SKIPPED (exit 0, "0 passed, 0 failed") where Slurm is not installed or not root.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/check.sh
seed=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "slurm tests, seed $seed"


cluster=$(mktemp -d /tmp/stencil-slurm.XXXXXX)
tmp=$(mktemp -d)
trap 'tests/slurm/cluster.sh stop "$cluster" >/dev/null 2>&1; rm -rf "$cluster" "$tmp"' EXIT
tests/slurm/cluster.sh start "$cluster" >"$tmp/start.log" 2>&1
status=$?
if [ "$status" -eq 77 ]; then
    echo "  SKIPPED: $(head -1 "$tmp/start.log")"
    echo "slurm: 0 passed, 0 failed"
    exit 0
fi
check "a one-node cluster starts" test "$status" -eq 0
[ "$status" -eq 0 ] || { cat "$tmp/start.log"; echo "slurm: $pass passed, $fail failed"; exit 1; }
. "$cluster/env.sh"
make -s judge || exit 1

class="$tmp/class A"
mkdir -p "$class/bob"
cp reference/solutions/01-naive-sweep.cu "$class/alice.cu"
cp tests/mutants/01-naive-sweep/centre-dropped.cu "$class/bob/01-naive-sweep.cu"
cp reference/solutions/01-naive-sweep.cu "$class/carol.cu"
echo "stray" >"$class/notes.txt"
out="$tmp/results"
build/grade --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --seed "$seed" --slurm >"$tmp/first.log" 2>&1
status=$?
check "the class is graded through one job array (exit $status: a stray file is not graded)" test "$status" -eq 1
check "one array of the three kernel files" grep -q "submitting 3 submissions as one Slurm job array (--array=0-2)" "$tmp/first.log"
check "every task left its log" test "$(ls "$out"/slurm/task-*.out 2>/dev/null | wc -l)" -eq 3
check "each task saw the one GPU Slurm gave it" test "$(grep -l ", GPU 0$" "$out"/slurm/task-*.out | wc -l)" -eq 3
python3 - "$out" <<'PY' >"$tmp/py.log" 2>&1
import csv, sys
rows = {r["submission"]: r for r in csv.DictReader(open(sys.argv[1] + "/summary.csv", newline=""))}
assert len(rows) == 4, rows.keys()
assert rows["alice.cu"]["verdict"] == "pass" and rows["carol.cu"]["verdict"] == "pass", rows
assert rows["bob"]["verdict"] == "fail" and rows["notes.txt"]["status"] == "rejected", rows
print("rows ok")
PY
check "summary.csv: a row each, the verdicts expected ($(tail -1 "$tmp/py.log"))" grep -q "rows ok" "$tmp/py.log"
# Lose one result: the second call submits only that one.
rm -f "$out"/results/carol.cu-*.kv
build/grade --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --slurm >"$tmp/second.log" 2>&1
check "the second call submits only the missing one" grep -q "submitting 1 submissions as one Slurm job array (--array=2)" "$tmp/second.log"
check "the second call keeps the others" grep -q "^2 already graded" "$tmp/second.log"
check "and the class is whole again" grep -q '"carol.cu","graded","pass"' "$out/summary.csv"
build/grade --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --slurm >"$tmp/third.log" 2>&1
check "a third call submits nothing" eval '! grep -q "submitting" "$tmp/third.log"'
echo "slurm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
