# SPDX-License-Identifier: Apache-2.0
"""Offline install of the cosrod Python package against an existing libcosrod:

    pip install --no-build-isolation ./python            (Debian: add --user, or use a venv)

libcosrod is found, in this order, through COSROD_PREFIX (an install prefix),
pkg-config (cosrod.pc, e.g. after `make install`; PKG_CONFIG_PATH for other
prefixes) or the source tree's build directory (../build, after `make`).
Only setuptools and the Python headers are needed (python3-setuptools,
python3-dev); --no-build-isolation keeps pip from fetching setuptools."""
import os
import shlex
import subprocess

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def locate():
    prefix = os.environ.get("COSROD_PREFIX")
    if prefix:
        libdirs = [d for d in (os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")) if os.path.isdir(d)]
        return [os.path.join(prefix, "include")], libdirs
    try:
        cflags = subprocess.run(["pkg-config", "--cflags-only-I", "cosrod"], capture_output=True, text=True,
                                check=True).stdout
        libs = subprocess.run(["pkg-config", "--libs-only-L", "cosrod"], capture_output=True, text=True,
                              check=True).stdout
        return [f[2:] for f in shlex.split(cflags)], [f[2:] for f in shlex.split(libs)]
    except (OSError, subprocess.CalledProcessError):
        pass
    root = os.path.dirname(HERE)
    build = os.environ.get("COSROD_BUILD_DIR", os.path.join(root, "build"))
    if os.path.exists(os.path.join(build, "libcosrod.so")):
        return [os.path.join(root, "include"), os.path.join(build, "include")], [build]
    raise SystemExit("cosrod: libcosrod not found (set COSROD_PREFIX, PKG_CONFIG_PATH, or build ../build first)")


incs, libdirs = locate()
setup(
    name="cosrod",
    version="0.1.0",
    description="Discrete Cosserat rods: Python interface to libcosrod",
    packages=["cosrod"],
    ext_modules=[Extension("cosrod._cosrod", ["cosrod/_cosrod.c", "cosrod/_cosrod_rec.c", "cosrod/_cosrod_scenario.c"], include_dirs=incs, library_dirs=libdirs,
                           runtime_library_dirs=libdirs, libraries=["cosrod"])],
    install_requires=[],  # numpy: Debian's python3-numpy (not fetched)
)
