#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `cosrod view DIR --open` starts the browser named by $BROWSER on the page
# (a script here that records its arguments), and without any browser says
# so in one line and exits 1 after writing the page.
# sh open_check.sh COSROD WORKDIR; exit 0 pass, 1 fail, 77 skipped (no viewer built).
set -u
COSROD=$1
W=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$W" && mkdir -p "$W/out" || fail "cannot create $W"
printf '{"title": "open", "analysis": "dynamic", "status": "ok", "t_end": 1, "t_reached": 1}\n' >"$W/out/summary.json"
printf 't,rod,vertex,s,x,y,z\n0,0,0,0,0,0,0\n0,0,1,1,1,0,0\n1,0,0,0,0,0,0\n1,0,1,1,1,0,-0.5\n' >"$W/out/centerline.csv"
cat >"$W/browser" <<SCRIPT
#!/bin/sh
printf '%s\n' "\$#" "\$@" >"$W/opened"
SCRIPT
chmod +x "$W/browser"
BROWSER="$W/browser" "$COSROD" view "$W/out" --open >"$W/stdout" 2>"$W/stderr"
rc=$?
if grep -q "not built" "$W/stderr"; then echo "SKIP: $(cat "$W/stderr")"; exit 77; fi
[ $rc -eq 0 ] || fail "cosrod view --open exited $rc: $(cat "$W/stderr")"
[ -f "$W/opened" ] || fail "\$BROWSER was not started"
[ "$(sed -n 1p "$W/opened")" = 1 ] || fail "\$BROWSER got $(sed -n 1p "$W/opened") arguments, expected 1"
[ "$(sed -n 2p "$W/opened")" = "$W/out/view.html" ] || fail "\$BROWSER got '$(sed -n 2p "$W/opened")', expected $W/out/view.html"
[ "$(cat "$W/stdout")" = "$W/out/view.html" ] || fail "stdout '$(cat "$W/stdout")' is not the page's path"
grep -q 'id="cosrod-data"' "$W/out/view.html" || fail "view.html has no data"
# no browser at all (no $BROWSER, nothing on PATH): the page is written, one line says to open it
rm -f "$W/out/view.html"
env -i PATH=/nonexistent "$COSROD" view "$W/out" --open >"$W/stdout" 2>"$W/stderr"
rc=$?
[ $rc -eq 1 ] || fail "without a browser: exit $rc, expected 1"
grep -q "no browser found.*open $W/out/view.html yourself" "$W/stderr" || fail "without a browser: stderr '$(cat "$W/stderr")'"
[ -f "$W/out/view.html" ] || fail "without a browser the page was not written"
echo "PASS: --open started \$BROWSER with $W/out/view.html; without a browser: $(cat "$W/stderr")"
