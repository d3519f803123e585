#!/usr/bin/env bash
# tests/grade_fake_judge.sh — build/grade's own paths in seconds, with a fake
# build/judge: a kit folder of the test's own holds lab 1's lab.conf and a
# shell script in place of the judge, which does what the first line of each
# submission says (pass at a speed, fail with a hint, die by a signal, exit
# without a report, hang, forget its JSON report). Checked against what the
# fakes did: the class's rows, class.html (the speed strip, the GPU's name,
# the kit's version), the wall limit, a stopped run's missing rows, the Slurm
# job array (a fake sbatch that runs each task: the task script, the options,
# the array list), the --task runs, and every refusal of the command line and
# of an unwritable results folder. Speeds, hints and the kit's commit come
# from the printed seed.
#
# usage: tests/grade_fake_judge.sh [--match PATTERN]   BUILD= picks the build/grade under test
# Prints a line per check and "grade (fake judge): N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
draw_seed "class grader with a fake judge"
RANDOM=$seed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "${BUILD:-}" ] || make -s judge || exit 1
grade=$PWD/${BUILD:-build}/grade

# The kit: lab 1's lab.conf, the fake judge, the grade under test as the kit's
# own (a Slurm task runs the kit's build/grade), and a git HEAD to name.
kit=$tmp/kit
mkdir -p "$kit/labs" "$kit/build" "$kit/.git/refs/heads" "$tmp/bin" "$tmp/nobin"
cp -r labs/01-naive-sweep "$kit/labs/"
ln -s "$grade" "$kit/build/grade"
cat >"$kit/build/judge" <<'EOF'
#!/bin/sh
# The fake judge: logs its arguments and does what the kernel file's first line says.
echo "$*" >>"$FAKE_JUDGE_LOG"
while [ $# -gt 1 ]; do
    case $1 in
    --kernel) kernel=$2 ;;
    --summary-out) summary=$2 ;;
    --json-out) json=$2 ;;
    --html-out) html=$2 ;;
    esac
    shift
done
read -r what first second <"$kernel"
case $what in
pass | fail | no-json | pretty)
    verdict=pass score=10 technique=ok hint= speed=$first
    [ "$what" = fail ] && verdict=fail score=4 technique=fail hint=$first speed=$second
    printf 'status=graded\nverdict=%s\nscore=%s\nmax_score=10\nlab_max_score=10\ntechnique=%s\nbandwidth_fraction=%s\nbackend=gpu\ndevice=%s\nhint=%s\nmessage=%s\nexit=0\n' \
        "$verdict" "$score" "$technique" "$speed" "$FAKE_DEVICE" "$hint" "${hint:+cell (1,2,3) wrong}" >"$summary"
    [ "$what" = no-json ] || echo "{\"verdict\": \"$verdict\"}" >"$json"
    [ "$what" = pretty ] && printf '{\n  "verdict": "%s"\n}\n' "$verdict" >"$json"
    echo "<html><body>$verdict</body></html>" >"$html"
    echo "verdict: $verdict" ;;
kit-error)  # the judge's own report of the kit's error (a load count's counters busy, say)
    printf 'status=error\nverdict=error\nstage=cases\nmessage=the loads of case N=512 could not be counted: counters busy\nexit=2\n' >"$summary"
    echo '{"verdict": "error"}' >"$json"
    echo "error: counters busy" >&2; exit 2 ;;
signal) kill -KILL $$ ;;
quits) echo "the judge's last word"; exit 3 ;;
hang) exec sleep 60 ;;
deaf) trap '' TERM; while :; do sleep 1; done ;;
esac
EOF
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
# The fake sbatch: logs its arguments, then runs the script once for each index of --array
# (N, N-M, comma-separated) as Slurm's tasks would, but not FAKE_SBATCH_SKIP's.
echo "$*" >"$FAKE_SBATCH_LOG"
for arg; do
    case $arg in --array=*) list=${arg#--array=} ;; esac
    script=$arg
done
for part in $(echo "$list" | tr , ' '); do
    i=${part%-*}
    while [ "$i" -le "${part#*-}" ]; do
        [ "$i" = "${FAKE_SBATCH_SKIP:-}" ] || SLURM_ARRAY_TASK_ID=$i sh "$script" >/dev/null 2>&1
        i=$((i + 1))
    done
done
echo 4242
EOF
chmod +x "$kit/build/judge" "$tmp/bin/sbatch"
export FAKE_JUDGE_LOG=$tmp/judge-args.log FAKE_SBATCH_LOG=$tmp/sbatch-args.log FAKE_DEVICE="Fake <GPU> & Co"
commit=$(for _ in 1 2 3 4 5; do printf '%08x' $(((RANDOM << 16) ^ RANDOM)); done)
echo "ref: refs/heads/main" >"$kit/.git/HEAD"
echo "$commit" >"$kit/.git/refs/heads/main"

# csv_field CSV SUBMISSION COLUMN: the cell of summary.csv's row SUBMISSION in COLUMN.
csv_field() {
    python3 - "$@" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    if row["submission"] == sys.argv[2]:
        print(row[sys.argv[3]])
PY
}

# submission DIR NAME LINE: writes the submission DIR/NAME whose first line tells the fake judge what to do.
submission() {
    mkdir -p "$1"
    echo "$3" >"$1/$2"
}

# stop_once_judging PID: once a fake judge has started (its log was emptied before), sends the
# grade PID SIGTERM and sets status to its exit status.
stop_once_judging() {
    for _ in $(seq 1 100); do
        [ -s "$FAKE_JUDGE_LOG" ] && break
        sleep 0.1
    done
    kill -TERM "$1"
    wait "$1"
    status=$?
}

# ---------------------------------------------------------------- a class of every outcome
class=$tmp/class
npass=$((1 + RANDOM % 4))
nfail=$((1 + RANDOM % 3))
hints=(x-swapped centre-dropped halo-missing)
for i in $(seq 1 "$npass"); do
    submission "$class" "pass$i.cu" "pass 0.$((10 + RANDOM % 89))"
done
for i in $(seq 1 "$nfail"); do
    submission "$class" "fail$i.cu" "fail ${hints[RANDOM % 3]} 0.$((10 + RANDOM % 89))"
done
submission "$class" pretty.cu "pretty 0.$((10 + RANDOM % 89))"
submission "$class" badhint.cu "fail <b>Bad_key</b> 0.$((10 + RANDOM % 89))"
submission "$class" signal.cu signal
submission "$class" kiterror.cu kit-error
submission "$class" quits.cu quits
submission "$class" hang.cu hang
submission "$class/three" a.cu pass
submission "$class/three" b.cu pass
submission "$class/three" c.cu pass
judged=$((npass + nfail + 6))  # with pretty, badhint, signal, kiterror, quits and hang
echo "$npass passing and $nfail failing submissions beside the others"
out=$tmp/out
"$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend gpu --jobs 3 --wall 2 --fail-fast \
    >"$tmp/class.log" 2>"$tmp/class.err"
status=$?
csv=$out/summary.csv
check "a class with submissions the judge could not grade exits 1 (got $status)" test "$status" -eq 1
check "every passing submission is graded pass" \
    test "$(grep -c '"graded","pass"' "$csv")" -eq $((npass + 1))
check "every failing one is graded fail with its hint" \
    test "$(grep -cE '"graded","fail".*"(x-swapped|centre-dropped|halo-missing)"' "$csv")" -eq "$nfail"
check "a judge killed by a signal: an error row naming the signal" \
    eval 'csv_field "$csv" signal.cu message | grep -q "killed by signal 9 without a report"'
check "a judge that exits without a report: its status and last line" \
    eval 'csv_field "$csv" quits.cu message | grep -q "exited 3 without a report: the judge.s last word"'
check "a judge past the wall limit is stopped, its row says so" \
    eval 'csv_field "$csv" hang.cu message | grep -q "stopped after the wall limit of 2 s"'
check "a folder of three .cu files none named for the lab is rejected, naming two and more" \
    eval 'csv_field "$csv" three message | grep -q "holds 3 .cu files (.*, .*, ...)"'
check "each judge is given --fail-fast and the GPU's lock folder" \
    test "$(grep -c -- "--gpu-lock-dir $out/locks --gpu-slots 1 --fail-fast" "$FAKE_JUDGE_LOG")" -eq $judged
check "the progress reaches every judged submission" grep -q "graded $judged/$judged, 4 not graded" "$tmp/class.err"
check "results.jsonl: a report spread over lines is not embedded" python3 -c '
import json, sys
line = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["submission"] == "pretty.cu"][0]
sys.exit(line["report"] is not None or line["summary"]["verdict"] != "pass")' "$out/results.jsonl"
page=$out/class.html
check "class.html: a dot on the speed strip for each timed submission" \
    test "$(grep -o '<circle' "$page" | wc -l)" -eq $((npass + nfail + 2))
check "class.html: the GPU's name, escaped" grep -q "GPU: Fake &lt;GPU&gt; &amp; Co" "$page"
check "class.html: a hint that is no key is shown escaped in its row, not ranked" \
    eval 'grep -q "<td>&lt;b&gt;Bad_key&lt;/b&gt;</td>" "$page" && ! grep -q "#&lt;b&gt;Bad_key" "$page"'
check "class.html: the kit's commit, through the branch HEAD names" grep -q "kit ${commit:0:12}\." "$page"
echo "$commit" >"$kit/.git/HEAD"
rm "$out"/results/pass1.cu-*.json
"$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend gpu >"$tmp/again.log" 2>&1
check "a second run judges nothing again but the row of the kit's error the judge reported" grep -q "^$((judged - 1)) already graded" "$tmp/again.log"
check "and that one it judges again" test "$(grep -c -- "kiterror.cu" "$FAKE_JUDGE_LOG")" -eq 2
check "class.html: a detached HEAD's commit" grep -q "kit ${commit:0:12}\." "$page"
check "results.jsonl: a row whose JSON report is gone has none" python3 -c '
import json, sys
line = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["submission"] == "pass1.cu"][0]
sys.exit(line["report"] is not None or line["summary"]["verdict"] != "pass")' "$out/results.jsonl"
echo "ref: refs/heads/gone" >"$kit/.git/HEAD"
"$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend gpu >/dev/null 2>&1
check "class.html: a branch without its file is an unknown version" grep -q "kit unknown\." "$page"

# ---------------------------------------------------------------- a judge that leaves no JSON report
submission "$tmp/nojson" a.cu "no-json 0.5"
"$grade" --kit "$kit" --lab 1 --submissions "$tmp/nojson" --out "$tmp/out-nojson" --backend gpu >"$tmp/nojson.log" 2>&1
check "a judge's report that cannot be kept is named, the run goes on" \
    grep -q "cannot write the result of a.cu in $tmp/out-nojson/results" "$tmp/nojson.log"
check "and its row is missing, to be graded again" grep -q '"missing"' "$tmp/out-nojson/summary.csv"

submission "$tmp/one-class" a.cu "pass 0.5"

# ---------------------------------------------------------------- a run stopped by SIGTERM
stopped=$tmp/stopped
for i in 1 2 3; do submission "$stopped" "hang$i.cu" hang; done
: >"$FAKE_JUDGE_LOG"
"$grade" --kit "$kit" --lab 1 --submissions "$stopped" --out "$tmp/out-stopped" --backend emu --jobs 1 --wall 60 \
    >"$tmp/stopped.log" 2>&1 &
stop_once_judging $!
check "a stopped run exits 130 (got $status)" test "$status" -eq 130
check "no judge's lock folder for the emulation backend" eval '! grep -q -- --gpu-lock-dir "$FAKE_JUDGE_LOG"'
check "each submission without a result has a missing row" \
    test "$(grep -c '"missing",.*"no result yet: run the same make grade again to finish"' "$tmp/out-stopped/summary.csv")" -eq 3
check "the table says the run stopped before them" grep -q "hang1.cu: no result (the run was stopped before it" "$tmp/stopped.log"
check "class.html counts them as without a result yet" grep -q "3 without a result yet" "$tmp/out-stopped/class.html"

# ---------------------------------------------------------------- Slurm: one job array through a fake sbatch
slurm_class=$tmp/slurm
for i in 0 1 2 3; do submission "$slurm_class" "s$i.cu" "pass 0.5"; done
echo "stray" >"$slurm_class/zz-notes.txt"
slurm_out="$tmp/slurm results 'quoted'"
PATH=$tmp/bin:$PATH "$grade" --kit "$kit" --lab 1 --submissions "$slurm_class" --out "$slurm_out" --backend gpu --slurm \
    >"$tmp/slurm.log" 2>&1
status=$?
check "a class through one job array: the stray file's row makes it exit 1 (got $status)" test "$status" -eq 1
check "the array lists the four kernel files" grep -q "submitting 4 submissions as one Slurm job array (--array=0-3)" "$tmp/slurm.log"
check "sbatch waits, names the job and asks one GPU a task by default" \
    grep -q -- "--parsable --wait --job-name=stencil-grade --array=0-3 --output=$slurm_out/slurm/task-%a.out --gres=gpu:1 " "$FAKE_SBATCH_LOG"
check "the task script, its quoted folder run by the shell, graded each one" \
    test "$(grep -c '"graded","pass"' "$slurm_out/summary.csv")" -eq 4
rm -f "$slurm_out"/results/s0.cu-*.kv "$slurm_out"/results/s1.cu-*.kv "$slurm_out"/results/s3.cu-*.kv
PATH=$tmp/bin:$PATH SLURM_GRES= SLURM_OPTS="--partition=debug --time=5" FAKE_SBATCH_SKIP=3 \
    "$grade" --kit "$kit" --lab 1 --submissions "$slurm_class" --out "$slurm_out" --backend gpu --slurm >"$tmp/slurm2.log" 2>&1
check "the second call lists only the missing ones, a range and one alone" grep -q "(--array=0-1,3)" "$tmp/slurm2.log"
check "SLURM_GRES= asks no GPU, SLURM_OPTS adds its options" \
    eval 'grep -q -- "/task-%a.out --partition=debug --time=5 " "$FAKE_SBATCH_LOG" && ! grep -q -- --gres "$FAKE_SBATCH_LOG"'
check "a task that left no result is counted after the job" \
    grep -q "^1 submissions have no result after the job" "$tmp/slurm2.log"
PATH=$tmp/nobin "$grade" --kit "$kit" --lab 1 --submissions "$slurm_class" --out "$slurm_out" --backend gpu --slurm \
    >"$tmp/slurm3.log" 2>&1
status=$?
check "without sbatch on PATH: exit 2 (got $status) and one line saying what SLURM=1 needs" \
    eval 'test "$status" -eq 2 && grep -q "sbatch not found: SLURM=1 needs Slurm.s client commands (sbatch) on PATH" "$tmp/slurm3.log"'

# ---------------------------------------------------------------- judges that do not stop, or do not exist
# A judge deaf to SIGTERM at the wall limit is killed GRADE_TERM_GRACE_S (10 s) later: as a
# class's judge and as a Slurm task's (its plan saved by a job array whose fake sbatch ran no task).
submission "$tmp/deaf" deaf.cu deaf
submission "$tmp/deaf-task" deaf.cu deaf
"$grade" --kit "$kit" --lab 1 --submissions "$tmp/deaf" --out "$tmp/out-deaf" --backend gpu --wall 1 >/dev/null 2>&1 &
deaf_class=$!
PATH=$tmp/bin:$PATH FAKE_SBATCH_SKIP=0 "$grade" --kit "$kit" --lab 1 --submissions "$tmp/deaf-task" --out "$tmp/out-deaf-task" \
    --backend gpu --wall 1 --slurm >/dev/null 2>&1
"$grade" --task 0 --out "$tmp/out-deaf-task" >"$tmp/deaf-task.log" 2>&1
status=$?
wait "$deaf_class"
check "a class's judge deaf to SIGTERM is killed after the grace, its row the wall limit's" \
    eval 'csv_field "$tmp/out-deaf/summary.csv" deaf.cu message | grep -q "stopped after the wall limit of 1 s"'
check "a task's judge too (exit $status)" \
    eval 'test "$status" -eq 0 && grep -q "^message=stopped after the wall limit of 1 s" "$tmp"/out-deaf-task/results/deaf.cu-*.kv'
submission "$tmp/hang-task" hang.cu hang
PATH=$tmp/bin:$PATH FAKE_SBATCH_SKIP=0 "$grade" --kit "$kit" --lab 1 --submissions "$tmp/hang-task" --out "$tmp/out-hang-task" \
    --backend gpu --slurm >/dev/null 2>&1
: >"$FAKE_JUDGE_LOG"
"$grade" --task 0 --out "$tmp/out-hang-task" >/dev/null 2>&1 &
stop_once_judging $!
check "a task stopped by SIGTERM exits 2 (got $status), leaving no result and no temporary file" \
    eval 'test "$status" -eq 2 && test -z "$(ls -A "$tmp/out-hang-task/results")"'
mkdir -p "$tmp/nojudge/labs"
cp -r labs/01-naive-sweep "$tmp/nojudge/labs/"
"$grade" --kit "$tmp/nojudge" --lab 1 --submissions "$tmp/one-class" --out "$tmp/out-nojudge" --backend gpu >/dev/null 2>&1
check "a kit without its judge: the row names what could not run" \
    eval 'csv_field "$tmp/out-nojudge/summary.csv" a.cu message | grep -q "exited 127 without a report: cannot run $tmp/nojudge/build/judge"'

expect "more GPUs to share than CUDA_VISIBLE_DEVICES names: refused in one line" 2 \
    "GPUS=3, but CUDA_VISIBLE_DEVICES=4, 6 names 2 GPU(s): give GPUS=2 at most" -- \
    env CUDA_VISIBLE_DEVICES="4, 6" "$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$tmp/out-gpus" --backend gpu --gpus 3
check "and it graded nothing" test ! -e "$tmp/out-gpus/summary.csv"

# ---------------------------------------------------------------- --task, as a Slurm task runs it
rm -f "$slurm_out"/results/zz-notes.txt-*.kv
expect "a task of a rejected entry writes its row" 0 "" -- "$grade" --task 4 --out "$slurm_out"
check "and the row says why" grep -q "^message=not a .cu file or a folder" "$slurm_out"/results/zz-notes.txt-*.kv
expect "a task past the plan" 2 "the plan in $slurm_out has entries 0 to 4" -- "$grade" --task 5 --out "$slurm_out"
expect "a task without its results folder" 2 "--task needs --out" -- "$grade" --task 1
expect "a task that is no number" 2 "--task takes an entry number of the saved plan" -- "$grade" --task one --out "$slurm_out"
expect "a task of a folder without a plan" 2 "grade.meta is missing: not a results folder of make grade" -- \
    "$grade" --task 0 --out "$tmp/nothing"
cp -r "$slurm_out" "$tmp/no-plan"
rm "$tmp/no-plan/plan.tsv"
expect "a task of a folder whose plan.tsv is gone" 2 "plan.tsv is missing: not a results folder of make grade" -- \
    "$grade" --task 0 --out "$tmp/no-plan"
cp -r "$slurm_out" "$tmp/bad-plan"
{ echo "a line that is no entry"; cat "$slurm_out/plan.tsv"; } >"$tmp/bad-plan/plan.tsv"
expect "a plan's line that is no entry is passed over" 2 "the plan in $tmp/bad-plan has entries 0 to 4" -- \
    "$grade" --task 5 --out "$tmp/bad-plan"
mkdir -p "$tmp/blocked-slurm/slurm/task.sh"
cp "$slurm_out/grade.meta" "$slurm_out/plan.tsv" "$tmp/blocked-slurm/"
PATH=$tmp/bin:$PATH "$grade" --kit "$kit" --lab 1 --submissions "$slurm_class" --out "$tmp/blocked-slurm" --backend gpu --slurm \
    >"$tmp/blocked-slurm.log" 2>&1
status=$?
check "a task script that cannot be written: exit 2 (got $status), naming it" \
    eval 'test "$status" -eq 2 && grep -q "cannot write $tmp/blocked-slurm/slurm/task.sh" "$tmp/blocked-slurm.log"'

# ---------------------------------------------------------------- the command line's refusals
expect "an option without its value" 2 "option --lab needs a value" -- "$grade" --kit "$kit" --lab
expect "an unknown backend" 2 "backend must be auto, gpu or emu, not 'cuda'" -- "$grade" --kit "$kit" --lab 1 --backend cuda
expect "a seed that is no number" 2 "SEED must be a whole number, got '12x'" -- "$grade" --kit "$kit" --lab 1 --seed 12x
expect "WALL=0" 2 "WALL takes a whole number from 1 to 86400, got '0'" -- "$grade" --kit "$kit" --lab 1 --wall 0
expect "no lab" 2 "which lab?" -- "$grade" --kit "$kit" --submissions "$class"
expect "no submissions" 2 "which submissions? make grade LAB=1" -- "$grade" --kit "$kit" --lab 1
expect "a kit folder that does not exist" 2 "the kit folder $tmp/no-kit cannot be found" -- \
    "$grade" --kit "$tmp/no-kit" --lab 1 --submissions "$class"
expect "a kit without labs" 2 "cannot open $tmp/bin/labs" -- "$grade" --kit "$tmp/bin" --lab 1 --submissions "$class"
mkdir -p "$tmp/badkit/labs/01-naive-sweep"
printf 'title = a lab\nno_such_key = 1\n' >"$tmp/badkit/labs/01-naive-sweep/lab.conf"
expect "a lab.conf the judge refuses: its reason" 2 "lab.conf:2: unknown key 'no_such_key'" -- "$grade" --kit "$tmp/badkit" --lab 1 --submissions "$class"
expect "a lab named by its folder" 1 "grading 01-naive-sweep for" -- \
    "$grade" --kit "$kit" --lab 01-naive-sweep --submissions "$class" --out "$out" --backend gpu
expect "another backend on a results folder" 2 "was graded with backend gpu, not emu" -- \
    "$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend emu
expect "the default results folder, named for the lab and the class" 0 "results in $kit/build/grades/01-naive-sweep-one-class-" -- \
    "$grade" --kit "$kit" --lab 1 --submissions "$tmp/one-class" --backend gpu
touch "$tmp/a-file"
expect "a results folder that is a file" 2 "$tmp/a-file" -- \
    "$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$tmp/a-file" --backend gpu
huge=$tmp/huge
mkdir -p "$huge"
truncate -s 2M "$huge/big.cu"
"$grade" --kit "$kit" --lab 1 --submissions "$huge" --out "$tmp/out-huge" --backend gpu >/dev/null 2>&1
check "a kernel file over the size limit is rejected unread" \
    eval 'csv_field "$tmp/out-huge/summary.csv" big.cu message | grep -q "the kernel file is 2097152 bytes"'
many=$tmp/many
mkdir -p "$many"
(cd "$many" && seq -f "s%04g.cu" 0 4096 | xargs touch)
expect "more entries than a class may hold" 2 "more than 4096 entries in $many" -- \
    "$grade" --kit "$kit" --lab 1 --submissions "$many" --out "$tmp/out-many" --backend gpu

# ---------------------------------------------------------------- a results folder that cannot be written
# Root writes anywhere: a folder where a file must go is what fails here.
# refuse_file NAME PATH TEXT: makes PATH a folder, expects a resumed run of the class to exit 2 saying TEXT, then removes it.
refuse_file() {
    mkdir -p "$2"
    expect "$1" 2 "$3" -- "$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend gpu
    rmdir "$2"
    check "$1: no temporary file left" test -z "$(find "$out" -name '*.tmp' -o -name '.tmp-*')"
}
three_id=$(awk -F'\t' '$5 != "-" { print $2; exit }' "$out/plan.tsv")
refuse_file "a rejected row that cannot be written" "$out/results/.tmp-$three_id.json" "cannot write in $out/results"
refuse_file "a plan that cannot be saved" "$out/grade.meta.tmp" "cannot write $out/grade.meta"
refuse_file "a plan whose entries cannot be saved" "$out/plan.tsv.tmp" "cannot write $out/plan.tsv"
refuse_file "summary.csv that cannot be written" "$out/summary.csv.tmp" "cannot write in $out"
refuse_file "results.jsonl that cannot be written" "$out/results.jsonl.tmp" "cannot write in $out"
refuse_file "class.html that cannot be written" "$out/class.html.tmp" "cannot write $out/class.html"
# block NAME PATH TEXT: puts a folder holding a file where PATH is (nothing renames onto it),
# expects a resumed run of the class to exit 2 saying TEXT, then puts PATH's file back.
block() {
    mv "$2" "$tmp/set-aside" 2>/dev/null
    mkdir -p "$2/kept"
    expect "$1" 2 "$3" -- "$grade" --kit "$kit" --lab 1 --submissions "$class" --out "$out" --backend gpu
    rm -rf "$2"
    mv "$tmp/set-aside" "$2" 2>/dev/null
}
block "plan.tsv that cannot be put in place" "$out/plan.tsv" "cannot write $out/plan.tsv:"
block "summary.csv that cannot be put in place" "$out/summary.csv" "cannot write $out/summary.csv or $out/results.jsonl"
block "class.html that cannot be put in place" "$out/class.html" "cannot write $out/class.html:"
for file in "$three_id.json" "$three_id.txt" ".tmp-$three_id.txt" ".tmp-$three_id.kv" "$three_id.kv"; do
    block "a rejected row whose $file cannot be written" "$out/results/$file" "cannot write in $out/results"
done
# A judged result that cannot be put in place: named, the run goes on, the row missing.
one_id=$(cut -f2 "$tmp/out-nojudge/plan.tsv")
for file in "$one_id.txt" "$one_id.html" ".tmp-$one_id.kv" "$one_id.kv"; do
    rm -rf "$tmp/out-one"
    mkdir -p "$tmp/out-one/results/$file/kept"
    "$grade" --kit "$kit" --lab 1 --submissions "$tmp/one-class" --out "$tmp/out-one" --backend gpu >"$tmp/one.log" 2>&1
    check "a judged result whose $file cannot be put in place is named" \
        grep -q "cannot write the result of a.cu in $tmp/out-one/results" "$tmp/one.log"
done
finish "grade (fake judge)"
