# SPDX-License-Identifier: Apache-2.0
"""Python results equal the files of `cosrod run` bit for bit.

The CLI writes every number so that strtod reads back the same double
(output.h), so float() of a CSV field is the exact value the run computed; the
Python package records the same rod data at the same output times, hence
assert_array_equal (no tolerance)."""
import csv
import os
import subprocess

import numpy as np
import pytest

import cosrod

# three examples: explicit dynamic (dopri5), implicit dynamic from a static
# equilibrium (radau5), static continuation; shortened to keep the test fast
CASES = {
    "rubber-pendulum": {"analysis.t_end": 0.2, "output.every": 0.01},
    "kv-cantilever": {"analysis.t_end": 0.3, "output.every": 0.05},
    "omega-twist": {},
}


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(v) for v in r] for r in rows[1:]], dtype=float).reshape(-1, len(rows[0]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_equal_cli_files(name, cli, source_dir, tmp_path):
    path = os.path.join(source_dir, "examples", name + ".yaml")
    sets = dict(CASES[name], **{"output.vtk": False, "output.plots": False})
    args = [cli, "run", path, "-o", str(tmp_path), "--quiet"]
    for k, v in sets.items():
        args += ["--set", f"{k}={cosrod._yaml_value(v)}"]
    subprocess.run(args, check=True)
    res = cosrod.load(path, set=sets).run()
    assert res.ok

    hdr, cl = read_csv(tmp_path / "centerline.csv")
    assert hdr == ["t", "rod", "vertex", "s", "x", "y", "z"]
    N = res.N
    nt = len(res.t)
    assert cl.shape == (nt * (N + 1), 7)
    np.testing.assert_array_equal(cl[:, 0].reshape(nt, N + 1)[:, 0], res.t)
    np.testing.assert_array_equal(cl[:, 3].reshape(nt, N + 1)[0], res.s)
    np.testing.assert_array_equal(cl[:, 4:7].reshape(nt, N + 1, 3), res.centerline)

    _, fr = read_csv(tmp_path / "frames.csv")
    np.testing.assert_array_equal(fr[:, 3].reshape(nt, N)[0], res.s_mid)
    np.testing.assert_array_equal(fr[:, 4:8].reshape(nt, N, 4), res.frames)
    _, sr = read_csv(tmp_path / "strains.csv")
    np.testing.assert_array_equal(sr[:, 4:7].reshape(nt, N, 3), res.strains)
    np.testing.assert_array_equal(sr[:, 7:10].reshape(nt, N, 3), res.forces)
    _, cu = read_csv(tmp_path / "curvatures.csv")
    np.testing.assert_array_equal(cu[:, 4:7].reshape(nt, N + 1, 3), res.curvatures)
    np.testing.assert_array_equal(cu[:, 7:10].reshape(nt, N + 1, 3), res.moments)

    hdr, en = read_csv(tmp_path / "energy.csv")
    assert hdr[1:] == list(cosrod.ENERGY_FIELDS)
    np.testing.assert_array_equal(en[:, 0], res.t)
    for k, field in enumerate(cosrod.ENERGY_FIELDS):
        np.testing.assert_array_equal(en[:, 1 + k], res.energy[field], err_msg=field)

    _, st = read_csv(tmp_path / "steps.csv")
    np.testing.assert_array_equal(st, res.steps.view((float, 3)).reshape(-1, 3))
    _, inc = read_csv(tmp_path / "increments.csv") if (tmp_path / "increments.csv").exists() else (None, None)
    if inc is not None:
        np.testing.assert_array_equal(inc, res.increments.view((float, 3)).reshape(-1, 3))
    if name == "omega-twist":
        assert len(res.increments) > 0  # the static case exercised the increments too
    else:
        assert len(res.steps) > 0
