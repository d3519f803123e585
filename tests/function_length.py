#!/usr/bin/env python3
"""tests/function_length.py — lists every C, C++ and CUDA function longer than a
limit (80 lines by default, counted from the first line of its signature to its
closing brace) in the files and folders given (.c, .h, .cu, .cpp, .cuh, .hpp),
one line each: "path:line: name: N lines (limit M)". Exits 1 if it listed any,
0 if none, 2 on a bad argument.

How it finds functions (simple on purpose, and its limits): comments, string
and character literals and preprocessor lines (with their continuations) are
blanked; a brace at the file's top level opens a function when the text since
the previous top-level ';', '}' or preprocessor line has a '(' before any '='
and does not start a struct, union, enum or class. The bodies of
`namespace` and `extern "C"` blocks count as top level. Not seen: member
functions written inside a class body (each class counts as one type, not
measured), functions made by a macro's expansion, and code a preprocessor
conditional hides from another (both branches are read as one text).

usage: tests/function_length.py [--max N] PATH...
"""
import os
import re
import sys

SOURCE_ENDINGS = (".c", ".h", ".cu", ".cpp", ".cuh", ".hpp")
DEFAULT_MAX_LINES = 80
TRANSPARENT_HEAD = re.compile(r'^\s*(?:namespace\b[^(]*|extern\s+"\s*"\s*)$')  # "C" is blanked by then
ATTRIBUTE = re.compile(r"\b(?:__attribute__\s*\(\(.*?\)\)|(?:__launch_bounds__|alignas|__align__|__declspec)\s*\([^()]*\))", re.S)
NAME_BEFORE_PAREN = re.compile(r"(operator\s*[^\s(]+|[A-Za-z_~][A-Za-z_0-9:~]*)\s*$")


def blank_non_code(text):
    """Returns text with comments, literals and preprocessor lines turned to spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.extend("\n" if ch == "\n" else " " for ch in text[i:end])
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = min(j + 1, n)
            continue
        out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i += 1
    return "".join(out)


def function_name(head):
    """Returns the name before a function head's first '(' past its attributes (or '?')."""
    head = ATTRIBUTE.sub(" ", head)
    match = NAME_BEFORE_PAREN.search(head[: head.find("(")])
    return match.group(1) if match else "?"


def opens_function(head):
    """Returns 1 if a top-level '{' after head opens a function's body, else 0."""
    head = ATTRIBUTE.sub(" ", head)
    if "(" not in head:
        return 0
    equals = head.find("=")
    return 0 if 0 <= equals < head.find("(") else 1


def long_functions(path, max_lines):
    """Returns (line, name, lines) for each function of path longer than max_lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = blank_non_code(f.read())
    found = []
    depth = 0            # braces open inside the current top-level construct
    head_start = 0       # where the current top-level head begins
    body = None          # (start line, name) of the function being read, or None
    for i, c in enumerate(code):
        if depth == 0 and c in ";}":
            head_start = i + 1
        elif c == "{" and depth == 0:
            head = code[head_start:i]
            if TRANSPARENT_HEAD.match(head):
                head_start = i + 1
                continue
            first = head_start + len(head) - len(head.lstrip())
            body = (code.count("\n", 0, first) + 1, function_name(head)) if opens_function(head) else None
            depth = 1
        elif c == "{":
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                head_start = i + 1
                if body:
                    lines = code.count("\n", 0, i) + 1 - body[0] + 1
                    if lines > max_lines:
                        found.append((body[0], body[1], lines))
                    body = None
    return found


def source_files(paths):
    """Yields every source file named in paths or found under the folders among them, sorted."""
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, _, names in sorted(os.walk(path)):
            for name in sorted(names):
                if name.endswith(SOURCE_ENDINGS):
                    yield os.path.join(folder, name)


def main(argv):
    """Prints each function over the limit; returns 1 if there was one, 0 if none, 2 on bad arguments."""
    max_lines = DEFAULT_MAX_LINES
    if len(argv) >= 2 and argv[0] == "--max":
        if not argv[1].isdigit():
            print(f"function_length.py: --max takes a number of lines, got '{argv[1]}'", file=sys.stderr)
            return 2
        max_lines, argv = int(argv[1]), argv[2:]
    if not argv:
        print("function_length.py: name the files or folders to measure: tests/function_length.py [--max N] PATH...", file=sys.stderr)
        return 2
    over = 0
    for path in source_files(argv):
        for line, name, lines in long_functions(path, max_lines):
            print(f"{path}:{line}: {name}: {lines} lines (limit {max_lines})")
            over += 1
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
