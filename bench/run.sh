#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Benchmark suite: reproduces the performance experiments of
# [LLA] §4 (Tables 2-3, Figs. 7-8) and the cost of f / Jacobian ([LLA]
# Table 1 text), and writes bench/results/README.md plus PNG figures.
# Usage: bench/run.sh BUILD_DIR [--quick]     (called by `make bench`)
# --quick (smoke test, goal ~5 min wall, ~100 s CPU): the same scripts at their smallest setting
# that still runs each code path and compares its result with its reference (one comparison per
# section): TOL 1e-3 only, one integrator per [LLA] table (radau5) beside the capped dopri5,
# references at 1e-6 instead of 1e-10, one timing repetition, dopri5 capped at 5 000 steps,
# coarser N / shorter T / fewer integrators where a script allows it (see each section); the
# costly studies without a reference (diagnostics, the step-count readings) run a subset into
# the work directory.  A quick run writes BUILD_DIR/bench-results-quick, never bench/results.
# Full: TOL 1e-2 .. 1e-8, two timed runs at TOL >= 1e-4.  A run over BENCH_TIMEOUT seconds is
# listed as timeout.  Each section's wall and CPU seconds: bench-timing.csv (quick: bench-timing-quick.csv).
# CALLGRIND_BUILD=DIR (a non-native build with bench_rod) adds callgrind instruction counts.
# Timings: the integrator's own wall time, minimum (and median) over REPS runs
# (other processes share the 2 cores).  Needs python3 and gnuplot (`tools/install-deps.sh bench`).
set -eu
RUN_ARGS="$*"
B=${1:?usage: bench/run.sh BUILD_DIR [--quick]}
QUICK=0
[ "${2:-}" = "--quick" ] && QUICK=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
if [ -n "${CALLGRIND_BUILD:-}" ]; then case "$CALLGRIND_BUILD" in /*) ;; *) CALLGRIND_BUILD="$ROOT/$CALLGRIND_BUILD" ;; esac; fi
# Full runs write bench/results; quick runs (a smoke test, not a measurement to keep) write
# BUILD_DIR/bench-results-quick, seeded with a copy of bench/results so that the report still
# finds the files a quick run does not write.  The scripts called below write into
# $COSROD_BENCH_RESULTS.
R="$ROOT/bench/results"
if [ $QUICK = 1 ]; then
  R="$B/bench-results-quick"
  rm -rf "$R" && mkdir -p "$R" && cp -pR "$ROOT/bench/results/." "$R/"
  echo "quick run: results go to $R (bench/results is left alone)"
fi
COSROD_BENCH_RESULTS=$R
export COSROD_BENCH_RESULTS
BP="$B/bench/papers/bench_papers"
DG="$B/bench/papers/diag_rubber"
BR="$B/bench/rod/bench_rod"
for x in "$BP" "$DG" "$BR" "$B/bench/papers/la_experiments"; do [ -x "$x" ] || { echo "missing $x (build the bench targets)" >&2; exit 1; }; done
mkdir -p "$R"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
touch "$W/stamp" # files newer than this were written by this run (provenance.txt)
# the commit the results come from, taken before the run writes into bench/results (whose
# changes are the run's own output, not local changes of the code)
. "$ROOT/bench/stamp.sh"
rev=$(bench_rev "$ROOT")
# python3 of PATH resolved once to its executable: a version-manager shim (pyenv) costs 1-3 s
# of wall time per start, and the scripts below start python3 some hundred times.  The first
# of PATH's python3 and /usr/bin/python3 that has numpy, pandas and dask.distributed (the
# packages tools/install-deps.sh installs; the design-study section needs the last two), else
# the first with numpy.
PYREAL=""
for need in "numpy, pandas, distributed" "numpy"; do
  for py in python3 /usr/bin/python3; do
    [ -z "$PYREAL" ] || break
    PYREAL=$("$py" -c "import sys, $need; print(sys.executable)" 2>/dev/null || true)
  done
done
if [ -n "$PYREAL" ] && [ -x "$PYREAL" ]; then
  mkdir -p "$W/bin" && ln -s "$PYREAL" "$W/bin/python3" && PATH="$W/bin:$PATH" && export PATH
fi
if [ $QUICK = 1 ]; then TOLS="1e-3"; REPS=1; RTOL_REF=1e-6; DCAP=5000; QF=--quick; TMS=radau5
else TOLS="1e-2 1e-3 1e-4 1e-5 1e-6 1e-7 1e-8"; REPS=2; RTOL_REF=1e-10; DCAP=200000; QF=""
  TMS="radau5 seulex rodas ida cvode"; fi
EX="$ROOT/examples"
TO=${BENCH_TIMEOUT:-90} # seconds per run

# Cost of each part: wall and CPU seconds (this shell's children, user + sys)
# per section -> $R/bench-timing.csv (quick runs: bench-timing-quick.csv).
TF="$R/bench-timing.csv"
[ $QUICK = 1 ] && TF="$R/bench-timing-quick.csv"
SEC="" SEC_W=0 SEC_C=0
# `times` runs in this shell (not in a $(...) subshell, whose counts start at 0)
cpu_s() { awk '{ for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } } END { printf "%.2f", s }' "$W/times"; }
sec_end() { # close the open section: one csv row
  [ -n "$SEC" ] || return 0
  times > "$W/times"
  w=$(date +%s.%N) c=$(cpu_s)
  awk -v n="$SEC" -v w0="$SEC_W" -v w1="$w" -v c0="$SEC_C" -v c1="$c" \
    'BEGIN { gsub(/"/, "", n); printf "\"%s\",%.1f,%.1f\n", n, w1 - w0, c1 - c0 }' >> "$TF"
}
sec() { # sec "title": print the title, start timing a new section
  sec_end
  echo "== $1"
  times > "$W/times"
  SEC=$1 SEC_W=$(date +%s.%N) SEC_C=$(cpu_s)
}
echo "section,wall_s,cpu_s" > "$TF"
times > "$W/times"
T0_W=$(date +%s.%N) T0_C=$(cpu_s)

sec "cost of f and Jacobian (bench_rod)"
# quick: N = 10 only (the size of [LLA]'s f / J timings that the report compares with)
if [ $QUICK = 1 ]; then "$BR" --quick --N 10 > "$R/rod_cost.txt"; else "$BR" --quick > "$R/rod_cost.txt"; fi

# Instruction counts need a non-native build (valgrind does not know every
# AVX-512 instruction): CALLGRIND_BUILD=<non-native build dir> bench/run.sh ...
if [ -n "${CALLGRIND_BUILD:-}" ] && command -v valgrind >/dev/null 2>&1; then
  sec "instruction counts of f and J (callgrind, $CALLGRIND_BUILD)"
  sh "$ROOT/bench/rod/callgrind.sh" "$CALLGRIND_BUILD" > "$R/callgrind-rod.txt"
  sec "arithmetic operations of f per curvature ([LLA] Table 1; callgrind + objdump, $CALLGRIND_BUILD)"
  { echo "# commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown); sh bench/rod/flops.sh $CALLGRIND_BUILD"
    sh "$ROOT/bench/rod/flops.sh" "$CALLGRIND_BUILD"; } > "$R/rod-flops.csv"
  { echo "# commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown); sh bench/papers/body_flops.sh $CALLGRIND_BUILD"
    sh "$ROOT/bench/papers/body_flops.sh" "$CALLGRIND_BUILD"; } > "$R/body-flops.csv"
fi

run() { # run scen method tol extra... -> csv row
  s=$1 m=$2 t=$3
  shift 3
  reps=$REPS
  case $t in 1e-2 | 1e-3 | 1e-4) ;; *) reps=1 ;; esac # tight tolerances: one timed run
  row=$(timeout "$TO" "$BP" "$EX/perf-$s.yaml" --set solver.integrator="$m" --set solver.rtol="$t" \
    --set solver.atol="$t" --set solver.max_steps=1000000 --reps "$reps" --ref "$W/ref-$s.txt" "$@" 2>>"$W/err.log" ||
    echo "timeout,,,,,,,,,")
  echo "$s,$m,$t,$row" >> "$R/runs.csv"
}

echo "scenario,method,tol,status,nfev,njev,nsteps,naccept,nreject,wall_min_s,wall_med_s,err_tip,rtf" > "$R/runs.csv"
for s in rubber steel; do
  sec "reference perf-$s (radau5 $RTOL_REF) and the integrators of [LLA] Tables 2-3"
  "$BP" "$EX/perf-$s.yaml" --set solver.integrator=radau5 --set solver.rtol=$RTOL_REF --set solver.atol=$RTOL_REF \
    --set solver.max_steps=5000000 --write-ref "$W/ref-$s.txt" > "$W/ref-$s.csv"
  for m in $TMS; do
    for t in $TOLS; do
      echo "   perf-$s $m $t"
      if [ "$t" = 1e-3 ]; then run $s $m $t --steps "$R/steps-$s-$m.csv"; else run $s $m $t; fi
    done
  done
  # DoPri5 runs at its stability limit: a capped run gives steps per simulated second
  echo "   perf-$s dopri5 (capped at $DCAP steps)"
  run $s dopri5 1e-3 --set solver.max_steps=$DCAP --steps "$W/steps-$s-dopri5.csv"
  awk 'NR == 1 || NR % 100 == 0' "$W/steps-$s-dopri5.csv" > "$R/steps-$s-dopri5.csv"
done

sec "[LA] Fig. 3: absolute (projection) vs nullspace, radau5, perf-rubber"
for f in absolute nullspace; do
  st=projection
  [ $f = nullspace ] && st=none
  for t in $TOLS; do
    row=$(timeout "$TO" "$BP" "$EX/perf-rubber.yaml" --set solver.integrator=radau5 --set solver.rtol=$t \
      --set solver.atol=$t --set solver.formulation=$f --set solver.stabilisation=$st --reps "$REPS" \
      --ref "$W/ref-rubber.txt" 2>>"$W/err.log" || echo "timeout,,,,,,,,,")
    echo "rubber-$f,radau5,$t,$row" >> "$R/runs.csv"
  done
done

LA="$B/bench/papers/la_experiments"
sec "[LA] Fig. 2: convergence in N, damped rubber pendulum (examples/convergence.yaml, radau5 1e-10)"
# quick: reference N = 40 with N = 10, 20 at TOL 1e-7 (the errors are >= 1e-4 m: the slope, ~2.2
# against the coarse reference, still tells second order from first)
if [ $QUICK = 1 ]; then NS="40 10 20 --set solver.rtol=1e-7 --set solver.atol=1e-7"; else NS="320 5 10 20 40 80"; fi
# shellcheck disable=SC2086
"$LA" conv "$EX/convergence.yaml" $NS > "$R/la-fig2-convergence.csv" 2>>"$W/err.log"

sec "[LA] Fig. 5: energy defect of the projection, undamped rubber rod, radau5, T = 10 s"
echo "formulation,tol,sum_dTR,sum_abs_dTR,max_drift,projections,steps,nfev,wall_s,status" > "$R/la-fig5-energy.csv"
if [ $QUICK = 1 ]; then ETOLS="1e-3"; else ETOLS="1e-2 1e-3 1e-4 1e-5 1e-6"; fi
for f in absolute nullspace; do
  for t in $ETOLS; do
    "$LA" energy "$EX/stiffness.yaml" --set solver.integrator=radau5 --set solver.formulation=$f \
      --set solver.stabilisation=projection --set analysis.t_end=10 --set solver.rtol=$t --set solver.atol=$t \
      > "$W/energy.csv" 2>>"$W/err.log" || true
    sed -n "s/^#total,/$f,$t,/p" "$W/energy.csv" >> "$R/la-fig5-energy.csv"
    [ "$t" = 1e-3 ] && grep -v '^#' "$W/energy.csv" > "$R/la-fig5-history-$f.csv"
  done
done

sec "[LA] Fig. 5 on the paper's damped rod (examples/perf-rubber.yaml, the rod of [LA] Figs. 2-3), radau5, T = 10 s"
echo "formulation,tol,sum_dTR,sum_abs_dTR,max_drift,projections,steps,nfev,wall_s,status" > "$R/la-fig5-damped-energy.csv"
for f in absolute nullspace; do
  for t in $ETOLS; do
    "$LA" energy "$EX/perf-rubber.yaml" --set solver.integrator=radau5 --set solver.formulation=$f \
      --set solver.stabilisation=projection --set analysis.t_end=10 --set solver.rtol=$t --set solver.atol=$t \
      > "$W/energy.csv" 2>>"$W/err.log" || true
    sed -n "s/^#total,/$f,$t,/p" "$W/energy.csv" >> "$R/la-fig5-damped-energy.csv"
    [ "$t" = 1e-3 ] && grep -v '^#' "$W/energy.csv" > "$R/la-fig5-damped-history-$f.csv"
  done
done

sec "[LA] Fig. 6: dopri5 step sizes, undamped rubber rod (examples/stiffness.yaml), N = 5 .. 40 (quick: .. 20), T = 1 s"
F6N="5 10 20 40"; [ $QUICK = 1 ] && F6N="5 20"
for n in $F6N; do
  "$BP" "$EX/stiffness.yaml" --set rods.0.segments=$n --steps "$W/s6.csv" > /dev/null 2>>"$W/err.log" || true
  awk 'NR == 1 || NR % 10 == 0' "$W/s6.csv" > "$R/la-fig6-steps-N$n.csv"
done

sec "[LA] Fig. 6 with the three models, Cosserat vs Kirchhoff work-precision (bench/kirchhoff.sh)"
# Kirchhoff models: [LA] Fig. 6 with all three models, Cosserat vs Kirchhoff work-precision
if [ $QUICK = 1 ]; then sh "$ROOT/bench/kirchhoff.sh" "$B" "$R" --quick; else sh "$ROOT/bench/kirchhoff.sh" "$B" "$R"; fi

sec "BDF codes: per-step cost against rodas (bench/bdf.sh)"
# BDF codes on our band SUNMatrix / LU: per-step cost against rodas
if [ $QUICK = 1 ]; then sh "$ROOT/bench/bdf.sh" "$B" "$R" --quick; else sh "$ROOT/bench/bdf.sh" "$B" "$R"; fi
# rods attached to bodies: analytic vs finite-difference coupled Jacobian
sec "rods on bodies: analytic vs FD Jacobian (bench/multibody_jac.sh) -> bench/results/multibody-jacobian.txt"
if [ $QUICK = 1 ]; then sh "$ROOT/bench/multibody_jac.sh" "$B" 1 --quick > "$R/multibody-jacobian.txt"
else sh "$ROOT/bench/multibody_jac.sh" "$B" 3 > "$R/multibody-jacobian.txt"; fi
# generalized-alpha: raw runs for bench/results/galpha.md
sec "generalized-alpha: pulsed steel cantilever, S1 rubber pendulum, cost per step (bench/galpha/run.sh)"
if [ -x "$B/bench/galpha/bench_galpha" ]; then
  if [ $QUICK = 1 ]; then REPS=1 sh "$ROOT/bench/galpha/run.sh" "$B" --quick > "$R/galpha-runs.txt"
  else sh "$ROOT/bench/galpha/run.sh" "$B" > "$R/galpha-runs.txt"; fi
else
  echo "   (skipped: $B/bench/galpha/bench_galpha not built)"
fi
# galpha's Newton/LU reuse and step control, the analytic tangents of rods on bodies, and
# the real-time mode (raw runs of galpha.md §8, §10 and realtime.md); full runs only
if [ $QUICK = 0 ] && [ -x "$B/bench/galpha/bench_galpha" ]; then
  sec "generalized-alpha: Newton/LU reuse (bench/galpha/reuse.sh), analytic tangents on bodies (lie.sh), real-time mode (realtime.sh)"
  sh "$ROOT/bench/galpha/reuse.sh" "$B" > "$R/galpha-reuse-runs.txt"
  sh "$ROOT/bench/galpha/lie.sh" "$B" > "$R/galpha-lie-runs.txt"
  sh "$ROOT/bench/galpha/realtime.sh" "$B" > "$R/realtime-runs.txt"
fi
# [L] §7 Figs. 13-16 (rigid bodies) and the cost of the analytic multibody Jacobian
sec "[LLT] Fig. 1: Kelvin-Voigt damped cantilever, zeta_k for tau = 0.01/0.02/0.04 and E = 4e6 (bench/papers/llt_fig1.py)"
# the first python3 on PATH that has matplotlib (a pyenv python may not)
PYM=python3; for p in python3 /usr/bin/python3; do if "$p" -c "import matplotlib" 2>/dev/null; then PYM=$p; break; fi; done
# shellcheck disable=SC2086
"$PYM" "$ROOT/bench/papers/llt_fig1.py" "$B/src/cli/cosrod" "$EX/kv-cantilever.yaml" "$R" "$W" $QF 2>>"$W/err.log" || echo "llt_fig1.py failed" >&2
sec "[LLA] Fig. 9: reference solution at the free end, perf-rubber and perf-steel, radau5 1e-10 (quick: 1e-6, T = 2 s) (bench/papers/lla_fig9.py)"
# shellcheck disable=SC2086
"$PYM" "$ROOT/bench/papers/lla_fig9.py" "$B/src/cli/cosrod" "$EX" "$R" "$W" $QF 2>>"$W/err.log" || echo "lla_fig9.py failed" >&2
sec "[LLA] Fig. 3: Test 1 snapshots x_n(t), d^1(t) and the caption's checks (bench/papers/lla_fig3.py)"
# shellcheck disable=SC2086
COSROD_COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown) \
  "$PYM" "$ROOT/bench/papers/lla_fig3.py" "$B/src/cli/cosrod" "$EX" "$R" "$W" $QF 2>>"$W/err.log" || echo "lla_fig3.py failed" >&2
sec "[L] Figs. 13-16 (bench/papers/lang_figs.sh)"
if [ $QUICK = 1 ]; then sh "$ROOT/bench/papers/lang_figs.sh" "$B" --quick; else sh "$ROOT/bench/papers/lang_figs.sh" "$B"; fi
REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
sec "[LLA] Test 1: rubber pendulum tip, cosrod N = 10..160 (Richardson) vs an independent planar Reissner beam (bench/papers/lla_test1.py)"
# shellcheck disable=SC2086
COSROD_COMMIT=$REV "$PYM" "$ROOT/bench/papers/lla_test1.py" "$B/src/cli/cosrod" "$EX" "$R" "$W" $QF 2>>"$W/err.log" ||
  echo "lla_test1.py failed" >&2
sec "[L] Example A with the paper's unknowns (fixed point, 7 / 8) beside cosrod's model (lang_fixed_point)"
{ echo "# commit $REV; bench/papers/lang_fixed_point examples $QF"
  # shellcheck disable=SC2086
  "$B/bench/papers/lang_fixed_point" "$EX" $QF; } > "$R/lang-fixed-point.csv" 2>>"$W/err.log" || echo "lang_fixed_point failed" >&2
sec "[L] Fig. 15a measured: absolute vs null-space quaternions, projection, error control, invariants (lang_fig15a)"
{ echo "# commit $REV; bench/papers/lang_fig15a examples (tennis racket, Omega(0) = (50, 0.1, 0.1), T = 0.4 s, dopri5)"
  "$B/bench/papers/lang_fig15a" "$EX"; } > "$R/lang-fig15a.csv" 2>>"$W/err.log" || echo "lang_fig15a failed" >&2
sec "[L] Figs. 6, 8-12: drift-off, dopri5 step sizes, energy, solutions of Examples A and B (bench/papers/lang_series.py)"
# shellcheck disable=SC2086
"$PYM" "$ROOT/bench/papers/lang_series.py" "$B/bench/papers/lang_series" "$EX" "$R" $QF 2>>"$W/err.log" ||
  echo "lang_series.py failed" >&2
sec "[LA] Fig. 4: sparsity patterns, N = 10 (bench/papers/la_fig4.py)"
"$PYM" "$ROOT/bench/papers/la_fig4.py" "$B/bench/papers/la_sparsity" "$EX" "$R" 10 2>>"$W/err.log" >/dev/null ||
  echo "la_fig4.py failed" >&2
sec "[LLA] Test 2: quasistatic gamma / Omega loop, x_0..x_5 vs pseudotime (bench/papers/lla_test2.py)"
COSROD_COMMIT=$REV "$PYM" "$ROOT/bench/papers/lla_test2.py" "$B/src/cli/cosrod" "$R" "$W/lla-test2" \
  2>>"$W/err.log" || echo "lla_test2.py failed" >&2
sec "[L] Example C: divergence of nearby trajectories, converged horizon, Fig. 16 at T = 0.5 s (bench/papers/lang_fig16_chaos.py)"
# shellcheck disable=SC2086
COSROD_COMMIT=$REV "$PYM" "$ROOT/bench/papers/lang_fig16_chaos.py" "$B/src/cli/cosrod" "$EX" "$R" "$W" $QF \
  2>>"$W/err.log" >/dev/null || echo "lang_fig16_chaos.py failed" >&2
sec "[LLA] Tables 2-3: readings of the discrete damping vs the paper's step counts (bench/papers/step_count.py)"
# --quick: the no-ds reading on perf-rubber, rodas and dopri5 at TOL 1e-3, into the work dir (the stored tables are the full run's)
if [ $QUICK = 1 ]; then python3 "$ROOT/bench/papers/step_count.py" "$B/src/cli/cosrod" "$EX" "$W" "$W/step-count" --quick
else python3 "$ROOT/bench/papers/step_count.py" "$B/src/cli/cosrod" "$EX" "$R" "$W/step-count"; fi > "$W/step-count.log" 2>&1 ||
  echo "step_count.py failed (log: $W/step-count.log)" >&2

# Rods attached to bodies: band vs sparse (KLU) on a chain and a star
sec "multibody linear algebra: chain vs star, band vs sparse (bench/multibody/linalg.sh)"
if [ $QUICK = 1 ]; then sh "$ROOT/bench/multibody/linalg.sh" "$B" --quick > "$R/multibody-linalg.csv"
else sh "$ROOT/bench/multibody/linalg.sh" "$B" > "$R/multibody-linalg.csv"; fi

# Steel string vs PyElastica: tip error and wall time at N = 10 / 100
sec "steel string of the peer comparison (bench/peers/steel_string.sh)"
# shellcheck disable=SC2086
sh "$ROOT/bench/peers/steel_string.sh" "$B" $QF > "$R/peers-steel-string.csv"

# Rubber pendulum against MuJoCo and PyElastica in one run (full runs only; the peers are built outside
# the repository, see bench/peers/README.md; a peer whose variable is unset is skipped by the script)
if [ $QUICK = 0 ] && { [ -n "${MUJOCO_DIR:-}" ] || [ -n "${PYELASTICA_SRC:-}" ]; }; then
  sec "rubber pendulum vs MuJoCo and PyElastica (bench/peers/pendulum.py)"
  python3 "$ROOT/bench/peers/pendulum.py" "$B" --out-md "$R/peers-pendulum.md" \
    --out-csv "$R/peers-pendulum.csv" > /dev/null
fi

sec "diagnostics of the perf-rubber step counts"
"$DG" "$EX/perf-rubber.yaml" eig 0 > "$R/rubber-spectrum-t0.txt"
"$DG" "$EX/perf-rubber.yaml" eig 1.0 > "$R/rubber-spectrum-t1.txt"
DC="--set rods.0.damping.coefficients"
dampf() { # global factor on all damping coefficients -> --set arguments
  awk -v f="$1" -v d="$DC" 'BEGIN { printf "%s.extension=%g %s.shear=[%g,%g] %s.bending=[%g,%g] %s.torsion=%g",
    d, 200 * f, d, 0.1 * f, 0.1 * f, d, 2e-4 * f, 2e-4 * f, d, 8e-6 * f }'
}
if [ $QUICK = 1 ]; then
  # quick: the FD-vs-analytic Jacobian check and the as-given / damping x 0.01 runs (rodas)
  {
    echo "## dense FD Jacobian instead of the analytic one"
    "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 fdjac
    for v in "" "$(dampf 0.01)"; do
      echo "### variant: ${v:-as in examples/perf-rubber.yaml}"
      # shellcheck disable=SC2086
      "$DG" "$EX/perf-rubber.yaml" $v run rodas 1e-3
    done
  } > "$W/rubber-diagnostics.txt" 2>&1
  echo "   (quick: a subset into the work directory; bench/results/rubber-diagnostics.txt is the full run's)"
else
{
  echo "## dense FD Jacobian instead of the analytic one"
  "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 fdjac
  for g in qx qp vx vp qxqpvx qxvxvp; do
    echo "## atol = 1e30 on group(s) $g (qx/qp positions/quaternions, vx/vp their rates)"
    "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 loose=$g
  done
  echo "## one rodas step on the linearised problem at t = 1 (max error / TOL per group)"
  "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 linprobe | tail -n +2
  echo "## one rodas step on the nonlinear problem from the reference solution (max error / TOL per group)"
  "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 probe | tail -n +2 | head -n 16
  echo "## implicit Euler with full Newton at t = 1 (max residual per iteration)"
  "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 ieprobe | tail -n +2
  echo "## largest changes of the Jacobian along the reference solution from t = 1"
  "$DG" "$EX/perf-rubber.yaml" run rodas 1e-3 jprobe | tail -n +2
  echo "## model variants, TOL 1e-3 (rodas, radau5, seulex, ida; dopri5 over [0, 0.05] s for its stable h)"
  for v in "" "--set solver.stabilisation=none" "--set solver.stabilisation=projection" \
    "--set solver.formulation=nullspace --set solver.stabilisation=none" "--set rods.0.curvature=sine-4" \
    "--set rods.0.segments=5" "--set rods.0.segments=20" "--set gravity=[0,0,-1]" \
    "$(dampf 0.3)" "$(dampf 0.1)" "$(dampf 0.03)" "$(dampf 0.01)" "$DC.extension=2" "$DC.extension=20" \
    "$DC.extension=2000" "$DC.shear=[0.001,0.001]" "$DC.shear=[1.0,1.0]" \
    "$DC.bending=[2e-6,2e-6]" "$DC.bending=[2e-2,2e-2]"; do
    echo "### variant: ${v:-as in examples/perf-rubber.yaml}"
    for m in rodas radau5 seulex ida; do
      # shellcheck disable=SC2086
      "$DG" "$EX/perf-rubber.yaml" $v run $m 1e-3
    done
    # shellcheck disable=SC2086
    "$DG" "$EX/perf-rubber.yaml" $v --set analysis.t_end=0.05 run dopri5 1e-3
  done
  echo "## swing amplitude (initial angle below the horizontal pin level; pi/2 = the paper's horizontal start), rodas"
  for a in 0.01 0.1 0.5 1.0; do
    d=$(awk -v a=$a 'BEGIN { printf "[0,%.9f,%.9f]", sin(a), -cos(a) }')
    nn=$(awk -v a=$a 'BEGIN { printf "[0,%.9f,%.9f]", cos(a), sin(a) }')
    for t in 1e-3 1e-5; do
      echo "### angle from the vertical $a rad, TOL $t"
      "$DG" "$EX/perf-rubber.yaml" --set "rods.0.shape.direction=$d" --set "rods.0.shape.normal=$nn" run rodas $t
    done
  done
  echo "## stiffnesses x 0.01 .. 100 (EA, GA, EI) and rotational inertia x 1000, rodas TOL 1e-3"
  IN="rods.0.inertia={rhoA: 0.08639379797371932, rhoI1: 5.399612373357458e-07, rhoI2: 5.399612373357458e-07, rhoJ: 1.0799224746714916e-06}"
  for v in "1 0.01 1" "1 100 1" "0.1 1 1" "10 1 1" "1 1 0.1" "1 1 10"; do
    set -- $v
    st=$(awk -v a=$1 -v g=$2 -v b=$3 'BEGIN { printf "rods.0.stiffness={EA: %.17g, GA1: %.17g, GA2: %.17g, EI1: %.17g, EI2: %.17g, GJ: 0.0016362461737446842}", 392.69908169872417 * a, 130.89969389957474 * g, 130.89969389957474 * g, 0.0024543692606170264 * b, 0.0024543692606170264 * b }')
    echo "### EA x $1, GA x $2, EI x $3"
    "$DG" "$EX/perf-rubber.yaml" --set "$st" --set "$IN" run rodas 1e-3
  done
  echo "### rho I x 1000"
  "$DG" "$EX/perf-rubber.yaml" --set "rods.0.inertia={rhoA: 0.08639379797371932, rhoI1: 5.399612373357458e-04, rhoI2: 5.399612373357458e-04, rhoJ: 1.0799224746714916e-03}" run rodas 1e-3
  echo "## dopri5 with Hairer's stiffness detection (stops with ERR_STIFF), as given and with all damping x 0.01"
  for t in 1e-2 1e-3 1e-8; do DIAG_STIFF_STOP=1 "$DG" "$EX/perf-rubber.yaml" run dopri5 $t 2>&1; done
  # shellcheck disable=SC2046
  for t in 1e-2 1e-3 1e-8; do DIAG_STIFF_STOP=1 "$DG" "$EX/perf-rubber.yaml" $(dampf 0.01) run dopri5 $t 2>&1; done
  if [ -x "$B/bench/papers/diag_arkode" ]; then
    echo "## independent one-step code: SUNDIALS ARKODE SDIRK (order 4, dense DQ Jacobian)"
    for t in 1e-2 1e-3; do timeout "$TO" "$B/bench/papers/diag_arkode" "$EX/perf-rubber.yaml" $t 4 || true; done
  fi
} > "$R/rubber-diagnostics.txt" 2>&1
fi

sec "[LA] Fig. 6: dopri5 step sizes, undamped rubber rod (mean accepted h over [0, 0.05] s)"
{
  echo "N,mean_h_s"
  for n in 5 10 20 40; do
    # shellcheck disable=SC2046
    h=$("$DG" "$EX/perf-rubber.yaml" $(dampf 0) --set rods.0.segments=$n --set analysis.t_end=0.05 run dopri5 1e-3 |
      sed -n 's/.*mean h \([^ ]*\).*/\1/p')
    echo "$n,$h"
  done
} > "$R/la-fig6-dopri5-undamped.csv"

sec "allocations in the time loop (counting allocator, LD_PRELOAD)"
AC="$B/bench/papers/libcosrod_alloc_count.so"
ALLOC_T="0.5 1" ALLOC_S="rubber steel" # the count must not grow with T
[ $QUICK = 1 ] && ALLOC_T="0.1 0.2" ALLOC_S=rubber # quick: every integrator on perf-rubber
{
  for sc in $ALLOC_S; do
    for m in radau5 seulex rodas ida cvode dopri5; do
      for T in $ALLOC_T; do
        printf "perf-%s %-7s T = %-3s s: " $sc $m $T
        LD_PRELOAD="$AC" "$BP" "$EX/perf-$sc.yaml" --set solver.integrator=$m --set analysis.t_end=$T \
          --set solver.rtol=1e-3 --set solver.atol=1e-3 --count-allocs 2>/dev/null
      done
    done
  done
} > "$R/allocations.txt"

for f in "$R"/steps-*.csv; do
  n=$(wc -l < "$f")
  if [ "$n" -gt 6000 ]; then
    k=$(( (n + 4999) / 5000 ))
    awk -v k=$k 'NR == 1 || NR % k == 0' "$f" > "$W/thin" && mv "$W/thin" "$f"
  fi
done

sec "integrators: work-precision against the originals' curve"
# shellcheck disable=SC2086
sh "$ROOT/bench/integrators/work_precision.sh" "$B" $QF > "$W/wp.log" ||
  echo "work-precision: a run failed or a ratio exceeds 1.5, see bench/results/work-precision.md" >&2

sec "integrators: odex work-precision beside dop853 / dopri5 and its stability boundaries"
"$B/bench/integrators/bench_odex" --csv > "$R/odex-work-precision.csv" &&
  "$B/bench/integrators/bench_odex" --stability > "$R/odex-stability.txt" ||
  echo "bench_odex failed (bench/results/odex.md is then stale)" >&2

# design studies (cosrod.sweep): 64 short runs one at a time, locally, on a Dask LocalCluster
sec "design studies: throughput of cosrod.sweep (bench/sweep/bench_sweep.py) -> bench/results/sweep.md"
if python3 -c "import distributed, pandas" 2>/dev/null && [ -d "$B/python/cosrod" ]; then
  if [ $QUICK = 1 ]; then PYTHONPATH="$B/python" python3 "$ROOT/bench/sweep/bench_sweep.py" "$B" "$R/sweep.md" 1
  else PYTHONPATH="$B/python" python3 "$ROOT/bench/sweep/bench_sweep.py" "$B" "$R/sweep.md" 2; fi
else
  echo "   (skipped: needs python3-pandas, python3-distributed and the build's Python package)"
fi

sec "output share, output volume and process start-up (bench/output_startup.sh) -> bench/results/output-startup.csv"
if [ $QUICK = 1 ]; then # one scenario with the default fields in both formats, start-up mean of 3 runs
  SCENARIOS=perf-rubber FIELDSETS=default sh "$ROOT/bench/output_startup.sh" "$B" 3 > "$R/output-startup.csv"
else sh "$ROOT/bench/output_startup.sh" "$B" 300 > "$R/output-startup.csv"; fi

sec "contact: broad phase and run level (bench/contact/run.sh) -> bench/results/contact-*.md"
if [ $QUICK = 1 ]; then sh "$ROOT/bench/contact/run.sh" "$B" --quick > /dev/null
else sh "$ROOT/bench/contact/run.sh" "$B" > /dev/null; fi

# threads on long rods and the partitioned band solver (threads.md and the raw runs of
# spike.md); full runs only: a 2-thread speed-up is only measured when the machine is idle
# (both record the load average beside the times)
if [ $QUICK = 0 ]; then
  sec "threads on long rods (bench/threads.sh) and the partitioned band solver (bench/linalg/spike.sh)"
  if [ -x "$B/bench/rod/bench_threads" ]; then sh "$ROOT/bench/threads.sh" "$B" > /dev/null; fi
  if [ -x "$B/bench/linalg/bench_spike" ]; then
    { echo "# commit $rev; sh bench/linalg/spike.sh $(basename "$B") --reps 9"
      sh "$ROOT/bench/linalg/spike.sh" "$B" --reps 9; } > "$R/spike-runs.txt"
  fi
fi

sec "report"
COSROD_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || true) \
  python3 "$ROOT/bench/papers/report.py" "$R" "$QUICK"
if command -v gnuplot >/dev/null 2>&1; then
  (cd "$R" && gnuplot "$R/figures.gp")
else
  echo "gnuplot not found: no figures" >&2
fi
sec_end
times > "$W/times"
awk -v w0="$T0_W" -v w1="$(date +%s.%N)" -v c0="$T0_C" -v c1="$(cpu_s)" \
  'BEGIN { printf "total,%.1f,%.1f\n", w1 - w0, c1 - c0 }' >> "$TF"
cat "$W/err.log" >> "$R/runs-stderr.txt" 2>/dev/null || true
# provenance: the commit (and whether the tree had local changes) of every file this run wrote
RUN_AT=$(date -u '+%Y-%m-%d %H:%M UTC')
find "$R" -type f -newer "$W/stamp" ! -name provenance.txt | sed "s|^$R/||" | sort > "$W/written"
# every text report this run wrote states its commit: a last line is appended to the .md / .txt
# files that do not name the commit already (the .csv / .png files are listed in provenance.txt:
# a comment line would break their readers)
mode=full
[ $QUICK = 1 ] && mode=quick
while IFS= read -r f; do
  case "$f" in *.md | *.txt) ;; *) continue ;; esac
  grep -q "${rev%% *}" "$R/$f" 2>/dev/null && continue
  case "$f" in
    *.md) printf '\n_Written by `bench/run.sh` (%s) from commit %s, %s._\n' "$mode" "$rev" "$RUN_AT" >> "$R/$f" ;;
    *) printf '# written by bench/run.sh (%s) from commit %s, %s\n' "$mode" "$rev" "$RUN_AT" >> "$R/$f" ;;
  esac
done < "$W/written"
{
  echo "# bench/run.sh $RUN_ARGS at $RUN_AT: commit $rev, quick=$QUICK"
  echo "# files of bench/results written by this run (older files keep the commit of the run that wrote them)"
  cat "$W/written"
} > "$R/provenance.txt"
echo "wrote $R/README.md"
