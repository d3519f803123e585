#!/usr/bin/env bash
# tests/cli.sh — the judge's handling of bad input, as a user meets it: each
# mistake gives a one-line error naming the problem and the exit status the
# README promises. Uses throw-away kit folders for broken lab.conf files.
#
# usage: tests/cli.sh [JUDGE] [--match PATTERN]     (default build/judge)
# Prints a line per check and "cli: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
judge=${1:-build/judge}
kit=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A kit folder whose lab 1 has the given lab.conf text.
fake_kit() {
    local dir="$tmp/a kit $RANDOM"  # a path with spaces: the emulation builds there too
    mkdir -p "$dir/labs/01-naive-sweep" "$dir/kernels"
    cp kernels/01-naive-sweep.cu "$dir/kernels/"
    printf '%s' "$1" >"$dir/labs/01-naive-sweep/lab.conf"
    echo "$dir"
}

good_conf=$(cat labs/01-naive-sweep/lab.conf)

echo "== judge: bad input"
expect "no lab given" 2 "which lab?" -- "$judge" --kit "$kit"
expect "unknown lab" 2 "unknown lab '42': the labs are 0 (00-convolution), 1 (01-naive-sweep)" -- "$judge" --kit "$kit" --lab 42
expect "unknown option" 2 "unknown option '--colour'" -- "$judge" --kit "$kit" --lab 1 --colour
expect "option without value" 2 "option --seed needs a value" -- "$judge" --kit "$kit" --lab 1 --seed
expect "bad seed" 2 "SEED must be a whole number" -- "$judge" --kit "$kit" --lab 1 --seed 12ab
expect "bad backend" 2 "backend must be auto, gpu or emu" -- "$judge" --kit "$kit" --lab 1 --backend tpu
expect "SANITIZE=1 on emulation is the kit's setup, not the file's fault" 2 "SANITIZE=1 runs the cases under compute-sanitizer on a GPU, and this run is emulated" -- "$judge" --kit "$kit" --lab 1 --backend emu --sanitize --case 1 --kernel reference/solutions/01-naive-sweep.cu
expect "--help lists the options and exits 0" 0 "--kernel FILE" -- "$judge" --help
expect "--keep says where the case folders are" 0 "kept: every case's folder" -- env TMPDIR="$tmp" "$judge" --kit "$kit" --lab 1 --backend emu --case 4 --keep --kernel reference/solutions/01-naive-sweep.cu
# A kernel that passes only the grids with no interior (one thread, nothing written) earns no technique line.
printf '#include "lab.h"\n__global__ void stencil_kernel(float *in, float *out, unsigned int N) {}\nvoid launch_stencil(float *d_in, float *d_out, unsigned int N) { stencil_kernel<<<1, 1>>>(d_in, d_out, N); }\n' >"$tmp/one-thread.cu"
expect "the technique is not judged on grids with nothing to compute" 1 "no case with interior points passed" -- "$judge" --kit "$kit" --lab 1 --backend emu --kernel "$tmp/one-thread.cu"
expect "--conf-get answers for lab.conf" 0 "reference/solutions/01-naive-sweep.cu" -- "$judge" --kit "$kit" --lab 1 --conf-get solution
expect "--conf-get of a key lab.conf lacks names the keys" 2 "lab.conf has no key 'colour' (the keys: title" -- "$judge" --kit "$kit" --lab 1 --conf-get colour
expect "--solution grades the lab's solution" 0 "verdict: PASS" -- "$judge" --kit "$kit" --lab 1 --backend emu --case 33 --solution
expect "--solution with --kernel is refused" 2 "give it or --kernel, not both" -- "$judge" --kit "$kit" --lab 1 --solution --kernel kernels/01-naive-sweep.cu
expect "bad --jobs" 2 "--jobs takes how many cases run side by side (1 to 16), got '0'" -- "$judge" --kit "$kit" --lab 1 --jobs 0
expect "tile sweep: a bad tile shape" 2 "heat_tile_sweep: 30x4 is no tile shape" -- env OUT_DIR="$tmp/hs" tests/bench/heat_tile_sweep.sh 30x4
expect "plane-size sweep: a bad grid" 2 "plane_size_sweep: 12x is no grid: NXxNYxNZ" -- tests/bench/plane_size_sweep.sh 12x
expect "past-book sweep: a bad setting" 2 "past_book_sweep: BLOCK_Y=eight is no setting" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh solution BLOCK_Y=eight
expect "past-book sweep: a knob with a digit in its name is one" 2 "L2_AHEAD is 0 to 64, got 65" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh L2_AHEAD=65
expect "past-book sweep: a first-march knob with the second march" 2 "L2_AHEAD, XSHFL, ZSPLIT, ZTURN, CLUSTER_*, TAIL_CHUNK and ZSHARE belong to MARCH 1" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh XSHFL=1,ROWS=2
expect "past-book sweep: layers along z with the second march" 2 "L2_AHEAD, XSHFL, ZSPLIT, ZTURN, CLUSTER_*, TAIL_CHUNK and ZSHARE belong to MARCH 1" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh ZSPLIT=2,MARCH=2
expect "past-book sweep: shared chunk planes with the second march" 2 "TAIL_CHUNK and ZSHARE belong to MARCH 1" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh ZSHARE=1,PREFETCH=1
expect "past-book sweep: a carveout is a percentage" 2 "SHARE_CARVEOUT is 0 to 100, got 101" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh ZSHARE=1,SHARE_CARVEOUT=101
expect "past-book sweep: a cluster holds at most 8 blocks" 2 "CLUSTER_X * CLUSTER_Y * CLUSTER_Z is 16 blocks, more than 8" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh CLUSTER_X=4,CLUSTER_Z=4
expect "past-book sweep: layers along z count in a block's threads" 2 "BLOCK_X * BLOCK_Y * ZSPLIT is 2048 threads, more than 1024" -- env OUT_DIR="$tmp/pb" tests/bench/past_book_sweep.sh BLOCK_Y=8,ZSPLIT=2 ZSPLIT=4
printf '// MUTANT: a header that names two hints on one line\n// expect-hint: thread-order or unwritten-cells\n' >"$tmp/two-keys.cu"
expect "test headers: two hint keys on one line (it would expect the first alone)" 1 "one key a line" -- python3 tests/expect.py "$tmp/two-keys.cu" /dev/null 1
expect "the GPU suites' call: a bad CLASS" 2 "device_all: CLASS=thirty is no whole number" -- env CLASS=thirty tests/device_all.sh
expect "the GPU suites' call: a bad LIMIT" 2 "device_all: LIMIT=0 is no whole number" -- env LIMIT=0 tests/device_all.sh
expect "labs.sh: a kind that does not exist" 2 "tests/labs.sh: KINDS has 'mutnat'" -- env KINDS=mutnat tests/labs.sh emu 1
expect "bad timeout" 2 "TIMEOUT must be a positive number" -- "$judge" --kit "$kit" --lab 1 --timeout 0
expect "missing kernel file" 2 "kernel file not found: nope.cu" -- "$judge" --kit "$kit" --lab 1 --kernel nope.cu
expect "missing kit" 2 "cannot open /nonexistent/labs" -- "$judge" --kit /nonexistent --lab 1
k=$(fake_kit "${good_conf/timeout   = 20/timeout   = soon}")
expect "lab.conf bad number" 2 "lab.conf:15: 'timeout' must be a positive number, got 'soon'" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/runner    = sweep/}")
expect "lab.conf missing key" 2 "lab.conf: missing key 'runner'" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf}
colour = blue")
expect "lab.conf unknown key" 2 "unknown key 'colour'" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/case = 33/case = 33y}")
expect "lab.conf bad case" 2 "a case starts with a grid size" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/points = sizes 5/points = sizes many}")
expect "lab.conf bad points" 2 "points takes a part and what it is worth" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/case = 33 group=sizes/case = 33 group=odd}")
expect "lab.conf case group worth nothing" 2 "case group 'odd' is worth no points" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/points = large 1/points = huge 1}")
expect "lab.conf points for a group without cases" 2 "points for group 'huge', but no case line says group=huge" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/runner    = sweep/stencil   = star9
runner    = sweep}")
expect "lab.conf bad stencil" 2 "lab.conf:6: unknown stencil 'star9' (the kit knows: star7, star13)" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/runner    = sweep/update    = heat2d
runner    = sweep}")
expect "lab.conf update on a sweep lab" 2 "lab.conf:6: 'update' is a key of the whole-solve labs (runner = jacobi)" -- "$judge" --kit "$k" --lab 1
k=$(fake_kit "${good_conf/full_at=0.8/full_at=0.2}")
expect "lab.conf speed full_at below zero_at" 2 "points = speed needs full_at=F above zero_at" -- "$judge" --kit "$k" --lab 1
mkdir -p "$tmp/emptykit/labs/01-naive-sweep"
expect "lab.conf missing" 2 "lab.conf: cannot open" -- "$judge" --kit "$tmp/emptykit" --lab 1
expect "JSON error report" 2 '"verdict": "error"' -- "$judge" --kit "$kit" --lab 42 --json
expect "unknown case" 2 "is named '999'" -- "$judge" --kit "$kit" --lab 1 --backend emu --case 999
make -s build/grade >/dev/null || exit 1
expect "grade: submissions not a folder" 2 "SUBMISSIONS=/nonexistent is not a folder" -- build/grade --kit "$kit" --lab 1 --submissions /nonexistent
expect "grade: unknown lab" 2 "unknown lab '42'" -- build/grade --kit "$kit" --lab 42 --submissions "$tmp"
if [ -f grader/emu/emu.mk ]; then
    # A case sized from the kernel's own blocks (24 wide: N=50's interior is two of them, no size of lab.conf's is
    # whole blocks) finds a last block that writes nothing when it is whole; its replay line runs it alone, same input.
    draw_seed "sized cases"
    sized_mutant=tests/mutants/01-naive-sweep/last-block-width-from-remainder.cu
    "$judge" --kit "$kit" --lab 1 --backend emu --kernel "$sized_mutant" --seed "$seed" --json >"$tmp/sized.json" 2>/dev/null
    "$judge" --kit "$kit" --lab 1 --backend emu --kernel "$sized_mutant" --seed "$seed" --case 50 --json >"$tmp/sized50.json" 2>/dev/null
    expect "sized case found and replayed alone with its input" 0 "sized ok" -- python3 -c 'import json, sys
w = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
s = {c["name"]: c for c in w["cases"] if "sized_tile" in c}
assert w["verdict"] == "fail" and s["N=50"]["status"] == "fail" and s["N=50"]["sized_tile"] == 24, s
assert s["N=50"]["hint_key"] == "unwritten-cells" and all(c["status"] == "ok" for c in w["cases"] if c["name"] != "N=50" and c["status"] != "skipped")
assert [c["name"] for c in r["cases"]] == ["N=50"] and r["cases"][0]["seed"] == s["N=50"]["seed"] and r["cases"][0]["detail"] == s["N=50"]["detail"]
print("sized ok")' "$tmp/sized.json" "$tmp/sized50.json"
    # ... and run when a case of lab.conf failed too: failing one on purpose (N=1's output zeroed) must not escape them.
    sed 's|        return;  // no interior|        { if (N == 1) cudaMemset(d_out, 0, sizeof(float)); return; }|' "$sized_mutant" >"$tmp/sized-n1.cu"
    "$judge" --kit "$kit" --lab 1 --backend emu --kernel "$tmp/sized-n1.cu" --seed "$seed" --json >"$tmp/sized-n1.json" 2>/dev/null
    expect "sized cases run after a failed case of lab.conf" 0 "sized after failure ok" -- python3 -c 'import json, sys
w = json.load(open(sys.argv[1])); s = {c["name"]: c["status"] for c in w["cases"]}
assert s["N=1"] == "fail" and s["N=50"] == "fail" and s["N=46"] == "ok", s
print("sized after failure ok")' "$tmp/sized-n1.json"
    expect "sized case refused where the lab sizes none" 2 "is named '50'" -- "$judge" --kit "$kit" --lab 6 --backend emu --case 50
    expect "JSON report to an unwritable file" 2 "cannot write the JSON report /nonexistent/r.json" -- "$judge" --kit "$kit" --lab 1 --backend emu --case 1 --json-out /nonexistent/r.json
    k=$(fake_kit "${good_conf/case = 512 timed noemu group=large/case = 60000 timed group=large}")
    cp -r grader reference kernels "$k/"
    expect "case too large for memory" 1 "N=60000 is too large: its grids need" -- "$judge" --kit "$k" --lab 1 --backend emu --case 60000
    k=$(fake_kit "$(conf_lines "$judge" "$kit" 1 title chapter runner kernel solution technique opb_model timeout time_reps rtol atol)
case = 4
case = 5")
    cp -r grader reference kernels "$k/"
    expect "a hung case is killed and the next case still runs" 1 "N=5: TIMEOUT" -- "$judge" --kit "$k" --lab 1 --backend emu --timeout 2 --kernel tests/hostile/01-naive-sweep/never-returns.cu
    # A stop signal while cases run side by side: the judge reports and exits 2, and no worker or runner is left.
    stop_check() {
        "$judge" --kit "$k" --lab 1 --backend emu --jobs 2 --timeout 60 --kernel tests/hostile/01-naive-sweep/never-returns.cu >"$tmp/stop.out" 2>&1 &
        local pid=$! status left
        sleep 3
        kill -TERM "$pid"
        wait "$pid"
        status=$?
        sleep 1
        left=$(pgrep -f -- "$k/" | wc -l)
        grep -q "stopped by signal 15" "$tmp/stop.out" && [ "$status" -eq 2 ] && [ "$left" -eq 0 ] && echo "stopped cleanly" ||
            echo "status $status, $left processes left: $(head -c 300 "$tmp/stop.out")"
    }
    expect "SIGTERM with cases side by side: exit 2, no process left" 0 "stopped cleanly" -- stop_check
    expect "kernel does not compile" 2 "does-not-compile.cu does not compile; the compiler's first errors:" -- "$judge" --kit "$kit" --lab 1 --backend emu --kernel tests/hostile/01-naive-sweep/does-not-compile.cu
    "$judge" --kit "$kit" --lab 1 --backend emu --kernel tests/hostile/01-naive-sweep/does-not-compile.cu --json --json-out "$tmp/c.json" --summary-out "$tmp/c.kv" >"$tmp/c.out" 2>/dev/null
    expect "a compile error's JSON (stdout and --json-out) holds the compiler's messages" 0 "ok" -- python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a==b and a["status"]=="rejected" and a["stage"]=="compile" and any("error" in m for m in a["compiler_messages"]) and a["score"]["points"]==0; print("ok")' "$tmp/c.out" "$tmp/c.json"
    expect "a compile error's summary says rejected" 0 "status=rejected" -- cat "$tmp/c.kv"
    # --html-out: one self-contained page (nothing fetched) with the verdict, each case, the hint and where to read on.
    html_check() {
        local page=$tmp/mutant.html
        "$judge" --kit "$kit" --lab 1 --backend emu --case 33 --kernel tests/mutants/01-naive-sweep/x-swapped.cu \
            --html-out "$page" >/dev/null 2>&1
        [ -s "$page" ] || { echo "no page written"; return 1; }
        python3 - "$page" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
problems = [what for what, ok in (
    ("a doctype", page.lstrip().lower().startswith("<!doctype html")),
    ("the verdict FAIL", "FAIL" in page),
    ("the case N=33", "33" in page),
    ("the hint neighbours-swapped-x", "neighbours-swapped-x" in page),
    ("what to do, from the handout", re.search(r"What to do: [^<]*handouts/", page) is not None),
    ("nothing fetched", re.search(r'(src|href)="(https?:)?//', page) is None)) if not ok]
print("missing: " + ", ".join(problems) if problems else "self-contained, verdict, case, hint, handout")
sys.exit(1 if problems else 0)
PY
    }
    expect "--html-out writes one self-contained page: verdict, case, hint and its handout" 0 "self-contained, verdict, case, hint, handout" -- html_check
    expect "JSON report on a kit error (--json-out)" 2 "unknown lab" -- "$judge" --kit "$kit" --lab 42 --json-out "$tmp/e.json"
    expect "that JSON says error" 0 '"status": "error"' -- cat "$tmp/e.json"
fi
# No GPU, on any machine: CUDA_VISIBLE_DEVICES= hides a GPU that is there.
expect "no GPU with EMU=0" 77 "no usable GPU:" -- env CUDA_VISIBLE_DEVICES= "$judge" --kit "$kit" --lab 1 --backend gpu
expect "no GPU message says what to do" 77 "grade on the CPU with EMU=1" -- env CUDA_VISIBLE_DEVICES= "$judge" --kit "$kit" --lab 1 --backend gpu
# The hint registry (grader/judge/hints.c) is the one list of hint keys: every
# key a detector can give and every key a test kernel expects is in it.
registry_check() {
    local missing=""
    local keys
    keys=$( (sed -n 's/^#define HINT_[A-Z_]* *"\([a-z-]*\)".*/\1/p' grader/judge/verdict.h
             grep -ohE 'case_set_hint\([a-z]+, "[a-z]+", "[a-z-]+"' grader/judge/*.c | grep -oE '"[a-z-]+"$' | tr -d '"'
             grep -ohE 'hint_key = "[a-z-]+"' grader/judge/*.c | grep -oE '"[a-z-]+"' | tr -d '"'
             grep -ohE '^ *\{"[a-z]+-[a-z-]+", \{' grader/judge/verdict.c | grep -oE '"[a-z-]+"' | tr -d '"'
             grep -rhoE '^// expect-hint: [a-z-]+' tests/mutants tests/hostile tests/variants 2>/dev/null | awk '{print $3}' | grep -v '^technique$') | sort -u)
    for k in $keys; do
        grep -qE "\{(\"$k\"|HINT_[A-Z_]+)," grader/judge/hints.c || { missing="$missing $k"; continue; }
        grep -qF "\"$k\"" grader/judge/hints.c grader/judge/verdict.h || missing="$missing $k"
    done
    for k in $keys; do  # a HINT_ macro must be listed by name
        m=$(grep -E "^#define HINT_[A-Z_]+ +\"$k\"" grader/judge/verdict.h | awk '{print $2}')
        [ -z "$m" ] || grep -q "{$m," grader/judge/hints.c || missing="$missing $k"
    done
    [ -z "$missing" ] || { echo "    keys missing from grader/judge/hints.c:$missing"; return 1; }
    echo "    $(wc -w <<<"$keys") keys, all registered"
}
expect "every hint key is in the registry" 0 "all registered" -- registry_check

# The time line and the JSON's seconds: every part measured, none negative, the parts within the whole.
time_check() {
    "$judge" --kit "$kit" --lab 1 --backend emu --case 33 --kernel reference/solutions/01-naive-sweep.cu >"$tmp/time.txt" 2>&1 || return 1
    grep -E '^time: +[0-9.]+ s: building [0-9.]+ s, cases [0-9.]+ s \(the longest, N=33: [0-9.]+ s\), report [0-9.]+ s$' "$tmp/time.txt" || return 1
    "$judge" --kit "$kit" --lab 1 --backend emu --case 33 --kernel reference/solutions/01-naive-sweep.cu --json 2>/dev/null |
        python3 -c 'import json, sys
t = json.load(sys.stdin)["seconds"]
parts = [t[k] for k in ("build", "cases", "loads", "solution", "report")]
assert all(p >= 0 for p in parts) and t["total"] > 0 and sum(parts) <= t["total"] + 1e-3, t
print("seconds ok")'
}
expect "the time line and the JSON's seconds" 0 "seconds ok" -- time_check

# Cases side by side (--jobs) decide as one at a time: the same cases, verdicts, hints, counts, technique and score.
jobs_check() {
    local seed=$RANDOM$RANDOM kernel=tests/mutants/02-shared-tile/no-barrier-after-load.cu
    echo "seed $seed"
    for j in 1 3; do
        "$judge" --kit "$kit" --lab 2 --backend emu --seed "$seed" --jobs "$j" --kernel "$kernel" --json --pictures "$tmp/pic$j" >"$tmp/jobs$j.json" 2>/dev/null
        [ $? -le 1 ] || return 1
    done
    python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("name", "status", "kind", "hint_key", "wrong", "reason", "detail", "seed")
ca, cb = ([{k: c.get(k) for k in keys} for c in r["cases"]] for r in (a, b))
assert ca == cb, (ca, cb)
assert any(c["status"] == "fail" for c in ca), "the mutant failed no case: nothing compared"
assert a["technique"] == b["technique"] and a["score"] == b["score"], (a["technique"], b["technique"])
assert a.get("picture_notes") == b.get("picture_notes"), (a.get("picture_notes"), b.get("picture_notes"))
print("the same report, %d cases" % len(ca))' "$tmp/jobs1.json" "$tmp/jobs3.json"
}
[ -f grader/emu/emu.mk ] && expect "--jobs 3 gives the report --jobs 1 gives" 0 "the same report" -- jobs_check
# --fail-fast ends the run at the first failing case in lab.conf's order, however many run side by side.
fail_fast_check() {
    local seed=$RANDOM$RANDOM kernel=tests/mutants/02-shared-tile/barrier-in-branch.cu
    echo "seed $seed"
    for j in 1 2; do
        "$judge" --kit "$kit" --lab 2 --backend emu --seed "$seed" --jobs "$j" --fail-fast --kernel "$kernel" --json >"$tmp/ff$j.json" 2>/dev/null
    done
    python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ca, cb = ([(c["name"], c["status"], c.get("hint_key")) for c in r["cases"]] for r in (a, b))
assert ca == cb, (ca, cb)
assert ca and ca[-1][1] == "fail" and all(c[1] != "fail" for c in ca[:-1]), ca
print("the same cases, ending at the first failure:", ca[-1][0])' "$tmp/ff1.json" "$tmp/ff2.json"
}
[ -f grader/emu/emu.mk ] && expect "--fail-fast with --jobs 2 ends where --jobs 1 ends" 0 "the same cases" -- fail_fast_check

# Lab 5's convergence pair (two mms cases, the second reading the first's error) with cases side by side.
mms_check() {
    "$judge" --kit "$kit" --lab 5 --backend emu --jobs 2 --kernel reference/solutions/05-jacobi.cu --json 2>/dev/null |
        python3 -c 'import json, sys
r = json.load(sys.stdin)
notes = [c.get("note", "") for c in r["cases"]]
assert any("smaller than at h=1/" in n and "second order" in n for n in notes), notes
print("the convergence ratio is there")'
}
[ -f grader/emu/emu.mk ] && expect "lab 5's convergence check with --jobs 2" 0 "the convergence ratio is there" -- mms_check

# A runner that ends with the out-of-memory code is a failed case, counted as one (with cases side by side too).
memory_check() {
    python3 -c 'import sys
src = open(sys.argv[1]).read()
head = "void launch_stencil(float *d_in, float *d_out, unsigned int N)\n{\n"
assert head in src
print("#include <unistd.h>\n" + src.replace(head, head + "    if (N == 33)\n        _exit(5);  /* the runner'"'"'s out-of-memory code */\n"))' \
        reference/solutions/01-naive-sweep.cu >"$tmp/exits5.cu"
    grep -q "_exit(5)" "$tmp/exits5.cu" || { echo "the kernel was not made"; return 1; }
    "$judge" --kit "$kit" --lab 1 --backend emu --jobs 2 --kernel "$tmp/exits5.cu" --json >"$tmp/exits5.json" 2>/dev/null
    local status=$?
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
bad = [c for c in r["cases"] if c["status"] == "fail"]
assert [c["name"] for c in bad] == ["N=33"], [(c["name"], c["status"]) for c in r["cases"]]
assert r["verdict"] == "fail" and int(sys.argv[2]) == 1, (r["verdict"], sys.argv[2])
print("counted as failed")' "$tmp/exits5.json" "$status"
}
[ -f grader/emu/emu.mk ] && expect "a case ending with the out-of-memory code is counted failed" 0 "counted as failed" -- memory_check

# A program's last words cannot redraw the text report: no escape byte (nor a C1 control) reaches it.
escape_check() {
    local out
    out=$("$judge" --kit "$kit" --lab 1 --backend emu --case 5 --kernel tests/hostile/01-naive-sweep/terminal-escapes.cu 2>&1)
    [ $? -eq 1 ] || { echo "exit status not 1"; return 1; }
    grep -q $'\x1b' <<<"$out" && { echo "an escape byte reached the report"; return 1; }
    grep -q $'\xc2\x9b' <<<"$out" && { echo "a C1 control reached the report"; return 1; }
    grep -q "N=5: FAIL" <<<"$out" && grep -qF "?[2A?[1G" <<<"$out" && echo "escapes shown as ?"
}
[ -f grader/emu/emu.mk ] && expect "a program's terminal escapes are printed as '?', the case fails in plain sight" 0 "escapes shown as ?" -- escape_check

# A compile error's quoted lines and a file name with escapes reach the terminal as '?'.
compile_escape_check() {
    local f="$tmp/esc"$'\x1b'"[2Kname.cu" out
    printf '#include "lab.h"\n#error "\x1b[2A\x1b[2Kverdict: PASS"\n' >"$f"
    out=$("$judge" --kit "$kit" --lab 1 --backend emu --case 5 --kernel "$f" 2>&1)
    [ $? -eq 2 ] || { echo "exit status not 2"; return 1; }
    grep -q $'\x1b' <<<"$out" && { echo "an escape byte reached the terminal"; return 1; }
    grep -q "does not compile" <<<"$out" && grep -qF "?[2Kname.cu" <<<"$out" && echo "compile error printable"
}
[ -f grader/emu/emu.mk ] && expect "a compile error's lines and the file's name are printed with escapes as '?'" 0 "compile error printable" -- compile_escape_check

# A file name holding a newline is graded like any other (its #line is escaped).
newline_name_check() {
    local f="$tmp/new"$'\n'"line.cu"
    cp reference/solutions/01-naive-sweep.cu "$f"
    "$judge" --kit "$kit" --lab 1 --backend emu --case 5 --kernel "$f" >"$tmp/nl.log" 2>&1 && grep -q "N=5: OK" "$tmp/nl.log" && echo "graded"
}
[ -f grader/emu/emu.mk ] && expect "a kernel file whose name holds a newline is graded" 0 "graded" -- newline_name_check

# Progress lines end in \r and are overwritten: only on a terminal, never in a log.
progress_check() {
    "$judge" --kit "$kit" --lab 1 --backend emu --case 7 --kernel reference/solutions/01-naive-sweep.cu >"$tmp/prog.out" 2>"$tmp/prog.err" || return 1
    grep -q $'\r' "$tmp/prog.out" "$tmp/prog.err" && { echo "a carriage return reached the log"; return 1; }
    grep -q "N=7: OK" "$tmp/prog.out" && echo "no progress in logs"
}
[ -f grader/emu/emu.mk ] && [ -d reference/solutions ] && expect "progress lines (ending in \\r) are left out when stderr is not a terminal" 0 "no progress in logs" -- progress_check

# make check SLURM=1 where Slurm's commands are missing: exit 2, one line (tests/slurm.sh runs it on a cluster).
mkdir -p "$tmp/nosbatch"
ln -sf "$(command -v bash)" "$tmp/nosbatch/bash"
ln -sf "$(command -v mkdir)" "$tmp/nosbatch/mkdir"
expect "make check SLURM=1 without sbatch names what is missing" 2 "sbatch not found: make check SLURM=1 needs Slurm's client commands on PATH" -- \
    env PATH="$tmp/nosbatch" grader/class/check_slurm.sh "$judge" --kit "$kit" --lab 1

expect "--emu-memory outside 16 MB .. 16 TB is refused in one line" 2 "--emu-memory takes megabytes (16 to 16777216), got '3'" -- "$judge" --kit "$kit" --lab 1 --emu-memory 3

# A kit that does not build (its header broken here) is the kit's fault, said so in one line with
# exit 2; a file whose own macro breaks a kit header is still the file's compile error.
kit_build_check() {
    local copy="$tmp/broken kit" out
    mkdir -p "$copy"
    cp -r grader kernels labs "$copy/"
    echo '#error "a kit header broken on purpose"' >>"$copy/kernels/lab.h"
    out=$("$judge" --kit "$copy" --lab 1 --backend emu --case 5 --kernel "$copy/kernels/01-naive-sweep.cu" 2>&1)
    [ $? -eq 2 ] || { echo "exit not 2: $out"; return 1; }
    grep -q "the kit itself does not build here on the emu backend" <<<"$out" || { echo "not named the kit's: $out"; return 1; }
    grep -q "does not compile" <<<"$out" && { echo "blamed on the file: $out"; return 1; }
    cp kernels/lab.h "$copy/kernels/lab.h"
    out=$("$judge" --kit "$copy" --lab 1 --backend emu --case 5 --kernel tests/hostile/01-naive-sweep/does-not-compile.cu 2>&1)
    [ $? -eq 2 ] && grep -q "does not compile" <<<"$out" && ! grep -q "kit itself" <<<"$out" && echo "kit faults told apart"
}
[ -f grader/emu/emu.mk ] && expect "a kit that does not build: exit 2, the kit named, not the file; the file's own error: its compile error" 0 "kit faults told apart" -- kit_build_check

# Judges side by side on a kit whose emulation tools are not built yet (a class's first
# submissions, the GPU suite's first barrier checks): each builds its own file, and the
# translator and runtime library they all link are built once, not written by three at once
# (a half-written library failed the others' links: exit 2).
fresh_side_by_side() {
    local copy="$tmp/fresh kit" i codes=""
    mkdir -p "$copy"
    cp -r grader kernels labs reference "$copy/"
    for i in 1 2 3; do
        cp reference/solutions/01-naive-sweep.cu "$tmp/side$i.cu"
        echo "// copy $i, seed $seed" >>"$tmp/side$i.cu"
    done
    for i in 1 2 3; do
        "$judge" --kit "$copy" --lab 1 --backend emu --case 4 --seed "$seed" --kernel "$tmp/side$i.cu" >"$tmp/side$i.log" 2>&1 &
    done
    for i in 1 2 3; do
        wait -n
        codes+="$? "
    done
    [ "$codes" = "0 0 0 " ] || { grep -hE "^(verdict|error|  [^ ]+: (FAIL|TIMEOUT))" "$tmp"/side*.log | cut -c1-200; echo "exits: $codes"; return 1; }
    grep -c "verdict: PASS" "$tmp"/side*.log | grep -vc ':1$' | grep -q '^0$' && echo "three built and passed"
}
draw_seed "side by side"
[ -f grader/emu/emu.mk ] && expect "three judges side by side on a fresh emulation build: each passes (the shared tools built once)" 0 "three built and passed" -- fresh_side_by_side

# A race whose two thread orders happen to agree on wrong values (seed 122, N=3: the
# forward and the shuffled order of a 3-cell interior): the reverse order tells it.
[ -f grader/emu/emu.mk ] && expect "a race the two orders agree on is told by a third (thread-order, not wrong-values)" 1 "[thread-order]" -- \
    "$judge" --kit "$kit" --lab 3 --backend emu --seed 122 --case 3 --kernel tests/mutants/03-z-coarsening/missing-barrier-after-load.cu

# stopped_link BACKEND: a check stopped while the student's program links (a Ctrl-C, a class's
# time limit: the judge kills its build) leaves nothing the next check of the same file takes as
# built; that check builds again and passes. The link stops half-way (tests/fakes/tools/stall-cxx).
# stop_at_stall LOG COMMAND...: runs COMMAND (a judge whose compiler is tests/fakes/tools/stall-cxx)
# in the background, its output into LOG, until the compiler says it stalled, then stops it as a
# Ctrl-C or a class's time limit would (SIGTERM). Returns 1, with LOG's end, if it never stalled.
stop_at_stall() {
    local log=$1 pid i
    shift
    rm -f "$tmp/stall-flag"
    STALL_FLAG="$tmp/stall-flag" "$@" >"$log" 2>&1 &
    pid=$!
    for i in $(seq 1 240); do [ -e "$tmp/stall-flag" ] && break; sleep 0.5; done
    [ -e "$tmp/stall-flag" ] || { kill "$pid"; wait "$pid"; echo "the build never stalled:"; tail -3 "$log"; return 1; }
    kill -TERM "$pid"
    wait "$pid"
    return 0
}
stopped_link() {
    local backend=$1 k="$tmp/stopped-link-$1.cu" stall="$kit/tests/fakes/tools/stall-cxx"
    { cat reference/solutions/01-naive-sweep.cu; echo "// stopped link, seed $seed"; } >"$k"
    stop_at_stall "$tmp/stopped-link.log" env EMU_CXX="$stall" HOST_CXX="$stall" \
        "$judge" --kit "$kit" --lab 1 --backend "$backend" --case 4 --kernel "$k" || return 1
    "$judge" --kit "$kit" --lab 1 --backend "$backend" --case 4 --kernel "$k"
}
draw_seed "stopped link"
[ -f grader/emu/emu.mk ] && expect "a check stopped mid-link (emulation): the next check builds again and passes" 0 "verdict: PASS" -- stopped_link emu
if "$judge" --kit "$kit" --lab 1 --backend gpu --case 4 --kernel reference/solutions/01-naive-sweep.cu >/dev/null 2>&1; then
    expect "a check stopped mid-link (GPU): the next check builds again and passes" 0 "verdict: PASS" -- stopped_link gpu
else
    skip "a check stopped mid-link (GPU)" "no usable GPU here"
fi

# stopped_shared_build: a check stopped while the emulation's runtime builds for the first time
# (a fresh kit) leaves no half-written object that every later build would take as made: the
# judge stops its build with SIGTERM first, and make removes what it was writing.
stopped_shared_build() {
    local copy="$tmp/stopped kit"
    mkdir -p "$copy"
    cp -r grader kernels labs reference "$copy/"
    stop_at_stall "$tmp/stopped-shared.log" env STALL_OUTPUT='*/obj/*.o' EMU_CXX="$kit/tests/fakes/tools/stall-cxx" \
        "$judge" --kit "$copy" --lab 1 --backend emu --case 4 --kernel reference/solutions/01-naive-sweep.cu || return 1
    "$judge" --kit "$copy" --lab 1 --backend emu --case 4 --kernel reference/solutions/01-naive-sweep.cu
}
# stale_program: a program left not executable in a file's build folder (an older kit's stopped
# link) is built again, not run.
stale_program() {
    local k="$tmp/stale-program.cu" program
    { cat reference/solutions/01-naive-sweep.cu; echo "// stale program, seed $seed"; } >"$k"
    "$judge" --kit "$kit" --lab 1 --backend emu --case 4 --kernel "$k" >/dev/null 2>&1
    program=$(grep -l -- "stale program, seed $seed" build/emu/01-naive-sweep/k-*/kernel.cu | head -1)
    program=$(dirname "$program")/runner
    [ -x "$program" ] || { echo "no runner built at $program"; return 1; }
    chmod a-x "$program"
    "$judge" --kit "$kit" --lab 1 --backend emu --case 4 --kernel "$k"
}
[ -f grader/emu/emu.mk ] && expect "a program left not executable in its build folder is built again" 0 "verdict: PASS" -- stale_program
[ -f grader/emu/emu.mk ] && expect "a check stopped while the emulation's runtime first builds: the next check builds it whole and passes" 0 "verdict: PASS" -- stopped_shared_build

truncate -s 2M "$tmp/huge.cu" 2>/dev/null || head -c 2097152 /dev/zero >"$tmp/huge.cu"
expect "a kernel file over 1 MiB is refused in one line" 2 "a kernel file is at most 1048576 bytes" -- "$judge" --kit "$kit" --lab 1 --backend emu --kernel "$tmp/huge.cu"

finish cli
