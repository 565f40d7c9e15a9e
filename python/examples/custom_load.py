# SPDX-License-Identifier: Apache-2.0
"""A custom load through a Python callback: quadratic air drag on the
rubber pendulum, f_n = -1/2 rho_air c_d d l_n |v_n| v_n on every vertex
(d: rod diameter, l_n: length of rod around vertex n).  Prints the tip with
and without drag, the energy taken by the drag (external work) and the cost
of the callback (it is called at every evaluation of the rod, with the GIL).

    PYTHONPATH=build/python python3 python/examples/custom_load.py [t_end]
"""
import os
import sys
import time

import numpy as np

import cosrod

HERE = os.path.dirname(os.path.abspath(__file__))
t_end = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
sc = cosrod.load(os.path.join(HERE, "..", "..", "examples", "rubber-pendulum.yaml"), set={"analysis.t_end": t_end})
rho_air, c_d, d = 1.2, 1.2, 2 * 5.0e-3

sim = cosrod.Sim(sc)
s = sim._grids[0]
l = np.zeros(len(s))  # length of rod around each vertex
l[:-1] += 0.5 * np.diff(s)
l[1:] += 0.5 * np.diff(s)
k = 0.5 * rho_air * c_d * d * l[:, None]
calls = 0


def drag(t, x, v, f, m):
    global calls
    calls += 1
    f -= k * np.linalg.norm(v, axis=1)[:, None] * v


sim.set_load(drag)
w0 = time.perf_counter()
res = sim.run()
w_drag = time.perf_counter() - w0
w0 = time.perf_counter()
ref = sc.run()
w_ref = time.perf_counter() - w0
print(f"tip at t = {t_end:g} s without drag: {ref.tip[-1].round(6)}, with drag: {res.tip[-1].round(6)} m")
print(f"work of the drag {res.energy['external_work'][-1]:.6g} J; "
      f"balance drift {abs(res.energy['balance'] - res.energy['balance'][0]).max():.2g} J")
print(f"{calls} callback calls: {w_drag:.2f} s vs {w_ref:.2f} s without the callback "
      f"({1e6 * (w_drag - w_ref) / calls:.1f} us per call, Python code included)")
