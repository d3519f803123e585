#!/usr/bin/env python3
"""tests/parity/parity.py — the results lines of tests/labs.sh (RESULTS=FILE)
and the comparison of the GPU's lines with the emulation's (tests/compare.sh).

usage: parity.py line BACKEND LAB KERNEL JSON_REPORT EXIT_STATUS   prints one results line
       parity.py compare EMU_RESULTS GPU_RESULTS                   prints the parity table;
                                                                   exits 1 on an undeclared difference

A results line has the tab-separated fields of RESULT_FIELDS. A kernel file's
header declares what may differ between the backends:
  // backends: gpu|emu       the file runs on that backend only (tests/labs.sh): not compared
  // parity: verdict — <reason>           the verdict (and so the hints) may differ
  // parity: hints <key> <key>... — <reason>
                            the verdicts agree; these hint keys may be on one backend only
A parity line without its reason (after " — ") is an error of the file.
"""
import hashlib
import json
import os
import re
import sys

# The fields of a results line, in order (one definition for both commands).
RESULT_FIELDS = ("backend", "lab", "file", "verdict", "hints", "technique", "seed", "file_hash")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expect import RACE_HINTS  # noqa: E402  (tests/expect.py: the hints that name a race)

NONE = "-"  # a field with nothing in it (no hint, no technique line)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARITY_LINE = re.compile(r"^// parity: *(.*)$", re.M)
PARITY_SCOPE = re.compile(r"^(verdict|hints((?: +[a-z0-9-]+)+)) +— +(\S.*)$")


# Header lines that say what a run should give, not what runs: a record outlives edits to them.
EXPECTATION_LINES = (b"// parity:", b"// expect-hint:", b"// expect-exit:", b"// expect-error:")


def file_hash(path, lab):
    """The first 12 hex digits of the SHA-1 of the file's bytes but its expectation lines (parity:,
    expect-hint:, expect-exit:, expect-error:), then its lab's lab.conf: a record names the version of
    the file and of the cases it ran (a case added since may change what the file gets), and declaring
    a difference or correcting an expectation changes nothing the judge runs, so it keeps the record."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    kept = [line for line in lines if not line.startswith(EXPECTATION_LINES)]
    digest = hashlib.sha1(b"\n".join(kept))
    try:
        with open(os.path.join(os.environ.get("PARITY_LABS", os.path.join(REPO, "labs")), lab, "lab.conf"), "rb") as f:
            digest.update(b"\0" + f.read())
    except OSError:
        pass  # (a lab of test_compare.sh's own without one: the file alone)
    return digest.hexdigest()[:12]


def result_line(backend, lab, kernel, json_path, status):
    """One results line for a judge run: its verdict, hint keys, technique status and seed."""
    try:
        report = json.load(open(json_path))
    except (OSError, ValueError):
        report = {}
    verdict = report.get("verdict") or "error"
    if verdict == "error":  # how the judge ended: a refused file and a crashed run differ
        verdict = "error:%s:%s" % (report.get("stage") or "no-report", status)
    hints = sorted({h.get("key") for h in report.get("hints", []) if h.get("key")} |
                   {c.get("hint_key") for c in report.get("cases", []) if c.get("status") == "fail" and c.get("hint_key")})
    technique = (report.get("technique") or {}).get("status") or NONE
    path = os.path.relpath(os.path.abspath(kernel), REPO)
    fields = (backend, lab, path, verdict, ",".join(hints) or NONE, technique,
              str(report.get("seed", NONE)), file_hash(kernel, lab))
    return "\t".join(fields)


def read_results(path):
    """The lines of a results file as {file: fields dict}; the last line of a file wins."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if not line.strip():
                continue
            if len(parts) != len(RESULT_FIELDS):
                raise ValueError("%s:%d: %d fields, expected %d (%s)" % (path, n, len(parts), len(RESULT_FIELDS), " ".join(RESULT_FIELDS)))
            row = dict(zip(RESULT_FIELDS, parts))
            rows[row["file"]] = row
    return rows


def header_declarations(path):
    """The file's declared differences: (backends or None, [(scope, keys, reason)], [errors])."""
    try:
        header = open(os.path.join(REPO, path), encoding="utf-8", errors="replace").read(4000)
    except OSError as err:
        return None, [], ["cannot read its header (%s)" % err]
    backends = re.findall(r"^// backends: *(.*\S)", header, re.M)
    declared, errors = [], []
    for text in PARITY_LINE.findall(header):
        m = PARITY_SCOPE.match(text.strip())
        if not m:
            errors.append("bad header line '// parity: %s' (write 'verdict — reason' or 'hints KEY... — reason')" % text.strip())
            continue
        scope = "verdict" if m.group(1) == "verdict" else "hints"
        declared.append((scope, set((m.group(2) or "").split()), m.group(3)))
    return (backends[0].split() if backends else None), declared, errors


def split_hints(field):
    """The set of hint keys of a results field."""
    return set() if field == NONE else set(field.split(","))


def judge_pair(emu, gpu, declared):
    """Compares one file's two lines: returns ("same"|"declared"|"DIFFERENT", reason or what differs)."""
    if emu["verdict"] == gpu["verdict"] and emu["hints"] == gpu["hints"]:
        return "same", ""
    reasons = [r for scope, _, r in declared if scope == "verdict"]
    if reasons:
        return "declared", reasons[0]
    if emu["verdict"] != gpu["verdict"]:
        return "DIFFERENT", "verdicts differ and the header declares no 'parity: verdict'"
    emu_hints, gpu_hints = split_hints(emu["hints"]), split_hints(gpu["hints"])
    differing = emu_hints ^ gpu_hints
    raced = bool(emu_hints & RACE_HINTS and gpu_hints & RACE_HINTS)
    if raced:  # a race named on both backends: where else it lands changes from run to run
        differing &= RACE_HINTS
    allowed = [(keys, r) for scope, keys, r in declared if scope == "hints"]
    left = differing - set().union(*[k for k, _ in allowed]) if allowed else differing
    if not left:
        return "declared", (allowed[0][1] if differing else "a race named on both backends; the other cases it spoils differ from run to run")
    return "DIFFERENT", "hints %s on one backend only, not declared by a 'parity: hints' line" % ",".join(sorted(left))


def show(row):
    """A results line's verdict and hints as a table cell."""
    if row is None:
        return NONE
    return row["verdict"] + ("" if row["hints"] == NONE else " " + row["hints"])


def compare(emu_path, gpu_path):
    """Prints the parity table of the emulation's results against the GPU's; returns (passed, failed, skipped)."""
    emu_rows = read_results(emu_path)
    gpu_rows = read_results(gpu_path) if gpu_path and os.path.exists(gpu_path) else None
    passed = failed = skipped = 0
    if gpu_rows is None:
        print("no GPU record (%s): SKIPPED (record one on a GPU: tests/compare.sh record)" % (gpu_path or "none given"))
        gpu_rows = {}
        no_record = True
    else:
        no_record = False
    print("  %-62s %-34s %-34s %s" % ("file", "emulation", "gpu", "parity"))
    labs = {r["lab"] for r in emu_rows.values()}
    files = sorted(set(emu_rows) | {f for f, r in gpu_rows.items() if r["lab"] in labs})
    for path in files:
        emu, gpu = emu_rows.get(path), gpu_rows.get(path)
        backends, declared, errors = header_declarations(path)
        if errors:
            mark, why = "DIFFERENT", "; ".join(errors)
        elif no_record:
            mark, why = "SKIPPED", ""
        elif emu is None or gpu is None:
            only = "gpu" if emu is None else "emu"
            if backends and backends == [only]:
                mark, why = "%s only" % only, "backends: %s" % only
            else:
                mark, why = "SKIPPED", ("no emulation line (the emulation run left it out)" if emu is None
                                        else "no GPU line (record it on a GPU: tests/compare.sh record)")
        elif gpu["file_hash"] != emu["file_hash"]:
            mark, why = "SKIPPED", "the GPU line is for another version of the file or of its lab's cases (record it again on a GPU)"
        else:
            mark, why = judge_pair(emu, gpu, declared)
        if mark == "DIFFERENT":
            failed += 1
        elif mark in ("same", "declared"):
            passed += 1
        else:
            skipped += 1
        print("  %-62s %-34s %-34s %s%s" % (path, show(emu), show(gpu), mark, " (%s)" % why if why else ""))
    print("parity gpu vs emulation: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return passed, failed, skipped


def main(argv):
    """Dispatches the two commands; returns the exit status."""
    if len(argv) == 7 and argv[1] == "line":
        # One write of the whole line: runs side by side append to one file (O_APPEND), and print
        # under PYTHONUNBUFFERED=1 writes the line and its newline apart, two runs' lines then joined.
        os.write(sys.stdout.fileno(), (result_line(*argv[2:7]) + "\n").encode())
        return 0
    if len(argv) == 4 and argv[1] == "compare":
        try:
            _, failed, _ = compare(argv[2], argv[3])
        except (OSError, ValueError) as err:
            print("parity: %s" % err, file=sys.stderr)
            return 2
        return 1 if failed else 0
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
