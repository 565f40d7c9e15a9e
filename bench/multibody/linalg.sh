#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Band vs sparse (KLU) linear solver for rods attached to bodies, called by bench/run.sh (`make bench`): a chain (body - hose - body,
# bench/multibody/chain-hose.yaml) and a star (one body on four hoses,
# examples/star-hoses.yaml) at N = 16, 64, 256 segments per hose, rodas,
# rtol 1e-5, over t = 0 .. T_END (short: the band LU of the star is O(n^3)),
# through cosrod_sim (bench_papers: the `cosrod run` path without files).
# linear_solver: band, sparse (analytic Jacobian), sparse-fd (grouped differences).
# Prints CSV: topology,N,linear_solver,n,ml,mu,nnz,status,nfev,njev,nsteps,
# naccept,nreject,wall_min_s,wall_per_step_ms.  The star's band at N = 256
# (13 000 unknowns, bandwidths ~10 000: 3.2 GB of band storage and ~10^12
# flops per decomposition) is not run ("skipped").
# Usage: bench/multibody/linalg.sh BUILD_DIR [--quick]  (--quick: N = 16, one rep)
set -eu
B=$1
QUICK=0
[ "${2:-}" = "--quick" ] && QUICK=1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BP="$B/bench/papers/bench_papers"
CK="$B/src/cli/cosrod"
for x in "$BP" "$CK"; do [ -x "$x" ] || { echo "missing $x (build the bench targets)" >&2; exit 1; }; done
if [ $QUICK = 1 ]; then NS="16"; REPS=1; else NS="16 64 256"; REPS=2; fi
T_END=${T_END:-0.05}
TO=${BENCH_TIMEOUT:-600}
echo "topology,N,linear_solver,n,ml,mu,nnz,status,nfev,njev,nsteps,naccept,nreject,wall_min_s,wall_per_step_ms"
for topo in chain star; do
  if [ $topo = chain ]; then f="$ROOT/bench/multibody/chain-hose.yaml"; nr=1; else f="$ROOT/examples/star-hoses.yaml"; nr=4; fi
  for N in $NS; do
    sets="--set analysis.t_end=$T_END --set solver.max_steps=1000000"
    r=0
    while [ $r -lt $nr ]; do sets="$sets --set rods.$r.segments=$N"; r=$((r + 1)); done
    for ls in band sparse sparse-fd; do
      # sparse-fd: the sparse path with grouped differences instead of the analytic Jacobian
      env=""
      [ $ls = sparse-fd ] && env="COSROD_COUPLE_JAC=fd"
      # shellcheck disable=SC2086
      line=$("$CK" check "$f" $sets --set solver.linear_solver=sparse | grep '^linear solver' || true)
      n=$(echo "$line" | sed -n 's/.*n = \([0-9]*\).*/\1/p')
      nnz=$(echo "$line" | sed -n 's/.*nnz = \([0-9]*\).*/\1/p')
      ml=$(echo "$line" | sed -n 's/.*band (\([0-9]*\), \([0-9]*\)).*/\1/p')
      mu=$(echo "$line" | sed -n 's/.*band (\([0-9]*\), \([0-9]*\)).*/\2/p')
      if [ $topo = star ] && [ "$N" -ge 256 ] && [ $ls = band ]; then
        echo "$topo,$N,$ls,$n,$ml,$mu,,skipped,,,,,,,"
        continue
      fi
      # shellcheck disable=SC2086
      row=$(env $env timeout "$TO" "$BP" "$f" $sets --set solver.linear_solver=${ls%-fd} --reps $REPS 2>/dev/null || echo "timeout,,,,,,,,,")
      # row: status,nfev,njev,nsteps,naccept,nreject,wall_min,wall_med,err_tip,rtf
      per=$(echo "$row" | awk -F, '$4 > 0 { printf "%.3f", 1000 * $7 / $4 }')
      echo "$topo,$N,$ls,$n,$ml,$mu,$nnz,$(echo "$row" | cut -d, -f1-7),$per"
    done
  done
done
