#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# galpha on rods attached to rigid bodies: tangent Jacobians K, C by dense
# forward differences (COSROD_COUPLE_JAC=fd) against the analytic tangents
# (system/lie_couple.c).  Counts and the minimum CPU over REPS runs; the tip
# against a reference: radau5 at rtol = atol = 1e-10, or galpha at 1e-8 for
# the cable with the box (radau5 at 1e-10 stops at max_steps there).
# Usage: bench/galpha/lie.sh BUILD_DIR > bench/results/galpha-lie-runs.txt
set -eu
B=${1:?usage: bench/galpha/lie.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BG="$B/bench/galpha/bench_galpha"
REPS=${REPS:-3}
best() { # command... -> the output line of the run with the smallest cpu
  i=0
  while [ $i -lt "$REPS" ]; do "$@"; i=$((i + 1)); done |
    awk '{for (k = 1; k < NF; k++) if ($k == "cpu") w = $(k + 1); if (NR == 1 || w < m) { m = w; l = $0 } } END { print l }'
}
tip() { echo "$1" | awk '{for (k = 1; k < NF; k++) if ($k == "tip") print $(k + 1), $(k + 2), $(k + 3)}'; }
err() {
  echo "$1" | awk -v r="$2" '{split(r, q, " "); for (k = 1; k < NF; k++) if ($k == "tip") {
    e = sqrt(($(k + 1) - q[1])^2 + ($(k + 2) - q[2])^2 + ($(k + 3) - q[3])^2) }; printf "%s err %.3e\n", $0, e }'
}
. "$ROOT/bench/stamp.sh"
echo "# $(bench_stamp "$ROOT")"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
scen() { # name file "sets" "reference sets"
  name=$1 file=$2 S=$3 R=$4
  # shellcheck disable=SC2086
  ref=$("$BG" run "$file" $S $R)
  echo "## $name; reference $R: $ref"
  for tol in 1e-4 1e-6; do
    G="--set solver.integrator=galpha --set solver.h=0 --set solver.rtol=$tol --set solver.atol=$tol"
    for j in fd analytic; do
      # shellcheck disable=SC2086
      echo "tol $tol $j: $(err "$(COSROD_COUPLE_JAC=$j best "$BG" run "$file" $S $G)" "$(tip "$ref")")"
    done
  done
}
RG="--set solver.integrator=galpha --set solver.h=0 --set solver.rtol=1e-8 --set solver.atol=1e-8"
RR="--set solver.integrator=radau5 --set solver.rtol=1e-10 --set solver.atol=1e-10"
scen "steel cable + 1 kg box (N = 20), 6 s" "$ROOT/bench/galpha/cable-box.yaml" "" "$RG"
scen "cable pendulum example, 4 s" "$ROOT/examples/cable-pendulum.yaml" "" "$RR"
