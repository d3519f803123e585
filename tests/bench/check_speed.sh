#!/usr/bin/env bash
# tests/bench/check_speed.sh — how long `make check` takes on a GPU, and where
# the time goes: for each lab (LABS, default all), a copy of the lab's
# solution (a student's file) is checked cold (its build and the kept
# yardstick removed), warm (the file edited, everything else kept) and again
# unchanged; a line each, with the warm run's stages from its JSON report
# (build, cases, load count, solution timing, report) and its longest case,
# and under it the unchanged run's. Each run's output in
# build/bench/check-labN.RUN.log (STENCIL_TRACE=1: where its time went).
# KIT=dir measures another copy of the kit the same way (an older one, for a
# ratio measured in one run). Targets (issue: the check's speed): warm <= 4 s
# for labs 1-4, 7, 8 and <= 6 s for the others, unchanged <= 2 s, cold <= 20 s.
# Asserts nothing; exits 77 without a GPU.
set -u
cd "${KIT:-$(dirname "$0")/../..}" || exit 2
make -s judge || exit 2
build/judge --kit "$PWD" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1 ||
    { echo "check_speed: no usable GPU here (skipped)"; exit 77; }
mkdir -p build/bench
printf '  %-22s %7s %7s %7s  %s\n' lab cold warm same "warm: build + cases + loads + solution + report; longest case"
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    n=$(echo "$lab" | sed -E 's/^0?([0-9]+)-.*/\1/')
    case " ${LABS:-$n} " in *" $n "*) ;; *) continue ;; esac
    sol=$(build/judge --kit "$PWD" --lab "$lab" --conf-get solution 2>/dev/null)
    copy=build/bench/check-lab$n.cu
    cp "$sol" "$copy"
    rm -rf "build/gpu/$lab" build/yardstick
    secs=()
    for run in cold warm same; do
        [ "$run" = warm ] && echo "// edited" >>"$copy"
        t0=$(date +%s%N)
        make -s check LAB="$n" KERNEL="$copy" REPORT_DIR="build/bench/check-lab$n" >"build/bench/check-lab$n.$run.log" 2>&1
        t1=$(date +%s%N)
        secs+=("$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1e9 }')")
        [ "$run" != cold ] && cp "build/bench/check-lab$n/report.json" "build/bench/check-lab$n.$run.json" 2>/dev/null
    done
    for run in warm same; do
    stages=$(python3 - "build/bench/check-lab$n.$run.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("no report (%s)" % e); sys.exit(0)
s = r.get("seconds", {})
cases = [c for c in r.get("cases", []) if c.get("status") != "skipped"]
longest = max(cases, key=lambda c: c.get("wall_s", 0), default=None)
print("%.1f (own %.1f, waits %.1f) + %.1f + %.1f + %.1f + %.1f = %.1f s; %s %.1f s (%s)" % (s.get("build", 0), s.get("build_student", 0), s.get("build_waits", 0), s.get("cases", 0), s.get("loads", 0),
      s.get("solution", 0), s.get("report", 0), s.get("total", 0), longest["name"] if longest else "-",
      longest.get("wall_s", 0) if longest else 0, r.get("verdict", "?")))
PY
)
    if [ "$run" = warm ]; then
        printf '  %-22s %5s s %5s s %5s s  %s\n' "$lab" "${secs[0]}" "${secs[1]}" "${secs[2]}" "$stages"
    else
        printf '  %-22s %25s  unchanged: %s\n' "" "" "$stages"
    fi
    done
done
