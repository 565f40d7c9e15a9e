# SPDX-License-Identifier: Apache-2.0
"""cosrod: discrete Cosserat rods from Python.

    import cosrod
    sc = cosrod.load("examples/rubber-pendulum.yaml", overrides={"rods.0.segments": 20})
    res = cosrod.Sim(sc).run()
    res.t            # (n_t,) output times [s]
    res.centerline   # (n_t, N+1, 3) vertices x_n [m]
    res.stats        # solver counters, status, wall time

The numbers are those of `cosrod run` (the same library, the same output
times): res.centerline[k] is what centerline.csv holds at t = res.t[k].  The
integration runs with the GIL released, so threads run simulations in
parallel.  Ctrl-C (in the main thread) stops a run at the next step and raises
KeyboardInterrupt.
"""
import json
import os
import re
import signal
import threading
import warnings

try:
    import numpy as np
except ImportError as _e:  # e.g. a pyenv / conda python3 ahead of Debian's on the PATH
    import sys as _sys

    raise ImportError(
        f"cosrod needs numpy, which this interpreter ({_sys.executable}, Python {_sys.version.split()[0]}) "
        "does not have: run Debian's /usr/bin/python3 (apt-get install python3-numpy; the one the build "
        "uses), or install numpy for this interpreter") from _e

from . import _cosrod

__all__ = ["load", "Scenario", "Sim", "Result", "RodResult", "BodyResult", "Frame", "CosrodError", "ScenarioError",
           "RunError", "PlausibilityWarning", "read", "Output"]

ENERGY_FIELDS = ("kinetic", "elastic", "gravity", "external_work", "dissipated", "balance")
_ENERGY_DTYPE = np.dtype([(n, "f8") for n in ENERGY_FIELDS])
_STEP_DTYPE = np.dtype([("t", "f8"), ("h", "f8"), ("accepted", "f8")])
_INC_DTYPE = np.dtype([("t", "f8"), ("iterations", "f8"), ("residual", "f8")])


class CosrodError(Exception):
    """Base class of cosrod's errors."""


class PlausibilityWarning(UserWarning):
    """A scenario value the loader accepts that is probably a unit slip or a
    typing error ("FILE:LINE: key: problem; suggestion"), as `cosrod check`
    prints it."""


class ScenarioError(CosrodError, ValueError):
    """Invalid scenario: the message of the CLI, one line `FILE:LINE: key.path:
    problem` (or `--set key.path: problem` for an override) per problem found
    (every independent problem of a file, up to 20).  .file, .line, .key and
    .problem describe the first (an override: .file None, .line 0); .errors
    lists (file, line, key, problem) for every line."""

    _FORMAT = re.compile(r"^(.*?):(\d+): (\S+): (.*)$", re.S)
    _SET_FORMAT = re.compile(r"^--set (\S+): (.*)$", re.S)

    @classmethod
    def _split(cls, line):
        s = cls._SET_FORMAT.match(line)
        if s:
            return None, 0, s.group(1), s.group(2)
        m = cls._FORMAT.match(line)
        if m:
            return m.group(1), int(m.group(2)), m.group(3), m.group(4)
        return None, None, None, line

    def __init__(self, message):
        super().__init__(message)
        self.message = message
        self.errors = [self._split(line) for line in message.split("\n")] if message else []
        first = self.errors[0] if self.errors else (None, None, None, message)
        self.file, self.line, self.key, self.problem = first


class RunError(CosrodError):
    """A run that failed (solver failure); .result holds the frames up to then."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


_cosrod._set_errors(ScenarioError, CosrodError)


def _yaml_value(v):
    """A Python value as a YAML scalar / flow collection for `--set`."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_yaml_value(x) for x in v) + "]"
    raise TypeError(f"cannot express {type(v).__name__} as a scenario value")


def _json_default(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"cannot express {type(v).__name__} as a scenario value")


def _non_finite(v, path=""):
    """Key path of the first NaN / infinity in a scenario dict, or None (JSON
    has no such numbers, and the loader must name the key, not the encoder)."""
    if isinstance(v, dict):
        for k, x in v.items():
            p = _non_finite(x, f"{path}.{k}" if path else str(k))
            if p:
                return p
    elif isinstance(v, (list, tuple, np.ndarray)):
        for i, x in enumerate(v):
            p = _non_finite(x, f"{path}.{i}" if path else str(i))
            if p:
                return p
    elif isinstance(v, (float, np.floating)) and not np.isfinite(v):
        return path or "(root)"
    return None


def _non_finite_value(v, path):
    for k in path.split("."):
        v = v[int(k)] if isinstance(v, (list, tuple, np.ndarray)) else v[k]
    return repr(float(v))


class Scenario:
    """A validated scenario: cosrod.load(path), or Scenario(dict) with the
    YAML schema as Python dicts and lists ({"cosrod": 1, "rods": [...], ...}),
    validated exactly like a file.  A dict is handed to the loader as JSON (a
    YAML subset) with one key per line: a ScenarioError names the key path,
    its file is `name` and its line that of the generated text."""

    def __init__(self, source, name="<dict>"):
        if isinstance(source, _cosrod.Scenario):
            self._h = source
        elif isinstance(source, dict):
            bad = _non_finite(source)
            if bad:
                raise ScenarioError(f"{name}:0: {bad}: expected a finite number, got {_non_finite_value(source, bad)}")
            self._h = _cosrod.parse(json.dumps(source, indent=1, allow_nan=False, default=_json_default), name)
        else:
            raise TypeError("cosrod.Scenario takes a dict (or use cosrod.load(path))")
        self._info = self._h.info()
        for w in self._h.warnings():  # unit slips, sections not slender, shape length
            warnings.warn(w, PlausibilityWarning, stacklevel=3)

    @property
    def info(self):
        """Summary of the validated scenario (rods, bodies, analysis, solver) as a dict."""
        return dict(self._info)

    def __getattr__(self, name):
        info = self.__dict__.get("_info")
        if info is not None and name in info:
            return info[name]
        raise AttributeError(name)

    def to_yaml(self, path=None):
        """The scenario as a scenario file (cosrod_scenario_to_yaml: every
        value resolved, reloads to the same scenario); written to path if
        given, else returned as text."""
        text = self._h.to_yaml()
        if path is None:
            return text
        with open(path, "w") as f:
            f.write(text)
        return None

    def run(self, **kw):
        """Sim(self).run(**kw): build the simulation and run it."""
        return Sim(self).run(**kw)

    def __repr__(self):
        i = self._info
        return f"<cosrod.Scenario {i['file']!r}: {i['analysis']}, {len(i['rods'])} rod(s), t_end {i['t_end']}>"


def load(path, overrides=None, **kw):
    """Read and validate a scenario file; `overrides` maps key paths to values
    ({"rods.0.segments": 20, "solver.integrator": "radau5"}), as `--set`.
    `set=` is accepted as the old name of `overrides`."""
    if "set" in kw:
        if overrides is not None:
            raise TypeError("cosrod.load: give overrides= or its old name set=, not both")
        overrides = kw.pop("set")
    if kw:
        raise TypeError(f"cosrod.load() got an unexpected keyword argument '{next(iter(kw))}'")
    if overrides is not None and not isinstance(overrides, dict):
        raise TypeError(f"cosrod.load: overrides must be a dict of key path -> value, not {type(overrides).__name__}")
    sets = [f"{k}={_yaml_value(v)}" for k, v in (overrides or {}).items()]
    return Scenario(_cosrod.load(os.fspath(path), sets))


def _doubles(buf):
    return np.frombuffer(buf, dtype=np.float64)


def _split_block(block, N):
    """Columns of rod blocks (n, 9(N+1)+10N): x | p | Gamma | F | K | M."""
    n = block.shape[0]
    sizes = [("x", 3 * (N + 1), (N + 1, 3)), ("p", 4 * N, (N, 4)), ("Gamma", 3 * N, (N, 3)), ("F", 3 * N, (N, 3)),
             ("K", 3 * (N + 1), (N + 1, 3)), ("M", 3 * (N + 1), (N + 1, 3))]
    out, o = {}, 0
    for name, size, shape in sizes:
        out[name] = np.ascontiguousarray(block[:, o:o + size]).reshape((n,) + shape)
        o += size
    return out


class RodResult:
    """One rod over the output times: s (N+1) vertex arc lengths, s_mid (N),
    centerline (n_t, N+1, 3), frames (n_t, N, 4) quaternions (scalar first),
    strains (n_t, N, 3) Gamma, forces (n_t, N, 3) F, curvatures (n_t, N+1, 3) K,
    moments (n_t, N+1, 3) M (material components)."""

    def __init__(self, name, s, block):
        self.name = name
        self.s = s
        self.s_mid = 0.5 * (s[1:] + s[:-1])
        self.N = len(s) - 1
        c = _split_block(block, self.N)
        self.centerline, self.frames, self.strains = c["x"], c["p"], c["Gamma"]
        self.forces, self.curvatures, self.moments = c["F"], c["K"], c["M"]

    @property
    def tip(self):
        """(n_t, 3) position of the last vertex x_N at every output time [m]."""
        return self.centerline[:, -1, :]


class BodyResult(dict):
    """One rigid body over the output times (the rows of bodies.csv): t,
    x (n, 3) centre of mass [m], q (n, 4) orientation (scalar first), omega
    (n, 3) angular velocity in the body frame [1/s], v (n, 3) velocity [m/s],
    kinetic and potential (n,) energies [J].  Keys and attributes alike:
    b["x"] is b.x."""

    __getattr__ = dict.__getitem__


class JointResult(dict):
    """One joint's reaction wrench over the output times (joints.csv): t, F
    (n, 3) force on the joint's first body [N] and M (n, 3) moment about the
    joint point [N m], spatial components; keyed by the joint's index in the
    scenario's `joints:` list."""

    __getattr__ = dict.__getitem__


def _bodies(raw, t):
    names = raw.get("body_names") or []
    if not names:
        return {}
    b = _doubles(raw["bodies"]).reshape(len(t), len(names), 15)
    return {n: BodyResult(t=t, x=b[:, i, 0:3], q=b[:, i, 3:7], omega=b[:, i, 7:10], v=b[:, i, 10:13],
                          kinetic=b[:, i, 13], potential=b[:, i, 14]) for i, n in enumerate(names)}


def _joints(raw, t):
    idx = raw.get("joint_index") or []
    if not idx:
        return {}
    j = _doubles(raw["joints"]).reshape(len(t), len(idx), 6)
    return {k: JointResult(t=t, F=j[:, i, 0:3], M=j[:, i, 3:6]) for i, k in enumerate(idx)}


def _pandas(what):
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(f"{what} needs pandas (apt-get install python3-pandas)") from e
    return pd


class Result:
    """Recorded run.  Rod 0's arrays are also attributes of the result
    (res.centerline is res.rods[0].centerline); res.energy is a structured
    array (res.energy["balance"]), res.steps one row per attempted step."""

    def __init__(self, raw, names, grids):
        self.t = _doubles(raw["t"])
        self.energy = np.frombuffer(raw["energy"], dtype=_ENERGY_DTYPE)
        nt = len(self.t)
        self.rods = []
        for k, buf in enumerate(raw["rods"]):
            s = grids[k]
            N = len(s) - 1
            block = _doubles(buf).reshape(nt, 9 * (N + 1) + 10 * N)
            self.rods.append(RodResult(names[k], s, block))
        self.bodies = _bodies(raw, self.t)
        self.joints = _joints(raw, self.t)
        reac = _doubles(raw["reactions"]).reshape(nt, len(self.rods), 2, 6) if self.rods else None
        # rod name -> (n_t, 2, 6): force and moment each end (0 start, 1 end) exerts on
        # the rod, spatial (reactions.csv); NaN at an end that is not supported
        self.reactions = {r.name: reac[:, k] for k, r in enumerate(self.rods)} if self.rods else {}
        self._contact = raw.get("contact")  # contacts.csv / obstacles.csv in memory, None without contact:
        self.steps = np.frombuffer(raw["steps"], dtype=_STEP_DTYPE)
        self.increments = np.frombuffer(raw["increments"], dtype=_INC_DTYPE)
        st = dict(raw["stats"])
        # status as summary.json says it: "ok", "failed" or "interrupted"; the
        # library's status text (e.g. "solution diverged") as "reason"
        status = ("ok" if raw["status"] == 0 else
                  "interrupted" if raw["status_name"] == "interrupted" else "failed")
        st.update(integrator=raw["integrator"], status=status, message=raw["message"],
                  reason=None if raw["status"] == 0 else raw["status_name"],
                  t_reached=raw["t_reached"], t_failed=raw["t_failed"], frames=nt)
        self.stats = st
        self.ok = raw["status"] == 0
        m = raw["modes"]
        if m:
            N0 = self.rods[0].N
            # shapes: rod 0's part of every mode; rod_shapes[r]: rod r's part (count, N_r + 1, 6),
            # zeros where the rod does not move; bodies: (count, nbodies, 6) the bodies' part
            # (centre displacement, rotation vector), as modes_bodies.csv
            nb = len(raw.get("body_names") or [])
            self.modes = {"omega": _doubles(m["omega"]), "frequency_hz": _doubles(m["frequency_hz"]),
                          "shapes": _doubles(m["shapes"]).reshape(m["count"], N0 + 1, 6),
                          "rod_shapes": [_doubles(b).reshape(m["count"], r.N + 1, 6)
                                         for b, r in zip(m["rod_shapes"], self.rods)],
                          "bodies": _doubles(m["bodies"]).reshape(m["count"], nb, 6),
                          "rod": np.array(m["rod"], dtype=int), "type": list(m["type"]),
                          "load_factor": _doubles(m["load_factor"])}
        else:
            self.modes = None

    @property
    def contacts(self):
        """The active contact points of every output time as a pandas
        DataFrame with the columns of contacts.csv (t, rod, segment, other,
        px, py, pz, nx, ny, nz, gap, Fn, Ftx, Fty, Ftz, state); other is the
        obstacle's name or "rod:segment" of the other rod.  None when the run
        had no contact."""
        c = self.__dict__.get("_contact")
        if c is None:
            return None
        pd = _pandas("Result.contacts")
        a = _doubles(c["points"]).reshape(-1, 18)
        names = c["obstacle_names"]
        other = [names[int(o)] if k == 0 and 0 <= int(o) < len(names) else f"{int(o)}:{int(s)}"
                 for k, o, s in zip(a[:, 3], a[:, 4], a[:, 5])]
        d = {"t": a[:, 0], "rod": a[:, 1].astype(int), "segment": a[:, 2].astype(int), "other": other}
        d.update(zip(("px", "py", "pz", "nx", "ny", "nz", "gap", "Fn", "Ftx", "Fty", "Ftz"), a[:, 6:17].T))
        d["state"] = np.where(a[:, 17] != 0, "slip", "stick")
        return pd.DataFrame(d)

    @property
    def obstacles(self):
        """Force and moment the rods exert on each obstacle at every output
        time as a pandas DataFrame with the columns of obstacles.csv (t,
        obstacle, Fx, Fy, Fz, Mx, My, Mz; spatial, moment about the
        obstacle's centre / point).  None when the run had no contact."""
        c = self.__dict__.get("_contact")
        if c is None:
            return None
        pd = _pandas("Result.obstacles")
        names = c["obstacle_names"]
        nt, no = len(self.t), len(names)
        a = _doubles(c["obstacles"]).reshape(nt * no, 6)
        d = {"t": np.repeat(self.t, no), "obstacle": np.tile(np.array(names, dtype=object), nt)}
        d.update(zip(("Fx", "Fy", "Fz", "Mx", "My", "Mz"), a.T))
        return pd.DataFrame(d)

    def __getattr__(self, name):
        rods = self.__dict__.get("rods")
        if rods and name in ("s", "s_mid", "N", "centerline", "frames", "strains", "forces", "curvatures",
                             "moments", "tip"):
            return getattr(rods[0], name)
        raise AttributeError(name)

    def to_pandas(self):
        """Long tables like the CLI's CSV files: {"centerline", "frames",
        "strains", "curvatures", "energy", "steps"} -> pandas.DataFrame."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Result.to_pandas needs pandas (apt-get install python3-pandas)") from e
        nt = len(self.t)
        tabs = {"centerline": [], "frames": [], "strains": [], "curvatures": []}
        for r, rod in enumerate(self.rods):
            nv, ns = rod.N + 1, rod.N
            def base(n, s):
                return {"t": np.repeat(self.t, n), "rod": np.full(nt * n, r), "index": np.tile(np.arange(n), nt),
                        "s": np.tile(s, nt)}
            d = base(nv, rod.s)
            d.update(zip("xyz", rod.centerline.reshape(-1, 3).T))
            tabs["centerline"].append(pd.DataFrame(d).rename(columns={"index": "vertex"}))
            d = base(ns, rod.s_mid)
            d.update(zip(("q0", "q1", "q2", "q3"), rod.frames.reshape(-1, 4).T))
            tabs["frames"].append(pd.DataFrame(d).rename(columns={"index": "segment"}))
            d = base(ns, rod.s_mid)
            d.update(zip(("Gamma1", "Gamma2", "Gamma3"), rod.strains.reshape(-1, 3).T))
            d.update(zip(("F1", "F2", "F3"), rod.forces.reshape(-1, 3).T))
            tabs["strains"].append(pd.DataFrame(d).rename(columns={"index": "segment"}))
            d = base(nv, rod.s)
            d.update(zip(("K1", "K2", "K3"), rod.curvatures.reshape(-1, 3).T))
            d.update(zip(("M1", "M2", "M3"), rod.moments.reshape(-1, 3).T))
            tabs["curvatures"].append(pd.DataFrame(d).rename(columns={"index": "vertex"}))
        out = {k: pd.concat(v, ignore_index=True) for k, v in tabs.items()}
        e = pd.DataFrame(self.energy)
        e.insert(0, "t", self.t)
        out["energy"] = e
        out["steps"] = pd.DataFrame(self.steps)
        return out

    def __repr__(self):
        return f"<cosrod.Result {len(self.t)} frames, status {self.stats['status']}>"

    def view(self, path=None, open=True, max_mb=None):
        """Write the browser viewer of this result (the page `cosrod view`
        writes: one self-contained HTML file) and open it in the system
        browser.  path: the HTML file (default: view.html in a new temporary
        directory that also holds the CSV files it was made from).  Returns
        the path."""
        from ._view import write_view
        return write_view(self, path, open, max_mb)


class Frame:
    """The rods' data at the current time of a Sim (inside an observer, or
    after advance): t, energy (dict), rod(k) -> dict of arrays, centerline."""

    def __init__(self, sim, t):
        self._sim = sim
        self.t = t

    def rod(self, k=0):
        """State of rod k at this frame: dict of arrays x, p, Gamma, F, K, M."""
        s = self._sim._grids[k]
        c = _split_block(_doubles(self._sim._h.frame(k)).reshape(1, -1), len(s) - 1)
        return {name: v[0] for name, v in c.items()}

    @property
    def centerline(self):
        """(N+1, 3) vertex positions of rod 0 at this frame [m]."""
        return self.rod(0)["x"]

    @property
    def energy(self):
        """Energy terms at this frame (kinetic, elastic, gravity, external_work, dissipated, balance) [J]."""
        return self._sim._h.energy()


def _catch_sigint():
    return threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGINT) is signal.default_int_handler


class Sim:
    """Simulation of a scenario (a Scenario, or a path to load)."""

    def __init__(self, scenario):
        if isinstance(scenario, (str, os.PathLike)):
            scenario = load(scenario)
        if not isinstance(scenario, Scenario):
            raise TypeError("cosrod.Sim needs a cosrod.Scenario or a scenario file path")
        self.scenario = scenario
        self._h = _cosrod.Sim(scenario._h)
        info = self._h.info()
        self._grids = [_doubles(g).copy() for g in info["grids"]]
        self._names = [r["name"] for r in scenario.info["rods"]]
        self.ny = info["ny"]
        self.integrator = info["integrator"]

    def run(self, progress=False, observer=None, record=True, check=True, output=None, _resume=False):
        """Run the analysis to the end; returns a Result.  observer(frame) is
        called at t = 0 and at every output time (frame: cosrod.Frame); a true
        return value stops the run.  progress: a line on stderr.  check: raise
        RunError if the solver fails (.result holds the frames until then).
        output: a directory that receives the files `cosrod run` writes
        (summary.json, the CSV files, vtk/, plots/ as the scenario's output
        keys say), written by the same recorder."""
        cb = None
        if observer is not None:
            def cb(t):
                return observer(Frame(self, t))
        out = None if output is None else os.fspath(output)
        if getattr(self, "_ran", False):
            how = (f"it was interrupted at t = {self._h.t():g}: continue with advance(t)"
                   if getattr(self, "_interrupted", False) else "create a new Sim")
            raise RunError(f"{self.scenario.file}: run() was called before on this Sim; {how}")
        self._ran = True
        try:
            raw = self._h.run(bool(record), cb, bool(progress), _catch_sigint(), out,
                              self.scenario.info.get("file") if out is not None else None, bool(_resume))
        except KeyboardInterrupt:
            self._interrupted = True  # advance() continues from the last accepted state
            raise
        self._interrupted = raw["status_name"] == "interrupted"
        res = Result(raw, self._names, self._grids)
        res._scenario = self.scenario  # for res.view() (sections, gravity)
        res._output_dir = out  # res.view(): the page of these files when the run wrote them
        if check and not res.ok and raw["status_name"] != "interrupted":
            raise RunError(f"{self.scenario.file}: the run failed at t = {raw['t_failed']:g}: {raw['message']}",
                           res)
        return res

    @classmethod
    def resume(cls, dir, scenario=None, **kw):
        """Continue the run whose files are in `dir` from its last restart
        checkpoint (dir/checkpoint.bin), as `cosrod run --resume DIR`: the
        scenario is the checkpoint's, or `scenario` (a Scenario or a path),
        which must not differ from it (else CosrodError naming the changed
        key).  The files in dir are cut to the checkpoint's rows and
        appended; returns the Result of the continued part (its frames start
        after the checkpoint's time); keywords as run() (not output).
        CosrodError: no checkpoint, the run finished, a run that cannot be
        resumed (static / modal analyses)."""
        d = os.fspath(dir)
        if scenario is None:
            text, file = _cosrod.checkpoint_scenario(d)
            scenario = Scenario(_cosrod.parse(text, file or os.path.join(d, "checkpoint.bin")))
        elif not isinstance(scenario, Scenario):
            scenario = load(scenario)
        return cls(scenario).run(output=d, _resume=True, **kw)

    def set_load(self, fn, rod=0):
        """A custom load on rod `rod`, called at every evaluation of the rod
        (before run / advance): fn(t, x, v, f, m) with x, v (N+1, 3) vertex
        positions and velocities (read-only), ADDS spatial forces [N] into f
        (N+1, 3) and material moments [N m] into m (N, 3) on the segments.
        Every call takes the GIL (a few microseconds of overhead plus the
        Python code per evaluation; an explicit method evaluates the rod 6-12
        times per step).  Its work enters energy["external_work"]; the
        analytic Jacobians treat the load as constant.  fn None removes it."""
        if fn is None:
            self._h.set_load(rod, None)
            return
        if not callable(fn):
            raise TypeError(f"set_load: fn must be callable or None, not {type(fn).__name__}")

        def tramp(t, x, v, p, om, f, m):
            fn(t, np.frombuffer(x).reshape(-1, 3), np.frombuffer(v).reshape(-1, 3),
               np.frombuffer(f).reshape(-1, 3), np.frombuffer(m).reshape(-1, 3))

        self._h.set_load(rod, tramp)

    def advance(self, t):
        """Integrate from the current time to t (dynamic analyses; instead of
        run).  Returns a Frame at t."""
        st, name, msg = self._h.advance(float(t), _catch_sigint())
        if st != 0:
            if not msg:  # the library refused without a message: say why
                if getattr(self, "_ran", False) and not getattr(self, "_interrupted", False):
                    msg = "this Sim was run with run(); run() and advance() do not combine (create a new Sim)"
                elif self.scenario.info["analysis"] != "dynamic":
                    msg = f"advance needs a dynamic analysis (this one is {self.scenario.info['analysis']})"
                elif not float(t) > self._h.t():
                    msg = f"t must be after the current time {self._h.t():g}"
            raise RunError(f"advance to t = {t:g} failed ({name}): {msg}")
        return Frame(self, self._h.t())

    @property
    def t(self):
        """Current time of the simulation [s]."""
        return self._h.t()

    @property
    def state(self):
        """(t, y): current time and a copy of the global state vector."""
        t, y = self._h.get_state()
        return t, _doubles(y).copy()

    @state.setter
    def state(self, value):
        t, y = value
        y = np.ascontiguousarray(y, dtype=np.float64)
        st, name = self._h.set_state(float(t), y.tobytes())
        if st != 0:
            raise CosrodError(f"cannot set the state ({name})")

    @property
    def frame(self):
        """The current state as a Frame."""
        return Frame(self, self._h.t())

    @property
    def stats(self):
        """Solver counters so far (nfev, njev, nsteps, naccept, nreject, ...)."""
        return self._h.stats()


from .study import sweep  # noqa: E402  (design studies: cosrod.study)
from ._read import read, Output  # noqa: E402  (an output folder: run.h5 or the CSV files)
