#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Global band LU vs the partitioned SPIKE solver (bench_spike), with the load
# average before and after (the timings are only meaningful with it).
# Usage: bench/linalg/spike.sh [BUILD_DIR] [bench_spike options]
set -e
B=${1:-build}
[ $# -gt 0 ] && shift
uptime
"$B/bench/linalg/bench_spike" "$@"
uptime
