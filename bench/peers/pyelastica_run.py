# SPDX-License-Identifier: Apache-2.0
"""What the PyElastica peer runners (pyelastica_hose.py, pyelastica_pendulum.py)
share: their arguments, the samples of the rod at the output times, and the
timed run — a short warm-up run that compiles PyElastica's numba kernels (its
CPU reported as jit_cpu), then the measured run with position Verlet at the
fixed step dt.  PyElastica is imported from PYELASTICA_SRC if that names a
source tree."""
import contextlib
import os
import sys
import time

if os.environ.get("PYELASTICA_SRC"):
    sys.path.insert(0, os.environ["PYELASTICA_SRC"])

import elastica as ea  # noqa: E402


def args():
    """N, dt, t_end, frame from the command line."""
    return int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])


class _Every(ea.CallBackBaseClass):
    """sample(system, time) appended to store every `every` steps."""

    def __init__(self, every, store, sample):
        super().__init__()
        self.every = every
        self.store = store
        self.sample = sample

    def make_callback(self, system, time, current_step):
        if current_step % self.every == 0:
            self.store.append(self.sample(system, float(time)))


def record(sim, rod, sample, dt, frame):
    """Samples of rod at the output times (frame / dt steps apart), then the simulator
    finalised: the list the run fills."""
    store = []
    sim.collect_diagnostics(rod).using(_Every, every=max(1, round(frame / dt)), store=store, sample=sample)
    sim.finalize()
    return store


def cpu():
    t = os.times()
    return t.user + t.system


def timed(build, n, dt, t_end, frame):
    """build(n, dt, frame) -> (simulator, store); returns the measured run's
    store and {steps, cpu, wall, jit_cpu}."""
    c0 = cpu()
    warm, _ = build(n, dt, frame)
    with contextlib.redirect_stdout(sys.stderr):  # its "Final time" line
        ea.integrate(ea.PositionVerlet(), warm, 20 * dt, 20, progress_bar=False)
    jit = cpu() - c0
    sim, store = build(n, dt, frame)
    steps = round(t_end / dt)
    c0, w0 = cpu(), time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        ea.integrate(ea.PositionVerlet(), sim, t_end, steps, progress_bar=False)
    c1, w1 = cpu(), time.perf_counter()
    return store, {"steps": steps, "cpu": c1 - c0, "wall": w1 - w0, "jit_cpu": jit}
