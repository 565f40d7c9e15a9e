#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Build constants_sweep with a patched copy of src/integrate/radau5.c (for the
# constants that are not options: the tolerance map and the refinement gate;
# bench/results/integrator-constants.md).  The copy lives in a temporary
# directory; the source tree is not changed.
# Usage: bench/integrators/radau5_variant.sh BUILD_DIR OUT_BINARY TOL_C TOL_EXP GATE
#   GATE: a C condition on err, s->naccepted, s->rejected for refining with
#   HW II (8.20), e.g. 'err >= 1.0 && (s->naccepted == 0 || s->rejected)'
set -eu
B=$1 OUT=$2 C=$3 E=$4 GATE=$5
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
case "$OUT" in /*) ;; *) OUT="$(pwd)/$OUT" ;; esac
T=$(mktemp -d)
python3 - "$ROOT/src/integrate/radau5.c" "$T/radau5.c" "$C" "$E" "$GATE" <<'PY'
import re, sys
src, dst, c, e, gate = sys.argv[1:]
s = open(src).read()
s = re.sub(r"#define R5_TOL_EXP \\\n.*\n", "#define R5_TOL_EXP (%s)\n" % e, s)
s = re.sub(r"#define R5_TOL_C .*\n", "#define R5_TOL_C (%s)\n" % c, s)
old = "if (err >= 1.0 && (s->naccepted == 0 || s->rejected))"
assert old in s and "R5_TOL_EXP (" in s
s = s.replace(old, "if (%s)" % gate)
open(dst, "w").write(s)
PY
cd "$B/bench/integrators"
F=$(sed -n "s/^C_[A-Z]* = //p" ../../src/integrate/CMakeFiles/cosrod_integrate_obj.dir/flags.make | tr "
" " ")
cc $F -c "$T/radau5.c" -o "$T/radau5.o"
D=CMakeFiles/constants_sweep.dir
cc -O2 $D/constants_sweep.c.o $D/__/__/tests/integrate/problems.c.o $D/__/__/tests/integrate/reference_solutions.c.o \
  $D/__/__/tests/integrate/itest.c.o $D/__/__/tests/integrate/wp.c.o "$T/radau5.o" -o "$OUT" \
  $(sed 's/.* -o constants_sweep //' $D/link.txt)
rm -rf "$T"
