#!/usr/bin/env bash
# tests/grade.sh — `make grade` as an instructor meets it, through the CPU
# emulation backend: a class with every kind of submission (passing, failing,
# not compiling, defining main, hanging, a folder with none or two .cu files,
# a stray file, a symbolic link, names with spaces, commas, quotes and a
# leading '='), then a run stopped by SIGINT and resumed, and bad input.
# Checks: exactly one row per entry, real CSV with formulas neutralised,
# unique ids, JSON lines that parse, scores, exit statuses, no temporary
# file left anywhere.
#
# usage: tests/grade.sh [--match PATTERN]     Prints a line per check and "grade: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
draw_seed "grade tests (the class's inputs)"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp/tmpdir   # every judge's temporary folder goes here: it must be empty at the end
mkdir -p "$TMPDIR"


make -s judge || exit 1
grade=${BUILD:-build}/grade  # the class grader make grade runs (BUILD=: the coverage build's own)

# The class: one entry of each kind.
class="$tmp/class of 2026, section A"
mkdir -p "$class/bob" "$class/carol" "$class/dave" "$class/erin" "$class/frank"
cp reference/solutions/01-naive-sweep.cu "$class/alice smith.cu"
cp reference/solutions/01-naive-sweep.cu "$class/alice.cu"
mkdir "$class/alice"   # collides with alice.cu by name: must get an id of its own
cp tests/mutants/01-naive-sweep/centre-dropped.cu "$class/alice/01-naive-sweep.cu"
cp tests/mutants/01-naive-sweep/x-swapped.cu "$class/bob/01-naive-sweep.cu"
cp reference/solutions/01-naive-sweep.cu "$class/carol/my kernel.cu"
touch "$class/dave/a.cu" "$class/dave/b.cu"
echo "no kernel here" >"$class/erin/README.txt"
# frank's launch never returns, asleep: the wall limit stops it as it stops a spinning one, and
# leaves the CPUs to the judges beside it (a spinning file held two for the whole limit, each run).
printf '#include <unistd.h>\n#include "lab.h"\nvoid launch_stencil(float *d_in, float *d_out, unsigned int N)\n{\n    for (;;)\n        sleep(60);\n}\n' \
    >"$class/frank/01-naive-sweep.cu"
cp tests/hostile/01-naive-sweep/does-not-compile.cu "$class/=HYPERLINK(\"x\").cu"
cp tests/hostile/01-naive-sweep/defines-main.cu "$class/grace, \"g\".cu"
echo "late" >"$class/notes.txt"
ln -s "$PWD/reference/solutions/01-naive-sweep.cu" "$class/link.cu"
entries=$(ls "$class" | wc -l)

out="$tmp/results"
log="$tmp/grade.log"
# A hanging submission is stopped at WALL seconds; the others take about 13 s
# each alone under emulation, and up to twice that with three judges on a
# two-core machine: the limit leaves them room (the hanging one's cases, each
# stopped by the judge's wall-clock backstop, would take minutes).
wall=60
make -s grade LAB=1 SUBMISSIONS="$class" OUT="$out" EMU=1 JOBS=3 WALL=$wall SEED="$seed" >"$log" 2>&1
status=$?
check "make grade on a class with ungraded submissions fails (got $status)" test "$status" -ne 0
# Again: every judged result kept, the hanging one (never kept) alone run again, stopped sooner.
"$grade" --kit . --lab 1 --submissions "$class" --out "$out" --backend emu --jobs 3 --wall 5 >"$tmp/again.log" 2>&1
status=$?
check "build/grade exits 1 when a submission could not be graded (got $status)" test "$status" -eq 1
check "a second run keeps every judged result" grep -qE "^8 already graded" "$tmp/again.log"
python3 - "$out" "$entries" <<'PY' >"$tmp/py.log" 2>&1
import csv, json, sys
out, entries = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(out + "/summary.csv", newline="")))
by = {r["submission"]: r for r in rows}
def need(cond, what):
    if not cond:
        print("FAILED:", what); sys.exit(1)
need(len(rows) == entries, "one row per entry: %d rows for %d entries" % (len(rows), entries))
need(len({r["id"] for r in rows}) == len(rows), "ids are unique")
need(by["alice smith.cu"]["status"] == "graded" and by["alice smith.cu"]["verdict"] == "pass", "the solution passes")
need(float(by["alice smith.cu"]["score"]) == float(by["alice smith.cu"]["max_score"]) > 0, "the solution earns full marks")
need(by["alice"]["verdict"] == "fail" and 0 < float(by["alice"]["score"] or 0) < float(by["alice"]["max_score"]),
     "a mutant earns part of the marks (its row: status %s, verdict %s, score %s of %s, %s)" %
     tuple(by["alice"][k] for k in ("status", "verdict", "score", "max_score", "message")))
need(by["carol"]["verdict"] == "pass", "a folder with one .cu of another name is graded")
need(by["dave"]["status"] == "rejected" and "2 .cu files" in by["dave"]["message"], "a folder with two .cu files is rejected, saying so")
need(by["erin"]["status"] == "rejected" and "no .cu file" in by["erin"]["message"], "a folder without a .cu file is rejected")
need(by["frank"]["status"] == "error" and "wall limit" in by["frank"]["message"], "a hanging submission stops at the wall limit")
bad = [k for k in by if k.startswith("'=HYPERLINK")]
need(bad and by[bad[0]]["status"] == "rejected" and by[bad[0]]["stage"] == "compile", "a compile error is a rejected row, formula neutralised")
need(by['grace, "g".cu']["stage"] == "defines-main", "defining main is named")
need(by["notes.txt"]["status"] == "rejected" and by["link.cu"]["status"] == "rejected", "a stray file and a symbolic link get rows")
need(all(float(r["score"] or 0) == 0 for r in rows if r["status"] != "graded"), "ungraded rows earn nothing")
maxes = {r["max_score"] for r in rows if r["status"] == "graded"}
need(len(maxes) == 1 and all(r["max_score"] in maxes for r in rows),
     "every row, graded or not, is out of the same maximum (%s)" % sorted({(r["status"], r["max_score"]) for r in rows}))
lines = [json.loads(l) for l in open(out + "/results.jsonl")]
need(len(lines) == entries and all("summary" in l and "report" in l for l in lines), "results.jsonl: a parsed line per entry")
need(by["alice"]["hint"] and by["alice"]["hint"] != "runner-failed", "a failed row names its hint (%r)" % by["alice"]["hint"])
numbers = ("score", "max_score", "passed", "failed", "exit")
need(all(isinstance(l["summary"][k], (int, float)) for l in lines for k in numbers if l["summary"][k] is not None),
     "results.jsonl: scores and counts are JSON numbers, not strings")
need(all(l["summary"]["score"] is not None for l in lines), "results.jsonl: every line has a score")
comp = [l for l in lines if l["summary"]["stage"] == "compile"][0]
need(comp["report"]["compiler_messages"], "the compile error's JSON carries the compiler's messages")
print("csv and jsonl ok")
PY
check "summary.csv and results.jsonl ($(tail -1 "$tmp/py.log"))" grep -q "csv and jsonl ok" "$tmp/py.log"
check "the table lists what was not graded" grep -q "not graded (" "$log"

# class.html: the class at a glance (every kind of entry above: pass, fail, rejected, timeout, error).
page="$out/class.html"
python3 - "$out" "$entries" <<'PY' >"$tmp/class.log" 2>&1
import csv, html, os, re, sys
out, entries = sys.argv[1], int(sys.argv[2])
page = open(os.path.join(out, "class.html"), encoding="utf-8").read()
rows = list(csv.DictReader(open(os.path.join(out, "summary.csv"), newline="")))
def need(cond, what):
    if not cond:
        print("FAILED:", what); sys.exit(1)
need(("%d submissions" % entries) in page, "the heading counts every entry")
need("<script" not in page.lower() and "http://" not in page and "https://" not in page, "no script and no address outside the page")
for r in rows:  # every name, escaped (quotes, commas, a spreadsheet formula: the CSV's ' before = is the CSV's own), in the table
    name = r["submission"][1:] if r["submission"][:2] in ("'=", "'+", "'-", "'@") else r["submission"]
    need(html.escape(name, quote=True).replace("&#x27;", "&#39;") in page, "the row of %r" % name)
graded = [r for r in rows if r["status"] == "graded"]
need(re.search(r"%d graded, %d rejected, %d could not be graded" % (len(graded), sum(r["status"] == "rejected" for r in rows),
     sum(r["status"] == "error" for r in rows)), page), "the counts by status")
hints = {}
for r in rows:
    if r["hint"]:
        hints[r["hint"]] = hints.get(r["hint"], 0) + 1
need(hints, "the class has hints to rank")
first = max(hints, key=hints.get)
ranked = page[page.index("Mistakes, most common first"):]
need(re.search(r"<td>%s</td><td>%d</td>" % (re.escape(first), hints[first]), ranked), "the most common hint %s counted %d" % (first, hints[first]))
links = re.findall(r'href="(results/[^"]+)"', page)
need(len(links) >= len(graded) and all(os.path.isfile(os.path.join(out, l)) for l in links), "each graded row links its own report (%d links)" % len(links))
ok_tech = sum(r["technique"] == "ok" for r in graded)
need(("%d of %d graded submissions use the lab's idea" % (ok_tech, len(graded))) in page, "the technique's pass rate")
print("class page ok: %d rows, %d hints ranked, %d reports linked" % (len(rows), len(hints), len(links)))
PY
check "class.html ($(tail -1 "$tmp/class.log"))" grep -q "class page ok" "$tmp/class.log"
browser=
for b in chromium-headless-shell chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -n "$browser" ]; then
    check "class.html in a headless browser: loads, no console error, nothing from outside, links reach the reports" \
        eval 'tests/html_check.py "$browser" "$page=0" >"$tmp/browser.log" 2>&1 || { cat "$tmp/browser.log"; false; }'
else
    skip "class.html in a browser" "no Chromium here (apt-get install chromium-headless-shell, as .ci/run does)"
fi
check "no temporary file left in TMPDIR" test -z "$(ls -A "$TMPDIR")"
check "no partial result file left" test -z "$(find "$out" -name '.tmp-*')"
check "nothing written in the submissions folder" test "$(ls "$class" | wc -l)" -eq "$entries"

# A run stopped by SIGINT keeps what finished and resumes with the rest.
out2="$tmp/results2"
"$grade" --kit . --lab 1 --submissions "$class" --out "$out2" --backend emu --jobs 1 --wall $wall --seed "$seed" >"$tmp/stop.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do  # until the first judged result lands (a refused entry's row, written at once, is no judged one)
    grep -lqE '^verdict=(pass|fail)$' "$out2"/results/*.kv 2>/dev/null && break
    sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
check "a stopped run exits 130 (got $status)" test "$status" -eq 130
check "a stopped run leaves no temporary file" test -z "$(ls -A "$TMPDIR")"
check "a stopped run leaves no partial result" test -z "$(find "$out2" -name '.tmp-*')"
check "a stopped run says how to go on" grep -q "run the same make grade again" "$tmp/stop.log"
"$grade" --kit . --lab 1 --submissions "$class" --out "$out2" --backend emu --jobs 3 --wall $wall >"$tmp/resume.log" 2>&1
check "the second run resumes with the same seed" grep -q "resuming .*(seed $seed)" "$tmp/resume.log"
check "the second run keeps what was graded" grep -qE "^[1-9][0-9]* already graded" "$tmp/resume.log"
check "the resumed class has one row per entry" test "$(python3 -c "import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))" "$out2/summary.csv")" -eq "$entries"
cut -d, -f1,3-6 "$out/summary.csv" | sort >"$tmp/a"
cut -d, -f1,3-6 "$out2/summary.csv" | sort >"$tmp/b"
check "the resumed class gives the same grades as the whole run" cmp -s "$tmp/a" "$tmp/b"

# Bad input: one line, exit 2.
expect "submissions not a folder" 2 "is not a folder" -- "$grade" --kit . --lab 1 --submissions /nonexistent
expect "unknown lab" 2 "unknown lab '42'" -- "$grade" --kit . --lab 42 --submissions "$class"
expect "JOBS=0" 2 "JOBS takes a whole number" -- "$grade" --kit . --lab 1 --submissions "$class" --jobs 0
expect "unknown option" 2 "unknown option '--colour'" -- "$grade" --kit . --lab 1 --colour red
expect "another seed on a results folder" 2 "was graded with SEED=$seed" -- "$grade" --kit . --lab 1 --submissions "$class" --out "$out2" --backend emu --seed $((seed + 1))
expect "another class in a results folder" 2 "not of this class" -- "$grade" --kit . --lab 1 --submissions "$tmp" --out "$out2" --backend emu
expect "make grade without SUBMISSIONS" 2 "which submissions?" -- make -s grade LAB=1
# (its grades unread: a short wall limit stops every entry soon, the hanging one among them)
"$grade" --kit . --lab 1 --submissions "$class" --out "$out2" --backend emu --seed $((seed + 1)) --fresh --jobs 3 --wall 5 >"$tmp/fresh.log" 2>&1
check "FRESH=1 keeps the old results aside and starts again" eval 'ls -d "$out2".replaced-* >/dev/null 2>&1 && grep -q "seed $((seed + 1))" "$tmp/fresh.log"'
finish grade
