#!/usr/bin/env bash
# tests/device_all.sh — the GPU suites in one call: LABS (default all) through
# tests/labs.sh gpu, then, unless NO_EXTRAS=1, the sync table and make grade
# with JOBS=4. Logs under $OUT; a short table last.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s judge >"$out/make.log" 2>&1 || { tail -5 "$out/make.log"; exit 1; }
for lab in ${LABS:-$(ls -d labs/[0-9][0-9]-* | sed -E 's|^labs/0?([0-9]+)-.*|\1|')}; do
    start=$(date +%s)
    tests/labs.sh gpu "$lab" >"$out/labs$lab.log" 2>&1
    echo "labs.sh gpu $lab: $(tail -1 "$out/labs$lab.log") ($(( $(date +%s) - start )) s)"
    grep -E "MISMATCH" "$out/labs$lab.log" | head -5
done
if [ "${NO_EXTRAS:-0}" != 1 ]; then
    tests/device_sync.sh >"$out/sync.log" 2>&1; sed -n '/^kernel/,/^==/p' "$out/sync.log" | grep -v "^==" | cut -c1-140
    tests/grade_gpu.sh 1 >"$out/grade_gpu1.log" 2>&1; tail -4 "$out/grade_gpu1.log"
fi
exit 0
