#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[LLA] Test 1 (rubber pendulum, the paper's comparison with ABAQUS B31,
Figs. 3-4), checked independently:

 (a) cosrod's tip history x_N(t) for N = 10, 20, 40, 80, 160 segments (dopri5,
     rtol = atol = 1e-10, so the time error is far below the space error),
     its observed order p = log2(|T_N - T_2N| / |T_2N - T_4N|) in the max
     norm over t (over [0, T] for several T), and the Richardson limit
     T_inf = T_160 + (T_160 - T_80)/(2^2 - 1);
 (b) a second, independent discretisation (bench/papers/reissner2d.py: planar
     Reissner beam, nodal angles, linear elements with reduced integration,
     lumped masses; scipy DOP853 rtol = atol = 1e-10) at M = 10 ... 160
     elements, with its own order and Richardson limit.
 Both discretisations are second order in space, so their limits must agree
 to well below their N = 160 errors.

Writes lla-test1.csv (t, tip y/z of every run and both limits),
lla-test1-summary.csv (max-norm differences) and lla-test1.png.

usage: lla_test1.py COSROD EXAMPLES_DIR RESULTS_DIR WORK_DIR [--quick]
--quick: N = M = 10, T = 0.25 s, rtol = atol = 1e-6 (smoke run: cosrod against reissner2d at
the same N; no order, no extrapolation: reissner2d in Python costs ~7e4 f-evaluations per
0.5 s at 1e-8, ~20 s of wall time per N).
"""
import csv, math, os, sys, time
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reissner2d import rubber_pendulum  # noqa: E402
from benchlib import commit as git_commit, cosrod_run, pyplot, tip  # noqa: E402

T_END, EVERY = 2.0, 0.01
TOL = 1e-10  # both time integrators (--quick: 1e-6, far below the N = 10 difference of ~1e-2 m)
P_RICH = 2.0


def cosrod_tip(cosrod, ex, wdir, N, t_end):
    out = cosrod_run(cosrod, os.path.join(ex, "rubber-pendulum.yaml"), os.path.join(wdir, "test1-N%d" % N),
                     ["rods.0.segments=%d" % N, "analysis.t_end=%g" % t_end, "solver.rtol=%g" % TOL,
                      "solver.atol=%g" % TOL, "solver.max_steps=5000000", "output.every=%g" % EVERY])
    h = np.array(tip(out, ("y", "z")))
    return h[:, 0], h[:, 1], h[:, 2]


def order_and_limit(runs, levels):
    """Observed orders over consecutive triples (max norm over t of the tip
    vector difference) and the Richardson limit from the finest pair with
    the theoretical order P_RICH = 2 of both discretisations (observed on
    [0, 1.5] s; the full-horizon order is spoilt by the tip whip at t ~ 1.96
    s, which the finest levels have not resolved yet)."""
    d = [np.max(np.hypot(runs[b][0] - runs[a][0], runs[b][1] - runs[a][1]))
         for a, b in zip(levels, levels[1:])]
    p = [math.log2(d[i] / d[i + 1]) for i in range(len(d) - 1)]
    if not p:
        return d, p, None
    f = 1.0 / (2.0 ** P_RICH - 1.0)
    hi, lo = runs[levels[-1]], runs[levels[-2]]
    return d, p, (hi[0] + f * (hi[0] - lo[0]), hi[1] + f * (hi[1] - lo[1]))


def maxdist(a, b):
    return float(np.max(np.hypot(a[0] - b[0], a[1] - b[1])))


def main():
    global TOL
    cosrod, ex, rdir, wdir = sys.argv[1:5]
    quick = "--quick" in sys.argv[5:]
    if quick:
        TOL = 1e-6
    levels = [10] if quick else [10, 20, 40, 80, 160]
    t_end = 0.25 if quick else T_END
    os.makedirs(wdir, exist_ok=True)
    os.makedirs(rdir, exist_ok=True)
    tgrid = np.round(np.arange(0.0, t_end + EVERY / 2, EVERY), 10)
    cos, fe, info = {}, {}, {}
    for N in levels:
        t0 = time.time()
        t, y, z = cosrod_tip(cosrod, ex, wdir, N, t_end)
        if len(t) != len(tgrid) or np.max(np.abs(t - tgrid)) > 1e-9:
            sys.exit("lla_test1: cosrod output times differ from the grid")
        cos[N] = (y, z)
        t1 = time.time()
        _, fy, fz, nfev = rubber_pendulum(N).solve(t_end, tgrid, method="DOP853",
                                                   rtol=TOL, atol=TOL)
        fe[N] = (fy, fz)
        info[N] = (t1 - t0, time.time() - t1, nfev)
        print("N = M = %d: cosrod %.1f s, reissner2d %.1f s (%d f)" % (N, *info[N]), flush=True)
    dc, pc, limc = order_and_limit(cos, levels)
    df, pf, limf = order_and_limit(fe, levels)

    commit = git_commit()
    with open(os.path.join(rdir, "lla-test1.csv"), "w") as f:
        f.write("# commit %s; [LLA] Test 1 tip x_N(t) = (0, y, z); bench/papers/lla_test1.py\n" % commit)
        cols = ["t"] + ["cosrod_N%d_%s" % (N, c) for N in levels for c in "yz"] \
            + ["reissner2d_M%d_%s" % (N, c) for N in levels for c in "yz"]
        if limc:
            cols += ["cosrod_rich_y", "cosrod_rich_z", "reissner2d_rich_y", "reissner2d_rich_z"]
        f.write(",".join(cols) + "\n")
        for i, t in enumerate(tgrid):
            row = [t] + [cos[N][c][i] for N in levels for c in (0, 1)] \
                + [fe[N][c][i] for N in levels for c in (0, 1)]
            if limc:
                row += [limc[0][i], limc[1][i], limf[0][i], limf[1][i]]
            f.write(",".join("%.10g" % v for v in row) + "\n")

    rows = []
    for N in levels:
        r = {"N": N, "cosrod_s": "%.1f" % info[N][0], "reissner2d_s": "%.1f" % info[N][1],
             "reissner2d_nfev": info[N][2], "cosrod_vs_reissner2d_sameN": "%.3e" % maxdist(cos[N], fe[N])}
        if limc:
            r["cosrod_vs_own_limit"] = "%.3e" % maxdist(cos[N], limc)
            r["cosrod_vs_reissner2d_limit"] = "%.3e" % maxdist(cos[N], limf)
            r["reissner2d_vs_own_limit"] = "%.3e" % maxdist(fe[N], limf)
        rows.append(r)
    with open(os.path.join(rdir, "lla-test1-summary.csv"), "w") as f:
        f.write("# commit %s; max over t in [0, %g] of |tip difference| [m]\n" % (commit, t_end))
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader(); w.writerows(rows)
        f.write("# successive max differences cosrod: %s; observed orders: %s\n"
                % (" ".join("%.3e" % v for v in dc), " ".join("%.2f" % v for v in pc)))
        f.write("# successive max differences reissner2d: %s; observed orders: %s\n"
                % (" ".join("%.3e" % v for v in df), " ".join("%.2f" % v for v in pf)))
        if limc:
            f.write("# |cosrod limit - reissner2d limit| max over t: %.3e m\n" % maxdist(limc, limf))
        for T in [w for w in (0.5, 1.0, 1.5, 1.75, 2.0) if w <= t_end]:
            m = tgrid <= T + 1e-9
            for name, R in (("cosrod", cos), ("reissner2d", fe)):
                d = [float(np.max(np.hypot(R[b][0][m] - R[a][0][m], R[b][1][m] - R[a][1][m])))
                     for a, b in zip(levels, levels[1:])]
                f.write("# window [0, %g]: %s successive differences %s, orders %s\n" % (
                    T, name, " ".join("%.2e" % v for v in d),
                    " ".join("%.2f" % math.log2(d[i] / d[i + 1]) for i in range(len(d) - 1))))
            if limc:
                f.write("# window [0, %g]: |cosrod limit - reissner2d limit| = %.2e m, |cosrod N=10 - "
                        "reissner2d limit| = %.2e m\n" % (T, maxdist((limc[0][m], limc[1][m]), (limf[0][m], limf[1][m])),
                                                          maxdist((cos[10][0][m], cos[10][1][m]), (limf[0][m], limf[1][m]))))
    print(open(os.path.join(rdir, "lla-test1-summary.csv")).read())

    plot(rdir, tgrid, levels, cos, fe, limc, limf)


def plot(rdir, tgrid, levels, cos, fe, limc, limf):
    plt = pyplot()
    fig, ax = plt.subplots(3, 1, figsize=(10, 10), sharex=True)
    for k, lab in enumerate(("x_2 = y", "x_3 = z")):
        for N in levels:
            ax[k].plot(tgrid, cos[N][k], lw=.8, label="cosrod N=%d" % N)
        ax[k].plot(tgrid, fe[levels[-1]][k], "k--", lw=.8, label="reissner2d M=%d" % levels[-1])
        if limc:
            ax[k].plot(tgrid, limc[k], "r:", lw=1.2, label="cosrod Richardson N->inf")
        ax[k].set(ylabel="tip %s [m]" % lab)
        ax[k].legend(fontsize=7, ncol=3); ax[k].grid(alpha=.3)
    ax[0].set_title("[LLA] Test 1 (Fig. 4): rubber pendulum tip, cosrod vs an independent planar Reissner FE beam")
    ref = limf if limf else fe[levels[-1]]
    for N in levels:
        ax[2].semilogy(tgrid, np.hypot(cos[N][0] - ref[0], cos[N][1] - ref[1]) + 1e-16,
                       lw=.8, label="|cosrod N=%d - reissner2d %s|" % (N, "limit" if limf else "M=%d" % levels[-1]))
    if limc:
        ax[2].semilogy(tgrid, np.hypot(limc[0] - limf[0], limc[1] - limf[1]) + 1e-16, "k", lw=1.2,
                       label="|cosrod limit - reissner2d limit|")
    ax[2].set(xlabel="t [s]", ylabel="tip distance [m]"); ax[2].legend(fontsize=7); ax[2].grid(alpha=.3)
    fig.tight_layout(); fig.savefig(os.path.join(rdir, "lla-test1.png"), dpi=80)


if __name__ == "__main__":
    main()
