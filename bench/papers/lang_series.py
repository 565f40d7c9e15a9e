# SPDX-License-Identifier: Apache-2.0
"""[L] Figs. 6 and 8-12 from bench/papers/lang_series (one run per curve).

Writes to OUT: lang-fig6.csv/.png (drift-off of g, gdot, Example A, radau5
1e-9, no projection), lang-fig8/9 (dopri5 step sizes, Examples A/B, all five
formulations), lang-fig10 (total energy, Example A with Omega(0) = (0,0,500),
dopri5), lang-fig11/12 (solution d1..d3, Omega of Examples A/B) and
lang-series-summary.csv (one line of measured numbers per figure).
Usage: python3 bench/papers/lang_series.py BUILD/bench/papers/lang_series EXAMPLES OUT [--quick]
--quick: Example A over T = 5 s instead of 60 s, Example B over 2 s instead of 4 s, Fig. 10 at TOL 1e-4 only.
"""
import csv
import io
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FORMS = [("nullspace", "quaternion"), ("nullspace", "directors"), ("absolute", "quaternion"),
         ("absolute", "directors"), ("nullspace", "euler-angles")]


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def label(form, par):
    return "Euler angles" if par == "euler-angles" else f"{form} {par}"


def run(exe, yaml, form, par, method, tol, project, dt, sets=()):
    cmd = [exe, yaml, form, par, method, str(tol), str(project), str(dt)]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    cols = {k: [float(x[k]) for x in rows] for k in (rows[0].keys() if rows else [])}
    # the run's log line names the scenario: relative to the repository, so that the
    # summary does not depend on where the clone lives
    rel = os.path.relpath(yaml, ROOT) if os.path.isabs(yaml) else yaml
    return cols, r.stderr.strip().replace(yaml, rel), " ".join(cmd[1:])


def write(path, header, table):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(table)


def main():
    exe, ex, out = sys.argv[1:4]
    quick = "--quick" in sys.argv
    A, B = f"{ex}/heavy-top.yaml", f"{ex}/tennis-racket.yaml"
    TA = 5.0 if quick else 60.0
    TB = 2.0 if quick else 4.0
    summary = []
    # Fig. 6: drift-off, radau5 1e-9, unprojected
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    tab = []
    for form, par in FORMS[:4]:
        c, log, cmd = run(exe, A, form, par, "radau5", 1e-9, 0, TA / 600, [f"analysis.t_end={TA}"])
        gi = [max(abs(a), abs(b)) for a, b in zip(c["g_int"], c["g_joint"])]
        gd = [max(abs(a), abs(b)) for a, b in zip(c["gd_int"], c["gd_joint"])]
        ax[0].semilogy(c["t"], [max(v, 1e-17) for v in gi], label=label(form, par))
        ax[1].semilogy(c["t"], [max(v, 1e-17) for v in gd], label=label(form, par))
        tab += [[label(form, par), t, a, b] for t, a, b in zip(c["t"], gi, gd)]
        summary.append(["fig6", label(form, par), f"max|g| {max(gi):.2e}, max|gdot| {max(gd):.2e} at T={TA}", log])
    for a, t in zip(ax, ("|g| (joint and rotation constraints)", "|dg/dt|")):
        a.set_xlabel("t [s]"), a.set_title(t), a.grid(True, which="both", alpha=0.3)
    ax[0].legend(fontsize=8)
    fig.suptitle("[L] Fig. 6: drift-off, Example A, radau5 TOL 1e-9, no projection")
    fig.tight_layout(), fig.savefig(f"{out}/lang-fig6.png", dpi=110), plt.close(fig)
    write(f"{out}/lang-fig6.csv", ["formulation", "t", "g", "gdot"], tab)
    # Figs. 8, 9: dopri5 step sizes
    for name, yaml, T, sets in (("fig8", A, TA, [f"analysis.t_end={TA}"]),
                                ("fig9", B, TB, [f"analysis.t_end={TB}"])):
        fig, ax = plt.subplots(figsize=(8, 4.5))
        tab = []
        for form, par in FORMS:
            c, log, cmd = run(exe, yaml, form, par, "dopri5", 1e-6, 1, 0.0, sets)
            ax.semilogy(c["t"][1:], c["h"][1:], lw=0.8, label=label(form, par))
            tab += [[label(form, par), t, h] for t, h in zip(c["t"][1:], c["h"][1:])]
            hs = sorted(c["h"][1:])
            summary.append([name, label(form, par), f"{len(hs)} steps, median h {hs[len(hs) // 2]:.3e}", log])
        ax.set_xlabel("t [s]"), ax.set_ylabel("h [s]"), ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"[L] Fig. {name[3:]}: dopri5 step sizes, Example {'A' if yaml == A else 'B'}, TOL 1e-6")
        fig.tight_layout(), fig.savefig(f"{out}/lang-{name}.png", dpi=110), plt.close(fig)
        write(f"{out}/lang-{name}.csv", ["formulation", "t", "h"], tab)
    # Fig. 10: total energy, Omega(0) = (0, 0, 500)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    tab = []
    for tol in ((1e-4,) if quick else (1e-4, 1e-6)):
        for form, par in FORMS[:4]:
            c, log, cmd = run(exe, A, form, par, "dopri5", tol, 1, TA / 1000,
                              [f"analysis.t_end={TA}", "bodies.0.angular_velocity=[0, 0, 500]"])
            if not c:
                summary.append(["fig10", f"{label(form, par)} TOL {tol:g}", "failed", log])
                continue
            e0 = c["energy"][0]
            de = [(e - e0) / abs(e0) for e in c["energy"]]
            ax.plot(c["t"], de, lw=0.9, ls="-" if tol == 1e-4 else "--", label=f"{label(form, par)}, TOL {tol:g}")
            tab += [[label(form, par), tol, t, e] for t, e in zip(c["t"], c["energy"])]
            summary.append(["fig10", f"{label(form, par)} TOL {tol:g}",
                            f"E0 {e0:.6e} J, max|E-E0|/E0 {max(abs(x) for x in de):.2e}, end {de[-1]:.2e}", log])
    ax.set_yscale("symlog", linthresh=1e-10)
    ax.set_xlabel("t [s]"), ax.set_ylabel("(E - E0)/E0"), ax.grid(True, alpha=0.3), ax.legend(fontsize=7)
    ax.set_title("[L] Fig. 10: total energy, Example A, dopri5, Omega(0) = (0, 0, 500)")
    fig.tight_layout(), fig.savefig(f"{out}/lang-fig10.png", dpi=110), plt.close(fig)
    write(f"{out}/lang-fig10.csv", ["formulation", "tol", "t", "energy"], tab)
    # Figs. 11, 12: the solutions (reference accuracy, dop853 1e-11)
    for name, yaml, T, sets in (("fig11", A, TA, [f"analysis.t_end={TA}"]),
                                ("fig12", B, TB, [f"analysis.t_end={TB}"])):
        c, log, cmd = run(exe, yaml, "nullspace", "quaternion", "dop853", 1e-11, 1, T / 2000, sets)
        fig, ax = plt.subplots(2, 2, figsize=(11, 7))
        for k, key in enumerate(("d1", "d2", "d3")):
            a = ax.flat[k]
            for comp in "xyz":
                a.plot(c["t"], c[key + comp], lw=0.9, label=f"{key}{comp}")
            a.set_title(key), a.legend(fontsize=7), a.grid(True, alpha=0.3)
        for i in (1, 2, 3):
            ax.flat[3].plot(c["t"], c[f"Om{i}"], lw=0.9, label=f"Omega{i}")
        ax.flat[3].set_title("Omega [1/s]"), ax.flat[3].legend(fontsize=7), ax.flat[3].grid(True, alpha=0.3)
        for a in ax.flat:
            a.set_xlabel("t [s]")
        fig.suptitle(f"[L] Fig. {name[3:]}: solution of Example {'A' if yaml == A else 'B'} (dop853 1e-11)")
        fig.tight_layout(), fig.savefig(f"{out}/lang-{name}.png", dpi=110), plt.close(fig)
        keys = ["t"] + [f"d{j}{x}" for j in (1, 2, 3) for x in "xyz"] + ["Om1", "Om2", "Om3"]
        write(f"{out}/lang-{name}.csv", keys, zip(*[c[k] for k in keys]))
        note = log
        if name == "fig12":  # times at which Omega1 changes sign (d1 snaps to its antipode)
            flips = [c["t"][i] for i in range(1, len(c["t"])) if c["Om1"][i - 1] * c["Om1"][i] < 0]
            note = "Omega1 sign changes at t = " + ", ".join(f"{t:.3f}" for t in flips) + "; " + log
        else:
            note = f"Omega3 in [{min(c['Om3']):.3f}, {max(c['Om3']):.3f}], d3z in " \
                   f"[{min(c['d3z']):.4f}, {max(c['d3z']):.4f}]; " + log
        summary.append([name, "nullspace quaternion", note, cmd])
    write(f"{out}/lang-series-summary.csv", ["figure", "run", "measured", "log"], summary)


if __name__ == "__main__":
    main()
