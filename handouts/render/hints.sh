#!/usr/bin/env bash
# handouts/render/hints.sh — what the handouts need from the hint registry,
# read from the C source so that it never drifts from it:
#   keys      every hint key of grader/judge/hints.c, one a line (keys given
#             as HINT_ macros are resolved through grader/judge/*.h)
#   title     the title of the handouts' hints section, as the report quotes
#             it (hint_handout() in grader/judge/hints.c)
#   title-zh  the same section's title in the Chinese handouts
# usage: hints.sh keys|title|title-zh [KIT]     (KIT: the kit's root; default: this file's kit)
set -u
what=${1:-}
kit=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
hints_c=$kit/grader/judge/hints.c
[ -f "$hints_c" ] || { echo "hints.sh: $hints_c not found" >&2; exit 2; }

case $what in
keys)
    # The entries of hint_table[]: {"key", ...} or {HINT_NAME, ...}.
    defines=$(cat "$kit"/grader/judge/*.h 2>/dev/null)
    sed -n '/hint_table\[\] *= *{/,/^};/p' "$hints_c" |
        sed -nE 's/^[[:space:]]*\{[[:space:]]*("[^"]+"|HINT_[A-Z0-9_]+)[[:space:]]*,.*/\1/p' |
        while read -r entry; do
            case $entry in
            \"*) entry=${entry#\"}; echo "${entry%\"}" ;;
            *)
                key=$(sed -nE "s/^#define[[:space:]]+$entry[[:space:]]+\"([^\"]+)\".*/\1/p" <<<"$defines" | head -1)
                [ -n "$key" ] || { echo "hints.sh: $entry in $hints_c has no #define in grader/judge/*.h" >&2; exit 2; }
                echo "$key"
                ;;
            esac
        done
    ;;
title)
    # hint_handout() prints: handouts/%s.md, \"<title>\"
    title=$(sed -nE 's/.*handouts\/%s\.md, \\"([^\\]+)\\".*/\1/p' "$hints_c" | head -1)
    [ -n "$title" ] || { echo "hints.sh: no section title in hint_handout() of $hints_c" >&2; exit 2; }
    echo "$title"
    ;;
title-zh)
    echo "本实验中可能遇到的提示"
    ;;
*)
    echo "usage: hints.sh keys|title|title-zh [KIT]" >&2
    exit 2
    ;;
esac
