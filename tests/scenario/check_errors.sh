#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `cosrod check` on a file with three independent errors: exit 2 and three
# "FILE:LINE: key: problem" lines on stderr.  Usage: check_errors.sh COSROD FILE
cosrod=$1 file=$2
err=$("$cosrod" check "$file" 2>&1 >/dev/null)
code=$?
n=$(printf '%s\n' "$err" | grep -c "^$file:[0-9]*: ")
printf '%s\n' "$err"
if [ "$code" -ne 2 ] || [ "$n" -ne 3 ]; then
  echo "FAIL: exit $code (want 2), $n error lines (want 3)"
  exit 1
fi
echo "ok: exit 2, 3 lines"
