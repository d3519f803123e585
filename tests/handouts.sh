#!/usr/bin/env bash
# tests/handouts.sh — the handouts (handouts/, handouts/zh/) against the kit:
#   pairs      every handouts/NN-name.md has handouts/zh/NN-name.md and back;
#   headings   the Chinese file has the same headings, level by level and in
#              the same order, with its hints section where the English has it;
#   code       the same fenced code blocks: as many, as long, with the same
#              info string; a line left untranslated (no Chinese in it) is
#              the English line, and every `make ...` in a block is identical;
#   make       every `make <target>` quoted in a handout (code blocks and
#              inline code, both languages) names a rule of the Makefile
#              (from `make -pRrq`), every VAR= it passes is a variable the
#              Makefile uses, and every LAB=<n> is a lab of labs/;
#   hints      every English handout has the section the report points to
#              (hint_handout() in grader/judge/hints.c); every key-like word
#              in a hints table is a key of the registry; a key quoted
#              elsewhere (`key` or [key]) is listed in that file's hints table,
#              so its anchor exists; the Chinese table lists the English keys;
#   self-test  the checks run on a broken copy of the handouts (a missing
#              Chinese file, a make target and a variable that do not exist,
#              a heading one level off, a hint key misspelt) and must fail,
#              naming file:line;
#   samples    every sample report after a "<!-- sample-report: ... -->" line is
#              what the judge prints for that run now (handouts/render/samples.py);
#   render     `make handouts` with pandoc: every page, the index, the anchors
#              of every hint key, self-contained pages (SKIPPED, said plainly,
#              without pandoc); without pandoc `make handouts` says in one
#              line how to install it and fails.
#
# usage: tests/handouts.sh              everything above, on this kit
#        tests/handouts.sh --tree DIR   the static checks only, on the kit at DIR
#        (either with --match PATTERN: only the checks whose names match)
# Prints ok, FAIL (with file:line reasons indented under it) or SKIP per
# check and "handouts: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
self=$PWD/tests/handouts.sh
kit=$PWD
static_only=0
if [ "${1:-}" = --tree ]; then
    kit=$(cd "${2:?usage: tests/handouts.sh --tree DIR}" && pwd) || exit 2
    static_only=1
fi
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

hints_sh=$kit/handouts/render/hints.sh
[ -x "$hints_sh" ] || hints_sh=$PWD/handouts/render/hints.sh
keys=$("$hints_sh" keys "$kit" | tr '\n' ' ') || { fail "hint registry" "could not read the keys of grader/judge/hints.c"; keys=""; }
title_en=$("$hints_sh" title "$kit") || title_en=""
title_zh=$("$hints_sh" title-zh "$kit")

# scan FILE: one tab-separated record per thing the checks look at, outside
# and inside fenced code blocks:
#   H line level text    a heading (not inside a code block)
#   S line               the heading of the hints section
#   B line info          a code block opens; L line text: one of its lines
#   U line               a code block never closed
#   M line command       a make command (in a code block or inline code)
#   A line key           a key the hints table names (its anchor)
#   X line word          a key-like word of the hints table that is no key
#   K line key           a key quoted elsewhere: `key` or [key]
scan() {
    awk -v keylist="$keys" -v t_en="$title_en" -v t_zh="$title_zh" '
    BEGIN {
        OFS = "\t"
        nk = split(keylist, kl, " ")
        for (i = 1; i <= nk; i++) iskey[kl[i]] = 1
    }
    # makes(text): the make commands in text, from "make" to the last target or VAR=.
    function makes(text,    rest, n, t, i, cmd) {
        while (match(text, /(^|[^A-Za-z0-9_.\/-])make [^ ]/)) {
            rest = substr(text, RSTART + RLENGTH - 7)
            text = substr(text, RSTART + RLENGTH - 1)
            sub(/^[^A-Za-z]*/, "", rest)
            n = split(rest, t, " ")
            cmd = "make"
            for (i = 2; i <= n; i++) {
                if (t[i] ~ /^[A-Z][A-Z0-9_]*=/ || t[i] ~ /^[a-z][a-z0-9_.-]*$/ || t[i] ~ /^-[A-Za-z-]+$/) cmd = cmd " " t[i]
                else break
            }
            if (cmd != "make") print "M", NR, cmd
        }
    }
    # resolve(tok): the keys a hints-table word names, space-separated; "" if none; "?" if it looks like a key and is none.
    function resolve(tok,    low, prefix, out, i, base, alts, na, a) {
        low = tolower(tok)
        if (low !~ /-/) { sub(/\.+$/, "", low); return (low in iskey) ? low : "" }
        if (low ~ /\.\.\.$/) {
            prefix = substr(low, 1, length(low) - 3)
            if (prefix !~ /-$/) return "?"
            out = ""
            for (i = 1; i <= nk; i++) if (index(kl[i], prefix) == 1) out = out " " kl[i]
            return out == "" ? "?" : out
        }
        sub(/\.+$/, "", low)
        if (low ~ /\//) {
            if (!match(low, /-[a-z0-9\/]+$/)) return "?"
            base = substr(low, 1, RSTART)
            na = split(substr(low, RSTART + 1), alts, "/")
            out = ""
            for (a = 1; a <= na; a++) {
                if (!(base alts[a] in iskey)) return "?"
                out = out " " base alts[a]
            }
            return out
        }
        return (low in iskey) ? low : "?"
    }
    /^[ \t]*```/ {
        if (!inb) { inb = 1; info = $0; sub(/^[ \t]*```[ \t]*/, "", info); print "B", NR, info; openl = NR }
        else inb = 0
        rows = 0
        next
    }
    inb {
        print "L", NR, $0
        makes($0)
        line = $0
        while (match(line, /\[[a-z0-9-]+\]/)) {
            w = substr(line, RSTART + 1, RLENGTH - 2)
            if (w in iskey) print "K", NR, w
            line = substr(line, RSTART + RLENGTH)
        }
        next
    }
    /^#+ / {
        text = $0; sub(/^#+ +/, "", text); sub(/[ #]+$/, "", text)
        match($0, /^#+/); level = RLENGTH
        print "H", NR, level, text
        if (hints && level <= hlevel) hints = 0
        if (text == t_en || text == t_zh) { hints = 1; hlevel = level; print "S", NR }
        rows = 0
        next
    }
    {
        # inline code spans: `make ...` and `key`
        n = split($0, seg, "`")
        for (i = 2; i <= n; i += 2) {
            if (i == n) break        # an unmatched backtick
            span = seg[i]; gsub(/^ +| +$/, "", span)
            if (span ~ /^make( |$)/) makes(span)
            if (span in iskey && !(hints && $0 ~ /^\|/)) print "K", NR, span
        }
        line = $0
        while (match(line, /\[[a-z0-9-]+\]/)) {
            w = substr(line, RSTART + 1, RLENGTH - 2)
            if (w in iskey) print "K", NR, w
            line = substr(line, RSTART + RLENGTH)
        }
        if (!($0 ~ /^\|/)) { rows = 0; next }
        rows++
        if (!hints || rows <= 2) next          # header row and separator
        cell = $0; sub(/^\|/, "", cell); sub(/\|.*/, "", cell)
        gsub(/\342\200\246/, "...", cell)     # "…"
        while (match(cell, /[A-Za-z0-9\/.-]+/)) {
            tok = substr(cell, RSTART, RLENGTH)
            cell = substr(cell, RSTART + RLENGTH)
            r = resolve(tok)
            if (r == "?") print "X", NR, tok
            else if (r != "") { m = split(r, got, " "); for (j = 1; j <= m; j++) print "A", NR, got[j] }
        }
    }
    END { if (inb) print "U", openl }
    ' "$1"
}

# rel PATH: PATH relative to the kit, for messages.
rel() { echo "${1#"$kit"/}"; }

en_files=()
for f in "$kit"/handouts/[0-9][0-9]-*.md; do [ -f "$f" ] && en_files+=("$f"); done
zh_files=()
for f in "$kit"/handouts/zh/[0-9][0-9]-*.md; do [ -f "$f" ] && zh_files+=("$f"); done
for f in "${en_files[@]}" "${zh_files[@]}"; do
    scan "$f" >"$tmp/$(rel "$f" | tr / _).scan"
done
scanof() { echo "$tmp/$(rel "$1" | tr / _).scan"; }

echo "== handouts: English and Chinese in step"
if [ "${#en_files[@]}" -eq 0 ]; then
    fail "pairs" "no handouts/NN-name.md in $kit"
fi

# -- pairs -------------------------------------------------------------------
why=""
for en in "${en_files[@]}"; do
    name=$(basename "$en")
    if [ ! -f "$kit/handouts/zh/$name" ]; then
        other=$(cd "$kit/handouts/zh" 2>/dev/null && ls "${name%%-*}"-*.md 2>/dev/null | head -1)
        why+="handouts/zh/$name: missing (the Chinese version of handouts/$name)${other:+; handouts/zh/$other has another name}"$'\n'
    fi
done
for zh in "${zh_files[@]}"; do
    [ -f "$kit/handouts/$(basename "$zh")" ] || why+="$(rel "$zh"): no English handouts/$(basename "$zh") beside it"$'\n'
done
if [ -z "$why" ]; then pass "pairs: ${#en_files[@]} handouts, each in English and Chinese"; else fail "pairs" "${why%$'\n'}"; fi

for en in "${en_files[@]}"; do
    name=$(basename "$en" .md)
    zh=$kit/handouts/zh/$name.md
    [ -f "$zh" ] || continue
    es=$(scanof "$en")
    zs=$(scanof "$zh")

    # -- headings ------------------------------------------------------------
    why=$(awk -F'\t' -v en="handouts/$name.md" -v zh="handouts/zh/$name.md" -v t_zh="$title_zh" '
        FNR == NR { if ($1 == "H") { ne++; el[ne] = $2; ev[ne] = $3; et[ne] = $4 } if ($1 == "S") hs = ne; next }
        $1 == "H" { nz++; zl[nz] = $2; zv[nz] = $3; zt[nz] = $4 }
        END {
            n = ne < nz ? ne : nz
            for (i = 1; i <= n; i++)
                if (ev[i] != zv[i]) {
                    printf "%s:%d: heading %d is level %d (%s), where %s:%d has level %d (%s)\n", zh, zl[i], i, zv[i], zt[i], en, el[i], ev[i], et[i]
                    exit
                }
            if (ne != nz) {
                if (nz > ne) printf "%s:%d: %d headings, %s has %d: this one (%s) is extra\n", zh, zl[n + 1], nz, en, ne, zt[n + 1]
                else printf "%s: %d headings, %s has %d: the Chinese file ends before %s:%d (%s)\n", zh, nz, en, ne, en, el[n + 1], et[n + 1]
                exit
            }
            if (hs && zt[hs] != t_zh)
                printf "%s:%d: the hints section is titled \"%s\" in Chinese (it reads \"%s\"), as %s:%d is in English\n", zh, zl[hs], t_zh, zt[hs], en, el[hs]
        }' "$es" "$zs")
    if [ -z "$why" ]; then pass "headings: zh/$name.md matches $name.md ($(grep -c '^H' "$es") headings)"; else fail "headings: zh/$name.md" "$why"; fi

    # -- code blocks ---------------------------------------------------------
    why=$(awk -F'\t' -v en="handouts/$name.md" -v zh="handouts/zh/$name.md" '
        function text(    t) { t = $0; sub(/^[^\t]*\t[^\t]*\t/, "", t); return t }
        FNR == NR {
            if ($1 == "B") { ne++; eb[ne] = $2; ei[ne] = text(); enl[ne] = 0 }
            else if ($1 == "L") { enl[ne]++; et[ne, enl[ne]] = text() }
            else if ($1 == "U") printf "%s:%d: a code block never closed\n", en, $2
            next
        }
        $1 == "B" { nz++; zb[nz] = $2; zi[nz] = text(); znl[nz] = 0 }
        $1 == "L" { znl[nz]++; zt[nz, znl[nz]] = text(); zln[nz, znl[nz]] = $2 }
        $1 == "U" { printf "%s:%d: a code block never closed\n", zh, $2 }
        function mk(s) { return match(s, /make [^#]*/) ? substr(s, RSTART, RLENGTH) : "" }
        END {
            if (ne != nz) { printf "%s: %d code blocks, %s has %d\n", zh, nz, en, ne; exit }
            for (b = 1; b <= ne; b++) {
                if (ei[b] != zi[b]) printf "%s:%d: code block %d opens with ```%s, %s:%d with ```%s\n", zh, zb[b], b, zi[b], en, eb[b], ei[b]
                if (enl[b] != znl[b]) { printf "%s:%d: code block %d has %d lines, the one at %s:%d has %d\n", zh, zb[b], b, znl[b], en, eb[b], enl[b]; continue }
                for (l = 1; l <= enl[b]; l++) {
                    e = et[b, l]; z = zt[b, l]
                    if (z !~ /[\344-\351]/ && z != e)
                        printf "%s:%d: left in English but not the English line (%s:%d): \"%s\" vs \"%s\"\n", zh, zln[b, l], en, eb[b] + l, z, e
                    else if ((e ~ /(^|[^A-Za-z])make / || z ~ /(^|[^A-Za-z])make /) && mk(e) != mk(z))
                        printf "%s:%d: the make command differs from %s:%d: \"%s\" vs \"%s\"\n", zh, zln[b, l], en, eb[b] + l, mk(z), mk(e)
                }
            }
        }' "$es" "$zs")
    if [ -z "$why" ]; then pass "code: zh/$name.md has $name.md's $(grep -c '^B' "$es") code blocks"; else fail "code: zh/$name.md" "$why"; fi
done

# -- make targets and variables ---------------------------------------------
targets=$(make -C "$kit" -f Makefile -pRrq __handouts_no_such_target__ 2>/dev/null | awk '
    /^# Not a target/ { skip = 1; next }
    /^[A-Za-z0-9_.][^$#\/\t=]*:([^=]|$)/ { if (!skip) { t = $0; sub(/:.*/, "", t); p = $0; sub(/^[^:]*:+/, "", p); cur = t; if (p ~ /[^ \t]/) ok[t] = 1 } skip = 0; next }
    /^#  recipe to execute/ { if (cur != "") ok[cur] = 1; next }
    /^$/ { cur = ""; skip = 0 }
    { skip = 0 }
    END { for (t in ok) print t }' | sort -u)
variables=$(grep -oE '\$[({][A-Z][A-Z0-9_]*[)}]|^[A-Z][A-Z0-9_]* *[:?+]?=' "$kit/Makefile" | grep -oE '[A-Z][A-Z0-9_]*' | sort -u)
labs=$(cd "$kit/labs" 2>/dev/null && ls -d [0-9][0-9]-* 2>/dev/null | sed -E 's/^0?([0-9]+)-.*/\1/')
if [ -z "$targets" ]; then
    fail "make: the Makefile's rules" "make -pRrq listed no rule in $kit/Makefile"
else
    why=""
    count=0
    for f in "${en_files[@]}" "${zh_files[@]}"; do
        while IFS=$'\t' read -r _ line cmd; do
            count=$((count + 1))
            read -ra words <<<"$cmd"
            for w in "${words[@]:1}"; do
                case $w in
                -*) ;;
                [A-Z]*=*)
                    var=${w%%=*}
                    grep -qxF "$var" <<<"$variables" ||
                        why+="$(rel "$f"):$line: \`$cmd\`: $var= is no variable of the Makefile"$'\n'
                    if [ "$var" = LAB ] && [[ ${w#LAB=} =~ ^[0-9]+$ ]] && ! grep -qxF "$((10#${w#LAB=}))" <<<"$labs"; then
                        why+="$(rel "$f"):$line: \`$cmd\`: there is no lab ${w#LAB=} in labs/"$'\n'
                    fi
                    ;;
                *)
                    grep -qxF "$w" <<<"$targets" ||
                        why+="$(rel "$f"):$line: \`$cmd\`: no target '$w' in the Makefile (it has: $(tr '\n' ' ' <<<"$targets"| sed 's/ $//'))"$'\n'
                    ;;
                esac
            done
        done < <(grep '^M' "$(scanof "$f")")
    done
    if [ -z "$why" ]; then pass "make: $count make commands quoted in the handouts name real targets and variables"; else fail "make: commands quoted in the handouts" "${why%$'\n'}"; fi
fi

# -- hint keys and their anchors ---------------------------------------------
if [ -z "$title_en" ] || [ -z "$keys" ]; then
    fail "hints" "no section title or no keys read from grader/judge/hints.c"
else
    for f in "${en_files[@]}" "${zh_files[@]}"; do
        s=$(scanof "$f")
        why=""
        case $f in
        */zh/*) ;;
        *) grep -q '^S' "$s" || why+="$(rel "$f"): no \"$title_en\" section, which the report names for its hints (grader/judge/hints.c)"$'\n' ;;
        esac
        while IFS=$'\t' read -r _ line word; do
            why+="$(rel "$f"):$line: '$word' in the hints table is no hint key of grader/judge/hints.c"$'\n'
        done < <(grep '^X' "$s")
        while IFS=$'\t' read -r _ line key; do
            awk -F'\t' -v k="$key" '$1 == "A" && $3 == k { f = 1 } END { exit !f }' "$s" ||
                why+="$(rel "$f"):$line: hint key '$key' is quoted here but not listed in the file's hints table, so it has no anchor"$'\n'
        done < <(grep '^K' "$s")
        case $f in
        */zh/*)
            en=$kit/handouts/$(basename "$f")
            if [ -f "$en" ]; then
                for key in $(awk -F'\t' '$1 == "A" { print $3 }' "$(scanof "$en")" | sort -u); do
                    awk -F'\t' -v k="$key" '$1 == "A" && $3 == k { f = 1 } END { exit !f }' "$s" ||
                        why+="$(rel "$f"): the hints table does not list '$key', which handouts/$(basename "$f") lists"$'\n'
                done
            fi
            ;;
        esac
        n=$(awk -F'\t' '$1 == "A" { print $3 }' "$s" | sort -u | wc -l)
        if [ -z "$why" ]; then pass "hints: $(rel "$f"): $n hint keys with anchors"; else fail "hints: $(rel "$f")" "${why%$'\n'}"; fi
    done
fi

if [ "$static_only" -eq 1 ]; then
    finish handouts
fi

# -- self-test: a broken copy must fail --------------------------------------
echo "== handouts: the checker against a broken copy"
bad=$tmp/broken
mkdir -p "$bad/grader/judge" "$bad/labs"
cp -r handouts "$bad/" && cp Makefile "$bad/" && cp grader/judge/hints.c grader/judge/*.h "$bad/grader/judge/" &&
    for d in labs/[0-9][0-9]-*; do mkdir -p "$bad/$d"; done
rm -f "$bad/handouts/zh/01-naive-sweep.md"
printf '\nThen run `make chekc LAB=3` again.\n' >>"$bad/handouts/03-z-coarsening.md"
bad_target_line=$(wc -l <"$bad/handouts/03-z-coarsening.md")
bad_var_line=$(grep -n 'replay: make check LAB=2' "$bad/handouts/zh/02-shared-tile.md" | head -1 | cut -d: -f1)
sed -i "${bad_var_line}s/ SEED=/ SEEED=/" "$bad/handouts/zh/02-shared-tile.md"
bad_head_line=$(grep -n '^### ' "$bad/handouts/zh/04-register-tiling.md" | head -1 | cut -d: -f1)
sed -i "${bad_head_line}s/^### /## /" "$bad/handouts/zh/04-register-tiling.md"
bad_key_line=$(grep -n '^| tile-edges |' "$bad/handouts/02-shared-tile.md" | head -1 | cut -d: -f1)
sed -i "${bad_key_line}s/^| tile-edges |/| tile-edge |/" "$bad/handouts/02-shared-tile.md"
out=$(MATCH='' bash "$self" --tree "$bad" 2>&1)  # every check, whatever this run's --match
status=$?
# named NAME TEXT: the broken copy's output must hold TEXT (a FAIL naming file:line).
named() {
    if grep -qF -- "$2" <<<"$out"; then pass "self-test: $1"; else fail "self-test: $1" "expected \"$2\" in: $(tail -c 1500 <<<"$out")"; fi
}
if [ "$status" -ne 0 ] && grep -q 'handouts: [0-9]* passed, [1-9][0-9]* failed' <<<"$out"; then
    pass "self-test: the broken copy fails (exit $status)"
else
    fail "self-test: the broken copy fails" "exit $status; output: $(tail -c 1500 <<<"$out")"
fi
named "a missing Chinese handout is named" "handouts/zh/01-naive-sweep.md: missing"
named "a bad make target is named with file:line" "handouts/03-z-coarsening.md:$bad_target_line: \`make chekc LAB=3\`: no target 'chekc'"
named "a bad make variable is named with file:line" "handouts/zh/02-shared-tile.md:$bad_var_line: \`make check LAB=2 SEEED=459813019 CASE=7\`: SEEED= is no variable"
named "a code block that drifted is named with file:line" "handouts/zh/02-shared-tile.md:$bad_var_line: left in English but not the English line"
named "a heading one level off is named with file:line" "handouts/zh/04-register-tiling.md:$bad_head_line: heading"
named "a misspelt hint key is named with file:line" "handouts/02-shared-tile.md:$bad_key_line: 'tile-edge' in the hints table is no hint key"

# -- sample reports ----------------------------------------------------------
# Every report quoted in a handout after a sample-report line is what the judge
# prints for that run now (handouts/render/samples.py); a quoted line changed
# on purpose is caught.
echo "== handouts: sample reports from real runs"
if ! command -v python3 >/dev/null || ! make -s judge >/dev/null 2>&1; then
    fail "samples: python3 and build/judge are needed to run the samples" "install python3; make judge"
else
    out=$(python3 handouts/render/samples.py 2>&1)
    if [ $? -eq 0 ] && grep -q '^samples: [1-9][0-9]* quoted, 0 stale' <<<"$out"; then
        pass "samples: $(tail -1 <<<"$out" | cut -d, -f1 | cut -d' ' -f2) sample reports, each what its run prints now"
    else
        fail "samples: the quoted reports" "$(grep -v '^ok' <<<"$out")"
    fi
    cp handouts/01-naive-sweep.md "$tmp/stale.md"
    sed -i 's/961 of 29791 interior cells wrong/960 of 29791 interior cells wrong/' "$tmp/stale.md"
    out=$(python3 handouts/render/samples.py "$tmp/stale.md" 2>&1)
    if [ $? -ne 0 ] && grep -q 'stale.md:[0-9]*: the quoted report is not what' <<<"$out"; then
        pass "samples: a quoted report edited by hand is named with file:line"
    else
        fail "samples: a quoted report edited by hand is named with file:line" "$out"
    fi
fi

# -- render ------------------------------------------------------------------
echo "== handouts: make handouts"
out=$(make --no-print-directory handouts PANDOC=pandoc-not-installed-here BUILD="$tmp/nopandoc" 2>&1)
status=$?
if [ "$status" -ne 0 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q 'needs pandoc' <<<"$out" && grep -q 'apt-get install pandoc' <<<"$out"; then
    pass "without pandoc: one line saying how to install it, exit $status"
else
    fail "without pandoc: one line saying how to install it" "exit $status, output: $out"
fi
if ! command -v pandoc >/dev/null 2>&1; then
    skip "render" "pandoc is not installed (apt-get install pandoc, as .ci/run does); the HTML handouts were not built or checked."
else
    out=$(make --no-print-directory handouts BUILD="$tmp/build" 2>&1)
    status=$?
    html=$tmp/build/handouts
    if [ "$status" -eq 0 ]; then pass "render: make handouts ($(pandoc --version | head -1))"; else fail "render: make handouts" "exit $status: $out"; fi
    why=""
    for f in "${en_files[@]}" "${zh_files[@]}"; do
        pg=$(rel "$f" | sed 's#^handouts/##; s#\.md$#.html#')
        page=$html/$pg
        if [ ! -s "$page" ]; then why+="$(rel "$page"): missing for $(rel "$f")"$'\n'; continue; fi
        for key in $(awk -F'\t' '$1 == "A" { print $3 }' "$(scanof "$f")" | sort -u); do
            grep -qF "id=\"$key\"" "$page" || why+="${page#"$tmp"/}: no anchor id=\"$key\" ($(rel "$f") lists it)"$'\n'
        done
        grep -q '^S' "$(scanof "$f")" && ! grep -qF 'id="hints"' "$page" && why+="${page#"$tmp"/}: no id=\"hints\" on the hints section"$'\n'
        dup=$(grep -oE ' id="[^"]+"' "$page" | sort | uniq -d | head -3 | tr '\n' ' ')
        [ -z "$dup" ] || why+="${page#"$tmp"/}: ids given twice: $dup"$'\n'
        if grep -qiE '<(link|script)[^>]+(href|src)="[^d#]|<img[^>]+src="[^d]' "$page"; then
            why+="${page#"$tmp"/}: not self-contained: $(grep -oiE '<(link|script|img)[^>]+(href|src)="[^"]*"' "$page" | head -1)"$'\n'
        fi
        grep -qF "href=\"$pg\"" "$html/index.html" 2>/dev/null || why+="build/handouts/index.html: no link to $pg"$'\n'
    done
    [ -s "$html/index.html" ] || why+="build/handouts/index.html: missing"$'\n'
    if [ -z "$why" ]; then
        pass "render: $(ls "$html"/*.html "$html"/zh/*.html | wc -l) self-contained pages, the index links every one, every hint key has its anchor"
    else
        fail "render: the pages" "${why%$'\n'}"
    fi
fi

finish handouts
