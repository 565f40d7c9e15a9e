# SPDX-License-Identifier: Apache-2.0
"""The validation table of the manual from the test suite's own output.

tests/validation.tsv names CTest cases and the independent reference each
one checks against.  This script runs those cases (ctest -V) in the build
tree and collects every check they print through the test harness
(tests/harness: "ok FILE:LINE what: got G want W |err| E <= tol T" or
"ok FILE:LINE what: V <= B"), so the table shows the measured error next to
its tolerance as measured now.  A case that is missing or fails, or that
prints no check, is an error (the docs build fails).
"""
import json
import os
import re
import subprocess
import sys

_GOT = re.compile(r"^\s*(ok  |FAIL) (\S+:\d+) (.*?): got (\S+) want (\S+) \|err\| (\S+) <= tol (\S+)\s*$")
_LE = re.compile(r"^\s*(ok  |FAIL) (\S+:\d+) (.*?): (\S+) <= (\S+)\s*$")


def _read_table(root):
    rows = []
    with open(os.path.join(root, "tests", "validation.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, what, ref = line.rstrip("\n").split("\t")
            rows.append((name, what, ref))
    return rows


def _esc(s):
    return s.replace("|", "\\|")


def generate(root, build, out_path):
    rows = _read_table(root)
    # the cases' commands from CTest, run directly (a nested ctest would
    # share the build tree's Testing/ log with a running `make test`)
    info = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                                     text=True, check=True).stdout)
    tests = {t["name"]: t for t in info["tests"]}
    names, by_num = {}, {}
    for name, _, _ in rows:
        t = tests.get(name)
        if not t:
            continue
        wd, env = build, dict(os.environ)
        for p in t.get("properties", []):
            if p["name"] == "WORKING_DIRECTORY":
                wd = p["value"]
            elif p["name"] == "ENVIRONMENT":  # the test's own variables (COSROD_EXAMPLES, ...)
                env.update(v.split("=", 1) for v in p["value"] if "=" in v)
        r = subprocess.run(t["command"], cwd=wd, env=env, capture_output=True, text=True, timeout=300)
        names[name] = (name, "Passed" if r.returncode == 0 else f"Failed (exit {r.returncode})")
        by_num[name] = r.stdout.splitlines()
    errors = []
    out = ["# Validation\n",
           "Each row is a check of the test suite against a reference that does not come from "
           "cosrod's own code: a closed form, a published value, finite differences or a minimal "
           "implementation inside the test.  The table is generated while the manual is built: "
           "the listed CTest cases are run and every check they print is shown with its measured "
           "error and the tolerance the test derives from theory.  The list of cases is "
           "`tests/validation.tsv`; the whole suite (`make test`) has many more checks of the same kind.\n"]
    for name, what, ref in rows:
        if name not in names:
            errors.append(f"{name}: no such CTest case (tests/validation.tsv)")
            continue
        num, status = names[name]
        out += [f"\n## {what}\n", f"Test `{name}` ({status}); reference: {ref}.\n",
                "| check | measured | bound |", "|---|---|---|"]
        n = 0
        for line in by_num.get(num, []):
            m = _GOT.match(line)
            if m:
                out.append(f"| {_esc(m.group(3))} (got {m.group(4)}, want {m.group(5)}) | {m.group(6)} | {m.group(7)} |")
                n += 1
                continue
            m = _LE.match(line)
            if m:
                out.append(f"| {_esc(m.group(3))} | {m.group(4)} | {m.group(5)} |")
                n += 1
        if status != "Passed":
            errors.append(f"{name}: {status}")
        if n == 0:
            errors.append(f"{name}: printed no harness check")
    with open(out_path, "w") as f:
        f.write("\n".join(out) + "\n")
    for e in errors:
        print(f"docs_validation: {e}", file=sys.stderr)
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    generate(sys.argv[1], sys.argv[2], sys.argv[3])
