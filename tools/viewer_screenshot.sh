#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's viewer screenshot (viewer/screenshot.png, also the manual's):
# the rubber pendulum of [LLA] Test 1 run into a temporary folder, its
# view.html rendered by headless Chromium at t = 0.4 s, coloured by speed,
# tubes drawn twice as thick as the real section.
#   tools/viewer_screenshot.sh [BUILD_DIR]
set -e
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
COSROD="$BUILD/src/cli/cosrod"
CHROMIUM=$(command -v chromium || command -v chromium-browser)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$COSROD" run "$HERE/examples/rubber-pendulum.yaml" -o "$OUT/run" -q
[ -f "$OUT/run/view.html" ] || { echo "no view.html: the viewer was not built" >&2; exit 1; }
"$CHROMIUM" --headless --no-sandbox --disable-gpu --use-angle=swiftshader --enable-unsafe-swiftshader \
  --hide-scrollbars --user-data-dir="$OUT/profile" --window-size=1000,560 --virtual-time-budget=8000 \
  --screenshot="$HERE/viewer/screenshot.png" "file://$OUT/run/view.html#frame=40&field=speed&radius=2" 2>/dev/null
echo "$HERE/viewer/screenshot.png"
