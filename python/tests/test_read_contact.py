# SPDX-License-Identifier: Apache-2.0
"""cosrod.read on the output folder of a CLI run with contact: contact_forces
(contact_forces.csv) as a structured array and a pandas frame, contacts /
obstacles as frames.  Independent reference: the totals per obstacle and of
the rod-rod points recomputed here from the rows of contacts.csv (sum of Fn,
sum of |Ft|, count per output time) equal the file's columns to the
round-off of the summation (n eps sum|x|)."""
import os
import subprocess

import numpy as np
import pytest

import cosrod

pd = pytest.importorskip("pandas")
EPS = np.finfo(float).eps


def run_cli(cli, source_dir, tmp_path, name, sets):
    args = [cli, "run", os.path.join(source_dir, "examples", name + ".yaml"), "-o", str(tmp_path), "--quiet"]
    for k, v in sets.items():
        args += ["--set", f"{k}={v}"]
    subprocess.run(args, check=True)
    return cosrod.read(tmp_path)


def test_contact_forces_equal_contacts_rows(cli, source_dir, tmp_path):
    # hose b falls 10 cm onto hose a (lying on the floor): floor and rod-rod points by t = 0.2
    out = run_cli(cli, source_dir, tmp_path, "rods-crossing",
                  {"analysis.t_end": "0.2", "output.every": "0.05", "output.plots": "false", "output.vtk": "false"})
    cf = out.contact_forces
    assert out.contact_groups == ["floor", "rods"]
    assert cf.dtype.names == ("t", "active", "Fn_floor", "Ft_floor", "n_floor", "Fn_rods", "Ft_rods", "n_rods")
    np.testing.assert_array_equal(cf["t"], out.t)
    c = out.contacts
    assert list(c.columns)[:4] == ["t", "rod", "segment", "other"]
    ft = np.sqrt(c["Ftx"] ** 2 + c["Fty"] ** 2 + c["Ftz"] ** 2)
    group = np.where(c["other"] == "floor", "floor", np.where(c["other"].str.contains(":"), "rods", "?"))
    assert set(group) <= {"floor", "rods"}
    seen = set()
    for k, t in enumerate(cf["t"]):
        at = (c["t"] == t).to_numpy()
        assert cf["active"][k] == at.sum()
        for g in out.contact_groups:
            m = at & (group == g)
            fn, fs = c["Fn"][m].to_numpy(), ft[m].to_numpy()
            assert cf["n_" + g][k] == m.sum()
            assert abs(cf["Fn_" + g][k] - fn.sum()) <= len(fn) * EPS * np.abs(fn).sum()
            assert abs(cf["Ft_" + g][k] - fs.sum()) <= len(fs) * EPS * fs.sum()
            if m.sum():
                seen.add(g)
    assert seen == {"floor", "rods"}  # both groups were active at some output time
    assert np.all(cf["Fn_floor"] > 0) and np.all(cf["Ft_floor"] == 0)  # hose a always on the floor, frictionless
    # the same table through pandas, counts as integers; obstacles.csv as a frame
    df = out.to_pandas()["contact_forces"]
    assert list(df.columns) == list(cf.dtype.names)
    assert df["n_rods"].dtype == np.int64 and df["active"].dtype == np.int64
    np.testing.assert_array_equal(df["Fn_rods"].to_numpy(), cf["Fn_rods"])
    o = out.obstacles
    assert list(o.columns) == ["t", "obstacle", "Fx", "Fy", "Fz", "Mx", "My", "Mz"]
    assert set(o["obstacle"]) == {"floor"} and len(o) == len(out.t)


def test_no_contact_tables(cli, source_dir, tmp_path):
    out = run_cli(cli, source_dir, tmp_path, "catenary",
                  {"analysis.t_end": "0.01", "output.plots": "false", "output.vtk": "false"})
    assert out.contact_forces is None and out.contact_groups == []
    assert out.contacts is None and out.obstacles is None
