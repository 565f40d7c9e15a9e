# SPDX-License-Identifier: Apache-2.0
"""The package outside the build tree: `cmake --install` (what `make install`
runs) into a scratch prefix, and `pip install --no-build-isolation` (offline)
against that prefix; both import from a foreign directory and compute exactly
what the build tree computes."""
import os
import subprocess
import sys

import numpy as np

import cosrod

SNIPPET = """
import sys, numpy as np, cosrod
assert cosrod.__file__.startswith(sys.argv[1]), cosrod.__file__
res = cosrod.load(sys.argv[2], set={"analysis.t_end": 0.05, "output.every": 0.01}).run()
np.save(sys.argv[3], res.centerline)
"""


def reference(path):
    return cosrod.load(path, set={"analysis.t_end": 0.05, "output.every": 0.01}).run().centerline


def run_from(site, path, out, cwd):
    env = dict(os.environ, PYTHONPATH=site)
    subprocess.run([sys.executable, "-c", SNIPPET, site, path, out], env=env, cwd=cwd, check=True)
    return np.load(out)


def test_cmake_install_and_pip_install(source_dir, tmp_path):
    build = os.environ["COSROD_BINARY_DIR"]
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True, capture_output=True)
    sites = sorted((prefix / "lib").glob("python3*/dist-packages"))
    assert len(sites) == 1, sites
    site = str(sites[0])
    path = os.path.join(source_dir, "examples", "rubber-pendulum.yaml")
    ref = reference(path)
    np.testing.assert_array_equal(run_from(site, path, str(tmp_path / "a.npy"), tmp_path), ref)
    # the installed `cosrod sweep` finds the installed package (PREFIX/bin/../lib/python3.X/...)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([str(prefix / "bin" / "cosrod"), "sweep", path, "--param", "rods.0.segments=4,5", "--set",
                        "analysis.t_end=0.01", "--set", "output.vtk=false", "--set", "output.plots=false", "-q",
                        "-o", str(tmp_path / "study")], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "study" / "sweep.csv").read_text().count("\n") == 3

    # pip, offline, against the installed library (found through COSROD_PREFIX)
    target = tmp_path / "pip"
    env = dict(os.environ, COSROD_PREFIX=str(prefix))
    env.pop("PYTHONPATH", None)
    src = tmp_path / "src"
    subprocess.run(["cp", "-r", os.path.join(source_dir, "python"), str(src)], check=True)  # pip writes build/ there
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index", "--no-deps",
                    "--target", str(target), str(src)], env=env, check=True, cwd=tmp_path)
    np.testing.assert_array_equal(run_from(str(target), path, str(tmp_path / "b.npy"), tmp_path), ref)


def test_readme_command_from_the_build_tree(source_dir):
    """The manual's (Python guide) first command, run as documented: from the source
    directory, PYTHONPATH=build/python, Debian's interpreter (the build's)."""
    build = os.environ["COSROD_BINARY_DIR"]
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    cmd = "import cosrod; print(cosrod.load('examples/rubber-pendulum.yaml').run().stats)"
    out = subprocess.run([sys.executable, "-c", cmd], env=env, cwd=source_dir, check=True, capture_output=True,
                         text=True).stdout
    stats = eval(out, {"__builtins__": {}}, {"inf": float("inf"), "nan": float("nan")})  # a dict literal
    ref = cosrod.load(os.path.join(source_dir, "examples", "rubber-pendulum.yaml")).run().stats
    assert stats["status"] == "ok" and stats["t_reached"] == 2.0 and stats["frames"] == 201
    # same run as in this process: the same counters
    for k in ("nsteps", "naccept", "nreject", "nfev", "frames", "t_reached"):
        assert stats[k] == ref[k], k


def test_import_without_numpy_says_which_interpreter(tmp_path):
    """An interpreter without numpy (a pyenv python3 ahead of /usr/bin on the
    PATH) gets an ImportError naming itself and Debian's python3."""
    code = "import sys; sys.modules['numpy'] = None\ntry:\n import cosrod\nexcept ImportError as e:\n print(e)\n"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout
    assert "cosrod needs numpy" in out and sys.executable in out and "/usr/bin/python3" in out
