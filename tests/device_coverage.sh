#!/usr/bin/env bash
# tests/device_coverage.sh — on a GPU machine: the line coverage of the
# executor's host code (grader/executor/*.cu), the room `make coverage`
# cannot measure without a GPU. Builds the executor with gcov's counts
# (grader/build.mk's EXEC_COVERAGE=1 into build/gpu/detected/executor-coverage,
# the executor the judge runs under STENCIL_EXECUTOR_COVERAGE=1; the plain one
# is left as it is), clears its counts, and runs on it tests/device_checker.sh
# (linked with the instrumented trusted.o) and tests/labs.sh gpu: first the
# solutions and hostile files of LABS (default "1 0 2 5 6 9 10": the cube,
# image and grid sweeps, the load counts, the whole solves of both updates;
# the hostile files drive the refusals), then in the time left the skeletons
# and mutants of MUTANT_LABS (default "10 5 0"), JOBS judges side by side over
# GPUS GPUs (as tests/device_all.sh: all of them, tests/labs.sh's judges a GPU). Then
# counts with plain gcov (no lcov) and prints a line a file, its lines, those
# that ran and their share, and the room's total.
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

# count_table OBJ_DIR: a line a file of grader/executor/*.cu (its lines, those
# that ran, their share) from the counts in OBJ_DIR, then the room's total.
# Returns 2 when an object's notes file (.gcno) is missing or gcov fails.
count_table() {
    local obj=$1 source summary
    local sources=(grader/executor/*.cu)
    for source in "${sources[@]}"; do
        [ -f "$obj/$(basename "$source" .cu).gcno" ] || {
            echo "device_coverage: no $obj/$(basename "$source" .cu).gcno: build the executor with EXEC_COVERAGE=1 first (tests/device_coverage.sh on a GPU machine does)"
            return 2
        }
    done
    # -n: a summary only; -r: the kit's own files (relative names), not the system's headers.
    summary=$(gcov -n -r -o "$obj" "${sources[@]}" 2>&1) || { echo "device_coverage: gcov failed: $summary" | head -3; return 2; }
    awk '
        /^File / { name = $2; gsub("\047", "", name); sub(/^\.\//, "", name); next }
        /^Lines executed:/ && name ~ /^grader\/executor\/[^\/]+\.cu$/ {
            percent = $2; sub(/^executed:/, "", percent); sub(/%$/, "", percent)
            ran = int($4 * percent / 100 + 0.5)
            printf "  %-32s %6d %6d %7.1f%%\n", name, $4, ran, percent
            lines += $4; covered += ran; name = ""
        }
        BEGIN { printf "  %-32s %6s %6s %8s\n", "file", "lines", "ran", "covered" }
        END { printf "  %-32s %6d %6d %7.1f%%\n", "grader/executor (room)", lines, covered, lines ? 100 * covered / lines : 0 }
    ' <<<"$summary"
}

# annotate OBJ_DIR DIR: gcov's annotated copies of grader/executor/*.cu into DIR (SOURCE.cu.gcov).
annotate() {
    local obj=$1 dir=$2 kit=$PWD kept
    mkdir -p "$dir"
    ln -sfn "$kit/grader" "$dir/grader"  # gcov finds the sources by the names the objects hold
    (cd "$dir" && gcov -r -o "$kit/$obj" "$kit"/grader/executor/*.cu >gcov.log 2>&1)
    rm -f "$dir/grader"
    for kept in "$dir"/*.gcov; do  # the executor's sources only, not the headers they include
        case $kept in *.cu.gcov) ;; *) rm -f "$kept" ;; esac
    done
}

if [ "${1:-}" = count ]; then
    count_table "${2:-$executor.obj}" || exit
    annotate "${2:-$executor.obj}" "$work/annotated"
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

read -r -a first_labs <<<"${LABS:-1 0 2 5 6 9 10}"
read -r -a mutant_labs <<<"${MUTANT_LABS-10 5 0}"  # MUTANT_LABS= (empty): none
labs_start=$(date +%s)
run_labs "solution hostile" "$limit" "${first_labs[@]}" || status=1
left=$((limit - ($(date +%s) - labs_start)))
if [ ${#mutant_labs[@]} -gt 0 ] && [ "$left" -ge 20 ]; then
    run_labs "skeleton mutant" "$left" "${mutant_labs[@]}" || status=1
elif [ ${#mutant_labs[@]} -gt 0 ]; then
    echo "the skeletons and mutants of ${mutant_labs[*]} not run: only $left s of LIMIT=$limit s left"
fi
echo "labs: $(( $(date +%s) - labs_start )) s (JOBS ${JOBS:-as tests/labs.sh picks} over $gpus GPUs)"
count_table "$executor.obj" || status=2
annotate "$executor.obj" "$work/annotated"
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT" && tar -czf "$OUT/device_coverage.tgz" -C "$work" . && echo "logs and annotated sources: $OUT/device_coverage.tgz"
else
    echo "logs and annotated sources: $work/"
fi
echo "device_coverage: $(( $(date +%s) - start )) s in all"
exit "$status"
