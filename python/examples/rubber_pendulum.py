# SPDX-License-Identifier: Apache-2.0
"""The rubber pendulum of [LLA] Test 1 (examples/rubber-pendulum.yaml) from
Python: run it, print the tip at the end, plot the tip trajectory and a few
centerlines (tip.png, centerline.png; needs matplotlib).

    PYTHONPATH=build/python python3 python/examples/rubber_pendulum.py [t_end]
"""
import os
import sys

import cosrod

HERE = os.path.dirname(os.path.abspath(__file__))
t_end = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
sc = cosrod.load(os.path.join(HERE, "..", "..", "examples", "rubber-pendulum.yaml"), set={"analysis.t_end": t_end})
res = sc.run(progress=True)
tip = res.tip
print(f"{sc.title}: {len(res.t)} frames, {res.stats['nsteps']} steps, {res.stats['solver_wall_time']:.2f} s")
print(f"tip at t = {res.t[-1]:g} s: ({tip[-1, 0]:.6f}, {tip[-1, 1]:.6f}, {tip[-1, 2]:.6f}) m")
drift = abs(res.energy["balance"] - res.energy["balance"][0]).max()
print(f"energy balance drift {drift:.3g} J")
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import cosrod.plot
except ImportError:
    print("(matplotlib not installed: no plots; apt-get install python3-matplotlib)")
    sys.exit(0)
fig, ax = plt.subplots()
ax.plot(tip[:, 1], tip[:, 2])
ax.set_xlabel("tip y [m]")
ax.set_ylabel("tip z [m]")
ax.set_aspect("equal")
ax.set_title("rubber pendulum: tip trajectory")
fig.savefig("tip.png", dpi=120)
cosrod.plot.centerline(res, times=[0, 0.25 * t_end, 0.5 * t_end, t_end]).figure.savefig("centerline.png", dpi=120)
print("wrote tip.png, centerline.png")
