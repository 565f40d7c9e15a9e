#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Arithmetic operations of one rod right-hand side f, counted from the executed
# instructions (callgrind --dump-instr, each instruction classified by its
# mnemonic in objdump's disassembly: bench/rod/flop_count.py), per curvature
# type and formulation at N = 10 and 20 (the difference gives the cost per
# segment), beside [LLA] Table 1.  Two runs with 20 and 220 calls remove the
# set-up.  Usage: bench/rod/flops.sh [BUILD_DIR] > rod-flops.csv
# (a build without COSROD_NATIVE: SSE2 only, no FMA / AVX-512).
set -eu
B=${1:-build}
BIN="$B/bench/rod/bench_rod"
[ -x "$BIN" ] || { echo "no $BIN (build the bench_rod target)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 1; }
PY=python3; /usr/bin/python3 -c "" 2>/dev/null && PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ARGS=""
for form in absolute nullspace; do
  for curv in sine-2 sine-4 tangent-2 tangent-4 angle; do
    for N in 10 20; do
      for c in 20 220; do
        valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
          --callgrind-out-file="$TMP/$form-$curv-$N-$c.out" "$BIN" --N "$N" --form "$form" --curv "$curv" \
          --calls "$c" > /dev/null 2>&1
      done
      ARGS="$ARGS $form/$curv/N$N $TMP/$form-$curv-$N-20.out 20 $TMP/$form-$curv-$N-220.out 220"
    done
  done
done
# shellcheck disable=SC2086
"$PY" "$(dirname "$0")/flop_count.py" $ARGS
