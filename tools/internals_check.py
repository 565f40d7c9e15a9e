#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Module boundaries: a module's *_internal.h stays inside the module.

  tools/internals_check.py [--root DIR] [--self-test]

A header src/M/NAME_internal.h declares module M's private structs and
functions.  Every C source or header under src/, tests/ and bench/ is
scanned with the headers it includes ("..." includes, followed
transitively, resolved against the including file's folder, src/ and
include/); a file that reaches src/M/*_internal.h is a violation unless it
lies in src/M/ or in tests/M/ (a module's own tests may read its
internals).  Other modules use M through include/cosrod/M.h or a declared
module-internal header of M without the _internal suffix (e.g.
src/rod/rod_hooks.h, src/rod/rod_statics.h).

Exit 1 on any violation not in ALLOW, 0 otherwise.  --self-test runs the
check on a small tree written to a temporary folder (a direct and a
transitive violation, a module's own file and test, an allowed pair) and
exits 1 unless exactly the two violations are found.
"""
import argparse
import os
import re
import sys
import tempfile

# "module -> internal header" pairs not resolved yet (every file of src/M/
# and tests/M/ may reach the header), with the reason.  An entry is a debt,
# not a rule.
ALLOW = {}

INC_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SCANNED = ("src", "tests", "bench")


def resolve(root, here, name):
    for base in (here, os.path.join(root, "src"), os.path.join(root, "include")):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def includes(root, path, cache):
    """Every file path includes, transitively (resolved, absolute)."""
    if path in cache:
        return cache[path]
    cache[path] = set()  # guard against include cycles
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    out = set()
    for name in INC_RE.findall(text):
        dep = resolve(root, os.path.dirname(path), name)
        if dep:
            out.add(dep)
            out |= includes(root, dep, cache)
    cache[path] = out
    return out


def owner(rel):
    """Module M of src/M/... or tests/M/... (None elsewhere)."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] in ("src", "tests") else None


def check(root, allow):
    """(files scanned, violations, allowed keys met) of the tree at root."""
    cache, nfiles, bad, allowed = {}, 0, [], set()
    for top in SCANNED:
        for d, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                nfiles += 1
                for dep in sorted(includes(root, path, cache)):
                    drel = os.path.relpath(dep, root).replace(os.sep, "/")
                    parts = drel.split("/")
                    if len(parts) != 3 or parts[0] != "src" or not parts[2].endswith("_internal.h"):
                        continue
                    if owner(rel) == parts[1]:
                        continue
                    key = "%s -> %s" % (owner(rel), drel)
                    if key in allow:
                        allowed.add(key)
                        continue
                    bad.append((rel, drel, parts[1]))
    return nfiles, bad, allowed


def self_test():
    files = {
        "src/a/a_internal.h": "",
        "src/a/a.c": '#include "a_internal.h"\n',          # own module
        "src/a/a_hooks.h": "",
        "src/b/b.c": '#include "a/a_hooks.h"\n',            # declared interface
        "src/b/b_bad.c": '#include "a/a_internal.h"\n',     # direct violation
        "src/b/b_internal.h": '#include "a/a_internal.h"\n',  # transitive source
        "src/c/c.c": '#include "b/b_internal.h"\n',         # violation (b's and a's)
        "src/d/d.c": '#include "a/a_internal.h"\n',         # allowed pair
        "tests/a/test_a.c": '#include "a/a_internal.h"\n',  # a's own test
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        _, bad, allowed = check(root, {"d -> src/a/a_internal.h": "test"})
    found = sorted((rel, drel) for rel, drel, _ in bad)
    want = sorted([("src/b/b_bad.c", "src/a/a_internal.h"), ("src/b/b_internal.h", "src/a/a_internal.h"),
                   ("src/c/c.c", "src/a/a_internal.h"), ("src/c/c.c", "src/b/b_internal.h")])
    ok = found == want and allowed == {"d -> src/a/a_internal.h"}
    print("internals check self-test: %s (found %s)" % ("ok" if ok else "FAILED", found))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--self-test", action="store_true", help="check the checker on a small temporary tree")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    nfiles, bad, allowed = check(os.path.abspath(a.root), ALLOW)
    for rel, drel, mod in bad:
        print("%s -> %s: reaches module %s's internal header" % (rel, drel, mod))
    for key in sorted(allowed):
        print("%s: allowed (%s)" % (key, ALLOW[key]))
    print("internals check: %d files, %d violation(s) outside the allow-list" % (nfiles, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
