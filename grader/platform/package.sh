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
# In a git repository the kit is what is committed (HEAD): a kernel filled in
# but not committed, a class's submissions, litter in the working tree never
# reach a package. A kit that is no repository (an exported one) is its
# working tree, less what its .gitignore ignores. Either way the submissions
# folder is left out. Paths may hold spaces. Exits 2 with one line naming the
# problem.
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

# copy_kit DEST EXCLUDED...: copies the kit into DEST (HEAD's files in a git
# repository, else the working tree less .git and what .gitignore ignores),
# less submissions/ and the EXCLUDED paths (relative to the kit's root).
copy_kit() {
    local dest=$1 pat
    shift
    mkdir -p "$dest"
    if git -C "$kit" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
        [ "$(git -C "$kit" rev-parse --show-toplevel)" = "$(cd "$kit" && pwd -P)" ]; then
        git -C "$kit" archive --format=tar HEAD | tar -C "$dest" -xf - || die "git archive HEAD failed in $kit"
        for pat in submissions "$@"; do
            rm -rf "${dest:?}/$pat"
        done
        local changed
        changed=$(git -C "$kit" status --porcelain -- kernels | head -3 | sed 's/^...//' | tr '\n' ' ')
        [ -z "$changed" ] || echo "package.sh: packed the committed kernels; your changes to ${changed% } are not in the package" >&2
        return
    fi
    local excludes=(--exclude=./.git --exclude=./submissions)
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
    tar -C "$kit" "${excludes[@]}" -cf - . | tar -C "$dest" -xf -
}

# student_pages DIR: the student kit's README (the kit's, less its section
# for instructors, with how the work is graded: grader/platform/student/) and
# handouts that name only what the kit holds (no solution to run, no test
# file their sample reports were made from).
student_pages() {
    local dir=$1 f
    awk -v grading="$kit/grader/platform/student/grading.md" '
        /^## For instructors/ { skip = 1; next }
        /^## / { skip = 0 }
        /^## The labs/ && !done { while ((getline line < grading) > 0) print line; done = 1 }
        !skip' "$kit/README.md" >"$dir/README.md"
    for f in "$dir"/handouts/*.md "$dir"/handouts/zh/*.md; do
        [ -e "$f" ] || continue
        # (and no line saying which kit file a sample report came from: handouts/render/samples.py's);
        # a variant a handout names for comparison is said to be the instructor's
        local held=" (in the instructor's kit)"
        case "$f" in */zh/*) held="（在教师版套件中）" ;; esac
        sed -i -e 's|KERNEL=reference/solutions/\.\.\. ||g' -e '/^<!-- sample-report: .* -->$/d' \
            -e "s|\`tests/variants/[^\`]*\`|&$held|g" "$f"
    done
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
    max=$(platform_lab_max "$kit" "$lab")
    printf '# autograder.conf — written by make gradescope LAB=%s: the lab run_autograder grades, and what\n# its rubric is worth (the judge'"'"'s answer, for a results file when the judge cannot run there).\nlab = %s\npoints = %s\n' \
        "$((10#$lab))" "$((10#$lab))" "$max" >"$stage/autograder.conf"
    rm -f "$out"
    (cd "$stage" && zip -qr "$out" setup.sh run_autograder autograder.conf stencil-labs)
    echo "wrote $out: upload it as the autograder of a Gradescope programming assignment for lab $((10#$lab)) (the rubric is worth $max points; without a GPU there, speed is not counted)"
    ;;
export)
    [ $# -eq 2 ] || die "usage: package.sh export OUT.tar.gz"
    out=$(absolute "$2")
    copy_kit "$stage/stencil-labs" reference/solutions tests/mutants tests/hostile tests/variants handouts/render/samples.py build
    student_pages "$stage/stencil-labs"
    rm -f "$out"
    tar -C "$stage" -czf "$out" stencil-labs
    echo "wrote $out: the student kit (no solutions, variants, mutants or hostile tests)"
    ;;
*)
    die "what to pack? package.sh gradescope LAB OUT.zip, or package.sh export OUT.tar.gz"
    ;;
esac
