#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bench suite of `solver.integrator: auto` against every fixed method.

Usage: bench/auto/run.py CLI [OUT.csv] [--repeats 3] [--cap 60]
       [--only NAME,...] [--methods auto,radau5,...] [--refdir DIR]

For every scenario: a converged reference (the method and tolerance of
REF below), then auto and every fixed method, each run with the scenario's
own tolerances and `--set solver.integrator=M`, output reduced to the tip
(`fields: [tip]`, no steps.csv, no VTK, no plots).  Time = user + system CPU
of the `cosrod run` process (os.wait4; the machine is shared, CPU time is
what a run costs), minimum over --repeats runs taken round-robin over the
methods (a slow drift of the load hits all alike); a run over --cap CPU
seconds is stopped (RLIMIT_CPU) and reported as "cap".  Error = largest
distance of any rod end (bodies-only: the bodies' centres) to the reference
over the common output times; the pulsed cantilever also gets f1 from the
tip's zero crossings.  One CSV row per run, then a summary per scenario.
"""
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples")
SC = os.path.join(ROOT, "bench", "auto", "scenarios")
FIXED = ["radau5", "rodas", "seulex", "dopri5", "dop853", "odex", "ida", "cvode", "galpha"]

# name: (file, extra --set, reference (method, rtol, atol, extra sets))
SCEN = {
    "perf-rubber": (os.path.join(EX, "perf-rubber.yaml"), [],
                    ("radau5", 1e-9, 1e-9, [])),
    "perf-steel": (os.path.join(EX, "perf-steel.yaml"), [],
                   ("radau5", 1e-9, 1e-9, [])),
    "cantilever-pulse": (os.path.join(SC, "cantilever-pulse.yaml"), [],
                         ("galpha", 1e-4, 1e-6, ["solver.h=2e-5", "solver.rho_inf=0.5"])),
    "cable-box": (os.path.join(SC, "cable-box.yaml"), [],
                  ("radau5", 1e-8, 1e-8, [])),
    "rubber-N10": (os.path.join(SC, "rubber-pendulum.yaml"), ["rods.0.segments=10"],
                   ("radau5", 1e-10, 1e-10, [])),
    "rubber-N100": (os.path.join(SC, "rubber-pendulum.yaml"), ["rods.0.segments=100"],
                    ("radau5", 1e-9, 1e-9, [])),
    "steel-string": (os.path.join(EX, "perf-steel.yaml"), ["analysis.t_end=1", "rods.0.segments=100"],
                     ("radau5", 1e-9, 1e-9, [])),
    "kirchhoff": (os.path.join(EX, "steel-cantilever.yaml"), [],
                  ("radau5", 1e-10, 1e-12, [])),
    "kirchhoff-N40": (os.path.join(EX, "steel-cantilever.yaml"), ["rods.0.segments=40"],
                      ("dop853", 1e-9, 1e-12, [])),
    "kirchhoff-kv": (os.path.join(EX, "steel-cantilever.yaml"),
                     ["rods.0.damping.kelvin_voigt.tau_shear=1e-3", "rods.0.damping.kelvin_voigt.tau_bulk=1e-3"],
                     ("radau5", 1e-10, 1e-12, [])),
    "heavy-top": (os.path.join(EX, "heavy-top.yaml"), ["analysis.t_end=10"],
                  ("dop853", 1e-12, 1e-12, [])),
    "static": (os.path.join(EX, "catenary-static.yaml"), [], None),
}


def run(cli, path, sets, outdir, cap):
    args = [cli, "run", path, "-o", outdir, "-q", "--set", "output.fields=[tip]", "--set", "output.steps=false",
            "--set", "output.vtk=false", "--set", "output.plots=false"]
    for s in sets:
        args += ["--set", s]

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 1))

    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = status
    cpu = ru.ru_utime + ru.ru_stime
    res = {"cpu": cpu, "status": "cap", "chosen": "", "reason": "", "stderr": err.strip()}
    try:
        with open(os.path.join(outdir, "summary.json")) as f:
            j = json.load(f)
    except (OSError, ValueError):
        return res
    sol = j.get("solver", {})
    res.update(status=j.get("status", "?"), chosen=sol.get("chosen", ""), reason=sol.get("reason", ""),
               switches=len(sol.get("switches", [])), t_reached=j.get("t_reached"),
               nsteps=j.get("stats", {}).get("nsteps", 0), solver_wall=j.get("stats", {}).get("solver_wall_time"))
    res["tips"] = read_tips(outdir)
    return res


def read_tips(outdir):
    tips = {}
    name = os.path.join(outdir, "tip.csv")
    if os.path.exists(name):
        for r in csv.DictReader(open(name)):
            if r.get("end", "1") != "1":
                continue
            key = (round(float(r["t"]), 9), r.get("rod", "0"))
            tips[key] = (float(r["x"]), float(r["y"]), float(r["z"]))
    name = os.path.join(outdir, "bodies.csv")
    if not tips and os.path.exists(name):
        for r in csv.DictReader(open(name)):
            tips[(round(float(r["t"]), 9), r["body"])] = (float(r["x"]), float(r["y"]), float(r["z"]))
    return tips


def tip_error(tips, ref):
    e, n = 0.0, 0
    for k, p in tips.items():
        q = ref.get(k)
        if q is not None:
            e = max(e, sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5)
            n += 1
    return e if n else float("nan")


def f1_crossings(tips):
    """First frequency from the tip z(t)'s upward crossings of its mean (t >= 0.1 s),
    counted only after z went below mean - A/2 (hysteresis against the higher modes)."""
    ts = sorted(k[0] for k in tips if k[0] >= 0.1)
    if len(ts) < 10:
        return float("nan")
    z = [tips[(t, "0")][2] for t in ts]
    m = sum(z) / len(z)
    amp = max(abs(x - m) for x in z)
    cr, armed = [], False
    for i in range(1, len(ts)):
        a, b = z[i - 1] - m, z[i] - m
        if a < -0.5 * amp:
            armed = True
        if armed and a < 0 <= b:
            cr.append(ts[i - 1] + (ts[i] - ts[i - 1]) * (-a) / (b - a))
            armed = False
    return (len(cr) - 1) / (cr[-1] - cr[0]) if len(cr) > 2 else float("nan")


def main():
    a = sys.argv[1:]
    cli = os.path.abspath(a.pop(0))
    out = sys.stdout
    repeats, cap, only, methods, refdir = 3, 60, None, ["auto"] + FIXED, None
    while a:
        x = a.pop(0)
        if x == "--repeats":
            repeats = int(a.pop(0))
        elif x == "--cap":
            cap = int(a.pop(0))
        elif x == "--only":
            only = a.pop(0).split(",")
        elif x == "--methods":
            methods = a.pop(0).split(",")
        elif x == "--refdir":  # keep (and reuse) the references there
            refdir = a.pop(0)
        else:
            out = open(x, "w")
    tmp = tempfile.mkdtemp()
    w = csv.writer(out)
    w.writerow(["scenario", "method", "rep", "status", "cpu_s", "error_m", "f1_hz", "nsteps", "chosen", "reason",
                "switches"])
    out.flush()
    for name, (path, sets, ref) in SCEN.items():
        if only and name not in only:
            continue
        reft = {}
        if ref:
            m, rt, at, ex = ref
            rd = os.path.join(refdir or tmp, name + "-ref")
            if refdir and os.path.exists(os.path.join(rd, "summary.json")):
                r = {"status": "reused", "cpu": 0.0, "tips": read_tips(rd)}
            else:
                r = run(cli, path, sets + ["solver.integrator=" + m, "solver.rtol=%g" % rt, "solver.atol=%g" % at,
                                           "solver.max_steps=5000000"] + ex, rd, 3600)
            reft = r.get("tips", {})
            w.writerow([name, "ref:%s/%g" % (m, rt), 0, r["status"], "%.3f" % r["cpu"], 0,
                        "%.5g" % f1_crossings(reft) if name == "cantilever-pulse" else "", r.get("nsteps", ""),
                        "", "", ""])
            out.flush()
        ms = methods if ref else [m for m in methods if m in ("auto", "radau5")]
        dead = set()
        for rep in range(repeats):
            for m in ms:
                if m in dead:
                    continue
                r = run(cli, path, sets + ["solver.integrator=" + m], os.path.join(tmp, name + "-" + m), cap)
                tips = r.get("tips", {})
                err = tip_error(tips, reft) if ref else float("nan")
                f1 = f1_crossings(tips) if name == "cantilever-pulse" and tips else float("nan")
                w.writerow([name, m, rep, r["status"], "%.3f" % r["cpu"], "%.3g" % err, "%.5g" % f1,
                            r.get("nsteps", ""), r["chosen"], r["reason"].replace(",", ";"), r.get("switches", "")])
                out.flush()
                if r["status"] != "ok":
                    dead.add(m)  # a failure or the cap: not repeated
                    if r["status"] == "cap" or r["stderr"]:
                        sys.stderr.write("%s %s: %s\n" % (name, m, r["stderr"][-300:]))


if __name__ == "__main__":
    main()
