#!/bin/sh
# The main demo (`make demo`).
set -e
BUILD=${1:-build}
"$BUILD/src/cli/cosrod" --version
if "$BUILD/src/cli/cosrod" help | grep -q selfcheck; then
  "$BUILD/src/cli/cosrod" selfcheck
fi
