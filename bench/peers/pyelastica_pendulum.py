#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""PyElastica on the undamped rubber pendulum (run as a child process of pendulum.py).

The rod of bench/auto/scenarios/rubber-pendulum.yaml at N elements: L = 1 m,
r = 5 mm, E = 5e6 Pa, Poisson 0.5 (G = E/3), density 1100, straight along +y,
the start node pinned (position held, rotation free: PyElastica's
OneEndFixedBC would clamp the director too, so the position alone is held by
resetting node 0 after each step through a constraint that leaves the
directors alone), free end, gravity -9.81 z, no damping, 1 s.

PyElastica's own model as its examples use it: position Verlet at a fixed
step dt.  Prints one JSON object: status, steps, cpu (process CPU of the time
loop, after a short warm-up run that compiles the numba kernels), jit_cpu (the
warm-up), tips {t: [x, y, z]} every FRAME seconds.

Usage: pyelastica_pendulum.py N DT T_END FRAME   (PYELASTICA_SRC: a source tree)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pyelastica_run import args, ea, record, timed  # noqa: E402

import numpy as np  # noqa: E402

L, R, E, RHO, G_ACC = 1.0, 5.0e-3, 5.0e6, 1100.0, 9.81


class PendulumSim(ea.BaseSystemCollection, ea.Constraints, ea.Forcing, ea.CallBacks):
    pass


class PinStart(ea.ConstraintBase):
    """Node 0 held at the origin with zero velocity; directors untouched (a pin)."""

    def constrain_values(self, system, time):
        system.position_collection[:, 0] = 0.0

    def constrain_rates(self, system, time):
        system.velocity_collection[:, 0] = 0.0


def build(n, dt, frame):
    sim = PendulumSim()
    rod = ea.CosseratRod.straight_rod(n, np.zeros(3), np.array([0.0, 1.0, 0.0]),
                                      np.array([0.0, 0.0, 1.0]), L, R, RHO,
                                      youngs_modulus=E, shear_modulus=E / 3.0)
    sim.append(rod)
    sim.constrain(rod).using(PinStart, constrained_position_idx=(0,))
    sim.add_forcing_to(rod).using(ea.GravityForces, acc_gravity=np.array([0.0, 0.0, -G_ACC]))
    return sim, record(sim, rod, lambda s, t: (t, s.position_collection[:, -1].copy()), dt, frame)


def main():
    n, dt, t_end, frame = args()
    store, run = timed(build, n, dt, t_end, frame)
    tips = {round(t, 6): x.tolist() for t, x in store}
    ok = bool(tips) and all(math.isfinite(v) for x in tips.values() for v in x)
    # the rod stretches by < 1e-3 under its weight: a tip beyond 1.1 L has blown up
    bounded = ok and all(math.hypot(*x) <= 1.1 * L for x in tips.values())
    print(json.dumps({"status": "unstable" if not bounded else "ok", **run, "tips": tips}))


if __name__ == "__main__":
    main()
