# SPDX-License-Identifier: Apache-2.0
"""A run that ends at the last keyframe of a prescribed end: the state at
t_end is the limit from the left (the end still moving at the keyframe
velocity), not the hold after it.  Before, the end vertex's velocity was read
as zero at t_end, and the energy balance jumped there by the end vertex's
kinetic energy."""
import math
import os

import numpy as np

import cosrod


def test_energy_balance_continuous_at_the_last_keyframe(source_dir):
    # examples/gripper-hose.yaml: the end moves linearly from (0.6, 0, 0) to
    # (0.45, 0.15, 0) over [0, 0.4243] s; the run ends exactly there
    N, T = 6, 0.4243
    sc = cosrod.load(os.path.join(source_dir, "examples", "gripper-hose.yaml"),
                     overrides={"analysis.t_end": T, "output.every": T / 6, "rods.0.segments": N,
                                "output.vtk": False, "output.plots": False})
    res = cosrod.Sim(sc).run()
    assert res.t[-1] == T
    # the end vertex (lumped mass rho A L / (2 N)) moves at the keyframe speed v
    m_end = 1100.0 * math.pi * 1e-2 ** 2 * 0.6 / (2 * N)
    v = math.hypot(0.15, 0.15) / T
    jump = 0.5 * m_end * v * v  # what reading v = 0 at t_end removed from the kinetic energy
    # the end vertex's velocity at t_end is the keyframe velocity
    xd_end = (res.rods[0].centerline[-1, -1] - res.rods[0].centerline[-2, -1]) / (res.t[-1] - res.t[-2])
    np.testing.assert_allclose(xd_end, [-0.15 / T, 0.15 / T, 0.0], rtol=0, atol=1e-9)
    b = res.energy["balance"]
    # frame-to-frame change of the balance: the integration error (rtol 1e-5)
    # elsewhere; at the last frame it must not show the jump (1 % of it allowed)
    assert abs(b[-1] - b[-2]) <= 1e-2 * jump, (b[-3:], jump)
    assert np.max(np.abs(np.diff(b[1:-1]))) <= 1e-2 * jump  # the run's own drift is far below it
