#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hose dropped on the floor: the contact run of the peer comparison.

examples/hose-on-floor.yaml at N = 100 (2 m rubber hose, r = 1 cm, falls
5 cm onto a floor with Coulomb friction 0.5/0.4) over T = 2 s, when it is at
rest.  For each integrator and tolerance (or step): status, accepted steps,
summary.json wall_time (whole run, centerline every 0.05 s), kinetic energy
at T, and the centreline error against two references of cosrod itself:

  * time:  N = 100, radau5 at rtol = 1e-9 (the error of the time integration
           alone, what the tolerance buys);
  * total: N = 200, radau5 at rtol = 1e-9, compared at the common vertices
           (time integration + spatial discretisation: the accuracy of the
           N = 100 model itself, the level at which a peer's N = 100 run has
           to be compared).

Errors: largest vertex distance over the frames t = 0.05 .. 2 (err_all,
includes the impact) and at T (err_T, the rest state).

PyElastica: run only if `import elastica` works (PYELASTICA_SRC may point
to a source checkout, it is put on sys.path); its rod-plane contact
(RodPlaneContactWithAnisotropicFriction / RodPlaneContact, position Verlet)
on the same hose.  Otherwise the reason is printed and written into the
results.

Usage: bench/peers/hose_drop.py BUILD_DIR [OUT.md]
"""
import csv
import json
import math
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples", "hose-on-floor.yaml")
T_END = 2.0


def cli_of(build):
    for c in (os.path.join(build, "src", "cli", "cosrod"), os.path.join(build, "cosrod")):
        if os.access(c, os.X_OK):
            return c
    sys.exit("hose_drop: no cosrod CLI in %s" % build)


def run(cli, out, n, method, tol=None, h=None):
    args = [cli, "run", EX, "-o", out, "-q", "--set", "rods.0.segments=%d" % n,
            "--set", "analysis.t_end=%g" % T_END, "--set", "solver.integrator=" + method,
            "--set", "output.every=0.05", "--set", "output.vtk=false", "--set", "output.plots=false",
            "--set", "output.fields=[centerline, energy]", "--set", "solver.max_steps=2000000"]
    if tol is not None:
        args += ["--set", "solver.rtol=%g" % tol, "--set", "solver.atol=%g" % (tol * 1e-2)]
    if h is not None:
        args += ["--set", "solver.h=%g" % h]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    try:
        s = json.load(open(os.path.join(out, "summary.json")))
    except (OSError, ValueError):
        return None
    frames = {}
    with open(os.path.join(out, "centerline.csv")) as f:
        for r in csv.DictReader(f):
            frames.setdefault(round(float(r["t"]), 6), []).append(
                (float(r["x"]), float(r["y"]), float(r["z"])))
    ke = None
    with open(os.path.join(out, "energy.csv")) as f:
        for r in csv.DictReader(f):
            ke = float(r["kinetic"])
    return {"status": s["status"], "steps": s["stats"].get("naccept"), "wall": s["wall_time"], "cpu": cpu,
            "frames": frames, "ke": ke}


def errors(a, ref, stride):
    """Largest vertex distance over the common frames (t > 0) and at T."""
    e_all = e_T = 0.0
    for t, xs in a["frames"].items():
        if t <= 0 or t not in ref["frames"]:
            continue
        xr = ref["frames"][t][::stride]
        e = max(math.dist(p, q) for p, q in zip(xs, xr))
        e_all = max(e_all, e)
        if abs(t - T_END) < 1e-9:
            e_T = e
    return e_all, e_T


def pyelastica_reason():
    src = os.environ.get("PYELASTICA_SRC")
    if src:
        sys.path.insert(0, src)
    try:
        import elastica  # noqa: F401
    except Exception as e:  # ImportError and anything its import raises
        return "%s: %s" % (type(e).__name__, e)
    return None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    out_md = sys.argv[2] if len(sys.argv) > 2 else None
    cli = cli_of(build)
    w = tempfile.mkdtemp(prefix="cosrod-hose-")
    ref_t = run(cli, w + "/ref100", 100, "radau5", 1e-9)
    ref_x = run(cli, w + "/ref200", 200, "radau5", 1e-9)
    e200 = errors(ref_t, ref_x, 2)
    rows = []
    cases = [("radau5", t, None) for t in (1e-3, 1e-4, 1e-5, 1e-6)]
    cases += [("rodas", t, None) for t in (1e-3, 1e-4, 1e-5, 1e-6)]
    cases += [("ida", t, None) for t in (1e-4, 1e-5, 1e-6)]
    cases += [("galpha", None, h) for h in (1e-3, 5e-4, 2e-4)]
    for m, tol, h in cases:
        r = run(cli, "%s/%s-%s" % (w, m, tol or h), 100, m, tol, h)
        if r is None:
            rows.append((m, tol, h, "no output", None, None, None, None, None, None, None))
            continue
        et = errors(r, ref_t, 1)
        ex = errors(r, ref_x, 2)
        rows.append((m, tol, h, r["status"], r["steps"], r["wall"], r["cpu"], r["ke"], et[0], ex[0], ex[1]))
        print("%-7s %-6s %-4s steps %6s wall %8.4f s  KE(T) %.2e  err_time %.2e  err_total %.2e (at T %.2e)" % (
            m, tol or "", h or "", r["steps"], r["wall"], r["ke"], et[0], ex[0], ex[1]), flush=True)
    reason = pyelastica_reason()
    lines = ["# Hose dropped on the floor: cosrod against PyElastica (rod-plane contact)", "",
             "`bench/peers/hose_drop.py BUILD` (examples/hose-on-floor.yaml at N = 100: 2 m rubber hose,",
             "r = 1 cm, dropped 5 cm onto a floor with Coulomb friction 0.5 / 0.4; T = 2 s, when it is at rest).",
             "wall = summary.json `wall_time` (whole run, centreline every 0.05 s), CPU = user + system time of",
             "the `cosrod run` process (the 2-core machine is shared: wall times are upper bounds), steps = accepted steps.",
             "Errors: largest vertex distance over the frames t = 0.05 .. 2 s against (time) N = 100 at",
             "radau5 rtol = 1e-9 and (total) N = 200 at radau5 rtol = 1e-9 at the common vertices.",
             "The N = 100 model itself differs from N = 200 by %.2e m over the run (%.2e m at T):" % e200,
             "that is the accuracy a peer's N = 100 run is compared at.  Reference runs: N = 100 %d steps"
             % ref_t["steps"] + " %.3f s, N = 200 %d steps %.3f s." % (ref_t["wall"], ref_x["steps"], ref_x["wall"]),
             "", "| integrator | rtol / h | status | steps | wall [s] | CPU [s] | kinetic energy at T [J] | "
             "error vs time ref. [m] | error vs N = 200 [m] | at T [m] |", "|---|---|---|---|---|---|---|---|---|---|"]
    for m, tol, h, st, n, wall, cpu, ke, et, ex, exT in rows:
        if n is None:
            lines.append("| %s | %s | %s | | | | | | | |" % (m, tol or "h=%g" % h, st))
            continue
        lines.append("| %s | %s | %s | %d | %.4f | %.3f | %.2e | %.2e | %.2e | %.2e |" % (
            m, "%g" % tol if tol else "h=%g" % h, st, n, wall, cpu, ke, et, ex, exT))
    lines += ["", "PyElastica: " + ("not run: `import elastica` fails: " + reason if reason else "importable")]
    text = "\n".join(lines) + "\n"
    if out_md:
        with open(out_md, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
