#!/usr/bin/env bash
# tests/compare.sh — the same kernels on the GPU and through CPU emulation
# must get the same verdicts: every lab's solution and skeleton and every
# mutant, with the same seed on both backends. The verdicts compared are
# pass/fail and the hint of the first failing case; a mutant whose header
# expects "thread-order" (a missing barrier, which emulation detects by
# running two thread orders and a GPU shows only as wrong values, or not at
# all on a lucky run) is compared on pass/fail alone, and may pass on the GPU.
#
# usage: tests/compare.sh      (needs a usable GPU)
# Prints a table and "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2
make -s judge || exit 2
kit=$PWD
pass=0
fail=0
seed=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "seed $seed (both backends)"
printf '  %-48s %-28s %-28s\n' kernel gpu emulation

# verdict LAB KERNEL BACKEND: prints "pass" or "fail:<hint of the first failing case>".
verdict() {
    ./build/judge --kit "$kit" --lab "$1" --kernel "$2" --backend "$3" --seed "$seed" --json --fail-fast 2>/dev/null |
        python3 -c 'import json,sys
try:
    r = json.load(sys.stdin)
except ValueError:
    print("error"); sys.exit()
bad = [c for c in r.get("cases", []) if c["status"] == "fail"]
tech = r.get("technique", {}).get("status")
print("pass" if r.get("verdict") == "pass" else "fail:" + (bad[0]["hint_key"] if bad else "technique" if tech == "fail" else r.get("error", "?")))'
}

for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    kernels="$(build/judge --kit "$PWD" --lab "$lab" --conf-get kernel) $(build/judge --kit "$PWD" --lab "$lab" --conf-get solution)"
    for k in $kernels tests/mutants/"$lab"/*.cu; do
        [ -e "$k" ] || continue
        g=$(verdict "$lab" "$k" gpu)
        e=$(verdict "$lab" "$k" emu)
        same=0
        if [ "$g" = "$e" ]; then
            same=1
        elif grep -q '^// expect-hint: thread-order' "$k" && [ "$e" = fail:thread-order ]; then
            same=1
        fi
        if [ $same -eq 1 ]; then pass=$((pass + 1)); mark=ok; else fail=$((fail + 1)); mark=DIFFERENT; fi
        printf '  %-48s %-28s %-28s %s\n' "$lab/$(basename "$k")" "$g" "$e" "$mark"
    done
done
echo "gpu vs emulation: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
