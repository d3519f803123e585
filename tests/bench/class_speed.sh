#!/usr/bin/env bash
# tests/bench/class_speed.sh — how long `make grade` takes a class on a GPU:
# N (default 300) distinct lab-4 submissions (LAB=n another lab), made from
# the lab's solution, variants and mutants in turn, each made unique by a
# comment so that no build is shared, graded with the default JOBS (GPUS=n
# spreads them; KEEP=dir, a folder that does not exist yet, keeps the
# class's results folder there, each
# judge's own output in results/<id>.txt, with STENCIL_TRACE=1 its trace). Prints the class's time, the time a submission, what 300
# would take at that rate, and a judge's mean seconds in each stage; with STENCIL_TRACE=1 also where
# the GPU's time went (tests/bench/class_timeline.py). Targets (issue: the check's speed): 300 lab-4
# submissions in <= 10 minutes on one H200, <= 3 with GPUS=4. Asserts
# nothing; exits 77 without a GPU.
set -u
cd "$(dirname "$0")/../.." || exit 2
n=${1:-300}
lab=${LAB:-4}
[ -n "${KEEP:-}" ] && [ -e "$KEEP" ] && { echo "class_speed: KEEP=$KEEP exists: name a folder that does not, nothing is overwritten"; exit 2; }
make -s judge build/grade || exit 2
build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1 ||
    { echo "class_speed: no usable GPU here (skipped)"; exit 77; }
name=$(basename "$(ls -d labs/"$(printf '%02d' "$lab")"-* | head -1)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sources=("$(build/judge --kit "$PWD" --lab "$name" --conf-get solution 2>/dev/null)")
for f in tests/variants/"$name"/*.cu tests/mutants/"$name"/*.cu; do [ -f "$f" ] && sources+=("$f"); done
mkdir -p "$tmp/class"
for ((k = 0; k < n; k++)); do
    src=${sources[$((k % ${#sources[@]}))]}
    { cat "$src"; echo "// class copy $k of $(basename "$src")"; } >"$tmp/class/student-$k.cu"
done
start=$(date +%s.%N)
# Traced: who holds the GPU's locks, sampled beside the class (class_timeline.py reads it).
holders=
if [ "${STENCIL_TRACE:-}" = 1 ]; then
    mkdir -p "$tmp/out/locks"
    python3 tests/bench/gpu_lock_holders.py "$tmp/out/locks" "$tmp/lock_holders.log" & holders=$!
fi
build/grade --kit "$PWD" --lab "$lab" --submissions "$tmp/class" --out "$tmp/out" --backend gpu \
    ${GPUS:+--gpus "$GPUS"} ${JOBS:+--jobs "$JOBS"} >"$tmp/log" 2>&1
status=$?
[ -n "$holders" ] && { kill "$holders" 2>/dev/null; wait "$holders" 2>/dev/null; mv "$tmp/lock_holders.log" "$tmp/out/" 2>/dev/null; }
secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
graded=$(wc -l <"$tmp/out/results.jsonl" 2>/dev/null || echo 0)
echo "class of $n lab-$lab submissions ($((${#sources[@]})) distinct sources) on ${GPUS:-1} GPU(s), JOBS=${JOBS:-default}: $secs s, exit $status, $graded graded"
awk -v s="$secs" -v n="$n" 'BEGIN { printf "  %.2f s a submission; 300 would take %.1f minutes at this rate\n", s / n, s / n * 300 / 60 }'
# Where a submission's time went, from each judge's JSON report (results/<id>.json: "seconds").
python3 - "$tmp/out/results" <<'PY'
import glob, json, sys
stages = ("build", "build_student", "build_waits", "cases", "loads", "solution", "report", "total")
runs = []
for path in glob.glob(sys.argv[1] + "/*.json"):
    try:
        runs.append(json.load(open(path)).get("seconds", {}))
    except (OSError, ValueError):
        pass
if runs:
    mean = {k: sum(r.get(k, 0) for r in runs) / len(runs) for k in stages}
    print("  a judge's seconds, mean of %d: " % len(runs) + ", ".join("%s %.2f" % (k, mean[k]) for k in stages))
PY
tail -3 "$tmp/log"
# With traces: where the GPU's time went (turns alone, shared, idle; the drains a wait to be alone met).
[ "${STENCIL_TRACE:-}" = 1 ] && python3 tests/bench/class_timeline.py "$tmp/out"
[ -n "${KEEP:-}" ] && cp -r "$tmp/out" "$KEEP"
exit 0
