#!/usr/bin/env python3
"""Print the C++ functions longer than N lines (default 100).

    python3 scripts/function_lengths.py testbenches/app/*.cpp topologies/*.cpp
    python3 scripts/function_lengths.py --max 60 --all src/foo.cpp

Output: one line per long function, "FILE:LINE: NAME: LINES lines", longest
first; nothing when every function is within the limit. --all lists every
function found, with its length. The exit status is 1 when some function is
longer than the limit (so a script or CI job can check it), else 0.

Heuristics (simple on purpose, made for this code base's style):
  * Comments, string literals (also raw strings R"x(...)x") and character
    literals are blanked out first, so braces inside them do not count.
  * A function definition starts on a line that begins at column 0 (no
    indentation) with something other than '#', '}', ')', a comment, or the
    keywords namespace / struct / class / union / enum / using / typedef /
    extern / public / private / protected. A "template <...>" line starts the
    definition that follows it.
  * From that line on, the first '{' or ';' outside parentheses decides:
    ';' means a declaration (skipped), '{' opens the body. A '{' in a
    constructor's member-initializer list whose previous character is a
    name character or '>' (as in "x_{1}") is an initializer, not the body.
    Lines where a '=' comes before the first '(' (variables such as
    "const T table[] = {...}") are not functions.
  * The function ends at the brace that closes its body; its length counts
    every line from the start line to that closing brace, both included
    (signature, blank lines, comments and lambdas inside it).
  * Functions defined inside a class body, or otherwise indented, are not
    seen; neither are functions whose definition starts inside a macro.
"""

import argparse
import re
import sys

SKIP_WORDS = ("namespace", "struct", "class", "union", "enum", "using", "typedef", "extern", "public", "private",
              "protected", "static_assert")


def blank_comments_and_literals(text):
    """The text with comments and literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' and i > 0 and text[i - 1] == "R" and (i < 2 or not (text[i - 2].isalnum() or text[i - 2] == "_")):
            m = re.match(r'"([^()\\ \n]{0,16})\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                j = n if end < 0 else end + len(m.group(1)) + 2
            else:
                j = i + 1
            out.append(blank(text[i:j]))
            i = j
        elif c in "\"'":
            # A quote after a digit is a digit separator (1'000'000).
            if c == "'" and i > 0 and text[i - 1].isalnum() and not text[i - 1].isalpha():
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def starts_definition(line):
    if not line or line[0].isspace():
        return False
    if line[0] in "#})":
        return False
    word = re.match(r"[A-Za-z_]\w*", line)
    if word and word.group(0) in SKIP_WORDS:
        return False
    if word and word.group(0) == "template":
        return True
    paren = line.find("(")
    eq = line.find("=")
    if paren < 0:
        return True   # the name may be on this line and "(" on the next
    return not (0 <= eq < paren and "operator" not in line[:paren])


def function_name(signature):
    sig = re.sub(r"^template\s*<[^{;]*?>\s*", "", signature.strip())
    m = re.search(r"((?:[\w~]+::)*(?:operator\s*(?:\(\)|[^\s(]+)|~?\w+))\s*\(", sig)
    return m.group(1) if m else sig.split("\n")[0][:40]


def functions(text):
    """(start line, end line, name) of each function definition found."""
    code = blank_comments_and_literals(text)
    lines = code.split("\n")
    found = []
    ln = 0
    while ln < len(lines):
        if not starts_definition(lines[ln]):
            ln += 1
            continue
        start = ln
        # Find the body's "{" (or a ";" that makes this a declaration).
        paren = 0
        seen_close_paren = False
        init_list = False
        prev = ""
        body = None
        li, col = ln, 0
        while li < len(lines) and body is None:
            row = lines[li]
            while col < len(row):
                c = row[col]
                if c == "(":
                    paren += 1
                elif c == ")":
                    paren -= 1
                    if paren == 0:
                        seen_close_paren = True
                elif paren == 0 and c == ":" and seen_close_paren and not init_list and \
                        row[col:col + 2] != "::" and (col == 0 or row[col - 1] != ":"):
                    init_list = True
                elif paren == 0 and c == ";":
                    body = "decl"
                    break
                elif paren == 0 and c == "=" and not seen_close_paren and "operator" not in row[:col]:
                    body = "decl"   # a variable with an initializer
                    break
                elif paren == 0 and c == "{":
                    if init_list and (prev.isalnum() or prev in "_>"):
                        # skip the member initializer's braces
                        depth, li2, col2 = 0, li, col
                        while li2 < len(lines):
                            r2 = lines[li2]
                            while col2 < len(r2):
                                if r2[col2] == "{":
                                    depth += 1
                                elif r2[col2] == "}":
                                    depth -= 1
                                    if depth == 0:
                                        break
                                col2 += 1
                            if col2 < len(r2):
                                break
                            li2, col2 = li2 + 1, 0
                        li, col, row = li2, col2, lines[min(li2, len(lines) - 1)]
                        prev = "}"
                        col += 1
                        continue
                    if not seen_close_paren:
                        body = "decl"   # e.g. an aggregate "T x{...}" or a class-like block
                        break
                    body = (li, col)
                    break
                if not c.isspace():
                    prev = c
                col += 1
            if body is None:
                li, col = li + 1, 0
        if body is None or body == "decl":
            ln = li + 1 if body == "decl" else start + 1
            continue
        # Match the body's braces.
        depth = 0
        li, col = body
        end = None
        while li < len(lines) and end is None:
            row = lines[li]
            while col < len(row):
                if row[col] == "{":
                    depth += 1
                elif row[col] == "}":
                    depth -= 1
                    if depth == 0:
                        end = li
                        break
                col += 1
            li, col = li + 1, 0
        if end is None:
            break
        signature = "\n".join(text.split("\n")[start:body[0] + 1])
        found.append((start + 1, end + 1, function_name(signature)))
        ln = end + 1
    return found


def main():
    ap = argparse.ArgumentParser(description="Print C++ functions longer than N lines (see the module docstring).")
    ap.add_argument("files", nargs="+", help="C++ source files")
    ap.add_argument("--max", type=int, default=100, metavar="N", help="longest allowed function, in lines (100)")
    ap.add_argument("--all", action="store_true", help="list every function found, not only the long ones")
    args = ap.parse_args()
    rows = []
    for path in args.files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            print(f"{path}: {e.strerror}", file=sys.stderr)
            return 2
        for start, end, name in functions(text):
            rows.append((end - start + 1, path, start, name))
    long_rows = [r for r in rows if r[0] > args.max]
    shown = rows if args.all else long_rows
    for length, path, start, name in sorted(shown, key=lambda r: (-r[0], r[1], r[2])):
        print(f"{path}:{start}: {name}: {length} lines")
    return 1 if long_rows else 0


if __name__ == "__main__":
    sys.exit(main())
