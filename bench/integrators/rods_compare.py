#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Rod benchmarks perf-rubber and perf-steel ([LLA] Tables 2-3): wall time,
steps, f, J and tip error of two builds of the CLI side by side.

Usage: rods_compare.py OLD_CLI NEW_CLI OUT.md [--tols 1e-2,1e-3,1e-4]
       [--methods radau5,rodas,seulex,dopri5] [--repeats 2]
       [--examples perf-rubber,perf-steel]

Runs alternate old / new (A B A B ...) so that a slow drift of the machine's
load hits both alike; the wall time is the solver's own (summary.json
stats.solver_wall_time), the minimum over the repeats.  Tip error: max over
the output times (every 0.01 s, T = 10 s) of |x_tip(t) - x_tip,ref(t)| with
the reference from the NEW build with radau5 at rtol = atol = 1e-9 (1e-8 or
1e-7 if that fails), checked against the run at 10x that tolerance.  A run that does not finish in --timeout seconds
is reported as such.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time


def run(cli, example, method, tol, outdir, timeout):
    args = [cli, "run", example, "-q", "--set", "output.vtk=false", "--set", "output.plots=false",
            "--set", "solver.integrator=" + method, "--set", "solver.rtol=%g" % tol,
            "--set", "solver.atol=%g" % tol, "--set", "output.dir=" + outdir]
    t0 = time.time()
    try:
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.time() - t0
    with open(os.path.join(outdir, "summary.json")) as f:
        j = json.load(f)
    if j.get("status") != "ok":
        return {"status": j.get("status"), "elapsed": elapsed}
    tip = {}
    with open(os.path.join(outdir, "centerline.csv")) as f:
        rows = list(csv.DictReader(f))
    last = max(int(r["vertex"]) for r in rows)
    for r in rows:
        if int(r["vertex"]) == last:
            tip[round(float(r["t"]), 9)] = (float(r["x"]), float(r["y"]), float(r["z"]))
    s = j["stats"]
    return {"status": "ok", "wall": s["solver_wall_time"], "nsteps": s["nsteps"], "nfev": s["nfev"],
            "njev": s["njev"], "tip": tip, "elapsed": elapsed}


def tip_error(tip, ref):
    e = 0.0
    for t, p in tip.items():
        q = ref.get(t)
        if q is not None:
            e = max(e, sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5)
    return e


def main():
    a = sys.argv[1:]
    if len(a) < 3:
        print(__doc__)
        return 2
    old, new, out = a[0], a[1], a[2]
    opts = dict(zip(a[3::2], a[4::2]))
    tols = [float(x) for x in opts.get("--tols", "1e-2,1e-3,1e-4").split(",")]
    methods = opts.get("--methods", "radau5,rodas,seulex,dopri5").split(",")
    repeats = int(opts.get("--repeats", "2"))
    timeout = float(opts.get("--timeout", "90"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tmp = tempfile.mkdtemp(prefix="rods_compare_")
    lines = []
    for ex in opts.get("--examples", "perf-rubber,perf-steel").split(","):
        yml = os.path.join(root, "examples", ex + ".yaml")
        for rt in (1e-9, 1e-8, 1e-7):  # the tightest tolerance that runs
            ref = run(new, yml, "radau5", rt, os.path.join(tmp, "ref"), 600)
            ref2 = run(new, yml, "radau5", rt * 10, os.path.join(tmp, "ref2"), 600)
            if ref and ref2 and ref["status"] == "ok" and ref2["status"] == "ok":
                break
        check = tip_error(ref2["tip"], ref["tip"])
        lines.append("\n### %s\n\nreference: new build, radau5, rtol = atol = %g (%d steps); "
                     "the run at 10x that tolerance differs from it by %.2e m at the tip.\n\n"
                     % (ex, rt, ref["nsteps"], check))
        lines.append("| method | TOL | old wall [s] | new wall [s] | new/old | old steps / f / J | "
                     "new steps / f / J | old tip err [m] | new tip err [m] |\n|---|---|---|---|---|---|---|---|---|\n")
        for m in methods:
            for tol in tols:
                res = {"old": [], "new": []}
                for r in range(repeats):
                    for which, cli in (("old", old), ("new", new)):
                        x = run(cli, yml, m, tol, os.path.join(tmp, which), timeout)
                        res[which].append(x)
                cells = []
                best = {}
                for which in ("old", "new"):
                    ok = [x for x in res[which] if x and x["status"] == "ok"]
                    best[which] = min(ok, key=lambda x: x["wall"]) if len(ok) == repeats else None
                if best["old"] is None or best["new"] is None:
                    def why(w):
                        x = res[w][-1]
                        return "timeout" if x is None else (x["status"] if x["status"] != "ok" else "ok")
                    lines.append("| %s | %g | %s | %s | – | – | – | – | – |\n" % (m, tol, why("old"), why("new")))
                    print(ex, m, tol, why("old"), why("new"), flush=True)
                    continue
                o, n = best["old"], best["new"]
                eo, en = tip_error(o["tip"], ref["tip"]), tip_error(n["tip"], ref["tip"])
                lines.append("| %s | %g | %.3f | %.3f | %.2f | %d / %d / %d | %d / %d / %d | %.2e | %.2e |\n" % (
                    m, tol, o["wall"], n["wall"], n["wall"] / o["wall"], o["nsteps"], o["nfev"], o["njev"],
                    n["nsteps"], n["nfev"], n["njev"], eo, en))
                print(ex, m, tol, "%.3f %.3f" % (o["wall"], n["wall"]), "%.2e %.2e" % (eo, en), flush=True)
                write(out, repeats, lines)
    write(out, repeats, lines)
    return 0


def write(out, repeats, lines):
    with open(out, "w") as f:
        f.write("# Rod benchmarks: rewritten integrator control vs the previous build\n\n"
                "Generated by `bench/integrators/rods_compare.py OLD_CLI NEW_CLI %s` "
                "(see its header: runs alternate old/new, wall = solver wall time, minimum of %d runs; tip "
                "error = max over the output times of |x_tip - x_tip,ref|).  T = 10 s, output every 0.01 s.\n"
                % (os.path.basename(out), repeats))
        f.writelines(lines)


if __name__ == "__main__":
    sys.exit(main())
