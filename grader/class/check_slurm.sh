#!/usr/bin/env bash
# grader/class/check_slurm.sh — `make check SLURM=1`: the student's check as one
# Slurm job on a GPU node. The job runs the same `build/judge` command line the
# local check would, in the kit's folder (which must be on a file system the
# nodes share, as a home directory is), so the report, its pictures and
# build/status/ land where a local check puts them. The job's output is shown
# as it grows and the exit status is the judge's: the job writes it to a file
# beside its output, since sbatch --wait says 0 for a job whose record
# slurmctld has already purged (MinJobAge) when it looks, whatever the job's
# exit; a job that ends without writing it (cancelled, out of time, its node
# lost) exits 2 with a line saying so.
#
# usage: check_slurm.sh JUDGE_ARGS...   (run from the kit's root by make)
# PARTITION=name   the partition (sbatch --partition)
# SBATCH_ARGS="…"  more sbatch options, split at spaces (account, time, QOS)
# SLURM_GRES=…     the GPU request, gpu:1 unless set; empty asks for none
set -u
kit=$PWD
logs=$kit/build/slurm
mkdir -p "$logs" || { echo "stencil-labs: cannot make $logs: make check SLURM=1 keeps the job's output there" >&2; exit 2; }
command -v sbatch >/dev/null 2>&1 || {
    echo "stencil-labs: sbatch not found: make check SLURM=1 needs Slurm's client commands on PATH (run it on the cluster's login node)" >&2
    exit 2
}
# Names of this check's own (two checks may run at once; a restarted cluster reuses job ids).
stamp=$(date +%Y%m%d-%H%M%S)-$$
script=$logs/check-$stamp.sh
status_file=$logs/check-$stamp.status
# Made empty here and written in place by the job: a file the login node has seen exists is read
# afresh when opened (NFS's close-to-open), where one made on the node may stay unseen a while.
: >"$status_file" || { echo "stencil-labs: cannot write $status_file" >&2; exit 2; }
{
    echo '#!/usr/bin/env bash'
    echo "# One make check SLURM=1: the judge on the node Slurm chose; its exit status"
    echo "# is written beside the job's output for the login node to read."
    printf 'if cd %q; then' "$kit"
    printf ' %q' "$@"
    printf '; status=$?; else status=2; fi\n'
    printf 'echo "$status" >%q\n' "$status_file"
    printf 'exit "$status"\n'
} >"$script" && chmod 755 "$script" || { echo "stencil-labs: cannot write $script" >&2; exit 2; }

args=(--parsable --wait --job-name=stencil-check "--output=$logs/check-$stamp-%j.out")
gres=${SLURM_GRES-gpu:1}
[ -n "$gres" ] && args+=("--gres=$gres")
[ -n "${PARTITION:-}" ] && args+=("--partition=$PARTITION")
# shellcheck disable=SC2206  # SBATCH_ARGS is a list of options split at spaces
[ -n "${SBATCH_ARGS:-}" ] && args+=(${SBATCH_ARGS})

# sbatch prints the job id at once (--parsable) and then waits; its first line
# names the output file, which is shown as it grows until the job ends.
idfile=$logs/check-$stamp.id
: >"$idfile"
sbatch "${args[@]}" "$script" >"$idfile" 2>"$logs/check-$stamp.err" &
sbatch_pid=$!
for _ in $(seq 300); do
    [ -s "$idfile" ] && break
    kill -0 "$sbatch_pid" 2>/dev/null || break
    sleep 0.1
done
job=$(head -1 "$idfile" | cut -d';' -f1)
if [ -z "$job" ]; then
    wait "$sbatch_pid"
    echo "stencil-labs: sbatch refused the check: $(head -1 "$logs/check-$stamp.err") (PARTITION= and SBATCH_ARGS= pick where it runs)" >&2
    exit 2
fi
out=$logs/check-$stamp-$job.out
echo "make check runs as Slurm job $job${PARTITION:+ on partition $PARTITION}; its output, also in $out:"
# Shows what the output file holds beyond the first $shown bytes.
shown=0
show_new() {
    [ -f "$out" ] || return 0
    local size
    size=$(stat -c %s "$out" 2>/dev/null || echo 0)
    [ "$size" -gt "$shown" ] || return 0
    tail -c +"$((shown + 1))" "$out" | head -c "$((size - shown))"
    shown=$size
}
while kill -0 "$sbatch_pid" 2>/dev/null; do
    show_new
    sleep 0.5
done
wait "$sbatch_pid"
sbatch_status=$?
# The node may write the last lines and the status a moment after the job ends (a shared file system).
for _ in $(seq 20); do
    show_new
    [ "$shown" -gt 0 ] && [ -s "$status_file" ] && break
    sleep 0.5
done
show_new
if [ "$shown" -eq 0 ]; then
    echo "stencil-labs: Slurm job $job left no output in $out (sbatch's exit $sbatch_status): $(head -1 "$logs/check-$stamp.err")" >&2
    exit 2
fi
status=$(cat "$status_file" 2>/dev/null)
case $status in
    '' | *[!0-9]*)
        echo "stencil-labs: Slurm job $job ended before the judge did (cancelled, out of time or its node lost; sbatch's exit $sbatch_status): its output is in $out; run the check again" >&2
        exit 2 ;;
esac
exit "$status"
