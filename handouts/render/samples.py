#!/usr/bin/env python3
"""handouts/render/samples.py — the sample reports quoted in the handouts, from real runs.

A fenced block right after a line

    <!-- sample-report: LAB=2 SEED=459813019 KERNEL=tests/mutants/02-shared-tile/halo-not-loaded.cu | N=5, N=7, technique, OP/B, verdict -->

is what `build/judge` prints for that check under CPU emulation (LAB=, SEED=,
KERNEL=, CASE= as for make check), cut to the parts after '|': a case's line
with the lines indented under it (N=7), a line beginning with a word and its
continuation lines (technique, OP/B, hints, verdict), or "..." for a line of
its own saying that parts were left out. The English and the Chinese handout
quote the same runs.

usage: samples.py [--update] [HANDOUT.md ...]   (default: every handout, both languages)
Without --update: prints one line per sample and exits 1 when a quoted block
is not what the run prints now (the figures in "(… s emulated)" aside).
With --update: rewrites each block from its run.
Run from the kit's root; builds nothing but uses build/judge (make judge).
"""
import glob
import os
import re
import subprocess
import sys

errors = {}  # each run's exit status and last line on stderr, to say why a part is missing
MARK = re.compile(r"^<!-- sample-report: (.*?) \| (.*?) -->$")
TIMES = re.compile(r"\(\d+(\.\d+)? s emulated\)")
ELIDED = "  …"


def run(args, cache):
    """stdout of the judge for args ("LAB=2 SEED=... KERNEL=..."), cached."""
    if args in cache:
        return cache[args]
    opts = dict(a.split("=", 1) for a in args.split())
    unknown = set(opts) - {"LAB", "SEED", "KERNEL", "CASE"}
    if unknown or not {"LAB", "SEED", "KERNEL"} <= set(opts):
        raise ValueError("sample-report takes LAB=, SEED=, KERNEL= and CASE=: %s" % args)
    cmd = ["build/judge", "--kit", os.getcwd(), "--lab", opts["LAB"], "--backend", "emu",
           "--seed", opts["SEED"], "--kernel", opts["KERNEL"]]
    if "CASE" in opts:
        cmd += ["--case", opts["CASE"]]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cache[args] = done.stdout.splitlines()
    errors[args] = (done.returncode, (done.stderr.strip().splitlines() or [""])[-1][:300])
    return cache[args]


def select(lines, parts):
    """The parts of a report's lines, in the order asked for."""
    kept = []
    for part in (p.strip() for p in parts.split(",")):
        if part in ("...", "…"):
            kept.append(ELIDED)
            continue
        is_case = re.fullmatch(r"N=\S+|\d+x\d+(x\d+)?", part) is not None
        found = False
        for n, line in enumerate(lines):
            head = ("  " + part + ":") if is_case else part
            if not line.startswith(head):
                continue
            found = True
            kept.append(line)
            indent = 6 if is_case else 9  # a case's reason and hints; a line's continuations
            for more in lines[n + 1:]:
                if not more.startswith(" " * indent) or not more.strip():
                    break
                kept.append(more)
            break
        if not found:
            raise ValueError("the run prints no '%s'" % part)
    return kept


def normal(lines):
    return [TIMES.sub("(s emulated)", l.rstrip()) for l in lines]


def main(argv):
    update = "--update" in argv
    files = [a for a in argv if a != "--update"] or sorted(glob.glob("handouts/*.md") + glob.glob("handouts/zh/*.md"))
    cache, stale, count = {}, 0, 0
    for path in files:
        text = open(path, encoding="utf-8").read().split("\n")
        out, i = [], 0
        while i < len(text):
            m = MARK.match(text[i])
            out.append(text[i])
            i += 1
            if not m:
                continue
            count += 1
            if i >= len(text) or not text[i].startswith("```"):
                print("FAIL  %s:%d: a sample-report line must be followed by a fenced block" % (path, i))
                stale += 1
                continue
            end = i + 1
            while end < len(text) and not text[end].startswith("```"):
                end += 1
            try:
                fresh = select(run(m.group(1), cache), m.group(2))
            except ValueError as err:
                status, last = errors.get(m.group(1), (None, ""))
                print("FAIL  %s:%d: %s (the judge exited %s: %s)" % (path, i, err, status, last))
                stale += 1
                out.extend(text[i:end + 1])
                i = end + 1
                continue
            quoted = text[i + 1:end]
            same = normal(quoted) == normal(fresh)
            if not same and not update:
                stale += 1
                print("FAIL  %s:%d: the quoted report is not what `%s` prints now (handouts/render/samples.py --update):"
                      % (path, i, m.group(1)))
                for q, f in zip(normal(quoted) + [""] * len(fresh), normal(fresh) + [""] * len(quoted)):
                    if q != f:
                        print("        quoted: %s\n        now:    %s" % (q, f))
                        break
            elif not update:
                print("ok    %s:%d: %s" % (path, i, m.group(1)))
            out.append(text[i])
            out.extend(fresh if update else quoted)
            out.append(text[end] if end < len(text) else "```")
            i = end + 1
        if update:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(out))
    print("samples: %d quoted, %d stale" % (count, 0 if update else stale))
    return 1 if stale and not update else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
