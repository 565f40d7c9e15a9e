# SPDX-License-Identifier: Apache-2.0
"""An HDF5 run opens in Debian's ParaView 5.11 (whose VTKHDF reader knows
neither format 2.0 nor time steps) through vtk/cosrod.xdmf2, the XDMF 2
index of vtk/cosrod.vtkhdf: pvbatch opens it with the reader ParaView picks
for the file name, lists the time steps, and fetches the rods at the first,
a middle and the last one.  References, independent of the index: run.h5's
output times and centreline table (t, rod, vertex, s, x, y, z) and the
VTKHDF file's own arrays (K per vertex, F per segment) read with h5py.
Tolerance: none -- the index points at the stored doubles (no conversion),
so every value must come back bit for bit (the times are printed with 17
significant digits, which round-trip a double).

The index also survives a killed run: after SIGKILL it names only steps the
VTKHDF file on disk holds (up to the last checkpoint, within the rows it
declares), and the resumed run's index lists every output time again.

pvbatch reads without rendering: no X server is needed.  The test skips
only where pvbatch is not installed (tools/install-deps.sh installs
paraview)."""
import json
import os
import shutil
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest

h5py = pytest.importorskip("h5py")
PVBATCH = shutil.which("pvbatch")

# Opens the file with the reader ParaView chooses for its name (as the GUI's
# File > Open does), fetches the grid at the listed time indices.
PV_SCRIPT = r"""
import json, sys
from paraview.simple import OpenDataFile
from paraview import servermanager as sm
from vtkmodules.util.numpy_support import vtk_to_numpy
r = OpenDataFile(sys.argv[1])
times = [float(t) for t in r.TimestepValues]
res = {"reader": r.GetXMLName(), "times": times, "grids": {}}
for i in json.loads(sys.argv[3]):
    r.UpdatePipeline(times[i])
    d = sm.Fetch(r)
    pd, cd = d.GetPointData(), d.GetCellData()
    res["grids"][str(i)] = {
        "points": vtk_to_numpy(d.GetPoints().GetData()).tolist() if d.GetNumberOfPoints() else [],
        "K": vtk_to_numpy(pd.GetArray("K")).tolist() if pd.GetArray("K") else None,
        "F": vtk_to_numpy(cd.GetArray("F")).tolist() if cd.GetArray("F") else None,
        "cells": [[d.GetCell(c).GetPointId(0), d.GetCell(c).GetPointId(1)] for c in range(d.GetNumberOfCells())],
        "point_arrays": sorted(pd.GetArrayName(k) for k in range(pd.GetNumberOfArrays())),
        "cell_arrays": sorted(cd.GetArrayName(k) for k in range(cd.GetNumberOfArrays())),
    }
json.dump(res, open(sys.argv[2], "w"))
"""


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


def paraview_open(tmp_path, path, steps):
    script = tmp_path / "pv_open.py"
    script.write_text(PV_SCRIPT)
    out = tmp_path / "pv.json"
    r = subprocess.run([PVBATCH, str(script), str(path), str(out), json.dumps(steps)], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, DISPLAY=""))
    assert r.returncode == 0 and out.exists(), f"pvbatch failed ({r.returncode}): {(r.stdout + r.stderr)[-1500:]}"
    return json.loads(out.read_text())


def run_cli(cli, source_dir, out, *sets, resume=False):
    cmd = [cli, "run", "--resume", str(out)] if resume else \
          [cli, "run", os.path.join(source_dir, "examples", "rods-crossing.yaml"), "--set", f"output.dir={out}",
           "--set", "output.format=hdf5", "--set", "output.plots=false", *sum((["--set", s] for s in sets), [])]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def check_paraview(tmp_path, out):
    """Open out/vtk/cosrod.xdmf2 in pvbatch, compare with run.h5 / the VTKHDF file."""
    with h5py.File(out / "run.h5", "r") as f:
        c = f["centerline"]
        assert c.attrs["columns"] in (b"t,rod,vertex,s,x,y,z", "t,rod,vertex,s,x,y,z")
        cl = c[...]
    times = np.unique(cl[:, 0])
    mid = len(times) // 2
    pv = paraview_open(tmp_path, out / "vtk" / "cosrod.xdmf2", [0, mid, len(times) - 1])
    assert pv["reader"] == "XdmfReader"  # the only reader that claims .xdmf2
    assert np.array_equal(bits(pv["times"]), bits(times)), "ParaView's time steps are not run.h5's output times"
    with h5py.File(out / "vtk" / "cosrod.vtkhdf", "r") as f:
        g = f["VTKHDF"]
        po, co = g["Steps/PointOffsets"][:], g["Steps/CellOffsets"][:]
        npts, ncel = g["NumberOfPoints"][:], g["NumberOfCells"][:]
        for i in (0, mid, len(times) - 1):
            got = pv["grids"][str(i)]
            rows = cl[cl[:, 0] == times[i]]
            rows = rows[np.lexsort((rows[:, 2], rows[:, 1]))]  # rod after rod, vertex order
            assert np.array_equal(bits(got["points"]), bits(rows[:, 4:7])), f"points at t = {times[i]}"
            K = g["PointData/K"][po[i]:po[i] + npts[i]]
            F = g["CellData/F"][co[i]:co[i] + ncel[i]]
            assert np.array_equal(bits(got["K"]), bits(K)), f"point array K at t = {times[i]}"
            assert np.array_equal(bits(got["F"]), bits(F)), f"cell array F at t = {times[i]}"
            # one line cell per segment, between consecutive vertices of one rod
            conn = g["Connectivity"][2 * co[i]:2 * (co[i] + ncel[i])].reshape(-1, 2)
            assert np.array_equal(np.array(got["cells"]), conn)
            assert set(got["point_arrays"]) >= {"K", "M", "s", "radius"}
            assert set(got["cell_arrays"]) >= {"F", "Gamma", "q", "s"}
    return pv


@pytest.mark.skipif(PVBATCH is None, reason="pvbatch not installed (Debian paraview; tools/install-deps.sh)")
def test_xdmf2_opens_in_paraview(cli, source_dir, tmp_path):
    out = tmp_path / "run"
    r = run_cli(cli, source_dir, out, "analysis.t_end=0.2")
    assert r.returncode == 0, r.stderr
    pv = check_paraview(tmp_path, out)
    assert len(pv["times"]) == 21  # 0, 0.01, ..., 0.2
    assert len(pv["grids"]["0"]["points"]) == 42  # two rods of 20 segments


def declared_steps(xdmf, vtkhdf):
    """The steps an index names, each HyperSlab checked to lie inside the rows
    its dataset holds and declares."""
    root = ET.parse(xdmf).getroot()
    grids = root.find("Domain/Grid").findall("Grid")
    with h5py.File(vtkhdf, "r", libver="latest", swmr=True) as f:
        for gr in grids:
            for hs in gr.iter("DataItem"):
                if hs.get("ItemType") != "HyperSlab":
                    continue
                sel, heavy = hs.findall("DataItem")
                start, _, count = (int(x) for x in sel.text.split()[::len(sel.text.split()) // 3])
                declared = int(heavy.get("Dimensions").split()[0])
                rows = f[heavy.text.split(":", 1)[1]].shape[0]
                assert start + count <= declared <= rows, heavy.text
        return [float(gr.find("Time").get("Value")) for gr in grids]


@pytest.mark.skipif(PVBATCH is None, reason="pvbatch not installed (Debian paraview; tools/install-deps.sh)")
def test_xdmf2_killed_and_resumed(cli, source_dir, tmp_path):
    out = tmp_path / "run"
    cmd = [cli, "run", os.path.join(source_dir, "examples", "rods-crossing.yaml"), "--set", f"output.dir={out}",
           "--set", "output.format=hdf5", "--set", "output.plots=false", "--set", "analysis.t_end=0.4",
           "--set", "output.checkpoint.every=0.05"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    xdmf, ck = out / "vtk" / "cosrod.xdmf2", out / "checkpoint.bin"
    deadline = time.time() + 60
    while p.poll() is None and not (xdmf.exists() and ck.exists()) and time.time() < deadline:
        time.sleep(0.005)
    killed = p.poll() is None
    p.send_signal(signal.SIGKILL) if killed else None
    p.wait()
    assert killed and xdmf.exists(), "the run ended before its first checkpoint: no kill to test"
    # the killed run's index: a prefix of the output times, inside the file on disk
    t_killed = declared_steps(xdmf, out / "vtk" / "cosrod.vtkhdf")
    with h5py.File(out / "vtk" / "cosrod.vtkhdf", "r", libver="latest", swmr=True) as f:
        values = f["VTKHDF/Steps/Values"][:]
    assert 1 <= len(t_killed) <= len(values)
    assert np.array_equal(bits(t_killed), bits(values[:len(t_killed)]))
    r = run_cli(cli, source_dir, out, resume=True)
    assert r.returncode == 0, r.stderr
    pv = check_paraview(tmp_path, out)
    assert len(pv["times"]) == 41 and len(pv["times"]) > len(t_killed)


def start_run(cli, source_dir, out):
    return subprocess.Popen([cli, "run", os.path.join(source_dir, "examples", "rods-crossing.yaml"), "--set",
                             f"output.dir={out}", "--set", "output.format=hdf5", "--set", "output.plots=false",
                             "--set", "analysis.t_end=0.4", "--set", "output.checkpoint.every=0.05"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for_grids(p, xdmf, n):
    """Poll until the index names at least n steps (or the run ends)."""
    deadline = time.time() + 60
    while p.poll() is None and time.time() < deadline:
        if xdmf.exists() and xdmf.read_bytes().count(b'GridType="Uniform"') >= n:
            return True
        time.sleep(0.002)
    return False


@pytest.mark.skipif(PVBATCH is None, reason="pvbatch not installed (Debian paraview; tools/install-deps.sh)")
def test_xdmf2_appended_at_checkpoints(cli, source_dir, tmp_path):
    """Each checkpoint appends the new steps to the index (same file, the
    earlier text minus its closing tags is a prefix of the later one: linear
    cost, not a rewrite), and the appended index opens in ParaView with every
    step's values although its early grids declare the datasets' smaller
    sizes of their checkpoint."""
    out = tmp_path / "run"
    p = start_run(cli, source_dir, out)
    xdmf = out / "vtk" / "cosrod.xdmf2"
    seen = wait_for_grids(p, xdmf, 1)
    ino, early = (xdmf.stat().st_ino, xdmf.read_bytes()) if seen else (None, b"")
    assert p.wait(timeout=120) == 0
    assert seen, "the run ended before its first checkpoint"
    close = b"</Grid>\n</Domain></Xdmf>\n"
    assert early.endswith(close)
    final = xdmf.read_bytes()
    assert xdmf.stat().st_ino == ino, "the index was replaced, not appended to"
    assert final.startswith(early[:-len(close)]) and final.endswith(close)
    assert len(final) > len(early)
    sizes = {int(d.get("Dimensions").split()[0]) for d in ET.parse(xdmf).getroot().iter("DataItem")
             if (d.text or "").startswith("cosrod.vtkhdf:/VTKHDF/Points")}
    assert len(sizes) >= 3, "the grids were not appended at several checkpoints"
    pv = check_paraview(tmp_path, out)
    assert len(pv["times"]) == 41


@pytest.mark.skipif(PVBATCH is None, reason="pvbatch not installed (Debian paraview; tools/install-deps.sh)")
def test_xdmf2_killed_after_appends(cli, source_dir, tmp_path):
    """SIGKILL after the index was appended to at two checkpoints or more:
    the file left is a complete index that ParaView opens, with the output
    times of the VTKHDF file's first steps and their points bit for bit.
    The killed VTKHDF file is still marked open by its SWMR writer, which
    ParaView's HDF5 refuses (the file, not the index); its VTKHDF group is
    copied with h5py into an unmarked file beside a copy of the index."""
    out = tmp_path / "run"
    p = start_run(cli, source_dir, out)
    xdmf, vtkhdf = out / "vtk" / "cosrod.xdmf2", out / "vtk" / "cosrod.vtkhdf"
    reached = wait_for_grids(p, xdmf, 11)  # 0.05 s checkpoints, 0.01 s outputs: at least 2 of them
    killed = p.poll() is None
    p.send_signal(signal.SIGKILL) if killed else None
    p.wait()
    assert reached and killed, "the run ended before two checkpoints: no kill to test"
    n = len(declared_steps(xdmf, vtkhdf))
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(xdmf, copy / "cosrod.xdmf2")
    with h5py.File(vtkhdf, "r", libver="latest", swmr=True) as f, h5py.File(copy / "cosrod.vtkhdf", "w") as g:
        f.copy("VTKHDF", g)
        values, po = f["VTKHDF/Steps/Values"][:], f["VTKHDF/Steps/PointOffsets"][:]
        npts, pts = f["VTKHDF/NumberOfPoints"][:], f["VTKHDF/Points"][:]
    pv = paraview_open(tmp_path, copy / "cosrod.xdmf2", [0, n - 1])
    assert n >= 11 and len(pv["times"]) == n
    assert np.array_equal(bits(pv["times"]), bits(values[:n]))
    for i in (0, n - 1):
        assert np.array_equal(bits(pv["grids"][str(i)]["points"]), bits(pts[po[i]:po[i] + npts[i]]))
