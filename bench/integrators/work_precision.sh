#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Work-precision of the integrators of this build beside the stored curve of
# the original methods (bench/results/work-precision-original.csv, see
# work-precision-original.md): writes bench/results/work-precision.md (per
# method and problem the work ratio at equal achieved accuracy) and the runs
# of this build as bench/results/work-precision-current.csv.
# Usage: bench/integrators/work_precision.sh BUILD_DIR [--quick]   (needs the target work_precision)
# Exit status 1 if a run failed or a ratio exceeds the factor 1.5.
set -eu
B=${1:?usage: bench/integrators/work_precision.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$B" in /*) ;; *) B="$(pwd)/$B" ;; esac
WP="$B/bench/integrators/work_precision"
[ -x "$WP" ] || { echo "missing $WP (cmake --build $B --target work_precision)" >&2; exit 1; }
cd "$ROOT"
. "$ROOT/bench/stamp.sh"
# --quick: rtol 1e-4 ... 1e-6 only, into a temporary directory (bench/results keeps the full run)
if [ "${2:-}" = "--quick" ]; then
  Q=$(mktemp -d)
  rc=0
  "$WP" --rtol-min 1e-6 --original bench/results/work-precision-original.csv --csv "$Q/work-precision-current.csv" \
    --md "$Q/work-precision.md" || rc=$?
  grep -i 'ratio\|fail' "$Q/work-precision.md" | head -n 20
  rm -rf "$Q"
  exit $rc
fi
R=${COSROD_BENCH_RESULTS:-bench/results}
rc=0
"$WP" --original bench/results/work-precision-original.csv --csv "$R/work-precision-current.csv" \
  --md "$R/work-precision.md" || rc=$?
printf '\n%s.\n' "$(bench_stamp "$ROOT")" >> "$R/work-precision.md"
exit $rc
