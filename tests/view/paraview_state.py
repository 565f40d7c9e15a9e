#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The ParaView state a run writes (vtk/tubes.py) against the VTK series of
the same run.

1. Without ParaView (python3 only): tubes.py is parsed as Python (ast), not
   executed; the reader's FileName is the run's vtk/cosrod.pvd; the Tube
   filter's Scalars are ('POINTS', 'radius') with VaryRadius 'By Absolute
   Scalar'; the array it colours by exists.  The .pvd and every .vtp it
   lists are parsed as XML: every file referenced exists, every .vtp has the
   point arrays the state names (one value per point) and its radius array
   holds the scenario's section radius on every point, the section arrays
   (section_half_widths = r, r; section_inner_radius = 0; unit section_d1)
   theirs.
2. With VTK's Python module (import vtk: python3-paraview's, or
   python3-vtk9): every .vtp also reads with VTK's own XML reader, with the
   same arrays and point counts.
3. With pvbatch (Debian paraview, python3-paraview) and an X server
   (Xvfb, started here when DISPLAY is unset): pvbatch runs tubes.py, renders
   one PNG (400 x 300, not one colour) and fetches the tubes of the first
   time step, whose extent across the rod is the tube's diameter:
   2 r cos(pi / 24) .. 2 r for 24 sides.
Parts 2 and 3 say SKIP (and the test passes on part 1) where the package is
missing; tools/install-deps.sh installs paraview, python3-paraview, xvfb.

paraview_state.py --cosrod BIN --example FILE --work DIR --radius R [--set k=v]...
"""
import argparse
import ast
import math
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print(f"FAIL: {msg}")


def state_calls(path):
    """What tubes.py sets: reader file, Tube scalars / radius mode, colour array."""
    tree = ast.parse(open(path).read(), path)
    got = {"imports": False}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "paraview.simple":
            got["imports"] = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            kw = {k.arg: k.value for k in node.keywords}
            if node.func.id == "PVDReader" and "FileName" in kw:
                got["file"] = ast.literal_eval(kw["FileName"])
            if node.func.id == "ColorBy" and len(node.args) == 2:
                got["color"] = ast.literal_eval(node.args[1])
            if node.func.id == "Tube":
                got["tube"] = True
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
            a = node.targets[0]
            if isinstance(a.value, ast.Name) and a.value.id == "tubes":
                got[a.attr] = ast.literal_eval(node.value)
    return got


def vtp_arrays(path):
    """Point count and point arrays {name: (components, values)} of a .vtp (ASCII)."""
    root = ET.parse(path).getroot()
    piece = root.find("./PolyData/Piece")
    n = int(piece.get("NumberOfPoints"))
    arrays = {}
    for da in piece.findall("./PointData/DataArray"):
        vals = [float(v) for v in (da.text or "").split()]
        arrays[da.get("Name")] = (int(da.get("NumberOfComponents", "1")), vals)
    return n, arrays


def check_files(out, st, radius):
    pvd = os.path.join(out, "vtk", "cosrod.pvd")
    if os.path.realpath(st.get("file", "")) != os.path.realpath(pvd):
        fail(f"the state reads {st.get('file')}, not the run's {pvd}")
    if st.get("Scalars") != ["POINTS", "radius"] or st.get("VaryRadius") != "By Absolute Scalar" or not st.get("tube"):
        fail(f"the Tube filter does not take its radius from the point data 'radius': {st}")
    names = {"radius", st.get("color", (None, None))[1]}
    sets = ET.parse(pvd).getroot().findall("./Collection/DataSet")
    files = [os.path.join(os.path.dirname(pvd), d.get("file")) for d in sets]
    missing = [f for f in files if not os.path.exists(f)]
    if not files or missing:
        fail(f"cosrod.pvd lists {len(files)} files, missing {missing[:3]}")
        return []
    worst, bad = 0.0, []
    for f in files:
        n, arr = vtp_arrays(f)
        for name in names:
            if name not in arr or arr[name][0] != 1 or len(arr[name][1]) != n:
                bad.append((os.path.basename(f), name))
        if "radius" in arr:
            worst = max([worst] + [abs(v - radius) / radius for v in arr["radius"][1]])
        # the section shape: a circle's half widths are its radius twice, no inner radius, d1 unit
        hw, ir, d1 = arr.get("section_half_widths"), arr.get("section_inner_radius"), arr.get("section_d1")
        if not hw or hw[0] != 2 or len(hw[1]) != 2 * n or not ir or len(ir[1]) != n or not d1 or len(d1[1]) != 3 * n:
            bad.append((os.path.basename(f), "section_half_widths / section_inner_radius / section_d1"))
        else:
            worst = max([worst] + [abs(v - radius) / radius for v in hw[1]] + [abs(v) / radius for v in ir[1]])
            worst = max([worst] + [abs(math.sqrt(sum(c * c for c in d1[1][3 * k:3 * k + 3])) - 1) for k in range(n)])
    print(f"{len(files)} .vtp files in cosrod.pvd, point arrays {sorted(names)} and the section arrays checked; "
          f"radius and half widths against the section's {radius} m, |d1| = 1: largest relative deviation {worst:.1e}")
    if bad:
        fail(f"arrays the state names are missing or not one value per point: {bad[:4]}")
    if worst > 1e-12:
        fail("the radius / section arrays are not the section's")
    return files


def check_vtk(files, names):
    try:
        import vtk
    except ImportError:
        print("SKIP (part 2): no VTK Python module (apt-get install python3-paraview)")
        return
    bad = []
    for f in files:
        r = vtk.vtkXMLPolyDataReader()
        r.SetFileName(f)
        r.Update()
        d = r.GetOutput()
        for name in names:
            a = d.GetPointData().GetArray(name)
            if a is None or a.GetNumberOfTuples() != d.GetNumberOfPoints() or d.GetNumberOfPoints() < 2:
                bad.append((os.path.basename(f), name))
    print(f"VTK {vtk.vtkVersion.GetVTKVersion()} reads {len(files)} .vtp files, arrays {sorted(names)}: {len(bad)} problems")
    if bad:
        fail(f"VTK's reader does not find {bad[:4]}")


PV_SCRIPT = r'''
import sys
from paraview.simple import *
exec(open(sys.argv[1]).read())
view.ViewSize = [400, 300]
SaveScreenshot(sys.argv[2], view, ImageResolution=[400, 300])
UpdatePipeline(time=reader.TimestepValues[0], proxy=tubes)
d = servermanager.Fetch(tubes)
b = d.GetBounds()
print("BOUNDS", *b)
print("POINTS", d.GetNumberOfPoints())
'''


def check_paraview(out, work, radius):
    pvbatch = shutil.which("pvbatch")
    if not pvbatch:
        print("SKIP (part 3): pvbatch not found (apt-get install paraview python3-paraview)")
        return
    env = dict(os.environ)
    xvfb = None
    if not env.get("DISPLAY"):
        exe = shutil.which("Xvfb")
        if not exe:
            print("SKIP (part 3): no DISPLAY and no Xvfb (apt-get install xvfb): Debian's pvbatch renders through X")
            return
        # a display number nobody uses; -displayfd: Xvfb writes it once it accepts clients
        disp = ""
        for n in range(70, 200):
            if os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}"):
                continue
            rfd, wfd = os.pipe()
            xlog = open(os.path.join(work, "xvfb.log"), "w")
            xvfb = subprocess.Popen([exe, f":{n}", "-displayfd", str(wfd), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                                    pass_fds=(wfd,), stdout=xlog, stderr=xlog)
            os.close(wfd)
            with os.fdopen(rfd) as f:
                disp = f.readline().strip()
            if disp:
                break
            xvfb.wait()
            xvfb = None
        if not disp:
            fail("Xvfb did not start")
            return
        env["DISPLAY"] = f":{disp}"
    try:
        script = os.path.join(work, "pv_render.py")
        png = os.path.join(work, "tubes.png")
        with open(script, "w") as f:
            f.write(PV_SCRIPT)
        if os.path.exists(png):
            os.remove(png)
        # up to 3 attempts: on a heavily loaded machine pvbatch sometimes fails to
        # open the (running) Xvfb display ("bad X server connection")
        for attempt in range(3):
            r = subprocess.run([pvbatch, script, os.path.join(out, "vtk", "tubes.py"), png], env=env,
                               capture_output=True, text=True, timeout=240)
            if r.returncode == 0 or "bad X server connection" not in r.stderr:
                break
            print(f"pvbatch attempt {attempt + 1}: bad X server connection to {env['DISPLAY']}, again")
        lines = dict((l.split()[0], l.split()[1:]) for l in r.stdout.splitlines() if l.split()[:1] in (["BOUNDS"], ["POINTS"]))
        if r.returncode != 0 or "BOUNDS" not in lines:
            errs = [l for l in (r.stdout + r.stderr).splitlines() if "ERR" in l or "Error" in l]
            alive = "" if not xvfb else f", Xvfb {'running' if xvfb.poll() is None else f'exited {xvfb.returncode}'}"
            fail(f"pvbatch on tubes.py failed ({r.returncode}, DISPLAY={env['DISPLAY']}{alive}): {errs[:3] or (r.stdout + r.stderr)[-600:]}")
            return
        b = [float(v) for v in lines["BOUNDS"]]
        ext = sorted(b[2 * k + 1] - b[2 * k] for k in range(3))
        lo, hi = 2 * radius * math.cos(math.pi / 24), 2 * radius
        print(f"pvbatch: tubes of the first time step, {lines['POINTS'][0]} points, extents {ext[0]:.6g}, {ext[1]:.6g}, "
              f"{ext[2]:.6g} m (across: {lo:.6g} .. {hi:.6g})")
        # a straight rod: its two extents across it are the tube's diameter
        if not (lo * (1 - 1e-6) <= ext[0] <= hi * (1 + 1e-6) and lo * (1 - 1e-6) <= ext[1] <= hi * (1 + 1e-6)):
            fail("the tubes ParaView draws are not as thick as the section")
        data = open(png, "rb").read() if os.path.exists(png) else b""
        colours = png_colours(data)
        print(f"pvbatch: {png}, {len(data)} bytes, {colours} distinct colours")
        if colours < 3:
            fail("the rendered PNG is empty (one colour)")
    finally:
        if xvfb:
            xvfb.send_signal(signal.SIGTERM)
            xvfb.wait(timeout=10)


def png_colours(data):
    """Number of distinct RGB(A) pixels of an 8-bit PNG (zlib, filters undone)."""
    import struct
    import zlib
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            bpp = {2: 3, 6: 4}.get(ctype, 0)
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    if not bpp or depth != 8:
        return 0
    raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        seen.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return len(seen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cosrod", required=True)
    ap.add_argument("--example", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--radius", type=float, required=True)
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    out = os.path.join(a.work, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(a.work, exist_ok=True)
    cmd = [a.cosrod, "run", a.example, "-o", out, "-q"] + [x for s in a.set for x in ("--set", s)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL: cosrod run: {r.stderr}")
        return 1
    state = os.path.join(out, "vtk", "tubes.py")
    if not os.path.exists(state):
        print(f"FAIL: {state} not written")
        return 1
    st = state_calls(state)
    print(f"tubes.py: reader {st.get('file')}, Tube Scalars {st.get('Scalars')}, VaryRadius {st.get('VaryRadius')}, "
          f"colour {st.get('color')}")
    if not st["imports"]:
        fail("tubes.py does not import paraview.simple")
    files = check_files(out, st, a.radius)
    if files:
        check_vtk(files, {"radius", st.get("color", (None, None))[1], "section_half_widths", "section_inner_radius",
                          "section_d1"})
    check_paraview(out, a.work, a.radius)
    print("PASS" if not FAILS else f"{len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
