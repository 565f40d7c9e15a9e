#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The main demo (`make demo`): version, quaternion self-check, then the
# rubber pendulum of [LLA] Test 1 (examples/rubber-pendulum.yaml) end to end,
# with a short summary and where to find the plots and the ParaView files;
# it ends with the path of the run's view.html (the browser viewer).
#   tools/demo.sh [BUILD_DIR] [OUTPUT_DIR]
set -e
BUILD=${1:-build}
OUT=${2:-out/rubber-pendulum}
COSROD="$BUILD/src/cli/cosrod"
HERE=$(cd "$(dirname "$0")/.." && pwd)

"$COSROD" --version
if "$COSROD" help | grep -q selfcheck; then
  "$COSROD" selfcheck
fi

echo
echo "== cosrod run examples/rubber-pendulum.yaml -o $OUT"
echo "   (rubber rod, L = 1 m, N = 10, pinned at x_0, swinging under gravity for 2 s; DOPRI5, tol 1e-8)"
"$COSROD" run "$HERE/examples/rubber-pendulum.yaml" -o "$OUT"

# A short summary from the files themselves (POSIX awk, no jq needed).
echo
echo "== summary"
awk -F, 'NR > 1 && $3 == 10 { t = $1; x = $5; y = $6; z = $7 }
         END { printf "  tip x_10 at t = %s s: (%.6f, %.6f, %.6f) m\n", t, x, y, z }' "$OUT/centerline.csv"
awk -F, 'NR == 2 { b0 = $7 } NR > 1 { d = $7 - b0; if (d < 0) d = -d; if (d > m) m = d; k = $2 }
         END { printf "  energy balance: max drift %.3g J over the run (kinetic energy at the end %.4f J)\n", m, k }' \
  "$OUT/energy.csv"
steps=$(grep '"nsteps"' "$OUT/summary.json" | tr -dc '0-9')
rejected=$(grep '"nreject"' "$OUT/summary.json" | tr -dc '0-9')
wall=$(grep '"wall_time"' "$OUT/summary.json" | head -n 1 | sed 's/.*: *//; s/,$//')
status=$(grep '"status"' "$OUT/summary.json" | head -n 1 | sed 's/.*: *"//; s/".*//')
printf '  status %s, %s steps (%s rejected), wall time %.3f s\n' "$status" "$steps" "$rejected" "$wall"

echo
echo "== files"
echo "  $OUT/summary.json            run status, solver statistics, final tip"
echo "  $OUT/*.csv                   centerline, frames, strains, curvatures, energy, steps"
if [ -d "$OUT/plots" ] && ls "$OUT/plots/"*.png >/dev/null 2>&1; then
  echo "  $OUT/plots/                  $(cd "$OUT/plots" && ls *.png | tr '\n' ' ')"
else
  echo "  (no plots: gnuplot missing?  see $OUT/summary.json \"warnings\")"
fi
echo "  $OUT/vtk/cosrod.pvd          open in ParaView: File > Open, Apply; then"
echo "                               Filters > Tube (radius 0.01) and Play to animate, or File > Load State:"
echo "  $OUT/vtk/tubes.py            (tubes of the real radius, coloured by axial force)"

# Last: the browser viewer of the run (written by cosrod run; `cosrod view DIR` rewrites it).
echo
if [ -f "$OUT/view.html" ]; then
  echo "== open in a browser to see the rod swing (rotate: drag, zoom: wheel; or: $COSROD view $OUT --open):"
  echo "$(cd "$OUT" && pwd)/view.html"
else
  echo "== no view.html: the viewer was not built (install nodejs and npm: tools/install-deps.sh, then make demo)"
fi
