#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# [L] §7 Figs. 13-16 (rigid-body formulations: accuracy vs f-evaluations; Fig. 14
# with the projected BDF rows cvode-proj when SUNDIALS is found):
# writes bench/results/lang-figs.csv (example,integrator,formulation,tol,
# status,nfev,nsteps,error) with bench/papers/lang_bodies and the figures
# lang-fig13.png .. lang-fig16.png (bench/papers/lang_figs.gp, if gnuplot is
# installed); then the cost of the analytic multibody Jacobian vs finite
# differences in radau5 runs -> bench/results/body-jac-speed.csv
# (bench/papers/body_jac_speed).  Called by bench/run.sh (make bench).
# Usage: bench/papers/lang_figs.sh BUILD_DIR [--quick]
set -eu
B=${1:?usage: bench/papers/lang_figs.sh BUILD_DIR [--quick]}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
X="$B/bench/papers/lang_bodies"
S="$B/bench/papers/body_jac_speed"
for x in "$X" "$S"; do [ -x "$x" ] || { echo "missing $x (build the bench targets)" >&2; exit 1; }; done
R=${COSROD_BENCH_RESULTS:-$ROOT/bench/results} # bench/run.sh --quick: its own directory
mkdir -p "$R"
echo "== [L] Figs. 13-16: rigid-body formulations, error vs f evaluations (lang_bodies)"
"$X" "$ROOT/examples" ${2:-} > "$R/lang-figs.csv"
echo "wrote $R/lang-figs.csv"
if command -v gnuplot >/dev/null 2>&1; then
  (cd "$R" && gnuplot "$ROOT/bench/papers/lang_figs.gp") && echo "wrote $R/lang-fig13.png .. lang-fig16.png"
else
  echo "gnuplot not found: no [L] figures" >&2
fi
echo "== analytic multibody Jacobian vs finite differences, radau5 (body_jac_speed)"
"$S" "$ROOT/examples" ${2:-} > "$R/body-jac-speed.csv"
echo "wrote $R/body-jac-speed.csv"
