#!/usr/bin/env bash
# grader/platform/package.sh — packs the kit for where it is used (the Makefile's
# `make gradescope` and `make export` run it):
#
#   package.sh gradescope LAB OUT.zip
#       a Gradescope autograder: setup.sh, run_autograder and autograder.conf
#       (which lab) at the zip's root, the kit in stencil-labs/ without
#       reference/solutions/, tests/, build/ or .git
#   package.sh export OUT.tar.gz
#       the student kit: stencil-labs/ without reference/solutions/,
#       tests/mutants/, tests/hostile/, tests/variants/ (a correct lab 2
#       kernel), build/ or .git
#
# The kit is the working tree, less what its .gitignore ignores. Paths may
# hold spaces. Exits 2 with one line naming the problem.
set -euo pipefail
kit=$(cd "$(dirname "$0")/../.." && pwd)
. "$kit/grader/platform/submission.sh"

# die MESSAGE: the one-line error, exit 2.
die() {
    echo "package.sh: $1" >&2
    exit 2
}

# absolute PATH: prints PATH made absolute (its folder is created).
absolute() {
    mkdir -p "$(dirname "$1")"
    printf '%s/%s\n' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")"
}

# copy_kit DEST EXCLUDED...: copies the kit into DEST, less .git, what
# .gitignore ignores and the EXCLUDED paths (relative to the kit's root).
copy_kit() {
    local dest=$1 pat
    shift
    local excludes=(--exclude=./.git)
    for pat in "$@"; do
        excludes+=("--exclude=./$pat")
    done
    if [ -f "$kit/.gitignore" ]; then
        while IFS= read -r pat || [ -n "$pat" ]; do
            pat=${pat%%#*}
            pat=${pat%"${pat##*[![:space:]]}"}
            pat=${pat%/}
            case "$pat" in
            '' | '!'*) ;;
            /*) excludes+=("--exclude=.$pat") ;;
            */*) excludes+=("--exclude=./$pat") ;;
            *) excludes+=("--exclude=$pat") ;;
            esac
        done <"$kit/.gitignore"
    fi
    mkdir -p "$dest"
    tar -C "$kit" "${excludes[@]}" -cf - . | tar -C "$dest" -xf -
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
what=${1:-}
case "$what" in
gradescope)
    [ $# -eq 3 ] || die "usage: package.sh gradescope LAB OUT.zip"
    lab=$2
    out=$(absolute "$3")
    platform_lab_dir "$kit" "$lab" >/dev/null || die "no lab '$lab' in this kit: make gradescope LAB=<n>, with n one of the labs in labs/"
    command -v zip >/dev/null || die "zip is not installed: install the zip package (apt-get install zip) and run make gradescope again"
    copy_kit "$stage/stencil-labs" reference/solutions tests build
    cp "$kit/grader/platform/gradescope/setup.sh" "$kit/grader/platform/gradescope/run_autograder" "$stage/"
    chmod +x "$stage/setup.sh" "$stage/run_autograder"
    printf '# autograder.conf — written by make gradescope LAB=%s: the lab run_autograder grades.\nlab = %s\n' \
        "$((10#$lab))" "$((10#$lab))" >"$stage/autograder.conf"
    rm -f "$out"
    (cd "$stage" && zip -qr "$out" setup.sh run_autograder autograder.conf stencil-labs)
    echo "wrote $out: upload it as the autograder of a Gradescope programming assignment for lab $((10#$lab)) (the rubric is worth $(platform_lab_max "$kit" "$lab") points; without a GPU there, speed is not counted)"
    ;;
export)
    [ $# -eq 2 ] || die "usage: package.sh export OUT.tar.gz"
    out=$(absolute "$2")
    copy_kit "$stage/stencil-labs" reference/solutions tests/mutants tests/hostile tests/variants build
    rm -f "$out"
    tar -C "$stage" -czf "$out" stencil-labs
    echo "wrote $out: the student kit (no solutions, variants, mutants or hostile tests)"
    ;;
*)
    die "what to pack? package.sh gradescope LAB OUT.zip, or package.sh export OUT.tar.gz"
    ;;
esac
