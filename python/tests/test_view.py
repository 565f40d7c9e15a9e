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
