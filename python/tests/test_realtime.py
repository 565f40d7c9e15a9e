# SPDX-License-Identifier: Apache-2.0
"""solver.realtime from Python: Sim.advance in 1 ms steps does one bounded
generalized-alpha step per call (Newton iterations <= newton_max per step)
and the tip stays at the accuracy of the converged fixed step against an
explicit reference (dop853 at 1e-12)."""
import os

import numpy as np

import cosrod


def test_realtime_steps_bounded_and_accurate(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    ref = cosrod.load(path, overrides={"analysis.t_end": 0.2, "solver.integrator": "dop853",
                                       "solver.rtol": 1e-12, "solver.atol": 1e-12}).run()
    sc = cosrod.load(path, overrides={"analysis.t_end": 10, "solver.integrator": "galpha",
                                      "solver.realtime": {"h": 1e-3, "newton_max": 2}})
    sim = cosrod.Sim(sc)
    for k in range(1, 201):
        frame = sim.advance(k * 1e-3)
    st = sim._h.stats()
    assert st["naccept"] == 200 and st["nreject"] == 0
    assert st["nnewton"] <= 2 * 200
    tip = np.asarray(frame.centerline)[-1]
    tip_ref = np.asarray(ref.rods[0].tip)[-1]
    # galpha at h = 1 ms: ~5e-5 m after 0.5 s (bench/results/realtime.md); 1e-3 m is far below
    # the 0.1 m the pendulum moves in 0.2 s, far above the method's error
    assert np.linalg.norm(tip - tip_ref) < 1e-3
