#!/usr/bin/env bash
# tests/slurm.sh — `make grade SLURM=1` on a real one-node Slurm cluster
# (tests/slurm/cluster.sh: slurmctld, slurmd, munged, one fake GPU), through
# the CPU emulation backend: one job array with a task per submission and
# --gres=gpu:1 (so tasks take turns on the GPU), gathered without sacct; a
# second call submits only the submissions whose result is missing; make check
# SLURM=1 on that cluster, and first (no cluster needed) under an sbatch that
# forgets the job's exit (tests/slurm/forgetful/).
#
# usage: tests/slurm.sh [--match PATTERN]   Prints a line per check and "slurm: N passed, M failed";
# The cluster's checks are SKIPPED ("1 skipped") where Slurm is not installed or not root.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
draw_seed "slurm tests"


cluster=$(mktemp -d /tmp/stencil-slurm.XXXXXX)
tmp=$(mktemp -d)
trap 'tests/slurm/cluster.sh stop "$cluster" >/dev/null 2>&1; rm -rf "$cluster" "$tmp"' EXIT
make -s judge || exit 1

# make check SLURM=1 takes the judge's exit status from the job, not from sbatch: a
# real sbatch --wait exits 0 when the job's record was purged before it looked
# (tests/slurm/forgetful/sbatch does so every time; no cluster needed).
cp tests/mutants/01-naive-sweep/centre-dropped.cu "$tmp/wrong.cu"
make -s check LAB=1 EMU=1 SEED="$seed" KERNEL="$tmp/wrong.cu" REPORT_DIR="$tmp/local2" >/dev/null 2>&1
wrong_local=$?
forgetful() { PATH="$PWD/tests/slurm/forgetful:$PATH" FORGETFUL_SBATCH="$1" make -s check LAB=1 EMU=1 SEED="$seed" SLURM=1 "${@:2}"; }
forgetful purged KERNEL="$tmp/wrong.cu" REPORT_DIR="$tmp/forgot" >"$tmp/forgot-wrong.log" 2>&1
forgot_status=$?
check "a wrong kernel fails though sbatch forgot the job's exit (exit $forgot_status, locally $wrong_local)" \
    test "$forgot_status" -eq "$wrong_local" -a "$forgot_status" -ne 0
forgetful purged SOLUTION=1 REPORT_DIR="$tmp/forgot" >"$tmp/forgot-pass.log" 2>&1
forgot_status=$?
check "and the solution passes there (exit $forgot_status)" eval 'test "$forgot_status" -eq 0 && grep -q "^verdict: PASS" "$tmp/forgot-pass.log"'
forgetful cancelled SOLUTION=1 REPORT_DIR="$tmp/forgot" >"$tmp/forgot-cancelled.log" 2>&1
forgot_status=$?
check "a job cancelled before the judge ended: exit 2 ($forgot_status) and a line saying so" \
    eval 'test "$forgot_status" -eq 2 && grep -q "ended before the judge did" "$tmp/forgot-cancelled.log"'

tests/slurm/cluster.sh start "$cluster" >"$tmp/start.log" 2>&1
status=$?
if [ "$status" -eq 77 ]; then
    skip "a one-node cluster starts" "$(head -1 "$tmp/start.log")"
    finish slurm
fi
check "a one-node cluster starts" test "$status" -eq 0
[ "$status" -eq 0 ] || { cat "$tmp/start.log"; finish slurm; }
. "$cluster/env.sh"
grade=${BUILD:-build}/grade  # the class grader that submits the array (BUILD=: the coverage build's own; the tasks run build/grade)

class="$tmp/class A"
mkdir -p "$class/bob"
cp reference/solutions/01-naive-sweep.cu "$class/alice.cu"
cp tests/mutants/01-naive-sweep/centre-dropped.cu "$class/bob/01-naive-sweep.cu"
cp reference/solutions/01-naive-sweep.cu "$class/carol.cu"
echo "stray" >"$class/notes.txt"
out="$tmp/results"
"$grade" --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --seed "$seed" --slurm >"$tmp/first.log" 2>&1
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
"$grade" --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --slurm >"$tmp/second.log" 2>&1
check "the second call submits only the missing one" grep -q "submitting 1 submissions as one Slurm job array (--array=2)" "$tmp/second.log"
check "the second call keeps the others" grep -q "^2 already graded" "$tmp/second.log"
check "and the class is whole again" grep -q '"carol.cu","graded","pass"' "$out/summary.csv"
"$grade" --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --slurm >"$tmp/third.log" 2>&1
check "a third call submits nothing" eval '! grep -q "submitting" "$tmp/third.log"'

# make check SLURM=1: the student's check as one job; the same report as a local run.
# The job's output starts with one line naming the job; the report follows, and only
# the run's own time may differ.
report_body() { grep -v '^make check runs as Slurm job \|^time: ' "$1" | sed -e "s#$2#REPORT#g" -e 's/([0-9.]* s emulated)/(s emulated)/'; }
make -s check LAB=1 EMU=1 SOLUTION=1 SEED="$seed" REPORT_DIR="$tmp/local" >"$tmp/check-local.log" 2>&1
local_status=$?
make -s check LAB=1 EMU=1 SOLUTION=1 SEED="$seed" SLURM=1 PARTITION=debug REPORT_DIR="$tmp/remote" >"$tmp/check-slurm.log" 2>&1
slurm_status=$?
check "make check SLURM=1 exits as the local check does ($slurm_status, $local_status)" test "$slurm_status" -eq "$local_status" -a "$local_status" -eq 0
check "it names its job" grep -q "^make check runs as Slurm job [0-9]* on partition debug" "$tmp/check-slurm.log"
check "it ran on the cluster's node (its output file is the job's)" eval 'ls build/slurm/check-*.out >/dev/null 2>&1'
if diff <(report_body "$tmp/check-local.log" "$tmp/local") <(report_body "$tmp/check-slurm.log" "$tmp/remote") >"$tmp/check.diff"; then
    check "and prints the report a local run prints, line for line" grep -q "^verdict: PASS" "$tmp/check-slurm.log"
else
    check "and prints the report a local run prints, line for line" false
    head -20 "$tmp/check.diff"
fi
check "the report's JSON is where a local check puts it" test -s "$tmp/remote/report.json"
make -s check LAB=1 EMU=1 SEED="$seed" SLURM=1 KERNEL="$tmp/wrong.cu" REPORT_DIR="$tmp/remote2" >"$tmp/check-wrong.log" 2>&1
wrong_status=$?
check "a wrong kernel's check through Slurm fails as a local one does (exit $wrong_status, $wrong_local)" test "$wrong_status" -eq "$wrong_local" -a "$wrong_status" -ne 0
check "with its verdict" grep -q "^verdict: FAIL" "$tmp/check-wrong.log"
make -s check LAB=1 EMU=1 SOLUTION=1 SLURM=1 PARTITION=no-such-partition >"$tmp/check-bad.log" 2>&1
bad_status=$?
check "a partition the cluster lacks: exit 2 ($bad_status) and one line naming sbatch's refusal" \
    eval 'test "$bad_status" -eq 2 && grep -q "sbatch refused the check: .*[Pp]artition" "$tmp/check-bad.log"'
finish slurm
