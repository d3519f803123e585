set -u
exec > $OUT/main.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s judge >/dev/null 2>&1
mkdir -p /tmp/stu
for l in 1 2 5 0; do f=$(ls reference/solutions/0$l-*.cu); cp $f /tmp/stu/k$l.cu
  make -s check LAB=$l KERNEL=/tmp/stu/k$l.cu > /dev/null 2>&1
  echo "// e" >> /tmp/stu/k$l.cu; s=$(date +%s%N); STENCIL_TRACE=1 make -s check LAB=$l KERNEL=/tmp/stu/k$l.cu > $OUT/warm$l.txt 2>&1; echo "warm LAB=$l $(( ($(date +%s%N) - s) / 1000000 )) ms: $(grep -E '^time' $OUT/warm$l.txt)"; grep -E "^verdict" $OUT/warm$l.txt
done
for m in tests/mutants/08-order-two-register/no-barrier-before-overwrite.cu tests/mutants/02-shared-tile/no-barrier-after-load.cu tests/mutants/02-shared-tile/barrier-in-branch.cu tests/mutants/04-register-tiling/early-return-before-barrier.cu; do
  l=$(basename $(dirname $m) | cut -c1-2 | sed 's/^0//'); s=$(date +%s)
  build/judge --kit . --lab $l --kernel $m --json 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); print('$m', [ (c['name'], c.get('hint_key'), c.get('note','')[:90]) for c in d['cases'] if c['status']=='fail'][:4])"; echo "  ($(( $(date +%s) - s )) s)"
done
s=$(date +%s); timeout 200 tests/labs.sh gpu 8 > $OUT/labs8.log 2>&1; echo "labs 8 ($(( $(date +%s) - s )) s): $(tail -1 $OUT/labs8.log | cut -c1-100)"; grep MISMATCH $OUT/labs8.log
