#!/usr/bin/env bash
# tests/device_cupti.sh — on a GPU machine: whether the executor's own load
# count (grader/executor/loads.cu, CUPTI's range profiler; the judge's
# default) counts what the kernels load, and how fast, beside a
# second process under Nsight Compute (the issue on the check's speed).
# Builds tests/gpu/cupti_loads_probe.cu with loads.cu, runs it (two kernels
# whose loads are known, then four launches in one count: the counts, the
# known bytes, the seconds each count took and its parts (prepared, armed,
# started, the launches, ended); a call that sets
# and copies memory before its launch, which must count as its one launch;
# then one launch
# more than the profiler holds ranges, LOADS_MAX_RANGES, which must give no
# count rather than the first launches' alone), then runs the same launches
# under ncu with the judge's metrics and prints ncu's counts and its wall
# time. Between the two, five more counts while another process's kernels
# run on the same GPU (--load): whether the count needs the GPU alone; and counts
# whose host side was made while another process's count held the profiler
# (--hold, --prepared-beside); a count waiting for the counters another
# process's count holds, and one that waits past LOADS_BUSY_WAIT_S. Exits 77 (SKIPPED) without a GPU; else one
# check (lib.sh: a closing line, exit 1 when a count differs or cannot be
# taken, the reason printed).
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
nvidia-smi -L >/dev/null 2>&1 || { echo "cupti: SKIPPED, no GPU here (nvidia-smi lists none)"; exit 77; }
command -v nvcc >/dev/null || { echo "cupti: SKIPPED, nvcc is not on PATH"; exit 77; }
out=build/tests/gpu
mkdir -p "$out"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
nvcc -O2 -std=c++17 -arch=sm_${arch:-90} -I"$cuda/extras/CUPTI/include" -Igrader/executor -Igrader/protocol -Igrader/sandbox -Ikernels \
    tests/gpu/cupti_loads_probe.cu grader/executor/loads.cu -ldl -lcuda -Xlinker -rpath="$cuda/lib64:$cuda/extras/CUPTI/lib64" \
    -o "$out/cupti_loads_probe" 2>&1 | grep -v "^$" | head -20
[ -x "$out/cupti_loads_probe" ] || { echo "cupti: the probe does not build"; exit 1; }
export LD_LIBRARY_PATH="$cuda/extras/CUPTI/lib64:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== in the process (the executor's count: CUPTI's range profiler)"
"$out/cupti_loads_probe"
status=$?
# Whether the count needs the GPU alone (the judge gives it a turn alone): five counts while
# another process's kernels run on the same GPU; each must still be the kernels' own.
echo "== in the process, another process's kernels running beside it on the GPU"
"$out/cupti_loads_probe" --load 30 &
loader=$!
sleep 2
beside=0
for k in 1 2 3 4 5; do
    said=$("$out/cupti_loads_probe")
    [ $? -eq 0 ] && beside=$((beside + 1))
    echo "$said" | grep -E "^  count 1:|^cupti probe" | tr -s ' \n' ' ' | sed "s/^ */  run $k: /; s/ *$//"; echo
done
kill "$loader" 2>/dev/null; wait "$loader" 2>/dev/null
echo "cupti probe beside another process: $beside of 5 counts the kernels' own"
# A counting executor started while another's count holds the profiler (a class's judges side by
# side) makes its host side (for the chip alone: no counter availability image is read); its count,
# taken once that session ended, must still be the kernels' own.
echo "== the host side made while another process's count holds the GPU's profiler"
"$out/cupti_loads_probe" --hold 4 &
holder=$!
sleep 2
"$out/cupti_loads_probe" --prepared-beside 4
[ $? -eq 0 ] || status=1
wait "$holder"
# A count whose start finds the counters held by another process's count waits for them (up to
# LOADS_BUSY_WAIT_S, 5 s): held 2 s more, it counts; held past the wait, it fails as busy (the judge's
# kit error: run again), never as a machine that cannot count (which would leave the floors unchecked).
echo "== a count started while another process's count holds the counters"
"$out/cupti_loads_probe" --hold 3 &
holder=$!
sleep 1
waited=$("$out/cupti_loads_probe")
[ $? -eq 0 ] || status=1
echo "$waited" | grep -E "^  count 1:|^cupti probe" | sed 's/^/  held 2 s more: /'
# (and it did wait: its first count's start took most of the 2 s the other held on)
grep -E "^  count 1:" <<<"$waited" | grep -oE "start [0-9.]+" | awk '{ exit !($2 >= 1.5) }' || { echo "  held 2 s more: the count did not wait"; status=1; }
wait "$holder"
"$out/cupti_loads_probe" --hold 9 &
holder=$!
sleep 1
busy=$("$out/cupti_loads_probe")
busy_status=$?
echo "$busy" | grep "^cupti probe" | sed 's/^/  held past the wait: /'
[ "$busy_status" -eq 2 ] && grep -q "could not start (counters-busy)" <<<"$busy" || status=1
wait "$holder"
if command -v ncu >/dev/null; then
    echo "== under Nsight Compute (a second process, as the judge runs it today)"
    start=$(date +%s.%N)
    ncu --csv --print-units base --metrics smsp__sass_data_bytes_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_shared_op_ld.sum \
        --clock-control none --cache-control none "$out/cupti_loads_probe" --plain 2>&1 |
        grep -E '"probe_' | awk -F'","' '{ printf "  %s %s %s\n", $5, $(NF-2), $NF }' | tr -d '"' | cut -c1-120
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "  ncu took %.2f s in all\n", e - s }'
fi
case $status in
0) pass "the executor's load counts are the kernels' own: alone, four launches in one count, a call that sets memory, with the host side made beside another count, and after waiting for another's; counters held past the wait say busy" ;;
2) fail "the executor's load count could not be taken" "the probe's reason is above" ;;
*) fail "the executor's load counts are the kernels' own" "a count differs: the lines above" ;;
esac
finish cupti
