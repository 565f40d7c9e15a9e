#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Global band LU vs the partitioned SPIKE solver (bench_spike), with the load
# average before and after (the timings are only meaningful with it).
# Usage: bench/linalg/spike.sh [BUILD_DIR] [bench_spike options]
#   e.g. spike.sh build-bench --order --reps 15 2000 10000 100000            (real: lsys, galpha)
#        spike.sh build-bench --complex --order --reps 15 2000 10000 100000  (radau5's complex system)
set -e
B=${1:-build}
[ $# -gt 0 ] && shift
uptime
"$B/bench/linalg/bench_spike" "$@"
uptime
