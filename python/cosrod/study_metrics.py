# SPDX-License-Identifier: Apache-2.0
"""Metrics of a study member: functions of its output folder (RunOutput).

A metric is fn(run) -> a number (one column, the metric's name) or a dict
{suffix: number} (columns name_suffix).  The defaults:
  wall_time       the run's wall time [s] (summary.json)
  steps           integrator steps (nsteps; increments of a static analysis)
  tip             final tip position of rod 0 (tip_x, tip_y, tip_z) [m]
  max_strain      max over time and segments of |Gamma|, the shear and extension
                  strain of rod 0 (strains.csv: 0 in the stress-free state)
  max_reaction    max over time and supported ends of the reaction force |F| [N]
  energy_balance  max |balance(t) - balance(0)| of energy.csv [J] (integration error)
A metric that does not apply (no rod, no reactions.csv) is NaN.
"""
import json
import math
import os

import numpy as np


class RunOutput:
    """The files of one run: .dir, .params (the member's parameters),
    .summary (summary.json as a dict), .table(name) -> pandas DataFrame of
    name.csv, .columns(name) -> {column: numpy array} (lighter; both cached,
    None if the run did not write the file; values exact: the files hold
    round-trip decimals)."""

    def __init__(self, d, params=None):
        self.dir = d
        self.params = dict(params or {})
        self._tables = {}
        self._columns = {}
        with open(os.path.join(d, "summary.json")) as f:
            self.summary = json.load(f)

    @property
    def status(self):
        """Status of the member run from its summary.json (ok, failed, interrupted)."""
        return self.summary.get("status")

    def table(self, name):
        """The output file NAME.csv of the run as a pandas DataFrame (None if absent)."""
        if name not in self._tables:
            path = os.path.join(self.dir, name + ".csv")
            if os.path.exists(path):
                import pandas as pd

                self._tables[name] = pd.read_csv(path, float_precision="round_trip")
            else:
                self._tables[name] = None
        return self._tables[name]

    def columns(self, name):
        """The columns of NAME.csv as a dict of numpy arrays (None if absent)."""
        if name not in self._columns:
            path = os.path.join(self.dir, name + ".csv")
            if os.path.exists(path):
                with open(path) as f:
                    head = f.readline().strip().split(",")
                    a = np.loadtxt(f, delimiter=",", ndmin=2)
                a = a.reshape(-1, len(head))
                self._columns[name] = {h: a[:, k] for k, h in enumerate(head)}
            else:
                self._columns[name] = None
        return self._columns[name]


def wall_time(run):
    s = run.summary
    return float(s.get("wall_time", s.get("stats", {}).get("wall_time", math.nan)))


def steps(run):
    s = run.summary
    st = s.get("stats") or {}
    return int(st["nsteps"]) if "nsteps" in st else math.nan


def tip(run):
    rods = run.summary.get("rods") or []
    if rods and rods[0].get("tip") is not None:
        return dict(zip("xyz", map(float, rods[0]["tip"])))
    return {"x": math.nan, "y": math.nan, "z": math.nan}


def max_strain(run):
    s = run.columns("strains")
    if s is None or len(s["t"]) == 0:
        return math.nan
    rod0 = s["rod"] == s["rod"].min()
    g2 = s["Gamma1"] ** 2 + s["Gamma2"] ** 2 + s["Gamma3"] ** 2
    return float(np.sqrt(g2[rod0]).max())


def max_reaction(run):
    r = run.columns("reactions")
    if r is None or len(r["t"]) == 0:
        return math.nan
    return float(np.sqrt(r["Fx"] ** 2 + r["Fy"] ** 2 + r["Fz"] ** 2).max())


def energy_balance(run):
    e = run.columns("energy")
    if e is None or len(e["t"]) == 0:
        return math.nan
    b = e["balance"]
    return float(np.abs(b - b[0]).max())


DEFAULT_METRICS = {"wall_time": wall_time, "steps": steps, "tip": tip, "max_strain": max_strain,
                   "max_reaction": max_reaction, "energy_balance": energy_balance}


def normalise(metrics):
    """A dict name -> fn from None (the defaults), a dict, or a list of
    functions (named by __name__)."""
    if metrics is None:
        return dict(DEFAULT_METRICS)
    if isinstance(metrics, dict):
        return dict(metrics)
    if callable(metrics):
        metrics = [metrics]
    return {getattr(f, "__name__", f"metric{k}"): f for k, f in enumerate(metrics)}


def evaluate(metrics, run):
    """({column: value}, [error messages]) of every metric on run."""
    vals, errs = {}, []
    for name, fn in metrics.items():
        try:
            v = fn(run)
        except Exception as e:  # a metric's bug is the row's message, not the study's end
            errs.append(f"metric {name}: {type(e).__name__}: {e}")
            v = math.nan
        if isinstance(v, dict):
            for k, x in v.items():
                vals[f"{name}_{k}"] = _number(x)
        else:
            vals[name] = _number(v)
    return vals, errs


def _number(x):
    if hasattr(x, "item"):
        x = x.item()
    return x
