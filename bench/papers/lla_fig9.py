#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLA] Fig. 9: reference solution at the free end (n = N = 10) of the two
performance examples, RADAU5 with ABSTOL = RELTOL = 1e-10, T = 10 s.

Runs `cosrod run` on examples/perf-rubber.yaml and perf-steel.yaml and writes
the tip centroid x_N(t) and the director d^1(t) of the last segment
(d^1_j = <e^j, d^1>, from the segment quaternion p = (p0, p1, p2, p3),
d^1 = R(p) e^1) every 0.01 s.

usage: lla_fig9.py COSROD EXAMPLES_DIR RESULTS_DIR WORK_DIR
writes lla-fig9.csv and lla-fig9.png into RESULTS_DIR.
"""
import csv, os, subprocess, sys

cosrod, ex, rdir, wdir = sys.argv[1:5]
res = {}
for name in ("rubber", "steel"):
    out = os.path.join(wdir, "fig9-" + name)
    subprocess.run([cosrod, "run", os.path.join(ex, "perf-%s.yaml" % name), "-o", out,
                    "--set", "solver.integrator=radau5", "--set", "solver.rtol=1e-10",
                    "--set", "solver.atol=1e-10", "--set", "solver.max_steps=2000000",
                    "--set", "output.every=0.01",
                    "--set", "output.vtk=false", "--set", "output.plots=false"],
                   check=True, stdout=subprocess.DEVNULL)
    cl = list(csv.DictReader(open(os.path.join(out, "centerline.csv"))))
    nv = max(int(r["vertex"]) for r in cl)
    tip = [(float(r["t"]), float(r["x"]), float(r["y"]), float(r["z"])) for r in cl if int(r["vertex"]) == nv]
    fr = list(csv.DictReader(open(os.path.join(out, "frames.csv"))))
    ns = max(int(r["segment"]) for r in fr)
    d1 = []
    for r in fr:
        if int(r["segment"]) != ns:
            continue
        a, b, c, d = (float(r[k]) for k in ("q0", "q1", "q2", "q3"))
        d1.append((a * a + b * b - c * c - d * d, 2 * (b * c + a * d), 2 * (b * d - a * c)))
    res[name] = (tip, d1)
with open(os.path.join(rdir, "lla-fig9.csv"), "w") as f:
    f.write("example,t,xN_1,xN_2,xN_3,d1_1,d1_2,d1_3\n")
    for name, (tip, d1) in res.items():
        for (t, x, y, z), (u, v, w) in zip(tip, d1):
            f.write("%s,%.4f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n" % (name, t, x, y, z, u, v, w))

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, ax = plt.subplots(2, 2, figsize=(12, 7), sharex=True)
for i, name in enumerate(("rubber", "steel")):
    tip, d1 = res[name]
    t = [p[0] for p in tip]
    for j in range(3):
        ax[0][i].plot(t, [p[j + 1] for p in tip], label="x_N,%d" % (j + 1))
        ax[1][i].plot(t, [p[j] for p in d1], label="d^1_%d" % (j + 1))
    ax[0][i].set(title="[LLA] Fig. 9, perf-%s: tip x_N(t), radau5 1e-10" % name, ylabel="[m]")
    ax[1][i].set(title="director d^1 of the last segment", xlabel="t [s]")
    for a in (ax[0][i], ax[1][i]):
        a.legend(fontsize=8); a.grid(alpha=.3)
fig.tight_layout(); fig.savefig(os.path.join(rdir, "lla-fig9.png"), dpi=80)
