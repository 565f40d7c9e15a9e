# SPDX-License-Identifier: Apache-2.0
"""Sim.run(output=DIR) writes the files of `cosrod run`: the same file set and
the same bytes (both go through the library's recorder, cosrod_recorder);
summary.json agrees except for its wall-clock times."""
import json
import os
import re
import subprocess

import pytest

import cosrod

# one scenario per path of the driver: dynamic (explicit, rods with bodies and
# joints), static load stepping, arc-length, keyframe path, modes with
# bodies, buckling; shortened, plots off (gnuplot output is not compared)
CASES = {
    "rubber-pendulum": {"analysis.t_end": 0.05},
    "cable-pendulum": {"analysis.t_end": 0.05},
    "omega-twist": {},
    "snap-through": {},
    "assembly-path": {},
    "hinged-body-modes": {},
    "buckling": {"rods.0.segments": 16},
}
WALL = ("wall_time", "solver_wall_time", "output_wall_time")


def files(d):
    out = {}
    for dp, _, fn in os.walk(d):
        for f in fn:
            p = os.path.join(dp, f)
            out[os.path.relpath(p, d)] = p
    return out


def strip_wall(o):
    if isinstance(o, dict):
        return {k: strip_wall(v) for k, v in o.items() if k not in WALL}
    if isinstance(o, list):
        return [strip_wall(v) for v in o]
    return o


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_dir_equals_cli(name, cli, source_dir, tmp_path):
    path = os.path.join("examples", name + ".yaml")
    sets = dict(CASES[name], **{"output.plots": False})
    args = [cli, "run", path, "-o", str(tmp_path / "cli"), "--quiet"]
    for k, v in sets.items():
        args += ["--set", f"{k}={cosrod._yaml_value(v)}"]
    subprocess.run(args, check=True, cwd=source_dir)
    cwd = os.getcwd()
    os.chdir(source_dir)  # the same relative scenario path in summary.json
    try:
        res = cosrod.load(path, set=sets).run(output=tmp_path / "py")
    finally:
        os.chdir(cwd)
    assert res.ok
    a, b = files(tmp_path / "cli"), files(tmp_path / "py")
    assert sorted(a) == sorted(b)
    assert "summary.json" in a and len(a) > 2
    for rel in a:
        if rel == "summary.json":
            ja, jb = (strip_wall(json.load(open(x))) for x in (a[rel], b[rel]))
            assert ja == jb
        elif rel == "view.html":  # the page inlines summary.json: the same apart from wall times
            ta, tb = (re.sub(rb'(wall_time[a-z_]*\\?": )[-0-9.e+]+', rb"\1X", open(x, "rb").read())
                      for x in (a[rel], b[rel]))
            assert ta == tb, rel
        elif rel == os.path.join("vtk", "tubes.py"):  # names its own folder's cosrod.pvd
            ta, tb = (open(x, "rb").read().replace(os.fsencode(os.path.realpath(d)), b"DIR")
                      for x, d in ((a[rel], tmp_path / "cli"), (b[rel], tmp_path / "py")))
            assert ta == tb, rel
        else:
            with open(a[rel], "rb") as fa, open(b[rel], "rb") as fb:
                assert fa.read() == fb.read(), rel


def test_output_dir_unwritable(tmp_path, source_dir):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    sc = cosrod.load(os.path.join(source_dir, "examples", "rubber-pendulum.yaml"), set={"analysis.t_end": 0.01})
    with pytest.raises(cosrod.CosrodError, match="output directory"):
        sc.run(output=blocker / "sub")
