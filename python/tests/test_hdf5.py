# SPDX-License-Identifier: Apache-2.0
"""output.format: hdf5.  The same scenario run in both formats gives
identical arrays bit for bit (CSV numbers round-trip, HDF5 stores the
doubles); the HDF5 file equals the in-memory Result; vtk/cosrod.vtkhdf has
the structure of Kitware's VTKHDF specification (UnstructuredGrid + Steps)
with consistent offsets and sizes; `cosrod check` estimates the bytes
written within 20 %."""
import os
import re
import subprocess

import numpy as np
import pytest

import cosrod

h5py = pytest.importorskip("h5py")

# explicit rods, a body with a joint (joints table), a static run, a modal run
CASES = {
    "rubber-pendulum": {"analysis.t_end": 0.1},
    "two-body-joint": {"analysis.t_end": 0.05},
    "cable-pendulum": {"analysis.t_end": 0.05},
    "omega-twist": {},
    "hinged-body-modes": {},
}


def run(source_dir, name, over, out, fmt):
    sc = cosrod.load(os.path.join(source_dir, "examples", name + ".yaml"),
                     overrides=dict(over, **{"output.format": fmt, "output.plots": False}))
    return cosrod.Sim(sc).run(output=out)


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_arrays_both_formats(source_dir, tmp_path, name):
    rc = run(source_dir, name, CASES[name], tmp_path / "csv", "csv")
    rh = run(source_dir, name, CASES[name], tmp_path / "h5", "hdf5")
    oc, oh = cosrod.read(tmp_path / "csv"), cosrod.read(tmp_path / "h5")
    assert oc.format == "csv" and oh.format == "hdf5"
    assert (tmp_path / "h5" / "run.h5").exists() and not (tmp_path / "h5" / "centerline.csv").exists()
    assert sorted(oc.tables) == sorted(oh.tables)
    for k in oc.tables:
        assert oc.tables[k][0] == oh.tables[k][0], k
        assert oc.tables[k][1].shape == oh.tables[k][1].shape, k
        assert np.array_equal(bits(oc.tables[k][1]), bits(oh.tables[k][1])), k
    if rh.rods:  # the files hold the Result's arrays exactly
        assert np.array_equal(bits(oh.t), bits(rh.t))
        assert np.array_equal(bits(oh.centerline), bits(rh.centerline))
        assert np.array_equal(bits(oh.strains), bits(rh.strains))
        assert np.array_equal(bits(oh.moments), bits(rh.moments))
        assert np.array_equal(bits(oc.centerline), bits(rc.centerline))
    if rh.stats["frames"] and "energy" in oh.tables:
        assert np.array_equal(bits(oh.energy["balance"]), bits(rh.energy["balance"]))
    assert oh.summary["format"] == "hdf5" and "format" not in oc.summary
    assert oh.scenario.startswith("cosrod: 1")


def test_vtkhdf_structure(source_dir, tmp_path):
    run(source_dir, "cable-pendulum", {"analysis.t_end": 0.05}, tmp_path, "hdf5")
    o = cosrod.read(tmp_path)
    with h5py.File(tmp_path / "vtk" / "cosrod.vtkhdf", "r") as f:
        g = f["VTKHDF"]
        assert list(g.attrs["Version"]) == [2, 0]
        assert g.attrs["Type"] in (b"UnstructuredGrid", "UnstructuredGrid")
        st = g["Steps"]
        ns = int(st.attrs["NumberOfSteps"])
        assert ns == len(o.t) and np.array_equal(st["Values"][:], o.t)
        npts, ncell, nconn = g["NumberOfPoints"][:], g["NumberOfCells"][:], g["NumberOfConnectivityIds"][:]
        nv = sum(r.N + 1 for r in o.rods)
        nseg = sum(r.N for r in o.rods)
        assert np.all(npts == nv) and np.all(ncell == nseg) and np.all(nconn == 2 * nseg)
        assert g["Points"].shape == (ns * nv, 3)
        assert g["Connectivity"].shape == (ns * 2 * nseg,)
        assert g["Offsets"].shape == (ns * (nseg + 1),)
        assert g["Types"].dtype == np.uint8 and np.all(g["Types"][:] == 3)  # VTK_LINE
        assert np.array_equal(st["PartOffsets"][:], np.arange(ns)) and np.all(st["NumberOfParts"][:] == 1)
        assert np.array_equal(st["PointOffsets"][:], nv * np.arange(ns))
        assert np.array_equal(st["CellOffsets"][:], nseg * np.arange(ns))
        assert np.array_equal(st["ConnectivityIdOffsets"][:], 2 * nseg * np.arange(ns))
        for name, nc in (("s", None), ("K", 3), ("M", 3), ("radius", None), ("section_half_widths", 2),
                         ("section_inner_radius", None)):
            d = g["PointData"][name]
            assert d.shape == ((ns * nv,) if nc is None else (ns * nv, nc))
            assert np.array_equal(st["PointDataOffsets"][name][:], nv * np.arange(ns))
        # the example's cable: a circle (radius 2 mm) -> half widths (r, r), no inner radius
        assert np.all(g["PointData"]["section_half_widths"][:] == g["PointData"]["radius"][:][:, None])
        assert np.all(g["PointData"]["section_inner_radius"][:] == 0.0)
        for name, nc in (("s", None), ("Gamma", 3), ("F", 3), ("q", 4)):
            d = g["CellData"][name]
            assert d.shape == ((ns * nseg,) if nc is None else (ns * nseg, nc))
            assert np.array_equal(st["CellDataOffsets"][name][:], nseg * np.arange(ns))
        # step k's cells: offsets 0, 2, 4, ... and connectivity local to the step's points
        k = ns - 1
        off = g["Offsets"][k * (nseg + 1):(k + 1) * (nseg + 1)]
        assert np.array_equal(off, 2 * np.arange(nseg + 1))
        conn = g["Connectivity"][k * 2 * nseg:(k + 1) * 2 * nseg]
        assert conn.min() == 0 and conn.max() == nv - 1
        # the points of step k are the rods' centerlines at t_k, rod by rod
        pts = g["Points"][k * nv:(k + 1) * nv]
        want = np.concatenate([r.centerline[k] for r in o.rods])
        assert np.array_equal(bits(pts), bits(want))
        assert np.array_equal(bits(g["CellData"]["Gamma"][k * nseg:(k + 1) * nseg]),
                              bits(np.concatenate([r.strains[k] for r in o.rods])))


@pytest.mark.parametrize("fmt", ["hdf5", "csv"])
def test_check_estimate_within_20_percent(source_dir, cli, tmp_path, fmt):
    """`cosrod check`'s output volume against every file the run writes (all
    of vtk/, with the HDF5 run's cosrod.xdmf2 index; not view.html, the
    viewer's page, nor steps: one row per step, unknown before the run)."""
    sc = os.path.join(source_dir, "examples", "steel-cantilever-pulse.yaml")
    sets = ["--set", f"output.format={fmt}", "--set", "output.steps=false", "--set", "analysis.t_end=0.5",
            "--set", "output.vtk=true", "--set", "output.plots=false", "--set", f"output.dir={tmp_path}"]
    chk = subprocess.run([cli, "check", sc] + sets, capture_output=True, text=True, check=True).stdout
    m = re.search(r"frames: ~([0-9.]+) (kB|MB|GB)", chk)
    est = float(m.group(1)) * {"kB": 1e3, "MB": 1e6, "GB": 1e9}[m.group(2)]
    subprocess.run([cli, "run", sc] + sets, capture_output=True, check=True)
    wrote = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(tmp_path) for f in fs
                if f != "view.html")
    if fmt == "hdf5":
        assert (tmp_path / "vtk" / "cosrod.xdmf2").exists()
    assert 0.8 <= est / wrote <= 1.2, (est, wrote)


def test_bad_format_is_refused(source_dir, cli):
    sc = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    p = subprocess.run([cli, "check", sc, "--set", "output.format=netcdf"], capture_output=True, text=True)
    assert p.returncode == 2 and "output.format" in (p.stderr + p.stdout)
