# SPDX-License-Identifier: Apache-2.0
"""ScenarioError carries the CLI's file, line and key for every file of the
invalid corpus (tests/scenario/invalid/expected.tsv): the message is the
exact stderr line of `cosrod check`."""
import os
import subprocess

import pytest

import cosrod


def corpus(source_dir):
    d = os.path.join(source_dir, "tests", "scenario", "invalid")
    rows = []
    with open(os.path.join(d, "expected.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            file, lno, key, sub = line.rstrip("\n").split("\t")
            rows.append((os.path.join(d, file), int(lno), key, sub))
    return rows


def test_scenario_error_matches_cli_on_invalid_corpus(cli, source_dir):
    rows = corpus(source_dir)
    assert len(rows) >= 30
    for path, lno, key, sub in rows:
        p = subprocess.run([cli, "check", path], capture_output=True, text=True)
        assert p.returncode == 2, path
        with pytest.raises(cosrod.ScenarioError) as ei:
            cosrod.Sim(cosrod.load(path))
        e = ei.value
        assert str(e) == p.stderr.rstrip("\n"), path
        assert (e.file, e.line, e.key) == (path, lno, key), path
        assert sub in e.problem, path


def test_scenario_error_from_set(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.load(path, set={"rods.0.segmnets": 3})
    e = ei.value
    assert str(e).startswith("--set rods.0.segmnets: ")
    assert (e.file, e.line, e.key) == (None, 0, "rods.0.segmnets")
    assert "did you mean 'segments'" in e.problem
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.load(path, set={"solver.rtol": -1.0})
    assert ei.value.key == "solver.rtol"


def test_missing_file_is_an_error(tmp_path):
    with pytest.raises(cosrod.ScenarioError):
        cosrod.load(tmp_path / "nope.yaml")


def test_every_independent_error_at_once(cli, source_dir):
    """tests/scenario/errors/three-independent.yaml holds three independent
    errors (rods.0 unknown key, rods.1 negative length, solver.rtol not a
    number): one line each, the same text as `cosrod check`."""
    path = os.path.join(source_dir, "tests", "scenario", "errors", "three-independent.yaml")
    p = subprocess.run([cli, "check", path], capture_output=True, text=True)
    assert p.returncode == 2
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.load(path)
    e = ei.value
    assert str(e) == p.stderr.rstrip("\n")
    assert [(f, n, k) for f, n, k, _ in e.errors] == [
        (path, 12, "rods.0.colour"),
        (path, 14, "rods.1.length"),
        (path, 19, "solver.rtol"),
    ]
    assert (e.file, e.line, e.key) == (path, 12, "rods.0.colour")
    assert e.problem == "unknown key"


def test_nan_in_a_scenario_dict_names_the_key():
    d = {"cosrod": 1, "rods": [{"length": 1.0, "material": {"E": 1e9, "poisson": 0.3, "density": float("nan")},
                                "section": {"shape": "circle", "radius": 0.01}}],
         "analysis": {"t_end": 1.0}}
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.Scenario(d)
    e = ei.value
    assert e.key == "rods.0.material.density"
    assert "finite" in e.problem and "nan" in e.problem
    d["rods"][0]["material"]["density"] = 1000.0
    d["gravity"] = [0, 0, float("-inf")]
    with pytest.raises(cosrod.ScenarioError) as ei:
        cosrod.Scenario(d)
    assert ei.value.key == "gravity.2"
