# SPDX-License-Identifier: Apache-2.0
"""Rigid bodies from Python ([L] Examples A-C: heavy-top, tennis-racket,
two-body-joint): res.bodies / res.joints against invariants of the motion
computed here from the recorded arrays, and against the CLI's bodies.csv.

Tolerance of an invariant: DOPRI5 keeps each step's local error below
atol + rtol |y| per component (weighted RMS norm <= 1); an invariant I(y)
with |dI/dy| <= G picks up at most G sqrt(n) (atol + rtol |y|) per step, and
these add up over the steps at worst linearly, so |I(t) - I(0)| <= nsteps
sqrt(n) (atol + rtol Y) G, with Y the largest |y| and G the scale of I per
unit of y."""
import csv
import math
import os
import subprocess

import numpy as np
import pytest

import cosrod


def rot(q):
    """Rotation matrices (n, 3, 3) of unit quaternions (n, 4), scalar first."""
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], -2)


def momentum(b, m, inertia):
    """Angular momentum about the origin (n, 3): R I Omega + m x cross v."""
    spin = np.einsum("nij,nj->ni", rot(b.q), np.asarray(inertia) * b.omega)
    return spin + m * np.cross(b.x, b.v)


def run(name, t_end, path_only=False):
    sc = cosrod.load(os.path.join(os.environ.get("COSROD_SOURCE_DIR", "."), "examples", name + ".yaml"),
                     set={"analysis.t_end": t_end, "output.plots": False})
    res = sc.run()
    assert res.ok
    return res


def bound(res, nstate, ymax, scale, rtol=1e-8, atol=1e-8):
    return res.stats["nsteps"] * math.sqrt(nstate) * (atol + rtol * ymax) * scale


def test_heavy_top_bodies_conserve_energy_and_vertical_momentum():
    res = run("heavy-top", 1.0)
    assert list(res.bodies) == ["top"] and list(res.joints) == [0]
    b = res.bodies["top"]
    n = len(res.t)
    assert n == 21 and b.x.shape == (n, 3) and b.q.shape == (n, 4) and b.omega.shape == (n, 3)
    assert b.v.shape == (n, 3) and res.joints[0].F.shape == (n, 3)
    # initial state of examples/heavy-top.yaml
    np.testing.assert_allclose(b.x[0], [0, -math.sqrt(3) / 2, 0.5], atol=1e-15)
    np.testing.assert_allclose(b.omega[0], [0, 0, 20], atol=1e-13)
    m, inertia, g = 11.09, (38.91, 30.91, 10.0), 9.81
    energy = 0.5 * m * (b.v ** 2).sum(1) + 0.5 * (np.asarray(inertia) * b.omega ** 2).sum(1) + m * g * b.x[:, 2]
    e_scale = 0.5 * 50 * 20 ** 2  # the spin energy about the pivot, ~1e4 J
    assert np.abs(energy - energy[0]).max() <= bound(res, 13, 20, e_scale / 20)
    np.testing.assert_allclose(b.kinetic + b.potential, energy, rtol=1e-12)
    Lz = momentum(b, m, inertia)[:, 2]  # gravity's moment about the pivot is horizontal
    assert abs(Lz[0] - 10 * 20 * 0.5) < 1e-9  # I3 Omega3 d3_z at t = 0
    assert np.abs(Lz - Lz[0]).max() <= bound(res, 13, 20, 50)
    # the pivot holds the top up: on average the joint carries its weight
    assert abs(res.joints[0].F[:, 2].mean()) > 0.3 * m * g


def test_tennis_racket_flips_with_conserved_momentum():
    res = run("tennis-racket", 1.0)
    b = res.bodies["racket"]
    inertia = (41.6, 11.6, 50.0)
    L = momentum(b, 1.0, inertia)
    L0 = L[0]
    assert np.linalg.norm(L0) == pytest.approx(41.6 * 50, rel=1e-6)
    assert np.abs(L - L0).max() <= bound(res, 7, 50, 50)
    energy = 0.5 * (np.asarray(inertia) * b.omega ** 2).sum(1)
    assert np.abs(energy - energy[0]).max() <= bound(res, 7, 50, 50 * 50)
    # the intermediate-axis instability: Omega1 changes sign within 1 s ([L] Fig. 12)
    assert b.omega[0, 0] == pytest.approx(50) and b.omega[:, 0].min() < -40


def test_two_body_joint_momentum_energy_and_cli_agree(cli, source_dir, tmp_path):
    res = run("two-body-joint", 0.5)
    b1, b2 = res.bodies["b1"], res.bodies["b2"]
    inertia = (41.6, 11.6, 50.0)
    # the bushing pulls b1's centre to the origin: no moment about it
    L = momentum(b1, 10, inertia) + momentum(b2, 20, inertia)
    Lscale = np.abs(L[0]).max()
    assert np.abs(L - L[0]).max() <= bound(res, 14, 310, Lscale / 310)
    energy = b1.kinetic + b2.kinetic + 0.5e4 * (b1.x ** 2).sum(1)
    np.testing.assert_allclose(energy, res.energy["kinetic"] + res.energy["elastic"], rtol=1e-12)
    assert np.abs(energy - energy[0]).max() <= bound(res, 14, 310, energy[0] / 310)
    # the joint: x1 + R1 rho1 = x2 + R2 rho2 to the tolerance
    gap = b1.x + np.einsum("nij,j->ni", rot(b1.q), [1, 2, -3]) - b2.x - np.einsum("nij,j->ni", rot(b2.q), [5, -6, -7])
    assert np.abs(gap).max() <= bound(res, 14, 310, 1.0)
    # the same numbers as the CLI's bodies.csv and joints.csv
    subprocess.run([cli, "run", "examples/two-body-joint.yaml", "-o", str(tmp_path), "-q", "--set",
                    "analysis.t_end=0.5", "--set", "output.plots=false"], check=True, cwd=source_dir)
    with open(tmp_path / "bodies.csv") as f:
        rows = np.array([[float(v) for v in r] for r in list(csv.reader(f))[1:]])
    for k, bb in enumerate((b1, b2)):
        sel = rows[rows[:, 1] == k]
        np.testing.assert_array_equal(sel[:, 0], res.t)
        np.testing.assert_array_equal(sel[:, 2:5], bb.x)
        np.testing.assert_array_equal(sel[:, 5:9], bb.q)
        np.testing.assert_array_equal(sel[:, 9:12], bb.omega)
        np.testing.assert_array_equal(sel[:, 12:15], bb.v)
    with open(tmp_path / "joints.csv") as f:
        rows = np.array([[float(v) for v in r] for r in list(csv.reader(f))[1:]])
    np.testing.assert_allclose(rows[:, 2:5], res.joints[0].F, rtol=1e-14, atol=1e-9)  # %.15g in joints.csv


def test_rods_with_bodies_reactions_and_modes():
    res = run("cable-pendulum", 0.05)
    assert list(res.bodies) == ["bob"]
    r = res.reactions["cable"]
    assert r.shape == (len(res.t), 2, 6) and np.isfinite(r).all()
    src = os.environ.get("COSROD_SOURCE_DIR", ".")
    m = cosrod.load(os.path.join(src, "examples", "buckling.yaml"), set={"output.plots": False}).run().modes
    assert len(m["load_factor"]) == len(m["type"]) == len(m["rod"]) == len(m["omega"])
    assert np.all(np.diff(m["load_factor"]) >= 0) and m["load_factor"][0] > 0


def test_refusals_name_scenario_keys_not_c_functions(source_dir):
    """Every refused model with bodies (tests/sim/couple_invalid, and the
    analyses rigid bodies alone do not have) raises a ScenarioError
    `FILE:LINE: key: problem` that names no C function."""
    d = os.path.join(source_dir, "tests", "sim", "couple_invalid")
    cases = [(os.path.join(d, f), None) for f in sorted(os.listdir(d)) if f.endswith(".yaml")]
    ex = os.path.join(source_dir, "examples", "heavy-top.yaml")
    cases += [(ex, {"analysis.type": "static"}), (ex, {"solver.formulation": "dae", "solver.integrator": "radau5"})]
    assert len(cases) >= 5
    for path, sets in cases:
        with pytest.raises(cosrod.ScenarioError) as ei:
            cosrod.Sim(cosrod.load(path, set=sets))
        e = ei.value
        assert e.key and e.line is not None, str(e)
        assert "cosrod_" not in str(e) and "sim_" not in e.problem, str(e)
