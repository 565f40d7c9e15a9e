# SPDX-License-Identifier: Apache-2.0
"""Contact in Python results: res.contacts and res.obstacles are the rows of
contacts.csv and obstacles.csv (the same numbers: the files round-trip, so
pandas reads back exactly what the run recorded), with the documented
columns; a hose at rest on the floor has the floor carry its weight
rho A L g; summary.json "contact" counts the last frame's rows and reports
the law's static penetration q/k + delta/2; vtk/contacts.pvd lists one
polydata per output time with the contact points and normal forces of
contacts.csv; a run without contact has None."""
import json
import re
import math
import os

import pytest

import cosrod

pd = pytest.importorskip("pandas")

CONTACT_COLS = ["t", "rod", "segment", "other", "px", "py", "pz", "nx", "ny", "nz", "gap", "Fn", "Ftx", "Fty",
                "Ftz", "state"]
OBST_COLS = ["t", "obstacle", "Fx", "Fy", "Fz", "Mx", "My", "Mz"]


def test_contacts_and_obstacles_frames(source_dir, tmp_path):
    # the hose starts at rest on the floor at its static penetration (q/k + delta/2 = 1.5e-4 m)
    sets = {"rods.0.segments": 20, "rods.0.shape.start": [0, 0, 0.00985], "analysis.t_end": 0.3,
            "output.every": 0.1, "output.plots": False, "output.vtk": True}
    res = cosrod.load(os.path.join(source_dir, "examples", "hose-on-floor.yaml"), overrides=sets).run(
        output=tmp_path)
    c, o = res.contacts, res.obstacles
    assert list(c.columns) == CONTACT_COLS and list(o.columns) == OBST_COLS
    assert set(o["obstacle"]) == {"floor"} and len(o) == len(res.t)
    # the files hold the same rows (shortest round-trip text: equal doubles)
    fc = pd.read_csv(tmp_path / "contacts.csv", float_precision="round_trip")
    fo = pd.read_csv(tmp_path / "obstacles.csv", float_precision="round_trip")
    pd.testing.assert_frame_equal(c, fc, check_exact=True, check_dtype=False)
    pd.testing.assert_frame_equal(o, fo, check_exact=True, check_dtype=False)
    # at rest: the floor carries the weight (1e-6: settling), normal forces sum to it
    r, L, g = 0.01, 2.0, 9.81
    W = 1100 * math.pi * r * r * L * g
    last = o[o["t"] == res.t[-1]]
    assert -last["Fz"].iloc[0] == pytest.approx(W, rel=1e-6)
    cl = c[c["t"] == res.t[-1]]
    assert (cl["Fn"] * cl["nz"]).sum() == pytest.approx(W, rel=1e-6)
    assert set(cl["other"]) == {"floor"} and set(cl["state"]) <= {"stick", "slip"}
    # summary.json: contacts at the end, the law's static penetration q/k + delta/2 (k auto = 4 EI/ds^4)
    sm = json.load(open(tmp_path / "summary.json"))["contact"]
    E, rhoA, ds = 5e6, 1100 * math.pi * r * r, L / 20
    k = max(4 * E * math.pi * r ** 4 / 4 / ds ** 4, rhoA * g / (0.01 * r))
    assert sm["contacts_end"] == len(cl)
    assert sm["max_penetration"] == pytest.approx(rhoA * g / k + 0.005 * r, rel=0.02)
    assert sm["max_penetration_radius"] == pytest.approx(sm["max_penetration"] / r, rel=1e-9)
    assert 0 <= sm["dissipated"] <= res.energy["dissipated"][-1] * (1 + 1e-9) + 1e-15
    # VTK: one polydata per output time with the rows of contacts.csv
    pvd = open(tmp_path / "vtk" / "contacts.pvd").read()
    files = re.findall(r'file="(contacts_[0-9]+\.vtp)"', pvd)
    assert len(files) == len(res.t)
    for t, f in zip(res.t, files):
        x = open(tmp_path / "vtk" / f).read()
        n = int(re.search(r'NumberOfPoints="([0-9]+)"', x).group(1))
        rows = c[c["t"] == t]
        assert n == len(rows)
        fn = re.search(r'Name="Fn" NumberOfComponents="1" format="ascii">([^<]*)<', x).group(1).split()
        assert [float(v) for v in fn] == list(rows["Fn"])


def test_no_contact_is_none(source_dir):
    res = cosrod.load(os.path.join(source_dir, "examples", "catenary.yaml"),
                      overrides={"analysis.t_end": 0.01, "solver.integrator": "radau5"}).run()
    assert res.contacts is None and res.obstacles is None
