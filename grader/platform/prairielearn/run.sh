#!/usr/bin/env bash
# grader/platform/prairielearn/run.sh — the entry point of a PrairieLearn
# external grader: grades the student's one .cu file in /grade/student/ with
# the kit's judge (the GPU when the container has one, else CPU emulation),
# which writes /grade/results/results.json. When the submission holds no .cu
# file or several (score 0), or the judge cannot run (not gradable), this
# script writes that file itself.
#
# The kit is the folder three levels up (put it in serverFilesCourse/ and name
# this file as the question's externalGradingOptions entrypoint); the judge is
# built on the first run if it is missing (an image with gcc, g++ and make).
# The lab: STENCIL_LAB (externalGradingOptions.environment), else params.lab
# of /grade/data/data.json. Paths, overridable for the kit's tests:
#   PL_GRADE_ROOT  /grade
#   STENCIL_KIT    this file's kit
set -u
root=${PL_GRADE_ROOT:-/grade}
kit=${STENCIL_KIT:-$(cd "$(dirname "$0")/../../.." && pwd)}
results=$root/results/results.json
mkdir -p "$root/results"

if ! . "$kit/grader/platform/submission.sh" 2>/dev/null; then
    echo "run.sh: the kit is missing at $kit (grader/platform/submission.sh)" >&2
    cat >"$results" <<'JSON'
{"gradable": false, "score": 0, "message": "The grader is broken: the kit it grades with is missing. This is not a fault of your submission; tell your instructor.", "output": "", "tests": []}
JSON
    exit 0
fi

# prairielearn_results GRADABLE MAX NAME TEXT: writes a results.json of one
# test worth MAX that earned nothing, with TEXT as its message and the submission's.
prairielearn_results() {
    local text
    text=$(platform_json_string "$4")
    printf '{"gradable": %s, "score": 0, "message": %s, "output": %s,\n "tests": [{"name": %s, "points": 0, "max_points": %s, "message": %s, "output": %s}]}\n' \
        "$1" "$text" "$text" "$(platform_json_string "$3")" "$2" "$text" "$text" >"$results"
}

# The lab: from the environment, else from the question's params in data.json.
lab=${STENCIL_LAB:-}
data=$root/data/data.json
if [ -z "$lab" ] && [ -f "$data" ]; then
    if command -v python3 >/dev/null; then
        lab=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["params"]["lab"])' "$data" 2>/dev/null)
    else
        lab=$(tr -d '\n' <"$data" | sed -n 's/.*"lab" *: *"\{0,1\}\([0-9][0-9]*\).*/\1/p')
    fi
fi
if ! platform_lab_dir "$kit" "$lab" >/dev/null; then
    echo "run.sh: no lab '$lab' in $kit: set STENCIL_LAB in externalGradingOptions.environment, or params[\"lab\"] in the question's server.py" >&2
    prairielearn_results false 0 "the grader ran" "The grader is misconfigured: it names lab '$lab', which the kit does not have. This is not a fault of your submission; tell your instructor."
    exit 0
fi
max=$(platform_lab_max "$kit" "$lab")
if ! platform_find_kernel "$root/student" "$kit" "$lab"; then
    echo "run.sh: $PLATFORM_PROBLEM" >&2
    prairielearn_results true "$max" "your submission holds one kernel file" "Not graded: $PLATFORM_PROBLEM."
    exit 0
fi
if ! judge=$(platform_judge "$kit"); then
    prairielearn_results false "$max" "the grader ran" "Not graded: the grader could not be built in the grading container. This is not a fault of your submission; tell your instructor."
    exit 0
fi
echo "run.sh: grading $PLATFORM_KERNEL for lab $lab"
partial=$root/results/results.json.partial
rm -f "$partial"
(cd "$kit" && "$judge" --kit "$kit" --lab "$lab" --backend auto --kernel "$PLATFORM_KERNEL" --prairielearn-out "$partial")
status=$?
case "$status" in
0 | 1 | 2 | 77)
    if [ -s "$partial" ]; then
        mv -f "$partial" "$results"
        exit 0
    fi ;;
esac
rm -f "$partial"
prairielearn_results false "$max" "the grader ran" "Not graded: the grader stopped unexpectedly (exit status $status) before it wrote its results. This is not a fault of your submission as far as the grader knows; tell your instructor."
exit 0
