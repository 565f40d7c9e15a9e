# SPDX-License-Identifier: Apache-2.0
"""Design studies (cosrod.sweep, `cosrod sweep`): local processes and a Dask
LocalCluster give the same table, failures are rows, studies resume, and a
member's files are those of a plain `cosrod run`.

The members are the rubber pendulum (examples/rubber-pendulum.yaml: rubber
rod along e2, pinned at s = 0, released horizontally) at t_end = 0.05 s.
Until the bending wave from the pin reaches the free end, the tip falls
freely: z_tip = -g t^2 / 2 (the wave speed sqrt(E I / rho A) k for the
dominant wavelengths gives a delay far longer than 0.05 s at the tip of a
0.8-1 m rod of radius 5 mm), which checks the metrics against physics."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

import cosrod
from cosrod import study

FAST = {"analysis.t_end": 0.05, "output.vtk": False, "output.plots": False}
GRID = {"rods.0.length": [0.8, 1.0], "rods.0.segments": [4, 6, 8]}


@pytest.fixture
def pendulum(source_dir):
    return os.path.join(source_dir, "examples", "rubber-pendulum.yaml")


def counting_cli(tmp_path, cli, extra=""):
    """A wrapper of the cosrod program that appends one line per `run` to a
    log (an independent count of the members executed)."""
    log = tmp_path / "runs.log"
    w = tmp_path / "cosrod-counting"
    w.write_text(f'#!/bin/sh\nif [ "$1" = run ]; then echo "$4" >> "{log}"; fi\n{extra}\nexec "{cli}" "$@"\n')
    w.chmod(0o755)
    return str(w), log


def executed(log):
    return log.read_text().split() if log.exists() else []


def test_grid_local_and_dask_give_identical_tables(pendulum, cli, tmp_path):
    from distributed import Client, LocalCluster

    local = cosrod.sweep(pendulum, GRID, set=FAST, out=tmp_path / "local", jobs=2, cli=cli)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c, \
            Client(c) as client:
        dask = cosrod.sweep(pendulum, GRID, set=FAST, out=tmp_path / "dask", client=client, cli=cli)
    assert len(local) == 6 and list(local["status"]) == ["ok"] * 6
    assert sorted(zip(local["rods.0.length"], local["rods.0.segments"])) == \
        sorted((L, N) for L in GRID["rods.0.length"] for N in GRID["rods.0.segments"])
    # deterministic runs: every column but the wall time is equal (dir: by hash)
    pd.testing.assert_frame_equal(local.drop(columns="wall_time"), dask.drop(columns="wall_time"))
    g, t = 9.81, 0.05
    np.testing.assert_allclose(local["tip_z"], -0.5 * g * t * t, rtol=1e-3)  # free fall of the tip
    np.testing.assert_allclose(local["tip_y"], local["rods.0.length"], rtol=2e-3)
    # the table on disk is the returned one
    disk = pd.read_csv(tmp_path / "local" / "sweep.csv", float_precision="round_trip")
    np.testing.assert_array_equal(disk["max_strain"], local["max_strain"])
    assert local.attrs["executed"] == 6


def test_invalid_and_failing_members_are_rows(pendulum, cli, tmp_path):
    grid = {"rods.0.length": [1.0, -1.0], "solver.max_steps": [100000, 20]}
    df = cosrod.sweep(pendulum, grid, set=FAST, out=tmp_path, jobs=2, cli=cli).set_index(
        ["rods.0.length", "solver.max_steps"])
    assert df.loc[(1.0, 100000), "status"] == "ok"
    assert df.loc[(1.0, 20), "status"] == "failed"
    assert "step" in df.loc[(1.0, 20), "message"]  # the solver's reason (step budget)
    for steps in (100000, 20):
        assert df.loc[(-1.0, steps), "status"] == "invalid"
        assert "rods.0.length" in df.loc[(-1.0, steps), "message"]
    assert np.isfinite(df.loc[(1.0, 100000), "max_strain"])


def test_member_files_equal_plain_run(pendulum, cli, tmp_path):
    df = cosrod.sweep(pendulum, {"rods.0.segments": [5]}, set=FAST, out=tmp_path / "s", cli=cli)
    plain = tmp_path / "plain"
    args = [cli, "run", pendulum, "-o", str(plain), "--quiet", "--set", "rods.0.segments=5"]
    for k, v in FAST.items():
        args += ["--set", f"{k}={cosrod._yaml_value(v)}"]
    subprocess.run(args, check=True)
    member = tmp_path / "s" / df["dir"][0]
    csvs = sorted(f for f in os.listdir(plain) if f.endswith(".csv"))
    assert "strains.csv" in csvs and sorted(f for f in os.listdir(member) if f.endswith(".csv")) == csvs
    for f in csvs:
        assert (member / f).read_bytes() == (plain / f).read_bytes(), f
    a, b = (json.loads((d / "summary.json").read_text()) for d in (member, plain))
    for s in (a, b):
        s.pop("wall_time")
        s.pop("output_wall_time", None)
        s["stats"].pop("solver_wall_time")
    assert a == b
    assert df["steps"][0] == b["stats"]["nsteps"]


def _study_cmd(pendulum, out, t_end):
    return [sys.executable, "-m", "cosrod.study_cli", pendulum, "--param", "rods.0.segments=4:9:6",
            "--set", f"analysis.t_end={t_end}", "--set", "output.vtk=false", "--set", "output.plots=false",
            "--jobs", "1", "-q", "-o", str(out)]


def _markers(out):
    d = out / "runs"
    return [r for r in os.listdir(d) if (d / r / study.MARKER).exists()] if d.exists() else []


def resume_after(sig, pendulum, cli, tmp_path):
    wrapper, log = counting_cli(tmp_path, cli)
    out = tmp_path / "study"
    env = dict(os.environ, COSROD_CLI=wrapper)
    cmd = _study_cmd(pendulum, out, 0.2)
    p = subprocess.Popen(cmd, env=env, start_new_session=True, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    while len(_markers(out)) < 2 and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.02)
    assert p.poll() is None, "the study ended before it could be stopped"
    os.killpg(p.pid, sig)  # the whole group, as a terminal's Ctrl-C or a batch system's kill
    rc = p.wait()
    assert rc != 0
    done_first = set(_markers(out))
    first = executed(log)
    assert 2 <= len(done_first) < 6
    if sig == signal.SIGINT:
        assert rc == 130
        table = pd.read_csv(out / "sweep.csv")  # consistent: one row per member
        assert list(table["run"]) == list(range(6))
        assert set(table["status"]) <= {"ok", "pending", "interrupted"}
        assert (table["status"] == "ok").sum() == len(done_first)
    log.write_text("")
    env2 = dict(env)
    r = subprocess.run(cmd, env=env2, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    again = executed(log)
    # the rerun ran exactly the members without a complete folder
    assert len(again) == 6 - len(done_first), (first, again)
    assert not {os.path.basename(d) for d in again} & done_first
    table = pd.read_csv(out / "sweep.csv")
    assert list(table["status"]) == ["ok"] * 6 and list(table["rods.0.segments"]) == [4, 5, 6, 7, 8, 9]


def test_resume_after_kill(pendulum, cli, tmp_path):
    resume_after(signal.SIGKILL, pendulum, cli, tmp_path)


def test_resume_after_ctrl_c(pendulum, cli, tmp_path):
    resume_after(signal.SIGINT, pendulum, cli, tmp_path)


def test_dask_worker_loss_requeues(pendulum, cli, tmp_path):
    """The first attempt of one member kills its Dask worker process (kill -9
    of the wrapper's parent); the scheduler re-queues it on a new worker and
    the study completes with every member ok."""
    from distributed import Client, LocalCluster

    flag = tmp_path / "killed"
    kill = f'case "$*" in *segments=6*) [ -e "{flag}" ] || {{ touch "{flag}"; kill -9 $PPID; sleep 5; }} ;; esac'
    wrapper, log = counting_cli(tmp_path, cli, extra=kill)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            Client(c) as client:
        df = cosrod.sweep(pendulum, {"rods.0.segments": [4, 5, 6]}, set=FAST, out=tmp_path / "s",
                          client=client, cli=wrapper)
    assert flag.exists()
    assert list(df["status"]) == ["ok"] * 3
    runs = executed(log)
    assert len(runs) >= 4 and sorted(set(runs)) == sorted(str(tmp_path / "s" / d) for d in df["dir"])


def test_cli_sweep_writes_table_and_plots(pendulum, cli, tmp_path):
    out = tmp_path / "cli"
    r = subprocess.run([cli, "sweep", pendulum, "--param", "rods.0.segments=4:8:3", "--param",
                        "rods.0.length=0.8,1.0,0", "--set", "analysis.t_end=0.05", "--set", "output.vtk=false",
                        "--set", "output.plots=false", "--jobs", "2", "--plot", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.stderr  # the length 0 members are invalid
    t = pd.read_csv(out / "sweep.csv")
    assert list(t["rods.0.segments"]) == [4, 4, 4, 6, 6, 6, 8, 8, 8]
    assert list(t["rods.0.length"]) == [0.8, 1.0, 0.0] * 3
    assert list(t["status"]) == ["ok", "ok", "invalid"] * 3
    assert "must be > 0" in r.stdout
    assert (out / "plots" / "max_strain.png").stat().st_size > 1000
    r = subprocess.run([cli, "sweep", pendulum, "--param", "rods.0.length", "-o", str(out)], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "--param rods.0.length" in r.stderr


def test_grids_and_samples():
    from cosrod.study_cli import parse_param

    assert parse_param("a.b=1:3:3") == ("a.b", [1, 2, 3])
    assert parse_param("a=0:1:5") == ("a", [0.0, 0.25, 0.5, 0.75, 1.0])
    assert parse_param("g=[0,0,-1],[0,0,-2],radau5") == ("g", ["[0,0,-1]", "[0,0,-2]", "radau5"])
    g = study.product({"a": [1, 2]}, study.zipped({"b": [3, 4, 5], "c": [6, 7, 8]}))
    assert [(r["a"], r["b"], r["c"]) for r in g] == [(a, b, b + 3) for a in (1, 2) for b in (3, 4, 5)]
    with pytest.raises(ValueError):
        study.zipped({"b": [1, 2], "c": [1]})
    n = 16
    s = study.latin_hypercube({"x": (2.0, 4.0), "y": (-1.0, 0.0)}, n, seed=3)
    # a Latin hypercube: each of the n equal bins of every axis holds one sample
    for k, (lo, hi) in {"x": (2.0, 4.0), "y": (-1.0, 0.0)}.items():
        bins = np.floor((s[k].to_numpy() - lo) / (hi - lo) * n).astype(int)
        assert sorted(bins) == list(range(n))


def test_plot_sweep_lines_per_hue():
    import matplotlib

    matplotlib.use("Agg")
    from cosrod import plot

    df = pd.DataFrame({"a": [1, 2, 1, 2, 3], "b": [0, 0, 1, 1, 1], "m": [1.0, 2.0, 3.0, 4.0, 5.0],
                       "status": ["ok"] * 4 + ["failed"]})
    ax = plot.sweep(df, x="a", y="m", hue="b")
    lines = ax.get_lines()
    assert len(lines) == 2
    assert list(lines[1].get_xdata()) == [1, 2] and list(lines[1].get_ydata()) == [3.0, 4.0]
    assert "1 run" in ax.get_title()
