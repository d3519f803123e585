#!/usr/bin/env bash
# tests/bench/past_book_sweep.sh — lab 6's tuning sweep, on a GPU: which of
# the solution's tuning knobs bring the large grid (4096x4096x32) to 90% of
# the copy limit without losing the 512 cube.
#
# For each setting it writes a copy of lab 6's solution with the setting's
# macros #defined in front (the file reads each knob under #ifndef; its
# header says what each one does), grades the copy with the judge on each
# timed case alone (--case: every time is the kit's own, a fresh grid a
# repetition, every repetition checked, the copy limit measured in the same
# run) and prints a row a setting: the vector kernel's registers a thread
# (ptxas), then for each case the median ms, GB/s counting 8 bytes a point,
# the share of the copy limit, and PASS when every case passed. The table
# also goes to OUT_DIR/sweep.txt, each run's JSON report and log beside it.
#
# BACKEND=emu checks instead of timing, without a GPU: each setting through
# CPU emulation (a) on lab 6's own cases, (b) in a copy of the kit whose lab
# 6 adds grids that take the float4 kernel in awkward ways (one float4 a row,
# fewer rows than a block, a thread or a chunk covers, one interior plane,
# many chunks), and (c) on those with LARGE_PLANE=0, so that the large-plane
# path (LARGE_CHUNK, ZFLIP=1) runs on small grids too. A setting passes when
# every case of all three passes.
#
# usage: tests/bench/past_book_sweep.sh [SETTING ...]
#   SETTING            "solution" (the file as it is), or NAME=VALUE[,NAME=VALUE...],
#                      e.g. BLOCK_Y=8,PREFETCH=1,LARGE_CHUNK=16; NAME one of the knobs below
#   KERNEL=file.cu     the file to sweep (reference/solutions/06-past-the-book.cu)
#   CASES="4096x4096x32 512"   the timed cases of labs/06-past-the-book/lab.conf to time
#   OUT_DIR=dir        where the copies, reports and table go (build/past-book-sweep)
#   ARCH=sm_90         passed to the judge and to ptxas's register count (default: the GPU's own)
#   BUDGET=450         seconds: no setting starts after this many (0: no limit); the rest are listed as not run
#   BACKEND=emu        correctness only, through CPU emulation (above); the default, gpu, times
#   JUDGE=path         the judge to run (build/judge, built first by make judge)
# Without a setting it sweeps the list below (the solution as it is twice: the
# two rows show the run-to-run noise). Needs an NVIDIA GPU unless
# BACKEND=emu: without one it says so and exits 77, as the judge does.
set -u
cd "$(dirname "$0")/../.." || exit 2
kernel=${KERNEL:-reference/solutions/06-past-the-book.cu}
out=${OUT_DIR:-build/past-book-sweep}
backend=${BACKEND:-gpu}
budget=${BUDGET:-450}
read -r -a cases <<<"${CASES:-4096x4096x32 512}"
settings=("$@")
# shellcheck disable=SC2054  # the commas are inside settings, not between them
[ ${#settings[@]} -eq 0 ] && settings=(  # the likeliest first: BUDGET cuts the end of the list
    solution                                        # the solution as it is (32 x 16 blocks, 32 registers, plain stores): the baseline
    BLOCK_Y=4,UNROLL=4,STREAM=1,MIN_BLOCKS=0        # the solution before: 32 x 4 blocks, unrolled four times, streaming stores (H200 86% / 83%)
    BLOCK_Y=4                                       # short blocks at full occupancy: the halo rows 2 in 6 of those read
    BLOCK_Y=8                                       # ... 2 in 10
    BLOCK_X=64,BLOCK_Y=8                            # wider blocks: fewer x neighbours from other blocks
    STREAM=1                                        # streaming stores (__stcs)
    UNROLL=2,MIN_BLOCKS=0                           # the z loop unrolled twice, registers as the compiler wants
    SMALL_CHUNK=3                                   # shorter chunks on small planes: more blocks, more planes re-read
    SMALL_CHUNK=6                                   # longer ones: fewer planes re-read from L2 (83% at N = 512 on an H200)
    L2_AHEAD=2                                      # planes prefetched into L2 two steps ahead
    XSHFL=1                                         # x neighbours through warp shuffles
    MARCH=2                                         # the restructured march
    solution                                        # again: the noise between two runs of one kernel
)
knobs="BLOCK_X BLOCK_Y SMALL_CHUNK LARGE_CHUNK LARGE_PLANE MIN_BLOCKS UNROLL MARCH ROWS PREFETCH ZFLIP L2_AHEAD L2_HOW XSHFL STREAM ZSPLIT ZTURN CLUSTER_X CLUSTER_Y CLUSTER_Z TAIL_CHUNK TAIL_PLANES ZSHARE SHARE_CARVEOUT"

# Checks one setting; on a mistake prints one line and exits 2.
check_setting() {
    local s=$1 item name value seen=" " bx=32 by=16 bz=1 cluster=1 march=0 rows=1 prefetch=0 zflip=0 march1=0
    [ "$s" = solution ] && return 0
    if ! [[ $s =~ ^[A-Z][A-Z0-9_]*=[0-9]+(,[A-Z][A-Z0-9_]*=[0-9]+)*$ ]]; then
        echo "past_book_sweep: $s is no setting: NAME=VALUE[,NAME=VALUE...] with NAME one of $knobs and VALUE a whole number, or 'solution'" >&2
        exit 2
    fi
    IFS=, read -r -a items <<<"$s"
    for item in "${items[@]}"; do
        name=${item%%=*} value=$((10#${item#*=}))
        if ! grep -qw -- "$name" <<<"$knobs"; then
            echo "past_book_sweep: $s is no setting: $name is no knob (the knobs: $knobs)" >&2
            exit 2
        fi
        [[ $seen == *" $name "* ]] && { echo "past_book_sweep: $s is no setting: $name given twice" >&2; exit 2; }
        seen+="$name "
        case $name in
        BLOCK_X) bx=$value ;;
        BLOCK_Y) by=$value ;;
        ZSPLIT) bz=$value && [ "$value" -gt 1 ] && march1=1 ;;
        CLUSTER_?) cluster=$((cluster * value)) && [ "$value" -gt 1 ] && march1=1 ;;
        MARCH) march=$value ;;
        ROWS) rows=$value ;;
        PREFETCH) prefetch=$value ;;
        ZFLIP) zflip=$value ;;
        L2_AHEAD | XSHFL | ZTURN | TAIL_CHUNK | ZSHARE) [ "$value" -gt 0 ] && march1=1 ;;  # MARCH 1's knobs, like ZSPLIT above 1
        esac
        local low=0 high=4294967295
        case $name in
        BLOCK_X | BLOCK_Y) low=1 high=1024 ;;
        SMALL_CHUNK | LARGE_CHUNK) low=1 high=65535 ;;
        TAIL_CHUNK | TAIL_PLANES) high=65535 ;;
        MIN_BLOCKS) high=32 ;;
        UNROLL) high=64 ;;
        MARCH) low=1 high=2 ;;
        ROWS) low=1 high=4 ;;
        PREFETCH | ZFLIP) high=2 ;;
        L2_AHEAD) high=64 ;;
        ZSPLIT) low=1 high=64 ;;
        CLUSTER_?) low=1 high=8 ;;
        L2_HOW) low=1 high=2 ;;
        SHARE_CARVEOUT) high=100 ;;
        XSHFL | STREAM | ZTURN | ZSHARE) high=1 ;;
        esac
        if [ "$value" -lt "$low" ] || [ "$value" -gt "$high" ]; then
            echo "past_book_sweep: $s is no setting: $name is $low to $high, got $value" >&2
            exit 2
        fi
    done
    if [ $((bx * by * bz)) -gt 1024 ]; then
        echo "past_book_sweep: $s is no setting: BLOCK_X * BLOCK_Y * ZSPLIT is $((bx * by * bz)) threads, more than 1024" >&2
        exit 2
    fi
    if [ "$cluster" -gt 8 ]; then
        echo "past_book_sweep: $s is no setting: CLUSTER_X * CLUSTER_Y * CLUSTER_Z is $cluster blocks, more than 8" >&2
        exit 2
    fi
    if [ "$march1" -ne 0 ] && { [ "$march" -eq 2 ] || [ "$rows" -ne 1 ] || [ "$prefetch" -ne 0 ] || [ "$zflip" -ne 0 ]; }; then
        echo "past_book_sweep: $s is no setting: L2_AHEAD, XSHFL, ZSPLIT, ZTURN, CLUSTER_*, TAIL_CHUNK and ZSHARE belong to MARCH 1 (the default)" >&2
        exit 2
    fi
    if [ "$march" -eq 1 ] && { [ "$rows" -ne 1 ] || [ "$prefetch" -ne 0 ] || [ "$zflip" -ne 0 ]; }; then
        echo "past_book_sweep: $s is no setting: ROWS, PREFETCH and ZFLIP belong to MARCH=2" >&2
        exit 2
    fi
}
for s in "${settings[@]}"; do check_setting "$s"; done
case $backend in gpu | emu) ;; *) echo "past_book_sweep: BACKEND is gpu or emu, got '$backend'" >&2; exit 2 ;; esac
[[ $budget =~ ^[0-9]+$ ]] || { echo "past_book_sweep: BUDGET is a whole number of seconds, got '$budget'" >&2; exit 2; }
[ -f "$kernel" ] || { echo "past_book_sweep: no kernel file $kernel" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "past_book_sweep: needs python3 to read the judge's JSON reports" >&2; exit 2; }
judge=${JUDGE:-build/judge}
[ "$judge" = build/judge ] && { make -s judge || exit 2; }
for c in "${cases[@]}"; do
    grep -qw -- "$c" <<<"$("$judge" --kit "$PWD" --lab 6 --conf-get timed)" ||
        { echo "past_book_sweep: $c is no timed case of labs/06-past-the-book/lab.conf" >&2; exit 2; }
done
mkdir -p "$out"

# Writes the copy of setting number $1 ($2), with the defines $3 (NAME=VALUE,...) too, to $out/sNN$4.cu; prints its path.
write_copy() {
    local copy
    copy=$(printf '%s/s%02d%s.cu' "$out" "$1" "${4:-}")
    {
        printf '// %s with the setting %s (tests/bench/past_book_sweep.sh)\n' "$kernel" "$2"
        [ "$2" = solution ] || tr ',' '\n' <<<"$2" | sed 's/^\([A-Z0-9_]*\)=\(.*\)$/#define \1 \2/'
        [ -z "$3" ] || tr ',' '\n' <<<"$3" | sed 's/^\([A-Z0-9_]*\)=\(.*\)$/#define \1 \2/'
        cat "$kernel"
    } >"$copy"
    echo "$copy"
}

# The vector kernel's registers a thread, from ptxas ("32", "40, spills 44 B"; "?" without nvcc).
registers() {
    local copy=$1 arch=$2
    if [ -z "$arch" ] || ! command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
        echo "?"
        return
    fi
    "${NVCC:-nvcc}" -O3 -std=c++17 -arch="$arch" -Ikernels -cubin -o /dev/null --resource-usage "$copy" 2>&1 | python3 -c '
import re, sys
kernels, name = {}, None
for line in sys.stdin:
    m = re.search(r"Compiling entry function .(\w+).", line)
    if m:
        name = m.group(1); kernels[name] = ["?", 0]
    m = re.search(r"(\d+) bytes spill stores", line)
    if m and name:
        kernels[name][1] = int(m.group(1))
    m = re.search(r"Used (\d+) registers", line)
    if m and name:
        kernels[name][0] = m.group(1)
pick = [k for k in kernels if "sweep_vec4_rows" in k] or [k for k in kernels if "sweep_vec4_share" in k] or [k for k in kernels if "sweep_vec4" in k]
if not pick:
    print("?")
else:
    regs, spill = kernels[pick[0]]
    print(regs + (", spills %d B" % spill if spill else ""))
'
}

# Reads a judge JSON report: prints "ms GB/s copy-limit" for the timed case $2, or "FAIL why".
read_timing() {
    python3 - "$1" "$2" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("FAIL no report"); sys.exit(0)
for c in r.get("cases", []):
    t = c.get("timing")
    if c.get("status") == "ok" and t and t.get("bandwidth_gb_per_s"):
        print("%.4f %.0f %.0f" % (t["median_ms"], t["gb_per_s"], t["bandwidth_gb_per_s"]))
        sys.exit(0)
why = r.get("message") or next((c.get("name", "") + ": " + (c.get("reason") or c.get("kind", "")) for c in r.get("cases", []) if c.get("status") == "fail"), "not timed")
print("FAIL " + " ".join(why.split())[:150])
PY
}

# Reads a judge JSON report of a whole emulated run: prints "PASS n/n" or "FAIL n/m first-failing-case: why".
read_verdict() {
    python3 - "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("FAIL no report"); sys.exit(0)
ran = [c for c in r.get("cases", []) if c.get("status") != "skipped"]
bad = [c for c in ran if c.get("status") != "ok"]
if r.get("status") != "graded" or not ran:
    print("FAIL " + " ".join((r.get("message") or "not graded").split())[:150])
elif bad:
    print("FAIL %d/%d %s: %s" % (len(ran) - len(bad), len(ran), bad[0].get("name"), " ".join((bad[0].get("reason") or bad[0].get("kind", "")).split())[:120]))
else:
    print("PASS %d/%d" % (len(ran), len(ran)))
PY
}

start=$SECONDS
table=$out/sweep.txt
if [ "$backend" = emu ]; then
    # The kit copy: lab 6's cases and more grids for the float4 kernel (nx a multiple of 4).
    kit=$out/kit
    rm -rf "$kit" && mkdir -p "$kit/labs" || exit 2
    cp -r grader reference kernels "$kit/" && cp -r labs/06-past-the-book "$kit/labs/" || exit 2
    cat >>"$kit/labs/06-past-the-book/lab.conf" <<'EOF'
# Added by tests/bench/past_book_sweep.sh (BACKEND=emu): the float4 kernel's awkward grids.
case = 4x3x3 group=small        # one float4 a row, holding both boundary columns; one interior point
case = 4x7x40 group=small       # one float4 a row; 5 rows (not a whole number of ROWS); 38 planes: many chunks
case = 8x4x5 group=small        # 2 interior rows: fewer than ROWS 3 or 4 (the scalar kernel)
case = 12x5x3 group=small       # one interior plane: fewer than any chunk
case = 132x41x37 group=small    # 33 float4s (a part block in x), 39 rows, 35 planes (an odd number of chunks)
case = 516x21x70 group=small    # 129 float4s, 19 rows, 68 planes
case = 36x1030x6 group=small    # many rows: many blocks along y
case = 1028x6x11 group=small    # 257 float4s, 4 rows: fewer than most blocks cover
case = 1031x9x7 group=small     # the scalar kernel over several blocks of any shape
EOF
    printf '%-3s %-48s %-18s %-22s %-22s %-22s %s\n' "#" setting regs "lab 6's cases" "+ float4 grids" "+ every plane large" verdict | tee "$table"
    failed=0
    for n in "${!settings[@]}"; do
        s=${settings[$n]}
        cells=()
        verdict=PASS
        for run in lab extra large; do
            if [ $run = large ] && [[ $s == *LARGE_PLANE=* ]]; then
                cells+=("(set by the setting)")
                continue
            fi
            defines="" where=$kit tag="-$run"
            [ $run = lab ] && where=.
            [ $run = large ] && defines="LARGE_PLANE=0"
            copy=$(write_copy "$n" "$s" "$defines" "$tag")
            "$judge" --kit "$where" --lab 6 --backend emu --kernel "$copy" --json >"${copy%.cu}.json" 2>"${copy%.cu}.log"
            got=$(read_verdict "${copy%.cu}.json")
            [[ $got == PASS* ]] || verdict=FAIL
            cells+=("$got")
        done
        regs=$(registers "$(printf '%s/s%02d-lab.cu' "$out" "$n")" "${ARCH:-sm_90}")
        [ $verdict = PASS ] || failed=$((failed + 1))
        printf '%-3s %-48s %-18s %-22s %-22s %-22s %s\n' "$n" "$s" "$regs" "${cells[0]:0:22}" "${cells[1]:0:22}" "${cells[2]:0:22}" "$verdict" | tee -a "$table"
        for c in "${cells[@]}"; do [[ $c == FAIL* ]] && echo "    $c" | tee -a "$table"; done
    done
    echo "($((SECONDS - start)) s; reports in $out; registers: the vector kernel's, ptxas for ${ARCH:-sm_90})"
    [ "$failed" -eq 0 ] || { echo "past_book_sweep: $failed setting(s) failed under emulation" >&2; exit 1; }
    exit 0
fi

# GPU: the registers first (ptxas, all copies side by side), then the timed runs one at a time.
arch=${ARCH:-}
if [ -z "$arch" ]; then  # the GPU's own, found as grader/build.mk finds it
    cc=$("$(dirname "$(command -v "${NVCC:-nvcc}" 2>/dev/null || echo .)")/__nvcc_device_query" 2>/dev/null | cut -d, -f1)
    [[ $cc =~ ^[0-9]+$ ]] && arch=sm_$cc
fi
for n in "${!settings[@]}"; do write_copy "$n" "${settings[$n]}" "" >/dev/null; done
for n in "${!settings[@]}"; do
    (registers "$(printf '%s/s%02d.cu' "$out" "$n")" "$arch" >"$(printf '%s/s%02d.regs' "$out" "$n")") &
done
wait
{
    printf '%-3s %-48s %-16s' "#" setting regs
    for c in "${cases[@]}"; do printf ' | %-29s' "$c: ms, GB/s, share"; done
    printf ' | verdict\n'
} | tee "$table"
data=$out/sweep.dat  # a row a setting timed: number, verdict, each case's share in percent (NaN: not timed), setting
: >"$data"
timed=0
for n in "${!settings[@]}"; do
    s=${settings[$n]}
    copy=$(printf '%s/s%02d.cu' "$out" "$n")
    if [ "$budget" -gt 0 ] && [ $((SECONDS - start)) -ge "$budget" ]; then
        printf '%-3s %-48s not run: the BUDGET of %s s was spent\n' "$n" "$s" "$budget" | tee -a "$table"
        continue
    fi
    row=$(printf '%-3s %-48s %-16s' "$n" "$s" "$(cat "${copy%.cu}.regs" 2>/dev/null)")
    verdict=PASS
    whys=()
    shares=""
    for c in "${cases[@]}"; do
        json="${copy%.cu}-$c.json"
        "$judge" --kit . --lab 6 --kernel "$copy" --backend gpu --case "$c" --json ${ARCH:+--arch "$ARCH"} >"$json" 2>"${json%.json}.log"
        status=$?
        if [ $status -eq 77 ]; then
            echo "past_book_sweep: needs an NVIDIA GPU, and the judge found none ($(grep -m1 -i 'gpu' "${json%.json}.log" | cut -c1-160)); the sweep times kernels, which CPU emulation cannot do (BACKEND=emu checks the settings' correctness instead)" >&2
            exit 77
        fi
        read -r ms gbs roof rest <<<"$(read_timing "$json" "$c")"
        if [ "$ms" = FAIL ]; then
            verdict=FAIL
            whys+=("$c: $gbs $roof $rest (exit $status; ${json%.json}.log)")
            row+=$(printf ' | %-29s' "-")
            shares+=" NaN"
        else
            share=$(awk -v g="$gbs" -v r="$roof" 'BEGIN { printf "%.1f%%", (r > 0 ? 100 * g / r : 0) }')  # parenthesised: a bare > is a redirection in awk
            row+=$(printf ' | %9s %6s %7s     ' "$ms" "$gbs" "$share")
            shares+=" ${share%\%}"
            if [ $status -ne 0 ]; then  # timed, yet something else failed (the technique line)
                verdict=FAIL
                whys+=("$c: the judge exited $status (${json%.json}.log)")
            fi
        fi
    done
    echo "$row | $verdict" | tee -a "$table"
    echo "$n $verdict$shares $s" >>"$data"
    for w in "${whys[@]}"; do echo "    $w" | tee -a "$table"; done
    timed=$((timed + 1))
done
[ "$timed" -gt 0 ] || { echo "past_book_sweep: no setting was timed" >&2; exit 1; }
awk -v names="${cases[*]}" '
    BEGIN { nc = split(names, cs, " ") }
    { for (i = 1; i <= nc; i++) if ($2 == "PASS" && $(2 + i) + 0 > best[i]) { best[i] = $(2 + i) + 0; who[i] = $1 " " $(3 + nc) }
      all = ($2 == "PASS"); for (i = 1; i <= nc; i++) if (!($(2 + i) + 0 >= 90)) all = 0
      if (all) goal = goal (goal == "" ? "" : ", ") $1 " " $(3 + nc) }
    END { for (i = 1; i <= nc; i++) if (who[i] != "") printf "best on %s: %s (%.1f%%)\n", cs[i], who[i], best[i]
          printf "at 90%% or more on every case: %s\n", (goal == "" ? "none" : goal) }' "$data" | tee -a "$table"
echo "($((SECONDS - start)) s; share: GB/s counting 8 bytes a point over the copy limit measured in the same run; the goal is 90%; reports in $out)"
