# SPDX-License-Identifier: Apache-2.0
"""Design study: hose length x gripper speed -> maximum bending strain.

examples/gripper-hose.yaml: a rubber hose clamped at the origin, its other end
moved by a gripper by (-0.15, 0.15, 0) m along a straight path at constant
speed v and then held.  The study varies the hose length L and v; the
gripper keyframes and the end time depend on both, so `derive` turns a row
(L, v) into the scenario overrides.  Metric: the bending strain at the hose
surface r sqrt(K1^2 + K2^2), maximum over time and vertices (curvatures.csv),
next to the default metrics.  Prints the table, writes hose_study.png (strain
vs speed per length) and leaves the study in hose_study/ (rerun: reused).

    PYTHONPATH=build/python python3 python/examples/hose_study.py [quick]
"""
import math
import os
import shutil
import sys

import cosrod
from cosrod.study import DEFAULT_METRICS

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "..", "..", "examples", "gripper-hose.yaml")
QUICK = len(sys.argv) > 1 and sys.argv[1] == "quick"
RADIUS = 1.0e-2  # section radius of the scenario [m]
SHIFT = (-0.15, 0.15)  # gripper displacement [m]

lengths = [0.4, 0.8] if QUICK else [0.4, 0.6, 0.8]
speeds = [0.5, 1.0] if QUICK else [0.25, 0.5, 1.0, 2.0]


def derive(p):
    L, v = p["length"], p["speed"]
    T = math.hypot(*SHIFT) / v  # path time at constant speed
    return {"rods.0.length": L, "analysis.t_end": T + 0.3,
            "rods.0.ends.end.position": [[0, L, 0, 0], [T, L + SHIFT[0], SHIFT[1], 0]]}


def max_bending_strain(run):
    k = run.table("curvatures")
    return RADIUS * float(((k["K1"] ** 2 + k["K2"] ** 2) ** 0.5).max())


if __name__ == "__main__":
    if len(sys.argv) > 1:  # the test mode (ctest): a fresh study, not the previous one resumed
        shutil.rmtree("hose_study", ignore_errors=True)
    df = cosrod.sweep(PATH, {"length": lengths, "speed": speeds}, derive=derive,
                      metrics={**DEFAULT_METRICS, "max_bending_strain": max_bending_strain},
                      set={"output.vtk": False, "output.plots": False}, out="hose_study")
    print(df[["length", "speed", "status", "max_bending_strain", "max_reaction", "wall_time"]].to_string(index=False))
    assert (df["status"] == "ok").all(), df["message"]
    # a faster gripper bends the hose more (inertia), a longer hose less (r / radius of curvature)
    for L in lengths:
        s = df[df["length"] == L].sort_values("speed")["max_bending_strain"].to_numpy()
        print(f"L = {L} m: max bending strain {s.min():.4f} .. {s.max():.4f}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        from cosrod import plot
    except ImportError:
        sys.exit(0)
    ax = plot.sweep(df, x="speed", y="max_bending_strain", hue="length")
    ax.set_xscale("log")
    ax.figure.savefig("hose_study.png", dpi=110)
    print("wrote hose_study.png")
