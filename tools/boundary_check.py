#!/usr/bin/env python3
"""Module boundaries: the scenario stays out of the model modules.

The one translation from a scenario to the model is module sim
(src/sim/sim_translate*.c, sim_enums.c); the assembled system (src/system)
and the modules below it (statics, rod, body, integrate, contact) know only
their own definitions.  This check fails (exit 1) on any file of those
modules that

  - includes the scenario's header (cosrod/scenario.h) or a private header of
    module scenario (scenario/...),
  - names a scenario type, enum value or function (cosrod_sc_*, COSROD_SC_*,
    cosrod_scenario*), or
  - reads the scenario through the driver (->sc),

except for the lines of ALLOW (each a debt, with the reason).  Comments are
not exempt: they name the translation instead.

    tools/boundary_check.py [--root DIR]
"""
import argparse
import os
import re
import sys

MODULES = ["src/system", "src/statics", "src/rod", "src/body", "src/integrate", "src/contact"]

RULES = [
    (re.compile(r'#\s*include\s*[<"](cosrod/scenario\.h|scenario/[^">]*)[">]'), "includes the scenario"),
    (re.compile(r"\b(cosrod_sc_\w+|COSROD_SC_\w+|cosrod_scenario\w*)"), "names a scenario type or function"),
    (re.compile(r"->sc\b"), "reads the scenario through the driver"),
]

# "file: text of the line" -> why it is still there.
ALLOW = {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    bad = 0
    nfiles = 0
    for mod in MODULES:
        base = os.path.join(root, mod)
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                nfiles += 1
                with open(path, encoding="utf-8") as f:
                    for i, line in enumerate(f, 1):
                        for rx, what in RULES:
                            m = rx.search(line)
                            if not m:
                                continue
                            key = "%s: %s" % (rel, line.split("/*")[0].strip())
                            if key in ALLOW:
                                continue
                            print("%s:%d: %s (%s)" % (rel, i, what, m.group(0)))
                            bad += 1
    for key, why in ALLOW.items():
        print("allowed: %s (%s)" % (key, why))
    print("%d files of %s checked, %d violations" % (nfiles, ", ".join(MODULES), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
