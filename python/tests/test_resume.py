# SPDX-License-Identifier: Apache-2.0
"""Resumable runs: `cosrod run --resume DIR` and Sim.resume(dir).

A short dynamic example (the cable pendulum: a rod with Kelvin-Voigt
damping carrying a rigid body, radau5, rtol = atol = 1e-6) is run once
uninterrupted, then killed with SIGKILL at seeded pseudo-random points
(some of them while the restart record is being written: the test hook
COSROD_TEST_CHECKPOINT_PAUSE makes the writer pause half-way through its
temporary file) and resumed.  Every resumed run must end with the state of
the uninterrupted one to the integrator's tolerance and with complete,
duplicate-free files.

Bound on the final state.  Both runs integrate the same ODE from the same
checkpoint state (the resumed one restarts the method there), each with a
local error per step below tol = atol + rtol |y| (error-per-step control,
HNW I §II.4).  The global error of each run is at most
of the order of tol times the error amplification; with tolerance
proportionality (global error ~ C tol, C the error amplification of the
problem) and the pendulum's amplification over T = 0.5 s bounded by
exp(L T) with L = sqrt(g / l) ~ 3.1 1/s (the swing's rate; the damped
cable modes contract), C <= exp(1.55) < 5.  Two runs: |difference| <=
2 C tol <= 10 (atol + rtol |y|); we assert that.  A duplicated or lost
piece of the energy accounts or a state restored at the wrong time gives
differences of 1e-3 .. 1 (the swing moves ~1 m/s).
"""
import json
import os
import random
import signal
import subprocess
import time

import numpy as np
import pytest

import cosrod

CLI = os.environ.get("COSROD_CLI", "cosrod")
SRC = os.environ.get("COSROD_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLE = os.path.join(SRC, "examples", "cable-pendulum.yaml")
RTOL = ATOL = 1e-6  # the example's solver.rtol / atol
SETS = ["output.vtk=false", "output.plots=false", "analysis.t_end=0.5", "output.every=0.01",
        "output.checkpoint.every=0.02"]
FRAME_FILES = ["centerline.csv", "frames.csv", "strains.csv", "curvatures.csv", "energy.csv", "bodies.csv",
               "reactions.csv"]


def run_cli(args, env=None, **kw):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([CLI] + args, env=e, capture_output=True, text=True, timeout=120, **kw)


def sets_args(extra=()):
    a = []
    for s in list(SETS) + list(extra):
        a += ["--set", s]
    return a


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    d = tmp_path_factory.mktemp("ref") / "out"
    r = run_cli(["run", EXAMPLE, "-o", str(d), "-q"] + sets_args())
    assert r.returncode == 0, r.stderr
    return d


def read_csv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split(",")
        rows = [line.rstrip("\n").split(",") for line in f]
    return header, rows


def check_files(ref, out):
    """Every frame CSV: the reference's rows count, its output times, no
    duplicate key (t + index columns), times non-decreasing; steps.csv: times
    non-decreasing."""
    for name in FRAME_FILES:
        assert (ref / name).exists() == (out / name).exists(), name
        if not (ref / name).exists():
            continue
        hr, rr = read_csv(ref / name)
        ho, ro = read_csv(out / name)
        assert ho == hr, name
        assert len(ro) == len(rr), f"{name}: {len(ro)} rows, uninterrupted {len(rr)}"
        nkey = {"energy.csv": 1, "bodies.csv": 2, "reactions.csv": 3}.get(name, 3)
        keys = [tuple(r[:nkey]) for r in ro]
        assert len(set(keys)) == len(keys), f"{name}: duplicate rows"
        t = np.array([float(r[0]) for r in ro])
        assert np.all(np.diff(t) >= 0), f"{name}: times go back"
        assert np.array_equal(np.unique(t), np.unique([float(r[0]) for r in rr])), f"{name}: output times differ"
        assert all(len(r) == len(hr) for r in ro), f"{name}: a truncated row"
    assert (ref / "steps.csv").exists() == (out / "steps.csv").exists()
    if (out / "steps.csv").exists():
        _, st = read_csv(out / "steps.csv")
        ts = np.array([float(r[0]) for r in st])
        assert np.all(np.diff(ts) >= 0), "steps.csv: times go back"


def final_difference(ref, out):
    """Largest |difference| / (atol + rtol |y|) over the last frame of
    centerline.csv and bodies.csv (position, orientation, velocity) and the
    energy terms of energy.csv."""
    worst = 0.0
    for name, cols in (("centerline.csv", slice(4, 7)), ("bodies.csv", slice(2, 15)), ("energy.csv", slice(1, 7))):
        if not (ref / name).exists():  # output.fields without it, or no bodies
            continue
        _, rr = read_csv(ref / name)
        _, ro = read_csv(out / name)
        t_end = rr[-1][0]
        a = np.array([[float(x) for x in r[cols]] for r in rr if r[0] == t_end])
        b = np.array([[float(x) for x in r[cols]] for r in ro if r[0] == t_end])
        assert a.shape == b.shape and a.size > 0, name
        worst = max(worst, float(np.max(np.abs(a - b) / (ATOL + RTOL * np.abs(a)))))
    return worst


def kill_and_resume(ref, d, rng, during):
    """One trial: start the run, SIGKILL it at a seeded point (during=True:
    while the writer of checkpoint.bin pauses inside its temporary file),
    resume, check.  Returns (kill description, final difference in units of
    the tolerance)."""
    env = {"COSROD_TEST_CHECKPOINT_PAUSE": "0.3"} if during else None
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.Popen([CLI, "run", EXAMPLE, "-o", str(d), "-q"] + sets_args(), env=e,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ck, tmp = d / "checkpoint.bin", d / ".checkpoint.bin.tmp"
    t0 = time.monotonic()
    while not ck.exists() and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.002)
    if during:  # the k-th pause of the writer after the first record
        k = rng.randrange(1, 8)
        seen, was = 0, False
        while p.poll() is None and seen < k:
            now = tmp.exists()
            seen += now and not was
            was = now
            time.sleep(0.002)
        what = f"inside the writer's pause #{k}"
    else:
        delay = rng.uniform(0.0, 1.0)
        time.sleep(delay)
        what = f"{delay:.3f} s after the first checkpoint"
    killed = p.poll() is None
    if killed:
        p.send_signal(signal.SIGKILL)
    p.wait()
    s = d / "summary.json"
    if killed and (p.returncode == 0 or (s.exists() and json.load(open(s))["status"] == "ok")):
        killed = False  # it finished between the poll and the kill (summary.json is published last)
    if during and killed:
        assert tmp.exists(), "the kill was meant to hit the writer"
    r = run_cli(["run", "--resume", str(d)])
    if killed:
        what += " (resumed from t = " + r.stdout.split("checkpoint at t = ")[1].split(" s")[0] + " s)"
    if not killed:  # it finished first: the resume is refused
        assert r.returncode == 2 and "finished" in r.stderr, r.stderr
        return what + " (the run had finished)", final_difference(ref, d)
    assert r.returncode == 0, r.stderr
    assert json.load(open(d / "summary.json"))["status"] == "ok"
    assert not tmp.exists()
    check_files(ref, d)
    return what, final_difference(ref, d)


def trials(reference, tmp_path, seed, kinds):
    rng = random.Random(seed)
    worst = 0.0
    for i, during in enumerate(kinds):
        what, diff = kill_and_resume(reference, tmp_path / f"t{i}", rng, during)
        print(f"trial {i}: killed {what}: final state within {diff:.3g} tolerance units")
        assert diff <= 10.0, f"trial {i} ({what}): {diff:.3g} tolerance units from the uninterrupted run"
        worst = max(worst, diff)
    print(f"worst: {worst:.3g} tolerance units")


def test_kill_resume_trials_1(reference, tmp_path):
    """Trials 1-5 (seeded): kills at random times, two inside the writer."""
    trials(reference, tmp_path, 20261128, [False, True, False, False, True])


def test_kill_resume_trials_2(reference, tmp_path):
    """Trials 6-10 (seeded): kills at random times, two inside the writer."""
    trials(reference, tmp_path, 30, [True, False, False, True, False])


def test_resume_refused_when_scenario_changed(reference, tmp_path):
    d = tmp_path / "out"
    p = subprocess.Popen([CLI, "run", EXAMPLE, "-o", str(d), "-q"] + sets_args(),
                         env=dict(os.environ, COSROD_TEST_CHECKPOINT_PAUSE="0.3"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not (d / ".checkpoint.bin.tmp").exists() or not (d / "checkpoint.bin").exists():
        assert p.poll() is None
        time.sleep(0.002)
    p.send_signal(signal.SIGKILL)
    p.wait()
    before = {f: (d / f).read_bytes() for f in FRAME_FILES}
    r = run_cli(["run", "--resume", str(d), EXAMPLE] + sets_args(["rods.0.segments=12"]))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "rods.0.segments: 12 (checkpoint: 10)" in lines[0], r.stderr
    r = run_cli(["run", "--resume", str(d), "--set", "solver.rtol=1e-7"])
    assert r.returncode == 2 and "solver.rtol: 1e-07 (checkpoint: 1e-06)" in r.stderr, r.stderr
    assert {f: (d / f).read_bytes() for f in FRAME_FILES} == before  # nothing touched
    # the same scenario given again (a different checkpoint interval is no change) resumes
    r = run_cli(["run", "--resume", str(d), EXAMPLE, "-q"] + sets_args(["output.checkpoint.every=0.1"]))
    assert r.returncode == 0, r.stderr
    check_files(reference, d)
    assert final_difference(reference, d) <= 10.0
    r = run_cli(["run", "--resume", str(d)])  # finished
    assert r.returncode == 2 and "nothing to resume" in r.stderr


def test_checkpoint_keys_validated(tmp_path):
    for s, msg in (("output.checkpoint.every=0", "output.checkpoint.every: must be > 0"),
                   ("output.checkpoint.wal=3", "output.checkpoint.wal: unknown key"),
                   ("output.checkpoint=5", "output.checkpoint: expected a mapping")):
        r = run_cli(["check", EXAMPLE, "--set", s])
        assert r.returncode == 2 and msg in r.stderr, r.stderr
    y = tmp_path / "s.yaml"
    y.write_text(open(EXAMPLE).read().replace("output: {dir: out/cable-pendulum,",
                                              "output: {checkpoint: {wall: -1}, dir: out/cable-pendulum,"))
    r = run_cli(["check", str(y)])
    assert r.returncode == 2 and f"{y}:" in r.stderr and "output.checkpoint.wall: must be > 0" in r.stderr, r.stderr


def test_static_refused_hdf5_missing_file(tmp_path):
    d = tmp_path / "st"
    r = run_cli(["run", os.path.join(SRC, "examples", "catenary-static.yaml"), "-o", str(d), "-q",
                 "--set", "output.vtk=false", "--set", "output.plots=false"])
    assert r.returncode == 0, r.stderr
    (d / "summary.json").write_text('{"status": "interrupted"}')
    r = run_cli(["run", "--resume", str(d)])
    assert r.returncode == 2 and "no restart checkpoint" in r.stderr, r.stderr
    d = tmp_path / "h5"  # hdf5 output writes a record; without its run.h5 a resume says which file is missing
    p = subprocess.Popen([CLI, "run", EXAMPLE, "-o", str(d), "-q"] + sets_args(["output.format=hdf5"]),
                         env=dict(os.environ, COSROD_TEST_CHECKPOINT_PAUSE="0.3"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    while not (d / "checkpoint.bin").exists() and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.005)
    p.kill()
    p.wait()
    assert (d / "checkpoint.bin").exists() and (d / "run.h5").exists()
    (d / "run.h5").unlink()
    r = run_cli(["run", "--resume", str(d)])
    assert r.returncode != 0 and "run.h5" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    sc = cosrod.load(EXAMPLE, overrides={"output.vtk": False, "output.plots": False})
    d2 = tmp_path / "dyn"
    with pytest.raises(cosrod.CosrodError, match="no restart checkpoint"):
        cosrod.Sim.resume(d2, sc)


def test_python_sim_resume(reference, tmp_path):
    """Sim.resume(dir) after a kill of `cosrod run` in the writer's pause:
    the same files and final state as the uninterrupted run."""
    d = tmp_path / "out"
    p = subprocess.Popen([CLI, "run", EXAMPLE, "-o", str(d), "-q"] + sets_args(),
                         env=dict(os.environ, COSROD_TEST_CHECKPOINT_PAUSE="0.3"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen, was = 0, False
    while seen < 4:
        assert p.poll() is None
        now = (d / ".checkpoint.bin.tmp").exists()
        seen += now and not was
        was = now
        time.sleep(0.002)
    p.send_signal(signal.SIGKILL)
    p.wait()
    res = cosrod.Sim.resume(d)
    assert res.ok
    t = np.asarray(res.t)
    assert t[0] > 0.0 and abs(t[-1] - 0.5) < 1e-12  # the continued part's frames only
    check_files(reference, d)
    assert final_difference(reference, d) <= 10.0
    with pytest.raises(cosrod.CosrodError, match="nothing to resume"):
        cosrod.Sim.resume(d)
