#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regression guard: every example's outputs against a recording.

REGRESSION DATA, NOT VALIDATION.  tests/guard/reference/*.json hold what one
build of cosrod wrote for each examples/*.yaml (cut to a short t_end); they
only say "this is what the code did before", never "this is right".  They
exist so that a restructuring which must not change behaviour can prove it
did not: same files, same step counts, same numbers to 1e-10 relative.

  tools/guard.py record [--build DIR] [--plots]   # write the recording
  tools/guard.py check  [--build DIR] [--plots]   # compare a build with it
  tools/guard.py run    [--build DIR] --out DIR   # only run the examples
  tools/guard.py twice  [--build DIR] [--plots]   # determinism: run each twice

What is recorded per example (standard library only, no numpy):
  * the exit code, the set of files written (plots/ only with --plots),
  * summary.json flattened to key -> value (wall-clock times skipped),
  * per CSV: header, row count, per-column sum, sum |x|, min, max, and up to
    12 full rows (first, last, evenly spaced between),
  * per VTK/PVD file: count, sum, sum |x|, max |x| of its numbers and a hash
    of its non-numeric tokens (tags, names, file references).

Tolerance.  a and b agree when |a - b| <= 1e-10 max(|a|, |b|) + floor, with
floor = 1e-12 * S and S the largest |x| of the column (CSV), of the file's
numbers (VTK) or of the summary's top-level group (JSON).  The floor is for
entries near 0 (the z of a planar motion, a moment that is a difference of
terms of size S): their rounding error is set by the terms at the scale S
they are computed from, not by their own size; 1e-12 S is ~5e3 ulp of S,
far above rounding noise from reordered sums and far below any physical
change.  Column sums get n * floor.  Integers in summary.json (step and
function counts) and all non-numeric values must be equal.

Determinism (`twice`, CTest determinism.examples): every example, cut short
as above, is run twice into the same directory (tubes.py holds its absolute
path) and the SHA-256 of every file written is compared, bit for bit.  The
only bytes excluded are the values of the wall-clock fields "wall_time" and
"solver_wall_time" of summary.json, also where view.html embeds summary.json
(WALL_TIME_FIELDS below).  Plots (gnuplot scripts and PNG) only with --plots.

Accepted differences: tests/guard/accepted.json lists intended behaviour
changes (example and key as regular expressions, file, the largest relative
difference max_rel and/or absolute difference max_abs accepted, and why).  A difference covered by an entry and within its bound is reported
as ACCEPTED with its number; anything else is a failure.
"""
import argparse
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF_DIR = os.path.join(ROOT, "tests", "guard", "reference")
ACCEPTED = os.path.join(ROOT, "tests", "guard", "accepted.json")
RTOL = 1e-10
FLOOR = 1e-12
ROWS = 12
# Short runs: dynamic analyses end at T_SHORT (the rigid-body examples, which
# are cheap, at T_BODIES so that they take a few hundred steps).
T_SHORT = 0.1
T_BODIES = {"heavy-top": 1.0, "tennis-racket": 1.0, "two-body-joint": 1.0}
SKIP_JSON = {".wall_time", ".output_wall_time", ".stats.solver_wall_time", ".version"}
# `twice`: the value of these keys (plain or JSON-escaped inside view.html)
# is replaced by "X" before hashing; nothing else is excluded.
WALL_TIME_FIELDS = re.compile(rb'(\\?"(?:solver_|output_)?wall_time\\?":\s*)[-+0-9.eE]+')


def examples():
    d = os.path.join(ROOT, "examples")
    return sorted(f[:-5] for f in os.listdir(d) if f.endswith(".yaml"))


def t_end_of(name):
    with open(os.path.join(ROOT, "examples", name + ".yaml")) as f:
        m = re.search(r"\bt_end:\s*([0-9.eE+-]+)", f.read())
    if not m:
        return None
    return min(float(m.group(1)), T_BODIES.get(name, T_SHORT))


def run_one(cli, name, out, plots):
    args = [cli, "run", os.path.join("examples", name + ".yaml"), "-o", out, "-q"]
    t = t_end_of(name)
    if t is not None:
        args += ["--set", "analysis.t_end=%r" % t]
    if not plots:
        args += ["--set", "output.plots=false"]
    p = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stderr


def num(tok):
    try:
        v = float(tok)
    except ValueError:
        return None
    return v if math.isfinite(v) or tok.lower() in ("nan", "inf", "-inf") else None


def digest_csv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",") if lines else []
    rows = [ln.split(",") for ln in lines[1:]]
    n = len(rows)
    cols = []
    for j in range(len(header)):
        vals = [num(r[j]) for r in rows if j < len(r)]
        vals = [v for v in vals if v is not None and math.isfinite(v)]
        if vals:
            cols.append({"sum": math.fsum(vals), "abs": math.fsum(abs(v) for v in vals),
                         "min": min(vals), "max": max(vals)})
        else:
            cols.append(None)
    if n <= ROWS:
        pick = list(range(n))
    else:
        pick = sorted({round(i * (n - 1) / (ROWS - 1)) for i in range(ROWS)})
    return {"kind": "csv", "header": header, "rows": n, "cols": cols,
            "sample": {str(i): rows[i] for i in pick}}


def digest_xml(path):
    with open(path) as f:
        toks = re.split(r'[\s<>"=/]+', f.read())
    vals, words = [], []
    for t in toks:
        if not t:
            continue
        v = num(t)
        (vals if v is not None else words).append(v if v is not None else t)
    return {"kind": "xml", "n": len(vals), "sum": math.fsum(vals),
            "abs": math.fsum(abs(v) for v in vals),
            "max": max((abs(v) for v in vals), default=0.0),
            "head": vals[:6], "tail": vals[-6:],
            "words": hashlib.sha1(" ".join(words).encode()).hexdigest()}


def flatten(o, p, out):
    if isinstance(o, dict):
        for k, v in o.items():
            flatten(v, p + "." + k, out)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            flatten(v, "%s[%d]" % (p, i), out)
    elif p not in SKIP_JSON:
        out[p] = o


def digest_dir(out, rc, plots):
    files = {}
    for dp, _, fn in os.walk(out):
        for f in fn:
            rel = os.path.relpath(os.path.join(dp, f), out)
            if rel.startswith("plots" + os.sep) and not plots:
                continue
            files[rel] = None
    rec = {"exit": rc, "files": sorted(files)}
    data = {}
    for rel in rec["files"]:
        p = os.path.join(out, rel)
        if rel.endswith(".csv"):
            data[rel] = digest_csv(p)
        elif rel.endswith((".vtp", ".vtu", ".pvd")):
            data[rel] = digest_xml(p)
        elif rel.endswith(".json"):
            flat = {}
            with open(p) as f:
                flatten(json.load(f), "", flat)
            data[rel] = {"kind": "json", "values": flat}
    rec["data"] = data
    return rec


def hash_dir(out, plots):
    """SHA-256 of every file under out (wall-clock fields masked)."""
    h = {}
    for dp, _, fn in os.walk(out):
        for f in fn:
            rel = os.path.relpath(os.path.join(dp, f), out)
            if rel.startswith("plots" + os.sep) and not plots:
                continue
            with open(os.path.join(dp, f), "rb") as fh:
                data = fh.read()
            if rel in ("summary.json", "view.html"):
                data = WALL_TIME_FIELDS.sub(rb"\1X", data)
            h[rel] = hashlib.sha256(data).hexdigest()
    return h


def twice(cli, names, tmp, plots):
    """Run each example twice into the same directory: the differing files."""
    bad, nfiles = [], 0
    for ex in names:
        out = os.path.join(tmp, ex)
        digests, codes = [], []
        for _ in range(2):
            shutil.rmtree(out, ignore_errors=True)
            rc, _err = run_one(cli, ex, out, plots)
            codes.append(rc)
            digests.append(hash_dir(out, plots))
        a, b = digests
        diff = sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))
        if codes[0] != codes[1]:
            bad.append("%s: exit %d then %d" % (ex, codes[0], codes[1]))
        bad += ["%s/%s differs" % (ex, f) for f in diff]
        nfiles += len(a)
        print("determinism: %-26s exit %d  %3d files, %d differ" % (ex, rc, len(a), len(diff)),
              flush=True)
    return bad, nfiles


# ---------------------------------------------------------------- compare
class Report:
    def __init__(self, accepted):
        self.fail, self.acc, self.accepted = [], [], accepted

    def diff(self, ex, f, key, a, b, scale):
        """Numeric comparison; records a failure or an accepted difference."""
        if a is None or b is None or isinstance(a, str) or isinstance(b, str):
            if a != b:
                self.fail.append("%s/%s %s: %r != %r" % (ex, f, key, a, b))
            return
        if isinstance(a, bool) or isinstance(b, bool) or (
                isinstance(a, int) and isinstance(b, int)):
            if a != b:
                self.other(ex, f, key, a, b, float("inf"))
            return
        if math.isnan(a) and math.isnan(b):
            return
        floor = FLOOR * scale
        d = abs(a - b)
        if d <= RTOL * max(abs(a), abs(b)) + floor:
            return
        self.other(ex, f, key, a, b, d / (max(abs(a), abs(b)) + floor))

    def other(self, ex, f, key, a, b, rel):
        d = abs(a - b) if isinstance(a, (int, float)) and isinstance(b, (int, float)) else math.inf
        for e in self.accepted:
            if (re.fullmatch(e["example"], ex) and e["file"] == f and re.fullmatch(e["key"], key)
                    and (rel <= e.get("max_rel", 0.0) or d <= e.get("max_abs", -1.0))):
                self.acc.append((ex, f, key, a, b, rel, e["why"]))
                return
        self.fail.append("%s/%s %s: %r vs %r (rel %.3g)" % (ex, f, key, a, b, rel))


def cmp_csv(rep, ex, f, r, n):
    if r["header"] != n["header"] or r["rows"] != n["rows"]:
        rep.fail.append("%s/%s: header/rows %s/%d != %s/%d" % (
            ex, f, r["header"], r["rows"], n["header"], n["rows"]))
        return
    scale = []
    for j, name in enumerate(r["header"]):
        rc, nc = r["cols"][j], n["cols"][j]
        if (rc is None) != (nc is None):
            rep.fail.append("%s/%s %s: numeric/non-numeric" % (ex, f, name))
            scale.append(0.0)
            continue
        if rc is None:
            scale.append(0.0)
            continue
        s = max(abs(rc["min"]), abs(rc["max"]), abs(nc["min"]), abs(nc["max"]))
        scale.append(s)
        for k in ("min", "max"):
            rep.diff(ex, f, "%s.%s" % (name, k), rc[k], nc[k], s)
        for k in ("sum", "abs"):
            a, b = rc[k], nc[k]
            tol = RTOL * rc["abs"] + r["rows"] * FLOOR * s
            if abs(a - b) > tol:
                rep.other(ex, f, "%s.%s" % (name, k), a, b, abs(a - b) / (tol / RTOL))
    for i, row in r["sample"].items():
        new = n["sample"].get(i)
        if new is None or len(new) != len(row):
            rep.fail.append("%s/%s row %s missing or reshaped" % (ex, f, i))
            continue
        for j, (a, b) in enumerate(zip(row, new)):
            va, vb = num(a), num(b)
            key = "%s[%s]" % (r["header"][j] if j < len(r["header"]) else j, i)
            rep.diff(ex, f, key, a if va is None else va, b if vb is None else vb,
                     scale[j] if j < len(scale) else 0.0)


def cmp_xml(rep, ex, f, r, n):
    if r["n"] != n["n"] or r["words"] != n["words"]:
        rep.fail.append("%s/%s: %d numbers / structure hash differ (%d)" % (
            ex, f, r["n"], n["n"]))
        return
    s = max(r["max"], n["max"])
    rep.diff(ex, f, "max", r["max"], n["max"], s)
    for k in ("sum", "abs"):
        tol = RTOL * r["abs"] + r["n"] * FLOOR * s
        if abs(r[k] - n[k]) > tol:
            rep.other(ex, f, k, r[k], n[k], abs(r[k] - n[k]) / (tol / RTOL))
    for k in ("head", "tail"):
        for i, (a, b) in enumerate(zip(r[k], n[k])):
            rep.diff(ex, f, "%s[%d]" % (k, i), a, b, s)


def cmp_json(rep, ex, f, r, n):
    rv, nv = r["values"], n["values"]
    for k in sorted(set(rv) | set(nv)):
        if k not in rv or k not in nv:
            rep.fail.append("%s/%s %s: only in %s" % (
                ex, f, k, "recording" if k in rv else "new run"))
            continue
        grp = k.split(".")[1].split("[")[0]
        scale = max([abs(v) for kk, v in list(rv.items()) + list(nv.items())
                     if kk.split(".")[1].split("[")[0] == grp
                     and isinstance(v, (int, float)) and not isinstance(v, bool)
                     and math.isfinite(v)] or [0.0])
        rep.diff(ex, f, k, rv[k], nv[k], scale)


def compare(rep, ex, ref, new, plots):
    if ref["exit"] != new["exit"]:
        rep.fail.append("%s: exit %d != %d" % (ex, ref["exit"], new["exit"]))
    rf = [f for f in ref["files"] if plots or not f.startswith("plots/")]
    if rf != new["files"]:
        rep.fail.append("%s: files differ: only recorded %s, only new %s" % (
            ex, sorted(set(rf) - set(new["files"])), sorted(set(new["files"]) - set(rf))))
    for f, r in ref["data"].items():
        n = new["data"].get(f)
        if n is None:
            continue
        {"csv": cmp_csv, "xml": cmp_xml, "json": cmp_json}[r["kind"]](rep, ex, f, r, n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("record", "check", "run", "twice"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cli", help="the cosrod executable (default: BUILD/src/cli/cosrod)")
    ap.add_argument("--out", help="keep the outputs here (default: a temporary dir)")
    ap.add_argument("--plots", action="store_true", help="also write and compare plot names")
    ap.add_argument("--only", nargs="*", help="these examples only")
    a = ap.parse_args()
    cli = a.cli or os.path.join(os.path.abspath(a.build), "src", "cli", "cosrod")
    if not os.access(cli, os.X_OK):
        sys.exit("guard: no cosrod executable at %s (build first)" % cli)
    names = a.only or examples()
    tmp = a.out or tempfile.mkdtemp(prefix="cosrod-guard-")
    accepted = json.load(open(ACCEPTED)) if os.path.exists(ACCEPTED) else []
    rep = Report(accepted)
    missing = []
    t0 = time.time()
    if a.mode == "twice":
        bad, nfiles = twice(cli, names, tmp, a.plots)
        if not a.out:
            shutil.rmtree(tmp, ignore_errors=True)
        for line in bad:
            print("DIFF " + line)
        print("determinism: %d examples, %d files, %d differences in %.1f s" % (
            len(names), nfiles, len(bad), time.time() - t0))
        return 1 if bad else 0
    for ex in names:
        out = os.path.join(tmp, ex)
        shutil.rmtree(out, ignore_errors=True)
        rc, err = run_one(cli, ex, out, a.plots)
        rec = digest_dir(out, rc, a.plots)
        rp = os.path.join(REF_DIR, ex + ".json")
        if a.mode == "record":
            os.makedirs(REF_DIR, exist_ok=True)
            rec["note"] = ("regression data, not validation: cosrod's own outputs "
                           "recorded by tools/guard.py record")
            with open(rp, "w") as f:
                json.dump(rec, f, indent=0, sort_keys=True)
                f.write("\n")
        elif a.mode == "check":
            if not os.path.exists(rp):
                missing.append(ex)
                continue
            with open(rp) as f:
                compare(rep, ex, json.load(f), rec, a.plots)
        print("guard: %-26s exit %d  %3d files" % (ex, rc, len(rec["files"])), flush=True)
    if not a.out:
        shutil.rmtree(tmp, ignore_errors=True)
    print("guard: %d examples in %.1f s" % (len(names), time.time() - t0))
    if a.mode != "check":
        return 0
    for ex, f, key, x, y, rel, why in rep.acc:
        print("ACCEPTED %s/%s %s: %r -> %r (abs %.3g, rel %.3g): %s" % (
            ex, f, key, x, y, abs(x - y), rel, why))
    for m in missing:
        rep.fail.append("%s: no recording in tests/guard/reference" % m)
    for line in rep.fail:
        print("DIFF " + line)
    print("guard: %d differences, %d accepted" % (len(rep.fail), len(rep.acc)))
    return 1 if rep.fail else 0


if __name__ == "__main__":
    sys.exit(main())
