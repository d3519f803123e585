#!/usr/bin/env bash
# tests/report_keys.sh — the keys a case's runner reports to the judge (the
# executor and the emulation runners write them with runner_report(); the
# judge adds its own with kv_add()) against the keys the judge reads from a
# case's report (kv_get, kv_number, case_key on a report): a key read and
# never written (renamed on one side) fails, and so does a key written and
# never read unless it is listed below as one kept for a person reading the
# case's report (make check ... --keep). String literals and the macros of
# grader/**/*.h that name keys are both followed. Then the check attacks
# itself: a copy of the grader with one key renamed on the writing side must
# fail, naming it.
#
# usage: tests/report_keys.sh [--match PATTERN]    Prints a line per check and "report keys: N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/keys.py" <<'PY'
import glob, re, sys

root = sys.argv[1]
# Written for a person reading a case's report.txt (--keep), read by no code: each with why.
FOR_PEOPLE = {
    "backend": "which runner wrote the report",
    "block_dim": "BLOCK_DIM as the kernel file declared it",
    "confinement": "how the student's program was confined",
    "guard_cells": "the guard zones' length",
    "kernel_regs": "the kernel's registers a thread",
    "kernel_static_smem": "the kernel's static shared memory",
    "l2_bytes": "the GPU's L2 size",
    "pitch": "a heat grid's row pitch",
    "time_per_iter_ms": "a whole solve's time an iteration",
    "timed_input_nonce": "which input the timed repetitions drew",
    "timed_launches_unchecked": "launches past the records' cap",
    "timed_reps_checked": "how many timed repetitions were checked",
    "timed_result": "which buffer the timed solve left its result in",
    "warmups_left_out": "the warm-ups left out before the timed repetitions of a call that took over a second",
    "trace_prepared_ahead": "whether a counting executor prepared the count at its start (STENCIL_TRACE=1 prints it)",
    "trace_timed_checks": "the seconds the kit's checks of the timed solves took (STENCIL_TRACE=1 prints it)",
}
# The rooms a case's report passes through (the class grader's own key=value files are another protocol).
files = [f for room in ("judge", "executor", "emu", "protocol") for ext in ("c", "h", "cu", "cpp")
         for f in glob.glob(root + "/grader/" + room + "/**/*." + ext, recursive=True)]
text = {f: open(f, errors="replace").read() for f in files}
macros = {}
for t in text.values():
    for m in re.finditer(r'#define\s+([A-Z_][A-Z0-9_]*)\s+"([^"]*)"', t):
        macros[m.group(1)] = m.group(2)
KEY = r'("[^"]*"|[A-Z_][A-Z0-9_]*)'
def key(tok):
    return tok.strip('"') if tok.startswith('"') else macros.get(tok)
written, read = {}, {}
for f, t in text.items():
    where = f[len(root) + 1:]
    for pat, into in ((r'runner_report\(\s*' + KEY + r'\s*,', written), (r'\bkv_add\(\s*[^,]+,\s*' + KEY, written),
                      (r'"stencil_kit_[a-z_]+",\s*("[a-z_]+")', written),
                      (r'\bkv_(?:get|number)\(\s*&?(?:report|report_out|report2|rep|r)\b[^,]*,\s*' + KEY, read),
                      (r'\bcase_key\(\s*[a-z_]+\s*,\s*' + KEY, read)):
        for m in re.finditer(pat, t):
            k = key(m.group(1))
            if k:
                into.setdefault(k, where)
problems = ["'%s' is read (%s) but no runner writes it" % (k, read[k]) for k in sorted(set(read) - set(written))]
problems += ["'%s' is written (%s) but nothing reads it, and it is not one kept for people" % (k, written[k])
             for k in sorted(set(written) - set(read) - set(FOR_PEOPLE))]
problems += ["'%s' is listed as kept for people but is no key written any more" % k for k in sorted(set(FOR_PEOPLE) - set(written))]
print("%d keys written, %d read" % (len(written), len(read)))
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
PY

echo "== report keys: runner to judge"
out=$(python3 "$tmp/keys.py" "$PWD" 2>&1)
status=$?
check "every key read is written and every key written is read or kept for people ($(head -1 <<<"$out"))" test "$status" -eq 0
[ "$status" -eq 0 ] || sed -n '2,$p' <<<"$out"
mkdir -p "$tmp/copy"
cp -r grader "$tmp/copy/"
grep -rl 'runner_report("launch_ms"' "$tmp/copy/grader" | xargs sed -i 's/runner_report("launch_ms"/runner_report("launch_msec"/'
out=$(python3 "$tmp/keys.py" "$tmp/copy" 2>&1)
check "a key renamed on the writing side is caught, both ways" \
    eval 'grep -q "'"'"'launch_ms'"'"' is read" <<<"$out" && grep -q "'"'"'launch_msec'"'"' is written" <<<"$out"'
finish "report keys"
