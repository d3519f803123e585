#!/usr/bin/env python3
"""tests/bench/gpu_lock_holders.py — who holds and who waits for a lock
folder's GPU locks (grader/protocol/gpu_locks.h), sampled from /proc/locks
every 0.15 s until the folder's class ends (or SECONDS pass): a line per
sample that differs from the last, "TIME ROW | ROW ...", TIME the wall
clock's seconds within the hour (the judges' trace clock), each ROW
"H|W LOCK MODE PID [parent PARENT: COMMAND]" (held or waiting; the pid the
kernel names for the lock) or "F PID [...]" (a process with the turn's lock
file open). class_speed.sh runs it beside a traced class and keeps its log
(lock_holders.log), where class_timeline.py reads who held the GPU during
the longest idle gap. Linux only; reads, writes only OUT.

    python3 tests/bench/gpu_lock_holders.py LOCK_DIR OUT [SECONDS]
"""
import glob
import os
import sys
import time


def command(pid):
    """The process's parent's name and its first words, or '?' once it is gone."""
    try:
        words = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
        parent = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[1]
        parent_name = open("/proc/%s/comm" % parent).read().strip()
    except (OSError, IndexError):
        return "?"
    text = " ".join(os.path.basename(w.decode(errors="replace")) for w in words[:12] if w)
    return ("parent %s: %s" % (parent_name, text))[:200]


def sample(lock_dir, inodes):
    """The rows of one sample (sorted), learning the folder's lock files as they appear."""
    for path in glob.glob(os.path.join(lock_dir, "gpu-*.*")):
        try:
            inodes[os.stat(path).st_ino] = os.path.basename(path)
        except OSError:
            pass
    rows = []
    try:
        lines = open("/proc/locks").read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        waiting = len(fields) > 1 and fields[1] == "->"
        if waiting:
            fields = fields[:1] + fields[2:]
        if len(fields) < 6 or fields[1] != "FLOCK":
            continue
        inode = int(fields[5].split(":")[2])
        if inode in inodes:
            rows.append("%s %s %s %s [%s]" % ("W" if waiting else "H", inodes[inode], fields[3], fields[4], command(fields[4])))
    turn = os.path.realpath(os.path.join(lock_dir, "gpu-0.lock"))
    for fd in glob.glob("/proc/[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == turn:
                pid = fd.split("/")[2]
                rows.append("F %s [%s]" % (pid, command(pid)))
        except OSError:
            pass
    return sorted(set(rows))


def main():
    if len(sys.argv) < 3:
        print("usage: gpu_lock_holders.py LOCK_DIR OUT [SECONDS]", file=sys.stderr)
        return 2
    lock_dir, out = sys.argv[1], sys.argv[2]
    end = time.time() + (float(sys.argv[3]) if len(sys.argv) > 3 else 3600.0)
    inodes, last = {}, None
    with open(out, "w") as log:
        while time.time() < end:
            rows = sample(lock_dir, inodes)
            if rows != last:
                log.write("%.3f %s\n" % (time.time() % 3600.0, " | ".join(rows)))
                log.flush()
                last = rows
            time.sleep(0.15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
