#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""PyElastica on the hose of bench/peers/hose_drop.py (run as a child process).

The same hose as examples/hose-on-floor.yaml at N elements: 2 m, r = 1 cm,
rubber E = 5e6 Pa, Poisson 0.5 (G = E/3), density 1100, straight along x at
z = 5 cm, gravity, a floor z = 0 with Coulomb friction 0.5 / 0.4.

PyElastica's own model, set up as its examples do:
  * position Verlet at a fixed step dt (its symplectic stepper);
  * rod-plane contact (RodPlaneContactWithAnisotropicFriction: the element's
    normal load is cancelled, plus a spring k per element on the penetration
    and a dashpot nu on the normal velocity; isotropic mu here).  k is
    cosrod's automatic floor stiffness per length times the element length,
    k = 4 EI/ds^4 * ds, nu the critical value 2 sqrt(k m_e) of one element;
  * no Kelvin-Voigt damping exists there: AnalyticalLinearDamper with a
    uniform rate GAMMA (1/s) lets the hose come to rest within the 2 s.
The transient therefore differs from cosrod's by the model (damping law,
contact law); the rest state at T does not depend on either, and is what the
comparison's accuracy is read on.

Prints one JSON object: status, steps, cpu (process CPU of the time loop,
after a short warm-up run that compiles PyElastica's numba kernels), jit_cpu
(the warm-up), frames {t: [[x, y, z], ...]} every FRAME seconds, ke (kinetic
energy at T).

Usage: pyelastica_hose.py N DT T_END FRAME   (PYELASTICA_SRC: a source tree)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pyelastica_run import args, ea, record, timed  # noqa: E402

import numpy as np  # noqa: E402

L, R, E, RHO, G_ACC = 2.0, 1.0e-2, 5.0e6, 1100.0, 9.81
GAMMA = 2.0


class HoseSim(ea.BaseSystemCollection, ea.Forcing, ea.Damping, ea.Contact, ea.CallBacks):
    pass


def frame_sample(system, time):
    """Time, the vertices and the kinetic energy."""
    return (time, system.position_collection.T.copy(),
            0.5 * float(np.sum(system.mass * np.sum(system.velocity_collection ** 2, axis=0))))


def build(n, dt, frame):
    sim = HoseSim()
    ds = L / n
    rod = ea.CosseratRod.straight_rod(n, np.array([0.0, 0.0, 0.05]), np.array([1.0, 0.0, 0.0]),
                                      np.array([0.0, 0.0, 1.0]), L, R, RHO,
                                      youngs_modulus=E, shear_modulus=E / 3.0)
    sim.append(rod)
    sim.add_forcing_to(rod).using(ea.GravityForces, acc_gravity=np.array([0.0, 0.0, -G_ACC]))
    floor = ea.Plane(plane_origin=np.zeros(3), plane_normal=np.array([0.0, 0.0, 1.0]))
    sim.append(floor)
    ei = E * math.pi * R ** 4 / 4.0
    k = 4.0 * ei / ds ** 4 * ds
    m_e = RHO * math.pi * R * R * ds
    sim.detect_contact_between(rod, floor).using(
        ea.RodPlaneContactWithAnisotropicFriction, k=k, nu=2.0 * math.sqrt(k * m_e),
        slip_velocity_tol=1e-4, static_mu_array=np.array([0.5, 0.5, 0.5]),
        kinetic_mu_array=np.array([0.4, 0.4, 0.4]))
    sim.dampen(rod).using(ea.AnalyticalLinearDamper, uniform_damping_constant=GAMMA, time_step=dt)
    return sim, record(sim, rod, frame_sample, dt, frame)


def main():
    n, dt, t_end, frame = args()
    store, run = timed(build, n, dt, t_end, frame)
    frames = {}
    ke = None
    for t, xs, k in store:
        frames[round(t, 6)] = xs.tolist()
        ke = k
    ok = all(math.isfinite(v) for xs in frames.values() for p in xs for v in p)
    print(json.dumps({"status": "ok" if ok else "non-finite", **run, "ke": ke, "frames": frames}))


if __name__ == "__main__":
    main()
