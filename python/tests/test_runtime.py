# SPDX-License-Identifier: Apache-2.0
"""Run-time behaviour of the package: memory over many create/run/free
cycles, threads equal to serial runs, observer, advance / state, Ctrl-C."""
import concurrent.futures
import os
import signal
import threading
import time

import numpy as np
import pytest

import cosrod


def example(source_dir, name):
    return os.path.join(source_dir, "examples", name + ".yaml")


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_no_memory_growth_over_1000_cycles(source_dir):
    # tiny model: N = 2, 20 frames, a few hundred steps per run
    sets = {"rods.0.segments": 2, "analysis.t_end": 0.02, "output.every": 0.001}
    path = example(source_dir, "rubber-pendulum")

    def cycle():
        res = cosrod.Sim(cosrod.load(path, set=sets)).run()
        assert res.centerline.shape == (21, 3, 3)
        return res.centerline[-1, -1, 2]

    z = [cycle() for _ in range(100)]  # warm-up: allocator pools, module caches
    before = rss_kib()
    z += [cycle() for _ in range(900)]
    growth = rss_kib() - before
    # a leak of one frame record (21 x 46 doubles = 7.7 KiB) or of the scenario per
    # cycle would grow RSS by > 6 MiB over 900 cycles; allocator noise stays far below 1 MiB
    assert growth < 1024, f"RSS grew by {growth} KiB over 900 cycles"
    assert len(set(z)) == 1  # every cycle computed the same result


def run_case(path, damping_tau, N):
    sets = {"rods.0.segments": N, "analysis.t_end": 0.1, "output.every": 0.01,
            "rods.0.damping": {"kelvin_voigt": {"tau_shear": damping_tau, "tau_bulk": damping_tau}}}
    res = cosrod.load(path, set=sets).run()
    return res.t, res.centerline, res.energy.copy(), res.stats["nsteps"]


def test_threads_equal_serial(source_dir):
    path = example(source_dir, "rubber-pendulum")
    cases = [(tau, N) for tau in (1e-3, 4e-3) for N in (4, 6)]
    serial = [run_case(path, *c) for c in cases]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        threaded = list(ex.map(lambda c: run_case(path, *c), cases))
    for (c, s, p) in zip(cases, serial, threaded):
        for a, b in zip(s, p):
            np.testing.assert_array_equal(a, b, err_msg=str(c))
    # the cases differ (the sweep is not one run four times)
    assert not np.array_equal(serial[0][1][-1, -1], serial[1][1][-1, -1])
    assert not np.array_equal(serial[0][1][-1, -1], serial[2][1][-1, -1])


def test_observer_sees_every_frame_and_can_stop(source_dir):
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 0.1, "output.every": 0.01})
    seen = []

    def obs(frame):
        seen.append((frame.t, frame.centerline.copy(), frame.energy["kinetic"]))

    res = cosrod.Sim(sc).run(observer=obs)
    assert [s[0] for s in seen] == list(res.t)
    np.testing.assert_array_equal(np.array([s[1] for s in seen]), res.centerline)
    np.testing.assert_array_equal(np.array([s[2] for s in seen]), res.energy["kinetic"])
    res = cosrod.Sim(sc).run(observer=lambda f: f.t >= 0.05)  # true: stop
    assert res.stats["status"] == "interrupted"
    assert res.t[-1] == pytest.approx(0.05, abs=1e-12)

    def bad(frame):
        raise ZeroDivisionError("from the observer")

    with pytest.raises(ZeroDivisionError):
        cosrod.Sim(sc).run(observer=bad)


def test_advance_and_state(source_dir):
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 0.1, "output.every": 0.01})
    ref = cosrod.Sim(sc).run()
    sim = cosrod.Sim(sc)
    tips = []
    for t in ref.t[1:]:
        f = sim.advance(t)
        assert f.t == t
        tips.append(f.centerline[-1])
    # stepping lands on the output times instead of interpolating them: same
    # solution within the integration tolerance (rtol = atol = 1e-8)
    np.testing.assert_allclose(np.array(tips), ref.tip[1:], rtol=0, atol=1e-6)
    # restart from a saved state reproduces the continuation exactly
    sim2 = cosrod.Sim(sc)
    sim2.advance(0.05)
    saved = sim2.state
    sim2.advance(0.1)
    x1 = sim2.frame.centerline.copy()
    sim2.state = saved
    assert sim2.t == 0.05
    sim2.advance(0.1)
    # the integrator restarts (step size and history forgotten): the same
    # solution within the tolerance, and exactly what a new Sim started from
    # the saved state computes
    np.testing.assert_allclose(sim2.frame.centerline, x1, rtol=0, atol=1e-6)
    sim3 = cosrod.Sim(sc)
    sim3.state = saved
    sim3.advance(0.1)
    np.testing.assert_array_equal(sim3.frame.centerline, sim2.frame.centerline)
    np.testing.assert_array_equal(sim3.state[1], sim2.state[1])
    with pytest.raises(cosrod.RunError):
        sim2.advance(0.0)  # backwards
    with pytest.raises(cosrod.CosrodError):
        sim2.state = (0.0, np.full(sim2.ny, np.nan))


def test_ctrl_c_stops_a_run_cleanly(source_dir):
    # a run of several seconds (t_end 50 s of the rubber pendulum); SIGINT after 0.3 s
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 50.0})
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        cosrod.Sim(sc).run()
    assert time.monotonic() - t0 < 5.0
    # the interpreter's own handler is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    res = cosrod.Sim(cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 0.01})).run()
    assert res.ok


def test_modes_equal_cli(source_dir, cli, tmp_path):
    import subprocess

    path = example(source_dir, "kv-cantilever")
    sets = {"analysis": {"type": "modes", "count": 6}, "rods.0.loads": [], "output.vtk": False,
            "output.plots": False}
    args = [cli, "run", path, "-o", str(tmp_path), "--quiet"]
    for k, v in sets.items():
        args += ["--set", f"{k}={cosrod._yaml_value(v)}"]
    subprocess.run(args, check=True)
    res = cosrod.load(path, set=sets).run()
    m = res.modes
    # count: 6 modes reported, the round section's three lowest bending pairs
    assert m is not None and len(m["omega"]) == 6
    rows = np.loadtxt(tmp_path / "modes.csv", delimiter=",", skiprows=1)  # mode,f,omega,rod,vertex,dx..rz
    n1 = res.N + 1
    assert rows.shape == (6 * n1, 11)
    np.testing.assert_array_equal(rows[::n1, 1], m["frequency_hz"])
    np.testing.assert_array_equal(rows[::n1, 2], m["omega"])
    np.testing.assert_array_equal(rows[:, 5:11].reshape(6, n1, 6), m["shapes"])


def test_ctrl_c_stops_an_advance_and_the_sim_goes_on(source_dir):
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 50.0})
    sim = cosrod.Sim(sc)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.advance(50.0)
    t_stop = sim.t
    assert 0.0 < t_stop < 50.0  # stopped at the last accepted step
    x = sim.frame.centerline
    assert np.all(np.isfinite(x))
    sim.advance(t_stop + 0.01)  # continues from there
    assert sim.t == t_stop + 0.01


def test_progress_writes_no_escapes_when_stderr_is_not_a_terminal(source_dir):
    # stderr a pipe: plain "cosrod: t = ..." lines, no carriage returns or
    # terminal escapes (a terminal gets the one redrawn line)
    import subprocess
    import sys
    code = (
        "import cosrod, sys\n"
        "sc = cosrod.load(sys.argv[1], overrides={'analysis.t_end': 0.5})\n"
        "cosrod.Sim(sc).run(progress=True, record=False)\n"
    )
    p = subprocess.run([sys.executable, "-c", code, example(source_dir, "rubber-pendulum")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "cosrod: t = " in p.stderr
    assert "\x1b" not in p.stderr and "\r" not in p.stderr


def test_advance_refusals_give_a_reason(source_dir):
    path = example(source_dir, "rubber-pendulum")
    sim = cosrod.Sim(cosrod.load(path, overrides={"analysis.t_end": 0.01}))
    sim.run()
    with pytest.raises(cosrod.RunError) as ei:
        sim.advance(0.02)
    assert "run() and advance() do not combine" in str(ei.value)
    sim = cosrod.Sim(cosrod.load(path, overrides={"analysis.t_end": 0.01}))
    sim.advance(0.005)
    with pytest.raises(cosrod.RunError) as ei:
        sim.advance(0.001)
    assert "after the current time" in str(ei.value)
    assert sim.advance(0.01).t == pytest.approx(0.01, abs=1e-12)  # still usable


def test_ctrl_c_in_run_then_advance_continues(source_dir):
    # Ctrl-C simulated from the progress observer: signal.raise_signal(SIGINT)
    # inside the run (the extension's handler sets the stop flag)
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 1.0, "output.every": 0.01})
    sim = cosrod.Sim(sc)

    def obs(frame):
        if frame.t >= 0.05:
            signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        sim.run(observer=obs)
    t_stop = sim.t
    assert 0.05 <= t_stop < 1.0
    f = sim.advance(0.2)  # continues from the last accepted state
    assert f.t == 0.2 and np.all(np.isfinite(f.centerline))
    # the same solution as an uninterrupted Sim stepped to 0.2 (both integrate
    # the same ODE with rtol = atol = 1e-8; different step sequences agree to
    # the tolerance times the error growth of the pendulum, far below 1e-5 m)
    ref = cosrod.Sim(sc)
    ref.advance(0.2)
    np.testing.assert_allclose(f.centerline, ref.frame.centerline, rtol=0, atol=1e-5)
    # energy accounting continued too: the balance stays at its tolerance level
    e = f.energy
    assert abs(e["balance"]) < 1e-6 * max(1.0, abs(e["gravity"]))
    with pytest.raises(cosrod.RunError) as ei:
        sim.run()  # a run records from t = 0: refused with the reason
    assert "continue with advance" in str(ei.value)


def test_failed_set_load_leaves_the_sim_usable(source_dir):
    sc = cosrod.load(example(source_dir, "rubber-pendulum"), set={"analysis.t_end": 0.01})
    sim = cosrod.Sim(sc)
    with pytest.raises(TypeError):
        sim.set_load([1, 2])  # not callable
    with pytest.raises(ZeroDivisionError):
        sim.set_load(lambda t, x, v, f, m: 1 / 0)  # raises at t = 0 (set_load evaluates it)
    f = sim.advance(0.005)  # no SystemError: the failed load is not installed
    ref = cosrod.Sim(sc)
    np.testing.assert_array_equal(f.centerline, ref.advance(0.005).centerline)
    # a working load set before a failing one stays in place
    sim = cosrod.Sim(sc)
    calls = []
    sim.set_load(lambda t, x, v, f, m: calls.append(t))
    with pytest.raises(ZeroDivisionError):
        sim.set_load(lambda t, x, v, f, m: 1 / 0)
    sim.advance(0.005)
    assert len(calls) > 2
