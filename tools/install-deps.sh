#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages cosrod needs (libsuitesparse-dev: KLU), if any are missing.
# python3-sphinx and python3-myst-parser build the manual (make docs, CTest docs.build).
# python3-hypothesis: the property-based tests of the Python API (python/tests/test_properties.py).
# libhdf5-dev: output.format: hdf5 (optional in CMake; loaded on first use), python3-h5py reads it.
# As root: apt-get update && apt-get install ...; otherwise print the command.
# `tools/install-deps.sh bench` adds what `make bench` needs on top: python3
# (bench/papers/report.py writes the report), valgrind (callgrind counts), and
# python3-numba/python3-tqdm: what PyElastica needs for the peer runs of
# bench/peers (its source tree is given by PYELASTICA_SRC; it is not a package).
set -e
PKGS="build-essential cmake pkg-config liblapacke-dev liblapack-dev libblas-dev libyaml-dev gnuplot-nox libsundials-dev libsuitesparse-dev clang python3-dev python3-numpy python3-pytest python3-hypothesis python3-pandas python3-matplotlib python3-scipy python3-dask python3-distributed python3-sphinx python3-myst-parser libhdf5-dev python3-h5py"
[ "${1:-}" = bench ] && PKGS="$PKGS python3 valgrind python3-numba python3-tqdm"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
# The browser viewer (viewer/): node and npm build it (npm ci fetches three.js
# and esbuild pinned by viewer/package-lock.json), chromium runs its tests;
# ffmpeg and Pillow write cosrod.plot.animate's MP4 / GIF.  A node / npm /
# chromium already on the PATH (e.g. another distribution of Node.js) is kept.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing="$missing chromium"
# The ParaView state a run writes (vtk/tubes.py) is checked by CTest
# view.paraview_state: pvbatch (paraview, python3-paraview, whose `vtk`
# module also reads the VTK series; it conflicts with python3-vtk9) renders
# the state in an Xvfb server (Debian's ParaView renders through X only).
for p in ffmpeg python3-pil paraview python3-paraview xvfb; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  # Wait up to 10 minutes for another apt/dpkg process to release its lock
  # instead of failing at once; install only what is named (no recommends).
  LOCK="-o DPkg::Lock::Timeout=600"
  apt-get $LOCK update -qq
  apt-get $LOCK install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "cosrod needs these Debian packages:$missing" >&2
  echo "run:  sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
  exit 1
fi
