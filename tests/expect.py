#!/usr/bin/env python3
"""tests/expect.py — checks one judge run against what a test kernel expects.

usage: [JUDGE_STDERR=file] expect.py KERNEL.cu JUDGE_JSON EXIT_STATUS [HINT]

(HINT, when given, replaces the file's own expectation: the skeletons carry
none, and must fail with "nothing-written".)

The kernel file's header says what must happen:
  // expect-hint: <key>     the run fails (exit 1) and a failing case carries this hint
                            (several lines: any of them); "technique" means every
                            case passes and the technique line fails. No case may get
                            timed-rep-wrong unless a line expects it or a race's hint
  // expect-exit: <n>       the judge exits with n (e.g. 2: does not compile)
  // expect-error: <text>   the judge refuses the file: exits 2 and its stderr (the file
                            JUDGE_STDERR names) contains text (several lines: all of them)
  (none)                    the run passes (exit 0)
Prints one line: "ok: ..." or "MISMATCH: ..."; exits 0 or 1.
"""
import json
import os
import re
import sys

# The hints of a race: a file that expects one may also get timed-rep-wrong.
RACE_HINTS = {"missing-barrier", "thread-order", "boundary-race", "divergent-barrier"}


def expect_error(errors, status):
    """The judge must exit 2 with every text of errors in its stderr (JUDGE_STDERR)."""
    path = os.environ.get("JUDGE_STDERR")
    try:
        stderr = open(path, encoding="utf-8", errors="replace").read() if path else ""
    except OSError as err:
        stderr = ""
        path = "%s (%s)" % (path, err)
    missing = [e for e in errors if e not in stderr]
    ok = status == 2 and not missing and bool(path)
    said = " ".join(stderr.strip().splitlines()[-1:])[:400]
    if not path:
        said = "no stderr to read: set JUDGE_STDERR to the judge's stderr file"
    elif missing:
        said = "missing %r in: %s" % (missing[0], said)
    print(("ok" if ok else "MISMATCH") + ": exit %d (expected 2) %s" % (status, said))
    return 0 if ok else 1


def main():
    kernel, json_path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    header = open(kernel, encoding="utf-8", errors="replace").read(4000)
    hints = re.findall(r"^// expect-hint: *(.*\S)", header, re.M)
    loose = [h for h in hints if len(h.split()) != 1]
    if loose:  # "a or b" on one line would expect a alone
        print("MISMATCH: bad header line '// expect-hint: %s': one key a line (a line for each key the run may get)" % loose[0])
        return 1
    exits = re.findall(r"^// expect-exit: *(\d+)", header, re.M)
    errors = re.findall(r"^// expect-error: *(.*\S)", header, re.M)
    if len(sys.argv) > 4:
        hints, exits, errors = [sys.argv[4]], [], []
    try:
        report = json.load(open(json_path))
    except (OSError, ValueError) as err:
        report = {"error": "no JSON report (%s)" % err}
    if errors:
        return expect_error(errors, status)
    if exits:
        want = int(exits[0])
        ok = status == want
        print(("ok" if ok else "MISMATCH") + ": exit %d (expected %d) %s" % (status, want, report.get("error", "")))
        return 0 if ok else 1
    if not hints:
        ok = status == 0 and report.get("verdict") == "pass"
        failing = [c["name"] + ": " + c["reason"] for c in report.get("cases", []) if c["status"] == "fail"]
        timed = ["%s %.3f ms, %.1f GPoints/s, %.0f GB/s = %.0f%% of %.0f GB/s measured" % (
            c["name"], c["timing"]["median_ms"], c["timing"]["gpoints_per_s"], c["timing"]["gb_per_s"],
            100 * c["timing"]["bandwidth_fraction"], c["timing"]["bandwidth_gb_per_s"])
            for c in report.get("cases", []) if c.get("timing")]
        print(("ok" if ok else "MISMATCH") + ": exit %d, verdict %s, seed %s %s%s" % (
            status, report.get("verdict"), report.get("seed"), "; ".join(timed), "; ".join(failing)[:300]))
        return 0 if ok else 1
    if hints == ["technique"]:
        cases_ok = all(c["status"] != "fail" for c in report.get("cases", []))
        tech = report.get("technique", {}).get("status")
        ok = status == 1 and cases_ok and tech == "fail"
        print(("ok" if ok else "MISMATCH") + ": exit %d, cases %s, technique %s" % (status, "all ok" if cases_ok else "some failed", tech))
        return 0 if ok else 1
    got = [c.get("hint_key") for c in report.get("cases", []) if c["status"] == "fail"]
    ok = status == 1 and any(h in hints for h in got)
    # "a later call was wrong" only where the checked call was right: for a file that expects
    # it, or a race (its output changes from call to call, so the checked call may come out
    # right); a file wrong on every call must be told its own mistake on every case.
    blamed = "timed-rep-wrong" in got and "timed-rep-wrong" not in hints and not set(hints) & RACE_HINTS
    ok = ok and not blamed
    print(("ok" if ok else "MISMATCH") + ": exit %d, hints %s (expected %s)%s" % (
        status, got or report.get("error"), " or ".join(hints),
        "; timed-rep-wrong where the checked call's own mistake is expected" if blamed else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
