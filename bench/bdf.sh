#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Per-step cost of the BDF codes on our band SUNMatrix / linear solver, called by bench/run.sh (`make bench`):
#  1. bench_bdf: perf-rubber and perf-steel integrated directly (no output) by rodas,
#     ida and cvode with our band LU (default), with LAPACK dgbtrf on our band, and
#     with SUNDIALS' own band matrix + solver (the previous path): counts, wall
#     (minimum of REPS runs), µs per attempted / accepted step, ratio to rodas.
#  2. bench_papers: the same scenarios through cosrod_sim (the `cosrod run` path with
#     output every 0.01 s, no files) for rodas, ida and cvode.
# Writes RESULTS_DIR/bdf-runs.txt (summarised in bench/results/bdf.md).
# Usage: bench/bdf.sh BUILD_DIR RESULTS_DIR [--quick]
#   (--quick: perf-rubber only, TOL 1e-3, REPS 1; part 2 with rodas and ida)
set -eu
B=$1
R=$2
QUICK=0
[ "${3:-}" = "--quick" ] && QUICK=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/stamp.sh"
BB="$B/bench/papers/bench_bdf"
BP="$B/bench/papers/bench_papers"
EX="$ROOT/examples"
for x in "$BB" "$BP"; do [ -x "$x" ] || { echo "missing $x (build the bench targets)" >&2; exit 1; }; done
if [ $QUICK = 1 ]; then TOLS="1e-3"; REPS=1; SCS=rubber; MS="rodas ida"
else TOLS="1e-3 1e-4 1e-5"; REPS=5; SCS="rubber steel"; MS="rodas ida cvode"; fi

echo "== BDF per-step cost (bench_bdf, bench_papers) -> $R/bdf-runs.txt"
{
  echo "# bench/bdf.sh on $(uname -n), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  echo "# $(bench_stamp "$ROOT")"
  for s in $SCS; do
    for t in $TOLS; do
      [ $s = steel ] && [ "$t" != 1e-3 ] && continue
      echo
      "$BB" "$EX/perf-$s.yaml" --tol "$t" --reps "$REPS"
    done
  done
  echo
  echo "# cosrod_sim path (output every 0.01 s, no files), TOL 1e-3:"
  echo "# scenario,method,status,nfev,njev,nsteps,naccept,nreject,wall_min_s,wall_med_s,err_tip,rtf"
  for s in $SCS; do
    for m in $MS; do
      echo "perf-$s,$m,$("$BP" "$EX/perf-$s.yaml" --set solver.integrator=$m --set solver.rtol=1e-3 \
        --set solver.atol=1e-3 --set solver.max_steps=1000000 --reps "$REPS")"
    done
  done
} > "$R/bdf-runs.txt"
