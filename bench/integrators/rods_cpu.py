#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One method on one rod benchmark, two builds of the CLI: user CPU time
(minimum over interleaved repeats), tip error and the solver counters.

Usage: rods_cpu.py OLD_CLI NEW_CLI [--example perf-steel] [--method seulex]
       [--tols 1e-2,5e-3,3e-3,2e-3,1e-3,1e-4] [--repeats 3] [--ref-tol 1e-8]

User CPU time (the child's ru_utime) instead of wall time: on a shared
machine the wall time grows with the load, the CPU time much less.  Runs
alternate old / new per TOL and repeat (A B A B ...).  Tip error: max over
the output times of |x_tip - x_tip,ref| with the reference from the NEW
build with radau5 at rtol = atol = --ref-tol.  Prints a Markdown table
(counts are from the first repeat; they do not vary between repeats).
"""
import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile


def run(cli, example, method, tol, outdir):
    args = [cli, "run", example, "-q", "--set", "output.vtk=false", "--set", "output.plots=false",
            "--set", "solver.integrator=" + method, "--set", "solver.rtol=%g" % tol,
            "--set", "solver.atol=%g" % tol, "--set", "output.dir=" + outdir]
    u0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - u0
    with open(os.path.join(outdir, "summary.json")) as f:
        j = json.load(f)
    if j.get("status") != "ok":
        return {"status": j.get("status")}
    with open(os.path.join(outdir, "centerline.csv")) as f:
        rows = list(csv.DictReader(f))
    last = max(int(r["vertex"]) for r in rows)
    tip = {round(float(r["t"]), 9): (float(r["x"]), float(r["y"]), float(r["z"]))
           for r in rows if int(r["vertex"]) == last}
    r = {"status": "ok", "cpu": cpu, "tip": tip}
    r.update(j["stats"])
    return r


def tip_error(tip, ref):
    return max(sum((a - b) ** 2 for a, b in zip(p, ref[t])) ** 0.5 for t, p in tip.items() if t in ref)


def main():
    a = sys.argv[1:]
    if len(a) < 2:
        print(__doc__)
        return 2
    old, new = a[0], a[1]
    o = dict(zip(a[2::2], a[3::2]))
    ex = o.get("--example", "perf-steel")
    method = o.get("--method", "seulex")
    tols = [float(x) for x in o.get("--tols", "1e-2,5e-3,3e-3,2e-3,1e-3,1e-4").split(",")]
    reps = int(o.get("--repeats", "3"))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    yml = os.path.join(root, "examples", ex + ".yaml")
    tmp = tempfile.mkdtemp(prefix="rods_cpu_")
    ref = run(new, yml, "radau5", float(o.get("--ref-tol", "1e-8")), os.path.join(tmp, "ref"))["tip"]
    res = {}
    for _ in range(reps):
        for t in tols:
            for tag, cli in (("old", old), ("new", new)):
                r = run(cli, yml, method, t, os.path.join(tmp, tag))
                if r["status"] == "ok":
                    r["err"] = tip_error(r.pop("tip"), ref)
                k = (t, tag)
                if k not in res:
                    res[k] = r
                elif r["status"] == "ok":
                    res[k]["cpu"] = min(res[k]["cpu"], r["cpu"])
    shutil.rmtree(tmp)
    print("| TOL | build | CPU [s] | tip err [m] | steps | accepted | rejected | conv. fail | f | J | LU | solves |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t in tols:
        for tag in ("old", "new"):
            r = res[(t, tag)]
            if r["status"] != "ok":
                print("| %g | %s | failed: %s |||||||||" % (t, tag, r["status"]))
                continue
            print("| %g | %s | %.3f | %.2e | %d | %d | %d | %d | %d | %d | %d | %d |" % (
                t, tag, r["cpu"], r["err"], r["nsteps"], r["naccept"], r["nreject"], r["nconvfail"],
                r["nfev"], r["njev"], r["ndecomp"], r["nsolve"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
