#!/bin/sh
# generalized-alpha benchmarks of issue 12 (short versions; the machine is
# shared, so every wall time is the minimum over REPS runs).
# Usage: bench/galpha/run.sh BUILD_DIR > bench/results/galpha-runs.txt
set -eu
B=${1:?usage: bench/galpha/run.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BG="$B/bench/galpha/bench_galpha"
EX="$ROOT/examples"
REPS=${REPS:-3}
best() { # command... -> the output line of the run with the smallest wall (field after "wall")
  i=0
  while [ $i -lt "$REPS" ]; do "$@"; i=$((i + 1)); done |
    awk '{for (k = 1; k < NF; k++) if ($k == "wall") w = $(k + 1); if (NR == 1 || w < m) { m = w; l = $0 } } END { print l }'
}
echo "## pulsed undamped steel cantilever (N = 40, 2 s), fixed step"
for h in 4e-3 2e-3 1e-3; do
  for r in 0 0.5 0.8 1; do
    echo "h $h rho_inf $r: $(best "$BG" cantilever --set solver.h=$h --set solver.rho_inf=$r --set solver.rtol=1e-4 --set solver.atol=1e-6)"
  done
done
echo "## the same, adaptive (rho_inf 0.5)"
for t in 1e-4 1e-5 1e-6; do
  echo "rtol = atol = $t: $(best "$BG" cantilever --set solver.h=0 --set solver.rho_inf=0.5 --set solver.rtol=$t --set solver.atol=$t)"
done
echo "## undamped rubber pendulum S1, N = 10, 1 s (reference dop853 1e-11)"
echo "reference: $("$BG" run "$EX/rubber-pendulum.yaml" --set analysis.t_end=1 --set solver.integrator=dop853 --set solver.rtol=1e-11 --set solver.atol=1e-11)"
for h in 1e-2 5e-3 2e-3 1e-3; do
  echo "galpha h $h: $(REPS=5 best "$BG" run "$EX/rubber-pendulum.yaml" --set analysis.t_end=1 --set solver.integrator=galpha --set solver.h=$h --set solver.rtol=1e-3 --set solver.atol=1e-3)"
done
for m in rodas dopri5; do
  echo "$m rtol 1e-3: $(REPS=5 best "$BG" run "$EX/rubber-pendulum.yaml" --set analysis.t_end=1 --set solver.integrator=$m --set solver.rtol=1e-3 --set solver.atol=1e-3)"
done
echo "## perf-rubber (T = 10 s; reference radau5 null-space 1e-8)"
echo "reference: $("$BG" run "$EX/perf-rubber.yaml" --set solver.formulation=nullspace --set solver.stabilisation=projection --set solver.rtol=1e-8 --set solver.atol=1e-8)"
for h in 2e-3 1e-3; do
  echo "galpha h $h: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=galpha --set solver.h=$h --set solver.rtol=1e-4 --set solver.atol=1e-4)"
done
echo "galpha adaptive 1e-4: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=galpha --set solver.rtol=1e-4 --set solver.atol=1e-4)"
echo "rodas 1e-4: $(best "$BG" run "$EX/perf-rubber.yaml" --set solver.integrator=rodas --set solver.rtol=1e-4 --set solver.atol=1e-4)"
echo "## cost per fixed step (cosrod_sim_step, galpha h = 1e-4) vs N"
for N in 10 100 1000; do
  echo "N $N: $(best "$BG" steps "$EX/rubber-pendulum.yaml" 1000 1e-4 --set solver.integrator=galpha --set solver.h=1e-4 --set solver.rtol=1e-4 --set solver.atol=1e-4 --set rods.0.segments=$N)"
done
