#!/usr/bin/env bash
# tests/device_all.sh — the GPU suites in one call of under ten minutes: every
# lab (LABS, default all) through tests/labs.sh gpu with its judges side by
# side over the machine's GPUs (GPUS, default all of them; JOBS judges, default
# tests/labs.sh's own default, said in labs.log); then, unless NO_EXTRAS=1, the sync table and make grade on a
# GPU. Logs under $OUT (each lab's lines in labs.log, mismatched runs' JSON
# reports in mismatch.tgz: eight files at most come back from a device); a
# short table last, with the seconds each part took.
# LIMIT=s stops the labs after s seconds (default 520: with the build, the checker and the extras, about 560 s, under the device's ten minutes a call), saying so.
# CLASS=n first grades a traced class of n lab-4 files on one GPU (GPUS=1,
# whatever GPUS the labs get: its timeline reads one GPU's turns)
# (tests/bench/class_speed.sh, STENCIL_TRACE=1): its figures, where the GPU's
# time went, how many load counts were prepared late and how many racecheck
# runs (compute-sanitizer) took over 10 s, in class.txt; its results in class.tgz. The labs' LIMIT
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
start=$(date +%s)
make -s judge >"$out/make.log" 2>&1 || { tail -5 "$out/make.log"; exit 1; }
# The executor built once, before the judges side by side wait on its build lock.
# Traced: where one check's time goes (STENCIL_TRACE=1), in first.log.
STENCIL_TRACE=1 build/judge --kit "$PWD" --lab 1 --backend gpu --kernel reference/solutions/01-naive-sweep.cu >"$out/first.log" 2>&1
grep -E "^(verdict|time):" "$out/first.log"
echo "built the judge and the executor: $(( $(date +%s) - start )) s"
tests/device_checker.sh >"$out/checker.log" 2>&1; grep -E "FAIL|checker:" "$out/checker.log" | head -8
if [ -n "${CLASS:-}" ]; then
    t=$(date +%s)
    kept=$(mktemp -d)
    STENCIL_TRACE=1 KEEP="$kept/class" GPUS=1 tests/bench/class_speed.sh "$CLASS" >"$out/class.txt" 2>&1
    traces=$(cat "$kept"/class/results/*.txt 2>/dev/null)
    {
        echo "counts prepared late: $(grep -c "preparation at its executor's start failed" <<<"$traces") of $(grep -c "count_begun" <<<"$traces")"
        echo "sanitizer runs over 10 s, waits for their turn included: $(grep -oE "N=[0-9x]+: input [0-9.]+ s, runner [0-9.]+ s from [0-9.]+ \( device [0-9.]+ locked" <<<"$traces" |
            awk '{ if ($6 > 10) n++ } END { print n + 0 }')"
    } >>"$out/class.txt"
    tar -czf "$out/class.tgz" -C "$kept" class 2>/dev/null
    rm -rf "$kept"
    sed -n '/^class of/,$p' "$out/class.txt" | grep -vE "^student-|^summary|held then" | head -24
    echo "class: $(( $(date +%s) - t )) s"
fi
labs_start=$(date +%s)
read -r -a labs <<<"${LABS:-}"
mismatch=$(mktemp -d)
TIMES="$out/times.tsv" GPUS=$gpus JOBS=${JOBS:-} MISMATCH_DIR="$mismatch" timeout "${LIMIT:-520}" tests/labs.sh gpu "${labs[@]}" >"$out/labs.log" 2>&1
status=$?
labs_s=$(( $(date +%s) - labs_start ))
[ -n "$(ls "$mismatch")" ] && tar -czf "$out/mismatch.tgz" -C "$mismatch" .
[ "$status" -eq 124 ] && echo "the labs reached LIMIT=${LIMIT:-520} s and were stopped: the table counts what ended"
printf '%-26s %6s %6s %8s %7s %7s %7s %7s\n' lab passed failed "runs(s)" build cases loads sol
for lab in $(grep '^== ' "$out/labs.log" | cut -d' ' -f2); do
    p=$(sed -n "/^== $lab /,/^== /p" "$out/labs.log" | grep -cE ' ok: | ok$')
    f=$(sed -n "/^== $lab /,/^== /p" "$out/labs.log" | grep -c 'MISMATCH')
    sums=$(awk -F'\t' -v l="$lab" '$1 == l { t += $3; b += $4; c += $5; o += $6; s += $7 } END { printf "%8.0f %7.0f %7.0f %7.0f %7.0f", t, b, c, o, s }' "$out/times.tsv" 2>/dev/null)
    printf '%-26s %6s %6s %s\n' "$lab" "$p" "$f" "$sums"
done
echo "slowest runs (lab, file, total, build, cases, loads, solution):"
sort -t$'\t' -k3,3 -rn "$out/times.tsv" 2>/dev/null | head -8
tail -1 "$out/labs.log"
grep -E "MISMATCH|FAIL" "$out/labs.log" | head -20
echo "labs: $labs_s s ($(grep -m1 '^labs: .* judges' "$out/labs.log" | cut -d' ' -f2-))"
if [ "${NO_EXTRAS:-0}" != 1 ]; then
    t=$(date +%s)
    tests/device_sync.sh >"$out/sync.log" 2>&1; sed -n '/^kernel/,/^==/p' "$out/sync.log" | grep -v "^==" | cut -c1-140
    tests/grade_gpu.sh 1 >"$out/grade_gpu1.log" 2>&1; tail -4 "$out/grade_gpu1.log"
    echo "extras: $(( $(date +%s) - t )) s"
fi
echo "device_all: $(( $(date +%s) - start )) s in all"
exit 0
