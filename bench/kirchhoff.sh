#!/bin/sh
# Kirchhoff benchmarks (issue 11), called by bench/run.sh:
#  1. [LA] Fig. 6, all three models: mean DOPRI5 step (TOL 1e-3) of the
#     undamped rubber rod (examples/stiffness.yaml) vs N -> la-fig6-models.csv
#     (Cosserat flat in N, Kirchhoff growing like 1/N^2 as bending sets the step).
#  2. Work-precision on the undamped steel cantilever (examples/steel-cantilever.yaml,
#     L = 1, r = 0.01, clamped, f1 = 14.47 Hz, N = 20, T = 0.05 s): Cosserat (radau5,
#     dopri5) vs inextensible Kirchhoff (dopri5, dop853); tip error against each
#     model's own reference (radau5 1e-11 / dop853 1e-12) -> kirchhoff-wp-steel.csv.
# Usage: bench/kirchhoff.sh BUILD_DIR RESULTS_DIR [--quick]
#   --quick: T = 0.2 s for Fig. 6 and TOL 1e-3 .. 1e-6 (full: T = 1 s, 1e-3 .. 1e-9).
set -eu
B=$1
R=$2
QUICK=0
[ "${3:-}" = "--quick" ] && QUICK=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
C="$B/src/cli/cosrod"
EX="$ROOT/examples"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TO=${BENCH_TIMEOUT:-90}
if [ $QUICK = 1 ]; then T6=0.2; TOLS="1e-3 1e-4 1e-5 1e-6"; else T6=1.0; TOLS="1e-3 1e-4 1e-5 1e-6 1e-7 1e-8 1e-9"; fi

stat() { # summary.json key path -> value
  python3 -c "import json,sys; j=json.load(open('$1/summary.json')); print(eval('j'+sys.argv[1]))" "$2"
}

echo "== [LA] Fig. 6, three models: mean dopri5 step, TOL 1e-3, T = $T6 s"
echo "N,model,naccept,nfev,mean_h_s,wall_s" > "$R/la-fig6-models.csv"
for n in 5 10 20 40; do
  for m in cosserat kirchhoff-extensible kirchhoff-inextensible; do
    if timeout "$TO" "$C" run "$EX/stiffness.yaml" -o "$W/f6" --quiet --set rods.0.model=$m \
      --set rods.0.segments=$n --set analysis.t_end=$T6 --set output.every=$T6 --set output.plots=false \
      --set solver.max_steps=10000000 >/dev/null 2>&1; then
      na=$(stat "$W/f6" "['stats']['naccept']")
      echo "$n,$m,$na,$(stat "$W/f6" "['stats']['nfev']"),$(python3 -c "print($T6/$na)"),$(stat "$W/f6" "['stats']['solver_wall_time']")" >> "$R/la-fig6-models.csv"
    else
      echo "$n,$m,timeout,,," >> "$R/la-fig6-models.csv"
    fi
  done
done

echo "== work-precision, steel cantilever (N = 20, T = 0.05 s)"
wp() { # model integrator tol -> tip z, wall, nfev, naccept
  timeout "$TO" "$C" run "$EX/steel-cantilever.yaml" -o "$W/wp" --quiet --set rods.0.model=$1 \
    --set solver.integrator=$2 --set solver.rtol=$3 --set solver.atol=$3 --set analysis.t_end=0.05 \
    --set output.every=0.05 --set output.plots=false --set solver.max_steps=10000000 >/dev/null 2>&1 || return 1
  python3 -c "
import json,csv
j=json.load(open('$W/wp/summary.json')); s=j['stats']
r=[x for x in csv.DictReader(open('$W/wp/centerline.csv')) if x['vertex']=='20'][-1]
print(r['z'], s['solver_wall_time'], s['nfev'], s['naccept'])"
}
zc=$(wp cosserat radau5 1e-11 | cut -d' ' -f1)
zk=$(wp kirchhoff-inextensible dop853 1e-12 | cut -d' ' -f1)
echo "model,integrator,tol,tip_z,err_tip,wall_s,nfev,naccept" > "$R/kirchhoff-wp-steel.csv"
for t in $TOLS; do
  for mi in cosserat:radau5 cosserat:dopri5 kirchhoff-inextensible:dopri5 kirchhoff-inextensible:dop853; do
    m=${mi%%:*} i=${mi#*:}
    ref=$zc
    [ "$m" = cosserat ] || ref=$zk
    if out=$(wp $m $i $t); then
      set -- $out
      echo "$m,$i,$t,$1,$(python3 -c "print(abs($1-($ref)))"),$2,$3,$4" >> "$R/kirchhoff-wp-steel.csv"
    else
      echo "$m,$i,$t,timeout,,,," >> "$R/kirchhoff-wp-steel.csv"
    fi
  done
done
echo "reference tip z: cosserat $zc, kirchhoff-inextensible $zk (relative difference $(python3 -c "print(abs($zc-($zk))/abs($zc))"))" > "$R/kirchhoff-wp-steel-ref.txt"
