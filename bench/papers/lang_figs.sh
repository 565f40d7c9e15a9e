#!/bin/sh
# [L] §7 Figs. 13-16 (rigid-body formulations: accuracy vs f-evaluations):
# writes bench/results/lang-figs.csv (example,integrator,formulation,tol,
# status,nfev,nsteps,error) with bench/papers/lang_bodies.
# Usage: bench/papers/lang_figs.sh BUILD_DIR [--quick]
set -eu
B=${1:?usage: bench/papers/lang_figs.sh BUILD_DIR [--quick]}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
X="$B/bench/papers/lang_bodies"
[ -x "$X" ] || { echo "missing $X (build the bench targets)" >&2; exit 1; }
mkdir -p "$ROOT/bench/results"
"$X" "$ROOT/examples" ${2:-} > "$ROOT/bench/results/lang-figs.csv"
echo "wrote bench/results/lang-figs.csv"
