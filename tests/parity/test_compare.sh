#!/usr/bin/env bash
# tests/parity/test_compare.sh — the parity comparison itself, on fake results:
# fake kernel files with parity headers, fake judge reports turned into results
# lines by parity.py's own "line" command, then compared. Same lines pass; a
# declared difference passes; an undeclared one fails; a bad header line fails;
# a missing GPU record, a missing GPU line and a line of another version of
# the file or of its lab's lab.conf skip.
# The hint keys are drawn at random (the seed is printed; SEED= replays).
# Ends with the library's closing line (tests/lib.sh).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh "$@"
draw_seed "the hint keys"
RANDOM=$seed
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
keys=(wrong-values tile-edges whole-planes off-by-one nan-computed boundary-overwritten term-missing)
first=$((RANDOM % ${#keys[@]}))
one=${keys[$first]}                                                            # a hint key
other=${keys[$(((first + 1 + RANDOM % (${#keys[@]} - 1)) % ${#keys[@]}))]}     # another one

# kernel NAME HEADER... — a fake kernel file whose header holds the lines given.
kernel() {
    local name=$1
    shift
    printf '%s\n' "$@" "__global__ void k() {}" >"$dir/$name.cu"
}

# line BACKEND NAME VERDICT [HINT[,HINT...]] — appends a results line made from a fake judge report
# (a failing case a hint).
line() {
    local backend=$1 name=$2 verdict=$3 hint cases='' hints='' status=0 n=8
    local -a given
    IFS=, read -r -a given <<<"${4:-}"
    for hint in "${given[@]}"; do
        cases+="${cases:+, }{\"name\": \"N=$((n++))\", \"status\": \"fail\", \"hint_key\": \"$hint\"}"
        hints+="${hints:+, }{\"key\": \"$hint\"}"
    done
    cases="[$cases]" hints="[$hints]"
    [ "$verdict" = fail ] && status=1
    echo "{\"verdict\": \"$verdict\", \"seed\": $RANDOM, \"cases\": $cases, \"hints\": $hints, \"technique\": {\"status\": \"pass\"}}" >"$dir/report.json"
    python3 tests/parity/parity.py line "$backend" 99-fake "$dir/$name.cu" "$dir/report.json" "$status" >>"$dir/$backend.tsv"
}

# compared WHAT STATUS PATTERN... — the comparison of the fake files exits STATUS and prints a line matching each PATTERN.
compared() {
    local what=$1 want=$2 got pattern missing=""
    shift 2
    out=$(python3 tests/parity/parity.py compare "$dir/emu.tsv" "${gpu_file:-$dir/gpu.tsv}" 2>&1)
    got=$?
    for pattern in "$@"; do
        grep -qE -- "$pattern" <<<"$out" || missing=$pattern
    done
    if [ "$got" -eq "$want" ] && [ -z "$missing" ]; then
        pass "$what"
    else
        fail "$what" "exit $got, expected $want; '$missing' wanted in:
$out"
    fi
    rm -f "$dir/emu.tsv" "$dir/gpu.tsv"
}

kernel same "// expect-hint: $one"
line emu same fail "$one"; line gpu same fail "$one"
compared "the same verdict and hints pass" 0 "same.cu .* same$"

kernel hints "// expect-hint: $one" "// parity: hints $other $one — emulation names it otherwise"
line emu hints fail "$one"; line gpu hints fail "$other"
compared "a declared hint difference passes, listed with its reason" 0 "declared \(emulation names it otherwise\)"

kernel late "// expect-hint: $one"
line gpu late fail "$other"
kernel late "// expect-hint: $one" "// parity: hints $other $one — declared after the GPU ran it"
line emu late fail "$one"
compared "a difference declared after the GPU's record keeps that record" 0 "late.cu .* declared \(declared after the GPU ran it\)"

kernel hints-undeclared "// expect-hint: $one"
line emu hints-undeclared fail "$one"; line gpu hints-undeclared fail "$other"
compared "an undeclared hint difference fails" 1 "DIFFERENT \(hints .*$other"

kernel hints-other "// parity: hints thread-order — only emulation runs two orders"
line emu hints-other fail "$one"; line gpu hints-other fail "$other"
compared "a hint difference the header declares for other keys fails" 1 "DIFFERENT"

kernel race "// expect-hint: thread-order" "// expect-hint: missing-barrier" "// parity: hints thread-order missing-barrier — each backend names the race its own way"
line emu race fail "thread-order"; line gpu race fail "missing-barrier,$one"
compared "a race named on both backends: the other cases it spoils may differ" 0 "race.cu .* declared"

kernel race-once "// expect-hint: thread-order"
line emu race-once fail "thread-order,$other"; line gpu race-once fail "$one"
compared "a race named on one backend only: the hints must still agree" 1 "race-once.cu .* DIFFERENT \(hints"

kernel expected "// expect-hint: $one"
line gpu expected fail "$one"
kernel expected "// expect-hint: $one" "// expect-hint: $other"
line emu expected fail "$one"
compared "an expectation corrected after the GPU's record keeps that record" 0 "expected.cu .* same$"

kernel verdict "// parity: verdict — a missing barrier the GPU may forgive"
line emu verdict fail "$one"; line gpu verdict pass
compared "a declared verdict difference passes" 0 "declared \(a missing barrier"

kernel verdict-undeclared "// parity: hints $one — hints only"
line emu verdict-undeclared fail "$one"; line gpu verdict-undeclared pass
compared "an undeclared verdict difference fails" 1 "DIFFERENT \(verdicts differ"

kernel no-reason "// parity: verdict"
line emu no-reason pass; line gpu no-reason pass
compared "a parity line without its reason fails" 1 "bad header line"

kernel same
line emu same pass
gpu_file=$dir/no-such-record.tsv compared "no GPU record: every file skipped, none passed" 0 "^no GPU record .*: SKIPPED" "same.cu .* SKIPPED" " 0 passed, 0 failed, 1 skipped"

line emu same pass; line gpu verdict pass
compared "a file with no line on one backend is skipped" 0 "same.cu .*SKIPPED \(no GPU line" "verdict.cu .*SKIPPED \(no emulation line" " 0 passed, 0 failed, 2 skipped"

kernel emu-only "// backends: emu"
line emu emu-only pass; line gpu same pass
compared "a file of one backend is listed as such" 0 "emu-only.cu .* emu only \(backends: emu\)"

kernel stale
line gpu stale pass
kernel stale "// a changed file"
line emu stale pass
compared "a GPU line for another version of the file is skipped" 0 "another version of the file"

mkdir -p "$dir/labs/99-fake"  # (PARITY_LABS: where the lab's lab.conf is read)
echo "case = $RANDOM" >"$dir/labs/99-fake/lab.conf"
kernel cases
PARITY_LABS=$dir/labs line gpu cases pass
echo "case = 7" >>"$dir/labs/99-fake/lab.conf"
PARITY_LABS=$dir/labs line emu cases pass
compared "a GPU line recorded before the lab's cases changed is skipped" 0 "cases.cu .*SKIPPED .*of its lab's cases"
PARITY_LABS=$dir/labs line gpu cases pass; PARITY_LABS=$dir/labs line emu cases pass
compared "... and one recorded with the same cases is compared" 0 "cases.cu .* same$"

# Runs side by side append their lines to one file (tests/labs.sh RESULTS=), so a line must be one
# write: with Python's output unbuffered (PYTHONUNBUFFERED=1) print wrote a line and its newline
# apart, and two runs' lines came out joined (the parity step of make test failed on one).
kernel whole
line emu whole pass
# one_write TRACE: 0 when strace's TRACE holds one write to standard output, ending in a newline.
one_write() {
    [ "$(grep -c '^write(1,' "$1")" = 1 ] && grep '^write(1,' "$1" | grep -qF '\n", '
}
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
    PYTHONUNBUFFERED=1 strace -q -s 4096 -e trace=write -o "$dir/writes" \
        python3 tests/parity/parity.py line emu 99-fake "$dir/whole.cu" "$dir/report.json" 0 >>"$dir/whole.tsv"
    check "a results line is one write, ending in its newline, under PYTHONUNBUFFERED=1 ($(grep -c '^write(1,' "$dir/writes") writes)" \
        one_write "$dir/writes"
else
    skip "a results line is one write" "strace is not installed or may not trace here (CI installs it)"
fi

finish "parity comparison"
