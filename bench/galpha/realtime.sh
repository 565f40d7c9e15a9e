#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# solver.realtime (galpha, h = 1 ms, newton_max NMAX (default 3), jac_budget 1) through
# cosrod_sim_step: CPU per step vs N (minimum wall over REPS runs of 1000
# steps = 1 s simulated; real time at 1 kHz needs <= 1000 us per step) and
# the tip error at t = 1 s against radau5 at rtol = atol = 1e-10 (N <= NREF).
# Usage: bench/galpha/realtime.sh BUILD_DIR > bench/results/realtime-runs.txt
set -eu
B=${1:?usage: bench/galpha/realtime.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BG="$B/bench/galpha/bench_galpha"
EX="$ROOT/examples"
REPS=${REPS:-3}
NS=${NS:-"10 20 40 80 160 320"}
NREF=${NREF:-40}
best() {
  i=0
  while [ $i -lt "$REPS" ]; do "$@"; i=$((i + 1)); done |
    awk '{for (k = 1; k < NF; k++) if ($k == "wall") w = $(k + 1); if (NR == 1 || w < m) { m = w; l = $0 } } END { print l }'
}
tip() { echo "$1" | awk '{for (k = 1; k < NF; k++) if ($k == "tip") print $(k + 1), $(k + 2), $(k + 3)}'; }
err() {
  echo "$1" | awk -v r="$2" '{split(r, q, " "); for (k = 1; k < NF; k++) if ($k == "tip") {
    e = sqrt(($(k + 1) - q[1])^2 + ($(k + 2) - q[2])^2 + ($(k + 3) - q[3])^2) }; printf "%s err %.3e\n", $0, e }'
}
. "$ROOT/bench/stamp.sh"
echo "# $(bench_stamp "$ROOT")"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
RT="--set solver.integrator=galpha --set solver.realtime.h=1e-3 --set solver.realtime.newton_max=${NMAX:-3} --set solver.realtime.jac_budget=1 --set analysis.t_end=100"
for case in "rubber $EX/rubber-pendulum.yaml" "steel $EX/perf-steel.yaml"; do
  name=${case%% *} file=${case#* }
  F="--set solver.formulation=nullspace --set solver.stabilisation=projection"
  for N in $NS; do
    # shellcheck disable=SC2086
    line=$(best "$BG" steps "$file" 1000 1e-3 --set rods.0.segments=$N $F $RT)
    if [ "$N" -le "$NREF" ]; then
      # shellcheck disable=SC2086
      ref=$("$BG" run "$file" --set rods.0.segments=$N $F --set analysis.t_end=1 --set solver.integrator=radau5 --set solver.rtol=1e-10 --set solver.atol=1e-10)
      line=$(err "$line" "$(tip "$ref")")
    fi
    echo "$name N $N: $line"
  done
done
