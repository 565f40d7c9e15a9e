#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the output reference lists what runs write (CTest docs.output).

    tools/docs_output_check.py BUILD_DIR

Runs a handful of short scenarios from examples/ with the built `cosrod`
(dynamic with bodies and joints, contact, static, arc-length, modes,
buckling, and a run that fails on purpose) into a scratch directory and
compares them with docs/reference/output.md:

- every field name summary.json holds, at any depth, is named (in
  backticks) in the page's summary.json section; the names under `files`
  are file names and must be named on the page instead;
- every top-level field the summary.json table lists is written by at least
  one of the runs (a documented field the code no longer writes);
- every file a run writes (outside vtk/ and plots/) is named on the page,
  and the header of every CSV file: each column name appears on the page.
Exit 1 with one line per problem.
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "reference", "output.md")

# (example, --set overrides, expected exit status): short runs covering every
# kind of summary.json (the failing one has last_state, reason, message).
RUNS = [
    ("rubber-pendulum.yaml", ["analysis.t_end=0.05"], 0),
    ("rubber-pendulum.yaml", ["analysis.t_end=0.5", "solver.max_steps=3"], 1),
    ("two-body-joint.yaml", ["analysis.t_end=0.02"], 0),
    ("hose-on-floor.yaml", ["analysis.t_end=0.02"], 0),
    ("catenary-static.yaml", [], 0),
    ("snap-through.yaml", [], 0),
    ("hanging-body-modes.yaml", [], 0),
    ("buckling.yaml", [], 0),
]
SKIP_DIRS = {"vtk", "plots"}


def field_names(obj, out, top, files):
    """Collect dict keys at every depth (names under "files" go to files)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "files" and isinstance(v, dict):
                files.update(v)
                out.add(k)
                continue
            out.add(k)
            field_names(v, out, False, files)
    elif isinstance(obj, list):
        for v in obj:
            field_names(v, out, False, files)


def main():
    if len(sys.argv) != 2:
        print("usage: docs_output_check.py BUILD_DIR", file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    exe = os.path.join(build, "src", "cli", "cosrod")
    with open(PAGE) as f:
        page = f.read()
    m = re.search(r"^## summary\.json\n(.*?)(?=^## )", page, re.S | re.M)
    if not m:
        print("docs_output_check: output.md has no '## summary.json' section", file=sys.stderr)
        return 1
    section = m.group(1)
    named = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", section))
    documented_top = set()
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) > 2:
            documented_top |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", cells[1]))
    page_words = set(re.findall(r"[A-Za-z0-9_<>.]+", page))

    scratch = os.path.join(build, "docs", "output-check")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    problems, seen_top, seen = [], set(), set()
    for i, (ex, sets, want) in enumerate(RUNS):
        out = os.path.join(scratch, f"run{i}")
        cmd = [exe, "run", os.path.join(ROOT, "examples", ex), "-o", out, "--quiet"]
        for s in sets:
            cmd += ["--set", s]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != want:
            problems.append(f"{ex} {sets}: exit {r.returncode}, expected {want}: {r.stderr.strip()[:300]}")
            continue
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        seen_top |= set(summary)
        files = {}
        field_names(summary, seen, True, files)
        written = set()
        for dirpath, dirnames, filenames in os.walk(out):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            written |= {f for f in filenames if not f.startswith(".")}
        for name in sorted(set(files) | written):
            if name not in page_words:
                problems.append(f"{ex}: file {name} is written but output.md does not name it")
            if name.endswith(".csv") and os.path.exists(os.path.join(out, name)):
                with open(os.path.join(out, name)) as f:
                    header = f.readline().strip().split(",")
                for col in header:
                    # per-obstacle columns (contact_forces.csv: Fn_floor) are documented as `Fn_NAME`
                    m = re.match(r"(Fn|Ft|n)_", col)
                    if m and name == "contact_forces.csv" and f"`{m.group(1)}_NAME`" in page:
                        continue
                    if f"`{col}`" not in page and not re.search(rf"[`,]{re.escape(col)}[,`]", page):
                        problems.append(f"{ex}: column {col} of {name} is not in output.md")
    for k in sorted(seen - named):
        problems.append(f"summary.json field '{k}' is written but output.md's summary.json section does not name it")
    for k in sorted(documented_top - seen_top):
        problems.append(f"summary.json field '{k}' is documented but none of the runs wrote it")
    for p in sorted(set(problems)):
        print(f"docs_output_check: {p}", file=sys.stderr)
    print(f"docs_output_check: {len(RUNS)} runs, {len(seen)} summary.json field names, "
          f"{len(set(problems))} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
