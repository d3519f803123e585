#!/usr/bin/env bash
# tests/platform.sh — the autograder platforms (grader/platform/), as an
# instructor meets them: the judge's Gradescope and PrairieLearn results files
# checked against the published field lists for a solution, a mutant and a
# file that does not compile; `make gradescope LAB=1` and its zip; the zip's
# run_autograder on a fake /autograder tree; PrairieLearn's run.sh on a fake
# /grade tree; `make export` and a check from the unpacked student kit.
# Everything runs under CPU emulation (no GPU needed); needs python3, and zip
# for the Gradescope part (SKIPPED without it).
#
# usage: tests/platform.sh [JUDGE] [--match PATTERN]     (default build/judge)
# Prints a line per check and "platform: N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"; set -- "${suite_args[@]}"
judge=${1:-build/judge}
kit=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# results NAME PLATFORM FILE EXPECT [TEXT]: checks FILE against PLATFORM's
# published field list and against EXPECT (full, partial, zero, error), and
# that its overall output holds TEXT.
results() {
    local name=$1 out
    shift
    if out=$(python3 "$tmp/validate.py" "$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# unzip_to ZIP DIR: extracts ZIP into DIR keeping the files' modes (as Gradescope does).
unzip_to() {
    python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = info.external_attr >> 16
        if mode & 0o777:
            os.chmod(path, mode & 0o777)
EOF
}

if ! command -v python3 >/dev/null; then
    echo "== autograder platforms"
    fail "python3 is needed to check the results files" "install python3 (.ci/run does)"
    finish platform
fi

# The published field lists: https://gradescope-autograders.readthedocs.io/en/latest/specs/
# and https://prairielearn.readthedocs.io/en/latest/externalGrading/ (grading results).
cat >"$tmp/validate.py" <<'EOF'
import json, sys

platform, path, expect = sys.argv[1], sys.argv[2], sys.argv[3]
text = sys.argv[4] if len(sys.argv) > 4 else ""
VIS = {"hidden", "after_due_date", "after_published", "visible"}
GS_TOP = {"score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
          "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
          "extra_data": dict, "tests": list, "leaderboard": list}
GS_TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
           "number": str, "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict}
PL_TOP = {"gradable": bool, "score": (int, float), "format_errors": (str, list), "message": str, "output": str,
          "images": list, "tests": list}
PL_TEST = {"name": str, "description": str, "points": (int, float), "max_points": (int, float), "message": str,
           "output": str, "images": list}
problems = []

def fields(obj, spec, where):
    if not isinstance(obj, dict):
        problems.append(f"{where} is not an object")
        return
    for key, value in obj.items():
        if key not in spec:
            problems.append(f"{where}: unknown key '{key}'")
        elif isinstance(value, bool) and spec[key] is not bool or not isinstance(value, spec[key]):
            problems.append(f"{where}: '{key}' has type {type(value).__name__}")

with open(path, encoding="utf-8") as f:
    r = json.load(f)
if platform == "gradescope":
    fields(r, GS_TOP, "results")
    for key in ("visibility", "stdout_visibility"):
        if key in r and r[key] not in VIS:
            problems.append(f"{key} '{r[key]}' is not one of {sorted(VIS)}")
    if "score" not in r:
        problems.append("no top-level score")
    tests = r.get("tests", [])
    for i, t in enumerate(tests):
        fields(t, GS_TEST, f"tests[{i}]")
        if "score" not in t or "max_score" not in t or "name" not in t:
            problems.append(f"tests[{i}] lacks score, max_score or name")
            continue
        if not 0 <= t["score"] <= t["max_score"] + 1e-9:
            problems.append(f"tests[{i}] scores {t['score']} of {t['max_score']}")
        if t.get("status", "passed") not in ("passed", "failed"):
            problems.append(f"tests[{i}] status '{t['status']}'")
        if t.get("visibility", "visible") not in VIS:
            problems.append(f"tests[{i}] visibility '{t['visibility']}'")
    score = r.get("score", 0)
    top = sum(t.get("max_score", 0) for t in tests)
    if tests and abs(sum(t.get("score", 0) for t in tests) - score) > 1e-3:
        problems.append(f"score {score} is not the sum of the tests' scores")
    if score > top + 1e-9 or score < 0:
        problems.append(f"score {score} is outside [0, {top}]")
    failed = [t for t in tests if t.get("status") == "failed"]
    if expect == "full" and not (top > 0 and abs(score - top) < 1e-6 and not failed):
        problems.append(f"expected full marks, got {score} of {top} ({len(failed)} tests failed)")
    if expect == "partial" and not (0 < score < top and any("hint:" in t.get("output", "") for t in failed)):
        problems.append(f"expected some points and a failed test with a hint, got {score} of {top}")
    if expect == "zero" and not (score == 0 and len(tests) == 1 and failed and top > 0):
        problems.append(f"expected one failed test worth the rubric and score 0, got {score} of {top}, {len(tests)} tests")
    if expect == "error" and not (score == 0 and len(tests) <= 1 and len(failed) == len(tests)):
        problems.append(f"expected score 0 and at most one failed test, got {score}, {len(tests)} tests")
else:
    fields(r, PL_TOP, "results")
    gradable = r.get("gradable", True)
    if gradable and "score" not in r:
        problems.append("gradable but no score")
    score = r.get("score", 0)
    if not isinstance(score, (int, float)) or not 0 <= score <= 1:
        problems.append(f"score {score} is outside [0, 1]")
    for i, t in enumerate(r.get("tests", [])):
        fields(t, PL_TEST, f"tests[{i}]")
        points, most = t.get("points", 0), t.get("max_points", 0)
        if isinstance(points, (int, float)) and isinstance(most, (int, float)) and not 0 <= points <= most + 1e-9:
            problems.append(f"tests[{i}] has {t.get('points')} of {t.get('max_points')} points")
    want = {"full": (True, lambda s: abs(s - 1) < 1e-6), "partial": (True, lambda s: 0 < s < 1),
            "zero": (True, lambda s: s == 0), "error": (False, lambda s: True)}[expect]
    if gradable != want[0] or not want[1](score):
        problems.append(f"expected {expect}, got gradable={gradable} score={score}")
if text and text not in r.get("output", ""):
    problems.append(f"output does not mention '{text}': {r.get('output', '')[:300]!r}")
# What a student reads holds nothing of the grader's machine: no absolute path
# (the kit's build and case folders, the platform's mounts), no loader error,
# and nothing for instructors only (the solutions, the README's section for them).
import re
LEAKS = [re.compile(p) for p in (r"(^|[\s(='\":])/(tmp|autograder|grade|work|home|root|usr|opt)/", r"build/(gpu|emu)/",
                                 r"stencil-case-", r"error while loading shared libraries", r"cannot open shared object",
                                 r"reference/solutions", r"For instructors")]
def student_texts(obj):
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("output", "message", "name", "description") and isinstance(value, str):
                yield value
            elif key != "extra_data":
                yield from student_texts(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from student_texts(value)
for t in student_texts(r):
    for leak in LEAKS:
        m = leak.search(t)
        if m:
            problems.append(f"a student reads the grader's {m.group(0).strip()!r}: ...{t[max(0, m.start() - 60):m.end() + 60]!r}...")
if problems:
    sys.exit("; ".join(problems))
EOF

echo "== judge: platform results files"
make -s judge >/dev/null || { fail "make judge" "the judge does not build"; finish platform; }
sol=reference/solutions/01-naive-sweep.cu
mutant=tests/mutants/01-naive-sweep/centre-dropped.cu
"$judge" --kit "$kit" --lab 1 --backend emu --seed 7 --kernel "$sol" --gradescope-out "$tmp/gs-sol.json" --prairielearn-out "$tmp/pl-sol.json" >/dev/null 2>&1
results "Gradescope: the solution earns every point" gradescope "$tmp/gs-sol.json" full "PASS"
results "PrairieLearn: the solution scores 1" prairielearn "$tmp/pl-sol.json" full "PASS"
"$judge" --kit "$kit" --lab 1 --backend emu --seed 7 --kernel "$mutant" --gradescope-out "$tmp/gs-mut.json" --prairielearn-out "$tmp/pl-mut.json" >/dev/null 2>&1
results "Gradescope: a mutant earns part, its failed cases carry hints" gradescope "$tmp/gs-mut.json" partial "FAIL"
results "PrairieLearn: a mutant scores in (0, 1)" prairielearn "$tmp/pl-mut.json" partial "FAIL"
"$judge" --kit "$kit" --lab 1 --backend emu --kernel tests/hostile/01-naive-sweep/does-not-compile.cu --gradescope-out "$tmp/gs-cc.json" --prairielearn-out "$tmp/pl-cc.json" >/dev/null 2>&1
results "Gradescope: a compile error scores 0 with the compiler's messages" gradescope "$tmp/gs-cc.json" zero "error:"
results "PrairieLearn: a compile error is gradable, scores 0, shows the compiler's messages" prairielearn "$tmp/pl-cc.json" zero "error:"
"$judge" --kit "$kit" --lab 42 --gradescope-out "$tmp/gs-kit.json" --prairielearn-out "$tmp/pl-kit.json" >/dev/null 2>&1
results "Gradescope: an error of the kit says it is not the student's fault" gradescope "$tmp/gs-kit.json" error "not a fault of your file"
results "PrairieLearn: an error of the kit is not gradable" prairielearn "$tmp/pl-kit.json" error "unknown lab '42'"
expect "an unwritable Gradescope results file is a kit error" 2 "cannot write the Gradescope results /nonexistent/r.json" -- \
    "$judge" --kit "$kit" --lab 1 --backend emu --case 1 --gradescope-out /nonexistent/r.json
expect "an unwritable PrairieLearn results file is a kit error" 2 "cannot write the PrairieLearn results /nonexistent/r.json" -- \
    "$judge" --kit "$kit" --lab 1 --backend emu --case 1 --prairielearn-out /nonexistent/r.json

# A copy of the kit in a folder whose name holds a space: the packing targets must cope.
copy="$tmp/kit copy"
mkdir -p "$copy"
tar -C "$kit" --exclude=./.git --exclude=./build -cf - . | tar -C "$copy" -xf -
make_bin=$(command -v make)

echo "== make gradescope"
expect "make gradescope without zip names the package" 2 "install the zip package" -- env PATH=/nonexistent "$make_bin" -C "$copy" gradescope LAB=1
if ! command -v zip >/dev/null; then
    skip "the Gradescope zip and run_autograder" "zip is not installed (apt-get install zip, as .ci/run does)"
else
    zip_file="$copy/build/gradescope/lab1.zip"
    expect "make gradescope LAB=1 in a path with a space" 0 "lab1.zip" -- make -C "$copy" gradescope LAB=1
    if names=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip_file" 2>&1); then
        missing=$(for f in setup.sh run_autograder autograder.conf stencil-labs/Makefile stencil-labs/grader/platform/submission.sh; do
            grep -qxF "$f" <<<"$names" || echo "$f"; done)
        if [ -z "$missing" ]; then pass "zip: setup.sh, run_autograder at the root, the kit in stencil-labs/"; else fail "zip: missing files" "$missing"; fi
        leaked=$(grep -E '^stencil-labs/(reference/solutions|tests|build|\.git)(/|$)' <<<"$names" | head -3)
        if [ -z "$leaked" ]; then pass "zip: no solutions, tests, build or .git"; else fail "zip: holds what it must not" "$leaked"; fi
    else
        fail "zip: readable" "$names"
    fi

    echo "== run_autograder on a fake /autograder"
    ag=$tmp/autograder
    mkdir -p "$ag/source" "$ag/submission"
    unzip_to "$zip_file" "$ag/source"
    expect "setup.sh builds the judge (the tools are already here: no apt-get)" 0 "the judge and the emulation backend are built" -- "$ag/source/setup.sh"
    cp "$ag/source/run_autograder" "$ag/run_autograder"
    # run_ag: runs the fake autograder's run_autograder as Gradescope does (from its root).
    run_ag() { (cd "$ag" && GRADESCOPE_ROOT="$ag" ./run_autograder) >"$tmp/ag.log" 2>&1; }
    mkdir -p "$ag/submission/my work"
    cp "$sol" "$ag/submission/my work/01-naive-sweep (1).cu"
    run_ag
    results "run_autograder: a solution with spaces in its name earns every point" gradescope "$ag/results/results.json" full "PASS"
    rm -rf "$ag/submission"/*
    echo "my answer" >"$ag/submission/README.txt"
    run_ag
    results "run_autograder: no .cu file scores 0 and says so" gradescope "$ag/results/results.json" zero "no .cu file in your submission (it holds: README.txt)"
    cp "$mutant" "$ag/submission/a.cu"
    cp "$sol" "$ag/submission/b.cu"
    run_ag
    results "run_autograder: two .cu files score 0 and are named" gradescope "$ag/results/results.json" zero "2 .cu files (a.cu, b.cu)"
    mv "$ag/submission/b.cu" "$ag/submission/01-naive-sweep.cu"
    run_ag
    results "run_autograder: of two .cu files the one named as the lab's kernel is graded" gradescope "$ag/results/results.json" full "PASS"
    rm -rf "$ag/submission"/*
    sed 's/stencil_kernel<<</stencil_kernel_typo<<</' "$sol" >"$ag/submission/01-naive-sweep.cu"
    run_ag
    results "run_autograder: a compile error shows the compiler's lines, without the grader's paths" gradescope "$ag/results/results.json" zero "stencil_kernel_typo"
    chmod -x "$ag/source/stencil-labs/build/judge"
    run_ag
    results "run_autograder: a judge that cannot run still leaves a results file" gradescope "$ag/results/results.json" zero "stopped unexpectedly"
    chmod +x "$ag/source/stencil-labs/build/judge"
    (cd "$ag" && GRADESCOPE_ROOT="$ag" STENCIL_KIT="$tmp/nowhere" ./run_autograder) >"$tmp/ag.log" 2>&1
    results "run_autograder: no kit at all still leaves a results file" gradescope "$ag/results/results.json" error "not a fault of your submission"
fi

echo "== PrairieLearn run.sh on a fake /grade"
pl=$tmp/grade
mkdir -p "$pl/student" "$pl/data"
echo '{"params": {"lab": 1}, "submitted_answers": {}}' >"$pl/data/data.json"
cp "$mutant" "$pl/student/01-naive-sweep.cu"
(PL_GRADE_ROOT="$pl" grader/platform/prairielearn/run.sh) >"$tmp/pl.log" 2>&1
results "run.sh: the lab from data.json, a mutant scores in (0, 1)" prairielearn "$pl/results/results.json" partial "FAIL"
rm -f "$pl/student"/*
(PL_GRADE_ROOT="$pl" grader/platform/prairielearn/run.sh) >"$tmp/pl.log" 2>&1
results "run.sh: no .cu file is gradable and scores 0" prairielearn "$pl/results/results.json" zero "no .cu file"
(PL_GRADE_ROOT="$pl" STENCIL_LAB=42 grader/platform/prairielearn/run.sh) >"$tmp/pl.log" 2>&1
results "run.sh: a lab the kit does not have is not gradable" prairielearn "$pl/results/results.json" error "misconfigured"

echo "== make export"
tarball="$copy/build/export/stencil-labs-student.tar.gz"
expect "make export in a path with a space" 0 "stencil-labs-student.tar.gz" -- make -C "$copy" export
if names=$(tar -tzf "$tarball" 2>&1); then
    leaked=$(grep -E '^stencil-labs/(reference/solutions|tests/mutants|tests/hostile|tests/variants|build|\.git)(/|$)' <<<"$names" | head -3)
    if [ -z "$leaked" ]; then pass "export: no solutions, variants, mutants, hostile tests, build or .git"; else fail "export: holds what it must not" "$leaked"; fi
    if grep -qxF stencil-labs/kernels/01-naive-sweep.cu <<<"$names"; then pass "export: the skeletons are there"; else fail "export: no skeleton" "stencil-labs/kernels/01-naive-sweep.cu is missing"; fi
    mkdir -p "$tmp/export"
    tar -C "$tmp/export" -xzf "$tarball"
    expect "export: make check LAB=1 EMU=1 CASE=33 grades the (unsolved) skeleton" 2 "N=33: FAIL" -- make -C "$tmp/export/stencil-labs" check LAB=1 EMU=1 CASE=33
    if make -C "$tmp/export/stencil-labs" check LAB=1 EMU=1 CASE=33 2>&1 | grep -qiE "not found|no such file|cannot open"; then
        fail "export: nothing the check needs is missing" "the check names a missing file"
    else
        pass "export: nothing the check needs is missing"
    fi
    expect "export: make solutions-check says there are none" 0 "no solutions in this kit" -- make -C "$tmp/export/stencil-labs" solutions-check EMU=1
    readme="$tmp/export/stencil-labs/README.md"
    if grep -q "^## How your work is graded" "$readme" && ! grep -q "^## For instructors" "$readme" && grep -q "^## Quick start" "$readme"; then
        pass "export: the student README (the quick start, how the work is graded, no section for instructors)"
    else
        fail "export: the student README" "$(grep '^## ' "$readme" | tr '\n' ' ')"
    fi
    named=$(grep -rE --include="*.md" "reference/solutions|tests/(mutants|hostile)|sample-report|\`tests/variants/[^\`]*\`($| [^(]|[^ （])" "$tmp/export/stencil-labs/handouts"/*.md "$tmp/export/stencil-labs/handouts/zh" 2>/dev/null | head -3)
    if [ -z "$named" ]; then pass "export: no handout names a solution or test file the kit does not hold (a variant is said to be the instructor's)"; else fail "export: handouts name what the kit does not hold" "$named"; fi
else
    fail "export: readable" "$names"
fi

echo "== packages from what is committed"
# A kit in a git repository: a kernel filled in but not committed, and a class's submissions beside
# it, must reach no package; the committed skeleton does.
repo="$tmp/repo kit"
mkdir -p "$repo"
tar -C "$kit" --exclude=./.git --exclude=./build -cf - . | tar -C "$repo" -xf -
if command -v git >/dev/null && git -C "$repo" init -q && git -C "$repo" add -A &&
    git -C "$repo" -c user.name=kit -c user.email=kit@example.invalid commit -qm kit; then
    cp "$sol" "$repo/kernels/01-naive-sweep.cu"
    mkdir -p "$repo/submissions/lab 1"
    cp "$sol" "$repo/submissions/lab 1/alice.cu"
    echo "stray" >"$repo/stray-file"
    expect "export from a repository with a filled-in kernel says it packed the committed one" 0 "your changes to kernels/01-naive-sweep.cu are not in the package" -- make -C "$repo" export
    mkdir -p "$tmp/repo-export"
    tar -C "$tmp/repo-export" -xzf "$repo/build/export/stencil-labs-student.tar.gz"
    if cmp -s "$tmp/repo-export/stencil-labs/kernels/01-naive-sweep.cu" "$kit/kernels/01-naive-sweep.cu"; then
        pass "export: the committed skeleton, not the filled-in kernel"
    else
        fail "export: the committed skeleton, not the filled-in kernel" "kernels/01-naive-sweep.cu differs from the skeleton"
    fi
    leaked=$(cd "$tmp/repo-export/stencil-labs" && ls -d submissions stray-file 2>/dev/null)
    if [ -z "$leaked" ]; then pass "export: no submissions, nothing uncommitted"; else fail "export: holds what was never committed" "$leaked"; fi
    if command -v zip >/dev/null; then
        make -C "$repo" gradescope LAB=1 >/dev/null 2>&1
        names=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$repo/build/gradescope/lab1.zip" 2>&1)
        leaked=$(grep -E '^stencil-labs/(submissions|stray-file|reference/solutions|tests)(/|$)' <<<"$names" | head -3)
        if [ -z "$leaked" ] && grep -qxF stencil-labs/kernels/01-naive-sweep.cu <<<"$names"; then
            pass "gradescope: from the committed files, no submissions"
        else
            fail "gradescope: from the committed files, no submissions" "${leaked:-no kernels/01-naive-sweep.cu}"
        fi
    fi
else
    fail "a git repository of the kit" "git init/commit failed"
fi

finish platform
