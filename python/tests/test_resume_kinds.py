# SPDX-License-Identifier: Apache-2.0
"""Resumable runs beyond rods: contact with friction and rigid bodies on
joints, killed with SIGKILL at seeded pseudo-random points (the restart
record's writer pauses COSROD_TEST_CHECKPOINT_PAUSE seconds half-way through
its temporary file, so the runs last long enough to be hit and some kills
land inside the writer) or interrupted with SIGINT (the run finishes with
status interrupted and publishes its files), then resumed with
`cosrod run --resume`.  Every resumed run must end with the state of the
uninterrupted one to the integrator's tolerance and with the uninterrupted
run's rows in every CSV file (the same sequence of output times: no
duplicate, no missing row), joints.csv, contacts.csv, obstacles.csv and
contact_forces.csv included, and the same friction dissipation in
summary.json.  The same with HDF5 output: every dataset of run.h5 (joints
included) and of vtk/cosrod.vtkhdf with the uninterrupted run's rows and
output times, the VTKHDF step count and offsets equal, no temporary file left.
A kill that lands after the close published summary.json with status ok (the
last file a run writes) finds a complete run: resuming is refused and the
files must equal the uninterrupted run's.

Bounds.  Both runs integrate the same ODE from the same checkpoint state
with error-per-step control at tol = atol + rtol |y| (HNW I §II.4); with
tolerance proportionality each run's global error is C tol, C the error
amplification over the rest of the run, and |difference| <= 2 C tol.
- A damped rod pulled along the floor against Coulomb friction: the
  sliding is neutrally stable (friction is a constant force along the slip)
  and the rod's and the contact's normal modes are damped, C <= 1 plus the
  restart's local error: C = 2, bound 4 tol.
- A slider on a prismatic joint along an arm spinning at ω = 3 1/s on a
  revolute joint (the null-space partition changes at t = 0.86):
  λ <= ω max|I_i - I_j| / min I_k = 4.5 1/s over at most T = 1.2 s,
  C = exp(5.4) = 221, bound 442 tol.  A state restored in the wrong
  partition blows up (energy x 400).
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

CLI = os.environ.get("COSROD_CLI", "cosrod")

SLIDE = """cosrod: 1
gravity: [0, 0, -9.81]
rods:
  - name: bar
    length: 0.5
    segments: 10
    material: {E: 5.0e6, poisson: 0.5, density: 1100}
    section: {shape: circle, radius: 0.01}
    damping: {kelvin_voigt: {tau_shear: 0.005, tau_bulk: 0.005}}
    shape: {type: straight, start: [0, 0, 0.0099], direction: [1, 0, 0], normal: [0, 0, 1]}
    loads:
      - {type: force, at: end, value: [1.0, 0, 0]}
obstacles:
  - {name: floor, shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}
contact:
  friction: {static: 0.5, kinetic: 0.4}
analysis: {type: dynamic, t_end: 0.6}
solver: {formulation: nullspace, integrator: radau5, rtol: 1.0e-6, atol: 1.0e-6}
output: {every: 0.01, vtk: true, plots: false, checkpoint: {every: 0.05}}
"""

SLIDER = """cosrod: 1
gravity: [0, 0, 0]
bodies:
  - {name: arm, mass: 2.0, inertia: [0.1, 0.2, 0.25], position: [0, 0, 0], angular_velocity: [0, 0, 3]}
  - {name: slider, mass: 0.5, inertia: [0.02, 0.03, 0.04], position: [0.5, 0, 0],
     velocity: [0.2, 1.5, 0], angular_velocity: [0, 0, 3]}
joints:
  - {type: revolute, bodies: [arm, ground], at: [[0, 0, 0], [0, 0, 0]], axis: [0, 0, 1]}
  - {type: prismatic, bodies: [slider, arm], at: [[0, 0, 0], [0.5, 0, 0]], axis: [1, 0, 0]}
analysis: {type: dynamic, t_end: 1.2}
solver: {formulation: nullspace, integrator: dopri5, rtol: 1.0e-7, atol: 1.0e-7}
output: {every: 0.02, vtk: false, plots: false, checkpoint: {every: 0.1}}
"""

H5 = "output: {format: hdf5, "


def hdf5(text):
    """The scenario with HDF5 output (run.h5 and vtk/cosrod.vtkhdf)."""
    assert "output: {" in text
    return text.replace("output: {", H5)


# name: (scenario, rtol = atol, bound in tolerance units, files compared, final-state columns); with HDF5
# output the tables are datasets of run.h5 (the contact files stay CSV) and the columns are named by dataset
CASES = {
    "contact": (SLIDE, 1e-6, 4.0,
                ["centerline.csv", "energy.csv", "contacts.csv", "obstacles.csv", "contact_forces.csv"],
                {"centerline.csv": slice(4, 7), "energy.csv": slice(1, 7)}),
    "joints": (SLIDER, 1e-7, 442.0, ["bodies.csv", "energy.csv", "joints.csv"],
               {"bodies.csv": slice(2, 15), "energy.csv": slice(1, 7)}),
    "contact-hdf5": (hdf5(SLIDE), 1e-6, 4.0, ["contacts.csv", "obstacles.csv", "contact_forces.csv"],
                     {"centerline": slice(4, 7), "energy": slice(1, 7)}),
    "joints-hdf5": (hdf5(SLIDER), 1e-7, 442.0, [], {"bodies": slice(2, 15), "energy": slice(1, 7), "joints": slice(2, 8)}),
}


def run_cli(args, env=None):
    return subprocess.run([CLI] + args, env=dict(os.environ, **(env or {})), capture_output=True, text=True,
                          timeout=120)


def rows(path):
    with open(path) as f:
        f.readline()
        return [line.rstrip("\n").split(",") for line in f]


def h5_tables(path):
    """Every dataset of an HDF5 file by path, and the file's root attributes."""
    import h5py
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda k, v: out.__setitem__(k, v[()]) if isinstance(v, h5py.Dataset) else None)
        attrs = dict(f.attrs)
        steps = int(f["VTKHDF/Steps"].attrs["NumberOfSteps"]) if "VTKHDF/Steps" in f else None
    return out, attrs, steps


def compare_h5(ref, out, case):
    """run.h5 and vtk/cosrod.vtkhdf: the same datasets with the same rows (output times) as the
    uninterrupted run's (the steps table, one row per integrator step, excepted), the VTKHDF steps and
    offsets consistent; returns the worst final-state difference in tolerance units."""
    _, tol, _, _, cols = CASES[case]
    worst = 0.0
    for name in ("run.h5", "vtk/cosrod.vtkhdf"):
        if not (ref / name).exists():
            continue
        (a, aa, sa), (b, ab, sb) = h5_tables(ref / name), h5_tables(out / name)
        assert sorted(a) == sorted(b), f"{name}: datasets {sorted(a)} vs {sorted(b)}"
        for k in a:
            if k == "steps":
                continue
            assert a[k].shape == b[k].shape, f"{name} {k}: {b[k].shape} rows, uninterrupted {a[k].shape}"
            if name == "run.h5":
                assert np.array_equal(a[k][:, 0], b[k][:, 0]), f"{name} {k}: other output times"
        if name == "run.h5":
            assert "summary" in ab and "scenario" in ab, "run.h5 lacks its root attributes"
            for k, c in cols.items():
                last = a[k][:, 0] == a[k][-1, 0]
                x, y = a[k][last][:, c], b[k][last][:, c]
                worst = max(worst, float(np.max(np.abs(x - y) / (tol + tol * np.abs(x)))))
        else:
            assert sb == sa == len(b["VTKHDF/Steps/Values"]), f"VTKHDF steps {sb}, uninterrupted {sa}"
            for k in ("PointOffsets", "CellOffsets", "PartOffsets"):
                assert np.array_equal(a["VTKHDF/Steps/" + k], b["VTKHDF/Steps/" + k]), f"VTKHDF {k}"
            assert np.array_equal(a["VTKHDF/Steps/Values"], b["VTKHDF/Steps/Values"])
    return worst


def compare(ref, out, case):
    _, tol, bound, files, cols = CASES[case]
    worst = 0.0
    if case.endswith("-hdf5"):
        worst, cols = compare_h5(ref, out, case), {}
        assert not (out / ".run.h5.tmp").exists() and not (out / "vtk/.cosrod.vtkhdf.tmp").exists()
    for name in files:
        rr, ro = rows(ref / name), rows(out / name)
        assert [r[0] for r in ro] == [r[0] for r in rr], f"{name}: {len(ro)} rows, uninterrupted {len(rr)}"
        assert all(len(a) == len(b) for a, b in zip(rr, ro)), f"{name}: a truncated row"
    for name, c in cols.items():
        rr, ro = rows(ref / name), rows(out / name)
        t_end = rr[-1][0]
        a = np.array([[float(x) for x in r[c]] for r in rr if r[0] == t_end])
        b = np.array([[float(x) for x in r[c]] for r in ro if r[0] == t_end])
        worst = max(worst, float(np.max(np.abs(a - b) / (tol + tol * np.abs(a)))))
    sa, sb = json.load(open(ref / "summary.json")), json.load(open(out / "summary.json"))
    assert sb["status"] == "ok"
    if "contact" in sa:
        da, db = sa["contact"]["dissipated"], sb["contact"]["dissipated"]
        assert abs(db - da) <= bound * (tol + tol * abs(da)), f"friction dissipation {db} vs {da}"
        assert sb["contact"]["missed"] == sa["contact"]["missed"]
    assert not list(out.glob(".*.tmp")) and not list(out.glob(".*.resume")), "temporary files left"
    return worst


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    base = tmp_path_factory.mktemp("kinds")
    out = {}
    for case, (text, *_rest) in CASES.items():
        y = base / f"{case}.yaml"
        y.write_text(text)
        ref = base / f"{case}-ref"
        r = run_cli(["run", str(y), "-o", str(ref), "-q"])
        assert r.returncode == 0, r.stderr
        out[case] = (y, ref)
    return out


def start_paused(y, d):
    """Start the run of y into d, its writer pausing 0.05 s per record; return
    once the first record exists (or the process ended)."""
    p = subprocess.Popen([CLI, "run", str(y), "-o", str(d), "-q"],
                         env=dict(os.environ, COSROD_TEST_CHECKPOINT_PAUSE="0.05"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    while not (d / "checkpoint.bin").exists() and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.002)
    return p


def trial(y, d, rng, sig):
    """Start the run (writer pausing 0.05 s per record), send sig at a
    seeded time, resume.  Returns the kill's description, or None when the
    run had finished first."""
    p = start_paused(y, d)
    delay = rng.uniform(0.0, 0.65)
    time.sleep(delay)
    if p.poll() is not None:
        return None
    p.send_signal(sig)
    p.wait()
    if p.returncode == 0:  # it finished between the poll and the signal
        return None
    s = d / "summary.json"
    if s.exists() and json.load(open(s))["status"] == "ok":
        # killed after its close published summary.json (the last file it
        # writes): the run is complete, so resuming is refused and the
        # files must already equal the uninterrupted run's
        r = run_cli(["run", "--resume", str(d)])
        assert r.returncode == 2 and "nothing to resume" in r.stderr, r.stderr
        return "complete"
    r = run_cli(["run", "--resume", str(d)])
    assert r.returncode == 0, r.stderr
    t = r.stdout.split("checkpoint at t = ")[1].split(" s")[0]
    return f"{signal.Signals(sig).name} {delay:.3f} s after the first record, resumed from t = {t} s"


@pytest.mark.parametrize("case", sorted(CASES))
def test_kill_resume(scenarios, tmp_path, case):
    y, ref = scenarios[case]
    rng = random.Random(20261128 + len(case))
    done = 0
    for i, sig in enumerate([signal.SIGKILL] * 4 + [signal.SIGINT]):
        d = tmp_path / f"t{i}"
        what = trial(y, d, rng, sig)
        if what is None:
            continue
        worst = compare(ref, d, case)
        if what == "complete":
            print(f"{case} trial {i}: killed after summary.json said ok: files complete")
            continue
        print(f"{case} trial {i}: {what}: final state within {worst:.3g} tolerance units")
        assert worst <= CASES[case][2], f"{case} trial {i} ({what}): {worst:.3g} tolerance units"
        done += 1
    assert done >= 3, "the runs finished before most kills: lengthen them"


def _flag_open_for_write(path):
    """Leave path as a writer killed while its close had reopened the file to
    add the final attributes: opened read-write (no SWMR) in a child process
    that then dies without closing it."""
    code = ("import h5py, os, sys\n"
            "f = h5py.File(sys.argv[1], 'r+')\n"
            "f.attrs['touched'] = 1\n"
            "f.flush()\n"
            "os._exit(9)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=False)


@pytest.mark.parametrize("case", ["contact-hdf5", "joints-hdf5"])
def test_resume_after_kill_in_close_reopen(scenarios, tmp_path, case):
    """A run interrupted (SIGINT: files closed, checkpoint kept, summary.json
    "interrupted"), then its run.h5 and vtk/cosrod.vtkhdf left flagged as open
    for writing, as a kill during the close's attribute reopen leaves them
    (h5py then refuses to open them): resuming must still read their rows and
    end with the uninterrupted run's files."""
    import h5py
    y, ref = scenarios[case]
    d = tmp_path / "run"
    p = start_paused(y, d)
    time.sleep(0.1)
    assert p.poll() is None, "the run finished before the interrupt: lengthen it"
    p.send_signal(signal.SIGINT)
    p.wait()
    assert json.load(open(d / "summary.json"))["status"] == "interrupted"
    for name in ("run.h5", "vtk/cosrod.vtkhdf"):
        if (d / name).exists():
            _flag_open_for_write(d / name)
            with pytest.raises(OSError):
                h5py.File(d / name, "r")
    r = run_cli(["run", "--resume", str(d)])
    assert r.returncode == 0, r.stderr
    worst = compare(ref, d, case)
    assert worst <= CASES[case][2], f"{case}: {worst:.3g} tolerance units"
