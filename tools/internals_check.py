#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Module boundaries: a module's *_internal.h stays inside the module.

  tools/internals_check.py [--root DIR]

A header src/M/NAME_internal.h declares module M's private structs and
functions.  Every C source or header under src/, tests/ and bench/ is
scanned with the headers it includes ("..." includes, followed
transitively, resolved against the including file's folder, src/ and
include/); a file that reaches src/M/*_internal.h is a violation unless it
lies in src/M/ or in tests/M/ (a module's own tests may read its
internals).  Other modules use M through include/cosrod/M.h or a declared
module-internal header of M without the _internal suffix (e.g.
src/rod/rod_hooks.h, src/rod/rod_statics.h).

Exit 1 on any violation not in ALLOW, 0 otherwise.
"""
import argparse
import os
import re
import sys

# "module -> internal header" pairs not resolved yet (every file of src/M/
# and tests/M/ may reach the header), with the reason.  An entry is a debt,
# not a rule.
ALLOW = {
    "sim -> src/system/system_internal.h": "sim reads the system's struct (sim_internal.h); not separated yet",
}

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    cache, nfiles, bad, allowed = {}, 0, 0, set()
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
                    if key in ALLOW:
                        allowed.add(key)
                        continue
                    bad += 1
                    print("%s -> %s: reaches module %s's internal header" % (rel, drel, parts[1]))
    for key in sorted(allowed):
        print("%s: allowed (%s)" % (key, ALLOW[key]))
    print("internals check: %d files, %d violation(s) outside the allow-list" % (nfiles, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
