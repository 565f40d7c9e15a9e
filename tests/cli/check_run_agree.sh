#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One validation: `cosrod check` and `cosrod run` agree on every
# input of the invalid corpus, every example and a few extra cases — an input
# that passes `check` never fails `run` with exit 2, and one that `check`
# refuses (exit 2) is refused by `run` with the same line.  Dynamic examples
# are cut short (analysis.t_end) and the same --set is given to both
# commands, so both see the same input.
# Usage: check_run_agree.sh COSROD SOURCE_DIR [corpus|examples]: the invalid
# corpus (refused by the loader), or the examples and the other cases (the
# default runs both).
cli="$1"
src="$2"
part="${3:-all}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
# agree FILE [--set ...]: check and run (output in $tmp/out) agree
agree() {
  f="$1"
  shift
  n=$((n + 1))
  "$cli" check -q "$f" "$@" >/dev/null 2>"$tmp/check.err"
  rc_c=$?
  rm -rf "$tmp/out"
  timeout 120 "$cli" run -q "$f" -o "$tmp/out" "$@" >/dev/null 2>"$tmp/run.err"
  rc_r=$?
  if [ "$rc_c" -eq 0 ] && [ "$rc_r" -eq 2 ]; then
    echo "FAIL $f $*: check ok, run exit 2: $(cat "$tmp/run.err")"
    fail=$((fail + 1))
  elif [ "$rc_c" -eq 2 ] && [ "$rc_r" -ne 2 ]; then
    echo "FAIL $f $*: check exit 2 ($(cat "$tmp/check.err")), run exit $rc_r"
    fail=$((fail + 1))
  elif [ "$rc_c" -eq 2 ] && ! cmp -s "$tmp/check.err" "$tmp/run.err"; then
    echo "FAIL $f $*: different messages: check '$(cat "$tmp/check.err")' run '$(cat "$tmp/run.err")'"
    fail=$((fail + 1))
  elif [ "$rc_c" -ne 0 ] && [ "$rc_c" -ne 2 ]; then
    echo "FAIL $f $*: check exit $rc_c"
    fail=$((fail + 1))
  elif [ "$rc_c" -eq 2 ] && [ -e "$tmp/out" ]; then
    echo "FAIL $f $*: run refused the input but wrote $tmp/out"
    fail=$((fail + 1))
  fi
  echo "$rc_c $rc_r $f $*" >>"$tmp/log"
}
if [ "$part" = corpus ] || [ "$part" = all ]; then
  for f in "$src"/tests/scenario/invalid/*.yaml; do agree "$f"; done
fi
if [ "$part" = corpus ]; then
  n_bad=$(grep -c '^2 2 ' "$tmp/log")
  echo "inputs: $n, refused by both: $n_bad, failures: $fail"
  [ "$n" -ge 30 ] || { echo "FAIL: fewer than 30 corpus inputs"; fail=$((fail + 1)); }
  [ "$fail" -eq 0 ]
  exit
fi
for f in "$src"/tests/sim/couple_invalid/*.yaml; do agree "$f"; done
for ex in "$src"/examples/*.yaml; do
  if "$cli" check "$ex" 2>/dev/null | grep -q "analysis dynamic"; then
    agree "$ex" --set analysis.t_end=1e-5 --set output.plots=false
  else
    agree "$ex" --set output.plots=false
  fi
done
ex="$src/examples/rubber-pendulum.yaml"
# refusals made while creating the simulation (not by the loader)
agree "$ex" --set analysis.t_end=1e-3 --set output.every=1e-12
agree "$ex" --set analysis.t_end=1e-5 --set rods.0.model=kirchhoff-extensible
agree "$ex" --set analysis.t_end=1e-5 --set solver.formulation=nullspace --set solver.stabilisation=baumgarte
agree "$src/examples/stiffness.yaml" --set analysis.t_end=1e-5 --set rods.0.model=kirchhoff-inextensible --set solver.integrator=galpha
# Kirchhoff rods with galpha run (constrained version, sim_galpha_kirchhoff.c)
[ "$rc_r" -eq 0 ] || { echo "FAIL kirchhoff + galpha: exit $rc_r: $(cat "$tmp/run.err")"; fail=$((fail + 1)); }
# every example with bodies runs with galpha (body_galpha.c), in both formulations
for f in "$src"/examples/*.yaml; do
  grep -q "^bodies:" "$f" || continue
  grep -Eq "^analysis:.*type: (static|modes|buckling)" "$f" && continue # not a dynamic example
  for form in nullspace absolute; do
    agree "$f" --set analysis.t_end=0.05 --set output.plots=false --set solver.integrator=galpha --set solver.formulation=$form
    [ "$rc_r" -eq 0 ] || { echo "FAIL $f galpha $form: exit $rc_r: $(cat "$tmp/run.err")"; fail=$((fail + 1)); }
  done
done
# the memory limit: 10^6 segments under 1 GB are refused by both
agree "$ex" --set rods.0.segments=1000000 --memory-limit 1G
grep -q "rods.0.segments: needs ~[0-9.]* GB" "$tmp/run.err" ||
  { echo "FAIL 10^6 segments: $(cat "$tmp/run.err")"; fail=$((fail + 1)); }
# a directory is not a scenario
agree /tmp
grep -q "is a directory" "$tmp/run.err" || { echo "FAIL run /tmp: $(cat "$tmp/run.err")"; fail=$((fail + 1)); }
# run --help and check --help: usage on stdout, exit 0
for c in run check; do
  "$cli" $c --help >"$tmp/help.out" 2>&1 && grep -q "usage: cosrod $c FILE" "$tmp/help.out" ||
    { echo "FAIL $c --help: $(cat "$tmp/help.out")"; fail=$((fail + 1)); }
done
n_ok=$(grep -c '^0 0 ' "$tmp/log")
n_bad=$(grep -c '^2 2 ' "$tmp/log")
echo "inputs: $n, accepted by both: $n_ok, refused by both: $n_bad, failures: $fail"
if [ "$part" = all ]; then min=80; else min=40; fi
[ "$n" -ge "$min" ] || { echo "FAIL: fewer than $min inputs"; fail=$((fail + 1)); }
[ "$n_ok" -ge 6 ] || { echo "FAIL: fewer than 6 inputs run"; fail=$((fail + 1)); }
[ "$fail" -eq 0 ]
