# SPDX-License-Identifier: Apache-2.0
"""Result.view(): the result written as a cosrod output directory (the
files of [manual: command line, output reference] the viewer reads) and turned into view.html by the
library's writer (cosrod_view_write, the same page as `cosrod view`)."""
import json
import os
import tempfile
import webbrowser

import numpy as np

from . import _cosrod


def _table(path, header, cols):
    data = np.column_stack([np.asarray(c, dtype=float).ravel() for c in cols])
    np.savetxt(path, data, fmt="%.17g", delimiter=",", header=header, comments="")


def _long(res, rod_index, arr, s, width):
    """Columns t, rod, item, s, values of a per-frame array (n_t, n, width)."""
    nt, n = arr.shape[0], arr.shape[1]
    return [np.repeat(res.t, n), np.full(nt * n, rod_index), np.tile(np.arange(n), nt), np.tile(s, nt)] + \
        [arr.reshape(-1, width)[:, k] for k in range(width)]


def write_dir(res, d):
    """The output files of result `res` in directory d."""
    sc = getattr(res, "_scenario", None)
    info = sc.info if sc is not None else {}
    analysis = info.get("analysis", "dynamic")
    if res.modes is not None:
        analysis = "buckling" if analysis == "buckling" else "modes"
    summary = {"title": info.get("title", ""), "analysis": analysis, "status": res.stats.get("status", "ok"),
               "message": res.stats.get("message"), "t_end": info.get("t_end"), "t_reached": res.stats.get("t_reached"),
               "stats": {k: v for k, v in res.stats.items() if isinstance(v, (int, float, str))},
               "rods": [{"name": r.name, "segments": r.N} for r in res.rods], "warnings": [],
               "written_by": "cosrod Python Result.view"}
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary, f, default=float)
    if sc is not None:
        sections, gravity, bodies = _cosrod.section_info(sc._h)
        scene = {"gravity": list(gravity),
                 "rods": [{"name": r.name, "section": sections[k]} for k, r in enumerate(res.rods)],
                 "bodies": [dict(b, keyframes=False) for b in bodies]}
        with open(os.path.join(d, "scene.json"), "w") as f:
            json.dump(scene, f)
    tabs = {"centerline.csv": ("t,rod,vertex,s,x,y,z", []), "frames.csv": ("t,rod,segment,s,q0,q1,q2,q3", []),
            "strains.csv": ("t,rod,segment,s,Gamma1,Gamma2,Gamma3,F1,F2,F3", []),
            "curvatures.csv": ("t,rod,vertex,s,K1,K2,K3,M1,M2,M3", [])}
    for k, r in enumerate(res.rods):
        tabs["centerline.csv"][1].append(_long(res, k, r.centerline, r.s, 3))
        tabs["frames.csv"][1].append(_long(res, k, r.frames, r.s_mid, 4))
        tabs["strains.csv"][1].append(_long(res, k, np.concatenate([r.strains, r.forces], axis=2), r.s_mid, 6))
        tabs["curvatures.csv"][1].append(_long(res, k, np.concatenate([r.curvatures, r.moments], axis=2), r.s, 6))
    for name, (header, parts) in tabs.items():
        # rows grouped by time: interleave the rods' blocks per output time
        cols = [np.concatenate([p[c].reshape(len(res.t), -1) for p in parts], axis=1) for c in range(len(parts[0]))]
        _table(os.path.join(d, name), header, cols)
    e = res.energy
    names = [n for n in ("kinetic", "elastic", "gravity", "external_work", "dissipated", "balance") if n in e.dtype.names]
    _table(os.path.join(d, "energy.csv"), "t," + ",".join(names), [res.t] + [e[n] for n in names])
    if res.bodies:
        names = list(res.bodies)
        cols = [np.repeat(res.t, len(names)), np.tile(np.arange(len(names)), len(res.t))]
        for key, w in (("x", 3), ("q", 4), ("omega", 3), ("v", 3), ("kinetic", 1), ("potential", 1)):
            a = np.stack([np.asarray(res.bodies[n][key], dtype=float).reshape(len(res.t), w) for n in names], axis=1)
            cols += [a[:, :, k].ravel() for k in range(w)]
        _table(os.path.join(d, "bodies.csv"), "t,body,x,y,z,q0,q1,q2,q3,Omega1,Omega2,Omega3,vx,vy,vz,kinetic,potential",
               cols)
    if res.modes is not None:
        write_modes(res, d, analysis == "buckling")


def write_modes(res, d, buckling):
    """modes.csv / buckling.csv (every rod that moves in a mode, as the CLI
    writes them) and modes_bodies.csv / buckling_bodies.csv (the bodies' part)."""
    m = res.modes
    cnt = len(m["omega"])
    rows = []
    for k in range(cnt):
        for r, sh in enumerate(m["rod_shapes"]):
            own = np.max(np.abs(m["rod_shapes"][int(m["rod"][k])][k]))
            if r != int(m["rod"][k]) and not np.max(np.abs(sh[k])) > 1e-6 * own:
                continue  # this rod does not move in mode k (as the CLI's modes.csv)
            nv = sh.shape[1]
            head = [np.full(nv, k + 1.0)]
            head += [np.full(nv, m["load_factor"][k])] if buckling else \
                [np.full(nv, m["frequency_hz"][k]), np.full(nv, m["omega"][k])]
            rows.append(np.column_stack(head + [np.full(nv, r), np.arange(nv)] + [sh[k, :, c] for c in range(6)]))
    name = "buckling" if buckling else "modes"
    header = ("mode,load_factor," if buckling else "mode,frequency_hz,omega,") + "rod,vertex,dx,dy,dz,rx,ry,rz"
    data = np.vstack(rows)
    _table(os.path.join(d, name + ".csv"), header, [data[:, c] for c in range(data.shape[1])])
    b = m["bodies"]
    if b.shape[1] > 0:
        mode = np.repeat(np.arange(1, cnt + 1), b.shape[1])
        body = np.tile(np.arange(b.shape[1]), cnt)
        _table(os.path.join(d, name + "_bodies.csv"), "mode,body,dx,dy,dz,rx,ry,rz",
               [mode, body] + [b[:, :, c].ravel() for c in range(6)])


def write_view(res, path=None, open_browser=True, max_mb=None):
    out = getattr(res, "_output_dir", None)
    if out is not None and os.path.isfile(os.path.join(out, "summary.json")):
        # the run wrote the CLI's output files (Sim.run(output=...)): the same page as `cosrod view`
        path = path or os.path.join(out, "view.html")
        _cosrod.view_write(out, os.path.abspath(path), int((max_mb or 0) * 1048576))
        if open_browser:
            webbrowser.open("file://" + os.path.abspath(path))
        return path
    if path is None:
        d = tempfile.mkdtemp(prefix="cosrod-view-")
        path = os.path.join(d, "view.html")
    else:
        d = tempfile.mkdtemp(prefix="cosrod-view-", dir=os.path.dirname(os.path.abspath(path)) or ".")
    write_dir(res, d)
    _cosrod.view_write(d, os.path.abspath(path), int((max_mb or 0) * 1048576))
    if open_browser:
        webbrowser.open("file://" + os.path.abspath(path))
    return path
