# SPDX-License-Identifier: Apache-2.0
"""cosrod.Scenario(dict): the YAML schema as Python dicts is validated like
a file and, for the same content, gives the same run bit for bit."""
import os

import numpy as np
import pytest

import cosrod

PENDULUM = {
    "cosrod": 1,
    "title": "Rubber pendulum, LLA Test 1",
    "gravity": [0, 0, -9.81],
    "materials": {"rubber": {"E": 5.0e6, "poisson": 0.5, "density": 1100}},
    "rods": [{
        "name": "rod", "model": "cosserat", "length": 1.0, "segments": 10, "material": "rubber",
        "section": {"shape": "circle", "radius": 5.0e-3}, "shear_correction": [1.0, 1.0], "curvature": "sine-4",
        "shape": {"type": "straight", "start": [0, 0, 0], "direction": [0, 1, 0], "normal": [0, 0, 1]},
        "reference": "initial", "ends": {"start": {"type": "pinned"}, "end": {"type": "free"}},
    }],
    "analysis": {"type": "dynamic", "t_end": 0.1},
    "solver": {"formulation": "nullspace", "stabilisation": "projection", "integrator": "dopri5",
               "rtol": 1.0e-8, "atol": 1.0e-8},
    "output": {"dir": "out/rubber-pendulum", "every": 0.01, "vtk": False, "plots": False},
}


def test_dict_equals_file(source_dir):
    # the dict above is examples/rubber-pendulum.yaml with t_end 0.1
    ref = cosrod.load(os.path.join(source_dir, "examples", "rubber-pendulum.yaml"),
                      set={"analysis.t_end": 0.1}).run()
    res = cosrod.Scenario(PENDULUM).run()
    np.testing.assert_array_equal(res.t, ref.t)
    np.testing.assert_array_equal(res.centerline, ref.centerline)
    np.testing.assert_array_equal(res.energy["balance"], ref.energy["balance"])


def test_dict_errors_name_the_key():
    bad = dict(PENDULUM, rods=[dict(PENDULUM["rods"][0], segmnets=3)])
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.Scenario(bad)
    assert ei.value.key == "rods.0.segmnets" and ei.value.file == "<dict>" and ei.value.line > 0
    bad = dict(PENDULUM, solver=dict(PENDULUM["solver"], rtol=-1.0))
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.Scenario(bad)
    assert ei.value.key == "solver.rtol"
    # a numpy array is a list
    ok = dict(PENDULUM, gravity=np.array([0.0, 0.0, -9.81]))
    assert cosrod.Scenario(ok).info["t_end"] == 0.1


def test_to_yaml_reloads_to_the_same_run(tmp_path):
    sc = cosrod.Scenario(PENDULUM)
    sc.to_yaml(tmp_path / "p.yaml")
    again = cosrod.load(tmp_path / "p.yaml")
    assert again.to_yaml() == sc.to_yaml()
    np.testing.assert_array_equal(again.run().centerline, sc.run().centerline)


def test_plausibility_warnings():
    # E in GPa and density in g/cm^3: the scenario loads, with a
    # PlausibilityWarning per value naming key and suggestion
    slip = dict(PENDULUM, materials={"rubber": {"E": 5.0e-3, "poisson": 0.5, "density": 1.1}})
    with pytest.warns(cosrod.PlausibilityWarning) as rec:
        sc = cosrod.Scenario(slip)
    texts = [str(w.message) for w in rec]
    assert len(texts) == 2
    assert "materials.rubber.E: 0.005 Pa is below" in texts[0] and "5e+06 Pa" in texts[0]
    assert "materials.rubber.density: 1.1 kg/m^3 is below" in texts[1] and "1100 kg/m^3" in texts[1]
    assert sc.rods[0]["length"] == 1.0
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cosrod.Scenario(PENDULUM)  # sound: no warning


def test_load_overrides_keyword(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    a = cosrod.load(path, overrides={"rods.0.segments": 7})
    b = cosrod.load(path, set={"rods.0.segments": 7})  # the old name, kept
    assert a.rods[0]["segments"] == 7 and b.rods[0]["segments"] == 7
    with pytest.raises(TypeError, match="must be a dict"):
        cosrod.load(path, overrides=["rods.0.segments=7"])
    with pytest.raises(TypeError, match="must be a dict"):
        cosrod.load(path, set=["rods.0.segments=7"])
    with pytest.raises(TypeError, match="not both"):
        cosrod.load(path, overrides={}, set={})
    with pytest.raises(TypeError, match="unexpected keyword"):
        cosrod.load(path, sets={})
    res = cosrod.load(path, overrides={"analysis.t_end": 0.02}).run()
    assert res.stats["status"] == "ok" and res.stats["reason"] is None  # as summary.json
