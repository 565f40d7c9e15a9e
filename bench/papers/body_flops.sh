#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# [L] Table 1: arithmetic operations of one rigid-body right-hand side (free
# body, examples/tennis-racket.yaml) per formulation, counted from the executed
# instructions like bench/rod/flops.sh (callgrind --dump-instr + objdump,
# bench/rod/flop_count.py), runs with 200 and 2200 calls.
# Usage: bench/papers/body_flops.sh [BUILD_DIR] > body-flops.csv
set -eu
B=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN="$B/bench/papers/body_calls"
[ -x "$BIN" ] || { echo "no $BIN (build the body_calls target)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 1; }
PY=python3; /usr/bin/python3 -c "" 2>/dev/null && PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ARGS=""
for fp in nullspace:quaternion nullspace:directors absolute:quaternion absolute:directors nullspace:euler-angles; do
  f=${fp%%:*} p=${fp#*:}
  for c in 200 2200; do
    valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
      --callgrind-out-file="$TMP/$f-$p-$c.out" "$BIN" "$ROOT/examples" "$f" "$p" "$c" > /dev/null 2>&1
  done
  ARGS="$ARGS $f-$p $TMP/$f-$p-200.out 200 $TMP/$f-$p-2200.out 2200"
done
# shellcheck disable=SC2086
"$PY" "$ROOT/bench/rod/flop_count.py" $ARGS
