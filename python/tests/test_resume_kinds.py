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
summary.json.

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

# name: (scenario, rtol = atol, bound in tolerance units, files compared, final-state columns)
CASES = {
    "contact": (SLIDE, 1e-6, 4.0,
                ["centerline.csv", "energy.csv", "contacts.csv", "obstacles.csv", "contact_forces.csv"],
                {"centerline.csv": slice(4, 7), "energy.csv": slice(1, 7)}),
    "joints": (SLIDER, 1e-7, 442.0, ["bodies.csv", "energy.csv", "joints.csv"],
               {"bodies.csv": slice(2, 15), "energy.csv": slice(1, 7)}),
}


def run_cli(args, env=None):
    return subprocess.run([CLI] + args, env=dict(os.environ, **(env or {})), capture_output=True, text=True,
                          timeout=120)


def rows(path):
    with open(path) as f:
        f.readline()
        return [line.rstrip("\n").split(",") for line in f]


def compare(ref, out, case):
    _, tol, bound, files, cols = CASES[case]
    for name in files:
        rr, ro = rows(ref / name), rows(out / name)
        assert [r[0] for r in ro] == [r[0] for r in rr], f"{name}: {len(ro)} rows, uninterrupted {len(rr)}"
        assert all(len(a) == len(b) for a, b in zip(rr, ro)), f"{name}: a truncated row"
    worst = 0.0
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


def trial(y, d, rng, sig):
    """Start the run (writer pausing 0.05 s per record), send sig at a
    seeded time, resume.  Returns the kill's description, or None when the
    run had finished first."""
    p = subprocess.Popen([CLI, "run", str(y), "-o", str(d), "-q"],
                         env=dict(os.environ, COSROD_TEST_CHECKPOINT_PAUSE="0.05"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    while not (d / "checkpoint.bin").exists() and p.poll() is None and time.monotonic() - t0 < 60:
        time.sleep(0.002)
    delay = rng.uniform(0.0, 0.65)
    time.sleep(delay)
    if p.poll() is not None:
        return None
    p.send_signal(sig)
    p.wait()
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
        print(f"{case} trial {i}: {what}: final state within {worst:.3g} tolerance units")
        assert worst <= CASES[case][2], f"{case} trial {i} ({what}): {worst:.3g} tolerance units"
        done += 1
    assert done >= 3, "the runs finished before most kills: lengthen them"
