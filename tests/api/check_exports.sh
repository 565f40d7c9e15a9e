#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The curated public interface of the shared library (include/cosrod/export.h):
#   1. every dynamic symbol libcosrod.so defines starts with cosrod_;
#   2. every one is declared with COSROD_API in a header under include/cosrod/
#      (the headers are run through the C preprocessor with COSROD_API defined
#      as a marker, so comments and #if'ed-out text do not count);
#   3. every COSROD_API declaration is defined by the library (except the
#      names in $OPTIONAL: methods of optional dependencies not built);
#   4. the umbrella header cosrod.h includes every public header.
# Usage: check_exports.sh NM CC LIBRARY SOURCE_DIR BINARY_DIR [OPTIONAL...]
set -u
NM=$1 CC=$2 LIB=$3 SRC=$4 BIN=$5
shift 5
OPTIONAL=" $* "
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

"$NM" -D --defined-only "$LIB" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/all" || exit 2
[ -s "$tmp/all" ] || { echo "no dynamic symbols read from $LIB"; exit 2; }
# AddressSanitizer builds add an ODR indicator __odr_asan.NAME next to each
# exported object NAME (instrumentation, not interface): left out when NAME
# itself is exported.
grep -v '^__odr_asan\.' "$tmp/all" >"$tmp/exported"
grep '^__odr_asan\.' "$tmp/all" | while read -r s; do
  grep -qx "${s#__odr_asan.}" "$tmp/exported" || echo "$s"
done >>"$tmp/exported"
sort -u -o "$tmp/exported" "$tmp/exported"

for h in "$SRC"/include/cosrod/*.h; do
  "$CC" -E -P -DCOSROD_API=COSROD_API_MARK -I"$SRC/include" -I"$BIN/include" "$h" || {
    echo "cannot preprocess $h"; exit 2; }
done >"$tmp/headers.i"
# statements (split at ';') that carry the marker: the name before the first
# '(' of a function, else the last identifier of an object declaration
tr '\n' ' ' <"$tmp/headers.i" | awk 'BEGIN { RS = ";" }
  /COSROD_API_MARK/ {
    s = substr($0, index($0, "COSROD_API_MARK") + 15)
    p = index(s, "(")
    if (p > 0) s = substr(s, 1, p - 1)
    gsub(/[^A-Za-z0-9_]+/, " ", s)
    n = split(s, w, " ")
    if (n > 0) print w[n]
  }' | sort -u >"$tmp/declared"

total=$(wc -l <"$tmp/exported")
unpref=$(grep -vc '^cosrod_' "$tmp/exported")
ndecl=$(wc -l <"$tmp/declared")
echo "libcosrod exports $total symbols ($unpref without the cosrod_ prefix); the headers declare $ndecl with COSROD_API"

while read -r s; do
  case $s in
    cosrod_*) ;;
    *) echo "FAIL: exported symbol without the cosrod_ prefix: $s"; fail=1 ;;
  esac
done <"$tmp/exported"
comm -23 "$tmp/exported" "$tmp/declared" | while read -r s; do
  echo "FAIL: exported but not declared with COSROD_API under include/cosrod/: $s"
done | tee "$tmp/undeclared"
[ -s "$tmp/undeclared" ] && fail=1
comm -13 "$tmp/exported" "$tmp/declared" | while read -r s; do
  case $OPTIONAL in
    *" $s "*) ;;
    *) echo "FAIL: declared with COSROD_API but not exported (no definition?): $s" ;;
  esac
done | tee "$tmp/missing"
[ -s "$tmp/missing" ] && fail=1

for h in "$SRC"/include/cosrod/*.h "$SRC"/include/cosrod/*.h.in; do
  b=$(basename "$h" .in)
  [ "$b" = cosrod.h ] && continue
  grep -q "^#include \"cosrod/$b\"" "$SRC/include/cosrod/cosrod.h" || {
    echo "FAIL: cosrod.h does not include cosrod/$b"; fail=1; }
done
[ $fail = 0 ] && echo "ok"
exit $fail
