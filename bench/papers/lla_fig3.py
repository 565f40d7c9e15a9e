#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLA] Fig. 3: snapshots of the dynamic Test 1 (rubber pendulum, N = 10):
the centreline centroids x_n(t) and the first directors d^1_{n-1/2}(t).

Runs `cosrod run examples/rubber-pendulum.yaml` (the paper's Test 1: L = 1 m,
r = 5 mm, E = 5e6, nu = 0.5, rho = 1100, kappa = 1, x_0 fixed, gravity, T = 2 s)
and checks the two statements of the caption against the run, over every
output time and segment:
  d^2_{n-1/2}(t) = e^1 (the motion stays in the plane x = 0): max |<e^1, d^2> - 1|
  and max |<e^1, x_n>|;
  d^1 "almost" perpendicular to the tangent Delta x_{n-1/2}: max |<d^1, t>| with
  t = Delta x / |Delta x| (the sine of the shear angle).

usage: lla_fig3.py COSROD EXAMPLES_DIR RESULTS_DIR WORK_DIR [--quick]   (--quick: T = 1 s)
writes lla-fig3.csv (snapshots), lla-fig3-checks.csv and lla-fig3.png into RESULTS_DIR.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import commit, cosrod_run, pyplot, rows  # noqa: E402

cosrod, ex, rdir, wdir = sys.argv[1:5]
T_END = 1.0 if "--quick" in sys.argv[5:] else 2.0
SNAP = 0.1  # time between snapshots [s]

out = cosrod_run(cosrod, os.path.join(ex, "rubber-pendulum.yaml"), os.path.join(wdir, "fig3"),
                 ["analysis.t_end=%g" % T_END, "output.every=0.01"])
x = {}  # t -> list of vertex positions
for r in rows(out, "centerline.csv"):
    x.setdefault(round(float(r["t"]), 6), {})[int(r["vertex"])] = tuple(float(r[c]) for c in "xyz")
d1, d2 = {}, {}  # t -> list of directors per segment
for r in rows(out, "frames.csv"):
    a, b, c, d = (float(r[k]) for k in ("q0", "q1", "q2", "q3"))
    t = round(float(r["t"]), 6)
    d1.setdefault(t, {})[int(r["segment"])] = (a * a + b * b - c * c - d * d, 2 * (b * c + a * d),
                                               2 * (b * d - a * c))
    d2.setdefault(t, {})[int(r["segment"])] = (2 * (b * c - a * d), a * a - b * b + c * c - d * d,
                                               2 * (c * d + a * b))

times = sorted(x)
dev_d2 = dev_x1 = shear = 0.0
worst = (0.0, 0, 0)
for t in times:
    xs = [x[t][n] for n in sorted(x[t])]
    dev_x1 = max(dev_x1, max(abs(p[0]) for p in xs))
    for s in sorted(d1.get(t, {})):
        dev_d2 = max(dev_d2, abs(d2[t][s][0] - 1.0))
        p, q = xs[s], xs[s + 1]
        dx = [q[i] - p[i] for i in range(3)]
        ln = math.sqrt(sum(v * v for v in dx))
        c = abs(sum(d1[t][s][i] * dx[i] for i in range(3))) / ln
        if c > shear:
            shear, worst = c, (c, t, s)

with open(os.path.join(rdir, "lla-fig3.csv"), "w") as f:
    f.write("# commit %s; bench/papers/lla_fig3.py; examples/rubber-pendulum.yaml, T = %g s\n" % (commit(), T_END))
    f.write("t,kind,index,x1,x2,x3\n")
    for t in times:
        if abs(t / SNAP - round(t / SNAP)) > 1e-6:
            continue
        for n in sorted(x[t]):
            f.write("%.2f,x,%d,%.9g,%.9g,%.9g\n" % (t, n, *x[t][n]))
        for s in sorted(d1.get(t, {})):
            f.write("%.2f,d1,%d,%.9g,%.9g,%.9g\n" % (t, s, *d1[t][s]))
with open(os.path.join(rdir, "lla-fig3-checks.csv"), "w") as f:
    f.write("# commit %s; [LLA] Fig. 3 caption against the run (all output times, all segments)\n" % commit())
    f.write("check,paper,measured\n")
    f.write("max |<e1,d2> - 1|,0 (d2 = e1),%.3g\n" % dev_d2)
    f.write("max |<e1,x_n>| [m],0 (planar motion),%.3g\n" % dev_x1)
    f.write("max |<d1,tangent>| (sine of the shear angle),small ('almost perpendicular'),%.3g\n" % shear)
    f.write("  worst at t [s] / segment,,%.2f / %d\n" % (worst[1], worst[2]))
print("d2 = e1 to %.2g, planar to %.2g m, max sin(shear) %.3g at t = %.2f s, segment %d"
      % (dev_d2, dev_x1, shear, worst[1], worst[2]))

plt = pyplot()
fig, ax = plt.subplots(figsize=(8, 6))
cmap = plt.get_cmap("viridis")
snaps = [t for t in times if abs(t / SNAP - round(t / SNAP)) < 1e-6]
for k, t in enumerate(snaps):
    col = cmap(k / max(1, len(snaps) - 1))
    xs = [x[t][n] for n in sorted(x[t])]
    ax.plot([p[1] for p in xs], [p[2] for p in xs], "o-", color=col, ms=3, lw=1,
            label="t = %.1f s" % t if k % 2 == 0 else None)
    for s in sorted(d1.get(t, {})):
        m = [(xs[s][i] + xs[s + 1][i]) / 2 for i in range(3)]
        ax.plot([m[1], m[1] + 0.05 * d1[t][s][1]], [m[2], m[2] + 0.05 * d1[t][s][2]], "-", color=col, lw=0.8)
ax.set(xlabel="x_2 = y [m]", ylabel="x_3 = z [m]", aspect="equal",
       title="[LLA] Fig. 3: Test 1 snapshots every %.1f s, x_n and d^1 (N = 10)\n"
             "max |<d1, tangent>| = %.3g, |<e1, d2> - 1| <= %.1g" % (SNAP, shear, dev_d2))
ax.legend(fontsize=7, loc="lower left")
ax.grid(alpha=.3)
fig.tight_layout()
fig.savefig(os.path.join(rdir, "lla-fig3.png"), dpi=80)
