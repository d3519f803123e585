# tests/check.sh — sourced by the test scripts: one line per check, and the
# counters their closing "N passed, M failed" line reports.
pass=0
fail=0

# check NAME COMMAND...: runs COMMAND; "ok NAME" if it succeeds, "FAIL NAME" if not.
check() {
    local name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
        printf '  ok    %s\n' "$name"
    else
        fail=$((fail + 1))
        printf '  FAIL  %s\n' "$name"
    fi
}
