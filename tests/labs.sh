#!/usr/bin/env bash
# tests/labs.sh — the lab pipeline, end to end, on one backend: every lab's
# solution and every odd-but-correct kernel in tests/variants/<lab>/ must
# pass, its skeleton must fail with "nothing written", every
# mutant in tests/mutants/<lab>/ must fail with the hint its header names, and
# the hostile submissions in tests/hostile/<lab>/ must be caught as their headers
# say (an "expect-error:" one refused with that text in the judge's stderr).
# Each judge run draws fresh random inputs; its seed is printed.
#
# usage: tests/labs.sh gpu|emu [LAB_NUMBER...] [--match PATTERN]
# KINDS="solution skeleton mutant variant hostile" (the default: all) runs only those kinds;
# --match runs only the files whose "LAB LABEL" (01-naive-sweep mutant x-swapped) matches.
# MISMATCH_DIR=DIR keeps each mismatched run's JSON report and stderr there.
# JOBS=n runs n judges side by side (default 1; with GPUS, 12 a GPU, or one a GPU
# per 8 GiB of its memory when fewer (a large whole solve holds about 6 GiB), at
# most three quarters of the CPUs: 24 ran every file on two H200s and 32 CPUs), each given
# --jobs (the CPUs over JOBS, 2 at least: its share for workers and threads); GPUS=n
# spreads them over n GPUs. Side by side on a GPU they take turns through the
# judge's lock files (a timed case runs alone on its GPU): GPU_LOCK_DIR=DIR
# names the folder, else one of this run's own. Lines print in order, as each
# lab's runs end. TIMES=FILE appends each run's seconds (lab, file, total,
# build, cases, load count, solution) to FILE, tab-separated. RESULTS=FILE
# appends each run's verdict, hint keys and technique status to FILE, one line
# a run (tests/parity/parity.py's fields; tests/compare.sh reads them).
# TRACE_DIR=DIR runs each judge with STENCIL_TRACE=1 and keeps its stderr there
# (LAB-FILE.err): where each case's time and GPU turns went.
# Prints a line per kernel and a closing "N passed, M failed"; exits 1 on any mismatch.
set -u
[ -n "${RESULTS:-}" ] && RESULTS=$(realpath -m "$RESULTS")  # named from the caller's folder
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
backend=${1:?usage: tests/labs.sh gpu|emu [LAB...]}
shift
kit=$PWD
JUDGE=${JUDGE:-build/judge}
[ "$JUDGE" = build/judge ] && { make -s judge || exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gpus=${GPUS:-1}
cpus=$(nproc)
most=$((cpus * 3 / 4 > 1 ? cpus * 3 / 4 : 1))
per_gpu=12
memory_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | sort -n | head -1)
[ "$backend" = gpu ] && [ -n "$memory_mib" ] && [ "$memory_mib" -ge 0 ] 2>/dev/null && [ $((memory_mib / 8192)) -lt $per_gpu ] &&
    per_gpu=$((memory_mib / 8192 > 1 ? memory_mib / 8192 : 1))
jobs=${JOBS:-$([ -n "${GPUS:-}" ] && echo $((per_gpu * gpus < most ? per_gpu * gpus : most)) || echo 1)}
[ "$backend" = gpu ] && [ "$jobs" -gt 1 ] && echo "labs: $jobs judges side by side over $gpus GPU(s)"
lock_dir=${GPU_LOCK_DIR:-}
share=$((cpus / jobs))
[ "$share" -ge 2 ] || share=2  # two at least: the tool runs beside the cases need a second
if [ "$backend" = gpu ] && [ -z "$lock_dir" ] && { [ "$jobs" -gt 1 ] || [ "$gpus" -gt 1 ]; }; then
    lock_dir=$out/gpu-locks
    mkdir -p "$lock_dir"
fi
entries=0   # lines queued (runs and notes), printed in order by flush
printed=0

# run_check I LAB KERNEL LABEL [HINT] [JUDGE OPTIONS...] — one judge run, checked by tests/expect.py;
# leaves its line in $out/line.I and its outcome (pass or fail) in $out/outcome.I.
run_check() {
    local i=$1 lab=$2 kernel=$3 label=$4 hint=$5
    shift 5
    local json="$out/run.$i.json" err="$out/run.$i.err" status result outcome=pass
    local turns=()
    [ -n "$lock_dir" ] && turns=(--gpu-lock-dir "$lock_dir" --gpu-slots "$gpus")
    [ "$jobs" -gt 1 ] && turns+=(--jobs "$share")  # each judge's share of the CPUs (its workers and its threads)
    local trace=()
    [ -n "${TRACE_DIR:-}" ] && trace=(env STENCIL_TRACE=1)
    "${trace[@]}" "$JUDGE" --kit "$kit" --lab "$lab" --kernel "$kernel" --backend "$backend" --json "${turns[@]}" "$@" >"$json" 2>"$err"
    status=$?
    [ -n "${TRACE_DIR:-}" ] && mkdir -p "$TRACE_DIR" && cp "$err" "$TRACE_DIR/$lab-$(basename "$kernel" .cu).err"
    if [ -n "$hint" ]; then
        result=$(JUDGE_STDERR="$err" python3 tests/expect.py "$kernel" "$json" "$status" "$hint")
    else
        result=$(JUDGE_STDERR="$err" python3 tests/expect.py "$kernel" "$json" "$status")
    fi
    if [ $? -ne 0 ]; then
        outcome=fail
        if [ -n "${MISMATCH_DIR:-}" ]; then
            mkdir -p "$MISMATCH_DIR"
            cp "$json" "$MISMATCH_DIR/$lab-$(basename "$kernel" .cu).json"
            cp "$err" "$MISMATCH_DIR/$lab-$(basename "$kernel" .cu).err"
        fi
    fi
    if [ -n "${TIMES:-}" ]; then  # where this run's time went (the JSON report's seconds), one line a run
        python3 -c 'import json, os, sys
try:
    s = json.load(open(sys.argv[1])).get("seconds", {})
except Exception:
    s = {}
os.write(1, ("%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n" % (sys.argv[2], sys.argv[3], s.get("total", 0), s.get("build", 0), s.get("cases", 0),
                                                       s.get("loads", 0), s.get("solution", 0))).encode())  # one write: runs append side by side' \
            "$json" "$lab" "$label" >>"$TIMES"
    fi
    [ -n "${RESULTS:-}" ] && python3 tests/parity/parity.py line "$backend" "$lab" "$kernel" "$json" "$status" >>"$RESULTS"
    rm -f "$json" "$err"
    printf '  %-44s %s\n' "$label" "$result" >"$out/line.$i"
    echo "$outcome" >"$out/outcome.$i"
}

# queue_run LAB KERNEL LABEL [HINT] [JUDGE OPTIONS...] — queues one judge run (at most JOBS at a
# time), unless --match leaves "LAB LABEL" out.
queue_run() {
    selected "$1 $3" || return 0
    entries=$((entries + 1))
    if [ "$jobs" -le 1 ]; then
        run_check "$entries" "$@"
        flush
        return
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
    done
    run_check "$entries" "$@" &
}

# note TEXT — queues a line that is no run (a lab's heading, a file left out on this backend).
note() {
    entries=$((entries + 1))
    printf '%s\n' "$1" >"$out/line.$entries"
    [ "$jobs" -le 1 ] && flush
}

# stopped — on SIGTERM (a time limit): the runs that ended, in order, with a
# line for each that did not, then the count; exits 124.
stopped() {
    trap - TERM
    kill $(jobs -rp) 2>/dev/null
    while [ "$printed" -lt "$entries" ]; do
        printed=$((printed + 1))
        if [ -e "$out/line.$printed" ]; then
            cat "$out/line.$printed"
            [ ! -e "$out/outcome.$printed" ] || count_outcome "$(cat "$out/outcome.$printed")"
        fi
    done
    totals_line "labs on $backend" "(stopped by a time limit before every run ended)"
    exit 124
}
trap stopped TERM

# flush — prints the queued lines whose runs have ended, in order, and counts them.
flush() {
    while [ "$printed" -lt "$entries" ] && [ -e "$out/line.$((printed + 1))" ]; do
        printed=$((printed + 1))
        cat "$out/line.$printed"
        [ ! -e "$out/outcome.$printed" ] || count_outcome "$(cat "$out/outcome.$printed")"
    done
}

KINDS=${KINDS:-solution skeleton mutant variant hostile}
for kind in $KINDS; do
    case $kind in solution | skeleton | mutant | variant | hostile) ;;
    *) echo "tests/labs.sh: KINDS has '$kind': the kinds are solution, skeleton, mutant, variant, hostile" >&2; exit 2 ;;
    esac
done
wants() { grep -qw "$1" <<<"$KINDS"; }
# A run that stops at its first failing case (--fail-fast) runs its cases one at a time under
# emulation: side by side, every case the judge started runs to its end (a hanging file's each
# to its time limit) before the count stops at the first failure, work the verdict never reads.
stop_at_first_failure=(--fail-fast)
[ "$backend" = emu ] && stop_at_first_failure+=(--jobs 1)
labs=("$@")
if [ ${#labs[@]} -eq 0 ]; then
    for d in labs/[0-9][0-9]-*/; do labs+=("$(basename "$d")"); done
fi
for lab in "${labs[@]}"; do
    if [[ $lab =~ ^[0-9]+$ ]]; then  # a number names exactly one lab: 1 is 01-..., never 10-...
        dir=$(ls -d labs/"$(printf '%02d' "$((10#$lab))")"-* 2>/dev/null | head -1)
    else
        dir=$(ls -d labs/"$lab"* 2>/dev/null | head -1)
    fi
    [ -n "$dir" ] || { wait; flush; echo "no lab $lab"; count_outcome fail; continue; }
    name=$(basename "$dir")
    solution=$("$JUDGE" --kit "$kit" --lab "$name" --conf-get solution)
    skeleton=$("$JUDGE" --kit "$kit" --lab "$name" --conf-get kernel)
    note "== $name ($backend)"
    wants solution && queue_run "$name" "$solution" "solution" ""
    wants skeleton && queue_run "$name" "$skeleton" "skeleton" "nothing-written" "${stop_at_first_failure[@]}"
    for m in tests/mutants/"$name"/*.cu; do
        [ -e "$m" ] && wants mutant || continue
        backends=$(sed -n 's|^// backends: *||p' "$m" | head -1)  # where its mistake shows (as for hostile files)
        if [ -n "$backends" ] && ! grep -qw "$backend" <<<"$backends"; then
            note "$(printf '  %-44s %s' "mutant $(basename "$m" .cu)" "not on $backend (its header: backends: $backends)")"
            continue
        fi
        # A mutant may narrow its run with a "// judge-args: ..." header line (e.g. one case).
        read -r -a margs <<<"$(sed -n 's|^// judge-args: *||p' "$m" | head -1)"
        # A technique mutant passes its cases; on a GPU a race's mutant (a barrier hint expected) runs every
        # case: its race can show as wrong values of any pattern in a case before the sync case, whose
        # racecheck names it (as make check, which runs every case, names both to a student; on an H200
        # lab 0's no-barrier-after-load once stopped at 29x37 as ghost-cells). Emulation's orders are seeded.
        every_case='^// expect-hint: technique$'
        [ "$backend" = gpu ] && every_case='^// expect-hint: (technique|missing-barrier|thread-order|divergent-barrier)$'
        if grep -qE "$every_case" "$m"; then
            queue_run "$name" "$m" "mutant $(basename "$m" .cu)" "" "${margs[@]}"
        else
            queue_run "$name" "$m" "mutant $(basename "$m" .cu)" "" "${stop_at_first_failure[@]}" "${margs[@]}"
        fi
    done
    for v in tests/variants/"$name"/*.cu; do  # odd but correct: must pass
        [ -e "$v" ] && wants variant || continue
        queue_run "$name" "$v" "variant $(basename "$v" .cu)" ""
    done
    # Hostile submissions: tests/hostile/<lab>/, as the mutants and variants.
    # A "// backends:" header names where the expectation holds (emulation cannot
    # catch what needs timing); "// judge-args:" may widen the time limit.
    hostile_dir=tests/hostile/$name
    for h in "$hostile_dir"/*.cu; do
        [ -e "$h" ] && wants hostile || continue
        backends=$(sed -n 's|^// backends: *||p' "$h" | head -1)
        if [ -n "$backends" ] && ! grep -qw "$backend" <<<"$backends"; then
            note "$(printf '  %-44s %s' "hostile $(basename "$h" .cu)" "not on $backend (its header: backends: $backends)")"
            continue
        fi
        read -r -a hargs <<<"$(sed -n 's|^// judge-args: *||p' "$h" | head -1)"
        [ ${#hargs[@]} -eq 0 ] && hargs=(--timeout 8)
        queue_run "$name" "$h" "hostile $(basename "$h" .cu)" "" "${stop_at_first_failure[@]}" "${hargs[@]}"
    done
    flush
done
wait
flush
finish "labs on $backend"
