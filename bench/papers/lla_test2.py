#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLA] Test 2 (quasistatic, the comparison with ABAQUS C3D8, Figs. 5-6).

The boundary motion is given in the text of [LLA] §4 (not only as a picture):
  x_0(t) = (L/2) t e2,  x_N(t) = L (1 - t/2) e2,
  p_0(t) = slerp(t, q0, q1),  p_N(t) = slerp(t, q0, -q1),  t in [0, 1] (pseudotime)
with q0 = (1 - e1 - e2 - e3)/2, q1 = (1 - e1 + e2 + e3)/2 (scalar first), so
that the end frames turn about e2 by +pi / -pi.  Rod: the rubber rod of
Test 1 (L = 1 m, r = 5e-3 m, E = 5e6, nu = 0.5, rho = 1100, kappa = 1),
N = 10, 25 pseudotime increments as in [LLA].  No gravity in the paper's
sense (its quasistatic balance (31) names no load; the rubber rod's own
weight, w L^3 / EI = 346, would make it hang instead of forming the gamma /
Omega loop of Fig. 5), but an imperfection: gravity 1e-3 m/s^2 along -e3
(w L^3 / EI = 0.035).  Pushing the straight rod's ends together is a
bifurcation (Euler buckling at an end shortening of pi^2 r^2 L = 2.5e-4 m,
t = 2.5e-4): without the imperfection cosrod's continuation stops there
("a limit or bifurcation point"); the paper's predictor-corrector picked a
branch without saying how.  cosrod's static path (analysis.type = static, path: keyframes) with
the orientation keyframes sampled from the slerp formula at every increment.

Checks against the paper's text (its curves are given only as a figure):
symmetry of the solution with respect to the rod's midpoint, and the
centreline at t = 1 lying in the plane x1 = 0.

Writes lla-test2.csv (t, n, x, y, z for n = 0..N), lla-test2-summary.csv and
lla-test2.png (x_0 .. x_5 vs t, as [LLA] Fig. 6).
usage: lla_test2.py COSROD RESULTS_DIR WORK_DIR [N]
"""
import csv
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import commit as git_commit, cosrod_run, pyplot, rows  # noqa: E402

Q0 = np.array([1.0, -1.0, -1.0, -1.0]) / 2
Q1 = np.array([1.0, -1.0, 1.0, 1.0]) / 2


def slerp(t, a, b):
    th = math.acos(max(-1.0, min(1.0, float(np.dot(a, b)))))
    return (math.sin((1 - t) * th) * a + math.sin(t * th) * b) / math.sin(th)


def scenario(path, N, inc):
    ts = [k / inc for k in range(inc + 1)]
    def kf(q1):
        return "[" + ", ".join("[%.6g, %s]" % (t, ", ".join("%.15g" % c for c in slerp(t, Q0, q1))) for t in ts) + "]"
    with open(path, "w") as f:
        f.write(f"""cosrod: 1
title: LLA Test 2, quasistatic gamma / Omega loop
gravity: [0, 0, -1.0e-3]
materials:
  rubber: {{E: 5.0e6, poisson: 0.5, density: 1100}}
rods:
  - name: rod
    model: cosserat
    length: 1.0
    segments: {N}
    material: rubber
    section: {{shape: circle, radius: 5.0e-3}}
    shear_correction: [1.0, 1.0]
    shape: {{type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}}
    ends:
      start:
        type: prescribed
        position: [[0, 0, 0, 0], [1, 0, 0.5, 0]]
        orientation: {kf(Q1)}
      end:
        type: prescribed
        position: [[0, 0, 1, 0], [1, 0, 0.5, 0]]
        orientation: {kf(-Q1)}
analysis: {{type: static, path: keyframes, increments: {inc}}}
output: {{dir: out/lla-test2, every: {1.0 / inc:.6g}, vtk: false, plots: false, fields: [centerline]}}
""")


def main():
    cosrod, res, work = sys.argv[1:4]
    N = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    os.makedirs(work, exist_ok=True)
    yml = os.path.join(work, "lla-test2.yaml")
    scenario(yml, N, 25)
    out = cosrod_run(cosrod, yml, os.path.join(work, "lla-test2"))
    cl = rows(out, "centerline.csv")
    ts = sorted({float(r["t"]) for r in cl})
    X = np.full((len(ts), N + 1, 3), np.nan)
    ti = {t: i for i, t in enumerate(ts)}
    for r in cl:
        X[ti[float(r["t"])], int(r["vertex"])] = [float(r["x"]), float(r["y"]), float(r["z"])]
    with open(os.path.join(res, "lla-test2.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "n", "x", "y", "z"])
        for i, t in enumerate(ts):
            for n in range(N + 1):
                w.writerow([f"{t:.6g}", n] + [f"{v:.9g}" for v in X[i, n]])
    # symmetry of x_{N-n} against x_n: candidate isometries fixing the midpoint (0, L/2, 0)
    mid = np.array([0.0, 0.5, 0.0])
    cands = {"rotation by pi about e1": np.diag([1, -1, -1]), "rotation by pi about e3": np.diag([-1, -1, 1]),
             "reflection y -> L - y": np.diag([1, -1, 1]), "point reflection": -np.eye(3)}
    sym = {k: float(np.nanmax(np.abs(X[:, ::-1] - mid - (X - mid) @ S.T))) for k, S in cands.items()}
    best = min(sym, key=sym.get)
    x1_end = float(np.nanmax(np.abs(X[-1, :, 0])))
    ext = float(np.nanmax(np.abs(X[:, :, 0])))
    with open(os.path.join(res, "lla-test2-summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["quantity", "value", "note"])
        w.writerow(["commit", git_commit(), ""])
        w.writerow(["t_final", f"{ts[-1]:.6g}", f"{len(ts)} output times"])
        for k, v in sym.items():
            w.writerow([f"symmetry defect ({k})", f"{v:.3e}", "max over t, n of |x_(N-n) - S x_n| (m)"])
        w.writerow(["max |x1| at t = 1", f"{x1_end:.3e}", "paper: centreline in the plane x1 = 0 at t = 1"])
        w.writerow(["max |x1| over t", f"{ext:.3e}", "out-of-plane excursion on the way"])
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(13, 4))
    for c, name in enumerate(("x1", "x2", "x3")):
        for n in range(min(6, N + 1)):
            ax[c].plot(ts, X[:, n, c], marker=".", ms=3, label=f"x_{n}")
        ax[c].set_title(f"{name}(t)"), ax[c].set_xlabel("pseudotime t"), ax[c].grid(True, alpha=0.3)
    ax[0].legend(fontsize=7)
    fig.suptitle(f"[LLA] Fig. 6 (Test 2): cosrod N = {N}, 25 increments; symmetry: {best} "
                 f"(defect {sym[best]:.1e} m); max|x1| at t = 1: {x1_end:.1e} m")
    fig.tight_layout()
    fig.savefig(os.path.join(res, "lla-test2.png"), dpi=110)
    print(f"lla_test2: symmetry {best} {sym[best]:.3e}; max|x1|(t=1) {x1_end:.3e}; max|x1| {ext:.3e}")


if __name__ == "__main__":
    main()
