#!/usr/bin/env python3
"""tests/bench/class_timeline.py — where a class's GPU time went, from the
results folder class_speed.sh keeps (KEEP=dir, STENCIL_TRACE=1): each judge's
report (results/<id>.json: its GPU turns) and trace (results/<id>.txt: the
waits for its turns, the runs whose executor took its own locks).

Prints the class's span; the GPU's time alone (timed cases, load counts),
in shared turns, and idle; of the idle time, how much some judge spent
waiting for a turn meanwhile (a lock held by a run the traces show no turn
for, a failed tool run's, a racecheck that found a race, or by host work;
before the long turns, a timer's gate held behind such a run); the time some judge was waiting to be alone and,
of that, how long each kind of shared turn kept it waiting (the turn that
was still running when the wait began, until it ended: the drain); the
longest shared turns with what they ran; what the judges' turns alone held
(the timed run, its check and files, its repetitions; the relayed load count,
its profiler's start, its check and files; the rest); and the runs on the GPU that held
no turn at all (neither locks of their own nor inside one of the judge's
turns: a fault of the kit, which a sound class shows none of). Asserts
nothing.

    python3 tests/bench/class_timeline.py KEEP_DIR
"""
import glob
import json
import os
import re
import sys

TRACE = re.compile(r"^trace: ([0-9.]+) (.*)$")
CASE = re.compile(r"^(\S+): input ([0-9.]+) s, runner ([0-9.]+) s (?:from ([0-9.]+) )?\((.*)\), judged ([0-9.]+) s")
WAIT = re.compile(r"^gpu turn (alone|shared): waited ([0-9.]+) s")


def hour(t):
    """Seconds within the hour: the trace's clock."""
    return t % 3600.0


def union(spans):
    """Total length covered by the (begin, end) spans."""
    total, end = 0.0, None
    for b, e in sorted(spans):
        if end is None or b > end:
            total += e - b
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def run_parts(start, runner, phases):
    """The parts of a run served in the judge's turn, as (begin, end, part) spans: a timed case's
    run to its idle word (to its end, one that failed before it), its checked call's check and
    files, its repetitions; a load count's run, its profiler's start, its check and files."""
    at = lambda k: start + phases[k]
    idle = phases.get("idle", phases.get("end", runner))
    if "called" not in phases or "saved" not in phases:
        return []
    if "count_begun" in phases:
        return [(start, start + idle, "count"), (at("ready"), at("count_begun"), "count: the profiler's start"),
                (at("called"), at("saved"), "count: its check and files")]
    if "copy_limit" not in phases:
        return []
    parts = [(start, start + idle, "timed"), (at("called"), at("saved"), "timed: the checked call's check and files")]
    if "timed" in phases:
        parts.append((at("copy_limit"), at("timed"), "timed: the repetitions"))
    return parts


def read_judge(json_path):
    """One judge's turns (begin, end, alone, label), its waits for a turn (begin, end, alone), its
    runs on the GPU that held no turn (start, label) and the parts of its runs served inside its
    turns (run_parts)."""
    ident = os.path.basename(json_path)[:-5]
    try:
        report = json.load(open(json_path))
    except (OSError, ValueError):
        return [], [], [], []
    turns = [[hour(b), hour(e), int(x), "judge"] for b, e, x in report.get("gpu_turns", [])]
    waits, loose, parts, stage = [], [], [], "?"
    txt = json_path[:-5] + ".txt"
    lines = open(txt, errors="replace").read().splitlines() if os.path.exists(txt) else []
    for line in lines:
        m = TRACE.match(line)
        if not m:
            continue
        t, what = float(m.group(1)), m.group(2)
        if what.startswith("stage: "):
            stage = what[7:]
        w = WAIT.match(what)
        if w:
            waits.append((t - float(w.group(2)), t, w.group(1) == "alone"))
        c = CASE.match(what)
        if c:
            name, runner, judged = c.group(1), float(c.group(3)), float(c.group(6))
            phases = dict(zip(c.group(5).split()[0::2], map(float, c.group(5).split()[1::2])))
            start = float(c.group(4)) if c.group(4) else t - judged - runner  # (older traces: a guess)
            if "locked" in phases:  # the executor held its own turn, until its GPU work ended (or its run did, when its trace stops short)
                alone = "count_begun" in phases or "prepared" in phases  # (a count, begun or not)
                until = phases.get("idle", phases.get("end", runner))
                turns.append([start + phases["locked"], start + until, int(alone), "%s %s (executor's)" % (stage, name)])
            else:  # the judge's turn around this run: label the one that holds it
                parts += run_parts(start, runner, phases)
                for turn in turns:
                    if turn[3] == "judge" and turn[0] <= start + 0.05 and turn[1] >= start:
                        turn[3] = "%s %s" % (stage, name)
                        break
                if "device" in phases and c.group(4) and not any(t[0] <= start + 0.05 and t[1] >= start for t in turns):
                    loose.append((start, "%s %s %s" % (ident, stage, name)))
    for turn in turns:
        if turn[3] == "judge":
            turn[3] = "other"
        turn.append(ident)
    return turns, waits, loose, parts


def alone_anatomy(turns, parts):
    """Prints where the judges' turns alone went: the part of each kind inside them, a turn's mean."""
    alone = [(t[0], t[1]) for t in turns if t[2] and "executor's" not in t[3]]
    if not alone:
        return
    inside = {}
    for b, e, kind in parts:
        for tb, te in alone:
            if b < te and e > tb:
                inside[kind] = inside.get(kind, 0.0) + min(e, te) - max(b, tb)
    n, whole = len(alone), sum(e - b for b, e in alone)
    mean = lambda kind: inside.get(kind, 0.0) / n
    print("the judges' turns alone, a turn's mean of %d: %.2f s; the timed run %.2f s (its checked call's check and files %.2f, "
          "the repetitions %.2f), the relayed load count %.2f s (the profiler's start %.2f, its check and files %.2f), the rest %.2f s" %
          (n, whole / n, mean("timed"), mean("timed: the checked call's check and files"), mean("timed: the repetitions"), mean("count"),
           mean("count: the profiler's start"), mean("count: its check and files"), (whole - inside.get("timed", 0.0) - inside.get("count", 0.0)) / n))


def gap_holders(path, gap, late):
    """The locks held (gpu_lock_holders.py's log, if kept) while the GPU sat idle in gap: each
    holder once, the turn's lock and gates first, at most six."""
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return []
    seen, rows, before = set(), [], []
    for line in lines:
        when, _, text = line.partition(" ")
        try:
            t = late(float(when))
        except ValueError:
            continue
        held = [r for r in text.split(" | ") if r.startswith("H ")]
        if t <= gap[0]:
            before = held  # what was held as the gap began
            continue
        if t >= gap[1]:
            break
        before += held
    for row in sorted(before, key=lambda r: ("gpu-0.lock" not in r, r)):
        key = re.sub(r" \d+ \[", " [", row)
        if key not in seen:
            seen.add(key)
            rows.append(row[2:])
    return rows[:6]


def main():
    keep = sys.argv[1] if len(sys.argv) > 1 else "."
    folder = os.path.join(keep, "results") if os.path.isdir(os.path.join(keep, "results")) else keep
    turns, waits, loose, parts = [], [], [], []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        t, w, l, p = read_judge(path)
        turns += t
        waits += w
        loose += l
        parts += p
    if not turns:
        print("class_timeline: no GPU turns in %s (run class_speed.sh with KEEP=dir and STENCIL_TRACE=1)" % folder)
        return 0
    times = sorted(x for t in turns for x in t[:2])
    quiet, end_of_quiet = max((b - a, b) for a, b in zip(times, times[1:] + [times[0] + 3600.0]))
    late = lambda x: x
    if end_of_quiet <= times[-1]:  # the longest quiet stretch is inside the hour: the class crossed the hour
        cut = end_of_quiet - quiet / 2  # (seconds within the hour; before the middle of the quiet stretch: the next hour's)
        late = lambda x: x + 3600.0 if x < cut else x
        turns = [[late(t[0]), late(t[1])] + t[2:] for t in turns]
        waits = [(late(b), late(e), x) for b, e, x in waits]
        loose = [(late(b), label) for b, label in loose]
        parts = [(late(b), late(e), kind) for b, e, kind in parts]
    begin, end = min(t[0] for t in turns), max(t[1] for t in turns)
    alone = [(t[0], t[1]) for t in turns if t[2]]
    shared = [(t[0], t[1]) for t in turns if not t[2]]
    span = end - begin
    print("span %.1f s: alone %.1f s (%d turns), shared %.1f s (%d turns, union), idle %.1f s" %
          (span, union(alone), len(alone), union(shared), len(shared), span - union(alone + shared)))
    held = sorted((t[0], t[1]) for t in turns)
    gaps, last = [], held[0][1]
    for b, e in held[1:]:
        if b > last:
            gaps.append((last, b))
        last = max(last, e)
    waiting = [(max(b, gb), min(e, ge)) for gb, ge in gaps for b, e, _ in waits if b < ge and e > gb]
    longest = max(gaps, key=lambda g: g[1] - g[0]) if gaps else (begin, begin)
    print("GPU idle while some judge waited for a turn: %.1f s (the longest gap %.1f s, at %.1f s)" %
          (union(waiting), longest[1] - longest[0], longest[0] - begin))
    for row in gap_holders(os.path.join(keep if os.path.isdir(os.path.join(keep, "results")) else os.path.dirname(folder),
                                        "lock_holders.log"), longest, late):
        print("  held then: %s" % row)
    waits = [(b, e) for b, e, alone_wait in waits if alone_wait]
    print("some judge waiting to be alone: %.1f s (%d waits)" % (union(waits), len(waits)))
    drain = {}
    for wb, we in waits:  # the shared turns running when the wait began, until they ended
        for t in turns:
            if not t[2] and t[0] < wb < t[1]:
                kind = re.sub(r" \S+x\S+| N=\S+| \d+$", "", t[3])
                drain.setdefault(kind, [0.0, 0])
                drain[kind][0] += min(t[1], we) - wb
                drain[kind][1] += 1
    print("drains (a shared turn running when a wait to be alone began, until it ended or the wait did):")
    for kind, (secs, n) in sorted(drain.items(), key=lambda kv: -kv[1][0])[:12]:
        print("  %7.1f s in %4d  %s" % (secs, n, kind))
    lengths = {}
    for t in turns:
        kind = ("alone " if t[2] else "shared ") + re.sub(r" \S+x\S+| N=\S+| \d+$", "", t[3])
        lengths.setdefault(kind, []).append(t[1] - t[0])
    alone_anatomy(turns, parts)
    print("turns by kind: count, mean, max (s):")
    for kind, xs in sorted(lengths.items(), key=lambda kv: -sum(kv[1]))[:16]:
        print("  %4d %6.2f %6.2f  %s" % (len(xs), sum(xs) / len(xs), max(xs), kind))
    print("runs on the GPU that held no turn (no locks of their own, in none of the judge's turns): %d%s" %
          (len(loose), ": a fault of the kit, e.g. " + "; ".join(label for _, label in loose[:3]) if loose else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
