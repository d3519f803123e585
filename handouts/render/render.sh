#!/usr/bin/env bash
# handouts/render/render.sh — `make handouts`: every handout, English
# (handouts/NN-name.md) and Chinese (handouts/zh/NN-name.md), rendered with
# pandoc to one self-contained HTML page each (styles embedded, nothing
# fetched; pipe tables sized by the browser, not by their source width), under OUT/NN-name.html and OUT/zh/NN-name.html, plus OUT/index.html
# listing the labs in both languages. In each page's hints section every hint
# key has an anchor (OUT/02-shared-tile.html#tile-edges), and the section
# itself has the id "hints".
#
# usage: render.sh OUT          (PANDOC=path picks the pandoc to run)
# Exits 0 when every page was written, 1 when pandoc failed on one (its
# message is printed), 2 when pandoc is missing or the kit is incomplete.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../.." && pwd)
out=${1:?usage: render.sh OUT}
pandoc=${PANDOC:-pandoc}

if ! command -v "$pandoc" >/dev/null 2>&1; then
    echo "make handouts needs pandoc, which is not installed: install it (apt-get install pandoc, or https://pandoc.org/installing.html) and run it again"
    exit 2
fi

# Self-contained pages: --embed-resources from pandoc 2.19 on, --self-contained before.
if "$pandoc" --help 2>/dev/null | grep -q -- '--embed-resources'; then
    embed=(--standalone --embed-resources)
else
    embed=(--standalone --self-contained)
fi

keys=$("$here/hints.sh" keys "$kit") || exit 2
title_en=$("$here/hints.sh" title "$kit") || exit 2
title_zh=$("$here/hints.sh" title-zh "$kit") || exit 2

mkdir -p "$out/zh" || exit 2
rm -f "$out"/*.html "$out"/zh/*.html
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# title_of FILE: the text of the file's first "# " heading.
title_of() {
    sed -n 's/^# //p' "$1" | head -1
}

# yaml_string TEXT: TEXT as a double-quoted YAML string.
yaml_string() {
    local t=${1//\\/\\\\}
    printf '"%s"' "${t//\"/\\\"}"
}

# render SRC DEST LANG NAV: one page; NAV is the HTML of its navigation line.
# The metadata goes through a file, not -M, so that its UTF-8 reaches pandoc
# whatever the locale.
render() {
    local src=$1 dest=$2 lang=$3 nav=$4 name meta
    name=$(basename "$dest" .html)
    meta=$work/$name.$lang.yaml
    printf '%s\n' "$nav" >"$work/$name.$lang.nav.html"
    {
        echo "pagetitle: $(yaml_string "$(title_of "$src")")"
        echo "lang: $lang"
        echo "hints_titles: $(yaml_string "$title_en|$title_zh")"
        echo "hint_keys: $(yaml_string "$(tr '\n' ' ' <<<"$keys")")"
    } >"$meta"
    "$pandoc" "$src" -f markdown-smart-tex_math_dollars-subscript-superscript -t html5 --columns=10000 \
        "${embed[@]}" --css "$here/handout.css" \
        --lua-filter "$here/hint-anchors.lua" --metadata-file "$meta" \
        --include-before-body "$work/$name.$lang.nav.html" \
        -o "$dest" 2>"$work/$name.$lang.err" ||
        { echo "pandoc failed on ${src#"$kit"/}:"; cat "$work/$name.$lang.err"; return 1; }
}

status=0
pids=()
index="$work/index.md"
{
    echo "# Stencil Labs — handouts / 讲义"
    echo
    echo "One handout per lab, in the chapter's order. 每个实验一份讲义，按章节顺序排列。"
    echo
    echo "| lab | English | 中文 |"
    echo "|---|---|---|"
} >"$index"

for src in "$kit"/handouts/[0-9][0-9]-*.md; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .md)
    zh="$kit/handouts/zh/$name.md"
    nav_en='<nav class="languages"><a href="index.html">All handouts</a>'
    if [ -f "$zh" ]; then
        nav_en+=" · <a href=\"zh/$name.html\">中文</a>"
        render "$zh" "$out/zh/$name.html" zh-CN \
            "<nav class=\"languages\"><a href=\"../index.html\">全部讲义</a> · <a href=\"../$name.html\">English</a></nav>" &
        pids+=($!)
        zh_cell="[$(title_of "$zh")](zh/$name.html)"
    else
        zh_cell="—"
    fi
    render "$src" "$out/$name.html" en "$nav_en</nav>" &
    pids+=($!)
    echo "| $((10#${name%%-*})) | [$(title_of "$src")]($name.html) | $zh_cell |" >>"$index"
done

for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done

"$pandoc" "$index" -f markdown-smart -t html5 --columns=10000 "${embed[@]}" --css "$here/handout.css" \
    -M "pagetitle=Stencil Labs — handouts" -M lang=en -o "$out/index.html" || status=1

[ "$status" -eq 0 ] && echo "handouts: $(ls "$out"/*.html "$out"/zh/*.html | wc -l) pages in ${out%/}/ (open ${out%/}/index.html)"
exit "$status"
