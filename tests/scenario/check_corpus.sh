#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs `cosrod check` on every invalid corpus file (exit 2, one stderr line
# "FILE:LINE: key.path: ..." as in invalid/expected.tsv) and on every example
# (exit 0).  Usage: check_corpus.sh COSROD_BINARY SOURCE_DIR
cli="$1"
src="$2"
dir="$src/tests/scenario/invalid"
fail=0
n=0
tab=$(printf '\t')
err=$(mktemp)
trap 'rm -f "$err"' EXIT
while IFS="$tab" read -r file line key sub; do
  case "$file" in '#'* | '') continue ;; esac
  n=$((n + 1))
  "$cli" check "$dir/$file" >/dev/null 2>"$err"
  rc=$?
  lines=$(wc -l <"$err")
  msg=$(cat "$err")
  prefix="$dir/$file:$line: $key: "
  case "$msg" in
    "$prefix"*) ok=1 ;;
    *) ok=0 ;;
  esac
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || [ "$ok" -ne 1 ]; then
    echo "FAIL $file: exit $rc, stderr: $msg (want exit 2 and prefix '$prefix')"
    fail=$((fail + 1))
  fi
done <"$dir/expected.tsv"
echo "corpus: $n files, $fail failures"
[ "$n" -ge 30 ] || { echo "FAIL: fewer than 30 corpus files"; fail=$((fail + 1)); }
# every example validates, or is refused only for a feature of this build
# (`check` creates the simulation as `run` does: "... not supported yet")
for ex in "$src"/examples/*.yaml; do
  if ! "$cli" check -q "$ex" 2>"$err"; then
    case "$(cat "$err")" in
      "$ex":*": not supported yet"* | "$ex":*" not supported yet"*) ;;
      *)
        echo "FAIL example $ex does not validate: $(cat "$err")"
        fail=$((fail + 1))
        ;;
    esac
  fi
done
# --set errors go through the same path; a missing key is created
"$cli" check -q "$src/examples/rubber-pendulum.yaml" --set rods.0.segments=20 --set solver.h0=1e-6 ||
  { echo "FAIL --set on an example"; fail=$((fail + 1)); }
"$cli" check "$src/examples/rubber-pendulum.yaml" --set rods.0.segments=0 >/dev/null 2>"$err"
rc=$?
case "$(cat "$err")" in
  "--set rods.0.segments: must be >= 1"*) [ $rc -eq 2 ] || fail=$((fail + 1)) ;;
  *) echo "FAIL --set rods.0.segments=0: exit $rc, $(cat "$err")"; fail=$((fail + 1)) ;;
esac
# grammar of the list-index message ("1 item", not "1 items")
"$cli" check "$src/examples/rubber-pendulum.yaml" --set rods.3.length=1 >/dev/null 2>"$err"
grep -q "the list has 1 item: use 0..0 to change one, or 1 to append one" "$err" || { echo "FAIL list index message: $(cat "$err")"; fail=$((fail + 1)); }
"$cli" check "$dir/does-not-exist.yaml" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL missing file must exit 2"; fail=$((fail + 1)); }
echo "failures: $fail"
[ "$fail" -eq 0 ]
