#!/usr/bin/env bash
# tests/pictures.sh — the report's pictures as a student meets them, through
# CPU emulation: `make check HTML=1` on a lab 1 mutant whose grid misses its
# last partial block in x (three columns never written: a stripe the heat map
# must show) and on the lab 1 solution; a lab 5 mutant's heat map; the
# pictures' files exist, are valid PNG and SVG, and the JSON report names
# exactly them under the keys of grader/protocol/picture_keys.h; `make status`
# draws its strip; lab 10's tile-sweep bars draw from a table of their layout;
# without gnuplot one line says so and the check goes on;
# each HTML report loads in a real headless browser (Chromium) with every
# image decoded, no console error and nothing fetched from outside the page,
# and a page broken on purpose is caught.
#
# Needs gnuplot and a Chromium (chromium-headless-shell, as .ci/run installs).
# When one is missing: in CI (CI=true, as CI sets it) that is a failure; run
# by hand, the checks that need it are SKIPPED, saying what to install.
#
# usage: tests/pictures.sh [--match PATTERN]     (SEED=s replays a run's inputs)
# Prints a line per check and "pictures: N passed, M failed[, K skipped]"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
draw_seed pictures

# missing NAME WHAT: a tool this check needs is not installed: a failure in CI, SKIPPED by hand.
missing() {
    if [ "${CI:-}" = true ]; then
        fail "$1" "$2 is not installed (.ci/run installs it)"
    else
        skip "$1" "$2 is not installed (apt-get install gnuplot-nox chromium-headless-shell, as .ci/run does)"
    fi
}

mutant=tests/mutants/01-naive-sweep/grid-rounded-down.cu
solution=reference/solutions/01-naive-sweep.cu
jacobi_mutant=tests/mutants/05-jacobi/periodic-wrap.cu
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1
browser=
for b in chromium-headless-shell chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser=$b
        break
    fi
done
make -s judge >/dev/null || exit 1

# check_report NAME DIR EXPECT: the JSON report DIR/report.json against the
# pictures it must name (EXPECT: picture=yes|no ...), each file valid.
cat >"$tmp/check_report.py" <<'PY'
import json, re, struct, sys, zlib
import xml.etree.ElementTree as ET
report, keys_h, expect = sys.argv[1], sys.argv[2], dict(a.split("=") for a in sys.argv[3:])
header = open(keys_h).read()
pictures = re.findall(r"^\s+X\((\w+),", header.split("#define PICTURES(X)")[1].split("\n\n")[0], re.M)
formats = re.findall(r"^\s+X\((\w+),", header.split("#define PICTURE_FORMATS(X)")[1].split("\n\n")[0], re.M)
assert pictures and formats, "no picture keys read from " + keys_h
r = json.load(open(report))
named, notes = r["pictures"], r["picture_notes"]
known = {"%s_%s" % (p, f) for p in pictures for f in formats}
assert set(named) <= known, "keys not in picture_keys.h: %s" % (set(named) - known)
def png_ok(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, path + ": bad CRC in " + kind.decode()
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND", path + ": IHDR/IEND missing"
    w, h = struct.unpack(">II", chunks[0][1][:8])
    assert w >= 200 and h >= 150, path + ": %dx%d" % (w, h)
def svg_ok(path):
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), path + ": root is " + root.tag
    assert len(list(root.iter())) > 20, path + ": almost empty"
for p in pictures:
    want = expect.get(p)
    if want is None:
        continue
    assert p in notes and notes[p], "no note for " + p
    for f in formats:
        key = "%s_%s" % (p, f)
        if want == "no":
            assert key not in named, key + " named, yet it should not be drawn: " + notes[p]
            continue
        assert key in named, key + " not named; note: " + notes[p]
        path = named[key]
        assert path == "%s/%s.%s" % (report.rsplit("/", 1)[0], p, {"data": "dat"}.get(f, f)), key + ": " + path
        {"png": png_ok, "svg": svg_ok}.get(f, lambda path: open(path).read())(path)
print("ok")
PY
check_report() {
    local name=$1 dir=$2 out
    shift 2
    if out=$(python3 "$tmp/check_report.py" "$dir/report.json" grader/protocol/picture_keys.h "$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# check_stripe NAME DATA: the heat map of the mutant shows its stripe: every
# never-written cell lies in the columns k = 96..98 of the N=100 case, and
# every interior cell of those columns is one.
cat >"$tmp/check_stripe.py" <<'PY'
import sys
text = open(sys.argv[1]).read()
assert "case N=100" in text, "the heat map is not of N=100: " + text.splitlines()[0]
cells = [l.split() for l in text.splitlines() if l and not l.startswith("#")]
unwritten = {(int(k), int(j)) for k, j, v in cells if v == "-5.5"}
want = {(k, j) for k in (96, 97, 98) for j in range(1, 99)}
assert unwritten == want, "never-written cells %d, expected the 294 of columns 96-98" % len(unwritten)
assert all(float(v) <= 0 for k, j, v in cells if float(v) > -3.1), "a written cell is outside the tolerance"
print("ok")
PY
check_stripe() {
    local out
    if out=$(python3 "$tmp/check_stripe.py" "$2" 2>&1); then pass "$1"; else fail "$1" "$out"; fi
}

# The heat map's cut: a mutant whose wrong cells fill a whole z plane (its z range stops one
# plane early) is drawn from the side, a y slice where that plane is one row; the stripe's
# mutant above keeps its z plane (check_stripe).
check_side() {
    local out
    STENCIL_GNUPLOT="$tmp/no-gnuplot" report "$tmp/side" LAB=1 KERNEL=tests/mutants/01-naive-sweep/interior-off-by-one.cu CASE=33 >/dev/null
    out=$(python3 - "$tmp/side/heatmap.dat" 2>&1 <<'PY'
import sys
text = open(sys.argv[1]).read()
assert "side view, the y slice j = 16" in text.splitlines()[0], text.splitlines()[0]
cells = [l.split() for l in text.splitlines() if l and not l.startswith("#")]
unwritten = {(int(k), int(i)) for k, i, v in cells if v == "-5.5"}
assert unwritten == {(k, 31) for k in range(1, 32)}, sorted(unwritten)[:5]
print("ok")
PY
)
    if [ "$out" = ok ]; then pass "$1"; else fail "$1" "$out"; fi
}

echo "== pictures: make check with HTML=1 through CPU emulation"
report() {  # report DIR ARGS...: make check into DIR; prints its output
    local dir=$1
    shift
    make -s check EMU=1 SEED="$seed" HTML=1 REPORT_DIR="$dir" "$@" 2>&1
}
out=$(STENCIL_GNUPLOT="$tmp/no-gnuplot" report "$tmp/none" LAB=1 KERNEL="$mutant" CASE=100)
if [ "$(grep -c '^pictures: gnuplot is not installed; install gnuplot to get them' <<<"$out")" = 1 ] &&
    grep -q '^verdict: FAIL' <<<"$out" && [ -s "$tmp/none/heatmap.dat" ] && [ ! -e "$tmp/none/heatmap.png" ] &&
    grep -q '"heatmap_data"' "$tmp/none/report.json" && ! grep -q '"heatmap_png"' "$tmp/none/report.json"; then
    pass "without gnuplot: one line says so, the check goes on, the data file is written"
else
    fail "without gnuplot: one line says so, the check goes on, the data file is written" "$out"
fi
check_side "heat map of a whole z plane never written: a side view, that plane one row of never-written cells"

# The handouts rendered (with pandoc), so that the HTML report's hint keys link to their anchors.
have_handouts=0
command -v pandoc >/dev/null 2>&1 && make -s handouts >/dev/null 2>&1 && [ -s build/handouts/01-naive-sweep.html ] && have_handouts=1
if [ "$have_gnuplot" = 1 ]; then
    out=$(report "$tmp/fail" LAB=1 KERNEL="$mutant")
    if grep -q '^pictures: heatmap   .*heatmap.png (and .svg): N=100, z plane' <<<"$out" &&
        grep -q '^          roofline  not drawn: CPU emulation' <<<"$out"; then
        pass "failing mutant: the report names the heat map and why there is no roofline"
    else
        fail "failing mutant: the report names the heat map and why there is no roofline" "$out"
    fi
    check_report "failing mutant: heat map PNG, SVG and data named in the JSON; no roofline" "$tmp/fail" heatmap=yes roofline=no
    check_stripe "failing mutant: the heat map shows the three columns never written, all else right" "$tmp/fail/heatmap.dat"
    out=$(report "$tmp/pass" LAB=1 KERNEL="$solution" CASE=33)
    if grep -q '^verdict: PASS' <<<"$out" && grep -q '^pictures: heatmap   not drawn: no case has wrong cells' <<<"$out"; then
        pass "passing solution: passes, and says there is nothing to draw"
    else
        fail "passing solution: passes, and says there is nothing to draw" "$out"
    fi
    check_report "passing solution: no picture named, each with its reason" "$tmp/pass" heatmap=no roofline=no
    report "$tmp/jacobi" LAB=5 KERNEL="$jacobi_mutant" CASE=37x29x19 >/dev/null
    check_report "lab 5 mutant: heat map of its final grid named in the JSON" "$tmp/jacobi" heatmap=yes roofline=no
    # make status in a tree of its own: lab 1 failed, lab 2 passed (its report borrowed), the others not tried
    mkdir -p "$tmp/kit/grader/class" "$tmp/kit/grader/pictures" "$tmp/kit/build/status"
    cp grader/class/status.sh "$tmp/kit/grader/class/"
    cp grader/pictures/progress.gp "$tmp/kit/grader/pictures/"
    for d in labs/[0-9][0-9]-*/; do
        mkdir -p "$tmp/kit/$d"
        cp "$d/lab.conf" "$tmp/kit/$d/"
    done
    # the judge's summaries of a failed lab 1 and a passed lab 2, as a check leaves them for make status
    build/judge --kit "$PWD" --lab 1 --backend emu --seed "$seed" --case 100 --kernel "$mutant" --summary-out "$tmp/kit/build/status/01-naive-sweep.summary" >/dev/null 2>&1
    build/judge --kit "$PWD" --lab 2 --backend emu --seed "$seed" --case 13 --kernel reference/solutions/02-shared-tile.cu --summary-out "$tmp/kit/build/status/02-shared-tile.summary" >/dev/null 2>&1
    ln -s "$PWD/build/judge" "$tmp/kit/build/judge"  # the titles, from each lab.conf
    out=$("$tmp/kit/grader/class/status.sh" 2>&1)
    # The columns line up under the header, however long a title (lab 9's is the longest).
    if python3 - "$out" 2>/dev/null <<'PY'; then
import sys
lines = sys.argv[1].splitlines()
head = lines[0]
at = head.index("last check")
rows = [l for l in lines[1:] if l[:2].isdigit()]
assert len(rows) >= 11, rows
assert all(r[at - 1] == " " and r[at] != " " for r in rows), [r for r in rows if r[at - 1] != " " or r[at] == " "]
assert any("Several Jacobi iterations a launch (time blocking)" in r for r in rows)
PY
        pass "make status: the columns line up under the header with the longest title whole"
    else
        fail "make status: the columns line up under the header with the longest title whole" "$out"
    fi
    if grep -q '^pictures: build/status/progress.png (and .svg)' <<<"$out" &&
        python3 - "$tmp/kit/build/status/progress" <<'PY' 2>/dev/null; then
import sys, xml.etree.ElementTree as ET
stem = sys.argv[1]
states = {int(l.split()[0]): l.split()[1] for l in open(stem + ".dat")}  # by lab number: lab 0 comes first
assert states[1] == "1" and states[2] == "2" and {v for n, v in states.items() if n not in (1, 2)} == {"0"}, states
assert open(stem + ".png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
assert ET.parse(stem + ".svg").getroot().tag.endswith("svg")
PY
        pass "make status: a strip of the labs, failed, passed and not tried, as PNG and SVG"
    else
        fail "make status: a strip of the labs, failed, passed and not tried, as PNG and SVG" "$out"
    fi
    out=$(STENCIL_GNUPLOT="$tmp/no-gnuplot" "$tmp/kit/grader/class/status.sh" 2>&1)
    if grep -q '^pictures: gnuplot is not installed; install gnuplot to get them' <<<"$out" && [ ! -e "$tmp/kit/build/status/progress.png" ]; then
        pass "make status without gnuplot: one line says so"
    else
        fail "make status without gnuplot: one line says so" "$out"
    fi
    # lab 10's tile sweep (tests/bench/heat_tile_sweep.sh writes its data on a GPU): the bars from a table of that layout
    printf '0 "32x4" 0.2101 2556.1 3010.5\n1 "64x8" 0.1902 2823.4 3010.5\n2 "128x2" 0.1950 2754.0 3010.5\n' >"$tmp/sweep.dat"
    if gnuplot -c grader/pictures/tile_sweep.gp "$tmp/sweep.dat" "$tmp/sweep" "lab 10: by tile shape" 2>"$tmp/sweep.log" &&
        python3 - "$tmp/sweep" <<'PY' 2>>"$tmp/sweep.log"; then
import sys, xml.etree.ElementTree as ET
stem = sys.argv[1]
assert open(stem + ".png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
assert ET.parse(stem + ".svg").getroot().tag.endswith("svg")
PY
        pass "lab 10 tile sweep: bars by tile shape under the copy limit, as PNG and SVG"
    else
        fail "lab 10 tile sweep: bars by tile shape under the copy limit, as PNG and SVG" "$(cat "$tmp/sweep.log")"
    fi
    # speed against plane size (tests/bench/plane_size_sweep.sh writes its data on a GPU): a line a kernel, a NaN cell left out
    printf '# plane-MiB solution one-thread-per-point shared-plane-32x8\n# a row a grid\n1 %d 55 40\n16 88 NaN 45\n128 86 48 52\n' $((80 + RANDOM % 15)) >"$tmp/planes.dat"
    if gnuplot -c grader/pictures/plane_sweep.gp "$tmp/planes.dat" "$tmp/planes" "lab 6: by plane size" 2>"$tmp/planes.log" &&
        python3 - "$tmp/planes" <<'PY' 2>>"$tmp/planes.log"; then
import sys, xml.etree.ElementTree as ET
stem = sys.argv[1]
assert open(stem + ".png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
svg = open(stem + ".svg").read()
assert ET.fromstring(svg).tag.endswith("svg")
for name in ("solution", "one-thread-per-point", "shared-plane-32x8"):  # a line a kernel, each in the key
    assert name in svg, name
PY
        pass "speed against plane size: a line a kernel, as PNG and SVG"
    else
        fail "speed against plane size: a line a kernel, as PNG and SVG" "$(cat "$tmp/planes.log")"
    fi
else
    missing "pictures drawn with gnuplot (heat map, status strip)" gnuplot
    report "$tmp/fail" LAB=1 KERNEL="$mutant" CASE=100 >/dev/null
    report "$tmp/pass" LAB=1 KERNEL="$solution" CASE=33 >/dev/null
fi

echo "== pictures: the HTML reports in a headless browser"
if [ -z "$browser" ]; then
    missing "HTML reports in a browser" "Chromium (chromium-headless-shell)"
elif [ ! -s "$tmp/fail/report.html" ] || [ ! -s "$tmp/pass/report.html" ]; then
    fail "HTML reports written" "$(ls -la "$tmp/fail" "$tmp/pass" 2>&1)"
else
    images=$((have_gnuplot ? 1 : 0))
    # A copy broken on purpose, beside the page (its links are relative to it): an image that does not decode and one from outside the page.
    sed 's|<figure>|<img alt="outside" src="http://127.0.0.1:9/x.png"><img alt="broken" src="data:image/png;base64,AAAA"><figure>|' \
        "$tmp/fail/report.html" >"$tmp/fail/broken.html"
    grep -q 'alt="outside"' "$tmp/fail/broken.html" || sed -i 's|</body>|<img alt="outside" src="http://127.0.0.1:9/x.png"><img alt="broken" src="data:image/png;base64,AAAA"></body>|' "$tmp/fail/broken.html"
    sed -i 's|#\([a-z-]*\)">|#\1-misspelt">|' "$tmp/fail/broken.html"  # and a hint's link to an anchor the handout lacks
    out=$(tests/html_check.py "$browser" "$tmp/fail/report.html=$images" "$tmp/pass/report.html=0" "$tmp/fail/broken.html=0" 2>&1)
    line() { grep -F "$1"$'\t' <<<"$out"; }
    if line "$tmp/fail/report.html" | grep -q $'\tok'; then
        pass "failing mutant's page: loads, $images picture(s) decoded, no console error, nothing from outside"
    else
        fail "failing mutant's page loads clean" "$out"
    fi
    if line "$tmp/pass/report.html" | grep -q $'\tok'; then
        pass "passing solution's page: loads, no console error, nothing from outside"
    else
        fail "passing solution's page loads clean" "$out"
    fi
    if [ "$have_handouts" = 1 ]; then
        if grep -qE '<a href="[^"]*/build/handouts/01-naive-sweep\.html#[a-z-]+"><code>\[' "$tmp/fail/report.html" &&
            line "$tmp/fail/broken.html" | grep -q 'links to an anchor its page lacks'; then
            pass "failing mutant's page: each hint key links to its anchor in the rendered handout (checked in the browser run)"
        else
            fail "failing mutant's page: each hint key links to its anchor in the rendered handout" "$(grep -o '<a href="[^"]*"' "$tmp/fail/report.html" | head -3) $out"
        fi
    else
        missing "hint links to the rendered handouts" pandoc
    fi
    if line "$tmp/fail/broken.html" | grep -q 'did not decode' && line "$tmp/fail/broken.html" | grep -q 'outside the page'; then
        pass "a page broken on purpose is caught (an image that does not decode, one from outside)"
    else
        fail "a page broken on purpose is caught" "$out"
    fi
    for page in fail pass; do
        if grep -q '<table>' "$tmp/$page/report.html" && grep -q 'verdict: <b>' "$tmp/$page/report.html" &&
            { [ "$page" = pass ] || grep -q 'unwritten-cells' "$tmp/$page/report.html"; }; then
            pass "$page page: the verdict, the case table and the hints are there"
        else
            fail "$page page: the verdict, the case table and the hints are there" "$(head -c 600 "$tmp/$page/report.html")"
        fi
    done
fi

finish pictures
