#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the scenario reference and the loader agree (docs build, CTest docs.keys).

The loader's unknown-key checks take their key lists from the table in
src/scenario/scenario_keys.c (sc_check_section), and the reference is
printed from the same table, so an accepted key cannot be missing from the
reference.  What can still drift is the code that reads the values; this
check compares the table with the reading code of the main loader
(scenario*.c):

- every section named in an sc_check_section call exists in the table, and
  every section of the table is checked somewhere;
- every key of the table is read by the loader (a string literal passed to
  sc_get, sc_num, sc_req_num, sc_vec, sc_require or listed in a key array
  the loader iterates): a documented key the loader ignored would be
  accepted and silently do nothing;
- every key the loader reads is in the table (the reverse);
- no key list bypasses the table (no sc_check_keys call with a literal list);
- every default the loader takes from the table (sc_key_default_num /
  _bool / _enum("section.key")) names an entry whose default is of that kind
  (a plain number, true / false, a name of the enum, or a plain word);
- where the loader still reads a number with a literal default (sc_num(c, m,
  "key", DEFAULT, ...)) and the table gives a number as the default, the two
  agree.
Exit 1 with one line per problem.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src", "scenario")
# every reader of the loader: the scenario module's sources except the key table itself
LOADER = sorted(f for f in os.listdir(SRC) if f.endswith(".c") and f != "scenario_keys.c")
# sections the loader reaches through another section's reader
ALIASES = {}

_ENTRY = re.compile(r'K\("([^"]*)",\s*"([^"]+)"')
_READ = re.compile(r'\b(?:sc_(?:get|num|req_num|vec|require)|auto_num)\(\s*(?:c,\s*)?\w+,\s*"([^"]+)"')
_FIND = re.compile(r'\byn_find\(\s*[\w>\[\]-]+,\s*"([^"]+)"\)')
_TABLE_DEFAULT = re.compile(r'\bsc_key_default_(num|bool|enum|str)\(\s*"([^"]+)"')
_ARRAY = re.compile(r'static const char \*const (\w*keys|ek|dk)\[\] = \{([^}]*)\}')
_NUM_DEFAULT = re.compile(r'\bsc_num\(\s*c,\s*\w+,\s*"([^"]+)",\s*([-+0-9.eE]+)\s*,')
_FULL = re.compile(r'K\("([^"]*)",\s*"([^"]+)",\s*"[^"]*",\s*"[^"]*",\s*"([^"]*)"')
_SECTION = re.compile(r'sc_check_section\(c,\s*\w+,\s*"([^"]*)"\)')


_ALLOWED = re.compile(r'K\("([^"]*)",\s*"([^"]+)",\s*"enum",\s*"[^"]*",\s*"[^"]*",\s*"([^"]*)"')


def expand_table(text):
    """scenario_keys.c with its two macros expanded as the preprocessor
    would: V3 -> "vector[3]", SHAPE_KEYS(sec, frame, origin) -> its entries,
    adjacent string literals joined."""
    text = re.sub(r'\bV3\b', '"vector[3]"', text)
    m = re.search(r'#define SHAPE_KEYS\(sec, frame, origin\)((?:.*\\\n)*.*\n)', text)
    if m:
        body = m.group(1).replace("\\\n", "\n")
        text = text[:m.start()] + text[m.end():]

        def expand(call):
            sec, frame, origin = call.group(1), call.group(2), call.group(3)
            out = re.sub(r'\bsec\b', f'"{sec}"', body)
            out = re.sub(r'\bframe\b', f'"{frame}"', out)
            return re.sub(r'\borigin\b', f'"{origin}"', out)
        text = re.sub(r'SHAPE_KEYS\("([^"]*)",\s*"([^"]*)",\s*"([^"]*)"\)', expand, text)
    return re.sub(r'"\s+"', "", text)


def check_table_defaults(calls, entries, enums):
    """Each sc_key_default_KIND("path") must find a plain default of KIND."""
    out = []
    for name, kind, path in calls:
        where = f"src/scenario/{name}: sc_key_default_{kind}(\"{path}\")"
        if path not in entries:
            out.append(f"{where}: no such key in scenario_keys.c")
            continue
        d = entries[path]
        if kind == "num":
            m = re.match(r"^([-+0-9.eE]+)( \(.*)?$", d)
            ok = bool(m)
            if ok:
                try:
                    float(m.group(1))
                except ValueError:
                    ok = False
        elif kind == "bool":
            ok = d in ("true", "false")
        elif kind == "str":  # a plain word, not a remark such as "(required)"
            ok = re.fullmatch(r"[A-Za-z0-9_./-]+", d) is not None
        else:
            ok = d in enums.get(path, [])
        if not ok:
            out.append(f"{where}: the table's default '{d}' is not a plain {kind}")
    return out


def main():
    with open(os.path.join(SRC, "scenario_keys.c")) as f:
        ktext = expand_table(f.read())
    table = _ENTRY.findall(ktext)
    defaults = {}  # key -> numeric defaults stated in the table
    for _, k, d in _FULL.findall(ktext):
        try:  # "0 (automatic)": the number before any explanation
            defaults.setdefault(k, set()).add(float(d.split()[0]))
        except (ValueError, IndexError):
            pass
    loader_defaults = {}
    table_defaults = []  # (file, kind, path) of sc_key_default_* calls
    entries = {(f"{s}.{k}" if s else k): d for s, k, d in _FULL.findall(ktext)}
    enums = {}
    for s, k, allowed in _ALLOWED.findall(ktext):
        enums[f"{s}.{k}" if s else k] = [a.strip() for a in allowed.split(",")]
    sections = {s for s, _ in table}
    keys = {k for _, k in table}
    read, checked, problems = set(), set(), []
    for name in LOADER:
        with open(os.path.join(SRC, name)) as f:
            text = f.read()
        read |= set(_READ.findall(text)) | set(_FIND.findall(text))
        for kind, path in _TABLE_DEFAULT.findall(text):
            table_defaults.append((name, kind, path))
        for _, body in _ARRAY.findall(text):
            read |= set(re.findall(r'"([^"]+)"', body))
        checked |= set(_SECTION.findall(text))
        for k, v in _NUM_DEFAULT.findall(text):
            loader_defaults.setdefault(k, set()).add(float(v))
        for m in re.finditer(r"(?<!void )sc_check_keys\(", text):  # calls, not the definition
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"src/scenario/{name}:{line}: sc_check_keys with its own list (use sc_check_section)")
    problems += check_table_defaults(table_defaults, entries, enums)
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
    print(f"docs_keys_check: {len(table)} keys in {len(sections)} sections, "
          f"{len(table_defaults)} defaults taken from the table, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
