# grader/platform/submission.sh — sourced by the platform entry points
# (gradescope/run_autograder, prairielearn/run.sh): finds the lab and the one
# .cu file of a submission to grade, and writes JSON strings for the results
# files they write themselves when the judge cannot run. Bash 4.4 or later.
# shellcheck shell=bash disable=SC2034  # PLATFORM_* are read by the scripts that source this

# platform_json_string TEXT: prints TEXT as a JSON string; control characters
# and bytes outside printable ASCII become '?' or an escape, so it stays valid JSON.
platform_json_string() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\n'/\\n}
    s=${s//$'\t'/ }
    printf '"%s"' "$(printf '%s' "$s" | LC_ALL=C tr -c '\040-\176' '?')"
}

# platform_lab_dir KIT LAB: prints the lab's folder (KIT/labs/NN-name); returns 1 if there is none.
platform_lab_dir() {
    local dir
    [[ $2 =~ ^[0-9]+$ ]] || return 1
    for dir in "$1"/labs/"$(printf '%02d' "$((10#$2))")"-*/; do
        [ -f "$dir/lab.conf" ] && { printf '%s\n' "${dir%/}"; return 0; }
    done
    return 1
}

# platform_lab_key KIT LAB KEY: prints the value of KEY in the lab's lab.conf, as the judge
# reads it (judge --conf-get: no script parses lab.conf itself); the judge is built if need be.
platform_lab_key() {
    local judge
    platform_lab_dir "$1" "$2" >/dev/null || return 1
    judge=$(platform_judge "$1") || return 1
    "$judge" --kit "$1" --lab "$2" --conf-get "$3" 2>/dev/null
}

# platform_lab_max KIT LAB [KNOWN]: prints what the lab's rubric is worth, as the judge
# reads lab.conf; where the judge cannot answer (a broken build), KNOWN (the worth
# the judge gave when the autograder was packed), else 0.
platform_lab_max() {
    local max
    max=$(platform_lab_key "$1" "$2" points) && [ -n "$max" ] && { echo "$max"; return; }
    echo "${3:-0}"
}

# platform_find_kernel DIR KIT LAB: chooses the .cu file of the submission in
# DIR: the only one, or among several the only one named as the lab's kernel
# file. Sets PLATFORM_KERNEL and returns 0, or sets PLATFORM_PROBLEM (one line
# for the student, saying what to do) and returns 1.
platform_find_kernel() {
    local dir=$1 kit=$2 lab=$3 want named=() found=() f names others
    PLATFORM_KERNEL=
    PLATFORM_PROBLEM=
    want=$(platform_lab_key "$kit" "$lab" kernel)
    # A judge that cannot answer (it will fail with its own message): the skeleton's name is the lab folder's.
    [ -n "$want" ] || want=kernels/$(basename "$(platform_lab_dir "$kit" "$lab" 2>/dev/null)" 2>/dev/null).cu
    if [ -d "$dir" ]; then
        while IFS= read -r -d '' f; do
            case "$f" in */__MACOSX/* | */._*) continue ;; esac  # a macOS zip's resource forks
            found+=("$f")
            [ "$(basename "$f")" = "$(basename "$want")" ] && named+=("$f")
        done < <(find "$dir" -type f -name '*.cu' -print0 | sort -z)
    fi
    if [ "${#found[@]}" -eq 1 ]; then
        PLATFORM_KERNEL=${found[0]}
        return 0
    fi
    if [ "${#found[@]}" -gt 1 ] && [ "${#named[@]}" -eq 1 ]; then
        PLATFORM_KERNEL=${named[0]}
        return 0
    fi
    if [ "${#found[@]}" -eq 0 ]; then
        others=$(cd "$dir" 2>/dev/null && find . -type f | sed 's|^\./||' | head -5 | paste -sd, - | sed 's/,/, /g')
        PLATFORM_PROBLEM="no .cu file in your submission${others:+ (it holds: $others)}: submit the kernel file you edited for lab $lab, $(basename "$want") (in the kit: $want)"
        return 1
    fi
    names=$(for f in "${found[@]}"; do printf '%s\n' "${f#"$dir"/}"; done | head -5 | paste -sd, - | sed 's/,/, /g')
    PLATFORM_PROBLEM="your submission holds ${#found[@]} .cu files ($names): submit only the kernel file you edited for lab $lab, $(basename "$want")"
    return 1
}

# platform_judge KIT: prints the judge's path, building it first if it is missing
# (the build's output goes to stderr); returns 1 if it cannot be built.
platform_judge() {
    if [ ! -x "$1/build/judge" ]; then
        make -C "$1" -s judge >&2 || return 1
    fi
    printf '%s\n' "$1/build/judge"
}
