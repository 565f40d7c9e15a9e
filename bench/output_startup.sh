#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Cost of output and of process start-up (manual: output reference, performance).
# Usage: bench/output_startup.sh BUILD_DIR [REPS]      (called by bench/run.sh)
# 1. Output: perf-steel, the pulsed steel cantilever and perf-rubber with the
#    default fields (the output reference's default files, named explicitly since the cantilever
#    example asks for fewer) and with `fields: [tip]` (vtk and plots off); the share
#    output_wall_time / wall_time from summary.json (output_wall_time = wall
#    time inside the recorder: derived quantities, formatting, writing), bytes
#    written (without view.html) against `cosrod check`'s volume estimate
#    (which leaves out steps.csv: one row per step, unknown before the run).
#    Both formats (FORMATS="csv hdf5"; hdf5: run.h5, bytes of its steps table
#    taken out the same way).
# 2. Start-up: process CPU (user + sys, getrusage of the children) of
#    `cosrod run` of a 10-segment rod for 10 steps, mean over REPS runs.
# SCENARIOS / FIELDSETS / FORMATS (environment) choose a subset of part 1 (bench/run.sh
# --quick: perf-rubber, default fields, csv and hdf5).
set -eu
B=${1:?usage: bench/output_startup.sh BUILD_DIR [REPS]}
REPS=${2:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
C="$B/src/cli/cosrod"
[ -x "$C" ] || { echo "missing $C" >&2; exit 1; }
EX="$ROOT/examples"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/bench/stamp.sh"
echo "# $(bench_stamp "$ROOT")"


echo "scenario,fields,format,wall_s,output_s,output_share,bytes,bytes_without_steps,check_estimate_bytes,estimate/bytes_without_steps"
for s in ${SCENARIOS:-perf-steel steel-cantilever-pulse perf-rubber}; do
  for f in ${FIELDSETS:-default tip}; do
    for fmt in ${FORMATS:-csv hdf5}; do
      if [ $f = default ]; then F='[centerline,frames,strains,curvatures,energy,steps,reactions]'; else F='[tip]'; fi
      o="$W/$s-$f-$fmt"
      set -- --set output.plots=false --set output.vtk=false
      set -- "$@" --set "output.fields=$F"
      [ "$fmt" = csv ] || set -- "$@" --set "output.format=$fmt"
      "$C" run "$EX/$s.yaml" -o "$o" "$@" >/dev/null 2>&1 || { echo "$s,$f,$fmt,failed"; continue; }
      est=$("$C" check "$EX/$s.yaml" "$@" 2>/dev/null | sed -n "s/.*frames: ~\([0-9.]*\) \([kMG]*B\).*/\1 \2/p" | head -1)
      python3 - "$o" "$s" "$f" "$fmt" "$est" <<'PY'
import json, os, sys
o, s, f, fmt, est = sys.argv[1:6]
d = json.load(open(os.path.join(o, "summary.json")))
files = [x for x in os.listdir(o) if x != "view.html" and os.path.isfile(os.path.join(o, x))]
n = sum(os.path.getsize(os.path.join(o, x)) for x in files)
n_ns = n - sum(os.path.getsize(os.path.join(o, x)) for x in files if x == "steps.csv")
if fmt == "hdf5":  # run.h5's steps table: 3 doubles per row
    n_ns = n - 24 * d["files"].get("run.h5/steps", 0)
mult = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
e = est.split()
eb = float(e[0]) * mult.get(e[1], 1) if len(e) == 2 else float("nan")
w, t = d["wall_time"], d.get("output_wall_time", float("nan"))
print(f"{s},{f},{fmt},{w:.4f},{t:.4f},{t / w:.3f},{n},{n_ns},{eb:.0f},{eb / n_ns:.2f}")
PY
    done
  done
done

# start-up: a 10-segment rod, 10 steps
cat > "$W/tiny.yaml" <<'Y'
cosrod: 1
title: start-up probe
rods:
  - name: r
    length: 1.0
    segments: 10
    material: {E: 5.0e6, poisson: 0.5, density: 1100}
    section: {shape: circle, radius: 5.0e-3}
    shape: {type: straight, start: [0, 0, 0], direction: [0, 1, 0], normal: [0, 0, 1]}
    ends: {start: {type: pinned}}
gravity: [0, 0, -9.81]
analysis: {type: dynamic, t_end: 1.0e-2}
solver: {integrator: galpha, h: 1.0e-3}
output: {dir: out, every: 1.0e-3, fields: [tip], vtk: false, plots: false}
Y
python3 - "$C" "$W" "$REPS" <<'PY'
import os, resource, subprocess, sys
c, w, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
for name, argv in (("cosrod --version", [c, "--version"]),
                   ("cosrod run tiny (N=10, 10 steps)", [c, "run", os.path.join(w, "tiny.yaml"), "-o", os.path.join(w, "tiny")])):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c0 = cpu()
    for _ in range(reps):
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"startup,{name},{reps} runs,{(cpu() - c0) / reps * 1e3:.2f} ms process CPU (user+sys) per run")
PY
