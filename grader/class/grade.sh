#!/usr/bin/env bash
# grader/class/grade.sh — `make grade LAB=n SUBMISSIONS=dir/`: grades a class.
#
# Each entry of the folder is one submission: a .cu file, or a folder holding
# the lab's kernel file (same name as kernels/NN-name.cu) or exactly one .cu.
# Every submission is graded with the same seed (fair: the same inputs for
# everyone; printed, so any result can be replayed), one at a time, each in
# its own judge run. Results go to a new folder build/grades/labN-<time>/:
# <submission>.txt (the report the student would see) and .json per submission and summary.csv; nothing in the
# submissions folder is written. Prints a table; exits 0 if the class could be
# graded (failing submissions are results, not errors), 2 otherwise.
set -u
lab=${1:?usage: grader/class/grade.sh LAB SUBMISSIONS_DIR [EMU]}
subs=${2:?usage: grader/class/grade.sh LAB SUBMISSIONS_DIR [EMU]}
emu=${3:-}
cd "$(dirname "$0")/../.." || exit 2
kit=$PWD
[ -d "$subs" ] || { echo "stencil-labs: SUBMISSIONS=$subs is not a folder (give the folder holding one .cu or one folder per student)" >&2; exit 2; }
subs=$(cd "$subs" && pwd)
dir=$(ls -d labs/"$(printf '%02d' "$lab" 2>/dev/null)"-* 2>/dev/null | head -1)
[ -n "$dir" ] || { echo "stencil-labs: unknown lab '$lab' (see make help)" >&2; exit 2; }
make -s judge || exit 2
skeleton=$(basename "$(sed -n 's/^kernel *= *\([^ #]*\).*/\1/p' "$dir/lab.conf")")
seed=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
out=build/grades/$(basename "$dir")-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out" || exit 2
backend=auto
[ "$emu" = 1 ] && backend=emu
[ "$emu" = 0 ] && backend=gpu
echo "grading $(basename "$dir") for $(ls "$subs" | wc -l) entries of $subs, seed $seed, results in $out"
echo "submission,verdict,passed,failed,technique,median_ms,gb_per_s,exit" >"$out/summary.csv"
printf '%-28s %-8s %-9s %-12s %10s %s\n' submission verdict cases technique "ms" "first problem"
for entry in "$subs"/*; do
    name=$(basename "$entry")
    name=${name%.cu}
    if [ -d "$entry" ]; then
        kernel="$entry/$skeleton"
        [ -f "$kernel" ] || kernel=$(ls "$entry"/*.cu 2>/dev/null | head -2)
        if [ "$(wc -l <<<"$kernel")" -ne 1 ] || [ ! -f "$kernel" ]; then
            printf '%-28s %-8s %s\n' "$name" missing "no $skeleton and not exactly one .cu file"
            echo "$name,missing,0,0,,,,2" >>"$out/summary.csv"
            continue
        fi
    elif [ "${entry%.cu}" != "$entry" ]; then
        kernel=$entry
    else
        continue
    fi
    build/judge --kit "$kit" --lab "$lab" --kernel "$kernel" --backend "$backend" --seed "$seed" \
        --json-out "$out/$name.json" >"$out/$name.txt" 2>&1 </dev/null
    status=$?
    python3 - "$out/$name.json" "$name" "$status" "$out/summary.csv" <<'PY'
import json, sys
path, name, status, csv = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    r = json.load(open(path))
except ValueError:
    r = {"verdict": "error", "error": "no report"}
cases = r.get("cases", [])
bad = [c for c in cases if c["status"] == "fail"]
timed = [c["timing"] for c in cases if c.get("timing")]
tech = r.get("technique", {}).get("status", "")
first = (bad[0]["name"] + ": " + bad[0]["reason"]) if bad else r.get("error", "")
ms = "%.3f" % timed[0]["median_ms"] if timed else ""
gbs = "%.0f" % timed[0]["gb_per_s"] if timed else ""
print("%-28s %-8s %-9s %-12s %10s %s" % (name, r.get("verdict"), "%d/%d" % (r.get("passed", 0), r.get("passed", 0) + r.get("failed", 0)), tech, ms, first[:60]))
with open(csv, "a") as f:
    f.write("%s,%s,%d,%d,%s,%s,%s,%d\n" % (name, r.get("verdict"), r.get("passed", 0), r.get("failed", 0), tech, ms, gbs, status))
PY
done
echo "summary: $out/summary.csv"
