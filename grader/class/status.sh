#!/usr/bin/env bash
# grader/class/status.sh — `make status`: where a self-study reader stands. For each
# lab, the result of the last `make check LAB=n` on the lab's own kernel file
# (saved in build/status/), and what to do next.
set -u
cd "$(dirname "$0")/../.." || exit 2
printf '%-22s %-34s %-10s %-8s %s\n' lab title "last check" cases "technique / next step"
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    title=$(sed -n 's/^title *= *\([^#]*\).*/\1/p' "$dir/lab.conf" | sed 's/ *$//')
    n=$((10#${lab%%-*}))
    f=build/status/$lab.json
    if [ ! -f "$f" ]; then
        printf '%-22s %-34s %-10s %-8s %s\n' "$lab" "$title" "not yet" "-" "read handouts/$lab.md, then make check LAB=$n"
        continue
    fi
    python3 - "$f" "$lab" "$title" "$n" <<'PY'
import json, os, sys, time
path, lab, title, n = sys.argv[1:5]
try:
    r = json.load(open(path))
except ValueError:
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
print("%-22s %-34s %-10s %-8s %s" % (lab, title[:34], when, "%d/%d" % (r.get("passed", 0), r.get("passed", 0) + r.get("failed", 0)), nxt))
PY
done
