#!/usr/bin/env bash
# tests/fake_gpu.sh — the judge's GPU backend without a GPU: the judge run
# with --kit on a throw-away kit whose grader/build.mk is
# tests/fakes/gpu_build.mk, so its executor is the test double
# tests/fakes/gpu_executor.c (the grids from the emulation runner of the
# file, the timing and the GPU's failures chosen by STENCIL_FAKE_GPU), with
# tests/fakes/tools/ (ncu, compute-sanitizer) on PATH or not. The throw-away
# kit shares the kit's sources and its build/emu, and builds its own
# build/gpu and build/yardstick; the kit's own build/gpu is never touched.
# Each check asserts on what a user sees: the exit status, the report's
# lines, the JSON's cases, hint keys and technique line, the files the judge
# keeps (the yardstick, the tool runs remembered, the GPU's lock files).
# The labs' cases here are small ones of each lab's kinds (a timed one among
# them), written into the throw-away kit's lab.conf from the judge's answers.
#
# usage: tests/fake_gpu.sh [JUDGE] [--match PATTERN]     (default build/judge)
# Prints a line per check and "fake-gpu: N passed, M failed[, K skipped]".
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
judge=${1:-build/judge}
case $judge in /*) ;; *) judge=$PWD/$judge ;; esac
echo "== the judge's GPU backend on a fake GPU (tests/fakes/)"
if [ ! -f grader/emu/emu.mk ] || ! command -v python3 >/dev/null; then
    skip "the GPU backend on a fake GPU" "the fake executor needs the emulation backend (grader/emu/emu.mk) and python3"
    finish fake-gpu
fi
draw_seed "the judge's inputs on the fake GPU"
tmp=$(mktemp -d)
trap '[ -n "${FAKE_KEEP:-}" ] && cp -r "$tmp" "$FAKE_KEEP"; rm -rf "$tmp"' EXIT
make -s -f grader/emu/emu.mk emu-tools >/dev/null || { fail "the emulation's runtime builds"; finish fake-gpu; }

# The programs the judge runs (make, the compilers, python3), without the CUDA toolkit's
# folders: the only ncu and compute-sanitizer it finds are the fakes a check puts first.
base_path=""
for program in make cc g++ ar awk python3 bash; do
    dir=$(dirname "$(command -v "$program")")
    case ":$base_path:" in *":$dir:"*) ;; *) base_path=${base_path:+$base_path:}$dir ;; esac
done
toolkit_on_path=$(PATH=$base_path command -v ncu compute-sanitizer)
mkdir -p "$tmp/tools-all" "$tmp/tools-none"
ln -s "$PWD/tests/fakes/tools/ncu" "$PWD/tests/fakes/tools/compute-sanitizer" "$tmp/tools-all/"

# fake_gpu_kit DIR: makes DIR a kit that shares this one's sources and emulation build, with
# tests/fakes/gpu_build.mk as its grader/build.mk and build folders of its own.
fake_gpu_kit() {
    local dir=$1 entry
    mkdir -p "$dir/grader" "$dir/labs" "$dir/build"
    for entry in kernels reference handouts tests; do ln -s "$PWD/$entry" "$dir/$entry"; done
    for entry in grader/*; do [ "$entry" = grader/build.mk ] || ln -s "$PWD/$entry" "$dir/$entry"; done
    ln -s "$PWD/tests/fakes/gpu_build.mk" "$dir/grader/build.mk"
    ln -s "$PWD/build/emu" "$dir/build/emu"
}
kit=$tmp/kit
fake_gpu_kit "$kit"

# lab_conf FOLDER KEYS LINES: the throw-away kit's lab FOLDER with the kit's lab.conf keys KEYS
# (as the judge reads them) and LINES (its points and cases).
lab_conf() {
    local folder=$1 lab=$((10#${1%%-*}))
    mkdir -p "$kit/labs/$folder"
    # shellcheck disable=SC2086  # KEYS is a list of words
    { conf_lines "$judge" "$PWD" "$lab" $2 && printf '%s\n' "$3"; } >"$kit/labs/$folder/lab.conf"
}
sweep_keys="title chapter runner kernel solution technique opb_model timeout time_reps rtol atol"
speed="points = speed 1 full_at=0.8 zero_at=0.3 against=solution"
sweep_points="points = sizes 5
points = large 1
points = technique 2
$speed"
lab_conf 01-naive-sweep "$sweep_keys" "$sweep_points
case = 4 group=sizes
case = 5 group=sizes
case = 33 group=sizes
case = 40 timed group=large"
lab_conf 02-shared-tile "$sweep_keys" "$sweep_points
case = 5 group=sizes
case = 13 group=sizes
case = 34 sync group=sizes
case = 40 timed group=large"
lab_conf 05-jacobi "$sweep_keys" "points = boundaries 3
points = large 1
points = technique 2
$speed
case = 35x30x17 bc=dirichlet iters=40 group=boundaries
case = 20x17x9 bc=periodic iters=9 sync group=boundaries
case = 24x20x16 bc=periodic iters=30 check=10 timed group=large
case = 256x256x128 bc=neumann iters=2 group=large"
lab_conf 10-heat-2d "$sweep_keys update" "points = grids 4
points = large 1
points = technique 2
$speed
case = 67x30 steps=15 group=grids
case = 130x90 steps=20 timed group=large"
lab_conf 00-convolution "$sweep_keys interface" "points = small 4
points = large 1
points = technique 2
$speed
case = 37x29 r=3 group=small
case = 100x77 r=4 sync group=small
case = 300x200 r=2 timed group=large"

# fake_run NAME [VAR=VALUE...] -- ARGS...: the judge on the fake GPU (tools from $tools, the
# environment's VARs; under the program $wrap when it is set), its output in $tmp/NAME.out, its JSON
# in $tmp/NAME.json, its status in $tmp/NAME.status.
tools=$tmp/tools-all
# Nsight Compute counts the loads (STENCIL_LOADS=ncu) unless a run says otherwise: the
# fake ncu's checks are written for it; the executor's own count has checks of its own.
fake_run() {
    local name=$1 vars=()
    shift
    while [ "$1" != -- ]; do vars+=("$1"); shift; done
    shift
    env PATH="$tools:$base_path" NVCC=nvcc-not-in-this-test STENCIL_LOADS=ncu "${vars[@]}" ${wrap:+"$wrap"} "$judge" --kit "$kit" --backend gpu \
        --seed "$seed" --json-out "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.status"
}

# outcome NAME CHECK STATUS TEXT: CHECK passes when run NAME exited STATUS and its output holds TEXT.
outcome() {
    local got
    got=$(cat "$tmp/$1.status")
    if [ "$got" = "$3" ] && grep -qF -- "$4" "$tmp/$1.out"; then
        pass "$2"
    else
        fail "$2" "exit $got (expected $3), output: $(tail -c 700 "$tmp/$1.out")"
    fi
}

# holds NAME CHECK EXPR: CHECK passes when the Python expression EXPR holds of run NAME's JSON
# report r (c: its cases by name; hints: the set of their hint keys; t: the technique's detail).
holds() {
    if python3 - "$tmp/$1.json" "$3" <<'PY'; then pass "$2"; else fail "$2" "$(head -c 900 "$tmp/$1.json")"; fi
import json, sys
r = json.load(open(sys.argv[1]))
c = {case["name"]: case for case in r.get("cases", [])}
hints = {case["hint_key"] for case in r.get("cases", []) if case.get("hint_key")}
t = r.get("technique", {}).get("detail", "")
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# solution_copy LAB: a copy of LAB's solution outside the kit (graded as a student's file: the solution times the yardstick).
solution_copy() {
    cp "$PWD/$(cd "$kit" && "$judge" --kit "$kit" --lab "$kit/labs/$1" --conf-get solution)" "$tmp/$1.cu"
    echo "$tmp/$1.cu"
}

# touch_kernel FILE TAG: changes FILE's program (a device variable more), so that no tool run is remembered for it.
touch_kernel() {
    echo "__device__ int fake_gpu_$2 = $seed;" >>"$1"
}

lab1=$kit/labs/01-naive-sweep lab2=$kit/labs/02-shared-tile
student1=$(solution_copy 01-naive-sweep)
student2=$(solution_copy 02-shared-tile)

echo "-- a run that passes, timed by the executor"
fake_run pass STENCIL_FAKE_GPU_GBS=500 STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$student1" --html-out "$tmp/pass.html"
outcome pass "a GPU run passes on the executor's records" 0 "verdict: PASS — 5 of 5 cases passed"
outcome pass "the device is the probe's" 0 "device:  Fake GPU (tests/fakes) (4 SMs, compute capability 9.0"
outcome pass "one executor serves every case, the one sized from its 32x4x4 blocks too" 0 "executor: 1 started, 5 cases served"
holds pass "the case sized from the blocks: N=10, its interior two tiles of 4 (N=8's side is: the timed 40 has whole tiles)" 'c["N=10"]["sized_tile"] == 4 and c["N=10"]["status"] == "ok" and "N=8" not in c'
holds pass "the timed case carries the executor's figures" \
    'c["N=40"]["timing"]["reps"] == 20 and c["N=40"]["timing"]["bandwidth_by"] == "kernel" and c["N=40"]["timing"]["bandwidth_gb_per_s"] == 3000'
holds pass "speed is scored against the solution timed on this GPU" \
    '[i for i in r["score"]["items"] if i["name"] == "speed"][0]["detail"].startswith("50% of the lab")'
check "the HTML page names the GPU" grep -q "Fake GPU (tests/fakes)" "$tmp/pass.html"
yardsticks=$(ls "$kit"/build/yardstick/01-naive-sweep-*.txt 2>/dev/null | wc -l)
check "the solution's figures are kept in build/yardstick" [ "$yardsticks" -eq 1 ]
fake_run kept STENCIL_FAKE_GPU_GBS=800 STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$student1" --case 40
outcome kept "a later run takes the solution's figures kept" 0 "yardstick: the solution's figures kept in $kit/build/yardstick/"
holds kept "the kept figures score the speed" '[i for i in r["score"]["items"] if i["name"] == "speed"][0]["points"] == 1'
rm -rf "$kit/build/yardstick"
fake_run after STENCIL_FAKE_GPU_GBS=400 STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$student1" --case 40 --jobs 1
holds after "with --jobs 1 the solution is timed after the cases" \
    '[i for i in r["score"]["items"] if i["name"] == "speed"][0]["detail"].startswith("40% of the lab")'
check "and its figures are kept" [ "$(ls "$kit"/build/yardstick/01-naive-sweep-*.txt 2>/dev/null | wc -l)" -eq 1 ]

echo "-- what the executor reports of a failing program"
fake_run wrong STENCIL_FAKE_GPU=wrong -- --lab "$lab1" --kernel "$student1" --case 33
outcome wrong "a wrong cell fails the case" 1 "N=33: FAIL"
holds wrong "with the first wrong cell named" '"(16,16,16)" in c["N=33"]["detail"] and c["N=33"]["hint_key"] is not None'
fake_run repwrong STENCIL_FAKE_GPU=rep-wrong -- --lab "$lab1" --kernel "$student1" --case 40
holds repwrong "a wrong timed repetition: timed-rep-wrong" \
    'c["N=40"]["hint_key"] == "timed-rep-wrong" and "timed repetition 3 gave a wrong output" in c["N=40"]["reason"]'
fake_run replaunch STENCIL_FAKE_GPU=rep-launch -- --lab "$lab1" --kernel "$student1" --case 40
holds replaunch "a timed call that launched otherwise: timed-rep-wrong" \
    'c["N=40"]["hint_key"] == "timed-rep-wrong" and "launched otherwise than the checked one" in c["N=40"]["reason"]'
fake_run crash STENCIL_FAKE_GPU=crash STENCIL_FAKE_GPU_SIZE=5,5,5 STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$student1"
holds crash "a crashed program fails its case alone" \
    'c["N=5"]["hint_key"] == "runner-failed" and "signal 11" in c["N=5"]["reason"] and c["N=33"]["status"] == "ok"'
outcome crash "and the next case gets a new executor" 1 "executor: 2 started, 5 cases served"
for mode in fault:kernel-fault refused:refused-call late-call:late-call no-memory:no-memory; do
    fake_run "mode-${mode%%:*}" STENCIL_FAKE_GPU="${mode%%:*}" -- --lab "$lab1" --kernel "$student1" --case 5
    holds "mode-${mode%%:*}" "the executor's ${mode%%:*} gives ${mode#*:}" "c['N=5']['hint_key'] == '${mode#*:}'"
done
fake_run killed STENCIL_FAKE_GPU=killed -- --lab "$lab1" --kernel "$student1" --case 5
holds killed "an executor killed by a signal: the case fails naming the signal" \
    'c["N=5"]["kind"] == "crash" and "signal 9" in c["N=5"]["reason"]'
fake_run noout STENCIL_FAKE_GPU=no-output -- --lab "$lab1" --kernel "$student1" --case 5
holds noout "a case said finished without its output: runner-failed" \
    'c["N=5"]["hint_key"] == "runner-failed" and "output files are missing" in c["N=5"]["reason"]'
fake_run hang STENCIL_FAKE_GPU=hang -- --lab "$lab1" --kernel "$student1" --case 4 --timeout 2
holds hang "an executor that never answers is stopped at the case's limit" 'c["N=4"]["hint_key"] == "timeout"'
fake_run filldiffers STENCIL_FAKE_GPU=fill-differs -- --lab "$lab1" --kernel "$student1" --case 5
outcome filldiffers "an input drawn on the GPU unlike the judge's: the kit's fault (exit 2), not the student's, the case named" 2 \
    "could not run case N=5: the input the executor drew on the GPU is not the judge's (the kit's fault"

echo "-- the preprocessor's listing of the #include files"
# nvcc's processes print -H's lines on one stream: two at once can cut a line (seen on an H200 with
# 14 judges side by side: "/usr/lib/gcc/x86_64-linux-gnu/13/../../../.." read as /usr). A cut line
# names no header and is passed over; a whole line naming a file outside the kit is still refused.
cat >"$tmp/nvcc-listing" <<'NVCC'
#!/bin/sh
# nvcc -M -MF DEP -Xcompiler -H ... STAGED as the judge's build check runs it: the rule names the
# staged file (and STENCIL_NVCC_DEP_WORD); -H's lines on stderr, one cut; with STENCIL_NVCC_OUTSIDE,
# a whole line naming it; with STENCIL_FAKE_PROBE_LOG, "listing" and the time logged there.
[ -n "${STENCIL_FAKE_PROBE_LOG:-}" ] && echo "listing $(date +%s%N)" >>"$STENCIL_FAKE_PROBE_LOG"
while [ $# -gt 1 ]; do [ "$1" = -MF ] && dep=$2; shift; done
printf 'staged.o: %s %s\n' "$1" "${STENCIL_NVCC_DEP_WORD:-}" >"$dep"
printf '. /usr/lib/gcc/x86_64-linux-gnu/13/../../../..\n.. /usr/include\n' >&2
[ -n "$STENCIL_NVCC_OUTSIDE" ] && printf '. %s\n' "$STENCIL_NVCC_OUTSIDE" >&2
exit 0
NVCC
chmod +x "$tmp/nvcc-listing"
echo "int outside;" >"$tmp/outside.h"
touch_kernel "$student1" listing
fake_run listcut NVCC="$tmp/nvcc-listing" -- --lab "$lab1" --kernel "$student1" --case 4
outcome listcut "a cut line of the preprocessor's -H listing names no header: the file builds and passes" 0 "verdict: PASS"
# A folder in the rule ("/" was seen on a loaded H200, 24 judges side by side) is no file the compile read.
touch_kernel "$student1" listfolder
fake_run listfolder NVCC="$tmp/nvcc-listing" STENCIL_NVCC_DEP_WORD=/ -- --lab "$lab1" --kernel "$student1" --case 4
outcome listfolder "a folder named in the preprocessor's rule is no header: the file builds and passes" 0 "verdict: PASS"
fake_run listout NVCC="$tmp/nvcc-listing" STENCIL_NVCC_OUTSIDE="$tmp/outside.h" -- --lab "$lab1" --kernel "$student1" --case 4
outcome listout "a whole line naming a file outside the kit is refused" 2 "pulls in $tmp/outside.h"
# The listing runs while the probe makes its context (the architecture kept from an earlier run),
# once: the build that follows takes the check it passed. Refused early, a file is refused as before (above).
touch_kernel "$student1" overlap
fake_run overlap NVCC="$tmp/nvcc-listing" STENCIL_FAKE_PROBE_MS=400 STENCIL_FAKE_PROBE_LOG="$tmp/probe.log" -- --lab "$lab1" --kernel "$student1" --case 4
outcome overlap "a file checked while the probe starts builds and passes" 0 "verdict: PASS"
check "its includes listed once, between the probe's start and its answer: $(tr '\n' ' ' <"$tmp/probe.log")" \
    awk '{ t[$1] = $2; n[$1]++ } END { exit !(n["listing"] == 1 && n["probe-start"] == 1 && t["probe-start"] < t["listing"] && t["listing"] < t["probe-answer"]) }' "$tmp/probe.log"

echo "-- the CPU beside the timed cases"
# The builds (and the emulation) run SPAWN_NICE_BESIDE (10) nicer than the judge; the executor,
# which serves the timed launches, at the judge's own: other checks' builds do not slow them. So do
# the executors under ncu and compute-sanitizer, which hold GPU locks other judges wait on.
touch_kernel "$student2" nice
fake_run nice STENCIL_FAKE_NICE_LOG="$tmp/nice.log" -- --lab "$lab2" --kernel "$student2"
own=$(cut -d' ' -f19 /proc/$$/stat)
beside=$((own + 10 > 19 ? 19 : own + 10))
check "the student's build runs 10 nicer than the judge ($beside, the judge $own)" grep -qx "build $beside" "$tmp/nice.log"
check "the executor runs at the judge's own niceness ($own)" grep -qx "executor $own" "$tmp/nice.log"
check "so do the executors under the profiler and the sanitizer (every executor at niceness $own: $(grep -c '^executor' "$tmp/nice.log") of them)" \
    test "$(grep '^executor' "$tmp/nice.log" | sort -u)" = "executor $own" -a "$(grep -c '^executor' "$tmp/nice.log")" -ge 3
touch_kernel "$student2" afternice  # the load floors' checks below start from a file no run has built

echo "-- finding the GPU"
fake_run nogpu STENCIL_FAKE_GPU=no-gpu -- --lab "$lab1" --kernel "$student1" --case 4
outcome nogpu "no device: exit 77 with what to do" 77 "no usable GPU: no CUDA-capable device is detected"
fake_run auto STENCIL_FAKE_GPU=no-gpu -- --lab "$lab1" --kernel "$student1" --case 4 --backend auto
outcome auto "no device under --backend auto: the run goes on emulated" 0 "verdict: PASS"
echo sm_10 >"$kit/build/gpu/detected/arch"
fake_run rearch -- --lab "$lab1" --kernel "$student1" --case 4
check "an architecture kept of another GPU is probed again" [ "$(cat "$kit/build/gpu/detected/arch")" = sm_90 ]
outcome rearch "and the run goes on" 0 "verdict: PASS"
echo not-an-arch >"$kit/build/gpu/detected/arch"
fake_run archjunk -- --lab "$lab1" --kernel "$student1" --case 4
check "a kept architecture that is none is asked of the probe" [ "$(cat "$kit/build/gpu/detected/arch")" = sm_90 ]
# STENCIL_EXECUTOR_COVERAGE=1: the executor built with gcov's counts (EXEC_COVERAGE=1), under a name of
# its own; the plain one, removed first, must not come back.
rm -f "$kit/build/gpu/detected/executor"
fake_run coverage STENCIL_EXECUTOR_COVERAGE=1 -- --lab "$lab1" --kernel "$student1" --case 4
outcome coverage "STENCIL_EXECUTOR_COVERAGE=1: the run goes on the instrumented executor" 0 "verdict: PASS"
check "built as build/gpu/<arch>/executor-coverage with EXEC_COVERAGE=1" \
    grep -q "EXEC_COVERAGE=1" "$kit/build/gpu/detected/executor-coverage.log"
check "and the plain executor is neither built nor run" [ ! -e "$kit/build/gpu/detected/executor" ]
nobuild=$tmp/nobuild
fake_gpu_kit "$nobuild"
cp -r "$lab1" "$nobuild/labs/"
expect "an executor that does not build: the one-line reason" 77 "the GPU executor did not build:" -- \
    env PATH="$tools:$base_path" FAKE_CC=false "$judge" --kit "$nobuild" --lab "$nobuild/labs/01-naive-sweep" --backend gpu --case 4

echo "-- a large case checked on the GPU, a sample of it by the judge"
echo "case = 204 group=large" >>"$lab1/lab.conf"
fake_run sample STENCIL_FAKE_GPU=gpu-check -- --lab "$lab1" --kernel "$student1" --case 204
outcome sample "a case the GPU found right passes on the sample the judge checks (no other grid came back)" 0 "verdict: PASS"
fake_run samplewrong STENCIL_FAKE_GPU=gpu-check -- --lab "$lab1" --kernel "$PWD/tests/mutants/01-naive-sweep/x-swapped.cu" --case 204
holds samplewrong "a sample the judge finds wrong fails the case, whatever the GPU's check said" \
    'c["N=204"]["hint_key"] == "wrong-values" and "though the GPU\u0027s check of the whole grid found none" in c["N=204"]["reason"]'
# A GPU-checked case (its sum taken with no grid in memory, its sample drawn alone): the same check.
fake_run filldifferslarge STENCIL_FAKE_GPU=fill-differs -- --lab "$lab1" --kernel "$student1" --case 204
outcome filldifferslarge "an input unlike the judge's on a GPU-checked case" 2 \
    "could not run case N=204: the input the executor drew on the GPU is not the judge's (the kit's fault"
mkdir -p "$tmp/locks-fill"
fake_run filldifferssides STENCIL_FAKE_GPU=fill-differs -- --lab "$lab1" --kernel "$student1" --case 204 --gpu-lock-dir "$tmp/locks-fill"
outcome filldifferssides "and on one beside other judges" 2 \
    "could not run case N=204: the input the executor drew on the GPU is not the judge's (the kit's fault"
# Lab 0's image (nz = 1): the sample is a few rows of the image, not the whole image (protocol_sample_unit_of).
# (The case is lab.conf's for these runs alone: lab 0's later run grades every case.)
lab0=$kit/labs/00-convolution
mkdir -p "$tmp/keep-rows"
cp "$lab0/lab.conf" "$tmp/lab0.conf"
echo "case = 4096x2049 r=2 group=large" >>"$lab0/lab.conf"
student0=$(solution_copy 00-convolution)
fake_run rows STENCIL_FAKE_GPU=gpu-check STENCIL_FAKE_NCU_LOADS=2,30 TMPDIR="$tmp/keep-rows" -- --lab "$lab0" --kernel "$student0" \
    --case 4096x2049,r=2 --keep
outcome rows "a 2D image the GPU found right passes on the rows the judge checks" 0 "verdict: PASS"
# Its samples (the case's and the load count's run of it): each 4 to 7 whole rows of 4096 pixels.
sample_file=$(sed -n 's/^#define CASE_SAMPLE *"\([^"]*\)".*/\1/p' grader/protocol/protocol.h)
samples=$(find "$tmp/keep-rows" -name "${sample_file:-?}" -printf '%s\n')
rows_ok=$([ -n "$samples" ] && echo 1 || echo 0)
for bytes in $samples; do
    [ $((bytes % (4096 * 4))) -eq 0 ] && [ "$bytes" -ge $((4 * 4096 * 4)) ] && [ "$bytes" -le $((7 * 4096 * 4)) ] || rows_ok=0
done
if [ "$rows_ok" = 1 ]; then
    pass "its samples are 4 to 7 whole rows of 4096 pixels, not the 2049-row image"
else
    fail "its samples are 4 to 7 whole rows of 4096 pixels, not the 2049-row image" "sample sizes in bytes: ${samples:-none}"
fi
fake_run rowswrong STENCIL_FAKE_GPU=gpu-check -- --lab "$lab0" \
    --kernel "$PWD/tests/mutants/00-convolution/ghost-cells-clamped.cu" --case 4096x2049,r=2
holds rowswrong "wrong pixels in the sampled rows fail the case, the first one named" \
    'c["4096x2049,r=2"]["hint_key"] == "wrong-values" and " rows the judge checked itself" in c["4096x2049,r=2"]["reason"] and "(0,0," in c["4096x2049,r=2"]["detail"]'
touch_kernel "$student0" inputkept
fake_run inputkept STENCIL_FAKE_GPU=gpu-wrong -- --lab "$lab0" --kernel "$student0" --case 4096x2049,r=2
holds inputkept "a wrong image whose input the GPU check found as drawn (no file of it): judged whole on the judge's own input, its one wrong pixel named" \
    'c["4096x2049,r=2"]["status"] == "fail" and c["4096x2049,r=2"]["wrong_cells"] == 1 and c["4096x2049,r=2"]["hint_key"] == "wrong-values" and "first wrong pixel" in c["4096x2049,r=2"]["detail"]'
touch_kernel "$student0" countwrong
fake_run countwrong STENCIL_FAKE_GPU=gpu-check STENCIL_LOADS=cupti STENCIL_FAKE_LOADS=gpu-check-wrong PATH="$tmp/tools-none:$base_path" \
    -- --lab "$lab0" --kernel "$student0" --case 4096x2049,r=2
holds countwrong "a count's run the GPU check found wrong, no grids back: the technique fails on the check's word" \
    'c["4096x2049,r=2"]["status"] == "ok" and r["technique"]["status"] == "fail" and "the kit'"'"'s check on the GPU found the counted run'"'"'s output wrong" in t'
cp "$tmp/lab0.conf" "$lab0/lab.conf"
# The timed 4096x2049 image first among the timed cases (GPU-checked: its output found wrong there,
# the executor's word that its GPU work is over says so): no count follows inside its turn, the
# helper ends uncounted, and the judge counts the largest case that passed in a turn of its own.
lab_conf 00-convolution "$sweep_keys interface" "points = small 4
points = large 1
points = technique 2
$speed
case = 37x29 r=3 group=small
case = 100x77 r=4 group=small
case = 4096x2049 r=2 timed group=large"
touch_kernel "$student0" timedwrong
mkdir -p "$tmp/locks-wrong"
fake_run timedwrong STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_GPU=gpu-wrong STENCIL_FAKE_GPU_SIZE=4096,2049,1 STENCIL_TRACE=1 \
    STENCIL_FAKE_LOCKS_LOG="$tmp/timedwrong.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab0" --kernel "$student0" --jobs 2 --gpu-lock-dir "$tmp/locks-wrong"
holds timedwrong "a timed run the GPU check finds wrong fails its case; the loads are counted on the largest case that passed" \
    'c["4096x2049,r=2"]["status"] != "ok" and "the executor'"'"'s count, with CUPTI" in t and "case 100x77x1" in t and r["technique"]["case"] == "100x77,r=4"'
check "and no count follows inside its turn, the helper's left uncounted: one count, the judge's, with its own locks" \
    sh -c "grep -q 'gpu turn alone' '$tmp/timedwrong.out' && ! grep -q 'the load count runs inside it' '$tmp/timedwrong.out' &&
        grep -qE 'tool runs: [0-9]+ ahead in helpers, 0 remembered, 1 in the judge' '$tmp/timedwrong.out' &&
        test \"\$(grep -c 'count-loads' '$tmp/timedwrong.locks')\" = 1 && grep -qE 'gpu-0\.lock,alone count-loads\$' '$tmp/timedwrong.locks'"
cp "$tmp/lab0.conf" "$lab0/lab.conf"

echo "-- the technique's load floors, counted by Nsight Compute"
fake_run loads STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 -- --lab "$lab2" --kernel "$student2" --jobs 2
outcome loads "lab 2's solution passes with its loads counted" 0 "verdict: PASS"
holds loads "the floors are met by the counts" \
    'r["technique"]["status"] == "ok" and "Nsight Compute" in t and "floats read from shared" in t and "(at least 3 from shared" in t'
outcome loads "the tool runs start beside the cases" 0 "tool runs: 3 started beside the cases"
holds loads "a run alone takes GPU turns too, in a folder of its own: its timed case alone, the others shared" \
    'any(t[2] == 1 for t in r["gpu_turns"]) and any(t[2] == 0 for t in r["gpu_turns"])'
fake_run again STENCIL_FAKE_NCU_LOADS=7,0 STENCIL_FAKE_SANITIZER=hazard STENCIL_TRACE=1 -- --lab "$lab2" --kernel "$student2" --jobs 2
outcome again "an unchanged file's clean tool runs are remembered" 0 "0 ahead in helpers, 3 remembered, 0 in the judge"
if grep -q "profiler starting beside the build" "$tmp/again.out"; then
    fail "and no profiler is started ahead for a file built unchanged" "$(grep "load count" "$tmp/again.out")"
else
    pass "and no profiler is started ahead for a file built unchanged"
fi
holds again "so the counts are the first run's" 'r["technique"]["status"] == "ok"'
touch_kernel "$student2" changed
fake_run changed STENCIL_FAKE_NCU_LOADS=7,0 STENCIL_TRACE=1 -- --lab "$lab2" --kernel "$student2" --jobs 2
outcome changed "a changed file is asked again" 1 "3 ahead in helpers, 0 remembered, 0 in the judge"
outcome changed "its load count is served by the profiler started beside the build (the yardstick kept)" 1 \
    "the load count served by the executor started beside the build"
holds changed "loads from global memory fail the floors" \
    'r["technique"]["status"] == "fail" and "the neighbours come from global memory" in t'
touch_kernel "$student2" counters
fake_run noperm STENCIL_FAKE_NCU=no-permission -- --lab "$lab2" --kernel "$student2" --case 40
holds noperm "counters without permission: the floors not counted" \
    'r["technique"]["status"] == "ok" and "could not count the loads here" in t'
touch_kernel "$student2" profiled
fake_run profiled STENCIL_FAKE_NCU_GPU=wrong -- --lab "$lab2" --kernel "$student2" --case 40
holds profiled "a kernel wrong only under Nsight Compute fails the technique" \
    'c["N=40"]["status"] == "ok" and r["technique"]["status"] == "fail" and "under Nsight Compute, which counts the loads, case N=40 did not pass" in t'
fake_run kitonly STENCIL_FAKE_NCU=kit-only -- --lab "$lab2" --kernel "$student2" --case 40
holds kitonly "only the kit's kernels counted: no loads of the student's, the floors fail" \
    'r["technique"]["status"] == "fail" and "0.00 floats read from shared" in t'

echo "-- the load floors counted by the executor itself (the default, STENCIL_LOADS=cupti)"
# No Nsight Compute on PATH: the executor's own count (LOADS_OPTION) judges the floors, in an executor
# of its own started beside the cases, under the profiler's lock and the GPU alone; no profiler process.
touch_kernel "$student2" inprocess
mkdir -p "$tmp/locks-cupti"
fake_run inproc STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 STENCIL_FAKE_LOCKS_LOG="$tmp/inproc.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --gpu-lock-dir "$tmp/locks-cupti"
holds inproc "the executor's own count meets the floors, and says who counted" \
    'r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t and "(at least 3 from shared" in t'
if grep -qE "load count's profiler|Nsight Compute" "$tmp/inproc.out"; then
    fail "and no Nsight Compute run is started for it" "$(grep "load count" "$tmp/inproc.out")"
else
    pass "and no Nsight Compute run is started for it"
fi
check "the count is a run of its own, untimed, not the timed case's (its timing untouched by the profiler)" \
    test "$(grep -c "count-loads" "$tmp/inproc.locks")" = 1 -a "$(grep -c " timed count-loads$" "$tmp/inproc.locks")" = 0
# The relay: the count runs inside the judge's turn alone, after its timed case there, with no
# locks of its own (no other judge's shared work, and no drain, between the two).
relayed() {
    python3 - "$tmp/inproc.json" "$tmp/inproc.locks" <<'PY'
import json, sys
alone = [turn for turn in json.load(open(sys.argv[1]))["gpu_turns"] if turn[2] == 1]
lines = [line.split() for line in open(sys.argv[2])]
counts = [float(l[0][3:]) for l in lines if l[-1] == "count-loads" and l[1] == "-"]
timed = [float(l[0][3:]) for l in lines if "timed" in l]
print("alone turns:", alone, "count ran at:", counts, "timed ran at:", timed)
sys.exit(0 if alone and len(counts) == 1 and alone[0][0] <= counts[0] <= alone[0][1] and
         any(alone[0][0] <= t < counts[0] for t in timed) and all(t < counts[0] for t in timed if alone[0][0] <= t <= alone[0][1]) else 1)
PY
}
check "the count ran inside the judge's timed turn, after the timed case, with no locks of its own" relayed
# Every case's GPU work holds a turn: its own locks, or inside one of the judge's turns (a timed
# case inside one alone): the racecheck and the strict barriers' runs, the count, every case.
all_in_turns() {
    python3 - "$tmp/$1.json" "$tmp/$1.locks" <<'PY'
import json, sys
turns = json.load(open(sys.argv[1]))["gpu_turns"]
lines = [line.split() for line in open(sys.argv[2]) if line.split()[1:] not in (["idle"], ["done"])]
loose = [l for l in lines if l[1] == "-" and not any(t[0] <= float(l[0][3:]) <= t[1] and (t[2] == 1 or "timed" not in l) for t in turns)]
print("%d cases, %d with locks of their own, outside every turn: %s" % (len(lines), sum(l[1] != "-" for l in lines), loose))
sys.exit(0 if lines and not loose else 1)
PY
}
check "every case held a GPU turn: locks of its own, or inside the judge's (a timed one alone)" all_in_turns inproc
check "and the trace says the count ran inside the judge's turn" grep -q "gpu turn relayed: the load count runs inside it" "$tmp/inproc.out"
check "its executor started beside the build, then served the count" \
    grep -q "the load count served by the executor started beside the build" "$tmp/inproc.out"
check "the count ran ahead, in a helper beside the cases (with the sync case's strict barriers)" \
    grep -qE "tool runs: [1-9][0-9]* ahead in helpers, 0 remembered, 0 in the judge" "$tmp/inproc.out"
# The same file checked again: the count is remembered for the same built programs, not taken again.
fake_run inprocsame STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 STENCIL_FAKE_LOCKS_LOG="$tmp/inprocsame.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --gpu-lock-dir "$tmp/locks-cupti"
holds inprocsame "the same file again: its count remembered, the floors judged with it" \
    'r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t and "(at least 3 from shared" in t'
check "and no count run this time" test "$(cat "$tmp/inprocsame.locks" 2>/dev/null | grep -c "count-loads")" = 0
check "and the trace says it was remembered" grep -qE "tool runs: 0 ahead in helpers, [1-9][0-9]* remembered, 0 in the judge" "$tmp/inprocsame.out"
# A timed run that did not end well lets no count follow it inside the judge's turn, nor its helper
# count it later: one that hung would hang again there, holding every judge's GPU; one that crashed,
# or whose output the kit's check on the GPU found wrong (the executor's word that its GPU work is
# over says so), fails its case, and the loads are counted on the largest case that passed.
touch_kernel "$student2" timedhang
fake_run timedhang STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_GPU=hang STENCIL_FAKE_GPU_SIZE=40,40,40 STENCIL_TRACE=1 \
    STENCIL_FAKE_LOCKS_LOG="$tmp/timedhang.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --timeout 2 --gpu-lock-dir "$tmp/locks-cupti"
holds timedhang "a timed run that hangs fails its case" 'c["N=40"]["status"] != "ok"'
check "and no count runs inside its turn after it" sh -c "grep -q 'gpu turn alone' '$tmp/timedhang.out' && ! grep -q 'the load count runs inside it' '$tmp/timedhang.out'"
check "with a hung timed run too, every case held a GPU turn" all_in_turns timedhang
check "the count of the case that passed takes the profiler's lock and a turn alone of its own, never none" \
    sh -c "grep -qE '^at=[0-9.]+ [^ ]*gpu-0\.profiler,[^ ]*gpu-0\.tools-gate,[^ ]*gpu-0\.tools,[^ ]*gpu-0\.gate,[^ ]*gpu-0\.lock,alone count-loads\$' '$tmp/timedhang.locks' &&
        ! grep -qE '^at=[0-9.]+ - count-loads\$' '$tmp/timedhang.locks'"
touch_kernel "$student2" timedcrash
fake_run timedcrash STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_GPU=crash STENCIL_FAKE_GPU_SIZE=40,40,40 STENCIL_TRACE=1 \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --gpu-lock-dir "$tmp/locks-cupti"
holds timedcrash "a timed run that crashes fails its case" 'c["N=40"]["status"] != "ok"'
check "and no count follows inside its turn (its case failed)" sh -c "grep -q 'gpu turn alone' '$tmp/timedcrash.out' && ! grep -q 'the load count runs inside it' '$tmp/timedcrash.out'"
# A run that stops at a failing case before its timed one (--fail-fast) counts the loads of the
# largest case that passed; the helper started to count the timed case is ended, not waited for (it
# would take a turn alone of its own to count what nothing reads: 80 s a file with 24 judges on an H200).
touch_kernel "$student2" failfastcount
fake_run failfastcount STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_GPU=wrong STENCIL_FAKE_GPU_SIZE=34,34,34 STENCIL_TRACE=1 \
    STENCIL_FAKE_LOCKS_LOG="$tmp/failfastcount.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --fail-fast --gpu-lock-dir "$tmp/locks-cupti"
holds failfastcount "stopped at a failing case before the timed one, the loads are counted on the largest case that passed" \
    'c["N=34"]["status"] != "ok" and "N=40" not in c and r["technique"]["case"] == "N=13" and "the executor'"'"'s count, with CUPTI" in t'
check "with one count, the judge's: the timed case's helper ended uncounted" \
    sh -c "test \"\$(grep -c 'count-loads' '$tmp/failfastcount.locks')\" = 1 && grep -qE 'tool runs: [0-9]+ ahead in helpers, 0 remembered, 1 in the judge' '$tmp/failfastcount.out'"
# A file changed within the second its last build ended (the clock's grain): the copy this run
# stages before the build is newer than that program whatever their times say, so the load count's
# executor still starts beside the build. (Here the program is dated ahead, then removed.)
touch_kernel "$student2" sametick
staged=$(grep -lF "$student2" "$kit"/build/gpu/02-shared-tile/k-*/kernel.cu 2>/dev/null | head -1)
check "the file's last build left its program (dated ahead next)" test -n "$staged" -a -x "${staged%/kernel.cu}/student"
touch -c -d '+1 hour' "${staged%/kernel.cu}/student" 2>/dev/null
fake_run sametick STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 PATH="$tmp/tools-none:$base_path" \
    -- --lab "$lab2" --kernel "$student2" --jobs 2 --case 40
[ -n "$staged" ] && rm -f "${staged%/kernel.cu}/student"
check "a file changed in the second of its last build: the count's executor starts beside the build" \
    grep -q "the load count's executor starting beside the build" "$tmp/sametick.out"
# A case's turn ends at the executor's word that its GPU work is over (PROTOCOL_SERVE_GPU_IDLE), not
# after its host work (a timed case's wait for a late call, its files): here 600 ms of it a case.
touch_kernel "$student2" idleturn
mkdir -p "$tmp/locks-idle"
fake_run idleturn STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_HOST_MS=600 STENCIL_FAKE_LOCKS_LOG="$tmp/idleturn.locks" \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --jobs 2 --gpu-lock-dir "$tmp/locks-idle"
turns_end_at_idle() {
    python3 - "$tmp/idleturn.json" "$tmp/idleturn.locks" <<'PY'
import json, sys
turns = json.load(open(sys.argv[1]))["gpu_turns"]
lines = [line.split() for line in open(sys.argv[2])]
idle = [float(l[0][3:]) for l in lines if l[1:] == ["idle"]]
done = [float(l[0][3:]) for l in lines if l[1:] == ["done"]]
alone = [t for t in turns if t[2] == 1]
# every turn alone ends after some case's GPU work ended inside it, and more than 0.3 s before that case's host work did
ok = alone and all(any(t[0] <= i <= t[1] and t[1] < d - 0.3 for i, d in zip(idle, done)) for t in alone)
print("alone turns:", alone, "idle at:", idle, "done at:", done)
sys.exit(0 if ok and len(idle) == len(done) > 0 else 1)
PY
}
holds idleturn "a file whose cases end with host work after their GPU work passes" 'r["verdict"] == "pass" and r["failed"] == 0'
check "its turns alone end at the executor's word that the GPU work is over, before the case's host work" turns_end_at_idle
# A file that does not compile, the count's executor already started beside its build: the
# helper waiting for the programs ends on the judge's SIGTERM at once, not killed 2 s later.
broken2=$tmp/broken-02.cu
{ cat "$student2"; echo "this line is no C++"; } >"$broken2"
fake_run broken STENCIL_LOADS=cupti STENCIL_TRACE=1 PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$broken2" --jobs 2
check "a file that does not compile, its count's executor started: the run ends as a compile error" \
    grep -q "the load count's executor starting beside the build" "$tmp/broken.out"
check "and the helper waiting for the programs ends on SIGTERM (none killed after the grace)" \
    test "$(cat "$tmp/broken.status")" != 0 -a "$(grep -c "still running 2 s after SIGTERM" "$tmp/broken.out")" = 0
touch_kernel "$student2" inprocglobal
fake_run inprocglobal STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=7,0 PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --case 40
holds inprocglobal "loads from global memory fail the floors, counted in the executor" \
    'r["technique"]["status"] == "fail" and "the neighbours come from global memory" in t'
# hold_profiler SECONDS: another judge's profiler holds the lock that long from its return, or
# until $tmp/locks-wait/release appears.
hold_profiler() {
    rm -f "$tmp/locks-wait/held" "$tmp/locks-wait/release"
    (flock -x 9 && touch "$tmp/locks-wait/held" &&
        for _ in $(seq $(($1 * 10))); do [ -e "$tmp/locks-wait/release" ] && break; sleep 0.1; done) 9>"$tmp/locks-wait/gpu-0.profiler" &
    holder=$!
    for _ in $(seq 100); do [ -e "$tmp/locks-wait/held" ] && break; sleep 0.1; done
}
# Another judge's profiler holds the GPU's profiler lock past the lab's time limit (--timeout 2): a
# count taking its own locks (--jobs 1: counted by the judge after the cases, not relayed) waits for
# it, inside the executor, and still counts (its limit is a tool run's, not the case's).
touch_kernel "$student2" countwait
mkdir -p "$tmp/locks-wait"
hold_profiler 7
waited_from=$SECONDS
fake_run countwait STENCIL_LOADS= STENCIL_FAKE_NCU_LOADS=1.5,7 PATH="$tmp/tools-none:$base_path" \
    -- --lab "$lab2" --kernel "$student2" --case 40 --timeout 2 --gpu-lock-dir "$tmp/locks-wait" --jobs 1
waited=$((SECONDS - waited_from))
wait "$holder"
holds countwait "a count waiting past the lab's time limit for another judge's profiler lock still counts" \
    'r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t'
check "and it did wait for the lock, past the limit (the run took ${waited} s, the lock was held 7)" test "$waited" -ge 4
# The count relayed into the judge's turn alone (--jobs 2) takes no profiler's lock: the turn keeps
# every other GPU work out. The run ends while the other judge still holds the lock (held
# a minute, however slow a loaded machine makes the run; ended after it).
touch_kernel "$student2" countinside
hold_profiler 60
fake_run countinside STENCIL_LOADS= STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 PATH="$tmp/tools-none:$base_path" \
    -- --lab "$lab2" --kernel "$student2" --case 40 --timeout 2 --gpu-lock-dir "$tmp/locks-wait" --jobs 2
kill -0 "$holder" 2>/dev/null && inside_held=1 || inside_held=0
touch "$tmp/locks-wait/release"
wait "$holder"
holds countinside "a count relayed into the judge's turn counts while another judge holds the profiler's lock" \
    'r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t'
check "and it ran inside the judge's turn, the lock still held elsewhere when the run ended" \
    test "$inside_held" = 1 -a "$(grep -c "the load count runs inside it" "$tmp/countinside.out")" = 1
# A program that launches another kernel when its loads are counted than when it was judged and timed.
touch_kernel "$student2" otherlaunch
fake_run otherlaunch STENCIL_LOADS=cupti STENCIL_FAKE_LOADS=other-launch PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --case 40
holds otherlaunch "a count run that launched another kernel than the case judged fails the technique, naming both" \
    'c["N=40"]["status"] == "ok" and r["technique"]["status"] == "fail" and "counted_kernel<<<(1,1,1), (32,1,1)>>>" in t and "where it had launched 1 launch(es), the first " in t'
touch_kernel "$student2" inprocmissing  # (a count of the same programs is remembered)
fake_run inprocmissing STENCIL_LOADS=cupti STENCIL_FAKE_LOADS=missing PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --case 40
holds inprocmissing "a count the executor could not take leaves the floors unchecked and says why" \
    'r["technique"]["status"] == "ok" and "the executor could not count the loads here (CUPTI" in t'
# Every other missing count ends in no pass (the trust model: a count the kernel could make fail must not
# leave its floors unchecked): more launches than the profiler follows fail the technique, counters busy
# past the executor's wait or a fault are the kit's error (run again), and so is a reason without its kind.
missing_count() {  # NAME MODE [VAR=VALUE...]: lab 2's file with the executor's count missing by MODE, no ncu on PATH
    local name=$1 mode=$2
    shift 2
    touch_kernel "$student2" "$name"
    fake_run "$name" STENCIL_LOADS=cupti STENCIL_FAKE_LOADS="$mode" PATH="$tmp/tools-none:$base_path" "$@" -- --lab "$lab2" --kernel "$student2" --case 40
}
missing_count inproclaunches launches
holds inproclaunches "more launches in the counted call than the count follows fail the technique, saying so" \
    'c["N=40"]["status"] == "ok" and r["technique"]["status"] == "fail" and "launched more kernels in one call than the count follows" in t'
missing_count inprocbusy busy
outcome inprocbusy "counters another profiler held past the executor's wait: a kit error in one line, no verdict" 2 \
    "the loads of case N=40 could not be counted: cuptiRangeProfilerStart failed: CUPTI_ERROR_HARDWARE_BUSY (a fake's): another profiler"
holds inprocbusy "and its JSON's verdict is error, its cases still there" 'r["verdict"] == "error" and c["N=40"]["status"] == "ok"'
missing_count inprocfault fault
outcome inprocfault "a count that failed after the call: a kit error, run again" 2 "could not be counted (cuptiRangeProfilerDecodeData failed"
missing_count inprocunnamed unnamed
outcome inprocunnamed "a missing count whose kind the report does not name: a kit error, never unchecked" 2 "a reason without its kind"
missing_count inproccrash crash
outcome inproccrash "a count run killed by a signal (no stage of the student's): the kit's error, neither a pass nor the student's failure" 2 \
    "the run that counts the loads of case N=40 failed in the kit's own part"
missing_count inprocbusyonce busy-once STENCIL_FAKE_LOADS_STATE="$tmp/busyonce.state" STENCIL_TRACE=1
holds inprocbusyonce "counters busy once: the judge counts again, in a turn of its own, and judges the floors with that count" \
    'r["verdict"] == "pass" and r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t'
check "and the trace says why it counted again" grep -q "load count: the GPU's counters were busy (cuptiRangeProfilerStart failed: CUPTI_ERROR_HARDWARE_BUSY (a fake's)); counting again in 1 s" "$tmp/inprocbusyonce.out"
touch_kernel "$student2" inprocbusyncu
fake_run inprocbusyncu STENCIL_LOADS=cupti STENCIL_FAKE_LOADS=busy STENCIL_FAKE_NCU_LOG="$tmp/inprocbusyncu.ncu" -- --lab "$lab2" --kernel "$student2" --case 40
outcome inprocbusyncu "busy counters with Nsight Compute on PATH: still the kit's error" 2 "another profiler"
check "and Nsight Compute is not asked (the counters busy for it too)" test ! -s "$tmp/inprocbusyncu.ncu"
touch_kernel "$student2" ncufailed
fake_run ncufailed STENCIL_FAKE_NCU=failed -- --lab "$lab2" --kernel "$student2" --case 40
outcome ncufailed "Nsight Compute that counted nothing for a reason of its own (not the counters' permission): a kit error" 2 \
    "Nsight Compute said: Failed to profile"
touch_kernel "$student2" ncunamed
fake_run ncunamed STENCIL_FAKE_NCU=failed-named -- --lab "$lab2" --kernel "$student2" --case 40
outcome ncunamed "ncu's error naming a kernel called like the permission error (ERR_NVGPUCTRPERM): still the kit's error, not unchecked" 2 \
    "Nsight Compute said: Failed to profile"
touch_kernel "$student2" latecount
fake_run latecount STENCIL_LOADS=cupti STENCIL_FAKE_LOADS=late STENCIL_TRACE=1 PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --case 40
check "a count prepared late (its executor's start could not) says why in the trace, printable" \
    grep -qE "^trace: [0-9.]+ N=40: the count's preparation at its executor's start failed: CUPTI_ERROR_NOT_READY: a fake's, with a\?\[31m control$" "$tmp/latecount.out"

# The default (STENCIL_LOADS unset): the executor counts, though Nsight Compute is on PATH.
touch_kernel "$student2" inprocdefault
fake_run inprocdefault STENCIL_LOADS= STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 STENCIL_FAKE_NCU_LOG="$tmp/inprocdefault.ncu" \
    -- --lab "$lab2" --kernel "$student2" --case 40
holds inprocdefault "by default the executor counts the loads, Nsight Compute on PATH or not" \
    'r["technique"]["status"] == "ok" and "the executor'"'"'s count, with CUPTI" in t'
check "and Nsight Compute, on PATH, never runs by default" test ! -s "$tmp/inprocdefault.ncu"
# The executor cannot count (no CUPTI here): Nsight Compute, on PATH, counts them instead.
touch_kernel "$student2" inprocfallback
fake_run inprocfallback STENCIL_LOADS= STENCIL_FAKE_LOADS=missing STENCIL_FAKE_NCU_LOADS=7,0 STENCIL_TRACE=1 STENCIL_FAKE_NCU_LOG="$tmp/inprocfallback.ncu" \
    -- --lab "$lab2" --kernel "$student2" --case 40
holds inprocfallback "a count the executor cannot take is taken by Nsight Compute, which finds loads from global memory" \
    'r["technique"]["status"] == "fail" and "the neighbours come from global memory" in t and "CUPTI" not in t'
check "and the trace says why Nsight Compute counted" grep -q "the executor could not count the loads (CUPTI" "$tmp/inprocfallback.out"
check "and Nsight Compute ran once for it" test "$(grep -c '^ncu ' "$tmp/inprocfallback.ncu" 2>/dev/null)" = 1

fake_run loadsbad STENCIL_LOADS=cupt -- --lab "$lab2" --kernel "$student2" --case 40
outcome loadsbad "STENCIL_LOADS of another value: exit 2, one line naming it and the two it may take" 2 \
    "STENCIL_LOADS=cupt is no way to count the loads: use cupti (the executor itself, the default) or ncu (Nsight Compute)"

echo "-- racecheck and the strict barriers on the sync case"
touch_kernel "$student2" race
fake_run race STENCIL_FAKE_SANITIZER=hazard -- --lab "$lab2" --kernel "$student2" --case 34
holds race "a racecheck hazard fails the sync case" \
    'c["N=34"]["hint_key"] == "missing-barrier" and "RAW hazard on shared memory in block (2,1,0)" in c["N=34"]["detail"]'
holds race "and the note says the GPU's own run passed" '"the GPU\u0027s own run passed" in c["N=34"]["note"]'
# The racecheck that found the race is traced as a run that passed is: its turn (its own locks, a long
# one, beside other judges) held the GPU as long as any, and tests/bench/class_timeline.py must see it.
mkdir -p "$tmp/locks-race"
fake_run racetraced STENCIL_FAKE_SANITIZER=hazard STENCIL_TRACE=1 -- --lab "$lab2" --kernel "$student2" --case 34 --gpu-lock-dir "$tmp/locks-race"
check "with turns, the racecheck that found the race has its trace line, as the GPU's own run has" \
    test "$(grep -cE "^trace: [0-9.]+ N=34: input .*, runner [0-9.]+ s from [0-9.]+ \(.*\), judged" "$tmp/racetraced.out")" = 2
# A kernel with many hazards keeps the real racecheck busy for tens of seconds after its first
# (25.9 s against 2.1 s on an H200), holding its turn: the judge ends the run once the first is whole.
# (Its runs: the GPU's own and racecheck's, and the strict barriers' when it ended before the run did.)
touch_kernel "$student2" racelinger
fake_run racelinger STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_SANITIZER_LINGER=25 STENCIL_TRACE=1 -- --lab "$lab2" --kernel "$student2" --case 34
holds racelinger "a racecheck that goes on after its first hazard: the race still fails the sync case" \
    'c["N=34"]["hint_key"] == "missing-barrier" and "RAW hazard on shared memory in block (2,1,0)" in c["N=34"]["detail"]'
check "and its run ended at that hazard, not 25 s later (the runs: $(grep -oE "N=34: input .*, runner [0-9.]+ s" "$tmp/racelinger.out" | grep -oE "runner [0-9.]+" | tr '\n' ' '))" \
    python3 -c 'import re, sys; t = [float(x) for x in re.findall(r"N=34: input .*?, runner ([0-9.]+) s", open(sys.argv[1]).read())]; sys.exit(not (len(t) >= 2 and max(t) < 15))' "$tmp/racelinger.out"
fake_run racewarn STENCIL_FAKE_SANITIZER=warning -- --lab "$lab2" --kernel "$student2" --case 34
holds racewarn "a hazard racecheck calls a warning fails the sync case too" 'c["N=34"]["hint_key"] == "missing-barrier"'
fake_run lookrace STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_GPU=wrong STENCIL_FAKE_GPU_SIZE=5,5,5 -- --lab "$lab2" --kernel "$student2" --case 5
holds lookrace "a case of wrong values gets a second look for a race" \
    'c["N=5"]["hint_key"] == "missing-barrier" and "the wrong values come from this race" in c["N=5"]["note"]'
# A race can leave whole planes wrong (a plane overwritten while neighbours still read it): those
# get the second look too; with no race found they keep their own hint.
# (the emulator's look alone, on the CPU: racecheck's long turns would hold every timed case back;
# here thread 0 waits at a barrier of its own, which the GPU forgives: the fake GPU's run, which has
# STENCIL_FAKE_GPU in its environment, takes the one barrier; the emulator's, with none, the two)
divergent=$tmp/divergent-barrier.cu
{
    echo '#include <stdlib.h>'
    echo 'static int fake_gpu_forgives;'
    sed -e 's|^    __syncthreads();$|    if (threadIdx.x > 0 \|\| fake_gpu_forgives)\n        __syncthreads();\n    else\n        __syncthreads();|' \
        -e 's|^    unsigned int tiles = |    fake_gpu_forgives = getenv("STENCIL_FAKE_GPU") != NULL;\n&|' "$student2"
} >"$divergent"
fake_run lookplane STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_GPU=wrong-plane STENCIL_FAKE_GPU_SIZE=5,5,5 -- --lab "$lab2" --kernel "$divergent" --case 5
holds lookplane "a case wrong in a whole plane gets the emulator's second look: a divergent barrier named" \
    'c["N=5"]["hint_key"] == "divergent-barrier" and "strict barriers" in c["N=5"]["note"]'
fake_run planenorace STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_GPU=wrong-plane STENCIL_FAKE_GPU_SIZE=5,5,5 -- --lab "$lab2" --kernel "$student2" --case 5
holds planenorace "and with no race there it keeps its whole-planes hint, no racecheck run" \
    'c["N=5"]["hint_key"] == "whole-planes" and "racecheck" not in c["N=5"]["note"] + c["N=5"]["detail"]'
# A kernel with no shared memory has no race on it: its whole-plane wrong values get no racecheck
# (the fake one would name a hazard).
fake_run planenoshared STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_GPU=wrong-plane STENCIL_FAKE_GPU_SIZE=5,5,5 -- --lab "$lab1" --kernel "$student1" --case 5
holds planenoshared "and a kernel with no shared memory keeps it with no racecheck run" \
    'c["N=5"]["hint_key"] == "whole-planes" and "racecheck" not in c["N=5"]["note"] + c["N=5"]["detail"]'
tools=$tmp/tools-none
if [ -n "$toolkit_on_path" ]; then
    skip "the runs without ncu and compute-sanitizer" "the folders of make and the compilers hold the real ones ($toolkit_on_path)"
else
    fake_run nosan -- --lab "$lab2" --kernel "$student2" --case 34
    holds nosan "without compute-sanitizer the race check is skipped, said so" \
        '"race check skipped: compute-sanitizer is not on PATH" in c["N=34"]["note"]'
    holds nosan "and without ncu the floors are not counted, said so" '"is not on PATH" in t'
    fake_run sanmissing -- --lab "$lab2" --kernel "$student2" --case 5 --sanitize
    outcome sanmissing "SANITIZE=1 without compute-sanitizer: a one-line reason" 2 "SANITIZE=1 needs compute-sanitizer, which is not on PATH"
    fake_run profilenone -- --lab "$lab2" --kernel "$student2" --case 40 --profile
    holds profilenone "PROFILE=1 without ncu: OP/B not measured, said so" \
        '"OP/B not measured: Nsight Compute (ncu) is not installed or not on PATH" in c["N=40"]["note"]'
fi
tools=$tmp/tools-all
fake_run memcheck STENCIL_FAKE_SANITIZER=error -- --lab "$lab2" --kernel "$student2" --case 13 --sanitize
holds memcheck "memcheck's error fails the case with its access" \
    'c["N=13"]["hint_key"] == "kernel-fault" and "Invalid __global__ read of size 4 bytes" in c["N=13"]["detail"]'
touch_kernel "$student2" sidebyside  # the load count's helper runs, and ends while the slow cases run side by side
fake_run memclean STENCIL_FAKE_SANITIZER_SECONDS=3 -- --lab "$lab2" --kernel "$student2" --sanitize --jobs 2
outcome memclean "a clean file passes under SANITIZE=1, its cases side by side while a helper ends, the sized ones after in the judge" 0 "verdict: PASS — 6 of 6 cases passed"
# With turns: the cases side by side run in workers inside the judge's shared turn, their memcheck runs
# inside it too (a long turn of their own would wait behind another judge's timer waiting for that turn).
mkdir -p "$tmp/locks-san"
touch_kernel "$student2" santurns
fake_run santurns STENCIL_FAKE_LOCKS_LOG="$tmp/santurns.locks" -- --lab "$lab2" --kernel "$student2" --sanitize --jobs 2 \
    --gpu-lock-dir "$tmp/locks-san"
outcome santurns "SANITIZE=1 with turns passes" 0 "verdict: PASS — 6 of 6 cases passed"
check "its three memcheck runs side by side ran inside the judge's shared turn, no locks of their own" \
    test "$(grep -cE '^at=[0-9.]+ -$' "$tmp/santurns.locks" 2>/dev/null)" -ge 3
check "and every case held a turn" all_in_turns santurns
fake_run profile -- --lab "$lab2" --kernel "$student2" --case 40 --profile
holds profile "PROFILE=1 measures OP/B with ncu on the timed case" '"OP/B measured with ncu" in c["N=40"]["note"]'

echo "-- judges side by side taking turns on the GPU"
mkdir -p "$tmp/locks"
touch_kernel "$student2" turns
fake_run turns STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_TRACE=1 CUDA_VISIBLE_DEVICES=3,5 STENCIL_FAKE_LOCKS_LOG="$tmp/turns.locks" -- \
    --lab "$lab2" --kernel "$student2" --gpu-lock-dir "$tmp/locks" --gpu-slots 2 --jobs 2
outcome turns "a run with turns passes, its tool runs in helpers beside it" 0 "tool runs: 3 ahead in helpers, 0 remembered, 0 in the judge"
check "it takes its turns through lock files" test -f "$tmp/locks/gpu-0.lock" -a -f "$tmp/locks/gpu-0.gate" -a -f "$tmp/locks/gpu-0.tools"
# compute-sanitizer's run holds a long turn (tools shared: a timer waits for it without the gate, the
# short shared turns going on); Nsight Compute's load count a shared one under the profiler's lock.
check "the sanitizer's run takes a long turn, no profiler's lock; ncu's count a shared turn under it" \
    sh -c "grep -qE '^at=[0-9.]+ -,[^ ]*gpu-0\.tools-gate,[^ ]*gpu-0\.tools,[^ ]*gpu-0\.gate,[^ ]*gpu-0\.lock,long\$' '$tmp/turns.locks' &&
        grep -qE '^at=[0-9.]+ [^ ]*gpu-0\.profiler,[^ ]*gpu-0\.tools-gate,[^ ]*gpu-0\.tools,[^ ]*gpu-0\.gate,[^ ]*gpu-0\.lock\$' '$tmp/turns.locks'"
holds turns "its turns are in the report, a timed one alone" 'r["gpu_turns"] and any(turn[2] == 1 for turn in r["gpu_turns"])'
holds turns "and each turn taken is given back" 'all(0 < turn[0] <= turn[1] for turn in r["gpu_turns"])'
# Another judge holds GPU 0 (slot 0's lock): this one chooses slot 1, the caller's second GPU, before
# anything starts, and every executor it starts (here the probe's and the count's) sees only it.
mkdir -p "$tmp/locks-slot"
rm -f "$tmp/locks-slot/held"
(flock -x 9 && touch "$tmp/locks-slot/held" && exec sleep 30) 9>"$tmp/locks-slot/gpu-0.lock" &  # (exec: the kill below ends the holder)
slot_holder=$!
for _ in $(seq 100); do [ -e "$tmp/locks-slot/held" ] && break; sleep 0.1; done
touch_kernel "$student2" slot
fake_run slot STENCIL_LOADS=cupti STENCIL_FAKE_NCU_LOADS=1.5,7 STENCIL_FAKE_ENV_LOG="$tmp/slot.env" CUDA_VISIBLE_DEVICES=3,5 \
    PATH="$tmp/tools-none:$base_path" -- --lab "$lab2" --kernel "$student2" --gpu-lock-dir "$tmp/locks-slot" --gpu-slots 2 --jobs 2
kill "$slot_holder" 2>/dev/null; wait "$slot_holder" 2>/dev/null
outcome slot "a judge beside one holding GPU 0 passes on GPU 1" 0 "verdict: PASS"
mkdir -p "$tmp/locks-few"
fake_run slotsfew CUDA_VISIBLE_DEVICES=3 -- --lab "$lab2" --kernel "$student2" --gpu-lock-dir "$tmp/locks-few" --gpu-slots 2
outcome slotsfew "two GPUs to share where CUDA_VISIBLE_DEVICES names one: refused in one line, naming both" 2 \
    "the judges are to share 2 GPUs (--gpu-slots, GPUS=) but CUDA_VISIBLE_DEVICES=3 names 1: give at most 1"
check "every executor it started ran on GPU 1 alone ($(sort "$tmp/slot.env" 2>/dev/null | uniq -c | tr -s ' \n' ' '))" \
    sh -c "test \"\$(grep -c . '$tmp/slot.env')\" -ge 2 && ! grep -v 'CUDA_VISIBLE_DEVICES=5\$' '$tmp/slot.env'"
# Two judges side by side, the solution's figures not kept yet (a class's first judges): one
# times the solution, the other waits for it and takes the figures it kept.
rm -rf "$kit/build/yardstick"
mkdir -p "$tmp/locks-yard"
cp "$student1" "$tmp/yard-a.cu" && cp "$student1" "$tmp/yard-b.cu" && touch_kernel "$tmp/yard-b.cu" yardb
fake_run yarda STENCIL_FAKE_LOCKS_LOG="$tmp/yard.locks" STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$tmp/yard-a.cu" --case 40 --gpu-lock-dir "$tmp/locks-yard" &
fake_run yardb STENCIL_FAKE_LOCKS_LOG="$tmp/yard.locks" STENCIL_TRACE=1 -- --lab "$lab1" --kernel "$tmp/yard-b.cu" --case 40 --gpu-lock-dir "$tmp/locks-yard"
wait
check "two judges side by side time the solution once ($(grep -c " yardstick" "$tmp/yard.locks") run(s))" \
    test "$(grep -c " yardstick timed" "$tmp/yard.locks")" = 1
check "and the other scores against the figures it kept" grep -q "yardstick: the solution's figures kept in" "$tmp/yarda.out" "$tmp/yardb.out"
holds yarda "both score their speed against the solution" '[i for i in r["score"]["items"] if i["name"] == "speed"][0]["detail"].find("% of the lab") > 0'
holds yardb "both score their speed against the solution" '[i for i in r["score"]["items"] if i["name"] == "speed"][0]["detail"].find("% of the lab") > 0'
mkdir -p "$tmp/locks-ncu"
touch_kernel "$student2" profiler
fake_run turnsncu STENCIL_FAKE_NCU_LOADS=1.5,7 -- --lab "$lab2" --kernel "$student2" --case 40 --gpu-lock-dir "$tmp/locks-ncu" --jobs 1
outcome turnsncu "the load count under turns passes" 0 "verdict: PASS"
check "the executor under Nsight Compute takes the GPU's profiler lock the judge names" test -f "$tmp/locks-ncu/gpu-0.profiler"

echo "-- whole solves and the image convolution"
student5=$(solution_copy 05-jacobi)
fake_run jacobi -- --lab "$kit/labs/05-jacobi" --kernel "$student5"
outcome jacobi "lab 5's solution passes, its solve timed" 0 "verdict: PASS"
reps5=$("$judge" --kit "$kit" --lab "$kit/labs/05-jacobi" --conf-get time_reps)
holds jacobi "the timed solve carries the executor's figures ($reps5 repetitions, lab.conf's time_reps)" \
    "any((case['timing'] or {}).get('reps') == $reps5 for case in r['cases'])"
# The sync case's barrier checks are taken after the untimed cases: the large untimed case after it
# runs while its racecheck (2 s here) does, not after it. Trace lines lead with the wall clock.
touch_kernel "$student5" deferred
fake_run deferred STENCIL_FAKE_SANITIZER_SECONDS=2 STENCIL_TRACE=1 -- --lab "$kit/labs/05-jacobi" --kernel "$student5"
outcome deferred "a slow racecheck of the sync case: the solve passes" 0 "verdict: PASS"
check "and the untimed case after the sync case started before its racecheck ended" python3 -c '
import re, sys
start, end = {}, {}
for line in open(sys.argv[1]):  # "trace: CLOCK NAME: input I s, runner R s (...), judged J s", written as the case ends
    m = re.match(r"trace: ([0-9.]+) (\S+): input ([0-9.]+) s, runner ([0-9.]+) s.*judged ([0-9.]+) s", line)
    if m and (m.group(2) != "20x17x9" or float(m.group(4)) >= 2.0):  # the sync case: its racecheck run, the slow one
        t, i, r, j = (float(m.group(k)) for k in (1, 3, 4, 5))
        start[m.group(2)], end[m.group(2)] = t - j - r - i, t - j
d = (start["256x256x128"] - end["20x17x9"]) % 3600  # seconds within the hour: across an hour it wraps
sys.exit(0 if d > 1800 else 1)' "$tmp/deferred.out"
# The barrier checks are taken after the timed case too, yet racecheck's run on the GPU (its long
# turn, held here 6 s: longer than every untimed case) still ends before the timed case runs.
touch_kernel "$student5" alonewait
fake_run alonewait STENCIL_FAKE_LONG_TURN_MS=6000 STENCIL_FAKE_LOCKS_LOG="$tmp/alonewait.locks" \
    STENCIL_FAKE_LOCKS_GAVE_LOG="$tmp/alonewait.gave" -- --lab "$kit/labs/05-jacobi" --kernel "$student5"
outcome alonewait "a racecheck holding the GPU longer than the untimed cases: the solve passes" 0 "verdict: PASS"
check "and the timed case ran after racecheck's long turn was given back: $(grep -h ',long$\| timed$' "$tmp/alonewait.locks" "$tmp/alonewait.gave" 2>/dev/null | cut -c1-20 | tr '\n' ' ')" \
    python3 -c '
import sys
took = [l.split() for l in open(sys.argv[1])]
gave = [l.split() for l in open(sys.argv[2])]
timed = [float(w[0][3:]) for w in took if w[-1] == "timed"]
race = [float(w[0][5:]) for w in gave if w[1].endswith(",long")]
sys.exit(0 if len(timed) == 1 and len(race) == 1 and timed[0] >= race[0] else 1)' "$tmp/alonewait.locks" "$tmp/alonewait.gave"
# Where the kernel has no Landlock (tests/fakes/no_landlock.c: its calls fail as there), the
# strict barriers' emulation, student code on the CPU whose writes nothing confines, runs in no
# helper beside the GPU's cases (it could rewrite their files): the judge runs it after them.
if cc -O2 -o "$tmp/no-landlock" tests/fakes/no_landlock.c 2>"$tmp/no-landlock.log"; then
    touch_kernel "$student5" nolandlock
    wrap=$tmp/no-landlock fake_run nolandlock STENCIL_TRACE=1 -- --lab "$kit/labs/05-jacobi" --kernel "$student5"
    outcome nolandlock "without Landlock the solve passes, racecheck alone beside the cases" 0 "tool runs: 1 started beside the cases"
    outcome nolandlock "and the strict barriers run in the judge, after the cases" 0 "tool runs: 1 ahead in helpers, 0 remembered, 1 in the judge"
    touch_kernel "$student5" landlock
    fake_run landlock STENCIL_TRACE=1 -- --lab "$kit/labs/05-jacobi" --kernel "$student5"
    outcome landlock "with Landlock both run beside the cases" 0 "tool runs: 2 ahead in helpers, 0 remembered, 0 in the judge"
else
    skip "the barrier checks without Landlock" "tests/fakes/no_landlock.c does not build: $(head -c 200 "$tmp/no-landlock.log")"
fi
# With --fail-fast a sync case that fails its barrier checks ends the run there: the case after it never runs.
touch_kernel "$student5" deferredff  # (the clean racecheck above is remembered for the unchanged file)
fake_run deferredff STENCIL_FAKE_SANITIZER=hazard STENCIL_FAKE_GPU=wrong STENCIL_FAKE_GPU_SIZE=256,256,128 STENCIL_TRACE=1 -- \
    --lab "$kit/labs/05-jacobi" --kernel "$student5" --fail-fast
holds deferredff "--fail-fast: the race in the sync case fails it" 'c["20x17x9"]["hint_key"] == "missing-barrier" and "256x256x128" not in c'
check "and the case after it never ran" sh -c "! grep -q '^trace: [0-9.]* 256x256x128:' '$tmp/deferredff.out'"
fake_run jacobiwrong STENCIL_FAKE_GPU=rep-wrong -- --lab "$kit/labs/05-jacobi" --kernel "$student5" --case 24x20x16
holds jacobiwrong "a wrong timed solve: timed-rep-wrong" '"timed-rep-wrong" in hints'
fake_run jacobinoout STENCIL_FAKE_GPU=no-output -- --lab "$kit/labs/05-jacobi" --kernel "$student5" --case 20x17x9
holds jacobinoout "a solve said finished without its grids: runner-failed" \
    'c["20x17x9"]["hint_key"] == "runner-failed" and "output files are missing" in c["20x17x9"]["reason"]'
fake_run jacobigpu STENCIL_FAKE_GPU=gpu-check STENCIL_TRACE=1 -- --lab "$kit/labs/05-jacobi" --kernel "$student5" --case 256x256x128
outcome jacobigpu "a large solve judged right on the GPU passes with no grid back" 0 "verdict: PASS"
holds jacobigpu "its note says it was judged on the GPU" '"judged on the GPU" in c["256x256x128"]["note"]'
check "and no reference was solved on the CPU for it" sh -c "! grep -q 'reference made ahead' '$tmp/jacobigpu.out'"
fake_run jacobicpu -- --lab "$kit/labs/05-jacobi" --kernel "$student5" --case 256x256x128
outcome jacobicpu "a large solve the GPU did not find right: its grids judged by the judge, which passes it" 0 "verdict: PASS"
holds jacobicpu "judged by the judge, not the GPU" '"judged on the GPU" not in c["256x256x128"]["note"]'
fake_run jacobidraw STENCIL_FAKE_GPU=fill-differs -- --lab "$kit/labs/05-jacobi" --kernel "$student5" --case 35x30x17
outcome jacobidraw "a solve's problem drawn on the GPU unlike the judge's: the kit's fault (exit 2), the case named" 2 \
    "could not run case 35x30x17: the input the executor drew on the GPU is not the judge's (the kit's fault"
fake_run heat -- --lab "$kit/labs/10-heat-2d" --solution
outcome heat "lab 10's solution passes, its padded rows through the executor" 0 "verdict: PASS"
fake_run conv STENCIL_FAKE_NCU_LOADS=2,30 -- --lab "$kit/labs/00-convolution" --solution
outcome conv "lab 0's solution passes, its filter radius on the executor's line" 0 "verdict: PASS"
holds conv "its loads per pixel are counted" '"floats read from shared and" in t and "per output pixel" in t'

finish fake-gpu
