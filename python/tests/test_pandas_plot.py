# SPDX-License-Identifier: Apache-2.0
"""Result.to_pandas() and the matplotlib helpers (cosrod.plot): the tables
hold exactly the numbers of the numpy arrays, the plots draw exactly the
centerlines asked for and write a real PNG.  pandas and matplotlib are test
dependencies (tools/install-deps.sh installs python3-pandas and
python3-matplotlib; CMake refuses to configure the tests without them), so
nothing here is skipped."""
import os

import matplotlib

matplotlib.use("Agg")  # no display: render to files
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import cosrod  # noqa: E402
import cosrod.plot  # noqa: E402

# a second, shorter rod (N = 3) so that the tables' `rod` column and the
# per-rod blocks are exercised; t_end 0.1 s, output every 0.01 s: 11 frames
SETS = {
    "analysis.t_end": 0.1,
    "rods.0.segments": 6,
    "rods.1": "{name: second, length: 0.5, segments: 3, material: rubber, "
    "section: {shape: circle, radius: 4.0e-3}, shape: {start: [0.2, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}, "
    "ends: {start: {type: pinned}}}",
}


def run(source_dir):
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    res = cosrod.load(path, set=SETS).run()
    assert res.ok
    assert len(res.t) == 11 and [r.N for r in res.rods] == [6, 3]
    return res


def test_to_pandas_tables_equal_the_arrays(source_dir):
    res = run(source_dir)
    tabs = res.to_pandas()
    assert set(tabs) == {"centerline", "frames", "strains", "curvatures", "energy", "steps"}
    assert all(isinstance(v, pd.DataFrame) for v in tabs.values())
    nt = len(res.t)
    layout = {  # table: (columns, rows per frame and rod: vertices or segments, arrays)
        "centerline": (["t", "rod", "vertex", "s", "x", "y", "z"], "v", ("centerline",)),
        "frames": (["t", "rod", "segment", "s", "q0", "q1", "q2", "q3"], "m", ("frames",)),
        "strains": (["t", "rod", "segment", "s", "Gamma1", "Gamma2", "Gamma3", "F1", "F2", "F3"], "m",
                    ("strains", "forces")),
        "curvatures": (["t", "rod", "vertex", "s", "K1", "K2", "K3", "M1", "M2", "M3"], "v",
                       ("curvatures", "moments")),
    }
    for name, (cols, where, arrays) in layout.items():
        df = tabs[name]
        assert list(df.columns) == cols, name
        assert len(df) == nt * sum(r.N + (where == "v") for r in res.rods), name
        for k, rod in enumerate(res.rods):
            n = rod.N + 1 if where == "v" else rod.N
            part = df[df["rod"] == k]
            assert len(part) == nt * n
            # row order: time-major, then vertex / segment index
            np.testing.assert_array_equal(part["t"].to_numpy().reshape(nt, n), np.repeat(res.t, n).reshape(nt, n))
            np.testing.assert_array_equal(part[cols[2]].to_numpy().reshape(nt, n), np.tile(np.arange(n), (nt, 1)))
            s = rod.s if where == "v" else rod.s_mid
            np.testing.assert_array_equal(part["s"].to_numpy().reshape(nt, n), np.tile(s, (nt, 1)))
            vals = np.concatenate([getattr(rod, a) for a in arrays], axis=2)  # (nt, n, 3 | 4 | 6)
            assert vals.shape == (nt, n, len(cols) - 4)
            np.testing.assert_array_equal(part[cols[4:]].to_numpy().reshape(vals.shape), vals)
    e = tabs["energy"]
    assert list(e.columns) == ["t"] + list(cosrod.ENERGY_FIELDS)
    assert len(e) == nt
    np.testing.assert_array_equal(e["t"].to_numpy(), res.t)
    for f in cosrod.ENERGY_FIELDS:
        np.testing.assert_array_equal(e[f].to_numpy(), res.energy[f])
    st = tabs["steps"]
    assert list(st.columns) == ["t", "h", "accepted"] and len(st) == len(res.steps) > 0
    for f in ("t", "h", "accepted"):
        np.testing.assert_array_equal(st[f].to_numpy(), res.steps[f])


def png_checks(path, fig):
    with open(path, "rb") as f:
        head = f.read(8)
    assert head == b"\x89PNG\r\n\x1a\n"
    img = matplotlib.image.imread(path)
    w, h = fig.get_size_inches() * fig.dpi
    assert img.shape[:2] == (round(h), round(w))
    assert img[..., :3].std() > 0.01  # something was drawn (not one flat colour)


def test_plot_centerline_draws_the_requested_times(source_dir, tmp_path):
    res = run(source_dir)
    times = [0.0, 0.031, 0.1]  # 0.031 -> nearest output time 0.03
    ax = cosrod.plot.centerline(res, times=times)
    lines = ax.get_lines()
    assert len(lines) == 3
    # the pendulum swings in the y-z plane: the default axes are (1, 2)
    assert ax.get_xlabel() == "y [m]" and ax.get_ylabel() == "z [m]"
    for line, t, k in zip(lines, (0.0, 0.03, 0.1), (0, 3, 10)):
        assert abs(res.t[k] - t) < 1e-12
        np.testing.assert_array_equal(line.get_xdata(), res.centerline[k, :, 1])
        np.testing.assert_array_equal(line.get_ydata(), res.centerline[k, :, 2])
        assert line.get_label() == f"t = {res.t[k]:.3g} s"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"t = {t:.3g} s" for t in (0.0, 0.03, 0.1)]
    png = tmp_path / "centerline.png"
    ax.figure.savefig(png)
    assert png.stat().st_size > 1000
    png_checks(png, ax.figure)
    plt.close(ax.figure)

    # default times: 6 frames spread over the run; another rod; explicit axes
    ax = cosrod.plot.centerline(res, rod=1, axes=(0, 1))
    lines = ax.get_lines()
    assert len(lines) == 6
    for line, k in zip(lines, (0, 2, 4, 6, 8, 10)):
        np.testing.assert_array_equal(line.get_xdata(), res.rods[1].centerline[k, :, 0])
        np.testing.assert_array_equal(line.get_ydata(), res.rods[1].centerline[k, :, 1])
    plt.close(ax.figure)


def test_plot_tip_draws_three_coordinates(source_dir, tmp_path):
    res = run(source_dir)
    ax = cosrod.plot.tip(res)
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == ["x", "y", "z"]
    for k, line in enumerate(lines):
        np.testing.assert_array_equal(line.get_xdata(), res.t)
        np.testing.assert_array_equal(line.get_ydata(), res.centerline[:, -1, k])
    png = tmp_path / "tip.png"
    ax.figure.savefig(png)
    png_checks(png, ax.figure)
    plt.close(ax.figure)
