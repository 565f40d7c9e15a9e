# SPDX-License-Identifier: Apache-2.0
"""Custom loads through a Python callback (Sim.set_load): a callback adding a
constant spatial tip force reproduces the scenario's own point load
(`loads: [{type: force, at: end, ...}]`) bit for bit (both add the same force
to the same vertex before the internal forces); a callback that adds nothing
changes nothing; the callback's work enters the energy balance; its
exceptions propagate."""
import os

import numpy as np
import pytest

import cosrod

SETS = {"analysis.t_end": 0.2, "output.every": 0.01}
F = [0.0, 0.004, -0.01]


def test_callback_force_equals_scenario_load(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    ref = cosrod.load(path, set=dict(SETS, **{"rods.0.loads": [{"type": "force", "at": "end", "value": F}]})).run()
    free = cosrod.load(path, set=SETS).run()
    sim = cosrod.Sim(cosrod.load(path, set=SETS))
    calls = []

    def tip_force(t, x, v, f, m):
        calls.append(t)
        f[-1] += F

    sim.set_load(tip_force)
    res = sim.run()
    assert len(calls) > len(res.steps)  # every evaluation of the rod
    np.testing.assert_array_equal(res.centerline, ref.centerline)
    np.testing.assert_array_equal(res.energy["external_work"], ref.energy["external_work"])
    assert not np.array_equal(res.centerline, free.centerline)
    # work done by the load: balance kept to the integration error while W grows
    assert abs(res.energy["external_work"][-1]) > 1e-4
    assert np.max(np.abs(res.energy["balance"] - res.energy["balance"][0])) < 1e-10

    sim = cosrod.Sim(cosrod.load(path, set=SETS))
    sim.set_load(lambda t, x, v, f, m: None)
    np.testing.assert_array_equal(sim.run().centerline, free.centerline)


def test_callback_exception_propagates(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    sim = cosrod.Sim(cosrod.load(path, set=SETS))
    n = [0]

    def bad(t, x, v, f, m):
        n[0] += 1
        if t > 0.05:
            raise ArithmeticError("load model failed")

    sim.set_load(bad)
    with pytest.raises(ArithmeticError, match="load model failed"):
        sim.run()
    assert n[0] > 1
    with pytest.raises(RuntimeError):
        sim.set_load(None)  # after the run
