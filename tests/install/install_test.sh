#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the build tree into a scratch prefix, then builds and runs a
# downstream project twice: with find_package(cosrod) and with pkg-config.
set -eu
SRC=$1; BUILD=$2; WORK=$BUILD/install-test
rm -rf "$WORK"; mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
cmake -S "$SRC/tests/install/consumer" -B "$WORK/consumer" -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null
cmake --build "$WORK/consumer" >/dev/null
# No LD_LIBRARY_PATH: both consumers find libcosrod through their RPATH
# (CMake: the imported target's location; pkg-config: -Wl,-rpath in Libs).
env -u LD_LIBRARY_PATH "$WORK/consumer/consumer"
LIBDIR=$(ls -d "$WORK"/prefix/lib*/pkgconfig | head -n 1)
PKG_CONFIG_PATH=$LIBDIR cc -std=c11 "$SRC/tests/install/consumer/main.c" -o "$WORK/consumer-pc" \
  $(PKG_CONFIG_PATH=$LIBDIR pkg-config --cflags --libs cosrod) -lm
env -u LD_LIBRARY_PATH "$WORK/consumer-pc"
test -x "$WORK/prefix/bin/cosrod"
env -u LD_LIBRARY_PATH "$WORK/prefix/bin/cosrod" --version
echo "install test: find_package and pkg-config consumers OK"
# The installed library finds its OpenMP module (libcosrod_omp.so, opened on
# the first request for 2 threads by a rod of >= 2000 segments): no warning.
if [ -e "$(dirname "$(ls "$WORK"/prefix/lib*/libcosrod.so | head -n 1)")/libcosrod_omp.so" ]; then
  cat >"$WORK/threads.yaml" <<'Y'
cosrod: 1
title: installed OpenMP module probe
rods:
  - name: r
    length: 1.0
    segments: 2000
    material: {E: 5.0e6, poisson: 0.5, density: 1100}
    section: {shape: circle, radius: 5.0e-3}
    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}
    ends: {start: {type: pinned}}
analysis: {type: dynamic, t_end: 1.0e-3}
solver: {integrator: galpha, h: 1.0e-3, threads: 2}
output: {dir: out, every: 1.0e-3, fields: [tip], vtk: false, plots: false}
Y
  env -u LD_LIBRARY_PATH "$WORK/prefix/bin/cosrod" run "$WORK/threads.yaml" -o "$WORK/threads" >/dev/null 2>"$WORK/threads.err"
  if grep -q "OpenMP module" "$WORK/threads.err"; then cat "$WORK/threads.err" >&2; exit 1; fi
  echo "install test: the installed OpenMP module loads"
fi
