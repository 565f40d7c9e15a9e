#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Instructions per call and per segment of the rod right-hand sides and the
# analytic Jacobians, counted by valgrind's callgrind (deterministic, unlike
# timings on a shared machine).  Two runs with C1 and C2 calls each; the
# difference removes start-up and set-up costs.
# Usage: bench/rod/callgrind.sh [BUILD_DIR]   (default build; needs a
# non-native build: valgrind does not know every AVX-512 instruction)
set -eu
B=${1:-build}
BIN="$B/bench/rod/bench_rod"
[ -x "$BIN" ] || { echo "no $BIN (build the bench_rod target)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ir() { # ir N form jacflag calls -> total Ir
  valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$BIN" --N "$1" --form "$2" $3 --calls "$4" \
    >/dev/null 2>&1
  grep -E '^(summary|totals):' "$TMP/cg.out" | head -1 | awk '{print $2}'
}
printf '%-6s %-10s %-4s %14s %14s\n' N form what Ir/call Ir/segment
for N in 10 100 1000; do
  C1=20 C2=220
  [ "$N" -ge 1000 ] && C1=2 C2=22
  for form in absolute nullspace dae; do
    for what in f J; do
      flag=""
      [ "$what" = J ] && flag="--jac"
      a=$(ir "$N" "$form" "$flag" "$C1")
      b=$(ir "$N" "$form" "$flag" "$C2")
      awk -v a="$a" -v b="$b" -v n="$N" -v c=$((C2 - C1)) -v f="$form" -v w="$what" \
        'BEGIN { d = (b - a) / c; printf "%-6d %-10s %-4s %14.0f %14.1f\n", n, f, w, d, d / n }'
    done
  done
done
