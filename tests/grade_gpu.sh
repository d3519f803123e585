#!/usr/bin/env bash
# tests/grade_gpu.sh — `make grade` on a GPU with several judges at once:
# the GPU turns from their JSON reports show that nothing ran beside a timed
# case (untimed cases of several judges may share the GPU); copies of one
# solution graded side by side time within 10% of one another and earn full
# marks, speed included.
#
# usage: tests/grade_gpu.sh [LAB] [--match PATTERN]   (default lab 1). Needs a usable GPU.
# Prints a line per check and "grade-gpu: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
lab=${1:-1}
draw_seed "grade on the GPU, lab $lab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s judge || exit 1
dir=$(ls -d labs/"$(printf '%02d' "$lab")"-* | head -1)
name=$(basename "$dir")
class=$tmp/class
mkdir -p "$class"
for s in a b c; do cp "reference/solutions/$name.cu" "$class/solution-$s.cu"; done
mutant=$(ls tests/mutants/"$name"/*.cu | head -1)
cp "$mutant" "$class/mutant.cu"
start=$(date +%s)
build/grade --kit . --lab "$lab" --submissions "$class" --out "$tmp/out" --backend gpu --jobs 4 --seed "$seed" >"$tmp/log" 2>&1
status=$?
echo "  graded 4 submissions with JOBS=4 in $(( $(date +%s) - start )) s"
check "every submission graded (exit $status)" test "$status" -eq 0
python3 - "$tmp/out" <<'PY' >"$tmp/py.log" 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1] + "/results.jsonl")]
turns = [(t[0], t[1], t[2], i) for i, l in enumerate(lines) for t in l["report"]["gpu_turns"]]
timed = [t for t in turns if t[2] == 1]
shared = [t for t in turns if t[2] == 0]
print("GPU turns: %d timed (alone), %d shared" % (len(timed), len(shared)))
assert len(timed) >= len(lines), "a timed turn per submission, and one for the solution's yardstick"
for a in timed:
    assert a[1] > a[0], a
    for b in turns:
        if b is not a:
            assert b[1] <= a[0] or b[0] >= a[1], "a turn beside a timed one: %s %s" % (a, b)
overlap = sum(1 for a in shared for b in shared if a[3] != b[3] and a[0] < b[1] and b[0] < a[1])
print("shared turns of different judges that overlapped:", overlap // 2)
sol = [l for l in lines if l["submission"].startswith("solution")]
ms = [float(l["summary"]["median_ms"]) for l in sol]
print("solution medians (ms):", ms)
assert max(ms) <= 1.10 * min(ms), ms
for l in sol:
    sp = [i for i in l["report"]["score"]["items"] if i["name"] == "speed"]
    assert sp and sp[0]["measured"], sp
    print("speed item:", sp[0]["points"], "/", sp[0]["max"], sp[0]["detail"])
    assert l["summary"]["score"] == l["summary"]["max_score"] == l["summary"]["lab_max_score"], l["summary"]
print("turns ok")
PY
cat "$tmp/py.log" | sed 's/^/      /'
check "GPU turns never overlap, equal times, full marks for the solution" grep -q "turns ok" "$tmp/py.log"
finish grade-gpu
