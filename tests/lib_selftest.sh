#!/usr/bin/env bash
# tests/lib_selftest.sh — tests/lib.sh held to its word: a toy suite that
# sources it (checks that pass, fail, skip; expect on a command's status and
# text; a check that leaves a mark when it runs) is run whole, with --match,
# with MATCH=, and with SEED=; each time its exit status, its lines, which
# commands ran, and its closing line as tests/run.sh reads it are checked.
# The toy's check names carry a random word, so a stale expectation cannot pass.
#
# usage: tests/lib_selftest.sh [--match PATTERN]
# Prints a line per check and "lib self-test: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
draw_seed "lib self-test"
RANDOM=$seed
word=w$RANDOM
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/toy.sh" <<EOF
#!/usr/bin/env bash
set -u
cd "$PWD" || exit 2
. tests/lib.sh "\$@"; set -- "\${suite_args[@]}"
check "alpha $word passes" true
check "beta $word fails" false
expect "gamma $word exits 3 saying boom" 3 "boom" -- sh -c 'echo boom; exit 3'
expect "delta $word wants exit 0" 0 "boom" -- sh -c 'echo boom >&2; exit 3'
check "epsilon $word leaves a mark" touch "\$TOY_MARKS/epsilon"
fail "zeta $word fails with a reason" "first reason line
second reason line"
skip "eta $word needs a tool" "no such tool here"
[ -z "\${SEED:-}" ] || draw_seed toy
echo "arguments left: \$*"
finish toy
EOF
chmod +x "$tmp/toy.sh"

# toy NAME ARGS...: runs the toy suite with a fresh marks folder; its output in $tmp/NAME.log, its status in toy_status.
toy() {
    local name=$1
    shift
    rm -rf "$tmp/marks" && mkdir "$tmp/marks"
    TOY_MARKS=$tmp/marks "$@" >"$tmp/$name.log" 2>&1
    toy_status=$?
}

# has LOG TEXT: the log holds the line TEXT, whole.
has() { grep -qxF -- "$2" "$tmp/$1.log"; }

# holds NAME COMMAND...: the self-test's own assertion, made without check() (the code under test).
holds() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# selftest: every assertion, then the library's closing line.
selftest() {
    echo "== tests/lib.sh: a whole run"
    toy whole env -u MATCH -u SEED "$tmp/toy.sh"
    holds "a run with failures exits 1 (got $toy_status)" test "$toy_status" -eq 1
    holds "a check that passes prints its ok line" has whole "  ok    alpha $word passes"
    holds "a check that fails prints its FAIL line" has whole "  FAIL  beta $word fails"
    holds "expect passes on the status and text it was told" has whole "  ok    gamma $word exits 3 saying boom"
    holds "expect fails on another status, saying both" eval 'has whole "  FAIL  delta $word wants exit 0" && has whole "        exit 3 (expected 0), output: boom"'
    holds "a failure's reason is indented under it, line by line" eval 'has whole "        first reason line" && has whole "        second reason line"'
    holds "a skip says why" has whole "  SKIP  eta $word needs a tool: no such tool here"
    holds "every command ran" test -e "$tmp/marks/epsilon"
    holds "the closing line counts 3 passed, 3 failed, 1 skipped" has whole "toy: 3 passed, 3 failed, 1 skipped"
    holds "tests/run.sh reads it as 3 3 1" test "$(totals_of "$tmp/whole.log")" = "3 3 1"
    holds "a log without a closing line reads as one failure" test "$(totals_of /dev/null)" = "0 1 0"

    echo "== tests/lib.sh: --match and MATCH="
    toy match env -u MATCH -u SEED "$tmp/toy.sh" first --match "alpha|epsilon" second
    holds "--match of passing checks only exits 0 (got $toy_status)" test "$toy_status" -eq 0
    holds "--match runs the check it names" test -e "$tmp/marks/epsilon"
    holds "--match leaves the others out, unprinted" eval '! grep -qE "beta|gamma|delta|zeta|eta" "$tmp/match.log"'
    holds "--match: the closing line counts the chosen checks and says how they were chosen" \
        has match "toy: 2 passed, 0 failed (only the checks matching 'alpha|epsilon')"
    holds "--match is taken out of the suite's arguments, the rest kept in order" has match "arguments left: first second"
    toy env_match env -u SEED MATCH="beta $word" "$tmp/toy.sh"
    holds "MATCH= chooses as --match does: one failed check, exit 1 (got $toy_status)" \
        eval '[ "$toy_status" -eq 1 ] && [ "$(totals_of "$tmp/env_match.log")" = "0 1 0" ]'
    holds "a check left out does not run its command" test ! -e "$tmp/marks/epsilon"
    toy equals env -u MATCH -u SEED "$tmp/toy.sh" --match=gamma
    holds "--match=PATTERN works too" eval '[ "$toy_status" -eq 0 ] && [ "$(totals_of "$tmp/equals.log")" = "1 0 0" ]'
    toy dangling env -u MATCH -u SEED "$tmp/toy.sh" --match
    holds "--match without a pattern stops the suite, saying so" \
        eval '[ "$toy_status" -ne 0 ] && grep -q "needs a PATTERN" "$tmp/dangling.log" && [ ! -e "$tmp/marks/epsilon" ]'

    echo "== tests/lib.sh: the seed"
    given=$RANDOM$RANDOM
    toy seeded env -u MATCH SEED=$given "$tmp/toy.sh" --match alpha
    holds "draw_seed takes SEED= and says how to replay it" has seeded "toy: seed $given (SEED=$given $tmp/toy.sh replays it)"
    holds "a fresh seed is a whole number" eval '[[ $seed =~ ^[0-9]+$ ]]'

    echo "== tests/lib.sh: have_cmocka"
    mkdir -p "$tmp/inc" "$tmp/std"  # a compiler with the three standard headers the probe takes first, and no other
    for h in stdarg stddef setjmp; do printf 'int %s_here;\n' "$h" >"$tmp/std/$h.h"; done
    printf 'int cmocka_here;\n' >"$tmp/inc/cmocka.h"
    holds "have_cmocka finds a cmocka.h on the compiler's path" have_cmocka "${CC:-cc} -x c -nostdinc -I$tmp/std -I$tmp/inc"
    holds "have_cmocka fails where the compiler finds no cmocka.h" eval '! have_cmocka "${CC:-cc} -x c -nostdinc -I$tmp/std"'
    finish "lib self-test"
}

# The library cannot vouch for its own counters: its ok and FAIL lines are counted
# here too, and a count that disagrees with its closing line fails the run.
(selftest) >"$tmp/self.log" 2>&1
status=$?
cat "$tmp/self.log"
lines_passed=$(grep -c '^  ok    ' "$tmp/self.log")
lines_failed=$(grep -c '^  FAIL  ' "$tmp/self.log")
if [ "$(totals_of "$tmp/self.log")" != "$lines_passed $lines_failed 0" ] || [ $((status == 0)) -ne $((lines_failed == 0)) ]; then
    echo "lib self-test: $lines_passed passed, $((lines_failed > 0 ? lines_failed : 1)) failed (counted from its lines: the library's counters or exit status disagree, exit $status)"
    exit 1
fi
exit "$status"
