#!/usr/bin/env bash
# grader/class/status.sh — `make status`: where a self-study reader stands. For each
# lab, the result of the last `make check LAB=n` on the lab's own kernel file
# (saved in build/status/), and what to do next; then the same as a strip of
# boxes, build/status/progress.png and .svg (grader/pictures/progress.gp),
# when gnuplot is installed.
set -u
cd "$(dirname "$0")/../.." || exit 2
strip=build/status/progress   # the strip's files: .dat (one line per lab), .png, .svg
mkdir -p build/status
: >"$strip.dat"
# The titles first: the title column is as wide as the longest (no title cut, no column pushed).
declare -A titles
width=5
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    titles[$lab]=$(build/judge --kit "$PWD" --lab "$lab" --conf-get title)
    [ "${#titles[$lab]}" -gt "$width" ] && width=${#titles[$lab]}
done
printf "%-22s %-${width}s %-11s %-8s %s\n" lab title "last check" cases "technique / next step"
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    title=${titles[$lab]}
    n=$((10#${lab%%-*}))
    f=build/status/$lab.json
    if [ ! -f "$f" ]; then
        printf "%-22s %-${width}s %-11s %-8s %s\n" "$lab" "$title" "not yet" "-" "read handouts/$lab.md, then make check LAB=$n"
        printf '%d 0 "%s" "not tried yet"\n' "$n" "${title//\"/\'}" >>"$strip.dat"
        continue
    fi
    python3 - "$f" "$lab" "$title" "$n" "$strip.dat" "$width" <<'PY'
import json, os, sys, time
path, lab, title, n, strip, width = sys.argv[1:7]
try:
    r = json.load(open(path))
except ValueError:
    with open(strip, "a") as out:
        out.write('%s 0 "%s" "its last report is unreadable"\n' % (n, title.replace('"', "'")))
    sys.exit(0)
when = time.strftime("%m-%d %H:%M", time.localtime(os.path.getmtime(path)))
tech = r.get("technique", {}).get("status", "?")
bad = [c for c in r.get("cases", []) if c["status"] == "fail"]
if r.get("verdict") == "pass":
    nxt = "passed (%s)%s" % (r.get("backend"), "; run on a GPU for timing" if r.get("backend") == "emu" else "")
elif bad:
    nxt = "fix %s: %s" % (bad[0]["name"], bad[0].get("hint_key") or bad[0]["reason"][:40])
else:
    nxt = "technique: " + r.get("technique", {}).get("detail", "")[:60]
cases = "%d/%d" % (r.get("passed", 0), r.get("passed", 0) + r.get("failed", 0))
print("%-22s %-*s %-11s %-8s %s" % (lab, int(width), title, when, cases, nxt))
with open(strip, "a") as out:  # the strip: 2 passed, 1 failed (or could not be graded)
    out.write('%s %d "%s" "%s cases, %s"\n' % (n, 2 if r.get("verdict") == "pass" else 1, title.replace('"', "'"), cases, when))
PY
done
passed=$(awk '$2 == 2' "$strip.dat" | wc -l)
labs=$(wc -l <"$strip.dat")
gnuplot=${STENCIL_GNUPLOT:-gnuplot}   # as for the judge's pictures (grader/judge/pictures.c)
rm -f "$strip.png" "$strip.svg"
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "pictures: gnuplot is not installed; install gnuplot to get them"
elif "$gnuplot" -c grader/pictures/progress.gp "$strip.dat" "$strip" "make status: $passed of $labs labs passed" 2>"$strip.log"; then
    echo "pictures: $strip.png (and .svg): each lab's last check"
    rm -f "$strip.log"
else
    echo "pictures: gnuplot failed: $(head -c 300 "$strip.log")"
fi
