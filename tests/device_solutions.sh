#!/usr/bin/env bash
# tests/device_solutions.sh — every lab's solution (and any extra kernels
# named as LAB:FILE arguments) graded in full on a GPU, JOBS at a time, GPU
# turns shared through one lock as in a class run; one block a kernel: the
# verdict, each timed case with its copy limit, the technique line, the score.
set -u
cd "$(dirname "$0")/.." || exit 2
jobs=${JOBS:-3}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s judge >/tmp/solutions-make.log 2>&1 || { tail -5 /tmp/solutions-make.log; exit 1; }
mkdir -p /tmp/solutions-locks /tmp/solutions-logs
list=/tmp/solutions.list
: >"$list"
for dir in labs/[0-9][0-9]-*/; do
    n=$(basename "$dir" | cut -c1-2)
    echo "$((10#$n)) $(build/judge --kit "$PWD" --lab "$(basename "$dir")" --conf-get solution)" >>"$list"
done
for extra in "$@"; do echo "${extra%%:*} ${extra#*:}" >>"$list"; done
one() {
    local lab=$1 f=$2 log t0
    log=/tmp/solutions-logs/$lab-$(basename "$f" .cu).txt
    t0=$(date +%s)
    build/judge --kit "$PWD" --lab "$lab" --kernel "$f" --gpu-lock-dir /tmp/solutions-locks --gpu-slots 1 >"$log" 2>&1
    {
        echo "== lab $lab $(basename "$f") ($(( $(date +%s) - t0 )) s)"
        grep -E "^verdict|: OK \(.*GB/s|copy limit:|FAIL" "$log" | cut -c1-200
        grep -E "^technique" "$log" | cut -c1-160
        grep -E "^score" "$log"
    }
}
export -f one
start=$(date +%s)
xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"' <"$list"
echo "graded $(wc -l <"$list") kernels in $(( $(date +%s) - start )) s"
