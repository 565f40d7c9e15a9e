#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Contact benchmarks: writes bench/results/contact-broadphase.md, contact-run-level.md,
# contact-body-jac.md and contact-pattern-setup.md.
# Usage: bench/contact/run.sh BUILD_DIR [--quick]
set -eu
B=${1:?usage: bench/contact/run.sh BUILD_DIR [--quick]}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$B" in /*) ;; *) B="$ROOT/$B" ;; esac
R=${COSROD_BENCH_RESULTS:-$ROOT/bench/results} # bench/run.sh --quick: its own directory
. "$ROOT/bench/stamp.sh"
STAMP=$(bench_stamp "$ROOT")
"$B/bench/contact/bench_contact" ${2:-} > "$R/contact-broadphase.md"
printf '\n%s.\n' "$STAMP" >> "$R/contact-broadphase.md"
cat "$R/contact-broadphase.md"
# Run level: cost per step of a hose on the floor against N (contact-run-level.md).
sh "$ROOT/bench/contact/run_level.sh" "$B" ${2:-}
# Body <-> rod contact Jacobian: analytic vs differences (contact-body-jac.md).
"$B/bench/contact/bench_body_contact_jac" ${2:-} > "$R/contact-body-jac.md"
printf '\n%s.\n' "$STAMP" >> "$R/contact-body-jac.md"
cat "$R/contact-body-jac.md"
# Set-up of the sparse contact Jacobian pattern against S (contact-pattern-setup.md).
"$B/bench/contact/bench_pattern_setup" ${2:-} > "$R/contact-pattern-setup.md"
printf '\n%s.\n' "$STAMP" >> "$R/contact-pattern-setup.md"
cat "$R/contact-pattern-setup.md"
