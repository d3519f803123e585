#!/usr/bin/env bash
# tests/function_length.sh — no function in grader/ longer than 80 lines, from
# its signature to its closing brace (tests/function_length.py measures them;
# its header says what it cannot see). The measure is first held to its word
# on a file written here with functions of random lengths around the limit,
# some behind comments, strings, a struct, an initializer and a namespace that
# must not fool it: it has to name exactly the long ones, with their lengths.
#
# usage: tests/function_length.sh [--match PATTERN]
# Prints a line per check and "function length: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
draw_seed "function length"
RANDOM=$seed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
limit=80

# function_text NAME LINES: prints a C function of exactly LINES lines (LINES >= 3).
function_text() {
    local i
    printf 'static int %s(int x)\n{\n' "$1"
    for ((i = 3; i < $2; i++)); do
        case $((i % 4)) in
        0) printf '    x += %d; // a { in a comment\n' "$i" ;;
        1) printf '    x += (int)sizeof("}}"); /* } */\n' ;;
        2) printf "    x += '{' == %d;\n" "$i" ;;
        *) printf '    if (x > %d) { x--; }\n' "$i" ;;
        esac
    done
    printf '}\n\n'
}

long_a=$((limit + 1 + RANDOM % 40))
long_b=$((limit + 1 + RANDOM % 40))
short_a=$((3 + RANDOM % (limit - 2)))
{
    echo '#include <stdio.h>'
    echo '#define BRACE {'
    echo 'struct big {'
    for ((i = 0; i < 2 * limit; i++)); do echo "    int field_$i; // {"; done
    echo '};'
    echo 'static const int table[] = {'
    for ((i = 0; i < 2 * limit; i++)); do echo "    $i, // f(x) {"; done
    echo '};'
    function_text edge_at_limit "$limit"
    function_text long_alpha "$long_a"
    function_text short_alpha "$short_a"
    echo 'namespace inner {'
    function_text long_beta "$long_b"
    echo '}'
} >"$tmp/fake.cu"

expected=$(printf '%s\n%s\n' "long_alpha: $long_a lines" "long_beta: $long_b lines")
output=$(python3 tests/function_length.py --max "$limit" "$tmp" 2>&1)
status=$?
got=$(sed -E 's/^[^ ]+ //; s/ \(limit [0-9]+\)$//' <<<"$output")
if [ "$status" -eq 1 ] && [ "$got" = "$expected" ]; then
    pass "the measure names exactly the functions over $limit lines ($long_a, $long_b; not $limit or $short_a)"
else
    fail "the measure names exactly the functions over $limit lines ($long_a, $long_b; not $limit or $short_a)" \
        "exit $status (expected 1); it printed:
$output"
fi

function_text short_gamma "$short_a" >"$tmp/short.c"
expect "a file of short functions passes" 0 "" -- python3 tests/function_length.py --max "$limit" "$tmp/short.c"
expect "a bad --max is refused in one line" 2 "--max takes a number" -- python3 tests/function_length.py --max many grader

output=$(python3 tests/function_length.py --max "$limit" grader 2>&1)
if [ $? -eq 0 ]; then
    pass "no function in grader/ is over $limit lines"
else
    fail "no function in grader/ is over $limit lines" "split these into named steps:
$output"
fi
finish "function length"
