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
