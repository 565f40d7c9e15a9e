#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLT] Fig. 1: Kelvin-Voigt damped cantilever (examples/kv-cantilever.yaml).

Runs `cosrod run` (T = 30 s) for tau = 0.01, 0.02, 0.04 s (E = 1e6 Pa) and for tau = 0.01 s
with E = 4e6 Pa (preload force x4, so the released shape is the same), reads the
tip displacement x(t) = e1 . phi(L, t), takes its successive maxima x(t_k),
the logarithmic decrements delta_k = ln(x(t_k)/x(t_k+1)) and the damping ratios
zeta_k from delta_k = 2 pi zeta_k / sqrt(1 - zeta_k^2) ([LLT] §3).

usage: llt_fig1.py COSROD SCENARIO RESULTS_DIR WORK_DIR [--quick]   (--quick: T = 6 s instead of 30 s)
writes llt-fig1-tip.csv, llt-fig1-zeta.csv and llt-fig1.png into RESULTS_DIR.
"""
import math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cosrod_run, pyplot, tip  # noqa: E402

cosrod, scen, rdir, wdir = sys.argv[1:5]
T_END = 6 if "--quick" in sys.argv[5:] else 30  # --quick: 3 maxima (2 zeta_k) per run instead of 15
RUNS = [("tau0.01", 0.01, 1.0e6, 0.03), ("tau0.02", 0.02, 1.0e6, 0.03),
        ("tau0.04", 0.04, 1.0e6, 0.03), ("E4e6-tau0.01", 0.01, 4.0e6, 0.12)]


def run(name, tau, E, F):
    out = cosrod_run(cosrod, scen, os.path.join(wdir, name),
                     [f"analysis.t_end={T_END}", f"materials.soft.E={E}",
                      f"rods.0.damping.kelvin_voigt.tau_shear={tau}",
                      f"rods.0.damping.kelvin_voigt.tau_bulk={tau}",
                      f"rods.0.loads.0.value=[{F}, 0, 0]"])
    h = tip(out, ("x",))
    return [p[0] for p in h], [p[1] for p in h]


def zetas(t, x):
    """maxima by parabola through the three samples around each local max > 0"""
    pk = []
    for i in range(1, len(x) - 1):
        if x[i] > 0 and x[i] >= x[i - 1] and x[i] > x[i + 1]:
            a, b, c = x[i - 1], x[i], x[i + 1]
            den = a - 2 * b + c
            d = 0.5 * (a - c) / den if den != 0 else 0.0
            pk.append((t[i] + d * (t[i + 1] - t[i]), b - 0.25 * (a - c) * d))
    out = []
    for (t0, x0), (t1, x1) in zip(pk, pk[1:]):
        dl = math.log(x0 / x1)
        out.append((t0, x0, t1 - t0, dl, dl / math.sqrt(4 * math.pi ** 2 + dl * dl)))
    return out


res = {n: run(n, tau, E, F) for n, tau, E, F in RUNS}
with open(os.path.join(rdir, "llt-fig1-tip.csv"), "w") as f:
    f.write("t," + ",".join(f"x_{n}" for n, *_ in RUNS) + "\n")
    t0 = res[RUNS[0][0]][0]
    for i, t in enumerate(t0):
        f.write(f"{t:.6g}," + ",".join(f"{res[n][1][i]:.9g}" for n, *_ in RUNS) + "\n")
with open(os.path.join(rdir, "llt-fig1-zeta.csv"), "w") as f:
    f.write("run,k,t_k,x_k,period,delta_k,zeta_k\n")
    for n, *_ in RUNS:
        for k, (tk, xk, per, dl, z) in enumerate(zetas(*res[n])):
            f.write(f"{n},{k},{tk:.6g},{xk:.6g},{per:.6g},{dl:.6g},{z:.6g}\n")

plt = pyplot()
fig, ax = plt.subplots(1, 2, figsize=(12, 4.5))
for n, tau, E, F in RUNS:
    t, x = res[n]
    s = 2.0 if E > 1e6 else 1.0
    ax[0].plot([s * v for v in t], x, "--" if s > 1 else "-",
               label=f"E = {E:.0e}, tau = {tau}" + (" (t stretched x2)" if s > 1 else ""))
    z = zetas(t, x)
    ax[1].plot([p[1] for p in z], [p[4] for p in z], "o-", ms=3, label=n)
ax[0].set(xlabel="t [s]", ylabel="tip x(t) = e1 . phi(L,t) [m]",
          title="[LLT] Fig. 1: damped cantilever, tip displacement")
ax[0].legend(fontsize=8); ax[0].grid(alpha=.3)
ax[1].set(xscale="log", xlabel="amplitude x(t_k) [m]", ylabel="damping ratio zeta_k",
          title="zeta_k over the amplitude decay")
ax[1].legend(fontsize=8); ax[1].grid(alpha=.3)
fig.tight_layout(); fig.savefig(os.path.join(rdir, "llt-fig1.png"), dpi=90)
