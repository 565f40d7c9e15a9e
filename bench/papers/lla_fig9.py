#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLA] Fig. 9: reference solution at the free end (n = N = 10) of the two
performance examples, RADAU5 with ABSTOL = RELTOL = 1e-10, T = 10 s.

Runs `cosrod run` on examples/perf-rubber.yaml and perf-steel.yaml and writes
the tip centroid x_N(t) and the director d^1(t) of the last segment
(d^1_j = <e^j, d^1>, from the segment quaternion p = (p0, p1, p2, p3),
d^1 = R(p) e^1) every 0.01 s.

usage: lla_fig9.py COSROD EXAMPLES_DIR RESULTS_DIR WORK_DIR [--quick]   (--quick: TOL 1e-6, T = 2 s)
writes lla-fig9.csv and lla-fig9.png into RESULTS_DIR.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cosrod_run, pyplot, rows, tip, tol_sets  # noqa: E402

cosrod, ex, rdir, wdir = sys.argv[1:5]
QUICK = "--quick" in sys.argv[5:]
TOL = "1e-6" if QUICK else "1e-10"  # --quick: the reference at 1e-6 over the first 2 s
res = {}
for name in ("rubber", "steel"):
    out = cosrod_run(cosrod, os.path.join(ex, "perf-%s.yaml" % name), os.path.join(wdir, "fig9-" + name),
                     tol_sets("radau5", TOL, 2000000) + ["output.every=0.01"]
                     + (["analysis.t_end=2"] if QUICK else []))
    tip_h = tip(out)
    fr = rows(out, "frames.csv")
    ns = max(int(r["segment"]) for r in fr)
    d1 = []
    for r in fr:
        if int(r["segment"]) != ns:
            continue
        a, b, c, d = (float(r[k]) for k in ("q0", "q1", "q2", "q3"))
        d1.append((a * a + b * b - c * c - d * d, 2 * (b * c + a * d), 2 * (b * d - a * c)))
    res[name] = (tip_h, d1)
with open(os.path.join(rdir, "lla-fig9.csv"), "w") as f:
    f.write("example,t,xN_1,xN_2,xN_3,d1_1,d1_2,d1_3\n")
    for name, (tip_h, d1) in res.items():
        for (t, x, y, z), (u, v, w) in zip(tip_h, d1):
            f.write("%s,%.4f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n" % (name, t, x, y, z, u, v, w))

plt = pyplot()
fig, ax = plt.subplots(2, 2, figsize=(12, 7), sharex=True)
for i, name in enumerate(("rubber", "steel")):
    tip_h, d1 = res[name]
    t = [p[0] for p in tip_h]
    for j in range(3):
        ax[0][i].plot(t, [p[j + 1] for p in tip_h], label="x_N,%d" % (j + 1))
        ax[1][i].plot(t, [p[j] for p in d1], label="d^1_%d" % (j + 1))
    ax[0][i].set(title="[LLA] Fig. 9, perf-%s: tip x_N(t), radau5 %s" % (name, TOL), ylabel="[m]")
    ax[1][i].set(title="director d^1 of the last segment", xlabel="t [s]")
    for a in (ax[0][i], ax[1][i]):
        a.legend(fontsize=8); a.grid(alpha=.3)
fig.tight_layout(); fig.savefig(os.path.join(rdir, "lla-fig9.png"), dpi=80)
