set -u
exec > $OUT/main.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s judge >/dev/null 2>&1
mkdir -p /tmp/stu && cp reference/solutions/01-naive-sweep.cu /tmp/stu/k.cu
s=$(date +%s%N); make -s check LAB=1 KERNEL=/tmp/stu/k.cu > $OUT/cold.txt 2>&1; echo "cold LAB=1 $(( ($(date +%s%N) - s) / 1000000 )) ms"; grep -E "^time|^verdict|N=512" $OUT/cold.txt
echo "// edit" >> /tmp/stu/k.cu; s=$(date +%s%N); STENCIL_TRACE=1 make -s check LAB=1 KERNEL=/tmp/stu/k.cu > $OUT/warm.txt 2>&1; echo "warm LAB=1 $(( ($(date +%s%N) - s) / 1000000 )) ms"; grep -E "^time|^verdict|N=512|trace: N=512|trace: :" $OUT/warm.txt
for l in 2 5; do f=$(ls reference/solutions/0$l-*.cu); cp $f /tmp/stu/k$l.cu; make -s check LAB=$l KERNEL=/tmp/stu/k$l.cu >/dev/null 2>&1; echo "// e" >> /tmp/stu/k$l.cu; s=$(date +%s%N); make -s check LAB=$l KERNEL=/tmp/stu/k$l.cu > $OUT/warm$l.txt 2>&1; echo "warm LAB=$l $(( ($(date +%s%N) - s) / 1000000 )) ms"; grep -E "^time|^verdict|^score" $OUT/warm$l.txt; done
for l in 9 10 5; do s=$(date +%s); timeout ${T:-150} tests/labs.sh gpu $l > $OUT/labs$l.log 2>&1; echo "labs.sh gpu $l: $(tail -1 $OUT/labs$l.log) ($(( $(date +%s) - s )) s)"; grep -E "MISMATCH" $OUT/labs$l.log | head -5; done
