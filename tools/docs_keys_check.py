#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the scenario reference and the loader agree (docs build, CTest docs.keys).

The loader's unknown-key checks take their key lists from the table in
src/scenario/scenario_keys.c (sc_check_section), and the reference is
printed from the same table, so an accepted key cannot be missing from the
reference.  What can still drift is the code that reads the values; this
check compares the table with the reading code of the main loader
(scenario.c, scenario_rod.c, scenario_static.c):

- every section named in an sc_check_section call exists in the table, and
  every section of the table is checked somewhere;
- every key of the table is read by the loader (a string literal passed to
  sc_get, sc_num, sc_req_num, sc_vec, sc_require or listed in a key array
  the loader iterates): a documented key the loader ignored would be
  accepted and silently do nothing;
- every key the loader reads is in the table (the reverse);
- no key list bypasses the table (no sc_check_keys call with a literal list);
- where the loader reads a number with a literal default (sc_num(c, m,
  "key", DEFAULT, ...)) and the table gives a number as the default, the two
  agree.
Exit 1 with one line per problem.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src", "scenario")
LOADER = ["scenario.c", "scenario_rod.c", "scenario_static.c"]
# The contact sections (obstacles:, contact:, bodies.N.shape) are still
# validated by scenario_contact.c's own key lists; of that file only the
# top-level keys it looks up (yn_find(root, "...")) are counted as read.
TOP_LEVEL_READERS = ["scenario_contact.c"]
_TOP_FIND = re.compile(r'yn_find\(root,\s*"([^"]+)"\)')
# sections the loader reaches through another section's reader
ALIASES = {}

_ENTRY = re.compile(r'K\("([^"]*)",\s*"([^"]+)"')
_READ = re.compile(r'\bsc_(?:get|num|req_num|vec|require)\(\s*(?:c,\s*)?\w+,\s*"([^"]+)"')
_ARRAY = re.compile(r'static const char \*const (\w*keys|ek|dk)\[\] = \{([^}]*)\}')
_NUM_DEFAULT = re.compile(r'\bsc_num\(\s*c,\s*\w+,\s*"([^"]+)",\s*([-+0-9.eE]+)\s*,')
_FULL = re.compile(r'K\("([^"]*)",\s*"([^"]+)",\s*"[^"]*",\s*"[^"]*",\s*"([^"]*)"')
_SECTION = re.compile(r'sc_check_section\(c,\s*\w+,\s*"([^"]*)"\)')


def main():
    with open(os.path.join(SRC, "scenario_keys.c")) as f:
        ktext = f.read()
    table = _ENTRY.findall(ktext)
    defaults = {}  # key -> numeric defaults stated in the table
    for _, k, d in _FULL.findall(ktext):
        try:  # "0 (automatic)": the number before any explanation
            defaults.setdefault(k, set()).add(float(d.split()[0]))
        except (ValueError, IndexError):
            pass
    loader_defaults = {}
    sections = {s for s, _ in table}
    keys = {k for _, k in table}
    read, checked, problems = set(), set(), []
    for name in LOADER:
        with open(os.path.join(SRC, name)) as f:
            text = f.read()
        read |= set(_READ.findall(text))
        for _, body in _ARRAY.findall(text):
            read |= set(re.findall(r'"([^"]+)"', body))
        checked |= set(_SECTION.findall(text))
        for k, v in _NUM_DEFAULT.findall(text):
            loader_defaults.setdefault(k, set()).add(float(v))
        for m in re.finditer(r"sc_check_keys\(", text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"src/scenario/{name}:{line}: sc_check_keys with its own list (use sc_check_section)")
    for name in TOP_LEVEL_READERS:
        with open(os.path.join(SRC, name)) as f:
            read |= set(_TOP_FIND.findall(f.read()))
    for s in sorted(checked - sections):
        problems.append(f"section '{s}' is checked by the loader but has no keys in scenario_keys.c")
    for s in sorted(sections - checked - set(ALIASES)):
        problems.append(f"section '{s}' of scenario_keys.c is never checked by the loader")
    for k in sorted(keys - read):
        problems.append(f"key '{k}' is in the reference but the loader never reads it")
    for k in sorted(read - keys):
        problems.append(f"key '{k}' is read by the loader but missing from the reference (scenario_keys.c)")
    for k, vals in sorted(loader_defaults.items()):
        if k in defaults and not (vals & defaults[k]):
            problems.append(f"key '{k}': the loader's default {sorted(vals)} is not the reference's {sorted(defaults[k])}")
    for p in problems:
        print(f"docs_keys_check: {p}", file=sys.stderr)
    print(f"docs_keys_check: {len(table)} keys in {len(sections)} sections, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
