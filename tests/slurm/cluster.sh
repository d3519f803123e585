#!/usr/bin/env bash
# tests/slurm/cluster.sh — a throwaway one-node Slurm cluster for tests:
# munged + slurmctld + slurmd started by hand (no systemd), as root, with
# every file (config, state, spool, logs, pid files, munge key and socket)
# under one directory, and one FAKE gpu (gres gpu:1, no device file).
#
#   tests/slurm/cluster.sh start DIR   bring it up, wait until the node is idle,
#                                      write DIR/env.sh and print its lines
#   . DIR/env.sh                       sbatch, squeue, sinfo, scontrol, scancel
#                                      then talk to this cluster
#   tests/slurm/cluster.sh stop DIR    cancel its jobs, kill its daemons
#
# start on a DIR that already has a cluster stops that one first and starts
# afresh (its state is wiped; other files in DIR are left alone). Exit
# status: 0 ok; 1 failed (one line, then the logs' tails, on stderr); 2 usage;
# 77 Slurm or munge not installed, or not root (the caller reports SKIPPED).
# Environment: SLURM_TEST_PORT (slurmctld's port, default 6817; slurmd gets
# the next one), SLURM_TEST_WAIT (seconds to wait for the node, default 60),
# SLURM_TEST_MIN_JOB_AGE (MinJobAge, default 2: sbatch --wait then polls every
# 2 s, but a finished job's record is purged within seconds, after which
# `squeue -j ID` exits 1 with "Invalid job id specified"). There is no
# accounting: no sacct.
set -u

PROG=cluster.sh
PATH=$PATH:/usr/sbin:/sbin  # munged, slurmctld and slurmd live in sbin
PORT=${SLURM_TEST_PORT:-6817}
WAIT=${SLURM_TEST_WAIT:-60}
MIN_JOB_AGE=${SLURM_TEST_MIN_JOB_AGE:-2}
NODE=$(hostname -s 2>/dev/null || hostname)

# Print one line on stderr and exit with the status given (default 1).
die() { echo "$PROG: $1" >&2; exit "${2:-1}"; }

# Print the last lines of each log under DIR on stderr, for a failed start.
log_tails() {
    local f
    for f in "$D"/log/*; do
        [ -s "$f" ] || continue
        echo "--- tail of $f" >&2
        tail -n 15 "$f" >&2
    done
}

# Print the failure line, the logs' tails, stop what was started, exit 1.
fail() { echo "$PROG: $1" >&2; log_tails; do_stop >/dev/null 2>&1; exit 1; }

# Exit 77 (skip) when a Slurm or munge program is missing or we are not root.
need_tools() {
    local t missing=""
    for t in munged munge slurmctld slurmd sinfo sbatch squeue scontrol scancel; do
        command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
    done
    [ -z "$missing" ] || die "Slurm is not installed (missing:$missing): apt-get install slurm-wlm munge" 77
    [ "$(id -u)" = 0 ] || die "a one-node Slurm needs root (slurmd runs jobs as root here)" 77
}

# Set D to DIR made absolute (created if $2 is "create") and SLURM_CONF under it.
set_dir() {
    [ -n "$1" ] || die "usage: $PROG start|stop DIR" 2
    case $1 in *[[:space:]]*) die "DIR may not contain blanks (slurm.conf paths): $1" 2 ;; esac
    if [ "${2:-}" = create ]; then mkdir -p "$1" || die "cannot create $1"; fi
    D=$(cd "$1" 2>/dev/null && pwd -P) || die "no such directory: $1"
    export SLURM_CONF="$D/etc/slurm.conf"
}

# Print the pid in pid file $1 if it is a live process named $2 (not a reused pid).
live_pid() {
    local pid
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && ! gone "$pid" && echo "$pid"
    return 0
}

# True when the pid has exited (no /proc entry, or a zombie).
gone() {
    local s
    s=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    s=${s##*) }
    [ "${s%% *}" = Z ]
}

# Print the pids of all descendants of the pids given (from /proc, no ps).
descendants() {
    local table f s all=" $* " more=1 pid ppid
    table=$(for f in /proc/[0-9]*/stat; do
        s=$(cat "$f" 2>/dev/null) || continue
        s=${s##*) }; s=${s#* }
        f=${f#/proc/}; echo "${f%/stat} ${s%% *}"
    done)
    while [ "$more" = 1 ]; do
        more=0
        while read -r pid ppid; do
            case $all in *" $ppid "*) case $all in *" $pid "*) ;; *) all="$all$pid "; echo "$pid"; more=1 ;; esac ;; esac
        done <<<"$table"
    done
}

# Print the pids of this cluster's slurmstepd processes (they hold its log open).
cluster_steps() {
    local f p fd
    for f in /proc/[0-9]*/comm; do
        [ "$(cat "$f" 2>/dev/null)" = slurmstepd ] || continue
        p=${f#/proc/}; p=${p%/comm}
        for fd in "/proc/$p/fd/"*; do
            case $(readlink "$fd" 2>/dev/null) in "$D"/*) echo "$p"; break ;; esac
        done
    done
}

# Send TERM to the pids given, wait up to 10 s for them to exit, then KILL the rest.
kill_all() {
    local p i left
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null
    for i in $(seq 1 100); do
        left=""
        for p in "$@"; do gone "$p" || left="$left $p"; done
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    # shellcheck disable=SC2086  # a list of pids
    kill -KILL $left 2>/dev/null
    sleep 0.2
}

# Cancel this cluster's jobs, then kill its daemons, its steps and their children.
# shellcheck disable=SC2046,SC2086  # unquoted pid lists are meant to split
do_stop() {
    local i ctld slurmd munged steps
    ctld=$(live_pid "$D/run/slurmctld.pid" slurmctld)
    if [ -n "$ctld" ]; then
        scancel --quiet --user=root >/dev/null 2>&1
        for i in $(seq 1 50); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    slurmd=$(live_pid "$D/run/slurmd.pid" slurmd)
    munged=$(live_pid "$D/run/munged.pid" munged)
    steps=$(cluster_steps)
    if [ -n "$steps" ]; then kill -KILL $steps $(descendants $steps) 2>/dev/null; fi
    kill_all $ctld $(descendants $ctld) $slurmd $munged
    rm -f "$D/run/slurmctld.pid" "$D/run/slurmd.pid" "$D/run/munged.pid"
}

# True when something already listens on 127.0.0.1:PORT.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Write DIR/etc/slurm.conf and DIR/etc/gres.conf for this one node.
write_conf() {
    local cpus mem
    cpus=$(nproc)
    # Below what slurmd measures (MemTotal), or the node is drained as INVALID.
    mem=$(awk '/^MemAvailable:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
    cat >"$D/etc/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh: a throwaway one-node cluster.
ClusterName=stenciltest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$D/tmp
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
SlurmctldTimeout=10
SlurmdTimeout=10
MessageTimeout=5
InactiveLimit=0
KillWait=2
MinJobAge=$MIN_JOB_AGE
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem Gres=gpu:1 State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
    cat >"$D/etc/gres.conf" <<EOF
# One FAKE gpu. Slurm 22.05 counts a gpu only with a File= that is a device
# (Count= alone reports 0 and drains the node): /dev/null stands in; without
# cgroups nothing is bound, and jobs see CUDA_VISIBLE_DEVICES=0.
AutoDetect=off
NodeName=$NODE Name=gpu File=/dev/null
EOF
}

# Generate a munge key and start munged with its socket, pid and log under DIR.
start_munge() {
    if command -v mungekey >/dev/null 2>&1; then
        mungekey --create --force --keyfile="$D/munge/munge.key" || fail "mungekey failed"
    else
        dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none || fail "cannot write a munge key"
    fi
    chmod 600 "$D/munge/munge.key"
    # --force: run even where a parent of DIR is group-writable, and over a stale socket.
    munged --force --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket" \
        --pid-file="$D/run/munged.pid" --log-file="$D/log/munged.log" \
        --seed-file="$D/munge/munged.seed" </dev/null >"$D/log/munged.out" 2>&1 \
        || fail "munged did not start"
    munge -n -S "$D/munge/munge.socket" | unmunge -S "$D/munge/munge.socket" >/dev/null 2>&1 \
        || fail "munged started but a credential does not round-trip through $D/munge/munge.socket"
}

# Bring the cluster up under DIR and wait (bounded) until the node is idle.
do_start() {
    local i state=""
    if [ -n "$(live_pid "$D/run/slurmctld.pid" slurmctld)$(live_pid "$D/run/slurmd.pid" slurmd)$(live_pid "$D/run/munged.pid" munged)" ]; then
        echo "$PROG: a cluster is already running in $D: stopping it and starting afresh" >&2
        do_stop
    fi
    for i in "$PORT" "$((PORT + 1))"; do
        port_busy "$i" && die "port $i is already in use (another Slurm? stop it, or set SLURM_TEST_PORT)"
    done
    rm -rf "${D:?}/etc" "$D/state" "$D/spool" "$D/log" "$D/run" "$D/munge" "$D/tmp" "$D/env.sh"
    mkdir -p "$D/etc" "$D/state" "$D/spool" "$D/log" "$D/run" "$D/munge" "$D/tmp" || fail "cannot create dirs in $D"
    chmod 755 "$D/munge"; chmod 700 "$D/log" "$D/run"
    start_munge
    write_conf
    slurmctld -f "$SLURM_CONF" </dev/null >"$D/log/slurmctld.out" 2>&1 || fail "slurmctld did not start"
    slurmd -f "$SLURM_CONF" -N "$NODE" </dev/null >"$D/log/slurmd.out" 2>&1 || fail "slurmd did not start"
    for i in $(seq 1 $((WAIT * 5))); do
        state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null)
        case $state in
            idle) break ;;
            *inval* | *drain*) fail "node $NODE is $state: $(sinfo -h -n "$NODE" -o %E 2>/dev/null)" ;;
        esac
        sleep 0.2
    done
    [ "$state" = idle ] || fail "node $NODE not idle after ${WAIT}s (state: ${state:-none})"
    echo "export SLURM_CONF=$SLURM_CONF" >"$D/env.sh"
    cat "$D/env.sh"
}

case "${1:-}" in
    start) need_tools; set_dir "${2:-}" create; do_start ;;
    stop) [ -n "${2:-}" ] || die "usage: $PROG start|stop DIR" 2
        [ -d "$2" ] || exit 0  # nothing was started there
        set_dir "$2"; do_stop ;;
    *) die "usage: $PROG start|stop DIR" 2 ;;
esac
