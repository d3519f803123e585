#!/usr/bin/env bash
# tests/device_coverage.sh — on a GPU machine: the line coverage of the
# executor's host code (grader/executor/*.cu), the room `make coverage`
# cannot measure without a GPU. Builds the executor with gcov's counts
# (grader/build.mk's EXEC_COVERAGE=1 into build/gpu/detected/executor-coverage,
# the executor the judge runs under STENCIL_EXECUTOR_COVERAGE=1; the plain one
# is left as it is), clears its counts, and runs on it tests/device_checker.sh
# (linked with the instrumented trusted.o), the executor started by hand with
# arguments the judge never sends (each must end in one line, exit 2), and
# tests/labs.sh gpu: first the solutions and hostile files of LABS (default
# "1 0 2 5 6 9 10": the cube, image and grid sweeps, the load counts, the whole
# solves of both updates; the hostile files drive the refusals), then in the
# time left the variants of VARIANT_LABS (default "1 2 6": the device's, a
# kernel's attributes and its occupancy asked) and the skeletons and mutants of
# MUTANT_LABS (default "10 5 0"), JOBS judges side by side over GPUS GPUs (as
# tests/device_all.sh: all of them, tests/labs.sh's judges a GPU). Then counts
# with plain gcov (no lcov) and prints a line a file, its lines, those that ran
# and their share, and the room's total. Host code only: the lines of
# __global__ functions (device code, where gcov counts the compiler's launch
# stub) and those between LCOV_EXCL_START and LCOV_EXCL_STOP (the student's
# child between fork and execve, confined, which writes no counts) are left
# out of the share, and the table says how many.
# LIMIT=s bounds the labs' seconds (default 180), saying so when reached: the
# counts of the executors that ended stay. Logs and the annotated sources
# (gcov's "#####" marks a line that never ran) go to build/tests/device_coverage/;
# with OUT=DIR, all of it in one file, DIR/device_coverage.tgz.
#
# usage: tests/device_coverage.sh        the whole measure; SKIPPED (exit 77) without a GPU
#        tests/device_coverage.sh count [OBJ_DIR]
#                                        the table and annotated sources from the counts there
#                                        are (no GPU needed; an executor built but never run reads 0%)
# Exits 1 when a suite did not go as expected, 2 when the kit cannot be built or counted.
set -u
cd "$(dirname "$0")/.." || exit 2
# runner_executor_path's name under STENCIL_EXECUTOR_COVERAGE=1 when the judge is given no architecture
executor=build/gpu/detected/executor-coverage
work=build/tests/device_coverage

# annotate OBJ_DIR DIR: gcov's annotated copies of grader/executor/*.cu into DIR (SOURCE.cu.gcov).
# Returns 2 when an object's notes file (.gcno) is missing or gcov fails.
annotate() {
    local obj=$1 dir=$2 kit=$PWD kept source
    for source in grader/executor/*.cu; do
        [ -f "$obj/$(basename "$source" .cu).gcno" ] || {
            echo "device_coverage: no $obj/$(basename "$source" .cu).gcno: build the executor with EXEC_COVERAGE=1 first (tests/device_coverage.sh on a GPU machine does)"
            return 2
        }
    done
    rm -rf "$dir"
    mkdir -p "$dir"
    ln -sfn "$kit/grader" "$dir/grader"  # gcov finds the sources by the names the objects hold
    (cd "$dir" && gcov -r -o "$kit/$obj" "$kit"/grader/executor/*.cu >gcov.log 2>&1) || { echo "device_coverage: gcov failed: $(head -3 "$dir/gcov.log")"; return 2; }
    rm -f "$dir/grader"
    for kept in "$dir"/*.gcov; do  # the executor's sources only, not the headers they include
        case $kept in *.cu.gcov) ;; *) rm -f "$kept" ;; esac
    done
}

# count_table DIR: from the annotated sources in DIR, a line a file of grader/executor/*.cu (its
# lines, those that ran, their share), then the room's total. Host code only: left out, and
# counted apart, the lines of __global__ functions (device code: gcov's count there is the
# compiler's launch stub, not the kit's host code) and those between LCOV_EXCL_START and
# LCOV_EXCL_STOP (the student's child between fork and execve, which writes no counts).
count_table() {
    local dir=$1
    awk -F: '
        FNR == 1 { if (name != "") row(); name = FILENAME; sub(/^.*\//, "", name); sub(/\.gcov$/, "", name); lines = ran = 0; device = excluded = 0; kernel = skip = 0 }
        {
            count = $1; gsub(/ /, "", count); number = $2 + 0
            text = $0; sub(/^[^:]*:[^:]*:/, "", text)
            if (number == 0) next
            # A __global__ function from its declaration (after template <...>, static, extern "C", inline)
            # to the brace that closes its body; a prototype (";" before any "{") ends where it ends.
            if (!kernel && text ~ /^[ \t]*((template[ \t]*<[^>]*>|static|extern[ \t]+"C"|inline)[ \t]+)*__global__[ \t]/)
                { kernel = 1; depth = 0; opened = 0 }
            if (text ~ /LCOV_EXCL_START/) skip = 1
            if (count != "-") {
                if (kernel) device++
                else if (skip) excluded++
                else { lines++; if (count !~ /^(#####|=====)$/) ran++ }
            }
            if (kernel) {
                code = text; sub(/\/\/.*$/, "", code)
                opens = gsub(/\{/, "{", code); closes = gsub(/\}/, "}", code)
                depth += opens - closes; opened = opened || opens > 0
                if ((opened && depth <= 0) || (!opened && code ~ /;[ \t]*$/)) kernel = 0
            }
            if (text ~ /LCOV_EXCL_STOP/) skip = 0
        }
        function row() {
            printf "  %-32s %6d %6d %7.1f%%  (left out: %d of device code, %d of the child)\n", "grader/executor/" name, lines, ran, lines ? 100 * ran / lines : 0, device, excluded
            total += lines; covered += ran; all_device += device; all_excluded += excluded
        }
        BEGIN { printf "  %-32s %6s %6s %8s\n", "file", "lines", "ran", "covered" }
        END {
            if (name != "") row()
            printf "  %-32s %6d %6d %7.1f%%  (left out: %d of device code, %d of the child)\n", "grader/executor (room)", total, covered, total ? 100 * covered / total : 0, all_device, all_excluded
        }
    ' "$dir"/*.cu.gcov
}

if [ "${1:-}" = count ]; then
    annotate "${2:-$executor.obj}" "$work/annotated" || exit
    count_table "$work/annotated"
    echo "annotated sources: $work/annotated/"
    exit 0
fi

command -v gcov >/dev/null || { echo "device_coverage: gcov is not on PATH (it comes with gcc)"; exit 2; }
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "$gpus" -ge 1 ] || { echo "device_coverage: SKIPPED, no GPU here (nvidia-smi lists none): the executor runs only on a GPU"; exit 77; }
command -v nvcc >/dev/null || { echo "device_coverage: SKIPPED, nvcc is not on PATH"; exit 77; }
limit=${LIMIT:-180}
start=$(date +%s)
rm -rf "$work"
mkdir -p "$work/mismatch"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c
if ! make -s judge >"$work/build.log" 2>&1 ||
   ! make -s -j"$(nproc)" -f grader/build.mk BACKEND=gpu EXEC_COVERAGE=1 EXECUTOR="$executor" >>"$work/build.log" 2>&1; then
    echo "device_coverage: the judge or the instrumented executor did not build:"
    tail -5 "$work/build.log"
    exit 2
fi
rm -f "$executor.obj"/*.gcda  # counts of this run only
echo "built the judge and $executor: $(( $(date +%s) - start )) s"
export STENCIL_EXECUTOR_COVERAGE=1
status=0
COVERAGE_OBJS=$executor.obj tests/device_checker.sh >"$work/checker.log" 2>&1 || status=1
grep -E "FAIL|^checker:" "$work/checker.log" | head -8

# executor_misuse: the executor started by hand with what the judge never sends ends in one line
# naming the problem, exit RUNNER_USAGE (2). Returns 1 when one does not.
executor_misuse() {
    local bad=0 want text args out code argv
    while IFS='|' read -r want text args; do
        read -r -a argv <<<"$args"
        out=$("$executor" "${argv[@]}" </dev/null 2>&1 3>&-)
        code=$?
        if [ "$code" -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then
            echo "  ok    executor ${args:-(no arguments)}: exit $code, '$text'"
        else
            echo "  FAIL  executor ${args:-(no arguments)}: exit $code (expected $want), output: $(head -c 300 <<<"$out")"
            bad=1
        fi
    done <<'MISUSE'
2|unexpected argument '--colour'|--colour blue
2|executor: usage:|
2|executor: usage:|--outdir /nonexistent-folder
2|--serve needs its requests|--serve
MISUSE
    return $bad
}

# run_labs KINDS SECONDS LAB...: tests/labs.sh gpu on the labs' files of KINDS, stopped after SECONDS;
# prints its closing line and its mismatches. Returns 1 on a mismatch.
run_labs() {
    local kinds=$1 seconds=$2 log=$work/labs-${1// /-}.log code
    shift 2
    KINDS=$kinds GPUS=$gpus JOBS=${JOBS:-} MISMATCH_DIR="$work/mismatch" timeout "$seconds" tests/labs.sh gpu "$@" >"$log" 2>&1
    code=$?
    [ "$code" -eq 124 ] && echo "the labs ($kinds) reached LIMIT=$limit s and were stopped: the counts are those of the runs that ended"
    tail -1 "$log"
    grep -E "MISMATCH|FAIL" "$log" | head -10 | cut -c1-160
    [ "$code" -eq 0 ] || [ "$code" -eq 124 ]
}

executor_misuse || status=1
read -r -a first_labs <<<"${LABS:-1 0 2 5 6 9 10}"
read -r -a mutant_labs <<<"${MUTANT_LABS-10 5 0}"  # MUTANT_LABS= (empty): none
labs_start=$(date +%s)
run_labs "solution hostile" "$limit" "${first_labs[@]}" || status=1
left=$((limit - ($(date +%s) - labs_start)))
read -r -a variant_labs <<<"${VARIANT_LABS-1 2 6}"  # their variants ask the device's attributes, a kernel's, its occupancy
if [ ${#variant_labs[@]} -gt 0 ] && [ "$left" -ge 20 ]; then
    run_labs "variant" "$left" "${variant_labs[@]}" || status=1
    left=$((limit - ($(date +%s) - labs_start)))
fi
if [ ${#mutant_labs[@]} -gt 0 ] && [ "$left" -ge 20 ]; then
    run_labs "skeleton mutant" "$left" "${mutant_labs[@]}" || status=1
elif [ ${#mutant_labs[@]} -gt 0 ]; then
    echo "the skeletons and mutants of ${mutant_labs[*]} not run: only $left s of LIMIT=$limit s left"
fi
echo "labs: $(( $(date +%s) - labs_start )) s (JOBS ${JOBS:-as tests/labs.sh picks} over $gpus GPUs)"
if annotate "$executor.obj" "$work/annotated"; then count_table "$work/annotated"; else status=2; fi
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT" && tar -czf "$OUT/device_coverage.tgz" -C "$work" . && echo "logs and annotated sources: $OUT/device_coverage.tgz"
else
    echo "logs and annotated sources: $work/"
fi
echo "device_coverage: $(( $(date +%s) - start )) s in all"
exit "$status"
