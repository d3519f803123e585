#!/usr/bin/env bash
# tests/device_profile.sh — on a GPU, the OP/B the kit measures beside the
# book's: each lab's solution (LABS, default all) graded with PROFILE=1 on
# each of its timed cases, one row a case: time, GB/s, share of the copy limit,
# the book's OP/B for the solution's tile, and Nsight Compute's measured OP/B
# over the bytes its global loads requested and over DRAM bytes. Asserts that
# every solution passes and that each row got its measured figures; exits 77
# without a usable GPU, 1 if a row is missing its figures.
set -u
cd "$(dirname "$0")/.." || exit 2
make -s judge || exit 2
build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1 ||
    { echo "device_profile: no usable GPU here (skipped)"; exit 77; }
command -v ncu >/dev/null || { echo "device_profile: Nsight Compute (ncu) is not on PATH; it comes with the CUDA Toolkit"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
printf '  %-22s %-16s %9s %8s %7s %9s %14s %10s\n' lab case ms GB/s "% limit" "book OP/B" "OP/B requested" "OP/B DRAM"
bad=0
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    n=$(echo "$lab" | sed -E 's/^0?([0-9]+)-.*/\1/')
    case " ${LABS:-$n} " in *" $n "*) ;; *) continue ;; esac
    sol=$(build/judge --kit "$PWD" --lab "$(basename "$dir")" --conf-get solution)
    for timed in $(build/judge --kit "$PWD" --lab "$(basename "$dir")" --conf-get timed); do
        build/judge --kit "$PWD" --lab "$n" --backend gpu --case "$timed" --kernel "$sol" --profile --json 2>/dev/null >build/profile.json
        python3 - "$lab" build/profile.json <<'PY' || bad=1
import json, sys
lab, path = sys.argv[1], sys.argv[2]
try:
    r = json.load(open(path)); c = r["cases"][0]
except Exception as e:
    print("  %-22s no report (%s)" % (lab, e)); sys.exit(1)
t = c.get("timing") or {}; m = c.get("measured_opb") or {}
book = (r.get("opb") or {}).get("book_model")
print("  %-22s %-16s %9.3f %8.0f %6.0f%% %9s %14s %10s  %s" % (lab, c["name"], t.get("median_ms") or 0, t.get("gb_per_s") or 0,
      100 * (t.get("bandwidth_fraction") or 0), "%.2f" % book if book else "-",
      "%.2f" % m["requested"] if m else "-", "%.2f" % m["dram"] if m else "-", c["status"]))
sys.exit(0 if c["status"] == "ok" and m else 1)
PY
    done
done
[ "$bad" -eq 0 ] || { echo "device_profile: a solution failed or a case has no measured OP/B (see the rows above)"; exit 1; }
