#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""[L] Example C (Fig. 16, two bodies with a spherical joint and a bushing):
the chaos shown, not asserted.

1. Divergence of nearby trajectories: dop853 at rtol = atol = 1e-13 from
   the given state and from a state with Omega1 perturbed by EPS = 1e-10
   along rho1 (e x rho1 = 0 keeps the joint velocity constraint, so the
   perturbed state is consistent with the same xdot2).  log10 of the
   separation (max norm over x, q, Omega, v of both bodies) vs t and the
   Lyapunov slope by a least-squares line where 1e-8 < separation < 1e-2
   (relative to the solution's max norm).
2. Where the tolerance-converged reference stops converging: dop853 at
   TOL = 1e-10 ... 1e-13; the difference of successive TOLs vs t; the
   reference is "converged" at t while |TOL 1e-12 - TOL 1e-13| < 1e-6 of
   the solution's size.
3. [L] Fig. 16 over that horizon: dopri5 at TOL 1e-3 ... 1e-10 for the five
   formulations of bench/papers/lang_bodies.c at T = T16 = 0.5 s (inside
   the converged horizon), error = max norm of (x, R, v, omega = R Omega)
   of both bodies at T16 against dop853 1e-13.

usage: lang_fig16_chaos.py COSROD EXAMPLES_DIR RESULTS_DIR WORK_DIR [--quick]
writes lang-fig16-chaos.csv, lang-fig16-chaos.png and prints a summary
(also written as comment lines of the csv).  --quick: T = 2 s, references at TOL 1e-12 and 1e-13 only.
"""
import math, os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import commit as git_commit, cosrod_run, pyplot, rows as csv_rows, summary, tol_sets  # noqa: E402

EPS = 1e-10
RHO1 = np.array([1.0, 2.0, -3.0])
OMEGA1 = np.array([3.0, 2.0, 1.0])
COLS = ("x", "y", "z", "q0", "q1", "q2", "q3", "Omega1", "Omega2", "Omega3", "vx", "vy", "vz")


def run(cosrod, ex, wdir, name, tol, t_end, extra=()):
    out = cosrod_run(cosrod, os.path.join(ex, "two-body-joint.yaml"), os.path.join(wdir, "fig16-" + name),
                     tol_sets("dop853", "%g" % tol, 5000000) + ["analysis.t_end=%g" % t_end, "output.every=0.01"]
                     + list(extra))
    rows = csv_rows(out, "bodies.csv")
    t = np.array(sorted({float(r["t"]) for r in rows}))
    y = np.zeros((len(t), 26))
    for r in rows:
        i = int(round(float(r["t"]) / 0.01))
        b = int(r["body"])
        y[i, 13 * b:13 * b + 13] = [float(r[c]) for c in COLS]
    return t, y


FORMS = (("nullspace-quaternion", "nullspace", "quaternion"),
         ("nullspace-directors", "nullspace", "directors"),
         ("absolute-quaternion", "absolute", "quaternion"),
         ("absolute-directors", "absolute", "directors"),
         ("euler-angles", "nullspace", "euler-angles"))
T16 = 0.5


def observe(row):
    """(x, R, v, omega = R Omega) of both bodies from a bodies.csv row."""
    o = []
    for b in (0, 1):
        x, q, Om, v = row[13 * b:13 * b + 3], row[13 * b + 3:13 * b + 7], row[13 * b + 7:13 * b + 10], \
            row[13 * b + 10:13 * b + 13]
        a, i, j, k = q / np.linalg.norm(q)
        R = np.array([[a * a + i * i - j * j - k * k, 2 * (i * j - a * k), 2 * (i * k + a * j)],
                      [2 * (i * j + a * k), a * a - i * i + j * j - k * k, 2 * (j * k - a * i)],
                      [2 * (i * k - a * j), 2 * (j * k + a * i), a * a - i * i - j * j + k * k]])
        o += [x, R.ravel(), v, R @ Om]
    return np.concatenate(o)


def fig16_converged(cosrod, ex, wdir, tols):
    """dopri5 accuracy vs f evaluations at T16 for the five formulations."""
    _, yref = run(cosrod, ex, wdir, "T16ref", 1e-13, T16, ())
    oref = observe(yref[-1])
    rows = []
    for name, form, par in FORMS:
        for tol in tols:
            sets = ("solver.formulation=" + form, "bodies.0.parametrisation=" + par,
                    "bodies.1.parametrisation=" + par, "solver.integrator=dopri5")
            _, y = run(cosrod, ex, wdir, "T16", tol, T16, sets)
            nfev = summary(os.path.join(wdir, "fig16-T16"))["stats"]["nfev"]
            rows.append((name, tol, nfev, float(np.max(np.abs(observe(y[-1]) - oref)))))
    return rows


def main():
    cosrod, ex, rdir, wdir = sys.argv[1:5]
    quick = "--quick" in sys.argv[5:]
    t_end = 2.0 if quick else 4.0
    os.makedirs(wdir, exist_ok=True)
    os.makedirs(rdir, exist_ok=True)
    tols = (1e-12, 1e-13) if quick else (1e-10, 1e-11, 1e-12, 1e-13)
    ref = {tol: run(cosrod, ex, wdir, "tol%g" % tol, tol, t_end) for tol in tols}
    om = OMEGA1 + EPS * RHO1 / np.linalg.norm(RHO1)
    t, y = ref[1e-13]
    _, yp = run(cosrod, ex, wdir, "pert", 1e-13, t_end,
                ("bodies.0.angular_velocity=[%.17g,%.17g,%.17g]" % tuple(om),))
    scale = np.max(np.abs(y))
    sep = np.max(np.abs(yp - y), axis=1) / scale
    dtol = {a: np.max(np.abs(ref[a][1] - ref[b][1]), axis=1) / scale for a, b in zip(tols, tols[1:])}
    # Lyapunov slope: least squares of ln(sep) on 1e-8 < sep < 1e-2
    m = (sep > 1e-8) & (sep < 1e-2)
    lam = np.polyfit(t[m], np.log(sep[m]), 1)[0] if m.sum() > 3 else float("nan")
    d12 = dtol[1e-12]
    bad = np.nonzero(d12 > 1e-6)[0]
    t_conv = t[bad[0]] if len(bad) else t[-1]
    commit = git_commit()
    lines = [
        "commit %s; [L] Example C (examples/two-body-joint.yaml), dop853; separations relative to "
        "the solution's max norm %.4g" % (commit, scale),
        "perturbation |dOmega1| = %g along rho1; Lyapunov slope (ln sep vs t, 1e-8 < sep < 1e-2, "
        "t in [%.2f, %.2f]): %.2f 1/s (x10 in %.2f s)" % (EPS, t[m][0] if m.any() else 0,
                                                          t[m][-1] if m.any() else 0, lam, math.log(10) / lam),
        "reference converged (|TOL 1e-12 - TOL 1e-13| < 1e-6 relative) up to t = %.2f s; "
        "at t_end: %s" % (t_conv, ", ".join("|%g - %g| = %.2e" % (a, b, dtol[a][-1])
                                             for a, b in zip(tols, tols[1:]))),
        "separation of the perturbed run at t = 1, 2, 3, 4: %s" % ", ".join(
            "%.2e" % sep[int(round(s / 0.01))] for s in (1, 2, 3, 4) if s <= t_end),
    ]
    f16 = fig16_converged(cosrod, ex, wdir, (1e-4, 1e-6, 1e-8) if quick else
                          (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10))
    with open(os.path.join(rdir, "lang-fig16-T05.csv"), "w") as f:
        f.write("# commit %s; [L] Fig. 16 at T = %g s (inside the converged horizon), dopri5, "
                "error vs dop853 1e-13\n" % (commit, T16))
        f.write("formulation,tol,nfev,error\n")
        for r in f16:
            f.write("%s,%.0e,%d,%.4e\n" % r)
    with open(os.path.join(rdir, "lang-fig16-chaos.csv"), "w") as f:
        for ln in lines:
            f.write("# " + ln + "\n")
        f.write("t,sep_perturbed," + ",".join("d_tol%g_tol%g" % (a, b) for a, b in zip(tols, tols[1:])) + "\n")
        for i, ti in enumerate(t):
            f.write("%.2f,%.4e,%s\n" % (ti, sep[i], ",".join("%.4e" % dtol[a][i] for a in tols[:-1])))
    print("\n".join(lines))

    plt = pyplot()
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(14, 5))
    for name, _, _ in FORMS:
        rr = [r for r in f16 if r[0] == name]
        ax2.loglog([r[2] for r in rr], [r[3] for r in rr], "o-", ms=3, label=name)
    ax2.set(xlabel="f evaluations", ylabel="max error of (x, R, v, omega) at T",
            title="[L] Fig. 16 at T = %g s (converged horizon), dopri5" % T16)
    ax2.legend(fontsize=7); ax2.grid(alpha=.3)
    ax.semilogy(t, sep + 1e-18, "k", label="perturbed |dOmega1| = 1e-10 vs unperturbed (dop853 1e-13)")
    for a, b in zip(tols, tols[1:]):
        ax.semilogy(t, dtol[a] + 1e-18, lw=.8, label="dop853 TOL %g vs %g" % (a, b))
    if m.any():
        ax.semilogy(t[m], np.exp(np.polyval(np.polyfit(t[m], np.log(sep[m]), 1), t[m])), "r--",
                    label="slope lambda = %.2f 1/s" % lam)
    ax.axvline(t_conv, color="gray", ls=":", label="reference converged up to t = %.2f" % t_conv)
    ax.set(xlabel="t [s]", ylabel="max-norm difference / max |y|",
           title="[L] Example C: divergence of nearby trajectories", ylim=(1e-16, 10))
    ax.legend(fontsize=7); ax.grid(alpha=.3)
    fig.tight_layout(); fig.savefig(os.path.join(rdir, "lang-fig16-chaos.png"), dpi=80)


if __name__ == "__main__":
    main()
