#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# generalized-alpha benchmarks (short versions; the machine is
# shared, so every wall time is the minimum over REPS runs).
# Usage: bench/galpha/run.sh BUILD_DIR [--quick] > bench/results/galpha-runs.txt
# (called by bench/run.sh; --quick: the cantilever at h = 2e-3 (rho_inf 0, 0.8) and rtol 1e-4, S1 at N = 10
# with two configurations)
set -eu
B=${1:?usage: bench/galpha/run.sh BUILD_DIR [--quick]}
QUICK=0
[ "${2:-}" = "--quick" ] && QUICK=1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BG="$B/bench/galpha/bench_galpha"
EX="$ROOT/examples"
REPS=${REPS:-3}
best() { # command... -> the output line of the run with the smallest wall (field after "wall")
  i=0
  while [ $i -lt "$REPS" ]; do "$@"; i=$((i + 1)); done |
    awk '{for (k = 1; k < NF; k++) if ($k == "wall") w = $(k + 1); if (NR == 1 || w < m) { m = w; l = $0 } } END { print l }'
}
tip() { # reference line -> "x y z" after "tip"
  echo "$1" | awk '{for (k = 1; k < NF; k++) if ($k == "tip") print $(k + 1), $(k + 2), $(k + 3)}'
}
err() { # run line, reference tip -> the line plus the tip error (2-norm)
  echo "$1" | awk -v r="$2" '{split(r, q, " "); for (k = 1; k < NF; k++) if ($k == "tip") {
    e = sqrt(($(k + 1) - q[1])^2 + ($(k + 2) - q[2])^2 + ($(k + 3) - q[3])^2) }; printf "%s err %.3e\n", $0, e }'
}
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
# quick: one step size, two rho_inf, one tolerance, two S1 configurations
HS="4e-3 2e-3 1e-3" RS="0 0.5 0.8 1" TS="1e-3 1e-4 1e-5" ARS="0.8 0.5"
CFGS="2e-2,0.5,1e-2 1e-2,0.8,1e-2 1e-2,0.8,1e-3 5e-3,0.8,1e-3 2e-3,0.8,1e-3 1e-3,0.8,1e-3"
[ $QUICK = 1 ] && HS=2e-3 RS="0 0.8" TS=1e-4 ARS=0.8 CFGS="1e-2,0.8,1e-2 2e-3,0.8,1e-3"
echo "## pulsed undamped steel cantilever (N = 40, 2 s), fixed step"
for h in $HS; do
  for r in $RS; do
    echo "h $h rho_inf $r: $(best "$BG" cantilever --set solver.h=$h --set solver.rho_inf=$r --set solver.rtol=1e-4 --set solver.atol=1e-6)"
  done
done
echo "## the same, adaptive (atol = 1e-6 m, the default)"
for r in $ARS; do
  for t in $TS; do
    echo "rho_inf $r rtol $t: $(best "$BG" cantilever --set solver.h=0 --set solver.rho_inf=$r --set solver.rtol=$t --set solver.atol=1e-6)"
  done
done
echo "## the same, adaptive with atol = rtol (atol absolute: 1e-4 m against a 1.4 mm vibration)"
for t in $TS; do
  echo "rho_inf 0.8 rtol = atol = $t: $(best "$BG" cantilever --set solver.h=0 --set solver.rho_inf=0.8 --set solver.rtol=$t --set solver.atol=$t)"
done
s1() { # N T -> S1 runs (reference dop853 at 1e-11 for T = 1, galpha h = 2.5e-4 for T = 10)
  N=$1 T=$2
  S="--set analysis.t_end=$T --set rods.0.segments=$N"
  R=5
  [ "$T" = 1 ] || R=1 # the 10 s runs take up to a minute each (rodas at N = 100)
  if [ "$T" = 1 ]; then
    # shellcheck disable=SC2086
    ref=$("$BG" run "$EX/rubber-pendulum.yaml" $S --set solver.integrator=dop853 --set solver.rtol=1e-11 --set solver.atol=1e-11)
    echo "reference dop853 1e-11: $ref"
  else
    # shellcheck disable=SC2086
    ref=$("$BG" run "$EX/rubber-pendulum.yaml" $S --set solver.integrator=galpha --set solver.h=2.5e-4 --set solver.rho_inf=0.9 --set solver.rtol=1e-8 --set solver.atol=1e-8)
    echo "reference galpha h 2.5e-4 rho_inf 0.9: $ref"
  fi
  rt=$(tip "$ref")
  for cfg in $CFGS; do
    # shellcheck disable=SC2046
    set -- $(echo "$cfg" | tr , ' ')
    # shellcheck disable=SC2086
    l=$(REPS=$R best "$BG" run "$EX/rubber-pendulum.yaml" $S --set solver.integrator=galpha --set solver.h=$1 --set solver.rho_inf=$2 --set solver.rtol=$3 --set solver.atol=$3)
    echo "galpha h $1 rho_inf $2 rtol = atol = $3: $(err "$l" "$rt")"
  done
  for m in rodas; do
    # shellcheck disable=SC2086
    l=$(REPS=$R best "$BG" run "$EX/rubber-pendulum.yaml" $S --set solver.integrator=$m --set solver.rtol=1e-3 --set solver.atol=1e-3)
    echo "$m rtol 1e-3: $(err "$l" "$rt")"
  done
}
echo "## undamped rubber pendulum S1, N = 10, 1 s"
s1 10 1
if [ $QUICK = 0 ]; then
  echo "## S1, N = 10, 10 s"
  s1 10 10
  echo "## S1, N = 100, 1 s"
  s1 100 1
  echo "## S1, N = 100, 10 s"
  s1 100 10
  echo "## perf-rubber (T = 10 s; reference radau5 null-space 1e-8)"
  echo "reference: $("$BG" run "$EX/perf-rubber.yaml" --set solver.formulation=nullspace --set solver.stabilisation=projection --set solver.rtol=1e-8 --set solver.atol=1e-8)"
  for h in 2e-3 1e-3; do
    echo "galpha h $h: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=galpha --set solver.h=$h --set solver.rtol=1e-4 --set solver.atol=1e-4)"
  done
  echo "galpha adaptive 1e-4: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=galpha --set solver.rtol=1e-4 --set solver.atol=1e-4)"
  echo "rodas 1e-4: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=rodas --set solver.rtol=1e-4 --set solver.atol=1e-4)"
fi
echo "## cost per fixed step (cosrod_sim_step, galpha h = 1e-4) vs N"
for N in 10 100 1000; do
  echo "N $N: $(best "$BG" steps "$EX/rubber-pendulum.yaml" 1000 1e-4 --set solver.integrator=galpha --set solver.h=1e-4 --set solver.rtol=1e-4 --set solver.atol=1e-4 --set rods.0.segments=$N)"
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
