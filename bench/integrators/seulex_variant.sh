#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Build constants_sweep with a patched copy of src/integrate/seulex.c: the
# lowest target row, the default row limit and the step-number sequence with
# or without HW II §IV.9's leading 1 (bench/results/integrator-constants.md).
# The source tree is not changed.
# Usage: bench/integrators/seulex_variant.sh BUILD_DIR OUT_BINARY KMIN with1|without KMAX
set -eu
B=$1 OUT=$2 KMIN=$3 SEQ=$4 KMAX=$5
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$OUT" in /*) ;; *) OUT="$(pwd)/$OUT" ;; esac
T=$(mktemp -d)
python3 - "$ROOT/src/integrate/seulex.c" "$T/seulex.c" "$KMIN" "$SEQ" "$KMAX" <<'PY'
import sys
src, dst, kmin, seq, kmax = sys.argv[1:]
s = open(src).read()
s = s.replace("#define SEULEX_KMIN 2 ", "#define SEULEX_KMIN %s " % kmin)
s = s.replace("#define SEULEX_KMAX_DEFAULT 12 ", "#define SEULEX_KMAX_DEFAULT %s " % kmax)
if seq == "with1":
    old = "static int seulex_n(int j) { return j < 2 ? j + 2 : 2 * seulex_n(j - 2); }"
    assert old in s
    s = s.replace(old, "static int seulex_n(int j) { return j < 3 ? j + 1 : 2 * seulex_n(j - 2); }")
open(dst, "w").write(s)
PY
cd "$B/bench/integrators"
F=$(sed -n "s/^C_[A-Z]* = //p" ../../src/integrate/CMakeFiles/cosrod_integrate_obj.dir/flags.make | tr "\n" " ")
cc $F -c "$T/seulex.c" -o "$T/seulex.o"
D=CMakeFiles/constants_sweep.dir
cc -O2 $D/constants_sweep.c.o $D/__/__/tests/integrate/problems.c.o $D/__/__/tests/integrate/reference_solutions.c.o \
  $D/__/__/tests/integrate/itest.c.o $D/__/__/tests/integrate/wp.c.o "$T/seulex.o" -o "$OUT" \
  $(sed 's/.* -o constants_sweep //' $D/link.txt)
rm -rf "$T"
