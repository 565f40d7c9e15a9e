#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Steel string of the peer comparison: examples/perf-steel.yaml
# ([LLA] Table 3: L = 1 m, r = 1 mm, E = 2.1e11, nu = 0.2, rho = 7850,
# clamped, light damping, gravity) over T = 1 s at N = 10 and 100.
# Tip error at T against radau5 at rtol = atol = 1e-10 (N = 10) / 1e-9
# (N = 100); wall = summary.json wall_time (whole run, tip output every
# 0.01 s).  PyElastica 0.3.2 (same kind of machine): 79 s (N = 10)
# and 168 s (N = 100) of wall time per simulated second.
# Usage: bench/peers/steel_string.sh BUILD [--quick] > OUT.csv
B=${1:-build-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EX="$ROOT/examples/perf-steel.yaml"
CLI="$B/src/cli/cosrod"
T=$(mktemp -d)
run() { # N integrator tol [extra --set ...]
  n=$1; m=$2; tol=$3; shift 3
  "$CLI" run "$EX" -o "$T/o" -q --set analysis.t_end=1 --set rods.0.segments=$n --set solver.integrator=$m \
    --set solver.rtol=$tol --set solver.atol=$tol --set "output.fields=[tip]" --set output.steps=false \
    --set output.vtk=false --set output.plots=false --set solver.max_steps=2000000 "$@" > /dev/null 2>&1
  python3 - "$T/o" <<'PY'
import json, sys, csv
d = json.load(open(sys.argv[1] + "/summary.json"))
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/tip.csv")) if r["end"] == "1"]
r = rows[-1]
print("%s,%s,%s,%s,%d,%.6g" % (d["status"], r["x"], r["y"], r["z"], d["stats"]["naccept"], d["wall_time"]))
PY
}
echo "N,integrator,tol,extra,status,x,y,z,steps,wall_s"
# --quick (smoke run): N = 10 only, reference radau5 1e-8, radau5 and ida at TOL 1e-3, one
# generalized-alpha step size (the tip against the reference stays the check)
NS="10 100" TS="1e-2 1e-3 1e-4 1e-5" HS="1e-3 5e-4 2e-4" MS="radau5 rodas seulex ida cvode" RT10=1e-10
[ "${2:-}" = "--quick" ] && NS=10 TS="1e-3" HS=5e-4 MS="radau5 ida" RT10=1e-8
for n in $NS; do
  if [ $n = 10 ]; then rt=$RT10; else rt=1e-9; fi
  echo "$n,radau5-ref,$rt,,$(run $n radau5 $rt)"
  for m in $MS; do
    for tol in $TS; do echo "$n,$m,$tol,,$(run $n $m $tol)"; done
  done
  for h in $HS; do
    echo "$n,galpha,1e-4,h=$h,$(run $n galpha 1e-4 --set solver.h=$h --set solver.rho_inf=0.5 --set solver.formulation=nullspace --set solver.stabilisation=none)"
  done
done
rm -rf "$T"
