# SPDX-License-Identifier: Apache-2.0
# Sourced by the bench scripts (". bench/stamp.sh"): the commit their results
# come from, one definition for every script that writes into bench/results.
# bench_rev ROOT: the short hash of HEAD, with " (with local changes)" when a
# file outside bench/results differs from HEAD (changes there are the
# results themselves, not changes of the code measured); "unknown" outside git.
bench_rev() {
  _br=$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ "$_br" != unknown ] && ! git -C "$1" diff --quiet HEAD -- . ':(exclude)bench/results' 2>/dev/null; then
    _br="$_br (with local changes)"
  fi
  echo "$_br"
}
# bench_stamp ROOT: "Measured at commit abc1234 (2026-01-31 12:00 UTC)", the
# line every report in bench/results carries (a comment line in raw files).
bench_stamp() {
  printf 'Measured at commit %s (%s)\n' "$(bench_rev "$1")" "$(date -u '+%Y-%m-%d %H:%M UTC')"
}
