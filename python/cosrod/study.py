# SPDX-License-Identifier: Apache-2.0
"""Design studies: parameter sweeps and Monte Carlo samples of one scenario.

    import cosrod
    df = cosrod.sweep("examples/rubber-pendulum.yaml",
                      {"rods.0.length": [0.8, 1.0], "rods.0.segments": [4, 6, 8]},
                      out="study", jobs=4)          # or client=dask.distributed.Client(...)

Every member of a study is a plain `cosrod run` process (the same program, the
same files as a run by hand) in its own folder OUT/runs/<hash>, where <hash>
is the SHA-256 of the effective scenario (the scenario with the member's
overrides, as the loader resolves it, plus the cosrod version).  Processes
isolate the members: a crash, a solver failure or an invalid combination is
one row with its status and message, never the end of the study.  A member is
complete when its folder holds `sweep_run.json` (written last, atomically);
rerunning a study skips complete members, so an interrupted or killed study
resumes where it stopped.  OUT/sweep.csv, one row per member, is replaced
atomically whenever rows change: it is consistent at any moment.

Locally the members run as `jobs` concurrent processes (default: all cores);
with a dask.distributed Client each member is one task on the cluster (the
scheduler re-queues the tasks of a lost worker); the workers need the same
cosrod program and a file system shared with OUT.

`python3 -m cosrod.study` is the engine of the command `cosrod sweep`.
"""
import csv
import hashlib
import itertools
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

from . import load, Scenario, ScenarioError, CosrodError, _yaml_value
from . import study_metrics as _metrics
from .study_metrics import RunOutput, DEFAULT_METRICS

__all__ = ["sweep", "product", "zipped", "sample", "latin_hypercube", "RunOutput", "DEFAULT_METRICS"]

MARKER = "sweep_run.json"
STATUS_OK = "ok"


# ---------------------------------------------------------------- parameters
class Grid:
    """A list of parameter rows (dicts key path -> value), composable with
    product() and zipped().  A dict {key: [values]} is the product of its
    keys' values."""

    def __init__(self, rows):
        self.rows = [dict(r) for r in rows]

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)


def _as_grid(p):
    if isinstance(p, Grid):
        return p
    if isinstance(p, dict):
        keys = list(p)
        vals = [_values(p[k], k) for k in keys]
        return Grid(dict(zip(keys, combo)) for combo in itertools.product(*vals))
    try:
        import pandas as pd

        if isinstance(p, pd.DataFrame):
            return Grid(p.to_dict("records"))
    except ImportError:
        pass
    if isinstance(p, (list, tuple)) and all(isinstance(r, dict) for r in p):
        return Grid(p)
    raise TypeError("params: a dict {key path: [values]}, product(...), zipped(...), a pandas DataFrame "
                    "or a list of dicts")


def _values(v, key):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"params[{key!r}]: a list of values, not {v!r}")
    return [_plain(x) for x in v]


def _plain(x):
    """numpy scalars and arrays as Python values (CSV, JSON, --set)."""
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def product(*grids):
    """Every combination of the rows of the grids (dicts or grids)."""
    out = [{}]
    for g in map(_as_grid, grids):
        out = [{**a, **b} for a in out for b in g.rows]
    return Grid(out)


def zipped(*grids):
    """Row k of every grid merged: a dict's lists are zipped key by key
    (all of one length), e.g. zipped({"a": [1, 2], "b": [3, 4]}) is the two
    rows (1, 3), (2, 4)."""
    parts = []
    for g in grids:
        if isinstance(g, dict):
            n = {len(_values(v, k)) for k, v in g.items()}
            if len(n) > 1:
                raise ValueError(f"zipped: lists of different lengths {sorted(n)}")
            n = n.pop() if n else 0
            parts.append(Grid({k: _plain(list(v)[i]) for k, v in g.items()} for i in range(n)))
        else:
            parts.append(_as_grid(g))
    n = {len(p) for p in parts}
    if len(n) > 1:
        raise ValueError(f"zipped: grids of different lengths {sorted(n)}")
    return Grid({k: v for p in parts for k, v in p.rows[i].items()} for i in range(n.pop() if n else 0))


def sample(sampler, n, bounds):
    """n samples of a scipy.stats.qmc engine (LatinHypercube, Sobol, Halton)
    scaled to bounds {key: (low, high)} (one dimension per key, in order), as
    a pandas DataFrame.  For other distributions map the unit samples through
    the inverse CDF yourself (scipy.stats.norm.ppf) and pass the DataFrame."""
    import pandas as pd
    from scipy.stats import qmc

    keys = list(bounds)
    if sampler.d != len(keys):
        raise ValueError(f"sample: the sampler has {sampler.d} dimensions, bounds {len(keys)}")
    u = sampler.random(n)
    x = qmc.scale(u, [bounds[k][0] for k in keys], [bounds[k][1] for k in keys])
    return pd.DataFrame(x, columns=keys)


def latin_hypercube(bounds, n, seed=None):
    """n Latin hypercube samples (scipy.stats.qmc.LatinHypercube) in the box
    bounds {key: (low, high)}."""
    from scipy.stats import qmc

    return sample(qmc.LatinHypercube(d=len(bounds), seed=seed), n, bounds)


# ---------------------------------------------------------------- members
def _cli_path(cli):
    cli = cli or os.environ.get("COSROD_CLI") or shutil.which("cosrod")
    if not cli:
        raise CosrodError("cosrod.sweep runs the `cosrod` program: put it on the PATH or pass cli= "
                          "(or set COSROD_CLI)")
    return os.path.abspath(cli) if os.sep in cli else cli


def _version(cli):
    try:
        return subprocess.run([cli, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except OSError as e:
        raise CosrodError(f"cannot run {cli}: {e}") from e


def _effective(path, sets, version):
    """(hash, message): the SHA-256 of the resolved scenario with the
    overrides (output.dir normalised; it does not change the results), or
    (None, the loader's one-line message) for an invalid combination."""
    try:
        text = load(path, set={**sets, "output.dir": "."}).to_yaml()
    except ScenarioError as e:
        return None, str(e)
    except CosrodError:
        # the Python loader refuses what only the program runs: key on the
        # file text and the overrides instead (`cosrod run` validates)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace") + "\n" + json.dumps(sorted(sets.items()))
    h = hashlib.sha256((version + "\n" + text).encode()).hexdigest()
    return h, ""


def _scenario_file(scenario, out):
    """The scenario as a file the members' `cosrod run` reads."""
    if isinstance(scenario, (str, os.PathLike)):
        return os.path.abspath(os.fspath(scenario))
    if isinstance(scenario, dict):
        scenario = Scenario(scenario)
    if not isinstance(scenario, Scenario):
        raise TypeError("cosrod.sweep: scenario is a file path, a cosrod.Scenario or a dict")
    path = os.path.join(out, "scenario.yaml")
    scenario.to_yaml(path)
    return path


def _read_marker(d, h):
    try:
        with open(os.path.join(d, MARKER)) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None
    return m if m.get("hash") == h else None


def _write_json_atomic(path, obj):
    tmp = f"{path}.tmp{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, default=_plain)
    os.replace(tmp, path)


def _prctl():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl() if sys.platform.startswith("linux") else None


def _die_with_parent():
    """In the child before exec: SIGTERM when the thread that started it
    ends (PR_SET_PDEATHSIG), so a killed driver or a lost Dask worker
    leaves no member writing into a folder another attempt reuses."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGTERM, 0, 0, 0)


def _setpriv():
    """util-linux's setpriv sets PR_SET_PDEATHSIG before exec without a
    preexec_fn (which forces a fork of this whole process per member)."""
    exe = shutil.which("setpriv") if _PRCTL is not None else None
    if exe and subprocess.run([exe, "--pdeathsig", "TERM", "true"], capture_output=True).returncode == 0:
        return [exe, "--pdeathsig", "TERM"]
    return []


_SETPRIV = _setpriv()
_RUNNING = {}  # Popen of the members running in this process (local mode), by hash
_RUNNING_LOCK = threading.Lock()


def _status_of(rc, d, stderr):
    """(status, message) of a finished `cosrod run` ([manual: command line, output reference] exit status)."""
    summ = {}
    try:
        with open(os.path.join(d, "summary.json")) as f:
            summ = json.load(f)
    except (OSError, ValueError):
        pass
    err = " ".join(line.strip() for line in stderr.strip().splitlines()[-3:])
    if rc == 0:
        return STATUS_OK, ""
    if rc == 2:
        return "invalid", err or "invalid input (exit 2)"
    if rc == 1:
        msg = summ.get("message") or summ.get("reason") or err or "the run failed (exit 1)"
        t = summ.get("t_failed", summ.get("t_reached"))
        if t is not None and "t =" not in str(msg):
            msg = f"{msg} (t = {t})"
        return "failed", str(msg)
    if rc in (128 + signal.SIGINT, 128 + signal.SIGTERM, 128 + signal.SIGHUP, -signal.SIGINT, -signal.SIGTERM):
        return "interrupted", f"interrupted (exit {rc})"
    return "crashed", err or (f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}")


def run_one(task):
    """Run one member (skipped when its folder is complete) and evaluate the
    metrics on its files.  Returns the member's row (a dict) with
    "_executed": whether `cosrod run` was started.  Runs on a local thread
    or as a Dask task."""
    d, h = task["dir"], task["hash"]
    m = _read_marker(d, h)
    executed = False
    if m is None:
        if os.path.isdir(d):
            shutil.rmtree(d)  # an interrupted member: start afresh
        os.makedirs(d)
        cmd = _SETPRIV + [task["cli"], "run", task["file"], "-o", d, "--quiet"]
        for k, v in task["sets"].items():
            cmd += ["--set", f"{k}={v}"]
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=None if _SETPRIV else _die_with_parent)
        with _RUNNING_LOCK:
            _RUNNING[h] = p
        try:
            _, stderr = p.communicate(timeout=task.get("timeout"))
        except subprocess.TimeoutExpired:
            p.terminate()
            _, stderr = p.communicate()
            stderr = f"timeout after {task['timeout']} s"
            p.returncode = 124
        finally:
            with _RUNNING_LOCK:
                _RUNNING.pop(h, None)
        executed = True
        status, message = _status_of(p.returncode, d, stderr)
        m = {"hash": h, "status": status, "message": message, "exit": p.returncode,
             "process_time": time.monotonic() - t0}
        if status != "interrupted":
            _write_json_atomic(os.path.join(d, MARKER), m)
    row = {"status": m["status"], "message": m["message"]}
    if m["status"] in (STATUS_OK, "failed"):
        vals, errs = _metrics.evaluate(task["metrics"], RunOutput(d, task["params"]))
        row.update(vals)
        if errs:
            row["message"] = "; ".join(filter(None, [row["message"]] + errs))
    row["_executed"] = executed
    return row


# ---------------------------------------------------------------- the study
class _Progress:
    """runs done / failed / reused and an ETA on stderr (a terminal)."""

    def __init__(self, total, enabled):
        self.total, self.enabled = total, enabled
        self.done = self.failed = self.reused = 0
        self.t0 = time.monotonic()
        self.last = 0.0

    def update(self, row, force=False):
        if row is not None:
            self.done += 1
            self.failed += row["status"] != STATUS_OK
            self.reused += not row.get("_executed", False)
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last < 0.2):
            return
        self.last = now
        frac = self.done / self.total if self.total else 1.0
        ran = self.done - self.reused
        eta = "?"
        if ran > 0:
            rest = (now - self.t0) / ran * (self.total - self.done)
            eta = f"{rest:.0f}s" if rest < 120 else f"{rest / 60:.0f}min" if rest < 7200 else f"{rest / 3600:.1f}h"
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} runs, {self.failed} failed"
                         f"{f', {self.reused} reused' if self.reused else ''}, ETA {eta}   ")
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            self.update(None, force=True)
            sys.stderr.write("\n")


class _Table:
    """The rows of the study and OUT/sweep.csv (replaced atomically, at most
    every `every` seconds and at the end)."""

    def __init__(self, path, rows, pnames, every=1.0):
        self.path, self.rows, self.pnames, self.every = path, rows, pnames, every
        self.last = 0.0
        self.metric_cols = []

    def set(self, idx, row):
        for k in row:
            if k not in self.metric_cols and k not in ("status", "message", "_executed"):
                self.metric_cols.append(k)
        for i in idx:
            self.rows[i].update({k: v for k, v in row.items() if k != "_executed"})

    def frame(self):
        import pandas as pd

        cols = ["run"] + self.pnames + ["status"] + self.metric_cols + ["message", "dir", "hash"]
        df = pd.DataFrame(self.rows)
        for c in cols:
            if c not in df:
                df[c] = math.nan
        return df[cols]

    def write(self, force=False):
        now = time.monotonic()
        if not force and now - self.last < self.every:
            return
        self.last = now
        cols = ["run"] + self.pnames + ["status"] + self.metric_cols + ["message", "dir", "hash"]
        tmp = f"{self.path}.tmp{os.getpid()}"
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(cols)
            for r in self.rows:
                w.writerow([_cell(r.get(c)) for c in cols])
        os.replace(tmp, self.path)


def _cell(v):
    """A CSV field: floats in round-trip form (repr), NaN / None empty."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v)
    return v


def _stop_running(grace=2.0):
    """Ctrl-C: members that did not stop by themselves (the terminal sends
    SIGINT to them too) get SIGTERM after `grace` seconds and end
    'interrupted' ([manual: command line, output reference])."""
    t_end = time.monotonic() + grace
    while time.monotonic() < t_end:
        with _RUNNING_LOCK:
            alive = [p for p in _RUNNING.values() if p.poll() is None]
        if not alive:
            return
        time.sleep(0.05)
    for p in alive:
        try:
            p.send_signal(signal.SIGTERM)
        except OSError:
            pass


def _error_row(e):
    return {"status": "error", "message": f"{type(e).__name__}: {e}", "_executed": True}


def _run_local(tasks, jobs, done):
    import concurrent.futures as cf

    ex = cf.ThreadPoolExecutor(max_workers=jobs)
    futs = {ex.submit(run_one, t): t for t in tasks}
    seen = set()
    try:
        for f in cf.as_completed(futs):
            seen.add(f)
            done(futs[f], _error_row(f.exception()) if f.exception() else f.result())
    except KeyboardInterrupt:
        for f in futs:
            f.cancel()
        _stop_running()
        cf.wait(futs)
        for f in futs:
            if f not in seen and not f.cancelled():
                done(futs[f], _error_row(f.exception()) if f.exception() else f.result())
        raise
    finally:
        ex.shutdown(wait=True)


def _run_dask(tasks, client, done):
    from distributed import as_completed

    futs = {}
    for t in tasks:
        futs[client.submit(run_one, t, key=f"cosrod-run-{t['hash']}", pure=False)] = t
    try:
        for f in as_completed(list(futs)):
            if f.status == "error":
                done(futs[f], _error_row(f.exception()))
            else:
                done(futs[f], f.result())
    except KeyboardInterrupt:
        client.cancel(list(futs))  # members already running finish on their workers (and stay reusable)
        raise


def sweep(scenario, params, metrics=None, client=None, out="sweep", jobs=None, set=None, derive=None,
          cli=None, timeout=None, progress=None):
    """Run a study: one `cosrod run` of `scenario` per parameter row.

    scenario  a scenario file, a cosrod.Scenario or a dict
    params    {key path: [values]} (their product), product(...) / zipped(...)
              of such dicts, a pandas DataFrame of samples (columns = key paths;
              see latin_hypercube / sample) or a list of dicts
    metrics   None (DEFAULT_METRICS), a dict name -> fn(RunOutput) or a list
              of functions; a dict-valued metric gives columns name_key
    client    a dask.distributed.Client: each member is a task on its cluster;
              None: `jobs` local processes (default: os.cpu_count())
    out       the study folder: OUT/sweep.csv and OUT/runs/<hash>/
    set       fixed overrides {key path: value} for every member
    derive    fn(row) -> {key path: value}: the overrides of a row (instead of
              the row itself), for parameters that are not scenario keys
    cli       the cosrod program (default: $COSROD_CLI, then `cosrod` on the PATH)
    timeout   seconds per member (then status "crashed", message "timeout")
    progress  progress bar on stderr (default: when stderr is a terminal)

    Returns a pandas DataFrame, one row per parameter row: run, the
    parameters, status (ok | failed | invalid | crashed | interrupted |
    error | pending), the metrics, message, dir (relative to out), hash.
    df.attrs["executed"] counts the members run (not reused).  Ctrl-C stops
    the study (sweep.csv stays consistent; rerun to resume) and raises
    KeyboardInterrupt."""
    out = os.path.abspath(os.fspath(out))
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    metrics = _metrics.normalise(metrics)
    grid = _as_grid(params)
    file = _scenario_file(scenario, out)
    cli = _cli_path(cli)
    version = _version(cli)
    pnames = []
    for r in grid:
        pnames += [k for k in r if k not in pnames]
    rows, tasks, by_hash = [], [], {}
    for i, p in enumerate(grid):
        p = {k: _plain(v) for k, v in p.items()}
        sets = dict(set or {})
        sets.update(derive(dict(p)) if derive else p)
        h, msg = _effective(file, sets, version)
        row = {"run": i, **p, "status": "pending", "message": msg, "dir": "", "hash": h or ""}
        if h is None:
            row["status"] = "invalid"
        else:
            row["dir"] = os.path.join("runs", h[:16])
            if h not in by_hash:
                by_hash[h] = []
                tasks.append({"hash": h, "dir": os.path.join(out, row["dir"]), "file": file, "cli": cli,
                              "sets": {k: _yaml_value(v) for k, v in sets.items()}, "params": p,
                              "metrics": metrics, "timeout": timeout})
            by_hash[h].append(i)
        rows.append(row)
    table = _Table(os.path.join(out, "sweep.csv"), rows, pnames)
    bar = _Progress(len(rows), sys.stderr.isatty() if progress is None else progress)
    for r in rows:
        if r["status"] == "invalid":
            bar.update(r)
    executed = 0

    def done(task, row):
        nonlocal executed
        executed += row.get("_executed", False)
        table.set(by_hash[task["hash"]], row)
        for _ in by_hash[task["hash"]]:
            bar.update(row)
        table.write()

    table.write(force=True)
    try:
        if client is None:
            _run_local(tasks, jobs or os.cpu_count() or 1, done)
        else:
            _run_dask(tasks, client, done)
    finally:
        table.write(force=True)
        bar.close()
    df = table.frame()
    df.attrs["executed"] = executed
    df.attrs["out"] = out
    return df
