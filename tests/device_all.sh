#!/usr/bin/env bash
# tests/device_all.sh — the GPU suites in one call of under ten minutes: every
# lab (LABS, default all) through tests/labs.sh gpu with its judges side by
# side over the machine's GPUs (GPUS, default all of them; JOBS judges, default
# tests/labs.sh's own default, said in labs.log); then, unless NO_EXTRAS=1, the sync table and make grade on a
# GPU. Logs under $OUT in three files (eight at most come back from a
# device, and the caller may want its own): labs.log (each lab's lines),
# times.tsv (each run's seconds) and logs.tgz (every log, labs.log's and
# times.tsv's copies included; the mismatched runs' JSON reports and
# stderr under mismatch/; with TRACE=1, each judge's trace, tests/labs.sh's
# TRACE_DIR, under trace/). A short table last, with the seconds each part took.
# LIMIT=s stops the labs after s seconds (default 520: with the build, the checker and the extras, about 560 s, under the device's ten minutes a call), saying so.
# CLASS=n first grades a traced class of n lab-4 files on one GPU (GPUS=1,
# whatever GPUS the labs get: its timeline reads one GPU's turns)
# (tests/bench/class_speed.sh, STENCIL_TRACE=1): its figures, where the GPU's
# time went, how many load counts were prepared late and how many racecheck
# runs (compute-sanitizer) took over 10 s, in class.txt; its results in class.tgz (both in logs.tgz). The labs' LIMIT
# counts from after it.
set -u
cd "$(dirname "$0")/.." || exit 2
for setting in CLASS LIMIT; do  # (before anything runs: a typo costs no device time)
    value=${!setting:-}
    [ -z "$value" ] || [[ $value =~ ^[1-9][0-9]*$ ]] ||
        { echo "device_all: $setting=$value is no whole number: CLASS is the class's files (say 32), LIMIT the labs' seconds (say 400)"; exit 2; }
done
out=${OUT:-/tmp}
mkdir -p "$out"
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "$gpus" -ge 1 ] || { echo "device_all: no GPU here (nvidia-smi lists none)"; exit 77; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c
logs=$(mktemp -d)  # every log, packed into $out/logs.tgz at the end
pack() {
    cp "$logs/labs.log" "$logs/times.tsv" "$out/" 2>/dev/null
    tar -czf "$out/logs.tgz" -C "$logs" . && rm -rf "$logs"
}
trap pack EXIT
start=$(date +%s)
make -s judge >"$logs/make.log" 2>&1 || { tail -5 "$logs/make.log"; exit 1; }
# The executor built once, before the judges side by side wait on its build lock.
# Traced: where one check's time goes (STENCIL_TRACE=1), in first.log.
STENCIL_TRACE=1 build/judge --kit "$PWD" --lab 1 --backend gpu --kernel reference/solutions/01-naive-sweep.cu >"$logs/first.log" 2>&1
grep -E "^(verdict|time):" "$logs/first.log"
echo "built the judge and the executor: $(( $(date +%s) - start )) s"
tests/device_checker.sh >"$logs/checker.log" 2>&1; grep -E "FAIL|checker:" "$logs/checker.log" | head -8
if [ -n "${CLASS:-}" ]; then
    t=$(date +%s)
    kept=$(mktemp -d)
    STENCIL_TRACE=1 KEEP="$kept/class" GPUS=1 tests/bench/class_speed.sh "$CLASS" >"$logs/class.txt" 2>&1
    traces=$(cat "$kept"/class/results/*.txt 2>/dev/null)
    {
        echo "counts prepared late: $(grep -c "preparation at its executor's start failed" <<<"$traces") of $(grep -c "count_begun" <<<"$traces")"
        echo "sanitizer runs over 10 s, waits for their turn included: $(grep -oE "N=[0-9x]+: input [0-9.]+ s, runner [0-9.]+ s from [0-9.]+ \( device [0-9.]+ locked" <<<"$traces" |
            awk '{ if ($6 > 10) n++ } END { print n + 0 }')"
    } >>"$logs/class.txt"
    tar -czf "$logs/class.tgz" -C "$kept" class 2>/dev/null
    rm -rf "$kept"
    sed -n '/^class of/,$p' "$logs/class.txt" | grep -vE "^student-|^summary|held then" | head -24
    echo "class: $(( $(date +%s) - t )) s"
fi
labs_start=$(date +%s)
read -r -a labs <<<"${LABS:-}"
trace=()
[ "${TRACE:-0}" = 1 ] && trace=(env TRACE_DIR="$logs/trace")
TIMES="$logs/times.tsv" GPUS=$gpus JOBS=${JOBS:-} MISMATCH_DIR="$logs/mismatch" "${trace[@]}" timeout "${LIMIT:-520}" tests/labs.sh gpu "${labs[@]}" >"$logs/labs.log" 2>&1
status=$?
labs_s=$(( $(date +%s) - labs_start ))
[ "$status" -eq 124 ] && echo "the labs reached LIMIT=${LIMIT:-520} s and were stopped: the table counts what ended"
printf '%-26s %6s %6s %8s %7s %7s %7s %7s\n' lab passed failed "runs(s)" build cases loads sol
for lab in $(grep '^== ' "$logs/labs.log" | cut -d' ' -f2); do
    p=$(sed -n "/^== $lab /,/^== /p" "$logs/labs.log" | grep -cE ' ok: | ok$')
    f=$(sed -n "/^== $lab /,/^== /p" "$logs/labs.log" | grep -c 'MISMATCH')
    sums=$(awk -F'\t' -v l="$lab" '$1 == l { t += $3; b += $4; c += $5; o += $6; s += $7 } END { printf "%8.0f %7.0f %7.0f %7.0f %7.0f", t, b, c, o, s }' "$logs/times.tsv" 2>/dev/null)
    printf '%-26s %6s %6s %s\n' "$lab" "$p" "$f" "$sums"
done
echo "slowest runs (lab, file, total, build, cases, loads, solution):"
sort -t$'\t' -k3,3 -rn "$logs/times.tsv" 2>/dev/null | head -8
tail -1 "$logs/labs.log"
grep -E "MISMATCH|FAIL" "$logs/labs.log" | head -20
echo "labs: $labs_s s ($(grep -m1 '^labs: .* judges' "$logs/labs.log" | cut -d' ' -f2-))"
if [ "${NO_EXTRAS:-0}" != 1 ]; then
    t=$(date +%s)
    mkdir -p "$logs/sync"; OUT="$logs/sync" tests/device_sync.sh >"$logs/sync.log" 2>&1; sed -n '/^kernel/,/^==/p' "$logs/sync.log" | grep -v "^==" | cut -c1-140
    tests/grade_gpu.sh 1 >"$logs/grade_gpu1.log" 2>&1; tail -4 "$logs/grade_gpu1.log"
    echo "extras: $(( $(date +%s) - t )) s"
fi
echo "device_all: $(( $(date +%s) - start )) s in all"
exit 0
