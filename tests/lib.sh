# tests/lib.sh — the one test library of the kit's shell suites, sourced by
# each of them after its `cd` to the kit's root:
#
#     . tests/lib.sh "$@"; set -- "${suite_args[@]}"
#
# It takes `--match PATTERN` out of the suite's arguments (the rest are left
# in suite_args) and gives, each defined here and nowhere else:
#   pass NAME / fail NAME [WHY] / skip NAME [WHY]   one line a check, counted
#   check NAME COMMAND...                 pass if COMMAND succeeds, else fail
#   expect NAME STATUS TEXT -- COMMAND... pass if COMMAND exits STATUS and its
#                                         output (stdout and stderr) holds TEXT
#   selected NAME                         is NAME one of the checks to run?
#   count_outcome pass|fail|skip          counts a line the suite printed itself
#   draw_seed WHAT                        sets $seed (SEED= or fresh) and prints it
#   totals_line LABEL [NOTE]              "LABEL: N passed, M failed[, K skipped]"
#   finish LABEL                          totals_line, then exit 1 if any failed
#   totals_of LOG                         "N M K" from a suite's log (tests/run.sh)
#   conf_lines JUDGE KIT LAB KEY...       a lab.conf's keys, as the judge reads them
#   have_cmocka [COMPILER]                is cmocka's header there? (CMOCKA_MISSING says what to do)
# `--match PATTERN` (or MATCH=PATTERN in the environment) runs only the checks
# whose name matches PATTERN, a regular expression as bash's =~ takes it:
# check and expect do not run their command for another name, and pass, fail
# and skip neither print nor count it (work a suite does before it reports
# still runs). The closing line is the one tests/run.sh adds up with totals_of.
# tests/lib_selftest.sh holds this file to its word.
# shellcheck shell=bash

tests_passed=0   # checks that passed
tests_failed=0   # checks that failed
tests_skipped=0  # checks that could not run here (a tool missing), said why
match_pattern=${MATCH:-}  # the names of the checks to run match it (empty: every check)
suite_args=()             # the suite's arguments, --match and its pattern taken out
lib_pattern_next=0
for lib_arg in "$@"; do   # read, never shifted: a file sourced without arguments shares its caller's
    if [ "$lib_pattern_next" = 1 ]; then
        match_pattern=$lib_arg
        lib_pattern_next=0
        continue
    fi
    case $lib_arg in
    --match) lib_pattern_next=1 ;;
    --match=*) match_pattern=${lib_arg#--match=} ;;
    *) suite_args+=("$lib_arg") ;;
    esac
done
if [ "$lib_pattern_next" = 1 ]; then
    echo "$0: --match needs a PATTERN: a regular expression that the names of the checks to run match" >&2
    exit 2
fi
unset lib_arg lib_pattern_next

# selected NAME: succeeds when NAME is one of the checks this run makes (no pattern, or NAME matches it).
selected() {
    [ -z "$match_pattern" ] || [[ $1 =~ $match_pattern ]]
}

# count_outcome pass|fail|skip: adds one to that counter (for a suite that prints its own line).
count_outcome() {
    case $1 in
    pass) tests_passed=$((tests_passed + 1)) ;;
    fail) tests_failed=$((tests_failed + 1)) ;;
    skip) tests_skipped=$((tests_skipped + 1)) ;;
    *) echo "tests/lib.sh: count_outcome takes pass, fail or skip, got '$1'" >&2; tests_failed=$((tests_failed + 1)) ;;
    esac
}

# pass NAME: counts a check that passed and prints "  ok    NAME".
pass() {
    selected "$1" || return 0
    count_outcome pass
    printf '  ok    %s\n' "$1"
}

# fail NAME [WHY]: counts a failed check and prints "  FAIL  NAME" with WHY's lines indented under it.
fail() {
    selected "$1" || return 0
    count_outcome fail
    printf '  FAIL  %s\n' "$1"
    [ -z "${2:-}" ] || sed 's/^/        /' <<<"$2"
}

# skip NAME [WHY]: counts a check that cannot run here and prints "  SKIP  NAME: WHY".
skip() {
    selected "$1" || return 0
    count_outcome skip
    printf '  SKIP  %s%s\n' "$1" "${2:+: $2}"
}

# check NAME COMMAND...: runs COMMAND (when NAME is selected); pass if it succeeds, fail if not.
check() {
    local name=$1
    shift
    selected "$name" || return 0
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# expect NAME STATUS TEXT -- COMMAND...: runs COMMAND (when NAME is selected); pass if it exits
# STATUS and its stdout and stderr hold TEXT, else fail with the status and the output's end.
expect() {
    local name=$1 want=$2 text=$3 got output
    shift 4
    selected "$name" || return 0
    output=$("$@" 2>&1)
    got=$?
    if [ "$got" -eq "$want" ] && grep -qF -- "$text" <<<"$output"; then
        pass "$name"
    else
        fail "$name" "exit $got (expected $want), output: $(tail -c 600 <<<"$output")"
    fi
}

# draw_seed WHAT: sets seed to SEED from the environment or a fresh random one, and prints it
# with how to replay it.
draw_seed() {
    seed=${SEED:-$((((RANDOM << 15) | RANDOM) % 1000000000))}
    echo "$1: seed $seed (SEED=$seed $0 replays it)"
}

# totals_line LABEL [NOTE]: prints "LABEL: N passed, M failed", with ", K skipped" when
# some were, the pattern when --match chose the checks, and NOTE.
totals_line() {
    local line="$1: $tests_passed passed, $tests_failed failed"
    [ "$tests_skipped" -eq 0 ] || line+=", $tests_skipped skipped"
    [ -z "$match_pattern" ] || line+=" (only the checks matching '$match_pattern')"
    echo "$line${2:+ $2}"
}

# finish LABEL: prints the totals line and exits: 0 when no check failed, else 1.
finish() {
    totals_line "$1"
    [ "$tests_failed" -eq 0 ] && exit 0
    exit 1
}

# totals_of LOG: prints "N M K" (passed, failed, skipped) from the last closing line in LOG;
# a log without one gives "0 1 0": a suite that never reached its end failed.
totals_of() {
    local line passed failed skipped
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    passed=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
    failed=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
    skipped=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+')
    echo "${passed:-0} ${failed:-1} ${skipped:-0}"
}

# conf_lines JUDGE KIT LAB KEY...: prints "KEY = value" for each KEY of the lab's lab.conf as
# the judge reads it (--conf-get), the start of a lab.conf for a test's own copy of a lab: no
# script of the kit parses lab.conf itself. Returns 1 if the judge cannot answer for a KEY.
conf_lines() {
    local judge=$1 kit=$2 lab=$3 key value
    shift 3
    for key in "$@"; do
        value=$("$judge" --kit "$kit" --lab "$lab" --conf-get "$key") || return 1
        printf '%s = %s\n' "$key" "$value"
    done
}

# have_cmocka [COMPILER]: succeeds when COMPILER (default ${CC:-cc}, as C) finds cmocka's
# header. cmocka is a test-only tool that .ci/run installs: the suites that need it say
# SKIPPED with CMOCKA_MISSING without it, and the other parts still run (a GPU machine
# often has no cmocka and no way to install it).
CMOCKA_MISSING="cmocka is not installed (apt-get install libcmocka-dev, as .ci/run does)"
have_cmocka() {
    printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' |
        ${1:-${CC:-cc} -x c} -E - >/dev/null 2>&1
}
