#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Size check of the C sources: files small enough to read in one sitting.

  tools/size_check.py [--root DIR] [--max-file N] [--max-func N] [--report]

Reports every file under src/ (*.c, *.h) longer than --max-file lines (600)
and every function longer than --max-func lines (120, counted from the line
of its name to its closing brace).  Exit 1 on any violation not in ALLOW
(files) or ALLOW_FUNC (functions), 0 otherwise; --report prints the largest files and functions as well.

Functions are found as the code is formatted (.clang-format): a definition
starts at column 0 with its name followed by "(" and ends at the first "}"
in column 0 after its opening brace.
"""
import argparse
import os
import re
import sys

# Files exempt from both limits, with the reason.  Keep this list short: an
# entry is a debt, not a rule.
ALLOW = {
}

# Single functions over --max-func not split yet ("file:function").  Each
# entry is a debt to remove; a function not listed here, or a file over
# --max-file, still fails.
ALLOW_FUNC = {
}

DEF_RE = re.compile(r"^(?!static_assert|typedef|struct\b|enum\b|union\b|#)[A-Za-z_][^;=]*?\b([A-Za-z_]\w*)\s*\(")


def functions(lines):
    """(name, first line, length) of every function definition in lines."""
    out = []
    i, n = 0, len(lines)
    while i < n:
        m = DEF_RE.match(lines[i])
        if not m:
            i += 1
            continue
        # the signature may span lines; it ends with "{" (definition) or ";" (declaration)
        j = i
        while j < n and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= n or lines[j].rstrip().endswith(";") or lines[j].rstrip().endswith("= {"):
            i = j + 1
            continue
        k = j
        if lines[j].rstrip() != "}":
            k = j + 1
            while k < n and not lines[k].startswith("}"):
                k += 1
        out.append((m.group(1), i + 1, k - i + 1))
        i = k + 1
    return out


def scan(root):
    files, funcs = [], []
    src = os.path.join(root, "src")
    for d, _, names in os.walk(src):
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(d, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            files.append((rel, len(lines)))
            if name.endswith(".c"):
                for fn, first, length in functions(lines):
                    funcs.append((rel, fn, first, length))
    return files, funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-func", type=int, default=120)
    ap.add_argument("--report", action="store_true", help="also list the 10 largest files and functions")
    a = ap.parse_args()
    files, funcs = scan(a.root)
    bad = 0
    for rel, n in sorted(files, key=lambda x: -x[1]):
        if n > a.max_file:
            tag = "allowed (%s)" % ALLOW[rel] if rel in ALLOW else "TOO LONG"
            bad += rel not in ALLOW
            print("file %s: %d lines > %d: %s" % (rel, n, a.max_file, tag))
    for rel, fn, first, length in sorted(funcs, key=lambda x: -x[3]):
        if length > a.max_func:
            key = "%s:%s" % (rel, fn)
            why = ALLOW.get(rel) or ALLOW_FUNC.get(key)
            tag = "allowed (%s)" % why if why else "TOO LONG"
            bad += not why
            print("function %s:%d: %s: %d lines > %d: %s" % (rel, first, fn, length, a.max_func, tag))
    if a.report:
        print("largest files:")
        for rel, n in sorted(files, key=lambda x: -x[1])[:10]:
            print("  %5d  %s" % (n, rel))
        print("largest functions:")
        for rel, fn, first, length in sorted(funcs, key=lambda x: -x[3])[:10]:
            print("  %5d  %s:%d %s" % (length, rel, first, fn))
    print("size check: %d files, %d functions, %d violation(s) outside the allow-list" % (len(files), len(funcs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
