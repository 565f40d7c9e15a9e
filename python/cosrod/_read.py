# SPDX-License-Identifier: Apache-2.0
"""Read a run's output folder (what `cosrod run` and Sim.run(output=DIR)
write): DIR/run.h5 when the run wrote HDF5 (output.format: hdf5; needs h5py),
else the CSV files.  Both hold the same doubles exactly (CSV numbers
round-trip), so both give identical arrays.  A run with `contact:` also
wrote contacts.csv, obstacles.csv and contact_forces.csv (CSV in both
formats): contact_forces is a numeric table like the others, contacts and
obstacles (text columns other / state / obstacle) are pandas frames."""
import json
import os

import numpy as np

# table name -> CSV file; the HDF5 datasets have the same names and columns
TABLES = ("centerline", "frames", "strains", "curvatures", "energy", "bodies", "steps", "increments", "modes",
          "buckling", "reactions", "tip", "joints")


class Output:
    """The files of one run.  tables: name -> (columns, (rows, cols) float64
    array) as the CSV files hold them; t the output times; rods: per rod
    (name, s, s_mid, N, centerline (n_t, N+1, 3), frames (n_t, N, 4), strains,
    forces (n_t, N, 3), curvatures, moments (n_t, N+1, 3)) when the rod tables
    were written; rod 0's arrays are also attributes (out.centerline);
    energy / steps structured arrays; summary the summary.json dict; scenario
    the scenario's YAML text (HDF5 only); format "hdf5" or "csv".
    A run with contact: contact_forces a structured array with the columns of
    contact_forces.csv (t, active, then Fn_G, Ft_G, n_G for every obstacle /
    body shape G and G = "rods" for rod-rod and self-contact: sum of the
    normal forces, of the friction magnitudes |Ft| and the number of active
    points), contact_groups the names G; contacts / obstacles the rows of
    contacts.csv / obstacles.csv as pandas DataFrames (None without contact)."""

    def __init__(self, directory, tables, summary, scenario, fmt):
        self.directory = directory
        self.tables = tables
        self.summary = summary
        self.scenario = scenario
        self.format = fmt
        frame_tabs = [n for n in ("centerline", "frames", "strains", "curvatures", "energy", "tip", "bodies")
                      if n in tables]
        self.t = np.unique(tables[frame_tabs[0]][1][:, 0]) if frame_tabs else np.zeros(0)
        self.rods = self._rods()
        self.energy = self._struct("energy")
        self.steps = self._struct("steps")
        self.increments = self._struct("increments")
        self.contact_forces = self._struct("contact_forces")
        cols = tables["contact_forces"][0] if "contact_forces" in tables else []
        self.contact_groups = [c[3:] for c in cols if c.startswith("Fn_")]

    def _struct(self, name):
        if name not in self.tables:
            return None
        cols, a = self.tables[name]
        names = cols[1:] if name == "energy" else cols  # energy.csv: t is also self.t
        dt = np.dtype([(c, "f8") for c in names])
        return np.ascontiguousarray(a[:, len(cols) - len(names):]).view(dt).reshape(-1)

    def _per_rod(self, name, k, ncomp):
        if name not in self.tables:
            return None, None, None
        a = self.tables[name][1]
        a = a[a[:, 1] == k]
        n = len(a) // max(len(self.t), 1)
        a = a.reshape(len(self.t), n, -1)
        return a[0, :, 3].copy(), np.ascontiguousarray(a[:, :, 4:4 + ncomp]), np.ascontiguousarray(a[:, :, 4 + ncomp:])

    def _rods(self):
        names = [r["name"] for r in (self.summary or {}).get("rods", [])]
        rods = []
        for k, name in enumerate(names):
            r = _Rod(name)
            got = self._per_rod("centerline", k, 3)
            if got[0] is not None:
                r.s, r.centerline, _ = got
            got = self._per_rod("frames", k, 4)
            if got[0] is not None:
                r.s_mid, r.frames, _ = got
            got = self._per_rod("strains", k, 3)
            if got[0] is not None:
                r.s_mid, r.strains, r.forces = got
            got = self._per_rod("curvatures", k, 3)
            if got[0] is not None:
                r.s, r.curvatures, r.moments = got
            r.N = len(r.s) - 1 if r.s is not None else (len(r.s_mid) if r.s_mid is not None else None)
            rods.append(r)
        return rods

    @property
    def contacts(self):
        """contacts.csv as a pandas DataFrame (t, rod, segment, other, px..pz,
        nx..nz, gap, Fn, Ftx..Ftz, state); None without contact."""
        return self._text_table("contacts")

    @property
    def obstacles(self):
        """obstacles.csv as a pandas DataFrame (t, obstacle, Fx..Fz, Mx..Mz:
        what the rods exert on it); None without contact."""
        return self._text_table("obstacles")

    def _text_table(self, name):
        p = os.path.join(self.directory, name + ".csv")
        if not os.path.exists(p):
            return None
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError(f"Output.{name} needs pandas (apt-get install python3-pandas)") from e
        return pd.read_csv(p, float_precision="round_trip", keep_default_na=False,
                           dtype={"other": str, "obstacle": str, "state": str})

    def __getattr__(self, name):
        rods = self.__dict__.get("rods")
        if rods and name in ("s", "s_mid", "N", "centerline", "frames", "strains", "forces", "curvatures",
                             "moments"):
            return getattr(rods[0], name)
        raise AttributeError(name)

    def to_pandas(self):
        """name -> pandas.DataFrame with the CSV's columns (index columns as int64)."""
        import pandas as pd
        out = {}
        for name, (cols, a) in self.tables.items():
            df = pd.DataFrame(a, columns=cols)
            ints = ("rod", "vertex", "segment", "end", "body", "mode", "iterations", "accepted", "joint", "active")
            for c in df.columns:
                if (c in ints or (name == "contact_forces" and c.startswith("n_"))) and np.all(np.isfinite(df[c])):
                    df[c] = df[c].astype(np.int64)
            out[name] = df
        return out

    def __repr__(self):
        return f"<cosrod.Output {self.directory} ({self.format}): {len(self.t)} frames, tables {sorted(self.tables)}>"


class _Rod:
    def __init__(self, name):
        self.name = name
        self.s = self.s_mid = self.N = None
        self.centerline = self.frames = self.strains = self.forces = self.curvatures = self.moments = None


def _read_h5(path, directory):
    try:
        import h5py
    except ImportError as e:
        raise ImportError(f"{path}: reading HDF5 output needs h5py (apt-get install python3-h5py)") from e
    try:
        f = h5py.File(path, "r")
    except OSError:  # a killed run: the file is still marked as written in SWMR mode
        f = h5py.File(path, "r", libver="latest", swmr=True)
    with f:
        tables = {}
        for name in f:
            d = f[name]
            if isinstance(d, h5py.Dataset) and "columns" in d.attrs:
                cols = _text(d.attrs["columns"]).split(",")
                tables[name] = (cols, np.asarray(d[...], dtype=np.float64).reshape(-1, len(cols)))
        summary = json.loads(_text(f.attrs["summary"])) if "summary" in f.attrs else None
        scenario = _text(f.attrs["scenario"]) if "scenario" in f.attrs else None
    _read_contact_forces(directory, tables)
    if summary is None and os.path.exists(os.path.join(directory, "summary.json")):
        with open(os.path.join(directory, "summary.json")) as fh:
            summary = json.load(fh)
    return Output(directory, tables, summary, scenario, "hdf5")


def _text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def _csv_table(p):
    with open(p) as fh:
        cols = fh.readline().strip().split(",")
        a = np.loadtxt(fh, delimiter=",", dtype=np.float64, ndmin=2)
    return cols, a.reshape(-1, len(cols))


def _read_contact_forces(directory, tables):
    # written as CSV also by an HDF5 run (the recorder's contact files)
    p = os.path.join(directory, "contact_forces.csv")
    if "contact_forces" not in tables and os.path.exists(p):
        tables["contact_forces"] = _csv_table(p)


def _read_csv(directory):
    tables = {}
    for name in TABLES:
        p = os.path.join(directory, name + ".csv")
        if os.path.exists(p):
            tables[name] = _csv_table(p)
    _read_contact_forces(directory, tables)
    summary = None
    p = os.path.join(directory, "summary.json")
    if os.path.exists(p):
        with open(p) as fh:
            summary = json.load(fh)
    return Output(directory, tables, summary, None, "csv")


def read(directory):
    """The output of a run in `directory` (DIR/run.h5 if present, else the CSV files)."""
    directory = os.fspath(directory)
    h5 = os.path.join(directory, "run.h5")
    if os.path.exists(h5):
        return _read_h5(h5, directory)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"{directory}: no such output folder")
    return _read_csv(directory)
