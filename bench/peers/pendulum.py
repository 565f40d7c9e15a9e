#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The undamped rubber pendulum against MuJoCo and PyElastica, side by side in one run.

The rod of bench/auto/scenarios/rubber-pendulum.yaml (L = 1 m, r = 5 mm,
E = 5e6 Pa, nu = 0.5, rho = 1100, pinned start, free end, gravity, 1 s) at
N = 10 and N = 100 segments, run by
  * cosrod: solver.integrator auto, and galpha at the settings of
    bench/results/galpha.md section 2 (fixed h, and adaptive);
  * MuJoCo: bench/peers/mujoco_pendulum.c (composite cable + the
    mujoco.elasticity.cable plugin), built here against $MUJOCO_DIR;
  * PyElastica: bench/peers/pyelastica_pendulum.py (position Verlet) from the
    source tree $PYELASTICA_SRC.
All runs of one N are interleaved round-robin, REPS times; the minimum CPU is
kept.  Time: cosrod = process CPU of `cosrod run` (start-up and output
included; the solve alone = summary.json solver_wall_time); peers = CPU of
their time loop alone (model build and numba compilation reported apart).
Tip error = largest distance of the tip to a converged cosrod reference
(radau5, rtol = atol = 1e-10, same N) over the 0.01 s samples.  The
reference at 2N beside it shows the model's own discretisation difference,
i.e. what "equal error" means when the models differ.

Usage: pendulum.py BUILD [--reps R] [--out-md FILE] [--out-csv FILE]
PYELASTICA_PYTHON: the interpreter for PyElastica (numpy + numba), default this one.
Missing peers (MUJOCO_DIR / PYELASTICA_SRC unset or unusable) are skipped
with one line each.
"""
import argparse
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peer_util import child_cpu, cli_of  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
SCEN = os.path.join(ROOT, "bench", "auto", "scenarios", "rubber-pendulum.yaml")
T_END, FRAME = 1.0, 0.01
# the Python that runs PyElastica (it needs numpy and numba): PYELASTICA_PYTHON, else this one
PE_PY = os.environ.get("PYELASTICA_PYTHON", sys.executable)
GOALS = {10: ("MuJoCo", 3.0), 100: ("PyElastica", 30.0)}

# cosrod rows: (label, --set list).  galpha: the best settings of galpha.md section 2.
COSROD = [
    ("auto", ["solver.integrator=auto"]),
    ("galpha h=1e-2 rho 0.8 tol 1e-2", ["solver.integrator=galpha", "solver.h=1e-2", "solver.rho_inf=0.8",
                                       "solver.rtol=1e-2", "solver.atol=1e-2"]),
    ("galpha h=2e-3 tol 1e-3", ["solver.integrator=galpha", "solver.h=2e-3", "solver.rtol=1e-3",
                                "solver.atol=1e-3"]),
    ("galpha h=1e-3 tol 1e-3", ["solver.integrator=galpha", "solver.h=1e-3", "solver.rtol=1e-3",
                                "solver.atol=1e-3"]),
    ("galpha h=2e-2 rho 0.5 tol 1e-2", ["solver.integrator=galpha", "solver.h=2e-2", "solver.rho_inf=0.5",
                                       "solver.rtol=1e-2", "solver.atol=1e-2"]),
    ("galpha adaptive rho 0.8 tol 1e-3", ["solver.integrator=galpha", "solver.h=0", "solver.rho_inf=0.8",
                                          "solver.rtol=1e-3", "solver.atol=1e-3"]),
]
# peers: the largest steps that are stable, then smaller ones (MuJoCo N = 100: unstable at h = 1e-3 and
# 5e-4, ~3 ms CPU per step at nv = 300, so one row; PyElastica: N = 10 blows up at dt >= 1.5e-4, N = 100 at 1e-4)
MJ_ROWS = {10: [("implicitfast", h) for h in (1e-2, 5e-3, 2e-3, 1e-3, 5e-4)] + [("Euler", 5e-3), ("RK4", 1e-2)],
           100: [("implicitfast", 2e-4)]}
PE_ROWS = {10: (2e-4, 1.25e-4, 1e-4, 5e-5), 100: (1e-4, 8e-5, 5e-5, 2e-5, 1e-5)}  # dt divides 0.01


def cosrod(cli, work, n, sets):
    out = os.path.join(work, "c")
    shutil.rmtree(out, ignore_errors=True)
    args = [cli, "run", SCEN, "-o", out, "-q", "--set", "rods.0.segments=%d" % n,
            "--set", "output.every=%g" % FRAME, "--set", "output.vtk=false", "--set", "output.plots=false",
            "--set", "output.fields=[centerline]", "--set", "solver.max_steps=10000000"]
    for s in sets:
        args += ["--set", s]
    _, cpu = child_cpu(args)
    try:
        s = json.load(open(os.path.join(out, "summary.json")))
    except (OSError, ValueError):
        return None
    tips = {}
    with open(os.path.join(out, "centerline.csv")) as f:
        for r in csv.DictReader(f):
            if int(r["vertex"]) == n:
                tips[round(float(r["t"]), 6)] = (float(r["x"]), float(r["y"]), float(r["z"]))
    st = s["stats"]
    return {"status": s["status"], "cpu": cpu, "solve": st.get("solver_wall_time", s["wall_time"]),
            "steps": st.get("naccept"), "tips": tips, "chosen": (s.get("solver") or {}).get("chosen", "")}


def peer_json(args, env=None):
    p, total = child_cpu(args, env)
    try:
        d = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"status": "failed: " + (p.stderr.strip().splitlines() or ["?"])[-1][:80]}
    d["tips"] = {round(float(t), 6): tuple(x) for t, x in d["tips"].items()}
    d["total"] = total
    return d


def tip_error(a, ref):
    ts = [t for t in ref if t in a]
    if not ts or len(ts) < len(ref) // 2:
        return float("nan")
    return max(math.dist(a[t], ref[t]) for t in ts)


def build_mujoco(mjdir, work):
    """mujoco_pendulum against $MUJOCO_DIR (an install or a build tree); (exe, plugin lib) or a reason."""
    incs = [d for d in (os.path.join(mjdir, "include"), os.path.join(mjdir, "..", "include"))
            if os.path.exists(os.path.join(d, "mujoco", "mujoco.h"))]
    libs = sorted(glob.glob(os.path.join(mjdir, "**", "libmujoco.so*"), recursive=True), key=len)
    plugs = sorted(glob.glob(os.path.join(mjdir, "**", "libelasticity.so"), recursive=True), key=len)
    if not incs or not libs or not plugs:
        return None, "MuJoCo: no mujoco/mujoco.h, libmujoco.so or libelasticity.so under MUJOCO_DIR"
    exe = os.path.join(work, "mujoco_pendulum")
    libdir = os.path.dirname(libs[0])
    p = subprocess.run(["cc", "-O2", "-std=c11", "-Wall", "-Wextra", "-o", exe,
                        os.path.join(HERE, "mujoco_pendulum.c"), "-I", incs[0], "-L", libdir,
                        "-Wl,-rpath," + libdir, "-lmujoco", "-lm"], capture_output=True, text=True)
    if p.returncode != 0:
        return None, "MuJoCo: mujoco_pendulum.c does not build: " + p.stderr.strip()[:200]
    return (exe, plugs[0]), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sizes", default="10,100")
    ap.add_argument("--out-md", default=os.path.join(ROOT, "bench", "results", "peers-pendulum.md"))
    ap.add_argument("--out-csv", default=os.path.join(ROOT, "bench", "results", "peers-pendulum.csv"))
    a = ap.parse_args()
    cli = cli_of(a.build, "pendulum")
    work = tempfile.mkdtemp(prefix="cosrod-pendulum-")
    notes = []
    mj = None
    if os.environ.get("MUJOCO_DIR"):
        mj, why = build_mujoco(os.environ["MUJOCO_DIR"], work)
        if why:
            notes.append(why + " -- skipped")
    else:
        notes.append("MuJoCo: MUJOCO_DIR not set -- skipped")
    pe_env = None
    if os.environ.get("PYELASTICA_SRC"):
        pe_env = dict(os.environ)
        chk = subprocess.run([PE_PY, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import elastica",
                              os.environ["PYELASTICA_SRC"]], capture_output=True, text=True)
        if chk.returncode != 0:
            notes.append("PyElastica: cannot import elastica from PYELASTICA_SRC (%s) -- skipped"
                         % (chk.stderr.strip().splitlines() or ["?"])[-1][:100])
            pe_env = None
    else:
        notes.append("PyElastica: PYELASTICA_SRC not set -- skipped")
    for n_ in notes:
        print(n_, file=sys.stderr)

    table, goals = [], []
    for n in [int(x) for x in a.sizes.split(",")]:
        ref = cosrod(cli, work, n, ["solver.integrator=radau5", "solver.rtol=1e-10", "solver.atol=1e-10"])
        ref2 = cosrod(cli, work, 2 * n, ["solver.integrator=radau5", "solver.rtol=1e-10", "solver.atol=1e-10"])
        if not ref or ref["status"] != "ok":
            sys.exit("pendulum: the reference at N = %d failed" % n)
        disc = tip_error(ref2["tips"], ref["tips"]) if ref2 else float("nan")
        jobs = [("cosrod", lab, (lambda s=s: cosrod(cli, work, n, s))) for lab, s in COSROD]
        if mj:
            jobs += [("MuJoCo", "cable %s h=%g" % (ig, h),
                      (lambda ig=ig, h=h: peer_json([mj[0], str(n), "%g" % h, "%g" % T_END, "%g" % FRAME, ig,
                                                     mj[1]]))) for ig, h in MJ_ROWS[n]]
        if pe_env:
            jobs += [("PyElastica", "position Verlet dt=%g" % dt,
                      (lambda dt=dt: peer_json([PE_PY, os.path.join(HERE, "pyelastica_pendulum.py"),
                                                str(n), "%g" % dt, "%g" % T_END, "%g" % FRAME], pe_env)))
                     for dt in PE_ROWS[n]]
        best = {}
        for rep in range(a.reps):  # round-robin: every row once per pass
            for code, lab, fn in jobs:
                r = fn()
                if r is None:
                    r = {"status": "failed"}
                k = (code, lab)
                if k not in best or ("cpu" in r and r.get("status") == "ok"
                                     and r["cpu"] < best[k].get("cpu", math.inf)):
                    best[k] = r
                    if rep == 0 and r.get("status") == "ok":
                        r["err"] = tip_error(r["tips"], ref["tips"])
                if "err" not in best[k] and r.get("status") == "ok":
                    best[k]["err"] = tip_error(r["tips"], ref["tips"])
        for code in ("MuJoCo", "PyElastica"):  # each peer against its own finest step (self-convergence)
            fin = [best[(c, lab)] for c, lab, _ in jobs if c == code and best[(c, lab)].get("status") == "ok"]
            if fin:
                top = max(fin, key=lambda r: r["steps"])
                for r in fin:
                    r["chosen"] = "vs own finest step: %.1e m" % tip_error(r["tips"], top["tips"])
        for code, lab, _ in jobs:
            r = best[(code, lab)]
            table.append({"N": n, "code": code, "run": lab, "status": r.get("status"),
                          "cpu_s": r.get("cpu"), "solve_s": r.get("solve"), "setup_s":
                          r.get("load_cpu", r.get("jit_cpu")), "steps": r.get("steps"),
                          "tip_error_m": r.get("err"), "note": r.get("chosen", "")})
        goals.append(goal(n, table, disc))
        table.append({"N": n, "code": "cosrod", "run": "reference radau5 1e-10 (2N vs N)", "status": "ok",
                      "cpu_s": ref["cpu"], "solve_s": ref["solve"], "setup_s": None, "steps": ref["steps"],
                      "tip_error_m": disc, "note": "discretisation difference N vs 2N"})
    write(a, table, goals, notes)


def goal(n, table, disc):
    peer, factor = GOALS[n]
    rows = [r for r in table if r["N"] == n and r["status"] == "ok" and r["tip_error_m"] is not None
            and math.isfinite(r["tip_error_m"])]
    ours = [r for r in rows if r["code"] == "cosrod"]
    theirs = [r for r in rows if r["code"] == peer]
    if not theirs:
        return "N = %d: goal >= %gx faster than %s: not measured (%s not run)." % (n, factor, peer, peer)
    out = []
    for p in sorted(theirs, key=lambda r: r["cpu_s"]):
        ok = [r for r in ours if r["tip_error_m"] <= p["tip_error_m"]]
        if not ok:
            out.append("  * %s %s (%.2e m, %.2f ms): no cosrod row at that error or better" % (
                peer, p["run"], p["tip_error_m"], 1e3 * p["cpu_s"]))
            continue
        c = min(ok, key=lambda r: r["cpu_s"])
        ratio = p["cpu_s"] / c["cpu_s"]
        solve = p["cpu_s"] / c["solve_s"] if c.get("solve_s") else float("nan")
        out.append("  * %s %s (%.2e m, %.2f ms) vs cosrod %s (%.2e m, %.2f ms process CPU): %.2fx, "
                   "measured/goal = %.2f%s; against cosrod's solve alone (%.2f ms): %.2fx" % (
                       peer, p["run"], p["tip_error_m"], 1e3 * p["cpu_s"], c["run"], c["tip_error_m"],
                       1e3 * c["cpu_s"], ratio, ratio / factor, "" if ratio >= factor else " (missed)",
                       1e3 * c["solve_s"], solve))
    fastest = min(theirs, key=lambda r: r["cpu_s"])
    ok = [r for r in ours if r["tip_error_m"] <= fastest["tip_error_m"]]
    if ok:
        c = min(ok, key=lambda r: r["cpu_s"])
        ratio = fastest["cpu_s"] / c["cpu_s"]
        verdict = ("Verdict (the peer at its largest stable step, as a user runs it): %s %.2f ms at %.2e m vs cosrod "
                   "%s %.2f ms at %.2e m: %.2fx, measured/goal = %.2f -- %s." % (
                       fastest["run"], 1e3 * fastest["cpu_s"], fastest["tip_error_m"], c["run"], 1e3 * c["cpu_s"],
                       c["tip_error_m"], ratio, ratio / factor, "met" if ratio >= factor else
                       "missed: cosrod's cheapest run at that error or better costs %.2f ms of CPU (%.2f ms solve, "
                       "the rest start-up and output), %.0f us per step for %d steps; %s needs %.0f us per step" % (
                           1e3 * c["cpu_s"], 1e3 * c["solve_s"], 1e6 * c["solve_s"] / max(1, c["steps"] or 1),
                           c["steps"] or 0, peer, 1e6 * fastest["cpu_s"] / max(1, fastest["steps"] or 1))))
    else:
        verdict = "Verdict: no cosrod row reaches the error of %s's fastest row." % peer
    out.append(verdict)
    return ("N = %d: goal >= %gx faster than %s at equal or better tip error (model difference N vs 2N: %.1e m); "
            "per %s row, the cheapest cosrod row at an error no larger (the fastest %s row is %s):\n%s"
            % (n, factor, peer, disc, peer, peer, fastest["run"], "\n".join(out)))


def fmt(v, f):
    return "" if v is None or (isinstance(v, float) and not math.isfinite(v)) else f % v


def write(a, table, goals, notes):
    rev = subprocess.run(["sh", "-c", '. "$1/bench/stamp.sh"; bench_stamp "$1"', "sh", ROOT],
                         capture_output=True, text=True).stdout.strip()
    la = os.getloadavg()
    lines = ["# Undamped rubber pendulum: cosrod, MuJoCo and PyElastica in one run", "",
             rev + ", load average %.1f / %.1f / %.1f (2-core machine, shared)." % la, "",
             "bench/peers/pendulum.py: L = 1 m, r = 5 mm, E = 5e6 Pa, nu = 0.5, rho = 1100, pinned start, "
             "free end, gravity, 1 s.  Minimum over %d round-robin repetitions.  cosrod CPU = the whole "
             "`cosrod run` process (start-up, output every 0.01 s); solve = summary.json solver_wall_time.  "
             "Peers: CPU of the time loop alone; set-up = MuJoCo model load / PyElastica numba warm-up.  "
             "Tip error = largest tip distance to cosrod radau5 rtol = atol = 1e-10 at the same N over "
             "the 0.01 s samples.  MuJoCo: composite cable + mujoco.elasticity.cable plugin "
             "(bend E, twist G = E/3), capsule mass rho pi r^2 ds, ball joint at the pin, contacts off.  "
             "PyElastica: CosseratRod, position Verlet, node 0 held (directors free)." % a.reps, ""]
    lines += ["- " + x for x in notes] + ([""] if notes else [])
    lines += ["| N | code | run | status | CPU [ms] | solve [ms] | set-up [ms] | steps | tip error [m] | note |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in table:
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["N"], r["code"], r["run"], r["status"], fmt(r["cpu_s"] and 1e3 * r["cpu_s"], "%.2f"),
            fmt(r["solve_s"] and 1e3 * r["solve_s"], "%.2f"), fmt(r["setup_s"] and 1e3 * r["setup_s"], "%.0f"),
            fmt(r["steps"], "%d"), fmt(r["tip_error_m"], "%.2e"), r["note"]))
    lines += ["", "## Goals (from this run)", ""] + goals
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out_md:
        with open(a.out_md, "w") as f:
            f.write(text)
    if a.out_csv:
        with open(a.out_csv, "w", newline="") as f:
            f.write("# " + rev + "\n")
            w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
            w.writeheader()
            w.writerows(table)


if __name__ == "__main__":
    main()
