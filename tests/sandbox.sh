#!/usr/bin/env bash
# tests/sandbox.sh — attacks grader/sandbox/ from the inside. Builds
# tests/sandbox/launcher.c (linked with the sandbox) and the hostile program
# tests/sandbox/attack.c twice, dynamically linked and -static, then runs it
# confined in both of the sandbox's modes:
#   no-files  the static program (as the executor starts a student's program);
#   landlock  the dynamic program with one writable folder (as the judge
#             starts an emulation runner);
# as the current user and, when that is root and setpriv is there, once more
# as user nobody (65534), who holds no capability to drop.
# Needs only a C compiler: no cmocka, no GPU. CC= picks the compiler, BUILD=
# the build folder (default build/).
# usage: tests/sandbox.sh [--match PATTERN]
# One line per check (ok, FAIL or SKIP); ends with "sandbox: N passed, M failed";
# exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
CC=${CC:-cc}
out=${BUILD:-build}/tests/sandbox
flags=(-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build NAME COMMAND...: runs one compiler command; passes, or fails with the compiler's messages.
build() {
    local name=$1
    shift
    if "$@" 2>"$work/cc.log"; then
        pass "build $name"
        return 0
    fi
    fail "build $name" "$(cat "$work/cc.log")"
    return 1
}

# judge_run LABEL LOG STATUS: one check per CONTROL and ATTACK line of LOG,
# one for the attack program's closing line, one for the launcher's status.
judge_run() {
    local label=$1 log=$2 status=$3 line
    sed -n 's/^launcher: sandbox: /        sandbox: /p' "$log"
    while IFS= read -r line; do
        case "$line" in
        "CONTROL "*": ok"* | "ATTACK "*": blocked"*) pass "$label  $line" ;;
        "ATTACK "*": SKIPPED"*) skip "$label  ${line%%: SKIPPED*}" "${line#*: SKIPPED }" ;;
        "CONTROL "* | "ATTACK "*) fail "$label  $line" ;;
        esac
    done <"$log"
    if grep -q '^attack: done, 0 controls broken, 0 attacks open$' "$log"; then
        pass "$label  the attack program ran to its end"
    elif grep -q '^attack: done' "$log"; then
        fail "$label  $(grep '^attack: done' "$log")"
    else
        fail "$label  the attack program did not run to its end (replaced by another program, killed, or never started); its last lines:" "$(tail -4 "$log")"
    fi
    if [ "$status" -eq 0 ] && grep -q '^launcher: secret in the launcher.s memory intact: yes$' "$log"; then
        pass "$label  launcher: exit status 0, its memory intact"
    else
        fail "$label  launcher: exit status $status; $(grep -E '^launcher: (secret|the attack)' "$log" | tr '\n' ' ')"
    fi
}

# run_modes LABEL BIN_DIR AS...: runs both modes with the programs in BIN_DIR,
# each command prefixed by AS (nothing, or setpriv to another user); the
# Landlock mode's folders are made for that user.
run_modes() {
    local label=$1 bin=$2 status
    shift 2
    local as=("$@") read_target=/etc/hostname
    [ -r /etc/hostname ] || read_target=/etc/passwd
    if [ -x "$bin/attack-static" ]; then
        "${as[@]}" "$bin/launcher" no-files "$bin/attack-static" "$read_target" </dev/null >"$work/run.log" 2>&1
        status=$?
        judge_run "$label no-files:" "$work/run.log" "$status"
    else
        skip "$label no-files" "needs the static attack program"
    fi
    local dir=$work/$label-writable outside=$work/$label-outside/outside.txt
    mkdir -p "$dir" "$(dirname "$outside")" && echo "must stay as it is" >"$outside"
    [ "${#as[@]}" -eq 0 ] || chown 65534:65534 "$dir" "$(dirname "$outside")" "$outside"
    "${as[@]}" "$bin/launcher" landlock "$bin/attack" "$dir" "$outside" "$read_target" </dev/null >"$work/run.log" 2>&1
    status=$?
    judge_run "$label landlock:" "$work/run.log" "$status"
    if [ "$(cat "$outside")" = "must stay as it is" ] && [ -z "$(ls -A "$(dirname "$outside")" | grep -v '^outside.txt$')" ]; then
        pass "$label landlock:  the file outside the writable folder is untouched, nothing created beside it"
    else
        fail "$label landlock:  the folder outside the writable one changed: $(ls -A "$(dirname "$outside")" | tr '\n' ' ')"
    fi
}

echo "== grader/sandbox: confinement under attack"
mkdir -p "$out" || exit 2
build launcher "$CC" "${flags[@]}" -Igrader/sandbox tests/sandbox/launcher.c grader/sandbox/sandbox.c -o "$out/launcher"
build "attack (dynamic)" "$CC" "${flags[@]}" -pthread tests/sandbox/attack.c -o "$out/attack"
rm -f "$out/attack-static"
if ! "$CC" "${flags[@]}" -static -pthread tests/sandbox/attack.c -o "$out/attack-static" 2>"$work/cc.log"; then
    rm -f "$out/attack-static"
    skip "build attack (-static)" "static linking fails here ($(grep -m1 -iE 'error|cannot' "$work/cc.log")); the no-files mode is not tried"
else
    pass "build attack (-static)"
fi

if [ -x "$out/launcher" ] && [ -x "$out/attack" ]; then
    me=$(id -un 2>/dev/null || id -u)
    run_modes "$me" "$out"
    if [ "$(id -u)" -ne 0 ]; then
        skip "unprivileged run" "this already is one (uid $(id -u)); the run as nobody is made only by root"
    elif ! command -v setpriv >/dev/null; then
        skip "unprivileged run" "no setpriv here to become nobody"
    else
        # nobody may not be able to reach the build folder: the programs go to a folder it can read
        chmod 755 "$work"
        mkdir -p "$work/bin" && cp "$out"/launcher "$out"/attack* "$work/bin/" && chmod -R a+rX "$work/bin"
        run_modes nobody "$work/bin" setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all
    fi
fi

finish sandbox
