set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t() { local s=$(date +%s%N); "$@"; echo "  [$(( ($(date +%s%N) - s) / 1000000 )) ms] $*" >&2; }
make -s judge >/dev/null 2>&1
mkdir -p /tmp/stu && cp reference/solutions/01-naive-sweep.cu /tmp/stu/k.cu
echo "== cold (executor and runners built)"; t make -s check LAB=1 KERNEL=/tmp/stu/k.cu > $OUT/cold.txt 2>&1; grep -E "^time|^verdict" $OUT/cold.txt
echo "== warm, file edited"; echo "// edit" >> /tmp/stu/k.cu; t make -s check LAB=1 KERNEL=/tmp/stu/k.cu > $OUT/warm.txt 2>&1; grep -E "^time|^verdict" $OUT/warm.txt
echo "== warm, unchanged, traced"; STENCIL_TRACE=1 make -s check LAB=1 KERNEL=/tmp/stu/k.cu > $OUT/warm2.txt 2>&1; grep -E "^time|^verdict|^trace" $OUT/warm2.txt
echo "== lab 2 solution warm"; cp reference/solutions/02-shared-tile.cu /tmp/stu/k2.cu; make -s check LAB=2 KERNEL=/tmp/stu/k2.cu >/dev/null 2>&1; echo "// e" >> /tmp/stu/k2.cu; t make -s check LAB=2 KERNEL=/tmp/stu/k2.cu > $OUT/warm_l2.txt 2>&1; grep -E "^time|^verdict|^technique" $OUT/warm_l2.txt | cut -c1-200
echo "== lab 5 solution warm"; cp reference/solutions/05-jacobi.cu /tmp/stu/k5.cu; make -s check LAB=5 KERNEL=/tmp/stu/k5.cu >/dev/null 2>&1; echo "// e" >> /tmp/stu/k5.cu; t make -s check LAB=5 KERNEL=/tmp/stu/k5.cu > $OUT/warm_l5.txt 2>&1; grep -E "^time|^verdict" $OUT/warm_l5.txt
for l in 10 5; do s=$(date +%s); timeout 200 tests/labs.sh gpu $l > $OUT/labs$l.log 2>&1; echo "labs.sh gpu $l: $(tail -1 $OUT/labs$l.log) ($(( $(date +%s) - s )) s)"; grep -E "MISMATCH|FAIL" $OUT/labs$l.log | head -5; done
