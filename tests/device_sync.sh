#!/usr/bin/env bash
# tests/device_sync.sh — on a GPU: the sync case of labs 2-5 on each
# solution (no false alarm) and on the barrier mutants (found, with the
# hint), printed as a table; then compute-sanitizer racecheck's own words for
# one mutant, for the record. Writes logs under $OUT when set.
set -u
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-/tmp}
make -s judge 2>&1 | tail -3
printf '%-58s %-6s %-18s %s\n' kernel status hint note
row() {  # LAB CASE FILE
    build/judge --kit . --lab "$1" --kernel "$3" --backend gpu --case "$2" --json >"$out/row.json" 2>"$out/row.err"
    python3 - "$out/row.json" "$3" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError:
    print("%-58s %s" % (sys.argv[2][-58:], "no report")); sys.exit()
for c in r["cases"]:
    print("%-58s %-6s %-18s %s | %s" % (sys.argv[2][-58:], c["status"], c["hint_key"] or "-", c["note"][:70], (c["detail"] or c["reason"])[:160]))
PY
}
for lab in 2 3 4; do row $lab 34 reference/solutions/$(ls reference/solutions | grep "^0$lab"); done
row 5 64x33x7 reference/solutions/05-jacobi.cu
for f in tests/mutants/02-shared-tile/barrier-in-branch.cu tests/mutants/02-shared-tile/no-barrier-after-load.cu \
         tests/mutants/04-register-tiling/early-return-before-barrier.cu tests/mutants/03-z-coarsening/missing-barrier-before-rotation.cu \
         tests/mutants/04-register-tiling/missing-barrier-before-rotation.cu ${EXTRA:-}; do
    lab=$(basename "$(dirname "$f")" | cut -c2)
    case $lab in 5) c=64x33x7 ;; *) c=34 ;; esac
    row "$lab" "$c" "$f"
done
# racecheck's own output on a race, for the parser.
sol=tests/mutants/02-shared-tile/no-barrier-after-load.cu
TMPDIR=$out/keep; mkdir -p "$TMPDIR"; export TMPDIR
build/judge --kit . --lab 2 --kernel "$sol" --backend gpu --case 34 --keep >/dev/null 2>&1
for l in "$TMPDIR"/stencil-judge-*/stencil-case-*/runner.log; do grep -q -i "race\|hazard" "$l" && { echo "== $l"; head -30 "$l"; }; done
exit 0
