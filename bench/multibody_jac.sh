#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Analytic vs finite-difference Jacobian of rods attached to rigid bodies
# (sim_couple_jac.c): examples/cable-pendulum.yaml and
# robot-arm-hose.yaml run by `cosrod run` with radau5, rodas, ida and cvode,
# once with the analytic coupled Jacobian (default) and once with
# COSROD_COUPLE_JAC=fd (banded grouped differences: the integrators' own, and
# sim_couple_jac_fd for SUNDIALS).  Prints status, steps, Jacobians, f
# evaluations and the solver wall time (minimum of REPS runs).
# Usage: bench/multibody_jac.sh BUILD_DIR [REPS [--quick]]   (output: a table on stdout;
# --quick: radau5 and ida only, over t = 0 .. 1 s)
set -eu
B=$1
REPS=${2:-3}
MS="radau5 rodas ida cvode"
QS="" # quick: one one-step and one BDF code over the first second
[ "${3:-}" = "--quick" ] && MS="radau5 ida" QS="analysis.t_end=1"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/stamp.sh"
C="$B/src/cli/cosrod"
[ -x "$C" ] || { echo "missing $C" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^,\"}]*\).*/\1/p" "$T/o/summary.json" | head -1; }
echo "# bench/multibody_jac.sh on $(uname -n), $(date -u '+%Y-%m-%d %H:%M UTC'), rev $(bench_rev "$ROOT"), load $(cut -d' ' -f1 /proc/loadavg)"
echo "# example,integrator,jacobian,status,t_reached,nsteps,njev,nfev,solver_wall_min_s"
for ex in cable-pendulum robot-arm-hose; do
  for m in $MS; do
    for j in analytic fd; do
      best=""
      r=0
      while [ $r -lt "$REPS" ]; do
        rm -rf "$T/o"
        if [ $j = fd ]; then
          COSROD_COUPLE_JAC=fd "$C" run "$ROOT/examples/$ex.yaml" -o "$T/o" -q --set solver.integrator=$m \
            --set output.vtk=false --set output.plots=false ${QS:+--set "$QS"} >/dev/null 2>&1 || true
        else
          "$C" run "$ROOT/examples/$ex.yaml" -o "$T/o" -q --set solver.integrator=$m \
            --set output.vtk=false --set output.plots=false ${QS:+--set "$QS"} >/dev/null 2>&1 || true
        fi
        w=$(field solver_wall_time)
        if [ -z "$best" ] || [ "$(echo "$w < $best" | bc -l)" = 1 ]; then best=$w; fi
        r=$((r + 1))
      done
      echo "$ex,$m,$j,$(field status),$(field t_reached),$(field nsteps),$(field njev),$(field nfev),$best"
    done
  done
done
