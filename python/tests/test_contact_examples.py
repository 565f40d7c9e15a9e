# SPDX-License-Identifier: Apache-2.0
"""The contact examples hose-drag and cable-clips run from Python, checked
against statics:
  * hose-drag: while the whole hose slides along x, every contact point
    carries kinetic friction mu_k times its elastic normal force against its
    sliding, so the floor is dragged along +x by mu_k |Fz|, at every frame,
    also those between the steps (to 1e-3: Fz includes the normal damping,
    which friction does not carry; the sign is what a frame inside a step
    once got wrong);
  * cable-clips: at rest in the S (0.4 s after the bracket stopped) the
    connectors' reactions, the pins' forces on the cable and its weight
    balance (to 1e-3 of the weight: what is left of the motion)."""
import math
import os

import numpy as np
import pytest

import cosrod

pd = pytest.importorskip("pandas")


def test_hose_drag_friction(source_dir, tmp_path):
    sets = {"analysis.t_end": 0.7, "output.every": 0.05, "output.plots": False, "output.vtk": False}
    res = cosrod.load(os.path.join(source_dir, "examples", "hose-drag.yaml"), overrides=sets).run(
        output=tmp_path)
    o, c = res.obstacles, res.contacts
    n = 0
    for t in res.t:
        if not 0.42 <= t <= 0.68:  # the gripper moves along x from 0.3 to 0.7 s
            continue
        rows = c[np.isclose(c["t"], t)]
        if not (rows["state"] == "slip").all():
            continue
        f = o[np.isclose(o["t"], t)].iloc[0]
        assert f["Fx"] == pytest.approx(0.4 * abs(f["Fz"]), rel=1e-3)
        n += 1
    assert n >= 3


def test_cable_clips_balance(source_dir, tmp_path):
    sets = {"output.every": 0.1, "output.plots": False, "output.vtk": False}
    res = cosrod.load(os.path.join(source_dir, "examples", "cable-clips.yaml"), overrides=sets).run(
        output=tmp_path)
    r = 3e-3
    weight = 1400 * math.pi * r * r * 1.0 * 9.81
    reac = res.reactions["cable"][-1]  # (2 ends, 6): force and moment the connectors exert on the cable
    o = res.obstacles
    each = o[np.isclose(o["t"], res.t[-1])][["Fx", "Fy", "Fz"]].to_numpy()  # force of the cable on each pin
    total = reac[0, :3] + reac[1, :3] - each.sum(axis=0) + np.array([0.0, 0.0, -weight])
    assert set(o["obstacle"]) == {"pin1", "pin2"}
    assert (np.linalg.norm(each, axis=1) > 2 * weight).all()  # the pins press the cable into the S
    assert np.linalg.norm(total) < 1e-3 * weight
