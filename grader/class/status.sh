#!/usr/bin/env bash
# grader/class/status.sh — `make status`: where a self-study reader stands. For each
# lab, the result of the last `make check LAB=n` on the lab's own kernel file
# (the judge's summary in build/status/<lab>.summary, read by the shell alone),
# and what to do next; then the same as a strip of
# boxes, build/status/progress.png and .svg (grader/pictures/progress.gp),
# when gnuplot is installed.
set -u
cd "$(dirname "$0")/../.." || exit 2
strip=build/status/progress   # the strip's files: .dat (one line per lab), .png, .svg
mkdir -p build/status
: >"$strip.dat"
# The titles first: the title column is as wide as the longest (no title cut, no column pushed).
declare -A titles
width=5
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    titles[$lab]=$(build/judge --kit "$PWD" --lab "$lab" --conf-get title)
    [ "${#titles[$lab]}" -gt "$width" ] && width=${#titles[$lab]}
done
printf "%-22s %-${width}s %-11s %-8s %s\n" lab title "last check" cases "technique / next step"
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    title=${titles[$lab]}
    n=$((10#${lab%%-*}))
    f=build/status/$lab.summary   # the judge's summary of the last check (summary_keys.h), key=value lines
    if [ ! -f "$f" ]; then
        printf "%-22s %-${width}s %-11s %-8s %s\n" "$lab" "$title" "not yet" "-" "read handouts/$lab.md, then make check LAB=$n"
        printf '%d 0 "%s" "not tried yet"\n' "$n" "${title//\"/\'}" >>"$strip.dat"
        continue
    fi
    declare -A r=()
    while IFS= read -r line; do
        r[${line%%=*}]=${line#*=}
    done <"$f"
    when=$(date -r "$f" +'%m-%d %H:%M')
    passed=${r[passed]:-0} failed=${r[failed]:-0}
    [[ $passed =~ ^[0-9]+$ ]] || passed=0
    [[ $failed =~ ^[0-9]+$ ]] || failed=0
    if [ "${r[verdict]:-}" = pass ]; then
        next="passed (${r[backend]:-?})"
        [ "${r[backend]:-}" = emu ] && next+="; run on a GPU for timing"
    elif [ -n "${r[first_failed]:-}" ]; then
        hint=${r[hint]:-}
        next="fix ${r[first_failed]}: ${hint:-${r[message]:0:40}}"
    elif [ "${r[technique]:-}" = fail ]; then
        next="technique: ${r[message]:0:60}"
    else
        next="${r[message]:0:70}"
    fi
    cases="$passed/$((passed + failed))"
    printf "%-22s %-${width}s %-11s %-8s %s\n" "$lab" "$title" "$when" "$cases" "$next"
    # the strip: 2 passed, 1 failed (or could not be graded)
    printf '%s %d "%s" "%s cases, %s"\n' "$n" "$([ "${r[verdict]:-}" = pass ] && echo 2 || echo 1)" "${title//\"/\'}" "$cases" "$when" >>"$strip.dat"
    unset r
done
passed=$(awk '$2 == 2' "$strip.dat" | wc -l)
labs=$(wc -l <"$strip.dat")
gnuplot=${STENCIL_GNUPLOT:-gnuplot}   # as for the judge's pictures (grader/judge/pictures.c)
rm -f "$strip.png" "$strip.svg"
if ! command -v "$gnuplot" >/dev/null 2>&1; then
    echo "pictures: gnuplot is not installed; install gnuplot to get them"
elif "$gnuplot" -c grader/pictures/progress.gp "$strip.dat" "$strip" "make status: $passed of $labs labs passed" 2>"$strip.log"; then
    echo "pictures: $strip.png (and .svg): each lab's last check"
    rm -f "$strip.log"
else
    echo "pictures: gnuplot failed: $(head -c 300 "$strip.log")"
fi
