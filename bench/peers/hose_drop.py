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

Rest error: largest vertex distance at T from the exact rest state of the
hose on a rigid floor (straight, axis at z = r, vertices where they started
in x): the penalty law's penetration shows here.

PyElastica: run only if `import elastica` works (PYELASTICA_SRC may point
to a source tree, it is put on sys.path), by bench/peers/pyelastica_hose.py
in a child process: its rod-plane contact with friction and position Verlet
at fixed steps on the same hose; its time-integration error against its own
run at DT_REF.  Otherwise the reason is printed and written into the
results.

Usage: bench/peers/hose_drop.py BUILD_DIR [OUT.md]
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_util import child_cpu, cli_of  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples", "hose-on-floor.yaml")
T_END = 2.0


def run(cli, out, n, method, tol=None, h=None, extra=()):
    args = [cli, "run", EX, "-o", out, "-q", "--set", "rods.0.segments=%d" % n,
            "--set", "analysis.t_end=%g" % T_END, "--set", "solver.integrator=" + method,
            "--set", "output.every=0.05", "--set", "output.vtk=false", "--set", "output.plots=false",
            "--set", "output.fields=[centerline, energy]", "--set", "solver.max_steps=2000000"]
    if tol is not None:
        args += ["--set", "solver.rtol=%g" % tol, "--set", "solver.atol=%g" % (tol * 1e-2)]
    if h is not None:
        args += ["--set", "solver.h=%g" % h]
    for e in extra:
        args += ["--set", e]
    _, cpu = child_cpu(args)
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
    """Largest vertex distance over the common frames (t > 0) and at T (NaN: no common frame)."""
    e_all = e_T = float("nan")
    for t, xs in a["frames"].items():
        if t <= 0 or t not in ref["frames"]:
            continue
        xr = ref["frames"][t][::stride]
        e = max(math.dist(p, q) for p, q in zip(xs, xr))
        e_all = e if math.isnan(e_all) else max(e_all, e)
        if abs(t - T_END) < 1e-9:
            e_T = e
    return e_all, e_T


def rest_error(a):
    """Largest vertex distance at T from the rigid-floor rest state."""
    xs = a["frames"][max(a["frames"])]
    n = len(xs) - 1
    return max(math.dist(p, (2.0 * i / n, 0.0, 0.01)) for i, p in enumerate(xs))


PE_DT = (2e-4, 1.25e-4, 1e-4, 5e-5)  # each divides the frame interval 0.05 s
PE_DT_REF = 1.25e-5


def pyelastica_run(dt):
    """PyElastica at step dt (child process); None if it produced nothing."""
    here = os.path.dirname(os.path.abspath(__file__))
    p = subprocess.run([sys.executable, os.path.join(here, "pyelastica_hose.py"), "100", "%g" % dt,
                        "%g" % T_END, "0.05"], capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return None
    d["frames"] = {round(float(t), 6): [tuple(x) for x in xs] for t, xs in d["frames"].items()}
    # a blow-up stays finite for a while: more kinetic energy than the fall released is divergence
    if d["status"] == "ok" and (d["ke"] is None or d["ke"] > 0.271 or rest_error(d) > 0.01):
        d["status"] = "diverged"
    return d


def verdict(rows, pe_rows):
    """The side-by-side reading: equal time-integration error, and the rest state."""
    ok = [r for r in pe_rows if r[1] == "ok" and r[2] is not None]
    if not ok:
        return ["PyElastica: no stable run."]
    big = max(ok, key=lambda r: r[0])  # its largest stable step
    same = [r for r in rows if r[4] is not None and r[3] == "ok" and "x100" not in r[0] and r[8] <= big[6]]
    out = ["**Equal time-integration error.** PyElastica's largest stable step here is h = %g (h = %g diverges):"
           % (big[0], min([r[0] for r in pe_rows if r[1] != "ok"] or [float("nan")])),
           "%.3f s CPU for the 2 s, its error against its own h = %g run %.2e m." % (big[4], PE_DT_REF, big[6])]
    if same:
        c = min(same, key=lambda r: r[6])
        out += ["The cheapest cosrod run at a time error no larger: %s rtol %s, %.3f s CPU (error %.2e m):"
                % (c[0], "%g" % c[1] if c[1] else "h=%g" % c[2], c[6], c[8]),
                "**%.1f× less CPU.**" % (big[4] / c[6])]
    d = [r for r in rows if r[4] is not None and r[3] == "ok" and "x100" not in r[0]]
    k = [r for r in rows if r[4] is not None and r[3] == "ok" and "x100" in r[0]]
    out += ["", "**Rest state against the rigid floor.** PyElastica cancels each element's normal load exactly, so",
            "its hose rests at z = r (rest error %.1e m).  cosrod's smooth penalty law penetrates: %.2e m at the"
            % (big[9], min(r[11] for r in d)),
            "automatic stiffness (%.1f %% of r)" % (100 * min(r[11] for r in d) / 0.01)
            + (", %.2e m at 100× the stiffness for %.3f s CPU (%s rtol %g)." % (
                k[0][11], k[0][6], k[0][0].split()[0], k[0][1]) if k else "."),
            "Matching PyElastica's exact rest height is not possible with a penalty law; the comparison at",
            "equal accuracy is the time-integration one above, and over the whole fall the two models differ by",
            "their damping (see the column error vs cosrod N = 200)."]
    return out


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
    cli = cli_of(build, "hose_drop")
    w = tempfile.mkdtemp(prefix="cosrod-hose-")
    ref_t = run(cli, w + "/ref100", 100, "radau5", 1e-9)
    ref_x = run(cli, w + "/ref200", 200, "radau5", 1e-9)
    e200 = errors(ref_t, ref_x, 2)
    rows = []
    cases = [("radau5", t, None) for t in (1e-3, 1e-4, 1e-5, 1e-6)]
    cases += [("rodas", t, None) for t in (1e-3, 1e-4, 1e-5, 1e-6)]
    cases += [("ida", t, None) for t in (1e-4, 1e-5, 1e-6)]
    cases += [("galpha", None, h) for h in (1e-3, 5e-4, 2e-4)]
    # 100x the automatic floor stiffness 4 EI/ds^4 (9.8e5 N/m^2 at N = 100): 1/100 of the penetration
    cases += [("rodas k x100", t, None) for t in (1e-3, 1e-4)]
    ref_k = run(cli, w + "/refk", 100, "radau5", 1e-9, None, ("contact.stiffness=9.8e7",))
    for m, tol, h in cases:
        extra = ("contact.stiffness=9.8e7",) if "x100" in m else ()
        r = run(cli, "%s/%s-%s" % (w, m.split()[0] + ("k" if extra else ""), tol or h), 100, m.split()[0], tol, h,
                extra)
        if r is None:
            rows.append((m, tol, h, "no output", None, None, None, None, None, None, None, None))
            continue
        et = errors(r, ref_k if extra else ref_t, 1)
        ex = errors(r, ref_x, 2)
        rows.append((m, tol, h, r["status"], r["steps"], r["wall"], r["cpu"], r["ke"], et[0], ex[0], ex[1],
                     rest_error(r)))
        print("%-7s %-6s %-4s steps %6s wall %8.4f s  KE(T) %.2e  err_time %.2e  err_total %.2e (at T %.2e)" % (
            m, tol or "", h or "", r["steps"], r["wall"], r["ke"], et[0], ex[0], ex[1]), flush=True)
    reason = pyelastica_reason()
    pe_rows = []
    if not reason:
        pe_ref = pyelastica_run(PE_DT_REF)
        for dt in PE_DT:
            r = pyelastica_run(dt)
            if r is None or pe_ref is None:
                pe_rows.append((dt, "no output", None, None, None, None, None, None, None, None))
                continue
            et = errors(r, pe_ref, 1)
            ex = errors(r, ref_x, 2)
            pe_rows.append((dt, r["status"], r["steps"], r["wall"], r["cpu"], r["ke"], et[0], ex[0], ex[1],
                            rest_error(r)))
            print("pyelastica dt %g %s cpu %.3f err_time %.2e rest %.2e" % (dt, r["status"], r["cpu"], et[0],
                                                                             rest_error(r)), flush=True)
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
             "Rest error: largest vertex distance at T from the exact rest state on a rigid floor (straight, axis",
             "at z = r): the penalty law's penetration.  Rows `k x100`: contact.stiffness = 9.8e7 N/m^2, 100 times",
             "the automatic 4 EI/ds^4; their time reference is radau5 at rtol = 1e-9 with the same stiffness.",
             "", "| integrator | rtol / h | status | steps | wall [s] | CPU [s] | kinetic energy at T [J] | "
             "error vs time ref. [m] | error vs N = 200 [m] | at T [m] | rest error [m] |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for m, tol, h, st, n, wall, cpu, ke, et, ex, exT, rest in rows:
        if n is None:
            lines.append("| %s | %s | %s | | | | | | | | |" % (m, tol or "h=%g" % h, st))
            continue
        lines.append("| %s | %s | %s | %d | %.4f | %.3f | %.2e | %.2e | %.2e | %.2e | %.2e |" % (
            m, "%g" % tol if tol else "h=%g" % h, st, n, wall, cpu, ke, et, ex, exT, rest))
    if reason:
        lines += ["", "PyElastica: not run: `import elastica` fails: " + reason]
    else:
        import elastica
        ver = os.environ.get("PYELASTICA_VERSION") or getattr(getattr(elastica, "version", None),
                                                               "VERSION", "?")
        try:
            import numba
            nb = "numba " + numba.__version__
        except ImportError:
            nb = "no numba"
        lines += ["", "PyElastica %s (its source tree given by PYELASTICA_SRC; %s from Debian; the time loop" % (ver, nb),
                  "is timed after a 20-step warm-up that compiles its kernels)."]
        lines += ["", "PyElastica %s (position Verlet at fixed h, rod-plane contact with friction;" % ver,
                  "bench/peers/pyelastica_hose.py), in the same run.  Its error vs time ref. is against its own",
                  "run at h = %g; its error vs N = 200 includes the difference of the models (PyElastica has"
                  % PE_DT_REF, "no Kelvin-Voigt damping: a uniform velocity damping of 2/s brings it to rest).",
                  "", "| h | status | steps | wall [s] | CPU [s] | kinetic energy at T [J] | "
                  "error vs own h = %g [m] | error vs cosrod N = 200 [m] | at T [m] | rest error [m] |" % PE_DT_REF,
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for dt, st, n, wall, cpu, ke, et, ex, exT, rest in pe_rows:
            if n is None:
                lines.append("| %g | %s | | | | | | | | |" % (dt, st))
                continue
            lines.append("| %g | %s | %d | %.4f | %.3f | %.2e | %.2e | %.2e | %.2e | %.2e |" % (
                dt, st, n, wall, cpu, ke, et, ex, exT, rest))
        lines += [""] + verdict(rows, pe_rows)
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip() or "?"
    except OSError:
        rev = "?"
    lines += ["", "Generated by bench/peers/hose_drop.py from commit %s on %s (load average %.1f)." % (
        rev, time.strftime("%Y-%m-%d"), os.getloadavg()[0])]
    text = "\n".join(lines) + "\n"
    if out_md:
        with open(out_md, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
