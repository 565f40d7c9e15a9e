# SPDX-License-Identifier: Apache-2.0
"""Result.view() and cosrod.plot.animate: the page holds the run's numbers
(read back from its inlined JSON), the rods' real sections and gravity; the
animations are real GIF / MP4 files with the expected frame count."""
import json
import os
import re

import numpy as np
import pytest

import cosrod
import cosrod.plot

SETS = {"analysis.t_end": 0.1, "rods.0.segments": 6,
        "rods.1": "{name: second, length: 0.5, segments: 3, material: rubber, "
        "section: {shape: rectangle, width: 8.0e-3, height: 4.0e-3}, shape: {start: [0.2, 0, 0], direction: [0, 1, 0], "
        "normal: [0, 0, 1]}, ends: {start: {type: pinned}}}"}


def run(source_dir):
    res = cosrod.load(os.path.join(source_dir, "examples", "rubber-pendulum.yaml"), set=SETS).run()
    assert res.ok and len(res.t) == 11
    return res


def page_files(path):
    text = open(path).read()
    m = re.search(r'<script type="application/json" id="cosrod-data">(.*?)</script>', text, re.S)
    assert m, "the data script is in the page"
    return json.loads(m.group(1))["files"], text


def test_res_view_writes_the_viewer_page(source_dir, tmp_path):
    res = run(source_dir)
    path = res.view(str(tmp_path / "view.html"), open=False)
    files, text = page_files(path)
    assert "three" in text.lower() or "WebGL" in text  # the bundle is inlined
    assert {"summary.json", "scene.json", "centerline.csv", "frames.csv", "strains.csv", "curvatures.csv",
            "energy.csv"} <= set(files)
    rows = [list(map(float, line.split(","))) for line in files["centerline.csv"].strip().split("\n")[1:]]
    assert len(rows) == 11 * (7 + 4)
    # every centerline number equals the result's array (17 significant digits)
    for t, rod, v, s, x, y, z in rows:
        k = int(np.argmin(np.abs(res.t - t)))
        assert np.array_equal(res.rods[int(rod)].centerline[k, int(v)], [x, y, z])
    scene = json.loads(files["scene.json"])
    assert scene["gravity"] == [0.0, 0.0, -9.81]
    assert scene["rods"][0]["section"] == {"shape": "circle", "radius": 5.0e-3}
    assert scene["rods"][1]["section"] == {"shape": "rectangle", "width": 8.0e-3, "height": 4.0e-3}
    energy = files["energy.csv"].strip().split("\n")
    assert energy[0].startswith("t,kinetic,elastic,gravity") and len(energy) == 12


def test_animate_gif_and_mp4(source_dir, tmp_path):
    from PIL import Image

    res = run(source_dir)
    gif = cosrod.plot.animate(res, str(tmp_path / "run.gif"), fps=10, duration=1.0)
    with Image.open(gif) as im:
        assert im.format == "GIF"
        assert im.n_frames == 10  # 1 s at 10 fps over the 11 output times
    mp4 = cosrod.plot.animate(res, str(tmp_path / "run.mp4"), fps=10, duration=1.0)
    head = open(mp4, "rb").read(12)
    assert head[4:8] == b"ftyp" and os.path.getsize(mp4) > 1000
    with pytest.raises(ValueError):
        cosrod.plot.animate(res, str(tmp_path / "run.avi"))


TWO_RODS_BODY = """cosrod: 1
title: two cables, one body
gravity: [0, 0, -9.81]
materials:
  nylon: {E: 2.0e9, poisson: 0.4, density: 1140}
rods:
  - {name: left, length: 1.0, segments: 8, material: nylon, section: {shape: circle, radius: 2.0e-3},
     shape: {type: straight, start: [-0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},
     ends: {start: {type: clamped}, end: {type: clamped, body: bob, at: [-0.1, 0, 0.05]}}}
  - {name: right, length: 1.0, segments: 6, material: nylon, section: {shape: rectangle, width: 4.0e-3, height: 2.0e-3},
     shape: {type: straight, start: [0.1, 0, 0], direction: [0, 0, -1], normal: [1, 0, 0]},
     ends: {start: {type: clamped}, end: {type: clamped, body: bob, at: [0.1, 0, 0.05]}}}
  - {name: stiff, length: 0.5, segments: 4,
     stiffness: {EA: 4.0e6, GA1: 1.0e6, GA2: 1.0e6, EI1: 8.0, EI2: 2.0, GJ: 3.0},
     inertia: {rhoA: 0.1, rhoI1: 1.0e-6, rhoI2: 1.0e-6, rhoJ: 2.0e-6},
     shape: {type: straight, start: [1, 0, 0], direction: [1, 0, 0], normal: [0, 0, 1]},
     ends: {start: {type: clamped}}}
bodies:
  - {name: bob, mass: 1.0, inertia: [2.0e-3, 2.0e-3, 1.0e-3], position: [0, 0, -1.05]}
analysis: {type: modes, count: 3}
output: {vtk: false, plots: false}
"""


def csv_rows(text):
    lines = text.strip().split("\n")
    return lines[0], np.array([[float(v) for v in line.split(",")] for line in lines[1:]])


def test_res_view_modes_of_several_rods_and_bodies_as_the_cli(cli, tmp_path):
    """res.view() of a modal run (no output directory): modes.csv with every
    rod that moves in a mode and modes_bodies.csv, the numbers of the CLI's
    files of the same scenario; the rod without a section gets the display
    radius 2 sqrt(EI / EA) with EI = sqrt(EI1 EI2) = 4 -> 2e-3 m, marked derived."""
    import subprocess
    yml = tmp_path / "two.yaml"
    yml.write_text(TWO_RODS_BODY)
    subprocess.run([cli, "run", str(yml), "-o", str(tmp_path / "cli"), "--quiet"], check=True)
    res = cosrod.load(str(yml)).run()
    files, _ = page_files(res.view(str(tmp_path / "view.html"), open=False))
    for name in ("modes.csv", "modes_bodies.csv"):
        head_py, py = csv_rows(files[name])
        head_cli, ref = csv_rows(open(tmp_path / "cli" / name).read())
        assert head_py == head_cli
        assert py.shape == ref.shape, name
        # the same library computes both: equal up to the last digits of the solvers' round-off
        np.testing.assert_allclose(py, ref, rtol=1e-9, atol=1e-9 * np.max(np.abs(ref)))
    _, modes = csv_rows(files["modes.csv"])
    for k in (1, 2, 3):  # the cables move together with the body in every mode; the separate rod does not
        rods = set(modes[modes[:, 0] == k, 3].astype(int))
        assert {0, 1} <= rods and 2 not in rods
    _, bodies = csv_rows(files["modes_bodies.csv"])
    assert bodies.shape == (3, 8)
    assert "bodies.csv" in files and json.loads(files["scene.json"])["bodies"][0]["mass"] == 1.0
    sec = json.loads(files["scene.json"])["rods"][2]["section"]
    assert sec["derived"] == "2 sqrt(EI / EA)" and sec["radius"] == pytest.approx(2e-3, rel=1e-15)
    cli_sec = json.load(open(tmp_path / "cli" / "scene.json"))["rods"][2]["section"]
    assert cli_sec["radius"] == sec["radius"]


def test_res_view_of_a_run_with_an_output_dir_is_the_cli_page(cli, tmp_path):
    """Sim.run(output=DIR): res.view() inlines DIR's own files (the page
    `cosrod view DIR` writes), modes_bodies.csv included."""
    yml = tmp_path / "two.yaml"
    yml.write_text(TWO_RODS_BODY)
    out = tmp_path / "out"
    res = cosrod.Sim(cosrod.load(str(yml))).run(output=str(out))
    path = res.view(open=False)
    assert os.path.dirname(os.path.abspath(path)) == os.path.abspath(out)
    files, _ = page_files(path)
    for name in ("modes.csv", "modes_bodies.csv", "summary.json", "scene.json"):
        assert files[name] == open(out / name).read(), name
