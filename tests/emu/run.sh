#!/usr/bin/env bash
# tests/emu/run.sh — builds and runs the CPU emulation backend's own tests:
# every tests/emu/test_*.cu (cmocka, built by grader/emu/emu.mk with ASan and
# UBSan), the translator's refusals (a launch or a __shared__ declaration it
# cannot read, named at its file and line; its command line), then the lab-1
# runner end to end (tests/emu/pipeline_check.cpp).
# Inputs are random; each program prints its seed (EMU_TEST_SEED=<n> replays).
#
# usage: tests/emu/run.sh [NAME...] [--match PATTERN]     NAME: shared, file_shared, sync, coop, launch, memory, faults, loads, translate, pipeline
# Prints one line per test, the reason indented under a failure, then
# "emulation tests: N passed, M failed"; exits 1 when a test failed, 2 when the build failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
build=${EMU_BUILD:-build/emu}/tests  # EMU_BUILD= (as emu.mk takes it): the coverage build keeps its own
mkdir -p "$build"

make -s -f grader/emu/emu.mk emu-tools || { echo "emulation backend: build failed"; exit 2; }

# report NAME LOG STATUS — one check a TAP result in LOG, with the messages
# that led to a failure indented under it.
report() {
    local name=$1 log=$2 status=$3 bad=0 line pending="" after_failure=0
    while IFS= read -r line; do
        case "$line" in
            "ok "*)
                pending=""; after_failure=0
                pass "$name: ${line#ok * - }" ;;
            "not ok "*)
                bad=$((bad + 1)); after_failure=1
                fail "$name: ${line#not ok * - }" "${pending%$'\n'}"
                pending="" ;;
            "# "*seed*) printf '  %s\n' "$line" ;;
            "1.."*|"# ok - "*|"# not ok - "*) ;;
            "#"*) [ "$after_failure" -eq 1 ] && printf '        %s\n' "$line" ;;
            *) pending+="$line"$'\n' ;;
        esac
    done <"$log"
    if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
        fail "$name: exited with status $status" "$(tail -5 "$log")"
    fi
}

wanted=("$@")
cmocka=1
have_cmocka "${CXX:-g++} -x c++" || cmocka=0  # the tests are C++ (built by emu.mk)
[ ${#wanted[@]} -gt 0 ] || wanted=(shared file_shared sync coop launch memory faults loads translate pipeline)

# translator_refusals: each source the translator cannot read exits 1 with
# "FILE:LINE: error: WHY"; its command line's problems exit 2.
translator_refusals() {
    local translator=${EMU_BUILD:-build/emu}/tools/emu-translate dir name line why source
    dir=$(mktemp -d)
    echo '__global__ void k() {}' >"$dir/fine.cu"
    while IFS='|' read -r name line why source; do
        printf '%b' "$source" >"$dir/case.cu"
        expect "translate: $name" 1 "$dir/case.cu:$line: error: $why" -- "$translator" "$dir/case.cu" "$dir/out.cu"
    done <<'CASES'
a launch without its >>>|3|'<<<' without a matching '>>>'|void h()\n{\n    k<<<1, 1(x);\n}\n
a launch of no kernel|3|'<<<' does not follow a kernel name|void h()\n{\n    (<<<1, 1>>>)(x);\n}\n
a __shared__ declaration without its ;|3|__shared__ declaration without a ';'|__global__ void k()\n{\n    __shared__ float t[4]\n
a __shared__ declaration of no name|3|cannot find the name this __shared__ declaration declares|__global__ void k()\n{\n    __shared__ ;\n}\n
extern __shared__ that is no array|3|extern __shared__ s must be an array: name[]|__global__ void k()\n{\n    extern __shared__ float s;\n}\n
a kernel body without its }|2|kernel body without its closing '}'|__global__ void k(float *o)\n{\n    if (o) return;\n
CASES
    expect "translate: no arguments" 2 "usage: emu-translate INPUT.cu OUTPUT.cu" -- "$translator"
    expect "translate: an input that does not exist" 2 "emu-translate: cannot read $dir/none.cu" -- \
        "$translator" "$dir/none.cu" "$dir/out.cu"
    expect "translate: an output it cannot write" 2 "emu-translate: cannot write $dir/no/out.cu" -- \
        "$translator" "$dir/fine.cu" "$dir/no/out.cu"
    rm -rf "$dir"
}

for name in "${wanted[@]}"; do
    if [ "$name" = translate ]; then
        translator_refusals
        continue
    fi
    if [ "$name" = pipeline ]; then
        runner=$build/lab1/runner
        if ! make -s -f grader/emu/emu.mk KERNEL=reference/solutions/01-naive-sweep.cu RUNNER="$runner" \
                RUNNER_SRC=grader/emu/runner_sweep.cu >"$build/pipeline.build.log" 2>&1 ||
           ! ${CXX:-g++} -std=c++17 -O2 -Wall -Igrader/protocol -o "$build/pipeline_check" tests/emu/pipeline_check.cpp \
                >>"$build/pipeline.build.log" 2>&1; then
            fail "pipeline: does not build (log: $build/pipeline.build.log)"
            continue
        fi
        rm -rf "$build/pipeline-cases" && mkdir -p "$build/pipeline-cases"
        "$build/pipeline_check" "$runner" "$build/pipeline-cases" >"$build/pipeline.log" 2>&1
        report pipeline "$build/pipeline.log" $?
        continue
    fi
    program=$build/test_$name
    if [ "$cmocka" -eq 0 ]; then
        skip "$name" "$CMOCKA_MISSING"
        continue
    fi
    if ! make -s -f grader/emu/emu.mk EMU_MAIN="tests/emu/test_$name.cu" EMU_PROGRAM="$program" \
            EMU_LDLIBS=-lcmocka LOAD_COUNTS=1 >"$program.build.log" 2>&1; then
        fail "$name: does not build (log: $program.build.log)" "$(grep -m 5 -E 'error|cmocka' "$program.build.log")"
        continue
    fi
    CMOCKA_MESSAGE_OUTPUT=TAP "$program" >"$program.log" 2>&1
    report "$name" "$program.log" $?
done

finish "emulation tests"
