# SPDX-License-Identifier: Apache-2.0
"""A damping x N parameter sweep on all cores: every (tau, N) case is a run of
the rubber pendulum with Kelvin-Voigt damping (retardation time tau for shear
and bulk; radau5, the damped fine grids are stiff), run in a ThreadPoolExecutor (the integration releases the GIL).
Prints the tip height at t_end per case, its change against the finest grid
(spatial convergence), the serial and the parallel wall time, and plots the
convergence (sweep.png; needs matplotlib).

    PYTHONPATH=build/python python3 python/examples/sweep.py [t_end]
"""
import concurrent.futures
import os
import sys
import time

import numpy as np

import cosrod

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "..", "..", "examples", "rubber-pendulum.yaml")
t_end = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
taus = [1e-3, 4e-3, 1.6e-2]
Ns = [5, 10, 20, 40]


def case(tau, N):
    sc = cosrod.load(PATH, set={"analysis.t_end": t_end, "rods.0.segments": N, "solver.integrator": "radau5",
                                "rods.0.damping": {"kelvin_voigt": {"tau_shear": tau, "tau_bulk": tau}}})
    res = sc.run()
    return res.tip[-1, 2], res.energy["dissipated"][-1]


cases = [(tau, N) for tau in taus for N in Ns]
w0 = time.perf_counter()
serial = [case(*c) for c in cases[:len(Ns)]]  # one row serially, for the timing
w_serial = (time.perf_counter() - w0) * len(taus)
w0 = time.perf_counter()
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as ex:
    out = dict(zip(cases, ex.map(lambda c: case(*c), cases)))
w_par = time.perf_counter() - w0
assert all(out[c] == s for c, s in zip(cases[:len(Ns)], serial))  # threads compute the serial numbers

print(f"tip z at t = {t_end} s [m] and |z - z(N = {Ns[-1]})|")
print("tau [s]   " + "".join(f"N = {N:<18d}" for N in Ns))
for tau in taus:
    z = [out[(tau, N)][0] for N in Ns]
    print(f"{tau:<9.3g} " + "".join(f"{v:.6f} ({abs(v - z[-1]):.1e})  " for v in z))
print(f"{len(cases)} runs: {w_par:.2f} s on {os.cpu_count()} cores (about {w_serial:.2f} s serially)")
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(matplotlib not installed: no plot)")
    sys.exit(0)
fig, ax = plt.subplots()
for tau in taus:
    z = np.array([out[(tau, N)][0] for N in Ns])
    ax.loglog(Ns[:-1], abs(z[:-1] - z[-1]), marker="o", label=f"tau = {tau:g} s")
ax.set_xlabel("segments N")
ax.set_ylabel(f"|z_tip - z_tip(N={Ns[-1]})| [m]")
ax.legend()
fig.savefig("sweep.png", dpi=120)
print("wrote sweep.png")
