#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Newton/LU reuse and step control of galpha: counts (steps, rejected, Newton
# iterations, Jacobians, LU) and the minimum CPU time over REPS runs, errors
# against a converged reference (radau5 at rtol = atol = 1e-10; the
# cantilever's f1 against its modal value).
# Usage: bench/galpha/reuse.sh BUILD_DIR > bench/results/galpha-reuse-runs.txt
set -eu
B=${1:?usage: bench/galpha/reuse.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BG="$B/bench/galpha/bench_galpha"
EX="$ROOT/examples"
REPS=${REPS:-5}
best() { # command... -> the output line of the run with the smallest cpu (field after "cpu")
  i=0
  while [ $i -lt "$REPS" ]; do "$@"; i=$((i + 1)); done |
    awk '{for (k = 1; k < NF; k++) if ($k == "cpu") w = $(k + 1); if (NR == 1 || w < m) { m = w; l = $0 } } END { print l }'
}
tip() { echo "$1" | awk '{for (k = 1; k < NF; k++) if ($k == "tip") print $(k + 1), $(k + 2), $(k + 3)}'; }
err() { # run line, reference tip -> the line plus the distance to the reference (2-norm)
  echo "$1" | awk -v r="$2" '{split(r, q, " "); for (k = 1; k < NF; k++) if ($k == "tip") {
    e = sqrt(($(k + 1) - q[1])^2 + ($(k + 2) - q[2])^2 + ($(k + 3) - q[3])^2) }; printf "%s err %.3e\n", $0, e }'
}
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo "## pulsed undamped steel cantilever (N = 40, 2 s)"
for r in 0.5 0.8; do
  echo "adaptive rho_inf $r rtol 1e-4: $(best "$BG" cantilever --set solver.h=0 --set solver.rho_inf=$r --set solver.rtol=1e-4 --set solver.atol=1e-6)"
done
echo "fixed h 2e-3 rho_inf 0.5: $(best "$BG" cantilever --set solver.h=2e-3 --set solver.rho_inf=0.5 --set solver.rtol=1e-4 --set solver.atol=1e-6)"
scen() { # name file "sets" : reference and galpha runs (sets: --set k=v words without spaces)
  name=$1 file=$2 S=$3
  # shellcheck disable=SC2086
  ref=$("$BG" run "$file" $S --set solver.integrator=radau5 --set solver.rtol=1e-10 --set solver.atol=1e-10)
  echo "## $name; reference radau5 1e-10: $ref"
  rt=$(tip "$ref")
  for cfg in "0 1e-3" "0 1e-4" "0 1e-5" "1e-2 1e-3" "2e-3 1e-3"; do
    G="--set solver.integrator=galpha --set solver.h=${cfg% *} --set solver.rtol=${cfg#* } --set solver.atol=${cfg#* }"
    # shellcheck disable=SC2086
    echo "h ${cfg% *} tol ${cfg#* }: $(err "$(best "$BG" run "$file" $S $G)" "$rt")"
  done
}
scen "heavy top, 10 s" "$EX/heavy-top.yaml" "--set analysis.t_end=10"
scen "rubber pendulum N = 10, 1 s" "$EX/rubber-pendulum.yaml" "--set analysis.t_end=1"
scen "rubber pendulum N = 40, 1 s" "$EX/rubber-pendulum.yaml" "--set analysis.t_end=1 --set rods.0.segments=40"
