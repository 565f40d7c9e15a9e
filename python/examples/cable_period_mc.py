# SPDX-License-Identifier: Apache-2.0
"""Monte Carlo study: the period of a cable pendulum under an uncertain cable
stiffness.

examples/cable-pendulum.yaml (a 1 kg body on a 1 m cable, released at 30
degrees) with a soft cable: Young's modulus E normally distributed, mean
2e7 Pa, standard deviation 15 %, sampled by a Latin hypercube
(scipy.stats.qmc) mapped through the normal inverse CDF.  The period is
twice the time between the body's first two passages through x = 0
(bodies.csv, linear interpolation), a custom metric.

Check against the simple pendulum: the cable stretches by m g L / (E A) under
the body's weight, so T = 2 pi sqrt(l / g) (1 + theta0^2 / 16) with
l = L (1 + m g / (E A)) + a (a = 0.05 m, the body point) gives
dT/dE = -T L m g / (2 l E^2 A); the script prints it next to the least-squares
slope of the samples.

    PYTHONPATH=build/python python3 python/examples/cable_period_mc.py [samples]
"""
import math
import os
import shutil
import sys

import numpy as np
import pandas as pd
from scipy.stats import norm, qmc

import cosrod

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "..", "..", "examples", "cable-pendulum.yaml")
n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
E0, SD = 2.0e7, 0.15 * 2.0e7
L, R, M, A_PT, G, TH0 = 1.0, 2.0e-3, 1.0, 0.05, 9.81, math.radians(30)


def period(run):
    b = run.table("bodies")
    t, x = b["t"].to_numpy(), b["x"].to_numpy()
    k = np.nonzero(np.sign(x[1:]) != np.sign(x[:-1]))[0]
    if len(k) < 2:
        return math.nan
    tc = t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])
    return 2.0 * (tc[1] - tc[0])


if __name__ == "__main__":
    if len(sys.argv) > 1:  # the test mode (ctest): a fresh study, not the previous one resumed
        shutil.rmtree("cable_period_mc", ignore_errors=True)
    u = qmc.LatinHypercube(d=1, seed=7).random(n)[:, 0]
    samples = pd.DataFrame({"materials.nylon.E": norm.ppf(u, loc=E0, scale=SD)})
    df = cosrod.sweep(PATH, samples, metrics={"period": period, "wall_time": cosrod.study.DEFAULT_METRICS["wall_time"]},
                      set={"analysis.t_end": 1.8, "output.every": 0.005, "output.vtk": False, "output.plots": False},
                      out="cable_period_mc")
    assert (df["status"] == "ok").all(), df["message"]
    E, T = df["materials.nylon.E"].to_numpy(), df["period"].to_numpy()
    area = math.pi * R * R
    l = L * (1 + M * G / (E0 * area)) + A_PT
    T0 = 2 * math.pi * math.sqrt(l / G) * (1 + TH0 ** 2 / 16)
    print(f"{n} samples of E: mean {E.mean():.4g} Pa, sd {E.std(ddof=1):.3g} Pa")
    print(f"period: mean {T.mean():.5f} s, sd {T.std(ddof=1):.2e} s, range {T.min():.5f} .. {T.max():.5f} s")
    print(f"simple pendulum estimate at the mean E: {T0:.5f} s")
    slope = np.polyfit(E, T, 1)[0]
    print(f"dT/dE: samples {slope:.3e} s/Pa, simple pendulum {-T0 * L * M * G / (2 * l * E0 ** 2 * area):.3e} s/Pa")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from cosrod import plot
    except ImportError:
        sys.exit(0)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.5))
    plot.sweep(df, x="materials.nylon.E", y="period", ax=a1)
    a2.hist(T, bins=max(4, n // 4))
    a2.set_xlabel("period [s]")
    fig.tight_layout()
    fig.savefig("cable_period_mc.png", dpi=110)
    print("wrote cable_period_mc.png")
