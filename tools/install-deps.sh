#!/bin/sh
# Install the Debian packages cosrod needs (libsuitesparse-dev: KLU), if any are missing.
# As root: apt-get update && apt-get install -y ...; otherwise print the command.
# `tools/install-deps.sh bench` adds what `make bench` needs on top: python3
# (bench/papers/report.py writes the report) and valgrind (callgrind counts).
set -e
PKGS="build-essential cmake pkg-config liblapacke-dev liblapack-dev libblas-dev libyaml-dev gnuplot-nox libsundials-dev libsuitesparse-dev clang python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib"
[ "${1:-}" = bench ] && PKGS="$PKGS python3 valgrind"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
# The browser viewer (viewer/): node and npm build it (npm ci fetches three.js
# and esbuild pinned by viewer/package-lock.json), chromium runs its tests;
# ffmpeg and Pillow write cosrod.plot.animate's MP4 / GIF.  Installed without
# recommends; a node / npm / chromium already on the PATH (e.g. another
# distribution of Node.js) is kept.
viewer=""
command -v node >/dev/null 2>&1 || viewer="$viewer nodejs"
command -v npm >/dev/null 2>&1 || viewer="$viewer npm"
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || viewer="$viewer chromium"
for p in ffmpeg python3-pil; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || viewer="$viewer $p"
done
[ -z "$missing$viewer" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing:$missing$viewer"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  [ -n "$missing" ] && apt-get install -y -qq $missing >/dev/null
  [ -n "$viewer" ] && apt-get install -y -qq --no-install-recommends $viewer >/dev/null
  exit 0
else
  echo "cosrod needs these Debian packages:$missing$viewer" >&2
  [ -n "$missing" ] && echo "run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  [ -n "$viewer" ] && echo "run:  sudo apt-get install -y --no-install-recommends$viewer" >&2
  exit 1
fi
